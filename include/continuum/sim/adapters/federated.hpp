// Adapter running continuum::federation::FederatedClusterScaler (seed 000's Liqo-aware Cluster
// Autoscaler) inside the simulator: remote node pools become federation offers, the Federation
// Recommender prices them with a CostModel (cost-aware: the pools' prices; cost-unaware: every node
// the same), scale-out peers with the offers it picks (a Liqo peering = a pool node, provisioned with
// the pool's latency) and scale-in releases (unpeers) the virtual nodes CA's rules find unneeded.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>
#include <continuum/federation/cost_model.hpp>
#include <continuum/federation/federated_cluster_scaler.hpp>
#include <continuum/federation/offer.hpp>
#include <continuum/federation/recommender.hpp>
#include <continuum/federation/scale_in.hpp>
#include <continuum/federation/scale_out.hpp>
#include <continuum/federation/virtual_node.hpp>
#include <continuum/sim/decision.hpp>
#include <continuum/sim/scaler.hpp>
#include <continuum/sim/snapshot.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim::adapters {

/// The label every offer and node carries: the index of its pool (a value always valid as a label).
inline constexpr std::string_view pool_label = "sim.continuum.io/pool-index";

/// Seed 000's two rankings of the remote offers.
enum class OfferRanking {
    /// federation::MonetaryCost: the Recommender passes each pool's price per node to the scaler,
    /// whose scale-out then peers with the cheapest mix of nodes (seed 000's cost-aware CA).
    cost_aware,
    /// No cost information reaches the scaler: every node is worth the same (1), so scale-out opens
    /// the fewest nodes that host the pending pods, the larger node on a tie (seed 000's
    /// cost-unaware CA, "favoring larger but more expensive instances").
    cost_unaware,
};

/// The cost model of a ranking: MonetaryCost (whole node) or a uniform cost of 1 per node.
inline federation::AnyCostModel cost_model_for(OfferRanking ranking) {
    if (ranking == OfferRanking::cost_aware) return federation::MonetaryCost{federation::PriceBasis::whole_offer};
    return federation::make_cost_model("uniform (cost-unaware)", [](const federation::Offer&, const Resources&) { return 1.0; });
}

struct FederatedAdapterConfig {
    /// Pools offered by remote clusters, by name; empty = every pool that is not NodeSource::local.
    std::vector<std::string> pools;
    /// How often the autoscaler runs (CA's --scan-interval).
    Duration scan_interval = std::chrono::seconds(10);
    /// Scale-out options (NAT, packing budget, price tiers) and CA's scale-in rules.
    federation::ScaleOutOptions scale_out{};
    federation::ScaleInOptions scale_in{};
    /// The PodDisruptionBudget every deployment has (default: ready pods never below desired).
    packing::DisruptionBudget disruption_budget{};
};

/// FederatedClusterScaler behind the simulator's Scaler concept. Each scan (scan_interval):
///  1. offers: one per managed pool (cluster id = pool name, capacity = one node's cpu and memory,
///     max_nodes = max_size or, for unbounded pools, current size + pending pods; node_price =
///     cost_per_minute; latency_ms = the pool's provisioning latency, a Liqo peering's by default);
///  2. the Recommender scores them with the cost model; the scores are the per-node prices the
///     scale-out optimises (seed 000: "the CA ... can be influenced by assigning custom (monetary or
///     logical) cost values" supplied by the Recommender); rejected offers are not offered;
///  3. scale-out on the unschedulable pending pods, with every live node as an existing virtual node
///     (pods that provisioning nodes or free room will host trigger nothing); new nodes become pool
///     resizes, provisioned with the pool's latency;
///  4. when nothing was added, scale-in over the ready nodes; nodes outside the managed pools, and
///     those of pools at min_size, are drain destinations but never released. Released nodes become
///     NodeRelease decisions (their pods are recreated and rescheduled by the simulator).
/// Pending pods pinned to a pool carry a node selector on pool_label.
template <federation::CostModel M = federation::AnyCostModel>
class FederatedClusterAdapter {
public:
    /// \throws InvalidArgument for a non-positive scan interval or invalid scale-out / scale-in options.
    explicit FederatedClusterAdapter(M cost_model, FederatedAdapterConfig config = {})
        : config_(std::move(config)), recommender_(std::move(cost_model)), scaler_(config_.scale_out, config_.scale_in) {
        if (config_.scan_interval.count() <= 0) {
            throw InvalidArgument(continuum::detail::message("federated adapter: scan_interval must be > 0, got {} ms", config_.scan_interval.count()));
        }
        if (config_.scale_out.price_tiers < 1) {
            throw InvalidArgument(continuum::detail::message("federated adapter: scale_out.price_tiers must be >= 1, got {}", config_.scale_out.price_tiers));
        }
    }

