// Internal: the exact cover over whole bins (1-D; issue 20) that the solver's three covers share:
// reduced_cost_proof.hpp (the proof's, with a memo of infeasible states), low_cost_cover.hpp (children
// by reduced cost, seeded restarts with node caps) and multi_dual_cover.hpp (most constraining child
// first, many dual vectors). One search: a cover of the residual demand by `left` candidate bins within
// the budgets left (the waste left·c − load, optionally one 128-bit reduced-cost budget, and a 64-bit
// budget per further dual vector), branching on the item type with the fewest usable bins (the first in
// order_ among ties), the k-th child banning the bins its elder siblings took (each multiset of bins
// once). The covers supply (CRTP hooks) the order of the children, the node count, and what is done
// around a node (the proof's memo), and fill the candidate bins and their costs.
#pragma once

#include <continuum/packing/detail/budget_check.hpp>
#include <continuum/packing/detail/sparse_pattern.hpp>

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

/// The shared search. `Derived` provides:
/// - `static constexpr bool has_reduced`: bins carry a 128-bit reduced cost (reduced_) checked against
///   the budget passed down cover(); else that budget is ignored;
/// - `static constexpr bool keeps_banned`: banned bins that fit stay on alive_ (the proof's memo needs
///   to see them); else they are dropped there (bans only grow down the tree);
/// - `bool count()`: counts a node (false: a budget ran out; the search stops);
/// - `void order_children(branch, fewest, begin, end, out)`: the children, the `fewest` unbanned bins of
///   alive_[begin, end) holding type `branch`, in the order to try them, appended to `out`;
/// and may hide the defaults `visit` (a node past the budget tests: expand()), `on_usable(q)`,
/// `on_banned_reached(q, reached)` and `on_ban(q)`.
template <typename Derived>
class CoverSearch {
public:
    __extension__ using Wide = __int128;

protected:
    CoverSearch(std::vector<std::int64_t> weight, std::vector<std::int64_t> demand, std::int64_t capacity)
        : weight_(std::move(weight)), demand_(std::move(demand)), capacity_(capacity) {}

    Derived& self() { return static_cast<Derived&>(*this); }

    /// The search's state at the root of a run: the whole demand (of total size `load`) left, no bin
    /// banned or chosen, every candidate bin alive.
    void start_search(std::int64_t load) {
        residual_ = demand_;
        load_ = load;
        banned_.assign(bins_.size(), 0);
        usable_count_.assign(weight_.size(), 0);
        alive_.resize(bins_.size());
        std::iota(alive_.begin(), alive_.end(), std::size_t{0});
        chosen_.clear();
        stopped_ = false;
    }

    /// containing_[j]: the bins holding type j, ascending.
    void index_bins() {
        containing_.assign(weight_.size(), {});
        for (std::size_t q = 0; q < bins_.size(); ++q) {
            for (const auto& [j, c] : bins_[q]) containing_[j].push_back(q);
        }
    }

    /// Whether bin q fits the residual demand, the waste budget and every budget left, whatever its ban.
    [[nodiscard]] bool fits(std::size_t q, Wide budget, std::int64_t waste) const {
        if constexpr (Derived::has_reduced) {
            if (reduced_[q] > budget) return false;
        }
        if (waste_[q] > waste) return false;
        for (const auto& [j, c] : bins_[q]) {
            if (c > residual_[j]) return false;
        }
        const std::size_t rows = budget_.size();
        if (rows == 0) return true;
        const std::int64_t* costs = &cost_[q * rows];
        if (monotone_) return within_budgets(costs, budget_.data(), rows);  // costs and budgets in [0, 2^62]
        for (std::size_t r = 0; r < rows; ++r) {
            if (costs[r] > budget_[r]) return false;
        }
        return true;
    }

    [[nodiscard]] bool holds(std::size_t q, std::size_t type) const {
        for (const auto& [j, c] : bins_[q]) {
            if (j == type) return true;
        }
        return false;
    }
    [[nodiscard]] std::int64_t copies_of(std::size_t q, std::size_t type) const {
        for (const auto& [j, c] : bins_[q]) {
            if (j == type) return c;
        }
        return 0;
    }

    /// A cover of residual_ by `left` bins among alive_[from, to), the bins that fit at the parent (a bin
    /// that does not fit at a node fits nowhere below it, since the residual demand, the waste budget
    /// and every budget only shrink down the tree, by costs ≥ 0).
    bool cover(std::int64_t left, Wide budget, std::size_t from, std::size_t to) {
        if (load_ == 0) return true;
        if (!self().count()) {
            stopped_ = true;
            return false;
        }
        ++cover_nodes_;
        const std::int64_t waste = left * capacity_ - load_;
        if (left <= 0 || waste < 0) return false;
        return self().visit(left, budget, waste, from, to);
    }

    bool visit(std::int64_t left, Wide budget, std::int64_t waste, std::size_t from, std::size_t to) { return expand(left, budget, waste, from, to); }
    void on_usable(std::size_t) {}
    void on_banned_reached(std::size_t, std::size_t) {}
    void on_ban(std::size_t) {}

