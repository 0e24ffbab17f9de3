// Splitting a namespace's overall quota across member clusters, for Karmada's
// FederatedResourceQuota `spec.staticAssignments[].hard` (seed 001 drives FRQ; Karmada gives a
// cluster that is not listed no limit at all, so every bounded cluster must get an explicit share).
// Per resource, in proportion to each cluster's capacity, exact integers that add up to the overall.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::quota {

/// One member cluster and its weight per resource (usually its allocatable capacity).
struct MemberCluster {
    std::string name;
    Resources capacity;
};

/// One cluster's share of the overall quota (Karmada StaticClusterAssignment {clusterName, hard}).
struct ClusterAssignment {
    std::string cluster_name;
    Resources hard;
};

/// Splits `overall` across `clusters` in proportion to their capacity, resource by resource
/// (floors of the exact shares, the leftover units to the largest remainders, ties to the earlier
/// cluster), so the shares of every resource add up exactly to the overall amount. The Karmada docs'
/// example: overall cpu 100 over capacities 2 : 5 : 3 gives 20 / 50 / 30.
/// \throws InvalidArgument for no clusters, an empty or duplicate name, negative amounts;
///         Infeasible naming the resource when overall has some of it and no cluster has any.
template <typename Defer = void>
[[nodiscard]] std::vector<ClusterAssignment> split_across_clusters(const Resources& overall, std::span<const MemberCluster> clusters) {
    if (clusters.empty()) throw InvalidArgument("split_across_clusters: no member clusters");
    if (overall.any_negative()) throw InvalidArgument(continuum::detail::message("split_across_clusters: overall {} has a negative amount", overall));
    continuum::detail::deferred_t<std::vector<ClusterAssignment>, Defer> out;
    out.reserve(clusters.size());
    for (std::size_t i = 0; i < clusters.size(); ++i) {
        if (clusters[i].name.empty()) throw InvalidArgument(continuum::detail::message("split_across_clusters: cluster [{}] has an empty name", i));
        for (std::size_t j = 0; j < i; ++j) {
            if (clusters[j].name == clusters[i].name) {
                throw InvalidArgument(continuum::detail::message("split_across_clusters: cluster \"{}\" appears twice", clusters[i].name));
            }
        }
        if (clusters[i].capacity.any_negative()) {
            throw InvalidArgument(continuum::detail::message("split_across_clusters: cluster \"{}\" capacity {} has a negative amount", clusters[i].name, clusters[i].capacity));
        }
        out.push_back(ClusterAssignment{clusters[i].name, {}});
    }
    continuum::detail::deferred_t<std::vector<std::int64_t>, Defer> weights(clusters.size());
    for (const auto& [name, amount] : overall) {
        __extension__ using Wide = __int128;
        Wide total = 0;
        for (std::size_t i = 0; i < clusters.size(); ++i) {
            weights[i] = clusters[i].capacity.get(name);
            total += weights[i];
        }
        if (total == 0) {
            throw Infeasible(continuum::detail::message("split_across_clusters: overall has {} {} but no member cluster has any", format_resource(name, amount), name));
        }
        // Floors of amount * w / total, then the leftover units to the largest remainders.
        continuum::detail::deferred_t<std::vector<std::int64_t>, Defer> shares(clusters.size());
        continuum::detail::deferred_t<std::vector<std::pair<Wide, std::size_t>>, Defer> remainders;
        std::int64_t given = 0;
        for (std::size_t i = 0; i < clusters.size(); ++i) {
            const Wide exact = static_cast<Wide>(amount) * weights[i];
            shares[i] = static_cast<std::int64_t>(exact / total);
            given += shares[i];
            remainders.emplace_back(exact % total, i);
        }
        std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        for (std::size_t k = 0; given < amount; ++k, ++given) ++shares[remainders[k].second];
        for (std::size_t i = 0; i < clusters.size(); ++i) out[i].hard.set(name, shares[i]);
    }
    return out;
}

}  // namespace continuum::quota
