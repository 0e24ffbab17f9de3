// Internal: a search (1-D; issue 20, session 18) for a packing into m bins among the bins that several
// dual vectors allow. For integer duals p ≥ 0 whose exact knapsack optimum over the bins is K, every bin
// of a packing into m bins has K − p·a ≤ G = m·K − p·b, and the bins' reduced costs sum to G
// (reduced_cost_proof.hpp). Each of several dual-feasible vectors (the root LP's and those of the LPs
// with one more item of a type) is such a filter and a budget of its own. This is the proof's exact
// cover (branch on the type with the fewest usable bins, within every vector's budget left and the
// waste budget, each multiset of bins once) with another order of the children: **most constraining
// first**, the bin that leaves the most other usable bins unusable (those sharing an item type whose
// residual it exhausts), so that the subtrees below a wrong choice are small and fail fast. On BPP40
// from the root LP (502 bins under 65 vectors) the proof's order needs 358,000 cover nodes for the
// packing, seeded restarts ordered by the budgets' shares 9,000-220,000 over 8 seeds (median about
// 48,000; 12 of 30 further seeds within 50,000), this order 13,668 counted nodes (11,444 cover nodes).
// A run that ends without a cover has seen the whole tree: when the bins given are all those within
// the first vector's gap, no packing into m bins exists (every bin of a packing into at most m bins
// passes every vector). The search is cover_search.hpp's; this file gives it the bins within every
// vector's gap and the order of the children.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/cover_search.hpp>
#include <continuum/packing/detail/sparse_pattern.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

/// Integer duals (≥ 0, one per item type) and the exact knapsack maximum of Σ profit_j a_j over the
/// bins within the demand (or a larger demand): a dual-feasible vector.
struct DualVector {
    std::vector<std::int64_t> profit;
    std::int64_t knapsack = 0;
};

/// What the cover searches: candidate bins and the dual vectors that filter them (the first is the one
/// the bins were enumerated under).
struct MultiDualCoverInput {
    std::vector<SparsePattern> bins;
    std::vector<DualVector> duals;
};

