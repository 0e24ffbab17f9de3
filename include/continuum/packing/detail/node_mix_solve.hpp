// Internal: cheapest_node_mix's driver. Heuristics first (typed first fit over type orders, the
// cost-efficiency greedy, downsizing) and their bound; then, within the budget, the class search
// (items with multiplicities: node_mix_classes.hpp) whenever its patterns are few: the LP bound, the
// bound from integer node counts per type (node_mix_type_counts.hpp), a packing with those counts,
// then the search over patterns; else the search over single items for small instances. The
// answer is always the best packing found and a valid bound.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/node_mix.hpp>
#include <continuum/packing/detail/node_mix_classes.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace continuum::packing::detail {

/// The search for a packing with the node counts of the type-count bound visits at most this many nodes.
inline constexpr std::uint64_t node_mix_counted_visits = 20'000;
/// ... after a search over every pattern of at most this many nodes.
inline constexpr std::uint64_t node_mix_first_visits = 1'000;

/// Improves `best` (heuristic packing of every placeable item, with its bound) by exact search
/// within what `tracker` allows: raises its lower bound, lowers its cost, proves it optimal when
/// the search ends.
template <typename Defer = void>
void exact_node_mix(const continuum::detail::deferred_t<NodeMixProblem, Defer>& p, BudgetTracker& tracker, continuum::detail::deferred_t<MixSolution, Defer>& best) {
    NodeMixClassSearch<Defer> classes(p, tracker);
    if (classes.build()) {
        // Costs are multiples of the unit (or not): a bound within half a unit (a relative 1e-9)
        // of the cost is the cost, whatever the order of the floating-point sums.
        const auto raise = [&](double bound) {
            best.lower_bound = std::min(best.cost, std::max(best.lower_bound, bound));
            const double slack = classes.unit() > 0 ? classes.unit() / 2 : 1e-9 * best.cost;
            if (best.cost - best.lower_bound < slack) best.lower_bound = best.cost;
            return best.lower_bound >= best.cost;
        };
        if (raise(classes.root_bound())) return;
        if (raise(classes.type_count_bound(best.cost))) return;
        const auto take = [&] {
            if (!classes.found()) return;
            auto bins = classes.best_bins();
            downsize<Defer>(p, bins);
            if (const double cost = solution_cost<Defer>(p, bins); cost < best.cost) {
                best.bins = std::move(bins);
                best.cost = cost;
            }
        };
        if (!classes.type_counts().empty()) {  // a packing with exactly these counts meets the bound
            // A short search from the LP's rounding first: it often finds one at once (types of
            // proportional costs, whose many equal-cost counts the rounding below may miss).
            classes.run(best.cost, {}, node_mix_first_visits);
            take();
            if (raise(best.lower_bound)) return;
            classes.pack_counts(classes.type_counts(), best.cost, node_mix_counted_visits);
            take();
            if (raise(best.lower_bound)) return;
        }
        const bool complete = classes.run(best.cost);
        take();
        if (complete) best.lower_bound = best.cost;
        raise(best.lower_bound);
        return;
    }
    if (p.placeable.size() > node_mix_exact_items || p.existing() > node_mix_exact_existing || tracker.exhausted()) return;
    NodeMixSearch<Defer> search(p, tracker, best.bins, best.cost);
    const bool complete = search.run();
    best.bins = search.best();
    best.cost = search.best_cost();
    if (complete) best.lower_bound = best.cost;
    best.lower_bound = std::min(best.lower_bound, best.cost);
}

