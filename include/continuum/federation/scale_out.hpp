// Scale-out of a federated cluster (seed 000: the CA asks for nodes, the Liqo driver peers with
// remote clusters): pending pods go first onto the free room of existing virtual nodes, then onto
// new virtual nodes from the offers they may use, choosing which offers to peer with and how much
// of each to reserve at minimum cost with packing::cheapest_node_mix. Pods nothing can host are
// reported with the reason, never dropped.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/offer.hpp>
#include <continuum/federation/selector.hpp>
#include <continuum/federation/virtual_node.hpp>
#include <continuum/packing/model.hpp>
#include <continuum/packing/node_types.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::federation {

/// Options of a scale-out decision.
struct ScaleOutOptions {
    bool allow_nat = true;          ///< false: never peer with offers behind a NAT
    bool use_existing_nodes = true; ///< place pods on the free room of existing virtual nodes first
    Budget budget = {};             ///< for the exact part of cheapest_node_mix
};

/// One virtual node to create on an offer.
struct NewVirtualNode {
    std::vector<std::string> pods;  ///< pods that will run on it
    Resources requested;            ///< sum of their requests
    Resources reserved;             ///< what to reserve: the requests for unit-priced offers, the whole capacity otherwise
    double cost = 0.0;              ///< offer.price_of(reserved), per unit of time
};

/// Peer with one offer and create these nodes on it.
struct Peering {
    std::string cluster_id;
    std::size_t offer_index = 0;
    std::vector<NewVirtualNode> nodes;
    double cost = 0.0;  ///< sum over nodes
};

/// A pending pod that fits on an existing virtual node: no scale-out is needed for it.
struct PodPlacement {
    std::string pod;
    std::string node;
};

/// A pending pod nothing can host, and why.
struct UnschedulablePod {
    std::string pod;
    std::string reason;
};

/// The scale-out decision. Every pending pod appears exactly once: in a new node of a peering, in
/// existing_node_placements, or in unschedulable.
struct ScaleOutDecision {
    std::vector<Peering> peerings;                      ///< sorted by cluster id
    std::vector<PodPlacement> existing_node_placements;
    std::vector<UnschedulablePod> unschedulable;        ///< in pending-pod order
    double cost = 0.0;          ///< added cost per unit of time
    double lower_bound = 0.0;   ///< lower bound of the cost of the new whole nodes (packing bound)
    bool optimal = true;        ///< every packing step proved optimal
    std::string reason;

    [[nodiscard]] std::size_t new_node_count() const {
        std::size_t n = 0;
        for (const auto& p : peerings) n += p.nodes.size();
        return n;
    }
};

