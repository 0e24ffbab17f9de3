// Internal: a primal search (1-D; issue 20) for a packing into m bins among the bins of low reduced
// cost. Under integer duals p ≥ 0 with exact knapsack optimum K, every bin of a packing into m bins has
// K − p·a ≤ G = m·K − p·b (reduced_cost_proof.hpp enumerates those bins). This searches an exact cover
// of the demand by m of them, as the proof's cover does (branch on the type with the fewest usable
// bins, within the reduced-cost and waste budgets left), but for a packing rather than a proof: the
// children are tried by reduced cost with a seeded random perturbation, and the search restarts with
// a growing node cap (restarts against the heavy tail of backtracking search, as bin_completion.hpp's;
// Gomes, Selman & Kautz 1998). A run that ends within its cap has seen the whole tree (each multiset
// of bins once): then no packing into m bins exists, as the proof's complete cover would conclude.
// The search is cover_search.hpp's; this file gives it the order of the children and the node caps.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/cover_search.hpp>
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
class BasicLowCostCover : private CoverSearch<BasicLowCostCover<Defer>> {
    using Base = CoverSearch<BasicLowCostCover<Defer>>;
    friend Base;

public:
    using typename Base::Wide;
    enum class Outcome { found, infeasible, unknown };

    /// Item types (`weight`, `demand`), the bin `capacity`, the enumerated bins (sparse patterns) with
    /// their reduced costs, and the budget G they must share. Nodes count on `tracker` and on `share`
    /// (a sub-budget): a node per cover node and per 4,096 bins checked.
    BasicLowCostCover(std::vector<std::int64_t> weight, std::vector<std::int64_t> demand, std::int64_t capacity, std::vector<SparsePattern> bins, std::vector<Wide> reduced,
                 Wide gap, BudgetTracker& tracker, BudgetTracker& share)
        : Base(std::move(weight), std::move(demand), capacity), gap_(gap), tracker_(tracker), share_(share) {
        bins_ = std::move(bins);
        reduced_ = std::move(reduced);
        this->index_bins();
        waste_.resize(bins_.size());
        for (std::size_t q = 0; q < bins_.size(); ++q) {
            std::int64_t load = 0;
            for (const auto& [j, c] : bins_[q]) load += c * weight_[j];
            waste_[q] = capacity_ - load;
            if (reduced_[q] < 0) monotone_ = false;  // (not expected; then every node tests every bin)
        }
        // The branching scans the types by index (the first among ties).
        order_.resize(weight_.size());
        std::iota(order_.begin(), order_.end(), std::size_t{0});
    }

    /// Restarts (seeded) with node caps growing from `first_cap` by 10 % until a cover by `target`
    /// bins is found (found: packing() holds it), a run ends within its cap (infeasible: none exists,
    /// when the bins are all those within the gap) or a tracker runs out (unknown). The first run
    /// orders the bins by reduced cost alone, later ones by reduced cost / (G + 1) plus `noise` ×
    /// uniform(0, 1).
    Outcome run(std::int64_t target, std::int64_t first_cap, double noise, std::uint64_t seed) {
        std::mt19937_64 random(seed);
        double cap = static_cast<double>(first_cap);
        std::int64_t total_load = 0;  // of the whole demand
        for (std::size_t j = 0; j < demand_.size(); ++j) total_load += weight_[j] * demand_[j];
        for (int restart = 0; !tracker_.exhausted() && !share_.exhausted(); ++restart) {
            noise_.resize(bins_.size());
            std::uniform_real_distribution<double> unit(0.0, 1.0);
            for (auto& x : noise_) x = unit(random);
            this->start_search(total_load);
            nodes_left_ = static_cast<std::int64_t>(cap);
            mix_ = restart == 0 ? 0.0 : noise;
            if (this->cover(target, gap_, 0, bins_.size())) return Outcome::found;
            if (!stopped_) return Outcome::infeasible;  // the whole tree was seen (each multiset of bins once)
            cap *= 1.1;
            ++restarts_;
        }
        return Outcome::unknown;
    }

    /// The packing found (copies per type, a pattern per bin).
    [[nodiscard]] std::vector<std::vector<std::int64_t>> packing() const { return this->template chosen_packing<Defer>(); }
    [[nodiscard]] int restarts() const { return restarts_; }

private:
    using Base::alive_, Base::bins_, Base::capacity_, Base::demand_, Base::monotone_, Base::order_, Base::reduced_,
        Base::stopped_, Base::usable_count_, Base::waste_, Base::weight_;
    static constexpr bool has_reduced = true;
    static constexpr bool keeps_banned = false;

    bool count() {
        const bool a = tracker_.count();
        const bool b = share_.count();
        if (--nodes_left_ < 0 || !a || !b) stopped_ = true;
        return !stopped_;
    }

    /// The children: least reduced cost first (perturbed by the restart's noise, up to the gap).
    void order_children(std::size_t branch, std::size_t fewest, std::size_t begin, std::size_t end, std::vector<std::size_t>& out) {
        const double scale = static_cast<double>(gap_) + 1.0;
        std::vector<std::pair<double, std::size_t>> keyed;
        keyed.reserve(fewest);
        for (std::size_t k = begin; k < end; ++k) {
            const auto q = alive_[k];
            if (!this->holds(q, branch)) continue;
            keyed.emplace_back(static_cast<double>(reduced_[q]) / scale + mix_ * noise_[q], q);
        }
        std::sort(keyed.begin(), keyed.end());
        for (const auto& [key, q] : keyed) out.push_back(q);
    }

    Wide gap_;
    BudgetTracker& tracker_;
    BudgetTracker& share_;
    std::vector<double> noise_;
    double mix_ = 0;
    std::int64_t nodes_left_ = 0;
    int restarts_ = 0;
};
using LowCostCover = BasicLowCostCover<>;

}  // namespace continuum::packing::detail
