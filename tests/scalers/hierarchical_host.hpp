// A simulated host for the hierarchical scaler's tests: applies decisions with a one-step delay
// for node and pod readiness and rolls deployments over with maxUnavailable = 0, so a
// make-before-break migration takes several cycles (shared by tests/scalers and tests/serialization).
#pragma once

#include <continuum/scalers/hierarchical.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace continuum::testing {

/// A simulated host: applies actions with a one-step delay for node readiness and pod readiness,
/// and rolls deployments over with maxUnavailable = 0 (old pods leave only as new ones are ready).
struct SimulatedHost {
    struct Pool {
        std::int64_t size = 0;
        std::int64_t ready = 0;
    };
    std::map<std::string, Pool> pools;
    std::string app_pool;
    std::int64_t replicas = 0;
    std::map<std::string, std::int64_t> ready_pods;    // per pool
    std::map<std::string, std::int64_t> pending_pods;  // created, not ready yet
    std::int64_t pods_per_node = 4;

    [[nodiscard]] std::int64_t total_ready() const {
        std::int64_t n = 0;
        for (const auto& [p, c] : ready_pods) n += c;
        return n;
    }

    scalers::ClusterSnapshot snapshot(const std::vector<double>& demand) const {
        scalers::ClusterSnapshot s;
        scalers::ApplicationState a;
        a.name = "web";
        a.pod_request = Resources{{"cpu", "500m"}, {"memory", "512Mi"}};
        a.demand = demand;
        a.replicas = replicas;
        a.node_pool = app_pool;
        a.ready_replicas = ready_pods;
        s.applications = {a};
        for (const auto& [name, p] : pools) {
            scalers::NodePoolState state;
            state.name = name;
            state.size = p.size;
            state.ready_nodes = p.ready;
            s.node_pools.push_back(state);
        }
        return s;
    }

    void apply(const scalers::HierarchicalDecision& d) {
        for (const auto& r : d.resize_node_pools) {
            auto& p = pools[r.pool];
            p.size = r.size;
            p.ready = std::min(p.ready, p.size);
            // Pods on removed nodes die.
            ready_pods[r.pool] = std::min(ready_pods[r.pool], p.size * pods_per_node);
        }
        for (const auto& patch : d.patch_deployments) {
            app_pool = patch.node_pool;
            replicas = patch.replicas;
        }
    }

    /// Time passes: nodes come up, pending pods become ready, the rollout retires old pods.
    void tick() {
        for (auto& [name, p] : pools) p.ready = p.size;
        for (auto& [name, n] : pending_pods) {
            ready_pods[name] += n;
            n = 0;
        }
        // Create missing pods on the target pool, within its ready capacity.
        const std::int64_t capacity = pools[app_pool].ready * pods_per_node;
        const std::int64_t want = std::min(replicas, capacity) - ready_pods[app_pool] - pending_pods[app_pool];
        if (want > 0) pending_pods[app_pool] += want;
        if (ready_pods[app_pool] > replicas) ready_pods[app_pool] = replicas;
        // maxUnavailable 0: old pods go only once the new ones cover the replicas.
        for (auto& [name, n] : ready_pods) {
            if (name != app_pool) n = std::max<std::int64_t>(0, std::min(n, replicas - ready_pods[app_pool]));
        }
    }
};


}  // namespace continuum::testing
