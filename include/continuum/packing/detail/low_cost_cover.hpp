// Internal: a primal search (1-D; issue 20) for a packing into m bins among the bins of low reduced
// cost. Under integer duals p ≥ 0 with exact knapsack optimum K, every bin of a packing into m bins has
// K − p·a ≤ G = m·K − p·b (reduced_cost_proof.hpp enumerates those bins). This searches an exact cover
// of the demand by m of them, as the proof's cover does (branch on the type with the fewest usable
// bins, within the reduced-cost and waste budgets left), but for a packing rather than a proof: the
// children are tried by reduced cost with a seeded random perturbation, and the search restarts with
// a growing node cap (restarts against the heavy tail of backtracking search, as bin_completion.hpp's;
// Gomes, Selman & Kautz 1998). A run that ends within its cap has seen the whole tree (each multiset
// of bins once): then no packing into m bins exists, as the proof's complete cover would conclude.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/sparse_pattern.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicLowCostCover {
public:
    __extension__ using Wide = __int128;
    enum class Outcome { found, infeasible, unknown };

    /// Item types (`weight`, `demand`), the bin `capacity`, the enumerated bins (sparse patterns) with
    /// their reduced costs, and the budget G they must share. Nodes count on `tracker` and on `share`
    /// (a sub-budget): a node per cover node and per 4,096 bins checked.
    BasicLowCostCover(std::vector<std::int64_t> weight, std::vector<std::int64_t> demand, std::int64_t capacity, std::vector<SparsePattern> bins, std::vector<Wide> reduced,
                 Wide gap, BudgetTracker& tracker, BudgetTracker& share)
        : weight_(std::move(weight)), demand_(std::move(demand)), capacity_(capacity), bins_(std::move(bins)), reduced_(std::move(reduced)), gap_(gap), tracker_(tracker), share_(share) {
        containing_.assign(weight_.size(), {});
        for (std::size_t q = 0; q < bins_.size(); ++q) {
            for (const auto& [j, c] : bins_[q]) containing_[j].push_back(q);
            if (reduced_[q] < 0) monotone_ = false;  // (not expected; then every node tests every bin)
        }
    }

    /// Restarts (seeded) with node caps growing from `first_cap` by 10 % until a cover by `target`
    /// bins is found (found: packing() holds it), a run ends within its cap (infeasible: none exists,
    /// when the bins are all those within the gap) or a tracker runs out (unknown). The first run
    /// orders the bins by reduced cost alone, later ones by reduced cost / (G + 1) plus `noise` ×
    /// uniform(0, 1).
    Outcome run(std::int64_t target, std::int64_t first_cap, double noise, std::uint64_t seed) {
        std::mt19937_64 random(seed);
        double cap = static_cast<double>(first_cap);
        for (int restart = 0; !tracker_.exhausted() && !share_.exhausted(); ++restart) {
            noise_.resize(bins_.size());
            std::uniform_real_distribution<double> unit(0.0, 1.0);
            for (auto& x : noise_) x = unit(random);
            residual_ = demand_;
            load_ = 0;
            for (std::size_t j = 0; j < demand_.size(); ++j) load_ += weight_[j] * demand_[j];
            banned_.assign(bins_.size(), 0);
            usable_count_.assign(weight_.size(), 0);
            alive_.resize(bins_.size());
            std::iota(alive_.begin(), alive_.end(), std::size_t{0});
            chosen_.clear();
            nodes_left_ = static_cast<std::int64_t>(cap);
            mix_ = restart == 0 ? 0.0 : noise;
            stopped_ = false;
            if (cover(target, gap_, 0, bins_.size())) return Outcome::found;
            if (!stopped_) return Outcome::infeasible;  // the whole tree was seen (each multiset of bins once)
            cap *= 1.1;
            ++restarts_;
        }
        return Outcome::unknown;
    }

    /// The packing found (copies per type, a pattern per bin).
    [[nodiscard]] std::vector<std::vector<std::int64_t>> packing() const {
        std::vector<std::vector<std::int64_t>> out;
        for (const auto q : chosen_) out.push_back(dense_pattern<Defer>(bins_[q], demand_.size()));
        return out;
    }
    [[nodiscard]] int restarts() const { return restarts_; }

