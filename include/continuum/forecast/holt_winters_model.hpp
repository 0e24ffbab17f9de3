// The structure of a Holt-Winters / exponential smoothing model (trend none, additive or additive
// damped; season none, additive or multiplicative; FPP §8.3, Hyndman et al. 2008) and its
// parameters. Shared by the smoother, the initialisation heuristics and the automatic model choice.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>

#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast {

enum class Trend { none, additive };
enum class Seasonality { none, additive, multiplicative };

/// Which level the seasonal equation subtracts.
///  - previous_level: s_t = γ(y_t − ℓ_{t−1} − φb_{t−1}) + (1 − γ)s_{t−m}, as statsmodels'
///    ExponentialSmoothing, FPP §8.3 and the ETS state-space form (the default);
///  - new_level: s_t = γ(y_t − ℓ_t) + (1 − γ)s_{t−m}, as R's stats::HoltWinters (Winters 1960).
/// (÷ instead of − for a multiplicative season.)
enum class SeasonUpdate { previous_level, new_level };

/// Model structure. season_length is ignored when seasonal == none.
struct HoltWintersSpec {
    Trend trend = Trend::additive;
    bool damped = false;
    Seasonality seasonal = Seasonality::additive;
    int season_length = 24;
    SeasonUpdate season_update = SeasonUpdate::previous_level;

    [[nodiscard]] bool has_trend() const { return trend == Trend::additive; }
    [[nodiscard]] bool has_season() const { return seasonal != Seasonality::none; }
    /// m when seasonal, else 0 (statsmodels' convention).
    [[nodiscard]] int period() const { return has_season() ? season_length : 0; }

    /// \throws InvalidArgument when seasonal and season_length < 2, or damped without a trend.
    void validate() const {
        if (has_season() && season_length < 2) {
            throw InvalidArgument(continuum::detail::message("holt_winters: season_length must be >= 2 for a seasonal model, got {}", season_length));
        }
        if (damped && !has_trend()) throw InvalidArgument("holt_winters: damped = true needs trend = additive");
    }
    /// ETS-style code such as "A,Ad,M" (error, trend, season; errors are additive: SSE fit).
    [[nodiscard]] std::string code() const {
        const char* t = !has_trend() ? "N" : (damped ? "Ad" : "A");
        const char* s = seasonal == Seasonality::none ? "N" : (seasonal == Seasonality::additive ? "A" : "M");
        return continuum::detail::message("A,{},{}", t, s);
    }

    friend bool operator==(const HoltWintersSpec&, const HoltWintersSpec&) = default;
};

/// Smoothing parameters and initial states. β is the "method" trend parameter (statsmodels'
/// smoothing_trend, FPP's β*); phi is 1 for undamped models. initial_seasons[j] is the seasonal
/// component applied to the j-th observation of the fitted series (statsmodels' initial_seasonal).
template <typename Scalar = double>
struct HoltWintersParameters {
    Scalar alpha = Scalar(0);
    Scalar beta = Scalar(0);
    Scalar gamma = Scalar(0);
    Scalar phi = Scalar(1);
    Scalar initial_level = Scalar(0);
    Scalar initial_trend = Scalar(0);
    std::vector<Scalar> initial_seasons;

    friend bool operator==(const HoltWintersParameters&, const HoltWintersParameters&) = default;
};

}  // namespace continuum::forecast
