// Holt-Winters exponential smoothing (FPP §8.3; Hyndman et al. 2008), templated on the scalar
// type: trend none / additive / additive damped, season none / additive / multiplicative, any
// season length >= 2. Smoothing matches statsmodels 0.13 ExponentialSmoothing; fitting minimises
// the one-step SSE under statsmodels' bounds with L-BFGS on exact adjoint gradients (O(n) each).
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/detail/checks.hpp>
#include <continuum/forecast/detail/holt_winters_kernel.hpp>
#include <continuum/forecast/detail/holt_winters_lanes.hpp>
#include <continuum/forecast/detail/interval.hpp>
#include <continuum/forecast/detail/lbfgs.hpp>
#include <continuum/forecast/detail/normal.hpp>
#include <continuum/forecast/detail/state_checks.hpp>
#include <continuum/forecast/forecaster.hpp>
#include <continuum/forecast/holt_winters_initialization.hpp>
#include <continuum/forecast/holt_winters_model.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast {

template <std::floating_point Scalar>
class HoltWintersBatch;
enum class LaneInstructions : int;  // detail/holt_winters_lanes.hpp

/// How the initial states are obtained when fitting.
///  - estimated: optimised jointly with α, β, γ, φ, starting from `heuristic` (or `simple` when
///    the series is shorter than heuristic_minimum_length), as statsmodels' fit() does;
///  - heuristic / simple: computed once by that rule and kept fixed (only α, β, γ, φ optimised;
///    the cheap choice for long seasons such as m = 1440).
enum class Initialization { estimated, heuristic, simple };

struct HoltWintersOptions {
    Initialization initialization = Initialization::estimated;
    /// Objective evaluations (node_limit) and optional deadline for the whole fit.
    Budget budget{20'000, std::nullopt};
    /// L-BFGS runs started from the best points of the starting grid.
    int starts = 2;
    /// Reproduce statsmodels 0.13's forecast at horizons h = m, 2m, ..., which uses the seasonal
    /// value from before the last update (statsmodels issue #9538, fixed upstream in PR #10230).
    bool statsmodels_season_quirk = false;
    /// Simulated paths for prediction intervals of multiplicative-season models, and their seed.
    int simulation_paths = 2000;
    std::uint64_t simulation_seed = 0;
};

/// Everything a HoltWinters model remembers after fit() and update(): the spec (echoing the
/// configuration), the fitted parameters, the current level, trend and seasons, and the error sums.
/// The one-step fitted values of the history are not kept (fitted_values() is empty after a restore).
template <std::floating_point Scalar = double>
struct HoltWintersState {
    HoltWintersSpec spec;
    HoltWintersParameters<Scalar> params;
    Scalar level = Scalar(0);
    Scalar trend = Scalar(0);
    std::vector<Scalar> seasons;   ///< circular; seasons[phase] is used next
    std::uint64_t phase = 0;
    Scalar replaced_season = Scalar(0);  ///< the value the last seasonal update overwrote
    Scalar sse = Scalar(0);
    std::uint64_t nobs = 0;
    double update_sse = 0.0;
    std::uint64_t updates = 0;
    std::int64_t evaluations = 0;
    bool converged = true;
    bool fitted = false;

    friend bool operator==(const HoltWintersState&, const HoltWintersState&) = default;
};

template <std::floating_point Scalar = double>
class HoltWinters {
public:
    using scalar_type = Scalar;
    using State = HoltWintersState<Scalar>;

    [[nodiscard]] State state() const {
        return {spec_, params_, state_.level, state_.trend, state_.seasons, state_.phase, state_.replaced_season, sse_, nobs_, update_sse_,
                updates_, evaluations_, converged_, fitted_};
    }
    /// A copy of this model (its spec, options and known parameters) with `state`.
    /// \throws InvalidArgument naming the field: another spec (season_length, trend, ...), a fitted
    ///         state whose seasons or initial seasons do not hold m values, phase out of range,
    ///         parameters outside their bounds, a value that is not finite, negative error sums, nobs 0.
    [[nodiscard]] HoltWinters with_state(const State& s) const {
        constexpr std::string_view who = "holt_winters";
        detail::require_state_matches(s.spec.code(), spec_.code(), who, "spec");
        detail::require_state_matches(s.spec.period(), spec_.period(), who, "spec.season_length");
        detail::require_state_matches(s.spec.season_update == SeasonUpdate::new_level, spec_.season_update == SeasonUpdate::new_level, who,
                                      "spec.season_update is new_level");
        const auto m = static_cast<std::size_t>(spec_.period());
        if (s.fitted) {
            try {
                validate_parameters(s.params);
            } catch (const InvalidArgument& e) {
                throw InvalidArgument(continuum::detail::message("{} restore: state.params: {}", who, e.what()));
            }
            detail::require_state_size(s.seasons.size(), m, who, "seasons");
            if (s.nobs == 0) throw InvalidArgument(continuum::detail::message("{} restore: state.nobs must be >= 1 once fitted", who));
        } else {
            detail::require_state_size(s.seasons.size(), 0, who, "seasons");
        }
        detail::require_state_index(static_cast<std::size_t>(s.phase), s.seasons.size(), who, "phase");
        const Scalar scalars[] = {s.params.alpha, s.params.beta, s.params.gamma, s.params.phi, s.params.initial_level, s.params.initial_trend,
                                  s.level, s.trend, s.replaced_season};
        detail::require_state_values<Scalar>(scalars, who, "(alpha, beta, gamma, phi, initial_level, initial_trend, level, trend, replaced_season)");
        detail::require_state_values<Scalar>(s.params.initial_seasons, who, "params.initial_seasons");
        detail::require_state_values<Scalar>(s.seasons, who, "seasons");
        detail::require_state_non_negative(static_cast<double>(s.sse), who, "sse");
        detail::require_state_non_negative(s.update_sse, who, "update_sse");
        HoltWinters out = *this;
        out.params_ = s.params;
        out.state_.level = s.level;
        out.state_.trend = s.trend;
        out.state_.seasons = s.seasons;
        out.state_.phase = static_cast<std::size_t>(s.phase);
        out.state_.replaced_season = s.replaced_season;
        out.fitted_values_.clear();
        out.sse_ = s.sse;
        out.nobs_ = static_cast<std::size_t>(s.nobs);
        out.update_sse_ = s.update_sse;
        out.updates_ = static_cast<std::size_t>(s.updates);
        out.evaluations_ = s.evaluations;
        out.converged_ = s.converged;
        out.fitted_ = s.fitted;
        return out;
    }
    /// The model configured with state.spec and `options`, with `state`. \throws InvalidArgument as
    ///         the constructor and with_state.
    [[nodiscard]] static HoltWinters restore(const State& s, HoltWintersOptions options = {}) { return HoltWinters(s.spec, options).with_state(s); }

