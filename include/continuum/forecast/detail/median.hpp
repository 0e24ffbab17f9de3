// Internal: the median of a window of observations, for the median forecasters (SeasonalMedian's
// same-phase values, MovingMedian's last `window` points).
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>

namespace continuum::forecast::detail {

/// Median of `values` (the mean of the two middle ones for an even count; non-empty); `values` (a
/// vector or a span of doubles) is reordered. O(n): nth_element, then the largest of the lower half
/// for an even count. A template rather than a std::span<double> parameter: converting a vector to
/// it would check span's range constructor in every unit that includes this header (issue 21).
template <class Values>
double median_in_place(Values&& values) {
    const std::size_t k = values.size();
    const auto mid = values.begin() + static_cast<std::ptrdiff_t>(k / 2);
    std::nth_element(values.begin(), mid, values.end());
    if (k % 2) return *mid;
    return 0.5 * (*mid + *std::max_element(values.begin(), mid));
}

}  // namespace continuum::forecast::detail