template <typename Defer = void>
MixSolution solve_node_mix(const continuum::detail::deferred_t<NodeMixProblem, Defer>& p, const Budget& budget) {
    BudgetTracker tracker(budget);  // the deadline counts from the start of the call
    continuum::detail::deferred_t<MixSolution, Defer> best;
    best.unplaceable = p.unplaceable;
    if (p.placeable.empty()) {
        best.optimal = true;
        return best;
    }
    // Candidates: each type first (then by efficiency), pure efficiency order, and the greedy.
    continuum::detail::deferred_t<std::vector<std::vector<MixBin>>, Defer> candidates;
    continuum::detail::deferred_t<std::vector<std::vector<std::size_t>>, Defer> left_outs;
    const auto efficiency = types_by_efficiency<Defer>(p);
    {
        continuum::detail::deferred_t<std::vector<std::size_t>, Defer> left;
        candidates.push_back(typed_first_fit<Defer>(p, efficiency, left));
        left_outs.push_back(std::move(left));
    }
    for (const auto t : efficiency) {
        continuum::detail::deferred_t<std::vector<std::size_t>, Defer> order{t};
        for (const auto u : efficiency) {
            if (u != t) order.push_back(u);
        }
        continuum::detail::deferred_t<std::vector<std::size_t>, Defer> left;
        candidates.push_back(typed_first_fit<Defer>(p, order, left));
        left_outs.push_back(std::move(left));
    }
    if (p.placeable.size() <= node_mix_greedy_items) {
        continuum::detail::deferred_t<std::vector<std::size_t>, Defer> left;
        candidates.push_back(efficiency_greedy<Defer>(p, left));
        left_outs.push_back(std::move(left));
    }
    std::size_t chosen = 0;
    double chosen_cost = 0;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
        downsize<Defer>(p, candidates[c]);
        const double cost = solution_cost<Defer>(p, candidates[c]);
        const bool better = c == 0 || left_outs[c].size() < left_outs[chosen].size() ||
                            (left_outs[c].size() == left_outs[chosen].size() &&
                             (cost < chosen_cost || (cost == chosen_cost && candidates[c].size() < candidates[chosen].size())));
        if (better) {
            chosen = c;
            chosen_cost = cost;
        }
    }
    best.bins = std::move(candidates[chosen]);
    best.cost = chosen_cost;
    for (const auto i : left_outs[chosen]) {
        best.unplaceable.emplace_back(i, p.existing() > 0 ? "no existing node has room left for it and every node type that can hold it has reached its max_count"
                                                          : "every node type that can hold it has reached its max_count");
    }
    std::sort(best.unplaceable.begin(), best.unplaceable.end());
    // Lower bound over the items actually placed; existing nodes' residuals are free capacity.
    const std::size_t d = p.items.d;
    continuum::detail::deferred_t<std::vector<WideAmount>, Defer> demand(d, 0), free_capacity(d, 0), must_be_new(d, 0), nothing(d, 0);
    for (std::size_t t = p.new_types; t < p.types(); ++t) {
        if (std::any_of(p.capacity[t].begin(), p.capacity[t].end(), [](std::int64_t r) { return r < 0; })) continue;
        for (std::size_t k = 0; k < d; ++k) free_capacity[k] += p.capacity[t][k];
    }
    double single = 0;
    for (const auto& bin : best.bins) {
        for (const auto i : bin.items) {
            const auto* row = p.items.row(i);
            for (std::size_t k = 0; k < d; ++k) demand[k] += row[k];
            bool fits_existing = false;
            for (std::size_t t = p.new_types; t < p.types() && !fits_existing; ++t) fits_existing = fits(row, p.capacity[t].data(), d);
            if (fits_existing) continue;
            for (std::size_t k = 0; k < d; ++k) must_be_new[k] += row[k];  // fits no existing node: goes on a new one
            double cheapest = std::numeric_limits<double>::infinity();
            for (std::size_t t = 0; t < p.new_types; ++t) {
                if (p.max_count[t] != 0 && fits(row, p.capacity[t].data(), d)) cheapest = std::min(cheapest, p.cost[t]);
            }
            if (std::isfinite(cheapest)) single = std::max(single, cheapest);
        }
    }
    best.lower_bound = std::min(best.cost, std::max(single, std::max(fractional_cost_bound<Defer>(p, demand, free_capacity), fractional_cost_bound<Defer>(p, must_be_new, nothing))));
    if (left_outs[chosen].empty() && best.lower_bound < best.cost) exact_node_mix<Defer>(p, tracker, best);
    best.optimal = best.lower_bound >= best.cost;
    return best;
}
}  // namespace continuum::packing::detail