    /// \throws InvalidArgument when the spec is invalid (season_length < 2, damped without trend)
    ///         or options are out of range.
    explicit HoltWinters(HoltWintersSpec spec = {}, HoltWintersOptions options = {}) : spec_(spec), options_(options) {
        spec_.validate();
        options_.budget.validate();
        if (options_.starts < 1) throw InvalidArgument(continuum::detail::message("holt_winters: options.starts must be >= 1, got {}", options_.starts));
        if (options_.simulation_paths < 10) {
            throw InvalidArgument(continuum::detail::message("holt_winters: options.simulation_paths must be >= 10, got {}", options_.simulation_paths));
        }
    }

    /// A model with known parameters and initial states: fit() then only smooths (statsmodels
    /// initialization_method="known", fit(optimized=False)).
    /// \throws InvalidArgument when a parameter is outside [0, 1], φ outside (0, 1] or not 1 for
    ///         an undamped model, or initial_seasons does not have m values.
    static HoltWinters known(HoltWintersSpec spec, HoltWintersParameters<Scalar> parameters, HoltWintersOptions options = {}) {
        HoltWinters out(spec, options);
        out.validate_parameters(parameters);
        out.known_ = std::move(parameters);
        return out;
    }

    /// Fits (or, for a known model, smooths) the history.
    /// \throws InvalidArgument when the series is shorter than two full seasons (seasonal) or 2
    ///         points, is not positive with a multiplicative season, or is too short for
    ///         Initialization::heuristic; the message says how many points are needed.
    void fit(SeriesView history) {
        std::vector<Scalar> y(history.size());
        for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<Scalar>(history[i]);
        fit_values(y);
    }

    /// fit() on values already in Scalar. \throws as fit(), and on non-finite values.
    void fit_values(std::span<const Scalar> y) {
        prepare_fit(y);
        if (known_) {
            params_ = *known_;
        } else {
            optimise(y, nullptr);
        }
        smooth(y);
        fitted_ = true;
    }

    /// Fits `history` again, starting the search from this model's fitted parameters (a warm start:
    /// one L-BFGS run, no starting grid), for a history that extends or overlaps the one fitted
    /// before: rolling-origin validation, periodic refits. Several times cheaper than fit(); it can
    /// end in a different local minimum than fit() (usually the same one). Before any fit, and for a
    /// known model, it is fit(). \throws as fit().
    void refit(SeriesView history) {
        if (!fitted_ || known_) {
            fit(history);
            return;
        }
        std::vector<Scalar> y(history.size());
        for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<Scalar>(history[i]);
        const HoltWintersParameters<Scalar> start = params_;
        prepare_fit(y);
        optimise(y, &start);
        smooth(y);
        fitted_ = true;
    }

    /// refit() of every model in `models` on the same `history` (a warm start from its last fit;
    /// fit() before any, or for a known model), with the same results, their searches advanced
    /// together: each evaluation of two models of one kind (an additive season, the same trend and
    /// season update form, any season lengths) runs side by side with the other's in one pass over
    /// the series (two independent latency-bound chains: together little more than one). Portfolio's
    /// validation refits its Holt-Winters candidates this way. Returns, per model, whether it was
    /// fitted: false where refit() would have thrown InvalidArgument (the model is then left as
    /// that refit() would leave it). Each model keeps its own budget; one with a time limit stops
    /// when the clock says so, which here includes the time of the others' evaluations.
    /// \throws InvalidArgument when an entry of `models` is null (before any model changes).
    [[nodiscard]] static std::vector<bool> refit_together(std::span<HoltWinters* const> models, SeriesView history) {
        for (std::size_t i = 0; i < models.size(); ++i) {
            if (models[i] == nullptr) throw InvalidArgument(continuum::detail::message("holt_winters refit_together: models[{}] is null", i));
        }
        std::vector<Scalar> y(history.size());
        for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<Scalar>(history[i]);
        std::vector<bool> fitted(models.size(), true);
        std::vector<std::optional<Search>> searches(models.size());
        std::vector<HoltWintersParameters<Scalar>> warm(models.size());
        for (std::size_t i = 0; i < models.size(); ++i) {
            HoltWinters& model = *models[i];
            try {
                if (model.known_) {
                    model.fit_values(y);
                    continue;
                }
                const bool from_fit = model.fitted_;
                if (from_fit) warm[i] = model.params_;
                model.prepare_fit(y);
                searches[i].emplace(model, y, from_fit ? &warm[i] : nullptr);
            } catch (const InvalidArgument&) {
                fitted[i] = false;
            }
        }
        std::vector<std::size_t> active;
        std::vector<bool> paired;
        for (;;) {
            active.clear();
            for (std::size_t i = 0; i < models.size(); ++i) {
                if (searches[i] && !searches[i]->done()) active.push_back(i);
            }
            if (active.empty()) break;
            // The models with a trend (the longer chains) first, so that the one left alone, if any,
            // is preferably a cheaper one.
            std::stable_partition(active.begin(), active.end(), [&](std::size_t i) { return models[i]->spec_.has_trend(); });
            paired.assign(active.size(), false);
            for (std::size_t a = 0; a < active.size(); ++a) {
                if (paired[a]) continue;
                Search& first = *searches[active[a]];
                std::size_t partner = active.size();
                for (std::size_t b = a + 1; b < active.size() && partner == active.size(); ++b) {
                    if (!paired[b] && pairs_with(first.model.spec_, searches[active[b]]->model.spec_)) partner = b;
                }
                if (partner == active.size()) {
                    first.model.evaluate(first);
                } else {
                    paired[partner] = true;
                    evaluate_pair(first, *searches[active[partner]]);
                }
            }
        }
        for (std::size_t i = 0; i < models.size(); ++i) {
            if (!searches[i]) continue;
            try {
                searches[i]->finish();
                models[i]->smooth(y);
                models[i]->fitted_ = true;
            } catch (const InvalidArgument&) {
                fitted[i] = false;
            }
        }
        return fitted;
    }

