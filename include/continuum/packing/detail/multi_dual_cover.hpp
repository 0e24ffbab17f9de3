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
// passes every vector).
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/budget_check.hpp>
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
class BasicMultiDualCover {
public:
    __extension__ using Wide = __int128;
    enum class Outcome { found, infeasible, unknown };

    /// Item types (`weight`, `demand`), the bin `capacity`, candidate `bins` (sparse patterns within the
    /// demand and the capacity) and the dual vectors (`duals`, at least one). Nodes count on `tracker`
    /// and on `share` (a sub-budget): a node per cover node and per 4,096 bins checked.
    BasicMultiDualCover(std::vector<std::int64_t> weight, std::vector<std::int64_t> demand, std::int64_t capacity, std::vector<SparsePattern> bins, std::vector<DualVector> duals,
                        BudgetTracker& tracker, BudgetTracker& share)
        : weight_(std::move(weight)), demand_(std::move(demand)), capacity_(capacity), all_bins_(std::move(bins)), duals_(std::move(duals)), tracker_(tracker), share_(share) {}

    /// One depth-first search for a cover by `target` bins: found (packing() holds it), infeasible (the
    /// whole tree was seen: no cover by the bins given exists) or unknown (a tracker ran out).
    Outcome run(std::int64_t target) {
        if (!prepare(target)) return Outcome::infeasible;
        residual_ = demand_;
        load_ = total_load_;
        budget_ = gap_;
        banned_.assign(bins_.size(), 0);
        seen_.assign(bins_.size(), 0);
        usable_now_.assign(bins_.size(), 0);
        marked_.assign(bins_.size(), 0);
        stamp_ = 0;
        mark_stamp_ = 0;
        chosen_.clear();
        stopped_ = false;
        usable_count_.assign(weight_.size(), 0);
        alive_.resize(bins_.size());
        std::iota(alive_.begin(), alive_.end(), std::size_t{0});
        if (cover(target, 0, bins_.size())) return Outcome::found;
        return stopped_ ? Outcome::unknown : Outcome::infeasible;
    }

    /// The packing found (copies per type, a pattern per bin).
    [[nodiscard]] std::vector<std::vector<std::int64_t>> packing() const {
        std::vector<std::vector<std::int64_t>> out;
        for (const auto q : chosen_) out.push_back(dense_pattern<Defer>(bins_[q], demand_.size()));
        return out;
    }
    /// Bins that passed every vector's filter, and the cover nodes of the last run.
    [[nodiscard]] std::size_t bins() const { return bins_.size(); }
    [[nodiscard]] std::int64_t cover_nodes() const { return cover_nodes_; }

private:
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
        containing_.assign(weight_.size(), {});
        for (std::size_t q = 0; q < bins_.size(); ++q) {
            for (const auto& [j, c] : bins_[q]) containing_[j].push_back(q);
        }
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

    /// Whether bin q fits the residual demand, the waste budget and every vector's budget left.
    [[nodiscard]] bool usable(std::size_t q, std::int64_t waste) const {
        if (banned_[q] || waste_[q] > waste) return false;
        for (const auto& [j, c] : bins_[q]) {
            if (c > residual_[j]) return false;
        }
        const std::int64_t* costs = cost_.data() + q * rows_;
        if (monotone_) return within_budgets(costs, budget_.data(), rows_);  // costs and budgets in [0, 2^62]
        for (std::size_t r = 0; r < rows_; ++r) {
            if (costs[r] > budget_[r]) return false;
        }
        return true;
    }

    /// A cover of the residual demand by `left` bins, among the bins alive_[from, to) (the parent's usable
    /// bins: a bin unusable at a node stays unusable below it, since the residual demand, the waste
    /// budget and every vector's budget only shrink down the tree, by costs ≥ 0, and bans only grow).
    bool cover(std::int64_t left, std::size_t from, std::size_t to) {
        if (load_ == 0) return true;
        if (!count()) return false;
        ++cover_nodes_;
        const std::int64_t waste = left * capacity_ - load_;
        if (left <= 0 || waste < 0) return false;
        ++stamp_;
        // This node's usable bins, appended to alive_ (ascending, as containing_'s lists), with the
        // number of them holding each type: the counts of testing every bin of every type's list.
        const std::size_t begin = alive_.size();
        for (std::size_t k = from; k < to; ++k) {
            const auto q = alive_[k];
            if (!usable(q, waste)) continue;
            alive_.push_back(q);
            seen_[q] = stamp_;
            usable_now_[q] = 1;
            for (const auto& [j, c] : bins_[q]) ++usable_count_[j];
        }
        const bool found = expand(left, begin, alive_.size());
        alive_.resize(begin);
        return found;
    }