private:
    bool count() {
        const bool a = tracker_.count();
        const bool b = share_.count();
        if (--nodes_left_ < 0 || !a || !b) stopped_ = true;
        return !stopped_;
    }

    [[nodiscard]] bool usable(std::size_t q, Wide budget, std::int64_t waste) const {
        if (banned_[q] || reduced_[q] > budget) return false;
        std::int64_t load = 0;
        for (const auto& [j, c] : bins_[q]) {
            if (c > residual_[j]) return false;
            load += c * weight_[j];
        }
        return capacity_ - load <= waste;
    }

    /// A cover by `left` bins among alive_[from, to), the bins usable at the parent (a bin unusable at a
    /// node is unusable below it: the residual demand, the waste and the reduced-cost budget only
    /// shrink down the tree, by costs ≥ 0, and bans only grow).
    bool cover(std::int64_t left, Wide budget, std::size_t from, std::size_t to) {
        if (load_ == 0) return true;
        if (!count()) return false;
        const std::int64_t waste = left * capacity_ - load_;
        if (left <= 0 || waste < 0) return false;
        // This node's usable bins, appended to alive_ (ascending, as containing_'s lists), and per type
        // the number of them holding it.
        const std::size_t begin = alive_.size();
        for (std::size_t k = from; k < to; ++k) {
            const auto q = alive_[k];
            if (!usable(q, budget, waste)) continue;
            alive_.push_back(q);
            for (const auto& [j, c] : bins_[q]) ++usable_count_[j];
        }
        const bool found = expand(left, budget, begin, alive_.size());
        alive_.resize(begin);
        return found;
    }

    /// cover()'s branching over this node's usable bins alive_[begin, end).
    bool expand(std::int64_t left, Wide budget, std::size_t begin, std::size_t end) {
        // The type with the fewest usable bins (fail first), the first by index among ties; none left
        // ends the node. The checks are counted as when each type's whole list was tested, at the same
        // points.
        std::size_t branch = weight_.size(), fewest = 0;
        bool go_on = true;
        for (std::size_t j = 0; j < weight_.size(); ++j) {
            if (residual_[j] == 0) continue;
            const std::size_t usable_bins = usable_count_[j];
            checks_ += static_cast<std::int64_t>(containing_[j].size());
            if (checks_ >= 4096) {
                checks_ -= 4096;
                if (!count()) {
                    go_on = false;
                    break;
                }
            }
            if (branch == weight_.size() || usable_bins < fewest) {
                branch = j;
                fewest = usable_bins;
                if (fewest == 0) {
                    go_on = false;
                    break;
                }
            }
        }
        for (std::size_t k = begin; k < end; ++k) {
            for (const auto& [j, c] : bins_[alive_[k]]) --usable_count_[j];
        }
        if (!go_on) return false;
        std::vector<std::size_t> best;
        best.reserve(fewest);
        for (std::size_t k = begin; k < end; ++k) {
            const auto q = alive_[k];
            for (const auto& [j, c] : bins_[q]) {
                if (j == branch) {
                    best.push_back(q);
                    break;
                }
            }
        }
        // Least reduced cost first (perturbed by the restart's noise, up to the gap).
        const double scale = static_cast<double>(gap_) + 1.0;
        std::vector<std::pair<double, std::size_t>> keyed;
        for (const auto q : best) keyed.emplace_back(static_cast<double>(reduced_[q]) / scale + mix_ * noise_[q], q);
        std::sort(keyed.begin(), keyed.end());
        std::vector<std::size_t> tried;
        bool found = false;
        for (const auto& [key, q] : keyed) {
            take(q, -1);
            chosen_.push_back(q);
            found = monotone_ ? cover(left - 1, budget - reduced_[q], begin, end) : cover(left - 1, budget - reduced_[q], 0, bins_.size());
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

    void take(std::size_t q, std::int64_t sign) {
        for (const auto& [j, c] : bins_[q]) {
            residual_[j] += sign * c;
            load_ += sign * c * weight_[j];
        }
    }

    std::vector<std::int64_t> weight_, demand_;
    std::int64_t capacity_;
    std::vector<SparsePattern> bins_;
    std::vector<Wide> reduced_;
    Wide gap_;
    BudgetTracker& tracker_;
    BudgetTracker& share_;
    std::vector<std::vector<std::size_t>> containing_;
    std::vector<double> noise_;
    double mix_ = 0;
    std::vector<std::int64_t> residual_;
    std::int64_t load_ = 0;
    std::vector<int> banned_;
    std::vector<std::size_t> alive_;         // the usable bins of the nodes on the path, each node's after its parent's
    std::vector<std::size_t> usable_count_;  // per type, the usable bins holding it (zero between nodes)
    bool monotone_ = true;                   // every reduced cost ≥ 0 (else every node tests every bin)
    std::vector<std::size_t> chosen_;
    std::int64_t nodes_left_ = 0, checks_ = 0;
    bool stopped_ = false;
    int restarts_ = 0;
};
using LowCostCover = BasicLowCostCover<>;

}  // namespace continuum::packing::detail