template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicMultiDualCover : private CoverSearch<BasicMultiDualCover<Defer>> {
    using Base = CoverSearch<BasicMultiDualCover<Defer>>;
    friend Base;

public:
    using typename Base::Wide;
    enum class Outcome { found, infeasible, unknown };

    /// Item types (`weight`, `demand`), the bin `capacity`, candidate `bins` (sparse patterns within the
    /// demand and the capacity) and the dual vectors (`duals`, at least one). Nodes count on `tracker`
    /// and on `share` (a sub-budget): a node per cover node and per 4,096 bins checked.
    BasicMultiDualCover(std::vector<std::int64_t> weight, std::vector<std::int64_t> demand, std::int64_t capacity, std::vector<SparsePattern> bins, std::vector<DualVector> duals,
                        BudgetTracker& tracker, BudgetTracker& share)
        : Base(std::move(weight), std::move(demand), capacity), all_bins_(std::move(bins)), duals_(std::move(duals)), tracker_(tracker), share_(share) {}

    /// One depth-first search for a cover by `target` bins: found (packing() holds it), infeasible (the
    /// whole tree was seen: no cover by the bins given exists) or unknown (a tracker ran out).
    Outcome run(std::int64_t target) {
        if (!prepare(target)) return Outcome::infeasible;
        this->start_search(total_load_);
        budget_ = gap_;
        seen_.assign(bins_.size(), 0);
        usable_now_.assign(bins_.size(), 0);
        marked_.assign(bins_.size(), 0);
        stamp_ = 0;
        mark_stamp_ = 0;
        if (this->cover(target, 0, 0, bins_.size())) return Outcome::found;
        return stopped_ ? Outcome::unknown : Outcome::infeasible;
    }

    /// The packing found (copies per type, a pattern per bin).
    [[nodiscard]] std::vector<std::vector<std::int64_t>> packing() const { return this->template chosen_packing<Defer>(); }
    /// Bins that passed every vector's filter, and the cover nodes of the last run.
    [[nodiscard]] std::size_t bins() const { return bins_.size(); }
    [[nodiscard]] std::int64_t cover_nodes() const { return this->cover_nodes_; }

private:
    using Base::alive_, Base::bins_, Base::budget_, Base::capacity_, Base::containing_, Base::cost_, Base::demand_, Base::monotone_,
        Base::order_, Base::residual_, Base::stopped_, Base::usable_count_, Base::waste_, Base::weight_;
    static constexpr bool has_reduced = false;  // the first vector is one of the budgets
    static constexpr bool keeps_banned = false;

    /// The vectors' gaps G_r = m·K_r − p_r·b and the bins within all of them, with their reduced
    /// costs (bin × vector). False when a gap is negative (that vector's Farley bound exceeds m) or the
    /// total size exceeds m bins. A vector whose gap exceeds 2^62 filters nothing a bin could use up
    /// and is dropped (valid), so the budgets and costs are 64-bit.
    bool prepare(std::int64_t target) {
        total_load_ = 0;
        for (std::size_t j = 0; j < demand_.size(); ++j) total_load_ += weight_[j] * demand_[j];
        if (target <= 0 || static_cast<Wide>(target) * capacity_ < total_load_) return total_load_ == 0 && target >= 0;
        gap_.clear();
        std::vector<std::size_t> rows;
        for (std::size_t r = 0; r < duals_.size(); ++r) {
            Wide total = 0;
            for (std::size_t j = 0; j < demand_.size(); ++j) total += static_cast<Wide>(duals_[r].profit[j]) * demand_[j];
            const Wide gap = static_cast<Wide>(target) * duals_[r].knapsack - total;
            if (gap < 0) return false;
            if (gap > (Wide{1} << 62)) continue;
            rows.push_back(r);
            gap_.push_back(static_cast<std::int64_t>(gap));
        }
        bins_.clear();
        cost_.clear();
        waste_.clear();
        monotone_ = true;
        std::vector<std::int64_t> costs(rows.size());
        for (std::size_t b = 0; b < all_bins_.size(); ++b) {
            const auto& bin = all_bins_[b];
            bool keep = true;
            std::int64_t load = 0;
            for (const auto& [j, c] : bin) load += c * weight_[j];
            keep = load <= capacity_;
            for (std::size_t e = 0; e < rows.size() && keep; ++e) {
                Wide value = 0;
                for (const auto& [j, c] : bin) value += static_cast<Wide>(duals_[rows[e]].profit[j]) * c;
                const Wide cost = static_cast<Wide>(duals_[rows[e]].knapsack) - value;
                keep = cost <= gap_[e];  // (≥ 0: K_r bounds every bin)
                costs[e] = keep ? static_cast<std::int64_t>(cost) : 0;
                if (cost < 0) monotone_ = false;  // (not expected; then every node tests every bin)
            }
            if (!keep) continue;
            bins_.push_back(bin);
            cost_.insert(cost_.end(), costs.begin(), costs.end());
            waste_.push_back(capacity_ - load);
        }
        rows_ = rows.size();
        this->index_bins();
        // The branching scans the types heaviest first (the first among ties).
        order_.resize(weight_.size());
        std::iota(order_.begin(), order_.end(), std::size_t{0});
        std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return weight_[a] > weight_[b]; });
        return true;
    }

    bool count() {
        const bool a = tracker_.count();
        const bool b = share_.count();
        if (!a || !b) stopped_ = true;
        return !stopped_;
    }

    /// A node past the budget tests: a new stamp for its usable bins (seen_), then the search's node.
    bool visit(std::int64_t left, Wide budget, std::int64_t waste, std::size_t from, std::size_t to) {
        ++stamp_;
        return this->expand(left, budget, waste, from, to);
    }
    void on_usable(std::size_t q) {
        seen_[q] = stamp_;
        usable_now_[q] = 1;
    }

    /// The children, most constraining first: by the usable bins they leave unusable (those sharing an
    /// item type whose residual they exhaust), most first; ties by their mean share of the budgets left.
    void order_children(std::size_t branch, std::size_t fewest, std::size_t begin, std::size_t end, std::vector<std::size_t>& out) {
        std::vector<std::pair<std::pair<std::int64_t, double>, std::size_t>> keyed;
        keyed.reserve(fewest);
        for (std::size_t k = begin; k < end; ++k) {
            const auto q = alive_[k];
            if (this->copies_of(q, branch) == 0) continue;
            ++mark_stamp_;
            marked_[q] = mark_stamp_;
            std::int64_t killed = 0;
            for (const auto& [j, c] : bins_[q]) {
                for (const auto o : containing_[j]) {
                    if (marked_[o] == mark_stamp_ || seen_[o] != stamp_ || usable_now_[o] == 0) continue;
                    if (residual_[j] - c < this->copies_of(o, j)) {
                        marked_[o] = mark_stamp_;
                        ++killed;
                    }
                }
            }
            double share = 0;
            const std::int64_t* costs = cost_.data() + q * rows_;
            for (std::size_t r = 0; r < rows_; ++r) share += static_cast<double>(costs[r]) / (static_cast<double>(budget_[r]) + 1.0);
            keyed.push_back({{-killed, share}, q});
        }
        std::sort(keyed.begin(), keyed.end());
        for (const auto& [key, q] : keyed) out.push_back(q);
    }

    std::vector<SparsePattern> all_bins_;
    std::vector<DualVector> duals_;
    BudgetTracker& tracker_;
    BudgetTracker& share_;
    std::size_t rows_ = 0;
    std::vector<std::int64_t> marked_;
    std::int64_t mark_stamp_ = 0;
    std::vector<std::int64_t> gap_;
    std::int64_t total_load_ = 0;
    std::vector<std::int64_t> seen_;
    std::vector<char> usable_now_;  // 1 for this node's usable bins (seen_ == stamp_)
    std::int64_t stamp_ = 0;
};
using MultiDualCover = BasicMultiDualCover<>;