    /// The node below cover(): its usable bins are alive_[begin, end).
    bool expand(std::int64_t left, std::size_t begin, std::size_t end) {
        // The type with the fewest usable bins (fail first), heaviest first among ties. The checks are
        // counted as when every bin of each type's list was tested, at the same points.
        std::size_t branch = weight_.size();
        std::size_t fewest = bins_.size() + 1;
        bool counted = true;
        for (std::size_t t = 0; t < order_.size() && fewest > 0; ++t) {
            const auto j = order_[t];
            if (residual_[j] == 0) continue;
            const std::size_t usable_bins = usable_count_[j];
            checks_ += static_cast<std::int64_t>(containing_[j].size());
            if (checks_ >= 4096) {  // a node per 4,096 bins checked, beside the node itself
                checks_ -= 4096;
                if (!count()) {
                    counted = false;
                    break;
                }
            }
            if (usable_bins < fewest) {
                fewest = usable_bins;
                branch = j;
            }
        }
        for (std::size_t k = begin; k < end; ++k) {
            for (const auto& [j, c] : bins_[alive_[k]]) --usable_count_[j];
        }
        if (!counted || fewest == 0 || branch == weight_.size()) return false;
        // The children, most constraining first: by the usable bins they leave unusable (those sharing an
        // item type whose residual they exhaust), most first; ties by their mean share of the budgets left.
        std::vector<std::pair<std::pair<std::int64_t, double>, std::size_t>> keyed;
        keyed.reserve(fewest);
        for (std::size_t k = begin; k < end; ++k) {
            const auto q = alive_[k];
            if (copies_of(q, branch) == 0) continue;
            ++mark_stamp_;
            marked_[q] = mark_stamp_;
            std::int64_t killed = 0;
            for (const auto& [j, c] : bins_[q]) {
                for (const auto o : containing_[j]) {
                    if (marked_[o] == mark_stamp_ || seen_[o] != stamp_ || usable_now_[o] == 0) continue;
                    if (residual_[j] - c < copies_of(o, j)) {
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
        std::vector<std::size_t> tried;
        bool found = false;
        for (const auto& [key, q] : keyed) {
            take(q, -1);
            chosen_.push_back(q);
            found = monotone_ ? cover(left - 1, begin, end) : cover(left - 1, 0, bins_.size());
            if (found) break;
            chosen_.pop_back();
            take(q, 1);
            if (stopped_) break;
            ++banned_[q];
            tried.push_back(q);
        }
        for (const auto q : tried) --banned_[q];
        return found;
    }

    [[nodiscard]] std::int64_t copies_of(std::size_t q, std::size_t j) const {
        for (const auto& [t, c] : bins_[q]) {
            if (t == j) return c;
        }
        return 0;
    }

    void take(std::size_t q, std::int64_t sign) {
        const std::int64_t* costs = cost_.data() + q * rows_;
        for (std::size_t r = 0; r < rows_; ++r) budget_[r] += sign * costs[r];
        for (const auto& [j, c] : bins_[q]) {
            residual_[j] += sign * c;
            load_ += sign * c * weight_[j];
        }
    }

    std::vector<std::int64_t> weight_, demand_;
    std::int64_t capacity_;
    std::vector<SparsePattern> all_bins_, bins_;
    std::vector<DualVector> duals_;
    BudgetTracker& tracker_;
    BudgetTracker& share_;
    std::size_t rows_ = 0;
    std::vector<std::int64_t> marked_;
    std::int64_t mark_stamp_ = 0;
    std::vector<std::int64_t> gap_, budget_, cost_, waste_;
    std::vector<std::vector<std::size_t>> containing_;
    std::vector<std::size_t> order_;
    std::vector<std::int64_t> residual_;
    std::int64_t load_ = 0, total_load_ = 0;
    std::vector<int> banned_;
    std::vector<std::int64_t> seen_;
    std::vector<char> usable_now_;  // 1 for this node's usable bins (seen_ == stamp_)
    std::int64_t stamp_ = 0;
    std::vector<std::size_t> alive_;         // the usable bins of the nodes on the path, each node's after its parent's
    std::vector<std::size_t> usable_count_;  // per type, the usable bins holding it (zero between nodes)
    bool monotone_ = true;                   // every cost ≥ 0 (else every node tests the root's list)
    std::vector<std::size_t> chosen_;
    std::int64_t cover_nodes_ = 0, checks_ = 0;
    bool stopped_ = false;
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
