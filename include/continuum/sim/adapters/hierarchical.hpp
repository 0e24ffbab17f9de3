// Adapter running continuum's MAS-H² hierarchical scaler (scalers::HierarchicalScaler, seed 004) in
// the simulator: every control period it samples each managed deployment's CPU usage into a demand
// history, hands the pools and a policy override schedule to the scaler, and applies its
// PatchDeployment / ResizeNodePool actions (a shrink's named nodes become node releases).
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/forecast/forecaster.hpp>
#include <continuum/scalers/hierarchical.hpp>
#include <continuum/sim/decision.hpp>
#include <continuum/sim/scaler.hpp>
#include <continuum/sim/snapshot.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim::adapters {

/// From `at` on, the Strategic Agent is told to use `policy` (an operator override).
struct PolicySwitch {
    Time at{0};
    std::string policy;
};

template <forecast::Forecaster F>
class HierarchicalAdapter {
public:
    /// `deployments`: the managed deployments; the scaler's config.step is the control period.
    /// \throws InvalidArgument for an empty deployment list.
    HierarchicalAdapter(scalers::HierarchicalScaler<F> scaler, std::vector<std::string> deployments, std::vector<PolicySwitch> switches = {})
        : scaler_(std::move(scaler)), deployments_(std::move(deployments)), switches_(std::move(switches)) {
        if (deployments_.empty()) throw InvalidArgument("hierarchical adapter: deployments must not be empty");
        history_.resize(deployments_.size());
    }

    /// \throws InvalidArgument for unknown deployments or pools; as HierarchicalScaler::decide.
    Decision decide(const Snapshot& snap) {
        if (last_ && snap.now - *last_ < scaler_.config().step) return {};
        last_ = snap.now;
        scalers::ClusterSnapshot cs;
        for (std::size_t i = 0; i < deployments_.size(); ++i) {
            const auto& d = snap.deployments[snap.deployment_index(deployments_[i])];
            history_[i].push_back(d.cpu_used_cores);
            scalers::ApplicationState app;
            app.name = d.name;
            app.pod_request = Resources::from_units({{"cpu", d.pod_cpu}, {"memory", d.pod_memory}});
            app.demand = history_[i];
            app.replicas = d.desired;
            if (d.pinned_pool) app.node_pool = snap.pool_specs[*d.pinned_pool].name;
            for (std::size_t p = 0; p < snap.pools.size(); ++p) {
                if (d.ready_per_pool[p] > 0) app.ready_replicas[snap.pool_specs[p].name] = d.ready_per_pool[p];
            }
            cs.applications.push_back(std::move(app));
        }
        for (std::size_t p = 0; p < snap.pool_specs.size(); ++p) {
            const auto& spec = snap.pool_specs[p];
            scalers::NodePoolState pool;
            pool.name = spec.name;
            pool.size = snap.pools[p].size();
            pool.ready_nodes = snap.pools[p].ready;
            pool.min_size = spec.min_size;
            pool.max_size = spec.max_size == unlimited_nodes ? packing::unlimited : spec.max_size;
            pool.node_type = packing::NodeType{spec.name, spec.capacity, spec.cost_per_minute * 60.0, pool.max_size};
            cs.node_pools.push_back(std::move(pool));
        }
        // Nodes and the managed pods on them, so that a scale-in drains as the Cluster Autoscaler does.
        for (std::size_t n = 0; n < snap.nodes.size(); ++n) {
            const auto& node = snap.nodes[n];
            cs.node_pools[node.pool].nodes.push_back({node.name, node.ready(), node.requested(), {}});
        }
        for (const auto& pod : snap.bound) {
            const auto& node = snap.nodes[pod.node];
            auto& pool = cs.node_pools[node.pool];
            const auto it = std::find_if(pool.nodes.begin(), pool.nodes.end(), [&](const scalers::PoolNodeState& s) { return s.name == node.name; });
            const auto& name = snap.deployments[pod.deployment].name;
            if (std::find(deployments_.begin(), deployments_.end(), name) != deployments_.end()) it->application_pods[name] += 1;
        }
        for (const auto& s : switches_) {
            if (s.at <= snap.now) cs.context.override_policy = s.policy;
        }
        last_decision_ = scaler_.decide(cs, snap.now);
        Decision out;
        for (const auto& patch : last_decision_.patch_deployments) out.replicas.push_back({patch.name, static_cast<int>(patch.replicas), patch.node_pool});
        for (const auto& resize : last_decision_.resize_node_pools) {
            for (const auto& node : resize.remove_nodes) out.releases.push_back({node});
            out.pools.push_back({resize.pool, static_cast<int>(resize.size)});
        }
        if (!out.empty()) out.reason = "hierarchical: " + last_decision_.reason;
        return out;
    }

    [[nodiscard]] const scalers::HierarchicalDecision& last_decision() const { return last_decision_; }
    /// The configuration, as constructed.
    [[nodiscard]] const scalers::HierarchicalScaler<F>& scaler() const { return scaler_; }
    [[nodiscard]] const std::vector<std::string>& deployments() const { return deployments_; }
    [[nodiscard]] const std::vector<PolicySwitch>& switches() const { return switches_; }

private:
    scalers::HierarchicalScaler<F> scaler_;
    std::vector<std::string> deployments_;
    std::vector<PolicySwitch> switches_;
    std::vector<std::vector<double>> history_;
    std::optional<Time> last_;
    scalers::HierarchicalDecision last_decision_;
};

}  // namespace continuum::sim::adapters