    /// Fits `series` series of equal length at once (rows of `values`, row-major: series i is
    /// values[i·length, (i+1)·length)), each with this model's spec and options, evaluating the
    /// SSE of up to HoltWintersBatch::lanes series together in SIMD lanes. Every series gets the
    /// same fit as fit() alone would give it. `instructions` (LaneInstructions: automatic,
    /// portable, avx2, avx512) forces the lanes' instruction set, e.g. to test a path; every path
    /// gives the same fits. Needs <continuum/forecast/holt_winters_batch.hpp>.
    /// \throws InvalidArgument when series < 1, values.size() is not a multiple of series, a
    ///         series fails fit()'s checks (the message names the series index), or `instructions`
    ///         names a path this build or CPU does not run.
    template <typename Batch = HoltWintersBatch<Scalar>>
    [[nodiscard]] Batch fit_many(std::span<const double> values, std::size_t series, LaneInstructions instructions = LaneInstructions{}) const {
        return Batch(*this, values, series, instructions);
    }

    /// Point forecast and, when level > 0, a prediction interval: analytic (ETS class 1 variance,
    /// σ² = SSE/n) without a multiplicative season, else from `simulation_paths` simulated paths
    /// with Gaussian errors and `simulation_seed` (deterministic).
    /// \throws InvalidArgument before fit(), when horizon < 1 or level is not 0 or in (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        detail::require_fitted(fitted_, "holt_winters");
        detail::require_horizon(horizon);
        detail::require_level(level);
        std::vector<double> mean = point_forecast(horizon);
        if (level == 0.0) return detail::gaussian_forecast(std::move(mean), {}, 0.0);
        if (spec_.seasonal == Seasonality::multiplicative) return simulated_forecast(std::move(mean), level);
        return detail::gaussian_forecast(std::move(mean), analytic_sd(horizon), level);
    }

    /// Absorbs one observation with the fitted parameters: O(1), no refit.
    /// \throws InvalidArgument before fit(), when value is not finite, or not positive for a
    ///         multiplicative season.
    void update(double value) {
        detail::require_fitted(fitted_, "holt_winters");
        detail::require_finite_observation(value);
        if (spec_.seasonal == Seasonality::multiplicative && !(value > 0.0)) {
            throw InvalidArgument(continuum::detail::message("holt_winters update: a multiplicative season needs observations > 0, got {}", value));
        }
        if (std::fabs(value) > static_cast<double>(max_magnitude())) {
            throw InvalidArgument(continuum::detail::message("holt_winters update: observation {} is beyond ±{:g}, where squared errors overflow",
                                                             value, static_cast<double>(max_magnitude())));
        }
        const Scalar y = static_cast<Scalar>(value);
        const auto c = coefficients();
        // The step changes at most one season: keep what it touches so a rejected step leaves the
        // model exactly as it was (O(1)).
        const auto old_level = state_.level, old_trend = state_.trend, old_replaced = state_.replaced_season;
        const auto old_phase = state_.phase;
        const auto old_season = state_.seasons.empty() ? Scalar(0) : state_.seasons[old_phase];
        const Scalar f = detail::dispatch_holt_winters(spec_, [&]<Seasonality S, bool T, bool N>() {
            return detail::holt_winters_step<Scalar, S, T, N>(y, c, state_);
        });
        const double error = static_cast<double>(y) - static_cast<double>(f);
        const double new_sse = update_sse_ + error * error;
        const bool season_ok = state_.seasons.empty() || std::isfinite(state_.seasons[old_phase]);
        if (!std::isfinite(new_sse) || !std::isfinite(state_.level) || !std::isfinite(state_.trend) || !season_ok) {
            state_.level = old_level;
            state_.trend = old_trend;
            state_.replaced_season = old_replaced;
            state_.phase = old_phase;
            if (!state_.seasons.empty()) state_.seasons[old_phase] = old_season;
            if (f != f) {
                throw InvalidArgument(continuum::detail::message("holt_winters update: the multiplicative state became non-positive at observation {}", value));
            }
            throw InvalidArgument(continuum::detail::message("holt_winters update: observation {} overflows the model state or its error sum; "
                                                             "the model is unchanged",
                                                             value));
        }
        update_sse_ = new_sse;
        ++updates_;
    }

    /// Largest |observation| fit() and update() accept: sqrt(largest Scalar) / 1e4 (max_observation,
    /// 1.3e150, for double; 1.8e15 for float), so squared errors summed over long histories stay finite.
    [[nodiscard]] static constexpr Scalar max_magnitude() {
        if constexpr (std::is_same_v<Scalar, float>) {
            return 1.8e15F;
        } else {
            return static_cast<Scalar>(max_observation);
        }
    }

    [[nodiscard]] std::string name() const {
        return spec_.has_season() ? continuum::detail::message("holt_winters({}, m={})", spec_.code(), spec_.season_length)
                                  : continuum::detail::message("holt_winters({})", spec_.code());
    }

    [[nodiscard]] const HoltWintersSpec& spec() const { return spec_; }
    [[nodiscard]] const HoltWintersOptions& options() const { return options_; }
    [[nodiscard]] bool is_fitted() const { return fitted_; }
    /// Fitted (or known) smoothing parameters and initial states. \throws InvalidArgument before fit().
    [[nodiscard]] const HoltWintersParameters<Scalar>& params() const {
        detail::require_fitted(fitted_, "holt_winters");
        return params_;
    }
    /// Sum of squared one-step errors of the fit (statsmodels' sse).
    [[nodiscard]] Scalar sse() const { return sse_; }
    /// Number of observations fitted.
    [[nodiscard]] std::size_t nobs() const { return nobs_; }
    /// statsmodels' parameter count: m·seasonal + 2·trend + 2 + damped.
    [[nodiscard]] int parameter_count() const {
        return spec_.period() + (spec_.has_trend() ? 2 : 0) + 2 + (spec_.damped ? 1 : 0);
    }
    /// n·log(SSE/n) + 2k (statsmodels; SSE/n floored at the smallest normal double, so a perfect
    /// fit gives a very negative but finite value).
    [[nodiscard]] double aic() const { return log_likelihood_term() + 2.0 * parameter_count(); }
    /// aic + 2(k+2)(k+3)/(n−k−3), or +inf when n <= k + 3 (statsmodels).
    [[nodiscard]] double aicc() const {
        const double k = parameter_count();
        const double n = static_cast<double>(nobs_);
        if (n - k - 3.0 <= 0.0) return std::numeric_limits<double>::infinity();
        return aic() + 2.0 * (k + 2.0) * (k + 3.0) / (n - k - 3.0);
    }
    [[nodiscard]] double bic() const { return log_likelihood_term() + parameter_count() * std::log(static_cast<double>(nobs_)); }
    /// One-step fitted values of the history (statsmodels' fittedvalues).
    [[nodiscard]] std::span<const Scalar> fitted_values() const { return fitted_values_; }
    /// Residual standard deviation used by the intervals: sqrt(SSE/n), updates included.
    [[nodiscard]] double sigma() const {
        return std::sqrt((static_cast<double>(sse_) + update_sse_) / static_cast<double>(nobs_ + updates_));
    }
    /// Current level and trend (0 without a trend).
    [[nodiscard]] Scalar level() const { return state_.level; }
    [[nodiscard]] Scalar trend() const { return state_.trend; }
    /// The m current seasonal values in the order they will be used (front: next step).
    [[nodiscard]] std::vector<Scalar> seasons() const {
        std::vector<Scalar> out;
        for (std::size_t k = 0; k < state_.seasons.size(); ++k) out.push_back(state_.seasons[(state_.phase + k) % state_.seasons.size()]);
        return out;
    }
    /// Objective evaluations the last fit used, and whether every L-BFGS run converged.
    [[nodiscard]] std::int64_t evaluations() const { return evaluations_; }
    [[nodiscard]] bool converged() const { return converged_; }