    /// \throws InvalidArgument when a managed pool name is unknown; whatever the federation scaler throws.
    Decision decide(const Snapshot& snap) {
        if (last_scan_ && snap.now - *last_scan_ < config_.scan_interval) return {};
        last_scan_ = snap.now;
        const auto managed = managed_pools(snap);
        build_nodes(snap, managed);
        Decision out = scale_out(snap, managed);
        if (!out.pools.empty()) return out;  // CA skips scale-down in a loop that scaled up
        Decision in = scale_in(snap, managed);
        in.reason = out.reason.empty() ? std::move(in.reason) : in.reason.empty() ? std::move(out.reason) : out.reason + "; " + in.reason;
        return in;
    }

    [[nodiscard]] const federation::FederatedClusterScaler& scaler() const { return scaler_; }
    /// The configuration, as constructed.
    [[nodiscard]] const FederatedAdapterConfig& config() const { return config_; }
    [[nodiscard]] const federation::Recommender<M>& recommender() const { return recommender_; }
    /// The last scan's offers (after the Recommender: node_price = score) and their recommendation.
    [[nodiscard]] const std::vector<federation::Offer>& last_offers() const { return priced_; }
    [[nodiscard]] const federation::Recommendation& last_recommendation() const { return recommendation_; }
    /// Peerings and unpeerings so far.
    [[nodiscard]] std::int64_t peerings() const { return peerings_; }
    [[nodiscard]] std::int64_t releases() const { return releases_; }

private:
    [[nodiscard]] std::vector<bool> managed_pools(const Snapshot& snap) const {
        std::vector<bool> out(snap.pool_specs.size(), false);
        if (config_.pools.empty()) {
            for (std::size_t p = 0; p < snap.pool_specs.size(); ++p) out[p] = snap.pool_specs[p].source != NodeSource::local;
        } else {
            for (const auto& name : config_.pools) out[snap.pool_index(name)] = true;
        }
        return out;
    }

    static federation::Labels labels_of(std::size_t pool) { return federation::Labels{{std::string(pool_label), std::to_string(pool)}}; }

    /// cpu and memory (the federation needs memory > 0: a pool without memory gets 1 byte, which
    /// hosts the same pods as 0 in the simulator: those requesting no memory).
    static Resources node_resources(std::int64_t cpu, std::int64_t memory) {
        return Resources::from_units({{"cpu", cpu}, {"memory", std::max<std::int64_t>(memory, 1)}});
    }

    /// Every live node as a virtual node with its bound pods (cluster id = pool name).
    void build_nodes(const Snapshot& snap, const std::vector<bool>& managed) {
        nodes_.assign(snap.nodes.size(), {});
        for (std::size_t n = 0; n < snap.nodes.size(); ++n) {
            const auto& node = snap.nodes[n];
            const auto& spec = snap.pool_specs[node.pool];
            auto& v = nodes_[n];
            v.name = node.name;
            v.cluster_id = spec.name;
            v.labels = labels_of(node.pool);
            v.allocatable = node_resources(node.cpu_capacity, node.memory_capacity);
            v.cost = managed[node.pool] ? spec.cost_per_minute : 0.0;
        }
        std::vector<int> serial(snap.deployments.size(), 0);
        for (const auto& pod : snap.bound) {
            nodes_[pod.node].pods.push_back({continuum::detail::message("{}/bound-{}", snap.deployments[pod.deployment].name, serial[pod.deployment]++),
                                             Resources::from_units({{"cpu", pod.cpu}, {"memory", pod.memory}}), true});
        }
    }

