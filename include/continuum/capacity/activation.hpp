// Which waiting worker nodes to resume so that a shortfall is covered: the paper's
// ActivateWaitingNodes(PendingNodes, WaitingWorkerNodes) (seed 001, Algorithm 1 line 10 and
// Algorithm 2 line 14), generalised from identical nodes to a heterogeneous pool, choosing the
// fewest, the cheapest or the fastest set. Exact (branch and bound) for small pools, a documented
// greedy beyond; a pool that cannot cover the shortfall is reported with what is still missing.
#pragma once

#include <continuum/core/detail/counted.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/capacity/detail/activation_search.hpp>
#include <continuum/capacity/shortfall.hpp>
#include <continuum/capacity/waiting_pool.hpp>
#include <continuum/core/budget.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::capacity {

/// What "best" means when choosing waiting nodes. Each objective breaks ties with the others.
enum class ActivationObjective {
    fewest_nodes,  ///< fewest nodes; ties: cheapest, then fastest
    cheapest,      ///< smallest total cost; ties: fewest, then fastest
    fastest,       ///< smallest resume latency (nodes resume in parallel: the slowest one counts); ties: fewest, then cheapest
};

/// The name of an objective as written in code ("fewest_nodes", "cheapest", "fastest").
inline std::string_view to_string(ActivationObjective objective) {
    switch (objective) {
        case ActivationObjective::fewest_nodes: return "fewest_nodes";
        case ActivationObjective::cheapest: return "cheapest";
        case ActivationObjective::fastest: return "fastest";
    }
    return "unknown";
}

/// Pools with at most this many *distinct* kinds of node (same capacity over the shortfall's
/// resources, cost and latency) are searched exactly (within the budget); larger ones use the greedy.
inline constexpr std::size_t exact_activation_kinds = 48;

/// Default work limit of choose_nodes_to_activate: 200,000 search nodes (well under 100 ms).
inline constexpr std::int64_t default_activation_node_limit = 200'000;

/// The nodes to resume, and what they bring.
struct ActivationPlan {
    std::vector<std::size_t> nodes;   ///< indices into the pool, ascending
    std::vector<std::string> names;   ///< the same nodes' names, same order
    Resources activated_capacity;     ///< sum of the chosen nodes' full capacities
    Resources still_missing;          ///< part of the shortfall the plan does not cover (empty when it covers)
    double cost = 0.0;                ///< sum of the chosen nodes' costs
    Duration resume_latency{0};       ///< max resume latency over the chosen nodes (they resume in parallel)
    bool optimal = false;             ///< proven best for the objective (always true for an empty shortfall)
    std::string reason;               ///< one readable line

    /// True when the plan covers the whole shortfall.
    [[nodiscard]] bool covers() const { return still_missing.empty(); }
    /// Number of nodes to resume.
    [[nodiscard]] std::size_t count() const { return nodes.size(); }
};

namespace detail {
/// What is left when a whole waiting pool cannot cover a shortfall, as the end of a sentence:
/// "resuming all 3 waiting nodes still leaves {cpu: 6} missing", or "there is no waiting node to resume".
inline std::string uncovered_by_pool(std::size_t pool_size, const Resources& still_missing) {
    if (pool_size == 0) return "there is no waiting node to resume";
    return continuum::detail::message("resuming {} waiting node{} still leaves {} missing", pool_size == 1 ? "the only" : continuum::detail::message("all {}", pool_size),
                                      pool_size == 1 ? "" : "s", still_missing);
}
}  // namespace detail