    /// The SSE of `y` under given parameters (no state change). \throws InvalidArgument as known().
    [[nodiscard]] Scalar sse_at(std::span<const Scalar> y, const HoltWintersParameters<Scalar>& p) const {
        validate_parameters(p);
        auto state = initial_state(p);
        const detail::HoltWintersCoefficients<Scalar> c{p.alpha, p.beta, p.gamma, p.phi};
        return detail::dispatch_holt_winters(spec_, [&]<Seasonality S, bool T, bool N>() {
            return detail::holt_winters_forward<Scalar, S, T, N>(y, c, state, {}, {});
        });
    }

private:
    template <std::floating_point>
    friend class HoltWintersBatch;

    /// fit()'s checks on y, and the reset of the fit statistics.
    void prepare_fit(std::span<const Scalar> y) {
        for (std::size_t i = 0; i < y.size(); ++i) {
            if (!std::isfinite(y[i])) throw InvalidArgument(continuum::detail::message("holt_winters: series[{}] = {} is not finite", i, static_cast<double>(y[i])));
            if (std::fabs(y[i]) > max_magnitude()) {
                throw InvalidArgument(continuum::detail::message("holt_winters: series[{}] = {} is beyond ±{:g}, where squared errors overflow; rescale the series",
                                                                 i, static_cast<double>(y[i]), static_cast<double>(max_magnitude())));
            }
        }
        check_length(y.size());
        if (spec_.seasonal == Seasonality::multiplicative) detail::require_positive(y, "holt_winters", "a multiplicative season");
        fitted_ = false;
        evaluations_ = 0;
        converged_ = true;
    }

    static constexpr double lower_bound_ = 1.4901161193847656e-08;  // statsmodels' sqrt(eps) margin on α
    static constexpr double phi_low_ = 0.8, phi_high_ = 0.995;

    void check_length(std::size_t n) const {
        if (spec_.has_season()) {
            const auto m = static_cast<std::size_t>(spec_.season_length);
            if (n < 2 * m) {
                throw InvalidArgument(continuum::detail::message("holt_winters: series has {} points, needs at least 2*season_length = {} (two full seasons of {})",
                                                                 n, 2 * m, m));
            }
        } else {
            detail::require_length(n, 2, "holt_winters", "two points");
        }
        if (!known_ && options_.initialization == Initialization::heuristic) {
            detail::require_length(n, heuristic_minimum_length(spec_), "holt_winters heuristic initialisation",
                                   spec_.has_season() ? "two full seasons and 10 + 2*(season_length/2) points" : "10 points");
        }
    }

    void validate_parameters(const HoltWintersParameters<Scalar>& p) const {
        const auto in01 = [](Scalar v) { return v >= Scalar(0) && v <= Scalar(1); };
        if (!in01(p.alpha)) throw InvalidArgument(continuum::detail::message("holt_winters: alpha must be in [0, 1], got {}", static_cast<double>(p.alpha)));
        if (spec_.has_trend() && !in01(p.beta)) throw InvalidArgument(continuum::detail::message("holt_winters: beta must be in [0, 1], got {}", static_cast<double>(p.beta)));
        if (spec_.has_season() && !in01(p.gamma)) throw InvalidArgument(continuum::detail::message("holt_winters: gamma must be in [0, 1], got {}", static_cast<double>(p.gamma)));
        if (spec_.damped ? !(p.phi > Scalar(0) && p.phi <= Scalar(1)) : p.phi != Scalar(1)) {
            throw InvalidArgument(continuum::detail::message("holt_winters: phi must be in (0, 1] for a damped trend and 1 otherwise, got {}", static_cast<double>(p.phi)));
        }
        if (!std::isfinite(p.initial_level) || !std::isfinite(p.initial_trend)) {
            throw InvalidArgument("holt_winters: initial_level and initial_trend must be finite");
        }
        const std::size_t m = static_cast<std::size_t>(spec_.period());
        if (p.initial_seasons.size() != m) {
            throw InvalidArgument(continuum::detail::message("holt_winters: initial_seasons must have {} values (season_length), got {}", m, p.initial_seasons.size()));
        }
        for (std::size_t j = 0; j < m; ++j) {
            if (!std::isfinite(p.initial_seasons[j]) || (spec_.seasonal == Seasonality::multiplicative && !(p.initial_seasons[j] > Scalar(0)))) {
                throw InvalidArgument(continuum::detail::message("holt_winters: initial_seasons[{}] = {} must be finite{}", j, static_cast<double>(p.initial_seasons[j]),
                                                                 spec_.seasonal == Seasonality::multiplicative ? " and > 0 (multiplicative season)" : ""));
            }
        }
    }

    [[nodiscard]] detail::HoltWintersCoefficients<Scalar> coefficients() const {
        return {params_.alpha, params_.beta, params_.gamma, spec_.damped ? params_.phi : Scalar(1)};
    }

    [[nodiscard]] detail::HoltWintersState<Scalar> initial_state(const HoltWintersParameters<Scalar>& p) const {
        detail::HoltWintersState<Scalar> state;
        state.level = p.initial_level;
        state.trend = spec_.has_trend() ? p.initial_trend : Scalar(0);
        state.seasons = p.initial_seasons;
        return state;
    }

    void smooth(std::span<const Scalar> y) {
        state_ = initial_state(params_);
        fitted_values_.assign(y.size(), Scalar(0));
        const auto c = coefficients();
        sse_ = detail::dispatch_holt_winters(spec_, [&]<Seasonality S, bool T, bool N>() {
            return detail::holt_winters_forward<Scalar, S, T, N>(y, c, state_, std::span<Scalar>(fitted_values_), {});
        });
        if (!std::isfinite(sse_)) {
            throw InvalidArgument("holt_winters: the multiplicative state became non-positive while smoothing; check the known parameters");
        }
        nobs_ = y.size();
        update_sse_ = 0.0;
        updates_ = 0;
    }

