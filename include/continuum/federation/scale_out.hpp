// Scale-out of a federated cluster (seed 000: the CA asks for nodes, the Liqo driver peers with
// remote clusters): pending pods go first onto the free room of existing virtual nodes, then onto
// new virtual nodes from the offers they may use, choosing which offers to peer with and how much
// of each to reserve at minimum cost with packing::cheapest_node_mix. Pods nothing can host are
// reported with the reason, never dropped.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/offer.hpp>
#include <continuum/federation/offer_catalogue.hpp>
#include <continuum/federation/selector.hpp>
#include <continuum/federation/virtual_node.hpp>
#include <continuum/packing/model.hpp>
#include <continuum/packing/node_types.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <limits>
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
    Budget budget = per_tick_budget();  ///< for the exact part of cheapest_node_mix (one deadline for the whole call)
    std::int64_t price_tiers = 8;   ///< node types per distinct offer capacity (>= 1); see plan_scale_out
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

namespace detail {

/// The node types a cheapest mix of `items` can do without: with U the cost of a first-fit
/// decreasing packing and p the cheapest type, an optimal mix has at most N = U / p nodes, so a
/// type whose capacity is covered by kept types at most as expensive, with N or more nodes in all,
/// can be swapped out of any optimal mix node by node. Returns the kept type indices (all of them
/// for small instances, free types, or when the greedy cannot place every item).
template <typename Defer = void>
inline std::vector<std::size_t> undominated_types(std::span<const Resources> items, std::span<const packing::NodeType> types) {
    continuum::detail::deferred_t<std::vector<std::size_t>, Defer> kept(types.size());
    std::iota(kept.begin(), kept.end(), std::size_t{0});
    if (types.size() <= 16 || items.empty()) return kept;
    double cheapest = std::numeric_limits<double>::infinity();
    for (const auto& t : types) cheapest = std::min(cheapest, t.cost);
    if (!(cheapest > 0.0)) return kept;
    // Dimensions: every resource some item requests.
    continuum::detail::deferred_t<std::vector<std::string_view>, Defer> dims;
    for (const auto& item : items) {
        for (const auto& [name, amount] : item) {
            if (std::find(dims.begin(), dims.end(), name) == dims.end()) dims.emplace_back(name);
        }
    }
    const std::size_t d = dims.size();
    continuum::detail::deferred_t<std::vector<std::int64_t>, Defer> demand(d, 0), capacity(types.size() * d), amounts(items.size() * d);
    for (std::size_t i = 0; i < items.size(); ++i) {
        for (std::size_t k = 0; k < d; ++k) {
            amounts[i * d + k] = items[i].get(dims[k]);
            demand[k] = demand[k] > std::numeric_limits<std::int64_t>::max() - amounts[i * d + k] ? std::numeric_limits<std::int64_t>::max() : demand[k] + amounts[i * d + k];
        }
    }
    continuum::detail::deferred_t<std::vector<double>, Defer> efficiency(types.size());  // cost per unit of the scarcest normalised capacity
    for (std::size_t t = 0; t < types.size(); ++t) {
        double share = std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < d; ++k) {
            capacity[t * d + k] = types[t].capacity.get(dims[k]);
            if (demand[k] > 0) share = std::min(share, static_cast<double>(capacity[t * d + k]) / static_cast<double>(demand[k]));
        }
        efficiency[t] = share > 0.0 ? types[t].cost / share : std::numeric_limits<double>::infinity();
    }
    continuum::detail::deferred_t<std::vector<std::size_t>, Defer> by_efficiency = kept;
    std::stable_sort(by_efficiency.begin(), by_efficiency.end(), [&](std::size_t a, std::size_t b) { return efficiency[a] < efficiency[b]; });
    // First fit decreasing (largest cpu, then memory first), opening the most efficient type left that holds the item.
    continuum::detail::deferred_t<std::vector<std::size_t>, Defer> order(items.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (items[a].cpu_millis() != items[b].cpu_millis()) return items[a].cpu_millis() > items[b].cpu_millis();
        return items[a].memory_bytes() > items[b].memory_bytes();
    });
    continuum::detail::deferred_t<std::vector<std::int64_t>, Defer> residual;  // open nodes x d
    continuum::detail::deferred_t<std::vector<std::int64_t>, Defer> used(types.size(), 0);
    double upper = 0.0;
    const auto fits = [&](const std::int64_t* item, const std::int64_t* room) {
        for (std::size_t k = 0; k < d; ++k) {
            if (item[k] > room[k]) return false;
        }
        return true;
    };
    for (const auto i : order) {
        const std::int64_t* item = &amounts[i * d];
        bool placed = false;
        for (std::size_t node = 0; node * d < residual.size() && !placed; ++node) {
            if (!fits(item, &residual[node * d])) continue;
            for (std::size_t k = 0; k < d; ++k) residual[node * d + k] -= item[k];
            placed = true;
        }
        for (std::size_t e = 0; e < by_efficiency.size() && !placed; ++e) {
            const std::size_t t = by_efficiency[e];
            if (used[t] >= types[t].max_count || !fits(item, &capacity[t * d])) continue;
            ++used[t];
            upper += types[t].cost;
            for (std::size_t k = 0; k < d; ++k) residual.push_back(capacity[t * d + k] - item[k]);
            placed = true;
        }
        if (!placed) return kept;
    }
    // At most this many nodes in an optimal mix (with slack for rounding).
    const double bound = std::floor(upper / cheapest * (1.0 + 1e-9)) + 1.0;
    const auto max_nodes = static_cast<std::int64_t>(std::min(bound, static_cast<double>(items.size())));
    continuum::detail::deferred_t<std::vector<std::size_t>, Defer> by_cost = kept;
    std::stable_sort(by_cost.begin(), by_cost.end(), [&](std::size_t a, std::size_t b) { return types[a].cost < types[b].cost; });
    kept.clear();
    for (const auto a : by_cost) {
        std::int64_t cover = 0;
        for (const auto b : kept) {
            if (cover >= max_nodes) break;
            if (types[a].capacity.fits_in(types[b].capacity)) cover += types[b].max_count;
        }
        if (cover < max_nodes) kept.push_back(a);
    }
    std::sort(kept.begin(), kept.end());
    return kept;
}

}  // namespace detail

