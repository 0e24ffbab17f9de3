// The fairness rule for namespaces sharing one cluster (issue 5, extending seed 001 to many
// namespaces): when the quotas the namespaces ask for exceed what the cluster plus its waiting
// nodes can back, capacity goes to higher priority first and, within one priority, in proportion
// to demand. Exact integers: the shares always add up to the capacity, never more.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::quota {

/// Splits `capacity` units among `demands`: priority classes are served from the highest
/// priority down; a class whose total demand fits in what is left gets it all; the first class
/// that does not fit shares what is left in proportion to its members' demands (floors of the exact
/// shares, the leftover units to the largest remainders, ties to the lower index); lower classes
/// get nothing. Sum of the result == min(capacity, sum of demands); each share <= its demand.
/// O(n log n).
/// \throws InvalidArgument when capacity or a demand is negative, or the spans differ in size.
template <typename Defer = void>
[[nodiscard]] std::vector<std::int64_t> share_by_priority(std::int64_t capacity, std::span<const std::int64_t> demands,
                                                          std::span<const int> priorities) {
    if (capacity < 0) throw InvalidArgument(continuum::detail::message("share_by_priority: capacity must be >= 0, got {}", capacity));
    if (demands.size() != priorities.size()) {
        throw InvalidArgument(continuum::detail::message("share_by_priority: {} demands but {} priorities", demands.size(), priorities.size()));
    }
    for (std::size_t i = 0; i < demands.size(); ++i) {
        if (demands[i] < 0) throw InvalidArgument(continuum::detail::message("share_by_priority: demands[{}] must be >= 0, got {}", i, demands[i]));
    }
    std::vector<std::int64_t> share(demands.size(), 0);
    std::vector<std::size_t> order(demands.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return priorities[a] > priorities[b]; });
    std::int64_t left = capacity;
    for (std::size_t begin = 0; begin < order.size() && left > 0;) {
        std::size_t end = begin;
        __extension__ using Wide = __int128;
        Wide total = 0;
        while (end < order.size() && priorities[order[end]] == priorities[order[begin]]) total += demands[order[end++]];
        if (total <= left) {
            for (std::size_t k = begin; k < end; ++k) share[order[k]] = demands[order[k]];
            left -= static_cast<std::int64_t>(total);
        } else {
            // Proportional split of `left` (< total) with largest remainders.
            std::vector<std::pair<Wide, std::size_t>> remainders;
            remainders.reserve(end - begin);
            std::int64_t given = 0;
            for (std::size_t k = begin; k < end; ++k) {
                const std::size_t i = order[k];
                const Wide exact = static_cast<Wide>(left) * demands[i];
                share[i] = static_cast<std::int64_t>(exact / total);
                given += share[i];
                remainders.emplace_back(exact % total, i);
            }
            std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) {
                return a.first != b.first ? a.first > b.first : a.second < b.second;
            });
            for (std::size_t k = 0; given < left; ++k, ++given) ++share[remainders[k].second];
            left = 0;
        }
        begin = end;
    }
    return share;
}

namespace detail {

/// fair_quotas for one resource, on columns (wanted[i], floor[i], priorities[i] of claim i, all
/// amounts >= 0, capacity >= 0): when the total wanted exceeds `capacity`, writes each claim's
/// grant to `granted` and returns true; otherwise returns false and leaves `granted` alone.
/// `floors` is overwritten (scratch).
template <typename Defer = void>
bool fair_split(std::int64_t capacity, std::span<const std::int64_t> wanted, std::span<std::int64_t> floors, std::span<const int> priorities,
                std::span<std::int64_t> granted) {
    __extension__ __int128 total = 0;
    for (std::int64_t w : wanted) total += w;
    if (total <= capacity) return false;
    for (std::size_t i = 0; i < wanted.size(); ++i) floors[i] = std::min(wanted[i], floors[i]);
    const auto first = share_by_priority<Defer>(capacity, floors, priorities);
    std::int64_t left = capacity;
    for (std::size_t i = 0; i < wanted.size(); ++i) {
        left -= first[i];
        floors[i] = wanted[i] - floors[i];  // now the demand beyond the floor
    }
    const auto second = share_by_priority<Defer>(left, floors, priorities);
    for (std::size_t i = 0; i < wanted.size(); ++i) granted[i] = first[i] + second[i];
    return true;
}

}  // namespace detail

/// A namespace's request to the fairness rule.
struct QuotaClaim {
    Resources wanted;  ///< the quota it asks for
    Resources floor;   ///< served first, before any `wanted` beyond it (e.g. its current usage); <= wanted
    int priority = 0;  ///< larger is more important (as Kubernetes PriorityClass values)
};

/// Grants quotas under `capacity` for the resources named in `constrained`. Per resource whose
/// total wanted exceeds its capacity, two rounds of share_by_priority: first the floors
/// (min(floor, wanted)), then what is left among the demands beyond the floors. So capacity goes
/// by priority, then in proportion to demand; a namespace keeps its floor unless the floors
/// alone exceed the capacity. Resources not in `constrained`, and constrained ones that fit, are
/// granted as wanted.
/// \throws InvalidArgument for negative amounts (naming the claim and resource).
template <typename Defer = void>
[[nodiscard]] std::vector<Resources> fair_quotas(const Resources& capacity, std::span<const std::string> constrained,
                                                 std::span<const QuotaClaim> claims) {
    std::vector<Resources> granted;
    granted.reserve(claims.size());
    for (std::size_t i = 0; i < claims.size(); ++i) {
        if (claims[i].wanted.any_negative() || claims[i].floor.any_negative()) {
            throw InvalidArgument(continuum::detail::message("fair_quotas: claim [{}] has a negative amount (wanted {}, floor {})", i, claims[i].wanted, claims[i].floor));
        }
        granted.push_back(claims[i].wanted);
    }
    std::vector<int> priorities(claims.size());
    for (std::size_t i = 0; i < claims.size(); ++i) priorities[i] = claims[i].priority;
    std::vector<std::int64_t> wanted(claims.size());
    std::vector<std::int64_t> floors(claims.size());
    std::vector<std::int64_t> shares(claims.size());
    for (const auto& name : constrained) {
        const std::int64_t cap = capacity.get(name);
        if (cap < 0) throw InvalidArgument(continuum::detail::message("fair_quotas: capacity of \"{}\" must be >= 0, got {}", name, format_resource(name, cap)));
        for (std::size_t i = 0; i < claims.size(); ++i) {
            wanted[i] = claims[i].wanted.get(name);
            floors[i] = claims[i].floor.get(name);
        }
        if (!detail::fair_split<Defer>(cap, wanted, floors, priorities, shares)) continue;
        for (std::size_t i = 0; i < claims.size(); ++i) granted[i].set(name, shares[i]);
    }
    return granted;
}

}  // namespace continuum::quota
