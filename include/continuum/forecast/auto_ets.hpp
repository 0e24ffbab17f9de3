// Automatic exponential-smoothing model choice, like R forecast::ets(model = "ZZZ") restricted to
// additive errors: fit every valid (trend none / additive / additive damped) × (season none /
// additive / multiplicative) Holt-Winters model by minimum SSE and keep the lowest AICc
// (statsmodels' n·log(SSE/n) + 2k + 2(k+2)(k+3)/(n−k−3), falling back to AIC when n is too short).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/holt_winters.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace continuum::forecast {

struct AutoEtsOptions {
    bool allow_damped = true;
    /// Multiplicative seasons are tried only when every value is > 0 (R's ets with restrict=TRUE
    /// would exclude them for additive errors; statsmodels allows them).
    bool allow_multiplicative_season = true;
    HoltWintersOptions fit{};
};

/// One candidate of auto_ets: its structure, fit and criteria (aicc = +inf when n <= k + 3).
struct EtsCandidate {
    HoltWintersSpec spec;
    double sse = 0.0;
    double aic = 0.0;
    double aicc = 0.0;
};

/// Fits every valid model and returns the one with the lowest AICc (lowest AIC when every AICc is
/// infinite; ties go to the simpler model, listed first). `candidates`, when given, receives every
/// fitted candidate in the order tried. season_length <= 1 means non-seasonal models only.
/// \throws InvalidArgument when season_length >= 2 and the series is shorter than two full seasons
///         (naming the number of points needed), or shorter than 2 points.
template <std::floating_point Scalar = double>
HoltWinters<Scalar> auto_ets(SeriesView y, int season_length, const AutoEtsOptions& options = {},
                             std::vector<EtsCandidate>* candidates = nullptr) {
    if (season_length >= 2) {
        const auto m = static_cast<std::size_t>(season_length);
        if (y.size() < 2 * m) {
            throw InvalidArgument(continuum::detail::message("auto_ets: series has {} points, needs at least 2*season_length = {} (two full seasons of {})",
                                                             y.size(), 2 * m, m));
        }
    }
    detail::require_length(y.size(), 2, "auto_ets", "two points");
    bool positive = true;
    for (double v : y) positive = positive && v > 0.0;
    std::vector<Seasonality> seasons{Seasonality::none};
    if (season_length >= 2) {
        seasons.push_back(Seasonality::additive);
        if (positive && options.allow_multiplicative_season) seasons.push_back(Seasonality::multiplicative);
    }
    struct TrendChoice {
        Trend trend;
        bool damped;
    };
    std::vector<TrendChoice> trends{{Trend::none, false}, {Trend::additive, false}};
    if (options.allow_damped) trends.push_back({Trend::additive, true});
    std::vector<HoltWinters<Scalar>> fitted;
    std::vector<EtsCandidate> scores;
    for (const auto season : seasons) {
        for (const auto& t : trends) {
            HoltWintersSpec spec;
            spec.trend = t.trend;
            spec.damped = t.damped;
            spec.seasonal = season;
            spec.season_length = season == Seasonality::none ? 2 : season_length;
            HoltWinters<Scalar> model(spec, options.fit);
            model.fit(y);
            scores.push_back({spec, static_cast<double>(model.sse()), model.aic(), model.aicc()});
            fitted.push_back(std::move(model));
        }
    }
    const bool any_finite_aicc = std::any_of(scores.begin(), scores.end(), [](const auto& c) { return std::isfinite(c.aicc); });
    std::size_t best = 0;
    for (std::size_t i = 1; i < scores.size(); ++i) {
        const double value = any_finite_aicc ? scores[i].aicc : scores[i].aic;
        const double incumbent = any_finite_aicc ? scores[best].aicc : scores[best].aic;
        if (value < incumbent) best = i;
    }
    if (candidates) *candidates = scores;
    return std::move(fitted[best]);
}

}  // namespace continuum::forecast
