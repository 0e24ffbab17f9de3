// One ScaledObject of continuum-keda-scaler: its trigger metadata (named as KEDA's Prometheus and
// PredictKube scalers name them), its history on the query's step grid and its continuum forecaster,
// fitted once, updated with each new point and refitted every refitInterval. The clock and the
// Prometheus reader are passed in, so the model is tested without a server or a wall clock.
#pragma once

#include "prometheus.hpp"

#include <continuum/forecast/any_forecaster.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace keda_scaler {

/// The trigger metadata of a ScaledObject, validated.
struct ScalerConfig {
    std::string server_address;       // serverAddress, default the --prometheus URL
    std::string query;                // query (required): PromQL returning one series
    std::int64_t step_seconds = 300;  // queryStep, default 5m
    double threshold = 0.0;           // threshold (required, > 0): the HPA's target average value
    double activation_threshold = 0;  // activationThreshold: active when the metric is above it
    int horizon_steps = 0;            // predictHorizon (required) / queryStep, rounded up
    std::size_t history_points = 0;   // historyTimeWindow (required) / queryStep
    std::vector<int> seasons;         // seasons: durations or step counts, e.g. "1d,1w" or "288"
    std::string model = "auto";       // model: auto | holt-winters | lstm:PATH
    double level = 0.0;               // level: upper bound of this interval; 0 = the mean
    std::int64_t refit_seconds = 3600;  // refitInterval, default 1h
    std::string metric_name = "continuum-forecast";  // metricName

    /// \throws continuum::InvalidArgument naming the key and its value for a missing required key,
    ///         a malformed duration or number, an unknown model, a level outside (0, 1), a season
    ///         that is not a multiple of queryStep, or a horizon/history of zero steps.
    static ScalerConfig parse(const std::map<std::string, std::string>& metadata, const std::string& default_server);
    /// Everything that shapes the model, as one string: a changed ScaledObject gets a new model.
    [[nodiscard]] std::string fingerprint() const;
};

/// Parses a KEDA/Go-style duration ("30s", "5m", "1h30m", "1d", "2w") into whole seconds.
/// \throws continuum::InvalidArgument naming `key` and the text.
std::int64_t parse_duration(const std::string& key, const std::string& text);

/// Reads samples of the configured query in [start, end] (unix seconds, on the step grid).
using SampleReader = std::function<std::vector<Sample>(std::int64_t start, std::int64_t end)>;

/// The result of one evaluation.
struct Evaluation {
    double value = 0.0;       // max over the horizon of the forecast mean, or of its upper bound
    std::int64_t as_of = 0;   // time of the newest observation used
    std::string model_name;   // the fitted forecaster, e.g. "portfolio(...)"
    bool refitted = false;    // this evaluation (re)fitted the model
};

class ScaledObjectModel {
public:
    /// \throws continuum::InvalidArgument when an lstm:PATH model cannot be loaded (naming the file).
    explicit ScaledObjectModel(ScalerConfig config);

    /// Brings the model up to `now` and returns the forecast metric. The first call reads the whole
    /// history window and fits; later calls read only the steps after the newest point, update the
    /// forecaster with them (refitting on the last historyTimeWindow when refitInterval has passed
    /// since the last fit) and reuse the cached value while no new step has begun.
    /// \throws PrometheusUnavailable / PrometheusNoData / continuum::InvalidArgument from `read`;
    ///         FitFailed when the forecaster cannot be fitted on the history (e.g. too short).
    Evaluation evaluate(std::int64_t now, const SampleReader& read);

    /// The model's state as a value (version 2): the history since the last fit's window began (for
    /// the next refit), the fit position and the fitted forecaster's own state document (continuum's
    /// state values, docs/state.md). Restoring it does not refit, and evaluations after a restart
    /// equal those of a run that never stopped.
    [[nodiscard]] nlohmann::json state() const;
    /// \throws continuum::InvalidArgument when the state is malformed (naming the field), of another
    ///         version, or saved for other metadata.
    static ScaledObjectModel restore(ScalerConfig config, const nlohmann::json& state);

    [[nodiscard]] const ScalerConfig& config() const { return config_; }
    [[nodiscard]] bool fitted() const { return fitted_; }

private:
    void append(const std::vector<Sample>& samples, std::int64_t from);
    void fit();
    void compute_value();

    ScalerConfig config_;
    continuum::forecast::AnyForecaster prototype_;  // unfitted, copied at each fit
    continuum::forecast::AnyForecaster forecaster_;
    std::vector<double> buffer_;  // values at buffer_start_ + k * step
    std::int64_t buffer_start_ = 0;
    std::size_t fit_begin_ = 0;  // the last fit used buffer_[fit_begin_, fit_end_)
    std::size_t fit_end_ = 0;
    bool fitted_ = false;
    Evaluation last_{};
};

/// The forecaster could not be fitted on the history Prometheus returned.
class FitFailed : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace keda_scaler