/// Further dual vectors (for ReducedCostProof::add_duals and the cover above): the LPs of `master`'s
/// demand with one more item of one type, for `count` types spread evenly, each solved on its own copy
/// of `master` (a ColumnGeneration solved to its optimum) so that every one starts from the same state,
/// and from its optimal basis (ColumnGeneration::warm_start: a few dual simplex pivots, about 150 nodes
/// per LP on Hard28 where the homogeneous start took 2,000); before each, `keep_going()` may stop the
/// loop (a budget). With `tried` (one flag per type), the types flagged are skipped and those solved
/// flagged, so that a later call adds only new ones.
template <typename Master, typename KeepGoing>
std::vector<DualVector> one_more_item_duals(const Master& master, int count, KeepGoing keep_going, std::vector<char>* tried = nullptr) {
    const auto& demand = master.type_demands();
    count = std::min(count, static_cast<int>(demand.size()));  // each type at most once
    std::vector<DualVector> out;
    for (int e = 0; e < count; ++e) {
        const auto type = static_cast<std::size_t>(e) * demand.size() / static_cast<std::size_t>(count);
        if (tried != nullptr && (*tried)[type] != 0) continue;
        if (!keep_going()) break;
        if (tried != nullptr) (*tried)[type] = 1;
        auto copy = master;
        if (const auto& basis = master.last_optimal_basis()) copy.warm_start(*basis);
        auto more = demand;
        ++more[type];
        auto other = copy.residual_lp(more);
        if (other.knapsack > 0) out.push_back({std::move(other.profit), other.knapsack});
    }
    return out;
}

}  // namespace continuum::packing::detail