    [[nodiscard]] double log_likelihood_term() const {
        const double n = static_cast<double>(nobs_);
        const double mse = std::max(static_cast<double>(sse_) / n, std::numeric_limits<double>::min());
        return n * std::log(mse);
    }

    [[nodiscard]] std::vector<double> point_forecast(int horizon) const {
        std::vector<double> out(static_cast<std::size_t>(horizon));
        const double phi = spec_.damped ? static_cast<double>(params_.phi) : 1.0;
        const std::size_t m = state_.seasons.size();
        double phi_h = 0.0, power = 1.0;
        for (std::size_t h = 1; h <= out.size(); ++h) {
            power *= phi;
            phi_h += power;
            const double trended = static_cast<double>(state_.level) + (spec_.has_trend() ? phi_h * static_cast<double>(state_.trend) : 0.0);
            if (m == 0) {
                out[h - 1] = trended;
                continue;
            }
            double season = static_cast<double>(state_.seasons[(state_.phase + h - 1) % m]);
            if (options_.statsmodels_season_quirk && h % m == 0) season = static_cast<double>(state_.replaced_season);
            out[h - 1] = spec_.seasonal == Seasonality::multiplicative ? trended * season : trended + season;
        }
        return out;
    }

    /// sd_h = σ·sqrt(1 + Σ_{j<h} c_j²), c_j = α + αβφ_j + γ'·[j mod m = 0] (Hyndman et al. 2008,
    /// Table 6.1 class 1), γ' = γ (previous-level form) or γ(1 − α) (new-level form).
    [[nodiscard]] std::vector<double> analytic_sd(int horizon) const {
        const double alpha = params_.alpha, beta = spec_.has_trend() ? static_cast<double>(params_.beta) : 0.0;
        const double phi = spec_.damped ? static_cast<double>(params_.phi) : 1.0;
        double gamma = spec_.has_season() ? static_cast<double>(params_.gamma) : 0.0;
        if (spec_.season_update == SeasonUpdate::new_level) gamma *= 1.0 - alpha;
        const std::size_t m = static_cast<std::size_t>(spec_.period());
        const double sigma_value = sigma();
        std::vector<double> sd(static_cast<std::size_t>(horizon));
        double sum = 1.0, phi_j = 0.0, power = 1.0;
        for (std::size_t h = 1; h <= sd.size(); ++h) {
            sd[h - 1] = sigma_value * std::sqrt(sum);
            power *= phi;
            phi_j += power;
            const double c = alpha + alpha * beta * phi_j + ((m > 0 && h % m == 0) ? gamma : 0.0);
            sum += c * c;
        }
        return sd;
    }

    [[nodiscard]] Forecast simulated_forecast(std::vector<double> mean, double level) const {
        const std::size_t horizon = mean.size();
        const auto paths = static_cast<std::size_t>(options_.simulation_paths);
        std::vector<double> samples(horizon * paths);
        detail::NormalGenerator normal(options_.simulation_seed);
        const auto c = coefficients();
        const double sigma_value = sigma();
        // A path that leaves ±max_magnitude() (a multiplicative state dividing by a near-zero
        // seasonal factor, with σ inflated by a spike) stays at that bound for the rest of the
        // horizon: the interval then says "unbounded" in finite numbers instead of inf or NaN.
        const double limit = static_cast<double>(max_magnitude());
        for (std::size_t path = 0; path < paths; ++path) {
            auto state = state_;
            std::optional<double> escaped;
            for (std::size_t h = 0; h < horizon; ++h) {
                const double noise = sigma_value * normal();  // drawn on every step: paths stay on one stream
                if (escaped) {
                    samples[h * paths + path] = *escaped;
                    continue;
                }
                // The forecast of this step, then the simulated observation fed back into the state
                // (kept positive so a multiplicative state stays defined).
                detail::dispatch_holt_winters(spec_, [&]<Seasonality S, bool T, bool N>() {
                    const double y = static_cast<double>(detail::holt_winters_peek<Scalar, S, T>(c, state)) + noise;
                    if (!(std::fabs(y) <= limit)) {
                        escaped = y < 0.0 ? -limit : limit;
                        samples[h * paths + path] = *escaped;
                        return 0;
                    }
                    samples[h * paths + path] = y;
                    const auto fed = static_cast<Scalar>(std::max(y, 1e-12 * std::fabs(static_cast<double>(state.level)) + 1e-300));
                    (void)detail::holt_winters_step<Scalar, S, T, N>(fed, c, state);
                    return 0;
                });
            }
        }
        Forecast out;
        out.mean = std::move(mean);
        out.lower.resize(horizon);
        out.upper.resize(horizon);
        out.level = level;
        const double tail = 0.5 * (1.0 - level);
        for (std::size_t h = 0; h < horizon; ++h) {
            auto first = samples.begin() + static_cast<std::ptrdiff_t>(h * paths);
            std::sort(first, first + static_cast<std::ptrdiff_t>(paths));
            const auto quantile = [&](double q) {
                const double position = q * static_cast<double>(paths - 1);
                const auto below = static_cast<std::size_t>(position);
                const double weight = position - static_cast<double>(below);
                const std::size_t above = std::min(below + 1, paths - 1);
                return first[static_cast<std::ptrdiff_t>(below)] * (1.0 - weight) + first[static_cast<std::ptrdiff_t>(above)] * weight;
            };
            out.lower[h] = std::min(quantile(tail), out.mean[h]);
            out.upper[h] = std::max(quantile(1.0 - tail), out.mean[h]);
        }
        return out;
    }

    // ---- fitting -------------------------------------------------------------------------------


    struct Layout {
        bool trend, season, damped, states;
        std::size_t m;
        [[nodiscard]] std::size_t size() const {
            return 1 + trend + season + damped + (states ? 1 + trend + (season ? m : 0) : 0);
        }
    };

    /// One series' fitting problem: the initial states, the box, the scaling of the search
    /// coordinates x and the maps x -> parameters and SSE gradient -> x-gradient. Shared by fit()
    /// and HoltWintersBatch (which evaluates many problems in lanes), so both search alike.
    struct Problem {
        Layout layout;
        HoltWintersStates<Scalar> init;
        double level_scale, trend_scale, season_scale, normaliser;
        std::vector<double> lower, upper;
        std::size_t smoothing;