/// Plans a scale-out.
///
/// 1. Pods sorted by cpu, then memory (descending), then name go first-fit onto existing virtual
///    nodes whose labels match their selector (when use_existing_nodes).
/// 2. The rest are grouped by node selector; each group may use the offers whose labels match
///    (and that are reachable); groups with the fewest eligible offers go first. For each group,
///    offers with the same capacity merge into one node type whose count is what remains of their
///    max_nodes (minus virtual nodes already peered from them), and packing::cheapest_node_mix
///    picks the cheapest mix of whole nodes. The pooled nodes of one capacity, cheapest first,
///    form one node type per distinct price when there are at most price_tiers prices (exact);
///    otherwise they are cut into price_tiers equal tiers priced at the mean of their nodes (an
///    approximation: `optimal` is then false).
///    Opened nodes go to the offers of their type cheapest first (then by cluster id).
/// 3. Unit-priced offers reserve only the requests placed on each node; flat-priced ones the node.
/// Pod slots count when an offer or node declares a "pods" capacity.
///
/// \throws InvalidArgument on invalid offers (validate_offers), pods (empty or duplicate names,
///         negative requests, invalid selectors), nodes (duplicate names, non-positive cpu or
///         memory) or budget.
template <typename = void>  // templates, so that only a unit calling them compiles the scale-out search
inline ScaleOutDecision plan_scale_out(std::span<const PendingPod> pods, std::span<const VirtualNode> nodes, const OfferCatalogue& catalogue,
                                       const ScaleOutOptions& options = {});

template <typename Defer = void>
inline ScaleOutDecision plan_scale_out(std::span<const PendingPod> pods, std::span<const VirtualNode> nodes, std::span<const Offer> offers,
                                       const ScaleOutOptions& options = {}) {
    return plan_scale_out<Defer>(pods, nodes, OfferCatalogue(offers, continuum::detail::deferred_t<detail::WithoutTieOrder, Defer>{}), options);
}

