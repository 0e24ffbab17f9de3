// Initial states for Holt-Winters, exactly as statsmodels 0.13 computes them
// (tsa/exponential_smoothing/initialization.py): the "heuristic" of Hyndman et al. (2008) §2.6
// (centred moving average, per-position seasonal means, regression of the first 10 trend values)
// and the "simple" rule of FPP §7.6 (first season mean, first seasonal differences).
#pragma once

#include <continuum/forecast/detail/checks.hpp>
#include <continuum/forecast/holt_winters_model.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace continuum::forecast {

template <typename Scalar = double>
struct HoltWintersStates {
    Scalar level = Scalar(0);
    Scalar trend = Scalar(0);           // 0 without a trend
    std::vector<Scalar> seasons;        // m values, empty without a season
};

/// statsmodels' `_initialization_simple`: non-seasonal ℓ0 = y0, b0 = y1 − y0; seasonal ℓ0 = mean of
/// the first season, b0 = mean((y[m:2m] − y[:m])/m), s = y[:m] − ℓ0 (or ÷ ℓ0).
/// \throws InvalidArgument when the series is too short (2 points, or 2 seasons when seasonal).
template <typename Scalar>
HoltWintersStates<Scalar> simple_initial_states(std::span<const Scalar> y, const HoltWintersSpec& spec) {
    spec.validate();
    HoltWintersStates<Scalar> out;
    if (!spec.has_season()) {
        detail::require_length(y.size(), spec.has_trend() ? 2 : 1, "holt_winters simple initialisation", "first points");
        out.level = y[0];
        if (spec.has_trend()) out.trend = y[1] - y[0];
        return out;
    }
    const auto m = static_cast<std::size_t>(spec.season_length);
    detail::require_length(y.size(), 2 * m, "holt_winters simple initialisation", "two full seasons");
    Scalar sum = 0;
    for (std::size_t i = 0; i < m; ++i) sum += y[i];
    out.level = sum / static_cast<Scalar>(m);
    if (spec.has_trend()) {
        Scalar slope_sum = 0;
        for (std::size_t i = 0; i < m; ++i) slope_sum += (y[m + i] - y[i]) / static_cast<Scalar>(m);
        out.trend = slope_sum / static_cast<Scalar>(m);
    }
    out.seasons.resize(m);
    for (std::size_t i = 0; i < m; ++i) {
        out.seasons[i] = spec.seasonal == Seasonality::multiplicative ? y[i] / out.level : y[i] - out.level;
    }
    return out;
}

/// Minimum series length for the heuristic: 10 + 2·⌊m/2⌋ when seasonal (and two seasons), else 10.
inline std::size_t heuristic_minimum_length(const HoltWintersSpec& spec) {
    if (!spec.has_season()) return 10;
    const auto m = static_cast<std::size_t>(spec.season_length);
    return std::max<std::size_t>(10 + 2 * (m / 2), 2 * m);
}

/// statsmodels' `_initialization_heuristic` (Hyndman et al. 2008 §2.6).
/// \throws InvalidArgument when the series is shorter than heuristic_minimum_length(spec).
template <typename Scalar>
HoltWintersStates<Scalar> heuristic_initial_states(std::span<const Scalar> y, const HoltWintersSpec& spec) {
    spec.validate();
    HoltWintersStates<Scalar> out;
    detail::require_length(y.size(), heuristic_minimum_length(spec), "holt_winters heuristic initialisation",
                           spec.has_season() ? "two full seasons and 10 + 2*(m/2) points" : "10 points");
    std::vector<Scalar> base(y.begin(), y.end());
    if (spec.has_season()) {
        const auto m = static_cast<std::size_t>(spec.season_length);
        const std::size_t min_obs = 10 + 2 * (m / 2);
        std::size_t cycles = std::min<std::size_t>(5, y.size() / m);
        cycles = std::max(cycles, (min_obs + m - 1) / m);
        const std::size_t length = std::min(y.size(), cycles * m);
        // Centred moving average (pandas rolling(m, center=True), then a 2-MA for even m).
        // Each window's sum adds its m values in order from 0, as pandas does; `block` consecutive
        // windows are summed side by side (independent chains the compiler vectorises instead of
        // one latency-bound chain per window: O(m) per window matters at m = 168), same values.
        std::vector<Scalar> ma(length, std::numeric_limits<Scalar>::quiet_NaN());
        const std::size_t half = m / 2;
        const std::size_t end = length + half >= m ? length + half + 1 - m : half;  // windows i in [half, end)
        constexpr std::size_t block = 16;
        std::size_t i = half;
        for (; i + block <= end; i += block) {
            std::array<Scalar, block> sums{};
            for (std::size_t k = 0; k < m; ++k) {
                const Scalar* window = y.data() + (i - half + k);
                for (std::size_t j = 0; j < block; ++j) sums[j] += window[j];
            }
            for (std::size_t j = 0; j < block; ++j) ma[i + j] = sums[j] / static_cast<Scalar>(m);
        }
        for (; i < end; ++i) {
            Scalar s = 0;
            for (std::size_t k = i - half; k < i - half + m; ++k) s += y[k];
            ma[i] = s / static_cast<Scalar>(m);
        }
        std::vector<Scalar> trend(length, std::numeric_limits<Scalar>::quiet_NaN());
        if (m % 2 == 0) {
            for (std::size_t i = 0; i + 1 < length; ++i) {
                if (!std::isnan(ma[i]) && !std::isnan(ma[i + 1])) trend[i] = (ma[i] + ma[i + 1]) / Scalar(2);
            }
        } else {
            trend = ma;
        }
        std::vector<Scalar> sums(m, Scalar(0));
        std::vector<std::size_t> counts(m, 0);
        for (std::size_t i = 0; i < length; ++i) {
            if (std::isnan(trend[i])) continue;
            sums[i % m] += spec.seasonal == Seasonality::multiplicative ? y[i] / trend[i] : y[i] - trend[i];
            ++counts[i % m];
        }
        out.seasons.resize(m);
        Scalar mean = 0;
        for (std::size_t j = 0; j < m; ++j) {
            // A position without any detrended value (only possible with exactly two seasons of an
            // even m) gets the neutral value; statsmodels would produce NaN there.
            const Scalar neutral = spec.seasonal == Seasonality::multiplicative ? Scalar(1) : Scalar(0);
            out.seasons[j] = counts[j] ? sums[j] / static_cast<Scalar>(counts[j]) : neutral;
            mean += out.seasons[j];
        }
        mean /= static_cast<Scalar>(m);
        for (auto& s : out.seasons) s = spec.seasonal == Seasonality::multiplicative ? s / mean : s - mean;
        base.clear();
        for (Scalar v : trend) {
            if (!std::isnan(v)) base.push_back(v);
        }
    }
    // Regress the first 10 values on 1..10: ℓ0 = intercept, b0 = slope.
    Scalar mean = 0;
    for (std::size_t i = 0; i < 10; ++i) mean += base[i];
    mean /= Scalar(10);
    Scalar sxy = 0;
    for (std::size_t i = 0; i < 10; ++i) sxy += (static_cast<Scalar>(i + 1) - Scalar(5.5)) * (base[i] - mean);
    const Scalar slope = sxy / Scalar(82.5);
    out.level = mean - slope * Scalar(5.5);
    if (spec.has_trend()) out.trend = slope;
    return out;
}

}  // namespace continuum::forecast