        Problem(const HoltWinters& model, std::span<const Scalar> y) {
            const auto& spec = model.spec_;
            const auto& options = model.options_;
            const std::size_t n = y.size();
            const bool use_heuristic = options.initialization == Initialization::heuristic ||
                                       (options.initialization == Initialization::estimated && n >= heuristic_minimum_length(spec));
            init = use_heuristic ? heuristic_initial_states(y, spec) : simple_initial_states(y, spec);
            layout = Layout{spec.has_trend(), spec.has_season(), spec.damped, options.initialization == Initialization::estimated,
                            static_cast<std::size_t>(spec.period())};
            // Scales: states move in units of the data spread so every coordinate is O(1).
            double mean = 0.0, spread = 0.0;
            for (Scalar v : y) mean += static_cast<double>(v);
            mean /= static_cast<double>(n);
            for (Scalar v : y) spread += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
            spread = std::sqrt(spread / static_cast<double>(n));
            if (!(spread > 0.0)) spread = std::max(std::fabs(mean), 1.0);
            level_scale = spread;
            trend_scale = spread / static_cast<double>(std::max<std::size_t>(layout.m, 10));
            season_scale = spec.seasonal == Seasonality::multiplicative ? 0.1 : spread;
            normaliser = 1.0 / (static_cast<double>(n) * spread * spread);
            // Box: the smoothing coordinates in [0, 1]; states free, except >= 0 where multiplicative.
            lower.assign(layout.size(), -std::numeric_limits<double>::infinity());
            upper.assign(layout.size(), std::numeric_limits<double>::infinity());
            smoothing = 1 + layout.trend + layout.season + layout.damped;
            for (std::size_t i = 0; i < smoothing; ++i) {
                lower[i] = 0.0;
                upper[i] = 1.0;
            }
            if (layout.states && spec.seasonal == Seasonality::multiplicative) {
                lower[smoothing] = -static_cast<double>(init.level) / level_scale;
                for (std::size_t j = 0; j < layout.m; ++j) {
                    lower[smoothing + 1 + layout.trend + j] = -static_cast<double>(init.seasons[j]) / season_scale;
                }
            }
        }

        /// The parameters at search point x (seasons sized by the caller or here).
        void decode(const std::vector<double>& x, HoltWintersParameters<Scalar>& candidate) const {
            std::size_t i = 0;
            const double alpha = lower_bound_ + x[i++] * (1.0 - 2.0 * lower_bound_);
            candidate.alpha = static_cast<Scalar>(alpha);
            candidate.beta = layout.trend ? static_cast<Scalar>(x[i++] * alpha) : Scalar(0);
            candidate.gamma = layout.season ? static_cast<Scalar>(x[i++] * (1.0 - alpha)) : Scalar(0);
            candidate.phi = layout.damped ? static_cast<Scalar>(phi_low_ + (phi_high_ - phi_low_) * x[i++]) : Scalar(1);
            candidate.initial_level = init.level;
            candidate.initial_trend = init.trend;
            candidate.initial_seasons.resize(init.seasons.size());
            if (!layout.states) {
                std::copy(init.seasons.begin(), init.seasons.end(), candidate.initial_seasons.begin());
                return;
            }
            candidate.initial_level = static_cast<Scalar>(static_cast<double>(init.level) + level_scale * x[i++]);
            if (layout.trend) candidate.initial_trend = static_cast<Scalar>(static_cast<double>(init.trend) + trend_scale * x[i++]);
            for (std::size_t j = 0; layout.season && j < layout.m; ++j) {
                candidate.initial_seasons[j] = static_cast<Scalar>(static_cast<double>(init.seasons[j]) + season_scale * x[i++]);
            }
        }

        /// The search point of `p` (the inverse of decode, clamped to the box): a warm start.
        [[nodiscard]] std::vector<double> encode(const HoltWintersParameters<Scalar>& p) const {
            std::vector<double> x(layout.size(), 0.0);
            std::size_t i = 0;
            const double alpha = static_cast<double>(p.alpha);
            x[i++] = (alpha - lower_bound_) / (1.0 - 2.0 * lower_bound_);
            if (layout.trend) x[i++] = alpha > 0.0 ? static_cast<double>(p.beta) / alpha : 0.0;
            if (layout.season) x[i++] = alpha < 1.0 ? static_cast<double>(p.gamma) / (1.0 - alpha) : 0.0;
            if (layout.damped) x[i++] = (static_cast<double>(p.phi) - phi_low_) / (phi_high_ - phi_low_);
            if (layout.states) {
                x[i++] = (static_cast<double>(p.initial_level) - static_cast<double>(init.level)) / level_scale;
                if (layout.trend) x[i++] = (static_cast<double>(p.initial_trend) - static_cast<double>(init.trend)) / trend_scale;
                for (std::size_t j = 0; layout.season && j < layout.m; ++j) {
                    x[i++] = (static_cast<double>(p.initial_seasons[j]) - static_cast<double>(init.seasons[j])) / season_scale;
                }
            }
            for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::isfinite(x[j]) ? std::clamp(x[j], lower[j], upper[j]) : 0.0;
            return x;
        }

        /// The normalised objective from an SSE (+inf when not finite).
        [[nodiscard]] double value(Scalar sse) const {
            return std::isfinite(sse) ? static_cast<double>(sse) * normaliser : std::numeric_limits<double>::infinity();
        }

        /// The gradient in search coordinates from the SSE gradient at x.
        void x_gradient(const std::vector<double>& x, const detail::HoltWintersGradient<Scalar>& gradient, std::vector<double>& grad) const {
            std::size_t i = 0;
            const double alpha = lower_bound_ + x[0] * (1.0 - 2.0 * lower_bound_);
            double d_alpha = static_cast<double>(gradient.alpha);
            if (layout.trend) d_alpha += static_cast<double>(gradient.beta) * x[1];
            if (layout.season) d_alpha -= static_cast<double>(gradient.gamma) * x[1 + layout.trend];
            grad[i++] = d_alpha * (1.0 - 2.0 * lower_bound_) * normaliser;
            if (layout.trend) {
                grad[i] = static_cast<double>(gradient.beta) * alpha * normaliser;
                ++i;
            }
            if (layout.season) {
                grad[i] = static_cast<double>(gradient.gamma) * (1.0 - alpha) * normaliser;
                ++i;
            }
            if (layout.damped) {
                grad[i] = static_cast<double>(gradient.phi) * (phi_high_ - phi_low_) * normaliser;
                ++i;
            }
            if (layout.states) {
                grad[i++] = static_cast<double>(gradient.level) * level_scale * normaliser;
                if (layout.trend) grad[i++] = static_cast<double>(gradient.trend) * trend_scale * normaliser;
                for (std::size_t j = 0; layout.season && j < layout.m; ++j) {
                    grad[i++] = static_cast<double>(gradient.seasons[j]) * season_scale * normaliser;
                }
            }
        }