/// Plans a scale-out.
///
/// 1. Pods sorted by cpu, then memory (descending), then name go first-fit onto existing virtual
///    nodes whose labels match their selector (when use_existing_nodes).
/// 2. The rest are grouped by node selector; each group may use the offers whose labels match
///    (and that are reachable); groups with the fewest eligible offers go first. For each group,
///    offers with the same capacity and whole-node price merge into one node type whose count is
///    what remains of their max_nodes (minus virtual nodes already peered from them), and
///    packing::cheapest_node_mix picks the cheapest mix of whole nodes. Opened nodes go to the
///    offers of their type in (price, cluster id) order.
/// 3. Unit-priced offers reserve only the requests placed on each node; flat-priced ones the node.
/// Pod slots count when an offer or node declares a "pods" capacity.
///
/// \throws InvalidArgument on invalid offers (validate_offers), pods (empty or duplicate names,
///         negative requests, invalid selectors), nodes (duplicate names, non-positive cpu or
///         memory) or budget.
inline ScaleOutDecision plan_scale_out(std::span<const PendingPod> pods, std::span<const VirtualNode> nodes, std::span<const Offer> offers,
                                       const ScaleOutOptions& options = {}) {
    validate_offers(offers);
    detail::validate_pending_pods(pods);
    detail::validate_virtual_nodes(nodes);
    options.budget.validate();

    ScaleOutDecision out;
    std::unordered_map<std::string_view, std::size_t> offer_by_id;
    offer_by_id.reserve(offers.size() * 2);
    for (std::size_t i = 0; i < offers.size(); ++i) offer_by_id.emplace(offers[i].cluster_id, i);
    std::vector<std::int64_t> remaining(offers.size());
    for (std::size_t i = 0; i < offers.size(); ++i) remaining[i] = offers[i].max_nodes;
    for (const auto& node : nodes) {
        const auto it = offer_by_id.find(node.cluster_id);
        if (it != offer_by_id.end()) remaining[it->second] = std::max<std::int64_t>(0, remaining[it->second] - 1);
    }

    std::vector<std::size_t> order(pods.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto& ra = pods[a].request;
        const auto& rb = pods[b].request;
        if (ra.cpu_millis() != rb.cpu_millis()) return ra.cpu_millis() > rb.cpu_millis();
        if (ra.memory_bytes() != rb.memory_bytes()) return ra.memory_bytes() > rb.memory_bytes();
        return pods[a].name < pods[b].name;
    });

    // 1. Existing nodes.
    std::vector<bool> placed(pods.size(), false);
    if (options.use_existing_nodes && !nodes.empty()) {
        std::vector<std::size_t> node_order(nodes.size());
        std::iota(node_order.begin(), node_order.end(), std::size_t{0});
        std::sort(node_order.begin(), node_order.end(), [&](std::size_t a, std::size_t b) { return nodes[a].name < nodes[b].name; });
        std::vector<Resources> free(nodes.size());
        for (std::size_t n = 0; n < nodes.size(); ++n) {
            free[n] = detail::with_pod_slots(nodes[n].allocatable, static_cast<std::int64_t>(nodes[n].pods.size())) - detail::requested_on(nodes[n]);
        }
        for (const auto p : order) {
            const Resources item = detail::with_pod_slot(pods[p].request);
            for (const auto n : node_order) {
                if (!pods[p].node_selector.matches(nodes[n].labels) || !item.fits_in(free[n])) continue;
                free[n] -= item;
                placed[p] = true;
                out.existing_node_placements.push_back({pods[p].name, nodes[n].name});
                break;
            }
        }
    }

    // 2. Group the rest by selector.
    std::map<std::string, std::vector<std::size_t>> by_selector;
    for (const auto p : order) {
        if (!placed[p]) by_selector[pods[p].node_selector.to_string()].push_back(p);
    }
    struct Group {
        std::string selector;
        std::vector<std::size_t> pods;
        std::vector<std::size_t> offers;
    };
    std::vector<Group> groups;
    std::map<std::size_t, std::string> unschedulable;
    for (auto& [key, members] : by_selector) {
        Group g{key, std::move(members), {}};
        const auto& selector = pods[g.pods.front()].node_selector;
        bool nat_only = false;
        for (std::size_t o = 0; o < offers.size(); ++o) {
            if (!selector.matches(offers[o].labels)) continue;
            if (!options.allow_nat && offers[o].reachability == Reachability::nat) {
                nat_only = true;
                continue;
            }
            g.offers.push_back(o);
        }
        if (g.offers.empty()) {
            const std::string why = nat_only ? fmt::format("only offers behind a NAT match node selector \"{}\" and NAT is not allowed", key)
                                             : fmt::format("no offer matches node selector \"{}\"", key);
            for (const auto p : g.pods) unschedulable[p] = why;
            continue;
        }
        groups.push_back(std::move(g));
    }
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.offers.size() < b.offers.size(); });

    std::vector<std::vector<NewVirtualNode>> new_nodes(offers.size());
    for (const auto& g : groups) {
        // Offers that can host at least one of the group's pods and have nodes left.
        std::vector<std::size_t> candidates;
        for (const auto o : g.offers) {
            if (remaining[o] > 0) candidates.push_back(o);
        }
        std::vector<Resources> items;
        items.reserve(g.pods.size());
        for (const auto p : g.pods) items.push_back(detail::with_pod_slot(pods[p].request));
        const auto explain = [&](std::size_t p) {
            const auto& request = pods[p].request;
            const Offer* largest = nullptr;
            for (const auto o : g.offers) {
                if (request.fits_in(offers[o].capacity)) {
                    return fmt::format("every offer matching node selector \"{}\" that could host request {} has reached its max_nodes", g.selector, request);
                }
                if (largest == nullptr || offers[o].capacity.cpu_millis() > largest->capacity.cpu_millis()) largest = &offers[o];
            }
            return fmt::format("request {} exceeds every offer matching node selector \"{}\" (largest: {} {})", request, g.selector, largest->cluster_id, largest->capacity);
        };
        if (candidates.empty()) {
            for (const auto p : g.pods) unschedulable[p] = explain(p);
            continue;
        }
        std::vector<double> price(offers.size(), 0.0);
        for (const auto o : candidates) price[o] = offers[o].node_cost();
        std::sort(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) {
            if (price[a] != price[b]) return price[a] < price[b];
            if (offers[a].capacity.entries() != offers[b].capacity.entries()) return offers[a].capacity.entries() < offers[b].capacity.entries();
            return offers[a].cluster_id < offers[b].cluster_id;
        });
        // Merge identical (capacity, price) offers into one node type; with identical capacity, only
        // the cheapest offers up to one node per pod can ever be used.
        std::vector<packing::NodeType> types;
        std::vector<std::vector<std::size_t>> members;
        std::map<std::vector<Resources::Entry>, std::int64_t> count_by_capacity;
        const auto cap = static_cast<std::int64_t>(items.size());
        for (const auto o : candidates) {
            auto& used = count_by_capacity[offers[o].capacity.entries()];
            if (used >= cap) continue;
            const std::int64_t take = std::min(remaining[o], cap - used);
            used += take;
            if (!types.empty() && price[members.back().front()] == price[o] && offers[members.back().front()].capacity == offers[o].capacity) {
                types.back().max_count = std::min(cap, types.back().max_count + take);
                members.back().push_back(o);
                continue;
            }
            types.push_back({offers[o].cluster_id, detail::with_pod_slots(offers[o].capacity, 0), price[o], take});
            members.push_back({o});
        }
        const auto mix = packing::cheapest_node_mix(items, types, options.budget);
        out.lower_bound += mix.lower_bound;
        out.optimal = out.optimal && mix.optimal;
        std::vector<std::size_t> next_member(types.size(), 0);
        for (const auto& node : mix.nodes) {
            auto& cursor = next_member[node.type];
            while (remaining[members[node.type][cursor]] == 0) ++cursor;  // the type's count bounds the total
            const std::size_t o = members[node.type][cursor];
            --remaining[o];
            NewVirtualNode created;
            for (const auto item : node.items) {
                created.pods.push_back(pods[g.pods[item]].name);
                created.requested += pods[g.pods[item]].request;
            }
            created.reserved = offers[o].priced_per_unit() ? created.requested : offers[o].capacity;
            created.cost = offers[o].price_of(created.reserved);
            new_nodes[o].push_back(std::move(created));
        }
        for (const auto& item : mix.unplaceable) unschedulable[g.pods[item.item]] = explain(g.pods[item.item]);
    }

    for (std::size_t o = 0; o < offers.size(); ++o) {
        if (new_nodes[o].empty()) continue;
        Peering peering{offers[o].cluster_id, o, std::move(new_nodes[o]), 0.0};
        for (const auto& n : peering.nodes) peering.cost += n.cost;
        out.cost += peering.cost;
        out.peerings.push_back(std::move(peering));
    }
    std::sort(out.peerings.begin(), out.peerings.end(), [](const Peering& a, const Peering& b) { return a.cluster_id < b.cluster_id; });
    for (std::size_t p = 0; p < pods.size(); ++p) {
        const auto it = unschedulable.find(p);
        if (it != unschedulable.end()) out.unschedulable.push_back({pods[p].name, it->second});
    }
    std::vector<std::string> summary;
    for (const auto& p : out.peerings) summary.push_back(fmt::format("{} x{}", p.cluster_id, p.nodes.size()));
    out.reason = fmt::format("{} pending pods: {} on existing nodes, {} on {} new nodes [{}] costing {:.6g} per unit of time, {} unschedulable",
                             pods.size(), out.existing_node_placements.size(), pods.size() - out.existing_node_placements.size() - out.unschedulable.size(),
                             out.new_node_count(), fmt::join(summary, ", "), out.cost, out.unschedulable.size());
    return out;
}

}  // namespace continuum::federation
