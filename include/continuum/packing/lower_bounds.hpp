// Lower bounds on the number of bins: L1 = ceil(sum / capacity) and the Martello–Toth L2 bound
// (Martello & Toth, "Knapsack Problems", 1990, §8.3.1), computed in O(n log n) with sorting,
// prefix sums and binary search over α ∈ {0} ∪ {w_j <= c/2}. For vector items, the maximum over
// dimensions of the 1-D bounds. Items larger than the capacity are ignored (they fit no bin).
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/packing/detail/dense.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <fmt/format.h>

namespace continuum::packing {

namespace detail {

inline std::int64_t checked_sum(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (__builtin_add_overflow(a, b, &out)) throw InvalidArgument("packing: the sum of item sizes overflows int64");
    return out;
}

inline std::int64_t ceil_div_positive(std::int64_t a, std::int64_t b) { return a <= 0 ? 0 : a / b + (a % b != 0 ? 1 : 0); }

/// L1 over sizes that fit (sizes <= capacity), no validation.
template <typename Defer = void>
std::int64_t l1_unchecked(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    std::int64_t sum = 0;
    for (const auto w : sizes) {
        if (w <= capacity) sum = checked_sum(sum, w);
    }
    return ceil_div_positive(sum, capacity);
}

/// L2 over sizes that fit, no validation; sizes may contain zeros (ignored).
template <typename Defer = void>
std::int64_t l2_unchecked(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    std::vector<std::int64_t> w;
    w.reserve(sizes.size());
    for (const auto s : sizes) {
        if (s > 0 && s <= capacity) w.push_back(s);
    }
    if (w.empty()) return 0;
    std::sort(w.begin(), w.end());  // ascending
    std::vector<std::int64_t> prefix(w.size() + 1, 0);
    for (std::size_t i = 0; i < w.size(); ++i) prefix[i + 1] = checked_sum(prefix[i], w[i]);
    const auto n = static_cast<std::int64_t>(w.size());
    // index of the first element > x
    const auto above = [&](std::int64_t x) { return static_cast<std::int64_t>(std::upper_bound(w.begin(), w.end(), x) - w.begin()); };
    const auto at_least = [&](std::int64_t x) { return static_cast<std::int64_t>(std::lower_bound(w.begin(), w.end(), x) - w.begin()); };
    const std::int64_t half_index = above(capacity / 2);  // first w > c/2 (2w > c  <=>  w > floor(c/2))
    std::int64_t best = 0;
    const auto evaluate = [&](std::int64_t alpha) {
        const std::int64_t j1_begin = above(capacity - alpha);        // w > c - α
        const std::int64_t j3_begin = alpha == 0 ? 0 : at_least(alpha);  // w >= α
        const std::int64_t n1 = n - j1_begin;
        const std::int64_t n2 = j1_begin - half_index;
        const std::int64_t sum2 = prefix[static_cast<std::size_t>(j1_begin)] - prefix[static_cast<std::size_t>(half_index)];
        const std::int64_t sum3 = prefix[static_cast<std::size_t>(half_index)] - prefix[static_cast<std::size_t>(std::min(j3_begin, half_index))];
        // n2 x capacity may pass int64 (J2 items exceed c/2, so it is below 2 x sum2): 128 bits.
        __extension__ using Wide = __int128;
        const Wide free2 = static_cast<Wide>(n2) * capacity - sum2;  // room left in the J2 bins
        const Wide excess = static_cast<Wide>(sum3) - free2;
        const std::int64_t value = n1 + n2 + (excess <= 0 ? 0 : static_cast<std::int64_t>((excess + capacity - 1) / capacity));
        best = std::max(best, value);
    };
    evaluate(0);
    for (std::size_t i = 0; i < static_cast<std::size_t>(half_index); ++i) {
        if (i > 0 && w[i] == w[i - 1]) continue;
        evaluate(w[i]);
    }
    return best;
}

}  // namespace detail

/// L1 = ceil(Σ sizes / capacity), over the items that fit an empty bin.
/// \throws InvalidArgument when capacity <= 0, a size <= 0, or the sum overflows int64.
template <typename Defer = void>
std::int64_t l1_bound(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional<Defer>(sizes, capacity);
    return detail::l1_unchecked<Defer>(sizes, capacity);
}

/// Martello–Toth L2 (>= L1), over the items that fit an empty bin. O(n log n).
/// \throws InvalidArgument when capacity <= 0, a size <= 0, or the sum overflows int64.
template <typename Defer = void>
std::int64_t l2_bound(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional<Defer>(sizes, capacity);
    return detail::l2_unchecked<Defer>(sizes, capacity);
}

namespace detail {

/// Max over dimensions of L2 (items that do not fit an empty bin are ignored).
template <typename Defer = void>
std::int64_t vector_l2_unchecked(const DenseItems& items, std::span<const std::int64_t> capacity) {
    std::int64_t best = 0;
    std::vector<std::int64_t> column;
    column.reserve(items.n);
    for (std::size_t k = 0; k < items.d; ++k) {
        if (capacity[k] <= 0) continue;
        column.clear();
        for (std::size_t i = 0; i < items.n; ++i) {
            if (fits(items.row(i), capacity.data(), items.d)) column.push_back(items.row(i)[k]);
        }
        best = std::max(best, l2_unchecked<Defer>(column, capacity[k]));
    }
    return best;
}

}  // namespace detail

/// Vector lower bound: the maximum over dimensions of L2, over the items that fit an empty bin.
/// \throws InvalidArgument on a negative amount, an all-zero item or capacity, or overflow.
template <typename Defer = void>
std::int64_t lower_bound(std::span<const Resources> items, const Resources& capacity) {
    const auto names = detail::dimension_names<Defer>(items, std::span<const Resources>(&capacity, 1));
    const auto dense = detail::dense_items<Defer>(items, names);
    const auto cap = detail::dense_capacity<Defer>(capacity, names);
    detail::validate_dense<Defer>(dense, cap);
    return detail::vector_l2_unchecked<Defer>(dense, cap);
}

}  // namespace continuum::packing