    /// The node: its fitting bins, appended to alive_ (ascending, as containing_'s lists), and per type
    /// the usable ones (fit, not banned) holding it: the counts of testing each type's whole list.
    bool expand(std::int64_t left, Wide budget, std::int64_t waste, std::size_t from, std::size_t to) {
        const std::size_t begin = alive_.size();
        for (std::size_t k = from; k < to; ++k) {
            const auto q = alive_[k];
            if constexpr (Derived::keeps_banned) {
                if (!fits(q, budget, waste)) continue;
                alive_.push_back(q);
                if (banned_[q] != 0) continue;
            } else {
                if (banned_[q] != 0 || !fits(q, budget, waste)) continue;
                alive_.push_back(q);
            }
            self().on_usable(q);
            for (const auto& [j, c] : bins_[q]) ++usable_count_[j];
        }
        const std::size_t end = alive_.size();
        const bool found = branch_here(left, budget, begin, end);
        alive_.resize(begin);
        return found;
    }

    /// expand()'s branching over this node's bins alive_[begin, end).
    bool branch_here(std::int64_t left, Wide budget, std::size_t begin, std::size_t end) {
        // The type with the fewest usable bins, the first in order_ among ties; the scan stops at a type
        // with none. The checks are counted as when every bin of each type's list was tested, at the
        // same points.
        std::size_t branch = weight_.size();
        std::size_t fewest = bins_.size() + 1;
        std::size_t reached = 0;  // the last position of order_ the scan looked at
        bool counted = true;
        for (std::size_t t = 0; t < order_.size() && fewest > 0; ++t) {
            const auto j = order_[t];
            if (residual_[j] == 0) continue;
            reached = t;
            const std::size_t usable_bins = usable_count_[j];
            checks_ += static_cast<std::int64_t>(containing_[j].size());
            if (checks_ >= 4096) {  // a node per 4,096 bins checked, beside the node itself
                checks_ -= 4096;
                if (!self().count()) {
                    stopped_ = true;
                    counted = false;
                    break;
                }
            }
            if (usable_bins < fewest) {
                fewest = usable_bins;
                branch = j;
            }
        }
        // The counts back to zero (a banned bin on alive_ told the derived cover it was reached).
        for (std::size_t k = begin; k < end; ++k) {
            const auto q = alive_[k];
            if (!Derived::keeps_banned || banned_[q] == 0) {
                for (const auto& [j, c] : bins_[q]) --usable_count_[j];
            } else {
                self().on_banned_reached(q, reached);
            }
        }
        if (!counted || fewest == 0) return false;
        // The children, appended to children_ (a stack like alive_: no allocation per node); those tried
        // and banned are the first `tried` of them.
        const std::size_t first = children_.size();
        self().order_children(branch, fewest, begin, end, children_);
        const std::size_t last = children_.size();
        std::size_t tried = 0;
        bool found = false;
        for (std::size_t i = first; i < last; ++i) {
            const auto q = children_[i];
            take(q, -1);
            chosen_.push_back(q);
            Wide below = budget;
            if constexpr (Derived::has_reduced) below -= reduced_[q];
            found = monotone_ ? cover(left - 1, below, begin, end) : cover(left - 1, below, 0, bins_.size());
            if (found) break;
            chosen_.pop_back();
            take(q, 1);
            if (stopped_) break;
            ++banned_[q];
            self().on_ban(q);
            ++tried;
        }
        for (std::size_t i = first; i < first + tried; ++i) --banned_[children_[i]];
        children_.resize(first);
        return found;
    }

    void take(std::size_t q, std::int64_t sign) {
        const std::size_t rows = budget_.size();
        for (std::size_t r = 0; r < rows; ++r) budget_[r] += sign * cost_[q * rows + r];
        for (const auto& [j, c] : bins_[q]) {
            residual_[j] += sign * c;
            load_ += sign * c * weight_[j];
        }
    }

    /// The packing found (copies per type, a pattern per bin).
    template <typename Defer>
    [[nodiscard]] std::vector<std::vector<std::int64_t>> chosen_packing() const {
        std::vector<std::vector<std::int64_t>> out;
        for (const auto q : chosen_) out.push_back(dense_pattern<Defer>(bins_[q], demand_.size()));
        return out;
    }

    std::vector<std::int64_t> weight_, demand_;
    std::int64_t capacity_ = 0;
    // The candidate bins: patterns, reduced costs (has_reduced), wastes c − w·a, and their costs under the
    // further dual vectors (bin × vector, as many vectors as budget_ has).
    std::vector<SparsePattern> bins_;
    std::vector<Wide> reduced_;
    std::vector<std::int64_t> waste_, cost_;
    std::vector<std::int64_t> budget_;  // per further vector, the budget left
    std::vector<std::vector<std::size_t>> containing_;
    std::vector<std::size_t> order_;  // the order in which the branching scans the types
    bool monotone_ = true;            // every cost ≥ 0 (else every node tests the root's list)
    // The search's state.
    std::vector<std::int64_t> residual_;
    std::int64_t load_ = 0;
    std::vector<int> banned_;
    std::vector<std::size_t> alive_;         // the fitting bins of the nodes on the path, each node's after its parent's
    std::vector<std::size_t> usable_count_;  // per type, the usable bins holding it (zero between nodes)
    std::vector<std::size_t> children_;      // the children of the nodes on the path, each node's after its parent's
    std::vector<std::size_t> chosen_;
    std::int64_t cover_nodes_ = 0, checks_ = 0;
    bool stopped_ = false;  // a budget ran out
};

}  // namespace continuum::packing::detail