/// plan_scale_out over offers validated once (the catalogue's rows are the offer indices); node
/// selectors are matched through the catalogue's label columns.
/// \throws InvalidArgument as plan_scale_out, except for the offers (validated by the catalogue).
template <typename Defer>
inline ScaleOutDecision plan_scale_out(std::span<const PendingPod> pods, std::span<const VirtualNode> nodes, const OfferCatalogue& catalogue,
                                       const ScaleOutOptions& options) {
    const std::span<const Offer> offers = catalogue.offers();
    detail::validate_pending_pods<Defer>(pods);
    detail::validate_virtual_nodes<Defer>(nodes);
    options.budget.validate();
    if (options.price_tiers < 1) throw InvalidArgument(continuum::detail::message("scale-out: price_tiers must be >= 1, got {}", options.price_tiers));

    // One deadline for the whole call: each group's packing gets what the groups before it left.
    const auto start = std::chrono::steady_clock::now();
    const auto group_budget = [&] {
        Budget budget = options.budget;
        if (budget.time_limit) {
            const auto spent = std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now() - start);
            budget.time_limit = std::max(Duration{0}, *budget.time_limit - spent);
        }
        return budget;
    };
    continuum::detail::deferred_t<ScaleOutDecision, Defer> out;
    continuum::detail::deferred_t<std::unordered_map<std::string_view, std::size_t>, Defer> offer_by_id;
    offer_by_id.reserve(offers.size() * 2);
    for (std::size_t i = 0; i < offers.size(); ++i) offer_by_id.emplace(offers[i].cluster_id, i);
    continuum::detail::deferred_t<std::vector<std::int64_t>, Defer> remaining(offers.size());
    for (std::size_t i = 0; i < offers.size(); ++i) remaining[i] = offers[i].max_nodes;
    for (const auto& node : nodes) {
        const auto it = offer_by_id.find(node.cluster_id);
        if (it != offer_by_id.end()) remaining[it->second] = std::max<std::int64_t>(0, remaining[it->second] - 1);
    }

    continuum::detail::deferred_t<std::vector<std::size_t>, Defer> order(pods.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto& ra = pods[a].request;
        const auto& rb = pods[b].request;
        if (ra.cpu_millis() != rb.cpu_millis()) return ra.cpu_millis() > rb.cpu_millis();
        if (ra.memory_bytes() != rb.memory_bytes()) return ra.memory_bytes() > rb.memory_bytes();
        return pods[a].name < pods[b].name;
    });

    // 1. Existing nodes.
    continuum::detail::deferred_t<std::vector<bool>, Defer> placed(pods.size(), false);
    if (options.use_existing_nodes && !nodes.empty()) {
        continuum::detail::deferred_t<std::vector<std::size_t>, Defer> node_order(nodes.size());
        std::iota(node_order.begin(), node_order.end(), std::size_t{0});
        std::sort(node_order.begin(), node_order.end(), [&](std::size_t a, std::size_t b) { return nodes[a].name < nodes[b].name; });
        continuum::detail::deferred_t<std::vector<Resources>, Defer> free(nodes.size());
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
    continuum::detail::deferred_t<std::map<std::string, std::vector<std::size_t>>, Defer> by_selector;
    for (const auto p : order) {
        if (!placed[p]) by_selector[pods[p].node_selector.to_string()].push_back(p);
    }
    struct Group {
        std::string selector;
        continuum::detail::deferred_t<std::vector<std::size_t>, Defer> pods;
        continuum::detail::deferred_t<std::vector<std::size_t>, Defer> offers;
    };
    continuum::detail::deferred_t<std::vector<Group>, Defer> groups;
    continuum::detail::deferred_t<std::map<std::size_t, std::string>, Defer> unschedulable;
    for (auto& [key, members] : by_selector) {
        Group g{key, std::move(members), {}};
        const auto selector = catalogue.template compile<Defer>(pods[g.pods.front()].node_selector);
        const auto behind_nat = catalogue.behind_nat();
        bool nat_only = false;
        for (std::size_t o = 0; o < offers.size(); ++o) {
            if (!selector.matches(o)) continue;
            if (!options.allow_nat && behind_nat[o] != 0) {
                nat_only = true;
                continue;
            }
            g.offers.push_back(o);
        }
        if (g.offers.empty()) {
            const std::string why = nat_only ? continuum::detail::message("only offers behind a NAT match node selector \"{}\" and NAT is not allowed", key)
                                             : continuum::detail::message("no offer matches node selector \"{}\"", key);
            for (const auto p : g.pods) unschedulable[p] = why;
            continue;
        }
        groups.push_back(std::move(g));
    }
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.offers.size() < b.offers.size(); });

    continuum::detail::deferred_t<std::vector<std::vector<NewVirtualNode>>, Defer> new_nodes(offers.size());
    for (const auto& g : groups) {
        // Offers that can host at least one of the group's pods and have nodes left.
        continuum::detail::deferred_t<std::vector<std::size_t>, Defer> candidates;
        for (const auto o : g.offers) {
            if (remaining[o] > 0) candidates.push_back(o);
        }
        continuum::detail::deferred_t<std::vector<Resources>, Defer> items;
        items.reserve(g.pods.size());
        for (const auto p : g.pods) items.push_back(detail::with_pod_slot(pods[p].request));
        const std::string matching = g.selector.empty() ? std::string("every offer") : continuum::detail::message("every offer matching node selector \"{}\"", g.selector);
        const auto explain = [&](std::size_t p) {
            const auto& request = pods[p].request;
            const Offer* largest = nullptr;
            for (const auto o : g.offers) {
                if (request.fits_in(offers[o].capacity)) {
                    return continuum::detail::message("{} that could host request {} has reached its max_nodes", matching, request);
                }
                if (largest == nullptr || offers[o].capacity.cpu_millis() > largest->capacity.cpu_millis()) largest = &offers[o];
            }
            return continuum::detail::message("request {} exceeds {} (largest: {} {})", request, matching, largest->cluster_id, largest->capacity);
        };
        if (candidates.empty()) {
            for (const auto p : g.pods) unschedulable[p] = explain(p);
            continue;
        }
        continuum::detail::deferred_t<std::vector<double>, Defer> price(offers.size(), 0.0);
        for (const auto o : candidates) price[o] = catalogue.node_costs()[o];
        std::sort(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) {
            // (lexicographical_compare, not the vectors' <, which is written through operator<=>: g++ and clang
            // deduce its return type where the lambda is written, instantiating the pairs' three-way comparison
            // in every unit)
            const auto& x = offers[a].capacity.entries();
            const auto& y = offers[b].capacity.entries();
            if (x != y) return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end());
            if (price[a] != price[b]) return price[a] < price[b];
            return offers[a].cluster_id < offers[b].cluster_id;
        });
        // Node types: offers with the same capacity are pooled, cheapest first, each providing what
        // remains of its max_nodes (at most one node per pod in all); the pool is cut into at most
        // `price_tiers` tiers of consecutive nodes, each a node type priced at the mean of its nodes
        // (exact when they cost the same), so the packing sees few types however many offers there are.
        const auto cap = static_cast<std::int64_t>(items.size());
        struct Slot {
            std::size_t offer;
            std::int64_t count;
        };
        continuum::detail::deferred_t<std::vector<packing::NodeType>, Defer> types;
        continuum::detail::deferred_t<std::vector<std::vector<Slot>>, Defer> slots;  // per type, cheapest first
        bool exact_prices = true;
        for (std::size_t begin = 0; begin < candidates.size();) {
            std::size_t end = begin;
            continuum::detail::deferred_t<std::vector<Slot>, Defer> pool;
            std::int64_t total = 0;
            while (end < candidates.size() && offers[candidates[end]].capacity == offers[candidates[begin]].capacity) {
                const std::size_t o = candidates[end++];
                const std::int64_t take = std::min(remaining[o], cap - total);
                if (take <= 0) continue;
                pool.push_back({o, take});
                total += take;
            }
            std::int64_t distinct_prices = pool.empty() ? 0 : 1;
            for (std::size_t k = 1; k < pool.size(); ++k) distinct_prices += price[pool[k].offer] != price[pool[k - 1].offer];
            // Few distinct prices: one exact type per price. Otherwise equal-sized tiers of nodes.
            const bool by_price = distinct_prices <= options.price_tiers;
            const std::int64_t tiers = std::min<std::int64_t>(options.price_tiers, total);
            const std::int64_t per_tier = by_price ? total : (total + tiers - 1) / tiers;
            std::size_t k = 0;
            std::int64_t used_of_k = 0;
            while (k < pool.size()) {
                continuum::detail::deferred_t<std::vector<Slot>, Defer> tier;
                std::int64_t count = 0;
                double sum = 0;
                while (k < pool.size() && count < per_tier && (!by_price || tier.empty() || price[pool[k].offer] == price[tier.front().offer])) {
                    const std::int64_t n = std::min(pool[k].count - used_of_k, per_tier - count);
                    tier.push_back({pool[k].offer, n});
                    count += n;
                    sum += price[pool[k].offer] * static_cast<double>(n);
                    used_of_k += n;
                    if (used_of_k == pool[k].count) {
                        ++k;
                        used_of_k = 0;
                    }
                }
                if (price[tier.front().offer] != price[tier.back().offer]) exact_prices = false;
                types.push_back({offers[tier.front().offer].cluster_id, detail::with_pod_slots(offers[tier.front().offer].capacity, 0), sum / static_cast<double>(count), count});
                slots.push_back(std::move(tier));
            }
            begin = end;
        }
        // Types no optimal mix needs (capacity and price covered by enough cheaper nodes) are left
        // out: the packing heuristics' work grows with the number of types.
        if (const auto keep = detail::undominated_types<Defer>(continuum::detail::span_of(items), continuum::detail::span_of(types)); keep.size() < types.size()) {
            continuum::detail::deferred_t<std::vector<packing::NodeType>, Defer> kept_types;
            continuum::detail::deferred_t<std::vector<std::vector<Slot>>, Defer> kept_slots;
            for (const auto t : keep) {
                kept_types.push_back(std::move(types[t]));
                kept_slots.push_back(std::move(slots[t]));
            }
            types = std::move(kept_types);
            slots = std::move(kept_slots);
        }
        const auto mix = packing::cheapest_node_mix(continuum::detail::span_of(items), continuum::detail::span_of(types), group_budget());
        out.lower_bound += mix.lower_bound;
        out.optimal = out.optimal && mix.optimal && exact_prices;
        // Opened nodes of a type go to its offers, cheapest first.
        continuum::detail::deferred_t<std::vector<std::size_t>, Defer> cursor(types.size(), 0);
        for (const auto& node : mix.nodes) {
            auto& c = cursor[node.type];
            while (slots[node.type][c].count == 0) ++c;  // the type's max_count bounds the total
            const std::size_t o = slots[node.type][c].offer;
            --slots[node.type][c].count;
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
    continuum::detail::deferred_t<std::vector<std::string>, Defer> summary;
    for (const auto& p : out.peerings) summary.push_back(continuum::detail::message("{} x{}", p.cluster_id, p.nodes.size()));
    const std::size_t opened = out.new_node_count();
    const std::string onto_new = opened == 0 ? std::string("no new node")
                                                : continuum::detail::message("{} on {} new node{} [{}] costing {:.6g} per unit of time",
                                                                             pods.size() - out.existing_node_placements.size() - out.unschedulable.size(), opened,
                                                                             opened == 1 ? "" : "s", fmt::join(summary, ", "), out.cost);
    out.reason = continuum::detail::message("{} pending pod{}: {} on existing nodes, {}, {} unschedulable", pods.size(), pods.size() == 1 ? "" : "s",
                                            out.existing_node_placements.size(), onto_new, out.unschedulable.size());
    return out;
}

}  // namespace continuum::federation
