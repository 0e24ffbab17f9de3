// Internal: a tournament (max segment) tree over bin residuals, so first fit finds the leftmost
// bin with room in O(log bins) (1-D) instead of scanning every bin. Leaves not yet opened hold a
// full capacity, so "the leftmost leaf that fits" is either an open bin or the next bin to open.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace continuum::packing::detail {

/// Max tree over up to `leaves` residuals of `d` dimensions (node value = per-dimension maximum).
/// Leaves past those set hold `initial`; grow() doubles the leaf count (new leaves hold `initial`).
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicResidualTree {
public:
    BasicResidualTree(std::size_t leaves, std::span<const std::int64_t> initial) : d_(initial.size()), initial_(initial.begin(), initial.end()) {
        size_ = 1;
        while (size_ < leaves) size_ *= 2;
        values_.resize(2 * size_ * d_);
        for (std::size_t node = 1; node < 2 * size_; ++node) {
            for (std::size_t k = 0; k < d_; ++k) values_[node * d_ + k] = initial[k];
        }
    }

    /// Number of leaves (a power of two).
    [[nodiscard]] std::size_t leaves() const { return size_; }

    /// Doubles the number of leaves; the new ones hold `initial`, the old ones keep their residuals.
    void grow() {
        std::vector<std::int64_t> old(values_.begin() + static_cast<std::ptrdiff_t>(size_ * d_), values_.end());
        size_ *= 2;
        values_.resize(2 * size_ * d_);
        std::copy(old.begin(), old.end(), values_.begin() + static_cast<std::ptrdiff_t>(size_ * d_));
        for (std::size_t node = size_ + size_ / 2; node < 2 * size_; ++node) std::copy(initial_.begin(), initial_.end(), values_.begin() + static_cast<std::ptrdiff_t>(node * d_));
        for (std::size_t node = size_; node-- > 1;) {
            for (std::size_t k = 0; k < d_; ++k) values_[node * d_ + k] = std::max(values_[2 * node * d_ + k], values_[(2 * node + 1) * d_ + k]);
        }
    }

    /// Leftmost leaf whose residual fits `item` in every dimension; `npos` when none does.
    [[nodiscard]] std::size_t first_fit(const std::int64_t* item) const {
        switch (d_) {
            case 1: return search<1>(item);
            case 2: return search<2>(item);
            case 3: return search<3>(item);
            case 4: return search<4>(item);
            case 5: return search<5>(item);
            default: return search<0>(item);
        }
    }

    /// Overwrites leaf `leaf` with `residual` and refreshes its ancestors.
    void set_leaf(std::size_t leaf, const std::int64_t* residual) {
        std::size_t node = size_ + leaf;
        for (std::size_t k = 0; k < d_; ++k) values_[node * d_ + k] = residual[k];
        for (node /= 2; node >= 1; node /= 2) {
            for (std::size_t k = 0; k < d_; ++k) values_[node * d_ + k] = std::max(values_[2 * node * d_ + k], values_[(2 * node + 1) * d_ + k]);
        }
    }

    /// Residual of leaf `leaf`.
    [[nodiscard]] const std::int64_t* leaf(std::size_t leaf) const { return values_.data() + (size_ + leaf) * d_; }

    /// Subtracts `item` from leaf `leaf` and refreshes its ancestors.
    void subtract(std::size_t leaf, const std::int64_t* item) {
        std::size_t node = size_ + leaf;
        for (std::size_t k = 0; k < d_; ++k) values_[node * d_ + k] -= item[k];
        node /= 2;
        while (node >= 1) {
            bool changed = false;
            for (std::size_t k = 0; k < d_; ++k) {
                const std::int64_t best = std::max(values_[2 * node * d_ + k], values_[(2 * node + 1) * d_ + k]);
                if (values_[node * d_ + k] != best) {
                    values_[node * d_ + k] = best;
                    changed = true;
                }
            }
            if (!changed) break;
            node /= 2;
        }
    }

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

private:
    // D = the dimension count known at compile time (0: d_ at run time).
    template <std::size_t D>
    [[nodiscard]] bool may_fit(std::size_t node, const std::int64_t* item) const {
        const std::size_t d = D == 0 ? d_ : D;
        const std::int64_t* v = values_.data() + node * d;
        bool ok = true;
        for (std::size_t k = 0; k < d; ++k) ok &= v[k] >= item[k];
        return ok;
    }
    // Depth-first, left to right, pruning subtrees whose per-dimension maxima cannot hold the item;
    // iterative: a pruned left child moves to its sibling, a pruned right child climbs first.
    template <std::size_t D>
    [[nodiscard]] std::size_t search(const std::int64_t* item) const {
        if (!may_fit<D>(1, item)) return npos;
        std::size_t node = 1;
        while (node < size_) {
            node *= 2;
            while (!may_fit<D>(node, item)) {
                while ((node & 1) != 0) {
                    node /= 2;
                    if (node == 1) return npos;
                }
                ++node;
            }
        }
        return node - size_;
    }

    std::size_t d_;
    std::vector<std::int64_t> initial_;
    std::size_t size_ = 1;
    std::vector<std::int64_t> values_;
};
using ResidualTree = BasicResidualTree<>;

/// Turns a bin index per placed item (in placement order) into item lists per bin (`bins` bins,
/// each list allocated once).
template <typename Bins>
void collect_bins(Bins& out, std::size_t bins, const std::vector<std::size_t>& placed, const std::vector<std::size_t>& bin_of) {
    std::vector<std::size_t> count(bins, 0);
    for (const auto b : bin_of) ++count[b];
    out.resize(bins);
    for (std::size_t b = 0; b < bins; ++b) out[b].reserve(count[b]);
    for (std::size_t q = 0; q < placed.size(); ++q) out[bin_of[q]].push_back(placed[q]);
}

