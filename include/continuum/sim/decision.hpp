// What a scaler returns to the simulator: new namespace quotas (seed 001), replica counts (HPA,
// seed 004's HSA), node-pool sizes (CA, seed 004's NSA, seed 001's waiting-node activation) and
// named nodes to release (CA scale-in, Liqo unpeering), with a reason a human can read.
#pragma once

#include <continuum/core/resources.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace continuum::sim {

struct QuotaChange {
    std::string namespace_name;
    /// The new hard quota; nullopt removes it.
    std::optional<Resources> hard;
};

struct ReplicaChange {
    std::string deployment;
    int replicas = 0;
    /// Pin the deployment's pods to this pool (a nodeSelector in the pod template); empty = leave
    /// as is. Another pool than the current one starts a rolling update (maxUnavailable 0,
    /// SimulationConfig::rollout_max_surge_percent): the old pods keep serving until enough new
    /// ones are Ready, as a Deployment rollout does in a make-before-break migration.
    std::string node_pool;
};

/// Target size (ready + provisioning nodes) of a pool. Growing provisions new nodes; shrinking
/// cancels provisioning nodes first, then releases the ready nodes with the fewest pods.
struct PoolResize {
    std::string pool;
    int size = 0;
};

/// One node to release by name; its pods are evicted and recreated by their controllers.
struct NodeRelease {
    std::string node;
};

struct Decision {
    std::vector<QuotaChange> quotas;
    std::vector<ReplicaChange> replicas;
    std::vector<PoolResize> pools;
    std::vector<NodeRelease> releases;
    std::string reason;

    [[nodiscard]] bool empty() const { return quotas.empty() && replicas.empty() && pools.empty() && releases.empty(); }

    /// Appends `other`'s actions and reason (for composed scalers).
    Decision& merge(Decision other) {
        for (auto& q : other.quotas) quotas.push_back(std::move(q));
        for (auto& r : other.replicas) replicas.push_back(std::move(r));
        for (auto& p : other.pools) pools.push_back(std::move(p));
        for (auto& n : other.releases) releases.push_back(std::move(n));
        if (!other.reason.empty()) reason = reason.empty() ? std::move(other.reason) : reason + "; " + other.reason;
        return *this;
    }
};

}  // namespace continuum::sim
