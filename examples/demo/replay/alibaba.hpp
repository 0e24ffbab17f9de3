// A day of the real Alibaba 2018 cluster CPU trace (data/traces/alibaba2018, 30-s buckets averaged to
// one minute) replayed as one namespace's CPU demand through seed 001's quota scaling: a static quota,
// reactive only, and the hybrid framework with Holt-Winters (daily season) or another forecaster such
// as the shipped LSTM. Reports QSR, DFR, deployment time and node cost.
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/core/series.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/sim/adapters/quota_scalers.hpp>
#include <continuum/sim/load_profile.hpp>
#include "seed001.hpp"
#include <continuum/sim/simulator.hpp>
#include <continuum/sim/static_scaler.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace continuum::sim::replay {

using namespace std::chrono_literals;

struct AlibabaParameters {
    /// machine_usage_days_1_to_8_grouped_30_seconds.csv (column cpu_util_percent).
    std::string trace_path;
    /// Days of history (for fitting) before the replayed day; the replayed day follows them.
    int history_days = 2;
    /// Minutes replayed (1440 = one day).
    int minutes = 1440;
    /// First minute of the history in the trace; -1 = the last history + replayed minutes of the trace
    /// (the shipped LSTM's held-out tail, so it is not evaluated on its training data).
    int start_minute = -1;
    /// Namespace demand in cores = cluster CPU utilisation (%) x this.
    double cores_per_percent = 2.0;
    /// The static configuration's quota: the history's maximum demand x this headroom.
    double static_headroom = 1.1;
    Seed001Parameters cluster{};  ///< nodes, pod size, levels, latencies (its workload is ignored)
    Duration tick = 5s;
    /// Time-series sampling of the recorded runs.
    Duration sample_every = 1min;
};

struct AlibabaWorkload {
    Series history;       ///< minutes before the replayed day, cores
    LoadProfile load;     ///< the replayed minutes, cores
};

/// Reads the trace and builds the history and the replayed day.
/// \throws InvalidArgument / ParseError for a missing or malformed file or too few rows.
inline AlibabaWorkload alibaba_workload(const AlibabaParameters& p) {
    if (p.history_days < 1 || p.minutes < 1) throw InvalidArgument(fmt::format("alibaba replay: history_days ({}) and minutes ({}) must be >= 1", p.history_days, p.minutes));
    const auto raw = load_csv_column(p.trace_path, "cpu_util_percent", 30s);
    const auto& points = raw.points();  // one point per row, plus a closing point
    std::vector<double> all;
    for (std::size_t i = 0; i + 2 < points.size(); i += 2) all.push_back((points[i].second + points[i + 1].second) / 2.0 * p.cores_per_percent);
    const auto need = static_cast<std::size_t>(1440 * p.history_days + p.minutes);
    const auto start = p.start_minute < 0 ? (all.size() >= need ? all.size() - need : 0) : static_cast<std::size_t>(p.start_minute);
    if (start + need > all.size()) throw InvalidArgument(fmt::format("alibaba replay: \"{}\" has {} minutes, need {} from minute {}", p.trace_path, all.size(), need, start));
    const auto first = all.begin() + static_cast<std::ptrdiff_t>(start);
    const auto split = first + 1440 * p.history_days;
    return AlibabaWorkload{Series(std::vector<double>(first, split), 1min, "alibaba history"),
                           LoadProfile::from_samples(std::vector<double>(split, split + p.minutes), 1min)};
}

/// A forecaster seen through a change of unit: it learns and predicts `value / factor` (e.g. the
/// shipped LSTM works in CPU %, the replay in cores).
template <forecast::Forecaster F>
class ScaledForecaster {
public:
    /// \throws InvalidArgument unless factor is finite and > 0.
    ScaledForecaster(F inner, double factor) : inner_(std::move(inner)), factor_(factor) {
        if (!(factor > 0.0 && std::isfinite(factor))) throw InvalidArgument(fmt::format("ScaledForecaster: factor must be finite and > 0, got {}", factor));
    }
    void fit(SeriesView history) {
        std::vector<double> scaled(history.begin(), history.end());
        for (auto& v : scaled) v /= factor_;
        inner_.fit(SeriesView(scaled, history.step()));
    }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double level) const {
        auto f = inner_.forecast(horizon, level);
        for (auto* part : {&f.mean, &f.lower, &f.upper}) {
            for (auto& v : *part) v *= factor_;
        }
        return f;
    }
    void update(double value) { inner_.update(value / factor_); }
    [[nodiscard]] std::string name() const { return inner_.name(); }

