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

/// Items in decreasing order: `order[q]` is the q-th item and `size[q]` its size.
struct DecreasingItems {
    std::vector<std::size_t> order;
    std::vector<std::int64_t> size;
};

/// Item indices by size, largest first, ties by index, with the sizes in that order (the
/// heuristics then read sizes sequentially instead of gathering them through the permutation).
/// Counting sort when the sizes span a small range (the common case: sizes <= capacity), a
/// packed 64-bit key sort otherwise.
inline DecreasingItems decreasing_items(std::span<const std::int64_t> sizes) {
    const std::size_t n = sizes.size();
    DecreasingItems out;
    out.order.resize(n);
    out.size.resize(n);
    if (n == 0) return out;
    auto& order = out.order;
    const auto [lo_it, hi_it] = std::minmax_element(sizes.begin(), sizes.end());
    const std::int64_t lo = *lo_it, hi = *hi_it;
    if (lo >= 0 && static_cast<std::uint64_t>(hi - lo) <= 2 * static_cast<std::uint64_t>(n) + 1024) {
        const auto range = static_cast<std::size_t>(hi - lo) + 1;
        std::vector<std::size_t> start(range + 1, 0);
        for (const auto s : sizes) ++start[static_cast<std::size_t>(hi - s) + 1];  // bucket 0 = largest
        for (std::size_t b = 1; b <= range; ++b) {
            std::fill(out.size.begin() + static_cast<std::ptrdiff_t>(start[b - 1]), out.size.begin() + static_cast<std::ptrdiff_t>(start[b - 1] + start[b]),
                      hi - static_cast<std::int64_t>(b - 1));
            start[b] += start[b - 1];
        }
        for (std::size_t i = 0; i < n; ++i) order[start[static_cast<std::size_t>(hi - sizes[i])]++] = i;  // stable: ties by index
        return out;
    }
    const int index_bits = 64 - __builtin_clzll(static_cast<unsigned long long>(n));
    if (lo >= 0 && hi > 0 && 64 - __builtin_clzll(static_cast<unsigned long long>(hi)) + index_bits <= 64) {
        std::vector<std::uint64_t> keys(n);
        for (std::size_t i = 0; i < n; ++i) keys[i] = (static_cast<std::uint64_t>(hi - sizes[i]) << index_bits) | i;
        std::sort(keys.begin(), keys.end());
        const std::uint64_t mask = (std::uint64_t{1} << index_bits) - 1;
        for (std::size_t i = 0; i < n; ++i) {
            order[i] = static_cast<std::size_t>(keys[i] & mask);
            out.size[i] = hi - static_cast<std::int64_t>(keys[i] >> index_bits);
        }
        return out;
    }
    std::vector<std::pair<std::int64_t, std::size_t>> keyed(n);
    for (std::size_t i = 0; i < n; ++i) keyed[i] = {sizes[i], i};
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    for (std::size_t i = 0; i < n; ++i) {
        order[i] = keyed[i].second;
        out.size[i] = keyed[i].first;
    }
    return out;
}

/// Item indices by size, largest first, ties by index.
inline std::vector<std::size_t> decreasing_order(std::span<const std::int64_t> sizes) { return decreasing_items(sizes).order; }

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

// First fit of the items `order` whose sizes are `size` (size[q] = sizes[order[q]]).
template <typename T>
Packing first_fit_with_tree(std::span<const std::int64_t> size, std::int64_t capacity, std::span<const std::size_t> order) {
    Packing out;
    FirstFitTree<T> tree(std::min<std::size_t>(std::max<std::size_t>(order.size(), 1), 1024), static_cast<T>(capacity));
    std::size_t opened = 0;
    std::vector<std::size_t> placed;
    std::vector<std::size_t> bin_of;
    placed.reserve(order.size());
    bin_of.reserve(order.size());
    std::int64_t previous_size = 0;  // the previous item's size and bin: an item of the same size
    std::size_t previous_bin = 0;    // cannot go to an earlier bin, so its search starts there
    for (std::size_t q = 0; q < order.size(); ++q) {
        if (size[q] > capacity) {
            out.unplaced.push_back(order[q]);
            continue;
        }
        const auto x = static_cast<T>(size[q]);
        const std::size_t bin = size[q] == previous_size ? tree.first_fit_from(previous_bin, x) : tree.first_fit(x);
        previous_size = size[q];
        previous_bin = bin;
        opened = std::max(opened, bin + 1);
        placed.push_back(order[q]);
        bin_of.push_back(bin);
        tree.subtract(bin, x);
    }
    collect_bins(out.bins, opened, placed, bin_of);
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

/// First fit of items `order` (a permutation of the items) whose sizes in that order are `size`.
inline Packing first_fit_sized(std::span<const std::int64_t> size, std::int64_t capacity, std::span<const std::size_t> order) {
    if (capacity <= std::numeric_limits<std::int32_t>::max()) return first_fit_with_tree<std::int32_t>(size, capacity, order);
    return first_fit_with_tree<std::int64_t>(size, capacity, order);
}

/// First fit of the items in `order` (sizes indexed by item).
inline Packing first_fit_in_order(std::span<const std::int64_t> sizes, std::int64_t capacity, const std::vector<std::size_t>& order) {
    std::vector<std::int64_t> size(order.size());
    for (std::size_t q = 0; q < order.size(); ++q) size[q] = sizes[order[q]];
    return first_fit_sized(size, capacity, order);
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
    return detail::first_fit_sized(sizes, capacity, detail::identity_order(sizes.size()));
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
    const auto items = detail::decreasing_items(sizes);
    return detail::first_fit_sized(items.size, capacity, items.order);
}

/// Best fit decreasing (BFD): best fit over the items sorted largest first. O(n log n).
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
inline Packing best_fit_decreasing(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional(sizes, capacity);
    return detail::best_fit_in_order(sizes, capacity, detail::decreasing_order(sizes));
}

}  // namespace continuum::packing