/// 1-D max tree specialised for first fit: 16-way (a node's children are one block of 16
/// values, one cache line for int32, scanned without branches), values of type T (int32 when the
/// capacity allows). Leaves past the opened bins hold 0, so "no room anywhere" (the common case
/// for large items) is one look at the top block and opens the next bin; the leaf count doubles
/// when every leaf is open. first_fit_from() resumes a search from a known leaf.
template <typename T>
class FirstFitTree {
public:
    static constexpr std::size_t block = 16;

    FirstFitTree(std::size_t leaves, T capacity) : capacity_(capacity) { build(std::max<std::size_t>(leaves, 1), {}); }

    /// Bins opened so far.
    [[nodiscard]] std::size_t opened() const { return opened_; }

    /// Leftmost open bin with residual >= x, or opened() (the next bin to open) when none has room.
    [[nodiscard]] std::size_t first_fit(T x) const {
        const std::size_t top = levels_.size() - 1;
        const unsigned mask = fit_mask(levels_[top].data(), x);
        if (mask == 0) return opened_;
        return descend(top, static_cast<std::size_t>(__builtin_ctz(mask)), x);
    }

    /// first_fit(x) when every bin before `from` is known to hold less than x (e.g. the previous
    /// item had the same size and went to bin `from`): climbs from `from` to the first subtree
    /// to its right with room, then descends, so a run of equal sizes costs O(1) amortised.
    [[nodiscard]] std::size_t first_fit_from(std::size_t from, T x) const {
        if (fit_mask(levels_.back().data(), x) == 0) return opened_;  // no room anywhere: skip the climb
        std::size_t level = 0;
        std::size_t index = from;
        while (true) {
            const auto& values = levels_[level];
            if (index >= values.size()) return opened_;
            const std::size_t start = index & ~(block - 1);
            const unsigned mask = fit_mask(values.data() + start, x) & (~0u << (index - start));
            if (mask != 0) return descend(level, start + static_cast<std::size_t>(__builtin_ctz(mask)), x);
            if (level + 1 == levels_.size()) return opened_;
            index = index / block + 1;
            ++level;
        }
    }

    /// Puts an item of size x (<= capacity) into `bin`, an open bin with room or opened().
    void place(std::size_t bin, T x) {
        if (bin < opened_) {
            subtract(bin, x);
            return;
        }
        if (opened_ == levels_[0].size()) grow();
        ++opened_;
        // Raise the new leaf from 0 to capacity - x and its ancestors to at least that.
        const T value = static_cast<T>(capacity_ - x);
        std::size_t index = bin;
        for (auto& level : levels_) {
            if (level[index] >= value) return;
            level[index] = value;
            index /= block;
        }
    }

private:
    void subtract(std::size_t leaf, T x) {
        T old = levels_[0][leaf];
        levels_[0][leaf] = static_cast<T>(old - x);
        std::size_t index = leaf;
        for (std::size_t level = 0; level + 1 < levels_.size(); ++level) {
            const std::size_t parent = index / block;
            T& up = levels_[level + 1][parent];
            if (up != old) return;  // the changed value was not the maximum of its block
            const T* child = levels_[level].data() + parent * block;
            T best = child[0];
            for (std::size_t j = 1; j < block; ++j) best = std::max(best, child[j]);
            if (best == up) return;
            old = up;
            up = best;
            index = parent;
        }
    }
    // Bit j set when block value j >= x.
    static unsigned fit_mask(const T* values, T x) {
        unsigned mask = 0;
        for (std::size_t j = 0; j < block; ++j) mask |= static_cast<unsigned>(values[j] >= x) << j;
        return mask;
    }
    // From node `index` of `level` (which has room for x) down to its leftmost leaf with room.
    std::size_t descend(std::size_t level, std::size_t index, T x) const {
        while (level > 0) {
            --level;
            index *= block;
            index += static_cast<std::size_t>(__builtin_ctz(fit_mask(levels_[level].data() + index, x)));
        }
        return index;
    }
    // Leaves (a multiple of 16) then one level per 16-fold reduction, each a multiple of 16, up to
    // a single block; leaves not open and padding past the last real node hold 0, which no item fits.
    void build(std::size_t leaves, const std::vector<T>& old_leaves) {
        const std::size_t count = (leaves + block - 1) / block * block;
        levels_.clear();
        levels_.emplace_back(count, T{0});
        std::copy(old_leaves.begin(), old_leaves.end(), levels_[0].begin());
        while (levels_.back().size() > block) {
            const auto& below = levels_.back();
            const std::size_t nodes = below.size() / block;
            std::vector<T> up((nodes + block - 1) / block * block, T{0});
            for (std::size_t j = 0; j < nodes; ++j) up[j] = *std::max_element(below.begin() + static_cast<std::ptrdiff_t>(j * block), below.begin() + static_cast<std::ptrdiff_t>((j + 1) * block));
            levels_.push_back(std::move(up));
        }
    }
    void grow() {
        std::vector<T> leaves = std::move(levels_[0]);
        build(2 * leaves.size(), leaves);
    }

    T capacity_;
    std::size_t opened_ = 0;
    std::vector<std::vector<T>> levels_;
};

}  // namespace continuum::packing::detail
