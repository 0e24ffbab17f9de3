// One-dimensional bin packing heuristics: next fit, first fit, best fit and their decreasing
// variants (Johnson 1973; FFD <= 11/9 OPT + 6/9, Dósa 2007). First fit runs on a tournament tree
// over bin residuals and best fit on an ordered set, so every variant is O(n log n); the
// decreasing variants sort by size, largest first, ties by index (deterministic).
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/error.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/key_order.hpp>
#include <continuum/packing/detail/residual_tree.hpp>
#include <continuum/packing/model.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
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
/// Counting sort when the sizes span a small range (the common case: sizes <= capacity), an
/// LSD radix sort otherwise; both stable, both O(n) passes without comparisons.
template <typename Defer = void>
DecreasingItems decreasing_items(std::span<const std::int64_t> sizes) {
    const std::size_t n = sizes.size();
    DecreasingItems out;
    out.size.resize(n);
    if (n == 0) return out;
    const auto [lo_it, hi_it] = std::minmax_element(sizes.begin(), sizes.end());
    const std::int64_t lo = *lo_it, hi = *hi_it;
    if (lo >= 0 && static_cast<std::uint64_t>(hi - lo) <= 2 * static_cast<std::uint64_t>(n) + 1024) {
        auto& order = out.order;
        order.resize(n);
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
    std::vector<std::uint64_t> keys(n);
    const auto offset = static_cast<std::uint64_t>(lo);  // unsigned differences: no overflow for any int64 sizes
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint64_t>(sizes[i]) - offset;
    out.order = sort_by_key_descending<Defer>(keys);
    for (std::size_t q = 0; q < n; ++q) out.size[q] = static_cast<std::int64_t>(keys[q] + offset);
    return out;
}

/// Item indices by size, largest first, ties by index.
template <typename Defer = void>
std::vector<std::size_t> decreasing_order(std::span<const std::int64_t> sizes) { return decreasing_items<Defer>(sizes).order; }

template <typename Defer = void>
Packing next_fit_in_order(std::span<const std::int64_t> sizes, std::int64_t capacity, const std::vector<std::size_t>& order) {
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
        placed.push_back(order[q]);
        bin_of.push_back(bin);
        tree.place(bin, x);
    }
    collect_bins(out.bins, tree.opened(), placed, bin_of);
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

/// First fit of items `order` (a permutation of the items) whose sizes in that order are `size`.
template <typename Defer = void>
Packing first_fit_sized(std::span<const std::int64_t> size, std::int64_t capacity, std::span<const std::size_t> order) {
    if (capacity <= std::numeric_limits<std::int32_t>::max()) return first_fit_with_tree<continuum::detail::deferred_t<std::int32_t, Defer>>(size, capacity, order);
    return first_fit_with_tree<continuum::detail::deferred_t<std::int64_t, Defer>>(size, capacity, order);
}

/// First fit of the items in `order` (sizes indexed by item).
template <typename Defer = void>
Packing first_fit_in_order(std::span<const std::int64_t> sizes, std::int64_t capacity, const std::vector<std::size_t>& order) {
    std::vector<std::int64_t> size(order.size());
    for (std::size_t q = 0; q < order.size(); ++q) size[q] = sizes[order[q]];
    return first_fit_sized<Defer>(size, capacity, order);
}

/// Set of integers in [0, universe) with successor queries: a 64-ary tree of bit words, so
/// insert, erase and "smallest member >= x" cost O(log_64 universe).
class SuccessorBits {
public:
    explicit SuccessorBits(std::size_t universe) {
        std::size_t words = universe / 64 + 1;
        while (true) {
            levels_.emplace_back(words, 0);
            if (words == 1) break;
            words = words / 64 + 1;
        }
    }
    void insert(std::size_t p) {
        for (auto& level : levels_) {
            const bool had = level[p / 64] != 0;
            level[p / 64] |= std::uint64_t{1} << (p % 64);
            if (had) return;
            p /= 64;
        }
    }
    void erase(std::size_t p) {
        for (auto& level : levels_) {
            level[p / 64] &= ~(std::uint64_t{1} << (p % 64));
            if (level[p / 64] != 0) return;
            p /= 64;
        }
    }
    /// Smallest member >= p, or npos.
    [[nodiscard]] std::size_t successor(std::size_t p) const {
        std::size_t level = 0;
        while (true) {
            if (level == levels_.size() || p / 64 >= levels_[level].size()) return npos;
            const std::uint64_t bits = levels_[level][p / 64] & (~std::uint64_t{0} << (p % 64));
            if (bits != 0) {
                p = p / 64 * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
                break;
            }
            p = p / 64 + 1;
            ++level;
        }
        while (level-- > 0) p = p * 64 + static_cast<std::size_t>(__builtin_ctzll(levels_[level][p]));
        return p;
    }
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

private:
    std::vector<std::vector<std::uint64_t>> levels_;
};

// Best fit with one bucket per residual value (capacity small enough to index): the tightest
// residual >= x is a successor query, the lowest bin index among equal residuals a min-heap per bucket.
template <typename Defer = void>
Packing best_fit_buckets(std::span<const std::int64_t> size, std::int64_t capacity, std::span<const std::size_t> order) {
    Packing out;
    const auto cap = static_cast<std::size_t>(capacity);
    std::vector<std::vector<std::size_t>> bucket(cap + 1);  // bins by residual, each a min-heap of indices
    SuccessorBits nonempty(cap + 1);
    std::vector<std::size_t> placed;
    std::vector<std::size_t> bin_of;
    placed.reserve(order.size());
    bin_of.reserve(order.size());
    std::size_t opened = 0;
    const auto lower = std::greater<>();
    for (std::size_t q = 0; q < order.size(); ++q) {
        if (size[q] > capacity) {
            out.unplaced.push_back(order[q]);
            continue;
        }
        const auto x = static_cast<std::size_t>(size[q]);
        const std::size_t r = nonempty.successor(x);
        std::size_t bin = opened;
        std::size_t residual = cap;
        if (r != SuccessorBits::npos) {
            auto& heap = bucket[r];
            std::pop_heap(heap.begin(), heap.end(), lower);
            bin = heap.back();
            heap.pop_back();
            if (heap.empty()) nonempty.erase(r);
            residual = r;
        } else {
            ++opened;
        }
        placed.push_back(order[q]);
        bin_of.push_back(bin);
        const std::size_t left = residual - x;
        if (left == 0) continue;  // a full bin takes no further item (sizes are >= 1)
        auto& heap = bucket[left];
        if (heap.empty()) nonempty.insert(left);
        heap.push_back(bin);
        std::push_heap(heap.begin(), heap.end(), lower);
    }
    collect_bins(out.bins, opened, placed, bin_of);
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

// Best fit on an ordered set of (residual, bin), for capacities too large to index.
template <typename Defer = void>
Packing best_fit_set(std::span<const std::int64_t> size, std::int64_t capacity, std::span<const std::size_t> order) {
    Packing out;
    std::set<std::pair<std::int64_t, std::size_t>> residuals;  // (residual, bin): tightest, then lowest index
    for (std::size_t q = 0; q < order.size(); ++q) {
        if (size[q] > capacity) {
            out.unplaced.push_back(order[q]);
            continue;
        }
        const auto it = residuals.lower_bound({size[q], 0});
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
        out.bins[bin].push_back(order[q]);
        residuals.insert({residual - size[q], bin});
    }
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

/// Best fit of items `order` whose sizes in that order are `size`: residual buckets when the
/// capacity is at most max(65,536, n), an ordered set otherwise.
template <typename Defer = void>
Packing best_fit_sized(std::span<const std::int64_t> size, std::int64_t capacity, std::span<const std::size_t> order) {
    if (static_cast<std::uint64_t>(capacity) <= std::max<std::uint64_t>(65536, order.size())) return best_fit_buckets<Defer>(size, capacity, order);
    return best_fit_set<Defer>(size, capacity, order);
}

/// Best fit of the items in `order` (sizes indexed by item).
template <typename Defer = void>
Packing best_fit_in_order(std::span<const std::int64_t> sizes, std::int64_t capacity, const std::vector<std::size_t>& order) {
    std::vector<std::int64_t> size(order.size());
    for (std::size_t q = 0; q < order.size(); ++q) size[q] = sizes[order[q]];
    return best_fit_sized<Defer>(size, capacity, order);
}

}  // namespace detail

/// Next fit: only the last opened bin is open; an item that does not fit closes it. O(n).
/// Items larger than `capacity` are reported in `unplaced`.
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
template <typename Defer = void>
Packing next_fit(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional<Defer>(sizes, capacity);
    return detail::next_fit_in_order<Defer>(sizes, capacity, detail::identity_order<Defer>(sizes.size()));
}

/// First fit: each item, in input order, goes to the lowest-index bin with room. O(n log n).
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
template <typename Defer = void>
Packing first_fit(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional<Defer>(sizes, capacity);
    return detail::first_fit_sized<Defer>(sizes, capacity, detail::identity_order<Defer>(sizes.size()));
}

/// Best fit: each item, in input order, goes to the bin it leaves with the least room (lowest
/// index among ties). O(n log n).
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
template <typename Defer = void>
Packing best_fit(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional<Defer>(sizes, capacity);
    return detail::best_fit_sized<Defer>(sizes, capacity, detail::identity_order<Defer>(sizes.size()));
}

/// Next fit decreasing: next fit over the items sorted largest first. O(n log n).
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
template <typename Defer = void>
Packing next_fit_decreasing(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional<Defer>(sizes, capacity);
    return detail::next_fit_in_order<Defer>(sizes, capacity, detail::decreasing_order<Defer>(sizes));
}

/// First fit decreasing (FFD): first fit over the items sorted largest first (ties by index).
/// O(n log n): a sort plus one tournament-tree descent per item.
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
template <typename Defer = void>
Packing first_fit_decreasing(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional<Defer>(sizes, capacity);
    const auto items = detail::decreasing_items<Defer>(sizes);
    return detail::first_fit_sized<Defer>(items.size, capacity, items.order);
}

/// Best fit decreasing (BFD): best fit over the items sorted largest first. O(n log n).
/// \throws InvalidArgument when capacity <= 0 or a size <= 0.
template <typename Defer = void>
Packing best_fit_decreasing(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    detail::validate_one_dimensional<Defer>(sizes, capacity);
    const auto items = detail::decreasing_items<Defer>(sizes);
    return detail::best_fit_sized<Defer>(items.size, capacity, items.order);
}

}  // namespace continuum::packing