    Decision scale_out(const Snapshot& snap, const std::vector<bool>& managed) {
        std::vector<federation::PendingPod> pending;
        std::vector<int> serial(snap.deployments.size(), 0);
        for (const auto& pod : snap.pending) {
            if (pod.reason != PendingReason::unschedulable) continue;
            const auto& deployment = snap.deployments[pod.deployment];
            federation::PendingPod p;
            p.name = continuum::detail::message("{}/pending-{}", deployment.name, serial[pod.deployment]++);
            p.request = Resources::from_units({{"cpu", pod.cpu}, {"memory", pod.memory}});
            if (deployment.pinned_pool) p.node_selector.match_labels = labels_of(*deployment.pinned_pool);
            pending.push_back(std::move(p));
        }
        if (pending.empty()) return {};
        std::vector<federation::Offer> offers;
        std::vector<std::size_t> pool_of;
        for (std::size_t p = 0; p < snap.pool_specs.size(); ++p) {
            if (!managed[p]) continue;
            const auto& spec = snap.pool_specs[p];
            federation::Offer o;
            o.cluster_id = spec.name;
            o.provider = spec.description;
            o.labels = labels_of(p);
            o.capacity = node_resources(spec.capacity.cpu_millis(), spec.capacity.memory_bytes());
            o.max_nodes = spec.max_size == unlimited_nodes ? snap.pools[p].size() + static_cast<std::int64_t>(pending.size()) : spec.max_size;
            if (o.max_nodes < 1) continue;  // a pool that may never have a node
            o.node_price = spec.cost_per_minute;
            o.latency_ms = static_cast<double>(spec.latency().count());
            offers.push_back(std::move(o));
            pool_of.push_back(p);
        }
        // The Recommender's scores become the prices the scale-out sees.
        recommendation_ = recommender_.recommend(offers, federation::OfferRequirements{});
        priced_.clear();
        std::vector<std::size_t> priced_pool;
        for (const auto& entry : recommendation_.ranked) {
            auto o = offers[entry.offer_index];
            o.node_price = entry.score;
            o.unit_prices.clear();
            priced_.push_back(std::move(o));
            priced_pool.push_back(pool_of[entry.offer_index]);
        }
        const auto decision = scaler_.scale_out(pending, nodes_, priced_, snap.now);
        Decision d;
        for (const auto& peering : decision.peerings) {
            const std::size_t p = priced_pool.at(peering.offer_index);
            d.pools.push_back({snap.pool_specs[p].name, snap.pools[p].size() + static_cast<int>(peering.nodes.size())});
            peerings_ += static_cast<std::int64_t>(peering.nodes.size());
        }
        if (!d.pools.empty() || !decision.unschedulable.empty()) {
            d.reason = continuum::detail::message("federated cluster scaler ({}): {}", recommendation_.cost_model, decision.reason);
            if (!decision.unschedulable.empty()) d.reason += continuum::detail::message("; e.g. {}: {}", decision.unschedulable.front().pod, decision.unschedulable.front().reason);
        }
        return d;
    }

    Decision scale_in(const Snapshot& snap, const std::vector<bool>& managed) {
        // Nodes that may go: ready nodes of managed pools above min_size. The others keep a
        // non-movable marker pod: destinations for drains, never released.
        std::vector<int> removable(snap.pool_specs.size(), 0);
        for (std::size_t p = 0; p < snap.pool_specs.size(); ++p) removable[p] = managed[p] ? snap.pools[p].size() - snap.pool_specs[p].min_size : 0;
        std::vector<federation::VirtualNode> ready;
        for (std::size_t n = 0; n < snap.nodes.size(); ++n) {
            if (!snap.nodes[n].ready()) continue;
            ready.push_back(nodes_[n]);
            if (removable[snap.nodes[n].pool] <= 0) ready.back().pods.push_back({snap.nodes[n].name + "/not-managed", Resources{}, false});
        }
        // Pods are named <deployment>/bound-<k>: each deployment's budget covers its own.
        std::vector<packing::WorkloadAvailability> budgets;
        for (const auto& dep : snap.deployments) budgets.push_back({dep.name, dep.desired, std::min(dep.ready, dep.desired), config_.disruption_budget});
        const auto decision = scaler_.scale_in(ready, snap.now, budgets);
        Decision d;
        for (const auto& name : decision.nodes_to_release) {
            const auto it = std::find_if(snap.nodes.begin(), snap.nodes.end(), [&](const NodeStatus& node) { return node.name == name; });
            if (it == snap.nodes.end() || removable[it->pool] <= 0) continue;
            removable[it->pool] -= 1;
            d.releases.push_back({name});
            ++releases_;
        }
        if (!d.releases.empty()) d.reason = "federated cluster scaler: " + decision.reason;
        return d;
    }

    FederatedAdapterConfig config_;
    federation::Recommender<M> recommender_;
    federation::FederatedClusterScaler scaler_;
    std::optional<Time> last_scan_;
    std::vector<federation::VirtualNode> nodes_;
    std::vector<federation::Offer> priced_;
    federation::Recommendation recommendation_;
    std::int64_t peerings_ = 0;
    std::int64_t releases_ = 0;
};

/// The adapter for one of seed 000's rankings.
inline FederatedClusterAdapter<federation::AnyCostModel> make_federated_adapter(OfferRanking ranking, FederatedAdapterConfig config = {}) {
    return FederatedClusterAdapter<federation::AnyCostModel>(cost_model_for(ranking), std::move(config));
}

static_assert(Scaler<FederatedClusterAdapter<>>);

}  // namespace continuum::sim::adapters
