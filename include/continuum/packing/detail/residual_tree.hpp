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
class ResidualTree {
public:
    ResidualTree(std::size_t leaves, std::span<const std::int64_t> initial) : d_(initial.size()) {
        size_ = 1;
        while (size_ < leaves) size_ *= 2;
        values_.resize(2 * size_ * d_);
        for (std::size_t node = 1; node < 2 * size_; ++node) {
            for (std::size_t k = 0; k < d_; ++k) values_[node * d_ + k] = initial[k];
        }
    }

    /// Leftmost leaf whose residual fits `item` in every dimension; `npos` when none does.
    [[nodiscard]] std::size_t first_fit(const std::int64_t* item) const {
        if (d_ == 1) {
            const std::int64_t x = item[0];
            if (values_[1] < x) return npos;
            std::size_t node = 1;
            while (node < size_) {
                node *= 2;
                if (values_[node] < x) ++node;
            }
            return node - size_;
        }
        return search(1, item);
    }

    /// Overwrites leaf `leaf` with `residual` and refreshes its ancestors.
    void set_leaf(std::size_t leaf, const std::int64_t* residual) {
        std::size_t node = size_ + leaf;
        for (std::size_t k = 0; k < d_; ++k) values_[node * d_ + k] = residual[k];
        for (node /= 2; node >= 1; node /= 2) {
            for (std::size_t k = 0; k < d_; ++k) values_[node * d_ + k] = std::max(values_[2 * node * d_ + k], values_[(2 * node + 1) * d_ + k]);
        }
    }

    /// 1-D: sets a leaf without refreshing ancestors; call rebuild() after a batch.
    void set_leaf_quick(std::size_t leaf, std::int64_t residual) { values_[size_ + leaf] = residual; }
    /// Recomputes every internal node from the leaves (1-D).
    void rebuild() {
        for (std::size_t node = size_; node-- > 1;) values_[node] = std::max(values_[2 * node], values_[2 * node + 1]);
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
    [[nodiscard]] bool may_fit(std::size_t node, const std::int64_t* item) const {
        const std::int64_t* v = values_.data() + node * d_;
        for (std::size_t k = 0; k < d_; ++k) {
            if (v[k] < item[k]) return false;
        }
        return true;
    }
    // Depth-first, left to right, pruning subtrees whose per-dimension maxima cannot hold the item.
    [[nodiscard]] std::size_t search(std::size_t node, const std::int64_t* item) const {
        if (!may_fit(node, item)) return npos;
        if (node >= size_) return node - size_;
        const std::size_t left = search(2 * node, item);
        return left != npos ? left : search(2 * node + 1, item);
    }

    std::size_t d_;
    std::size_t size_ = 1;
    std::vector<std::int64_t> values_;
};

/// 1-D max tree specialised for first fit: values of type T (int32 when the capacity allows,
/// halving the memory traffic), leaves that are not yet open hold the full capacity, and the tree
/// doubles when every leaf is open.
template <typename T>
class FirstFitTree {
public:
    FirstFitTree(std::size_t leaves, T capacity) : capacity_(capacity) { reset(leaves); }

    /// Leftmost leaf with residual >= x (the next unopened leaf when no open bin has room).
    std::size_t first_fit(T x) {
        if (values_[1] < x) grow();
        std::size_t node = 1;
        while (node < size_) {
            node *= 2;
            node += static_cast<std::size_t>(values_[node] < x);
        }
        return node - size_;
    }
    void subtract(std::size_t leaf, T x) {
        std::size_t node = size_ + leaf;
        values_[node] -= x;
        while (node > 1) {
            const T best = std::max(values_[node], values_[node ^ 1]);
            node /= 2;
            if (values_[node] == best) break;
            values_[node] = best;
        }
    }

private:
    void reset(std::size_t leaves) {
        size_ = 1;
        while (size_ < leaves) size_ *= 2;
        values_.assign(2 * size_, capacity_);
    }
    void grow() {
        std::vector<T> leaves(values_.begin() + static_cast<std::ptrdiff_t>(size_), values_.end());
        reset(size_ * 2);
        std::copy(leaves.begin(), leaves.end(), values_.begin() + static_cast<std::ptrdiff_t>(size_));
        for (std::size_t node = size_; node-- > 1;) values_[node] = std::max(values_[2 * node], values_[2 * node + 1]);
    }

    T capacity_;
    std::size_t size_ = 1;
    std::vector<T> values_;
};

}  // namespace continuum::packing::detail