        /// Starting grid over (α, β/α, γ/(1−α)) with φ = 0.99 and the initial states, like
        /// statsmodels' brute start but coarser; the best few points seed L-BFGS runs.
        [[nodiscard]] std::vector<std::vector<double>> grid() const {
            static constexpr double alpha_grid[] = {0.01, 0.05, 0.15, 0.3, 0.5, 0.7, 0.9, 0.99};
            static constexpr double beta_grid[] = {0.01, 0.1, 0.5};
            static constexpr double gamma_grid[] = {0.01, 0.1, 0.4, 0.8};
            const double phi_start = (0.99 - phi_low_) / (phi_high_ - phi_low_);
            std::vector<std::vector<double>> out;
            for (double a : alpha_grid) {
                for (std::size_t bi = 0; bi < (layout.trend ? std::size(beta_grid) : 1); ++bi) {
                    for (std::size_t gi = 0; gi < (layout.season ? std::size(gamma_grid) : 1); ++gi) {
                        std::vector<double> x(layout.size(), 0.0);
                        std::size_t i = 0;
                        x[i++] = a;
                        if (layout.trend) x[i++] = beta_grid[bi];
                        if (layout.season) x[i++] = gamma_grid[gi];
                        if (layout.damped) x[i++] = phi_start;
                        out.push_back(std::move(x));
                    }
                }
            }
            return out;
        }
    };

    /// The objective at every grid point (forward passes only), `lanes` points at a time in SIMD lanes
    /// (detail/holt_winters_lanes.hpp, as fit_many evaluates series): each lane runs the one-series
    /// step functions, so every value equals a one-series pass bit for bit (session 14).
    void grid_values(std::span<const Scalar> y, const Problem& problem, std::vector<std::pair<double, std::vector<double>>>& grid) const {
        constexpr std::size_t lanes = 64 / sizeof(Scalar);
        const std::size_t n = y.size();
        const auto m = static_cast<std::size_t>(std::max(spec_.period(), 1));
        std::vector<Scalar> interleaved(n * lanes);
        for (std::size_t t = 0; t < n; ++t) std::fill_n(interleaved.begin() + static_cast<std::ptrdiff_t>(t * lanes), lanes, y[t]);
        detail::HoltWintersLanes<Scalar, lanes> data;
        std::vector<Scalar> no_trace;
        HoltWintersParameters<Scalar> p;
        const auto instructions = detail::resolve_lane_instructions(LaneInstructions::automatic);
        for (std::size_t first = 0; first < grid.size(); first += lanes) {
            const std::size_t count = std::min(lanes, grid.size() - first);
            data.seasons.assign(m * lanes, Scalar(0));
            for (std::size_t l = 0; l < lanes; ++l) {
                problem.decode(grid[first + std::min(l, count - 1)].second, p);  // spare lanes repeat the last point
                data.alpha[l] = p.alpha;
                data.beta[l] = p.beta;
                data.gamma[l] = p.gamma;
                data.phi[l] = p.phi;
                data.level[l] = p.initial_level;
                data.trend[l] = spec_.has_trend() ? p.initial_trend : Scalar(0);
                for (std::size_t j = 0; j < p.initial_seasons.size(); ++j) data.seasons[j * lanes + l] = p.initial_seasons[j];
            }
            detail::dispatch_holt_winters(spec_, [&]<Seasonality S, bool T, bool N>() {
                detail::holt_winters_evaluate_lanes_with<Scalar, lanes, S, T, N>(instructions, interleaved, n, m, data, no_trace, false);
                return 0;
            });
            for (std::size_t l = 0; l < count; ++l) grid[first + l].first = data.bad[l] ? std::numeric_limits<double>::infinity() : problem.value(data.sse[l]);
        }
    }

    /// One model's minimisation of the SSE on y, step by step (reverse communication, so that
    /// refit_together can advance several at once): from `warm` alone when given, else (or when
    /// the warm point is infeasible) from the starting grid's best `starts` points, one L-BFGS run
    /// after the other. The caller evaluates point() (value(), then gradient() when the search
    /// reads it) and tells the search until done() and then calls finish().
    struct Search {
        HoltWinters& model;
        std::span<const Scalar> y;
        Problem problem;
        BudgetTracker tracker;
        std::vector<Scalar> trace;
        HoltWintersParameters<Scalar> candidate;
        detail::HoltWintersGradient<Scalar> gradient;
        detail::HoltWintersCoefficients<Scalar> c{};
        std::optional<detail::LbfgsSearch> lbfgs;
        std::vector<std::pair<double, std::vector<double>>> grid;
        std::size_t start = 0, starts = 0;
        bool grid_done = false;
        double best = std::numeric_limits<double>::infinity();
        std::vector<double> best_x;

        Search(HoltWinters& m, std::span<const Scalar> values, const HoltWintersParameters<Scalar>* warm)
            : model(m), y(values), problem(m, values), tracker(m.options_.budget), trace(3 * values.size()) {
            // A warm start: one L-BFGS run from the previous fit, whose first evaluation tells whether
            // that point is feasible (no separate forward pass; session 14); if not, the grid.
            if (warm != nullptr) {
                run_from(problem.encode(*warm), 1);
            } else {
                next_run();
            }
        }

        [[nodiscard]] bool done() const { return !lbfgs; }
        [[nodiscard]] const std::vector<double>& point() const { return lbfgs->point(); }

        /// Decodes point() into `candidate` and `c` for the forward pass, and counts the evaluation.
        void prepare_point() {
            problem.decode(point(), candidate);
            tracker.count();
            ++model.evaluations_;
            c = {candidate.alpha, candidate.beta, candidate.gamma, candidate.phi};
        }
        /// The objective from the forward pass's SSE.
        [[nodiscard]] double objective(Scalar sse) const {
            return std::isfinite(sse) ? problem.value(sse) : std::numeric_limits<double>::infinity();
        }
        /// Tells the search the objective at point(); the reverse pass must have left the SSE's
        /// gradient in `gradient` when lbfgs->needs_gradient(value).
        void tell(double value) {
            if (lbfgs->needs_gradient(value)) problem.x_gradient(point(), gradient, lbfgs->gradient());
            lbfgs->tell(value, [&] { return tracker.exhausted(); });
            if (!lbfgs->wants_evaluation()) end_run();
        }

