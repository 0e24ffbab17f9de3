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
#include <numeric>
#include <set>
#include <span>
#include <utility>
#include <vector>

namespace continuum::packing {

namespace detail {

/// Item indices by size, largest first, ties by index.
inline std::vector<std::size_t> decreasing_order(std::span<const std::int64_t> sizes) {
    std::vector<std::pair<std::int64_t, std::size_t>> keyed(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) keyed[i] = {sizes[i], i};
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    std::vector<std::size_t> order(sizes.size());
    for (std::size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
    return order;
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

inline Packing first_fit_in_order(std::span<const std::int64_t> sizes, std::int64_t capacity, const std::vector<std::size_t>& order) {
    Packing out;
    const std::int64_t initial[1] = {capacity};
    ResidualTree tree(std::max<std::size_t>(order.size(), 1), initial);
    for (const auto i : order) {
        if (sizes[i] > capacity) {
            out.unplaced.push_back(i);
            continue;
        }
        const std::size_t bin = tree.first_fit(&sizes[i]);
        if (bin == out.bins.size()) out.bins.emplace_back();
        out.bins[bin].push_back(i);
        tree.subtract(bin, &sizes[i]);
    }
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
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