private:
    F inner_;
    double factor_;
};

/// Waiting nodes that must already run for the active nodes plus them to back `quota_cores`.
inline int nodes_backing(const Seed001Parameters& cluster, double quota_cores) {
    const double node = static_cast<double>(cluster.node_capacity.cpu_millis());
    const double missing = quota_cores * 1000.0 - cluster.active_nodes * node;
    return std::clamp(static_cast<int>(std::ceil(missing / node)), 0, cluster.waiting_nodes);
}

/// Runs static, reactive and hybrid (Holt-Winters, m = 1440) on the replayed day, plus one row per
/// extra forecaster given to replay_alibaba_with.
/// \throws as alibaba_workload, Simulator and the scalers.
inline Seed001Report replay_alibaba(const AlibabaParameters& p) {
    Seed001Report report;
    report.parameters = p.cluster;
    const auto workload = alibaba_workload(p);
    auto cluster = p.cluster;
    cluster.tick = p.tick;
    cluster.workload.duration = std::chrono::minutes(p.minutes);
    const double peak = *std::max_element(workload.history.values().begin(), workload.history.values().end());
    const double fixed = std::ceil(peak * p.static_headroom);
    const auto target = adapters::QuotaTarget{"service", "waiting", true};
    {
        auto scenario = seed001_scenario(cluster, workload.load, fixed, nodes_backing(cluster, fixed));
        scenario.config.record.sample_every = p.sample_every;
        Simulator sim(scenario);
        report.rows.push_back(seed001_row(fmt::format("static quota ({:.0f} CPUs)", fixed), sim.run(StaticScaler{}), {}));
    }
    const double initial = std::ceil(workload.history.values().back());
    auto scenario = seed001_scenario(cluster, workload.load, initial, nodes_backing(cluster, initial));
    scenario.config.record.sample_every = p.sample_every;
    Simulator sim(scenario);
    report.rows.push_back(seed001_row("reactive", sim.run(adapters::ReactiveQuotaAdapter(target)), {}));
    forecast::HoltWintersSpec spec;
    spec.trend = forecast::Trend::none;
    spec.seasonal = forecast::Seasonality::additive;
    spec.season_length = 1440;
    auto hybrid = adapters::HybridQuotaAdapter<forecast::HoltWinters<double>>(target, forecast::HoltWinters<double>(spec), workload.history,
                                                                              adapters::hybrid_config(seed001_levels(cluster.level_step_cores)));
    report.rows.push_back(seed001_row("hybrid (Holt-Winters)", sim.run(hybrid), {}));
    return report;
}

/// Appends a hybrid row forecasting with `forecaster` (e.g. the shipped LSTM, wrapped in a
/// ScaledForecaster when it works in CPU %) to `report`.
template <forecast::Forecaster F>
void add_alibaba_hybrid(Seed001Report& report, const AlibabaParameters& p, F forecaster, std::string label) {
    const auto workload = alibaba_workload(p);
    auto cluster = p.cluster;
    cluster.tick = p.tick;
    cluster.workload.duration = std::chrono::minutes(p.minutes);
    const double initial = std::ceil(workload.history.values().back());
    auto scenario = seed001_scenario(cluster, workload.load, initial, nodes_backing(cluster, initial));
    scenario.config.record.sample_every = p.sample_every;
    Simulator sim(scenario);
    auto hybrid = adapters::HybridQuotaAdapter<F>({"service", "waiting", true}, std::move(forecaster), workload.history,
                                                  adapters::hybrid_config(seed001_levels(cluster.level_step_cores)));
    report.rows.push_back(seed001_row(std::move(label), sim.run(hybrid), {}));
}

}  // namespace continuum::sim::replay