/// Chooses which waiting nodes to resume so that their total capacity covers `shortfall` in every
/// resource, best for `objective`.
///
/// Only the resources in the shortfall matter; a node's capacity counts up to the shortfall.
/// Identical nodes are merged into kinds. When the pool has at most exact_activation_kinds kinds,
/// a depth-first branch and bound over counts per kind finds the optimum (optimal = true) unless
/// `budget` runs out first; otherwise, and as its first incumbent, a greedy cover is used (take
/// the node covering the largest fraction of what is still missing, per unit cost under
/// `cheapest`; then drop nodes made redundant), with optimal = true only when it meets a lower bound.
/// For `fastest`, the smallest latency threshold whose nodes can cover the shortfall is found
/// first (exact), then the fewest/cheapest cover among those nodes.
///
/// When even the whole pool cannot cover the shortfall, the plan lists every node that
/// contributes to it, still_missing says how much is left uncovered, and covers() is false.
/// Complexity: O(n log n + n * kinds) to build, then the search (bounded by `budget`).
/// \throws InvalidArgument for a negative shortfall, an invalid pool (see validate_pool) or an
///         invalid budget.
template <typename Defer = void>
[[nodiscard]] ActivationPlan choose_nodes_to_activate(const Resources& shortfall, std::span<const WaitingNode> pool,
                                                      ActivationObjective objective = ActivationObjective::fewest_nodes,
                                                      const Budget& budget = Budget{default_activation_node_limit, {}}) {
    detail::require_non_negative(shortfall, "choose_nodes_to_activate: shortfall");
    validate_pool<Defer>(pool);
    budget.validate();
    continuum::detail::deferred_t<ActivationPlan, Defer> plan;
    if (shortfall.empty()) {
        plan.optimal = true;
        plan.reason = "nothing to activate: the shortfall is empty";
        return plan;
    }

    continuum::detail::deferred_t<detail::ActivationProblem, Defer> problem;
    problem.dims = shortfall.size();
    for (const auto& [name, value] : shortfall) problem.need.push_back(value);
    using detail::Criterion;
    const auto set_order = [&](Criterion first, Criterion second, Criterion third) {
        problem.order[0] = first;
        problem.order[1] = second;
        problem.order[2] = third;
    };
    switch (objective) {
        case ActivationObjective::fewest_nodes: set_order(Criterion::count, Criterion::cost, Criterion::latency); break;
        case ActivationObjective::cheapest: set_order(Criterion::cost, Criterion::count, Criterion::latency); break;
        case ActivationObjective::fastest: set_order(Criterion::latency, Criterion::count, Criterion::cost); break;
    }
    // Candidates: nodes bringing something the shortfall needs, capacity capped at the shortfall.
    Resources contributing_total;
    continuum::detail::deferred_t<std::vector<std::size_t>, Defer> contributing;
    for (std::size_t i = 0; i < pool.size(); ++i) {
        bool useful = false;
        for (const auto& [name, need] : shortfall) {
            const std::int64_t c = std::min(pool[i].capacity.get(name), need);
            useful = useful || c > 0;
            problem.capacity.push_back(c);
        }
        if (!useful) {
            problem.capacity.resize(problem.capacity.size() - problem.dims);
            continue;
        }
        contributing.push_back(i);
        contributing_total += pool[i].capacity;
        problem.node.push_back(i);
        problem.cost.push_back(pool[i].cost);
        problem.latency.push_back(pool[i].resume_latency.count());
    }

    const auto fill = [&](auto pool_indices) {  // generic: compiled with the function (issue 21)
        std::sort(pool_indices.begin(), pool_indices.end());
        plan.nodes = std::move(pool_indices);
        std::int64_t latency = 0;
        for (std::size_t i : plan.nodes) {
            plan.names.push_back(pool[i].name);
            plan.activated_capacity += pool[i].capacity;
            plan.cost += pool[i].cost;
            latency = std::max<std::int64_t>(latency, pool[i].resume_latency.count());
        }
        plan.resume_latency = Duration(latency);
        plan.still_missing = capacity::shortfall(shortfall, plan.activated_capacity);
    };

    if (!shortfall.fits_in(contributing_total)) {
        fill(contributing);
        plan.reason = continuum::detail::message("the whole waiting pool cannot cover the shortfall {}: activating all {} still leaves {} missing",
                                                 shortfall, continuum::detail::counted(std::ssize(plan.nodes), "contributing node"), plan.still_missing);
        return plan;
    }

    if (objective == ActivationObjective::fastest) {
        // Smallest latency threshold L whose nodes cover the shortfall: every cover has max latency >= L.
        continuum::detail::deferred_t<std::vector<std::int64_t>, Defer> thresholds = problem.latency;
        std::sort(thresholds.begin(), thresholds.end());
        thresholds.erase(std::unique(thresholds.begin(), thresholds.end()), thresholds.end());
        for (std::int64_t threshold : thresholds) {
            continuum::detail::deferred_t<std::vector<std::int64_t>, Defer> total(problem.dims, 0);
            for (std::size_t i = 0; i < problem.size(); ++i) {
                if (problem.latency[i] > threshold) continue;
                for (std::size_t r = 0; r < problem.dims; ++r) total[r] = detail::saturating_add(total[r], problem.cap(i)[r]);
            }
            bool covers = true;
            for (std::size_t r = 0; r < problem.dims; ++r) covers = covers && total[r] >= problem.need[r];
            if (!covers) continue;
            continuum::detail::deferred_t<detail::ActivationProblem, Defer> restricted;
            restricted.dims = problem.dims;
            restricted.need = problem.need;
            std::copy(std::begin(problem.order), std::end(problem.order), std::begin(restricted.order));
            for (std::size_t i = 0; i < problem.size(); ++i) {
                if (problem.latency[i] > threshold) continue;
                restricted.node.push_back(problem.node[i]);
                restricted.capacity.insert(restricted.capacity.end(), problem.cap(i), problem.cap(i) + problem.dims);
                restricted.cost.push_back(problem.cost[i]);
                restricted.latency.push_back(problem.latency[i]);
            }
            problem = std::move(restricted);
            break;
        }
    }

    // Greedy incumbent (also the answer beyond the exact limit).
    const continuum::detail::deferred_t<std::vector<std::size_t>, Defer> greedy = detail::greedy_cover<Defer>(problem);
    continuum::detail::deferred_t<std::vector<std::size_t>, Defer> best_set = greedy;
    const auto score_of = [&](const std::vector<std::size_t>& set) {
        double cost = 0.0;
        std::int64_t latency = 0;
        for (std::size_t i : set) {
            cost += problem.cost[i];
            latency = std::max(latency, problem.latency[i]);
        }
        return problem.score(static_cast<double>(set.size()), cost, static_cast<double>(latency));
    };
    detail::ActivationScore best = score_of(greedy);
    BudgetTracker tracker(budget);
    detail::ActivationSearch<Defer> search(problem, tracker);
    bool optimal = !(search.root_bound() < best);
    std::string method = "greedy";
    if (!optimal) {
        // Count kinds cheaply: the search merged them; recount here for the exact/greedy choice.
        std::size_t kinds = 0;
        for (std::size_t i = 0; i < problem.size() && kinds <= exact_activation_kinds; ++i) {
            bool seen = false;
            for (std::size_t j = 0; j < i && !seen; ++j) {
                seen = problem.cost[i] == problem.cost[j] && problem.latency[i] == problem.latency[j] &&
                       std::equal(problem.cap(i), problem.cap(i) + problem.dims, problem.cap(j));
            }
            if (!seen) ++kinds;
        }
        if (kinds <= exact_activation_kinds) {
            optimal = search.run(best, best_set);
            method = optimal ? "exact" : "branch and bound, budget exhausted";
        } else {
            method = continuum::detail::message("greedy ({} node kinds > {} searched exactly)", kinds, exact_activation_kinds);
        }
    }
    continuum::detail::deferred_t<std::vector<std::size_t>, Defer> chosen;
    chosen.reserve(best_set.size());
    for (std::size_t position : best_set) chosen.push_back(problem.node[position]);
    fill(std::move(chosen));
    plan.optimal = optimal;
    plan.reason = continuum::detail::message("activate {} [{}] ({}, {}{}) bringing {} for a shortfall of {}; cost {}, resume latency {} s",
                                             continuum::detail::counted(std::ssize(plan.nodes), "waiting node"), fmt::join(plan.names, ", "), to_string(objective), method,
                                             optimal ? ", optimal" : "", plan.activated_capacity, shortfall, plan.cost, to_seconds(plan.resume_latency));
    return plan;
}

}  // namespace continuum::capacity
