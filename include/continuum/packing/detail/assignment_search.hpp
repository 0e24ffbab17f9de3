// Internal: a complete depth-first branch and bound over item-to-bin assignments (Martello–Toth
// MTP style, items largest first) for identical bins of any dimension, used by the exact solver to
// close small instances whose LP bound is not tight, and for vector items.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/dense.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace continuum::packing::detail {

/// Searches for a packing of `order` (item indices, largest first) into fewer than `upper_bound`
/// bins, down to `lower_bound`. On success `bins` holds the best packing found.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicAssignmentSearch {
public:
    BasicAssignmentSearch(const DenseItems& items, std::span<const std::int64_t> capacity, std::vector<std::size_t> order, BudgetTracker& tracker)
        : items_(items), capacity_(capacity.begin(), capacity.end()), order_(std::move(order)), tracker_(tracker) {
        const std::size_t d = items.d;
        suffix_.assign((order_.size() + 1) * d, 0);
        for (std::size_t pos = order_.size(); pos-- > 0;) {
            for (std::size_t k = 0; k < d; ++k) suffix_[pos * d + k] = suffix_[(pos + 1) * d + k] + items.row(order_[pos])[k];
        }
        free_.assign(d, 0);
        bin_of_.assign(order_.size(), 0);
    }

    /// Runs the search with incumbent `upper_bound` bins; returns true when it completed (so the
    /// best packing found, or the incumbent, is optimal given `lower_bound`).
    bool run(std::size_t upper_bound, std::size_t lower_bound) {
        best_count_ = upper_bound;
        lower_bound_ = lower_bound;
        complete_ = true;
        descend(0);
        return complete_ || best_count_ <= lower_bound_;
    }
    [[nodiscard]] std::size_t best_count() const { return best_count_; }
    [[nodiscard]] bool improved() const { return !best_.empty(); }
    [[nodiscard]] const std::vector<std::vector<std::size_t>>& best() const { return best_; }

private:
    void descend(std::size_t pos) {
        if (!complete_ || best_count_ <= lower_bound_) return;
        if (!tracker_.count()) {
            complete_ = false;
            return;
        }
        const std::size_t d = items_.d;
        const std::size_t open = residual_.size() / std::max<std::size_t>(d, 1);
        if (pos == order_.size()) {
            if (open < best_count_) {
                best_count_ = open;
                best_.assign(open, {});
                for (std::size_t p = 0; p < order_.size(); ++p) best_[bin_of_[p]].push_back(order_[p]);
            }
            return;
        }
        // Bins still needed beyond the open ones, dimension by dimension.
        std::size_t needed = open;
        for (std::size_t k = 0; k < d; ++k) {
            const std::int64_t uncovered = suffix_[pos * d + k] - free_[k];
            if (uncovered > 0 && capacity_[k] > 0) needed = std::max<std::size_t>(needed, open + static_cast<std::size_t>((uncovered + capacity_[k] - 1) / capacity_[k]));
        }
        if (needed >= best_count_) return;
        const std::size_t item = order_[pos];
        const auto* row = items_.row(item);
        // Identical consecutive items go to non-decreasing bins (symmetry).
        std::size_t first_bin = 0;
        if (pos > 0 && std::equal(row, row + d, items_.row(order_[pos - 1]))) first_bin = bin_of_[pos - 1];
        for (std::size_t b = first_bin; b < open; ++b) {
            std::int64_t* r = residual_.data() + b * d;
            if (!fits(row, r, d)) continue;
            bool duplicate = false;
            for (std::size_t a = first_bin; a < b && !duplicate; ++a) duplicate = std::equal(r, r + d, residual_.data() + a * d);
            if (duplicate) continue;
            for (std::size_t k = 0; k < d; ++k) {
                r[k] -= row[k];
                free_[k] -= row[k];
            }
            bin_of_[pos] = b;
            descend(pos + 1);
            r = residual_.data() + b * d;
            for (std::size_t k = 0; k < d; ++k) {
                r[k] += row[k];
                free_[k] += row[k];
            }
            if (!complete_ || best_count_ <= lower_bound_) return;
        }
        if (open + 1 < best_count_) {
            residual_.insert(residual_.end(), capacity_.begin(), capacity_.end());
            for (std::size_t k = 0; k < d; ++k) {
                residual_[open * d + k] -= row[k];
                free_[k] += capacity_[k] - row[k];
            }
            bin_of_[pos] = open;
            descend(pos + 1);
            for (std::size_t k = 0; k < d; ++k) free_[k] -= capacity_[k] - row[k];
            residual_.resize(open * d);
        }
    }

    const DenseItems& items_;
    std::vector<std::int64_t> capacity_;
    std::vector<std::size_t> order_;
    BudgetTracker& tracker_;
    std::vector<std::int64_t> suffix_;
    std::vector<std::int64_t> residual_;  // open bins x d
    std::vector<std::int64_t> free_;      // summed residual of open bins
    std::vector<std::size_t> bin_of_;
    std::vector<std::vector<std::size_t>> best_;
    std::size_t best_count_ = 0;
    std::size_t lower_bound_ = 0;
    bool complete_ = true;
};
using AssignmentSearch = BasicAssignmentSearch<>;

}  // namespace continuum::packing::detail
