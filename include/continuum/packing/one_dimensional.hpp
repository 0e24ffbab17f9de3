// One-dimensional bin packing heuristics: next fit, first fit, best fit and their decreasing
// variants (Johnson 1973; FFD <= 11/9 OPT + 6/9, Dósa 2007). First fit runs on a tournament tree
// over bin residuals and best fit on an ordered set, so every variant is O(n log n); the
// decreasing variants sort by size, largest first, ties by index (deterministic).
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/residual_tree.hpp>
#include <continuum/packing/model.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <utility>
#include <vector>

namespace continuum::packing {

namespace detail {

/// Item indices by size, largest first, ties by index. Counting sort when the sizes span a small
/// range (the common case: sizes <= capacity), a packed 64-bit key sort otherwise.
inline std::vector<std::size_t> decreasing_order(std::span<const std::int64_t> sizes) {
    const std::size_t n = sizes.size();
    std::vector<std::size_t> order(n);
    if (n == 0) return order;
    const auto [lo_it, hi_it] = std::minmax_element(sizes.begin(), sizes.end());
    const std::int64_t lo = *lo_it, hi = *hi_it;
    if (lo >= 0 && static_cast<std::uint64_t>(hi - lo) <= 2 * static_cast<std::uint64_t>(n) + 1024) {
        const auto range = static_cast<std::size_t>(hi - lo) + 1;
        std::vector<std::size_t> start(range + 1, 0);
        for (const auto s : sizes) ++start[static_cast<std::size_t>(hi - s) + 1];  // bucket 0 = largest
        for (std::size_t b = 1; b <= range; ++b) start[b] += start[b - 1];
        for (std::size_t i = 0; i < n; ++i) order[start[static_cast<std::size_t>(hi - sizes[i])]++] = i;  // stable: ties by index
        return order;
    }
    const int index_bits = 64 - __builtin_clzll(static_cast<unsigned long long>(n));
    if (lo >= 0 && hi > 0 && 64 - __builtin_clzll(static_cast<unsigned long long>(hi)) + index_bits <= 64) {
        std::vector<std::uint64_t> keys(n);
        for (std::size_t i = 0; i < n; ++i) keys[i] = (static_cast<std::uint64_t>(hi - sizes[i]) << index_bits) | i;
        std::sort(keys.begin(), keys.end());
        const std::uint64_t mask = (std::uint64_t{1} << index_bits) - 1;
        for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::size_t>(keys[i] & mask);
        return order;
    }
    std::vector<std::pair<std::int64_t, std::size_t>> keyed(n);
    for (std::size_t i = 0; i < n; ++i) keyed[i] = {sizes[i], i};
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    for (std::size_t i = 0; i < n; ++i) order[i] = keyed[i].second;
    return order;
}

/// Turns a bin index per placed item (in placement order) into item lists per bin, allocating each
/// list once.
inline void collect_bins(Packing& out, std::size_t bins, const std::vector<std::size_t>& placed, const std::vector<std::size_t>& bin_of) {
    std::vector<std::size_t> count(bins, 0);
    for (const auto b : bin_of) ++count[b];
    out.bins.resize(bins);
    for (std::size_t b = 0; b < bins; ++b) out.bins[b].reserve(count[b]);
    for (std::size_t q = 0; q < placed.size(); ++q) out.bins[bin_of[q]].push_back(placed[q]);
}

inline Packing next_fit_in_order(std::span<const std::int64_t> sizes, std::int64_t capacity, const std::vector<std::size_t>& order) {
    Packing out;
    std::int64_t residual = 0;
    for (const auto i : order) {
        if (sizes[i] > capacity) {
            out.unplaced.push_back(i);
            continue;
        }
        if (out.bins.empty() || sizes[i] > residual) {
            out.bins.emplace_back();
            residual = capacity;
        }
        out.bins.back().push_back(i);
        residual -= sizes[i];
    }
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

template <typename T>
Packing first_fit_with_tree(std::span<const std::int64_t> sizes, std::int64_t capacity, const std::vector<std::size_t>& order) {
    Packing out;
    FirstFitTree<T> tree(std::min<std::size_t>(std::max<std::size_t>(order.size(), 1), 1024), static_cast<T>(capacity));
    std::size_t opened = 0;
    std::vector<std::size_t> placed;
    std::vector<std::size_t> bin_of;
    placed.reserve(order.size());
    bin_of.reserve(order.size());
    for (const auto i : order) {
        if (sizes[i] > capacity) {
            out.unplaced.push_back(i);
            continue;
        }
        const auto x = static_cast<T>(sizes[i]);
        const std::size_t bin = tree.first_fit(x);
        opened = std::max(opened, bin + 1);
        placed.push_back(i);
        bin_of.push_back(bin);
        tree.subtract(bin, x);
    }
    collect_bins(out, opened, placed, bin_of);
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

inline Packing first_fit_in_order(std::span<const std::int64_t> sizes, std::int64_t capacity, const std::vector<std::size_t>& order) {
    if (capacity <= std::numeric_limits<std::int32_t>::max()) return first_fit_with_tree<std::int32_t>(sizes, capacity, order);
    return first_fit_with_tree<std::int64_t>(sizes, capacity, order);
}

inline Packing best_fit_in_order(std::span<const std::int64_t> sizes, std::int64_t capacity, const std::vector<std::size_t>& order) {
    Packing out;
    std::set<std::pair<std::int64_t, std::size_t>> residuals;  // (residual, bin): tightest, then lowest index
    for (const auto i : order) {
        if (sizes[i] > capacity) {
            out.unplaced.push_back(i);
            continue;
        }
        const auto it = residuals.lower_bound({sizes[i], 0});
        std::size_t bin = 0;
        std::int64_t residual = capacity;
        if (it == residuals.end()) {
            bin = out.bins.size();
            out.bins.emplace_back();
        } else {
            bin = it->second;
            residual = it->first;
            residuals.erase(it);
        }
        out.bins[bin].push_back(i);
        residuals.insert({residual - sizes[i], bin});
    }
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

}  // namespace detail

/// Next fit: only the last opened bin is open; an item that does not fit closes it. O(n).
/// Items larger than `capacity` are reported in `unplaced`.
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
inline Packing next_fit(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional(sizes, capacity);
    return detail::next_fit_in_order(sizes, capacity, detail::identity_order(sizes.size()));
}

/// First fit: each item, in input order, goes to the lowest-index bin with room. O(n log n).
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
inline Packing first_fit(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional(sizes, capacity);
    return detail::first_fit_in_order(sizes, capacity, detail::identity_order(sizes.size()));
}

/// Best fit: each item, in input order, goes to the bin it leaves with the least room (lowest
/// index among ties). O(n log n).
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
inline Packing best_fit(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional(sizes, capacity);
    return detail::best_fit_in_order(sizes, capacity, detail::identity_order(sizes.size()));
}

/// Next fit decreasing: next fit over the items sorted largest first. O(n log n).
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
inline Packing next_fit_decreasing(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional(sizes, capacity);
    return detail::next_fit_in_order(sizes, capacity, detail::decreasing_order(sizes));
}

/// First fit decreasing (FFD): first fit over the items sorted largest first (ties by index).
/// O(n log n): a sort plus one tournament-tree descent per item.
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
inline Packing first_fit_decreasing(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional(sizes, capacity);
    return detail::first_fit_in_order(sizes, capacity, detail::decreasing_order(sizes));
}

/// Best fit decreasing (BFD): best fit over the items sorted largest first. O(n log n).
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
inline Packing best_fit_decreasing(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional(sizes, capacity);
    return detail::best_fit_in_order(sizes, capacity, detail::decreasing_order(sizes));
}

}  // namespace continuum::packing
