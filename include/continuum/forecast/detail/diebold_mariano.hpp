// The Diebold-Mariano statistic of a loss-difference series (Diebold & Mariano 1995): how many
// standard errors its mean is from zero, the variance of the mean from the Newey-West (Bartlett)
// long-run variance, which accounts for the autocorrelation of overlapping multi-step errors.
// Portfolio uses it to leave the last value only for a candidate that validates significantly better.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <span>

namespace continuum::forecast::detail {

/// mean(d) / sqrt(LRV / N), LRV = g_0 + 2 sum_{k=1..lags} (1 - k / (lags + 1)) g_k with
/// g_k = (1/N) sum_t (d_t - mean)(d_{t-k} - mean), lags clamped to N - 1 (the Bartlett weights keep
/// LRV >= 0). With no variance: +inf for a positive mean, -inf for a negative one, 0 for a zero mean;
/// 0 for N < 2.
[[nodiscard]] inline double diebold_mariano(std::span<const double> d, std::size_t lags) {
    const std::size_t n = d.size();
    if (n < 2) return 0.0;
    double mean = 0.0;
    for (double x : d) mean += x;
    mean /= static_cast<double>(n);
    const auto autocovariance = [&](std::size_t k) {
        double sum = 0.0;
        for (std::size_t t = k; t < n; ++t) sum += (d[t] - mean) * (d[t - k] - mean);
        return sum / static_cast<double>(n);
    };
    const double g0 = autocovariance(0);
    if (lags > n - 1) lags = n - 1;
    double lrv = g0;
    for (std::size_t k = 1; k <= lags; ++k) lrv += 2.0 * (1.0 - static_cast<double>(k) / static_cast<double>(lags + 1)) * autocovariance(k);
    if (!(lrv > 0.0)) return mean > 0.0 ? std::numeric_limits<double>::infinity() : mean < 0.0 ? -std::numeric_limits<double>::infinity() : 0.0;
    return mean / std::sqrt(lrv / static_cast<double>(n));
}

}  // namespace continuum::forecast::detail