        /// The fitted parameters. \throws InvalidArgument when no run found a feasible point.
        void finish() {
            if (!std::isfinite(best)) {
                throw InvalidArgument("holt_winters: no feasible starting point (a multiplicative state becomes non-positive for every grid point)");
            }
            problem.decode(best_x, candidate);
            model.params_ = candidate;
        }

    private:
        void run_from(std::vector<double> x0, std::size_t runs_left) {
            detail::LbfgsOptions options;
            options.max_evaluations = std::max<std::int64_t>(1, (model.options_.budget.node_limit - tracker.nodes()) / static_cast<std::int64_t>(runs_left));
            lbfgs.emplace(std::move(x0), problem.lower, problem.upper, options);
            if (!lbfgs->wants_evaluation()) end_run();
        }
        void end_run() {
            const auto& result = lbfgs->result();
            model.converged_ = model.converged_ && result.converged;
            if (result.value < best) {
                best = result.value;
                best_x = result.x;
            }
            lbfgs.reset();
            next_run();
        }
        /// After the warm run (if any): the grid when nothing feasible was found, then its best points in turn.
        void next_run() {
            if (!grid_done) {
                if (std::isfinite(best)) return;
                grid_done = true;
                for (auto& x : problem.grid()) grid.emplace_back(0.0, std::move(x));
                model.grid_values(y, problem, grid);
                for (std::size_t k = 0; k < grid.size(); ++k) {
                    tracker.count();
                    ++model.evaluations_;
                }
                std::stable_sort(grid.begin(), grid.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
                best_x = grid.front().second;
                starts = std::min<std::size_t>(static_cast<std::size_t>(model.options_.starts), grid.size());
            }
            if (start < starts && !tracker.exhausted() && std::isfinite(grid[start].first)) {
                ++start;
                run_from(grid[start - 1].second, starts - (start - 1));
            }
        }
    };

    /// One evaluation of `search` (this model's) at its point: the forward pass, the reverse pass
    /// only where the search reads the gradient (not at rejected line-search trials), then tell.
    void evaluate(Search& search) const {
        search.prepare_point();
        const auto& c = search.c;
        const auto y = search.y;
        const double value = search.objective(detail::dispatch_holt_winters(spec_, [&]<Seasonality S, bool T, bool N>() {
            auto state = initial_state(search.candidate);
            return detail::holt_winters_forward<Scalar, S, T, N>(y, c, state, {}, std::span<Scalar>(search.trace));
        }));
        if (search.lbfgs->needs_gradient(value)) evaluate_gradient(search);
        search.tell(value);
    }

    /// The reverse pass of `search`'s last forward pass (the SSE's gradient into search.gradient).
    void evaluate_gradient(Search& search) const {
        detail::dispatch_holt_winters(spec_, [&]<Seasonality S, bool T, bool N>() {
            detail::holt_winters_backward<Scalar, S, T, N>(search.y, search.c, search.trace, search.problem.layout.m, search.gradient);
            return 0;
        });
    }

    /// Whether two models' evaluations can share a pass (refit_together): an additive season (the
    /// only kind paired, to keep the instantiations few) and the same season update form.
    [[nodiscard]] static bool pairs_with(const HoltWintersSpec& a, const HoltWintersSpec& b) {
        return a.seasonal == Seasonality::additive && b.seasonal == Seasonality::additive && a.season_update == b.season_update;
    }

    /// evaluate() of two searches (models that pairs_with each other) in paired passes.
    static void evaluate_pair(Search& first, Search& second) {
        first.prepare_point();
        second.prepare_point();
        const std::array<detail::HoltWintersCoefficients<Scalar>, 2> c{first.c, second.c};
        const auto y = first.y;
        // The kernels for the two trend flags and the (shared) season update form.
        const bool new_level = first.model.spec_.season_update == SeasonUpdate::new_level;
        const auto pair = [&](auto&& kernel) {
            const auto second_trend = [&]<bool A>() {
                if (second.model.spec_.has_trend()) {
                    return new_level ? kernel.template operator()<A, true, true>() : kernel.template operator()<A, true, false>();
                }
                return new_level ? kernel.template operator()<A, false, true>() : kernel.template operator()<A, false, false>();
            };
            return first.model.spec_.has_trend() ? second_trend.template operator()<true>() : second_trend.template operator()<false>();
        };
        const auto sse = pair([&]<bool A, bool B, bool N>() {
            auto a = first.model.initial_state(first.candidate);
            auto b = second.model.initial_state(second.candidate);
            return detail::holt_winters_forward_pair<Scalar, Seasonality::additive, A, B, N>(y, c, {&a, &b}, {first.trace.data(), second.trace.data()});
        });
        const double values[] = {first.objective(sse[0]), second.objective(sse[1])};
        const bool needs[] = {first.lbfgs->needs_gradient(values[0]), second.lbfgs->needs_gradient(values[1])};
        if (needs[0] && needs[1]) {
            pair([&]<bool A, bool B, bool N>() {
                detail::holt_winters_backward_pair<Scalar, Seasonality::additive, A, B, N>(y, c, {first.trace.data(), second.trace.data()},
                                                                                            {first.problem.layout.m, second.problem.layout.m},
                                                                                            {&first.gradient, &second.gradient});
                return 0;
            });
        } else {
            for (Search* s : {&first, &second}) {
                if (needs[s == &first ? 0 : 1]) s->model.evaluate_gradient(*s);
            }
        }
        first.tell(values[0]);
        second.tell(values[1]);
    }

    /// Minimises the SSE from the starting grid's best points, or from `warm` alone when given.
    void optimise(std::span<const Scalar> y, const HoltWintersParameters<Scalar>* warm) {
        Search search(*this, y, warm);
        while (!search.done()) evaluate(search);
        search.finish();
    }

    HoltWintersSpec spec_;
    HoltWintersOptions options_;
    std::optional<HoltWintersParameters<Scalar>> known_;
    HoltWintersParameters<Scalar> params_;
    detail::HoltWintersState<Scalar> state_;
    std::vector<Scalar> fitted_values_;
    Scalar sse_ = Scalar(0);
    std::size_t nobs_ = 0;
    double update_sse_ = 0.0;
    std::size_t updates_ = 0;
    std::int64_t evaluations_ = 0;
    bool converged_ = true;
    bool fitted_ = false;
};

static_assert(Forecaster<HoltWinters<double>>);
static_assert(Forecaster<HoltWinters<float>>);

}  // namespace continuum::forecast
