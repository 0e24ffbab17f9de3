// The trace-driven cluster simulator: discrete time with a fixed tick; nodes provisioned from pools
// with their own latency and price; deployments whose pods pass namespace quota admission and a
// first-fit scheduler; pods unscheduled past the timeout count as failed deployments (seed 001).
// Each tick the scaler under test sees a Snapshot and returns a Decision. Fully deterministic.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>
#include <continuum/sim/decision.hpp>
#include <continuum/sim/metrics.hpp>
#include <continuum/sim/scaler.hpp>
#include <continuum/sim/scenario.hpp>
#include <continuum/sim/snapshot.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim {

/// Runs a Scenario against a Scaler.
///
/// Each tick at time `now` (0, tick, 2 tick, ... < duration):
///  1. nodes whose provisioning latency elapsed become Ready; pods whose start-up elapsed become Ready;
///  2. each deployment's load is read; workload-driven replica counts follow it;
///  3. controllers create missing pods and delete surplus ones (unscheduled first, newest first);
///  4. pods pass quota admission (namespace requests + pod <= hard quota) and are bound to a Ready
///     node, first fit in creation order by default (pods FIFO);
///  5. ready pods share their deployment's CPU demand (capped by the CPU limit and the node);
///  6. the scaler sees the Snapshot and its Decision is applied (quotas, replicas, pool sizes,
///     releases); new pods and retries are considered from the next tick;
///  7. pods unscheduled for pending_timeout fail (a failed deployment) and are recreated;
///  8. cost, efficiency and the time series are recorded for [now, now + tick).
///
/// `Simulator` is `BasicSimulator<>`: the template parameter is never used, it only keeps the
/// members' bodies from being compiled in a unit that includes the header without running a
/// simulation (issue 21).
template <typename Defer = void>
class BasicSimulator {
public:
    /// \throws whatever Scenario::validate throws.
    explicit BasicSimulator(Scenario scenario) : scenario_(std::move(scenario)) {
        scenario_.validate();
        if (scenario_.config.duration.count() == 0) {
            for (const auto& d : scenario_.deployments) scenario_.config.duration = std::max(scenario_.config.duration, d.load.duration());
            if (scenario_.config.duration.count() == 0) scenario_.config.duration = scenario_.config.tick;
        }
    }

    [[nodiscard]] const Scenario& scenario() const { return scenario_; }

    /// Simulates the whole scenario with `scaler` (which keeps its state afterwards).
    /// \throws InvalidArgument when the scaler's decision names an unknown object or asks for an
    ///         impossible size (beyond max_size, below min_size, negative replicas).
    template <Scaler S>
    SimulationResult run(S& scaler) {
        reset();
        const auto& config = scenario_.config;
        for (Time now{0}; now < config.duration; now += config.tick) {
            now_ = now;
            advance_lifecycles();
            read_loads();
            reconcile_deployments();
            schedule();
            compute_usage();
            refresh_status();
            Decision decision = scaler.decide(snapshot());
            apply(decision);
            expire_pending();
            refresh_status();
            record();
        }
        return finish();
    }
    template <Scaler S>
    SimulationResult run(S&& scaler) {
        S local = std::forward<S>(scaler);
        return run(local);
    }

private:
    enum class PodPhase : std::uint8_t { waiting_quota, pending, starting, running };
    struct Pod {
        std::size_t deployment = 0;
        std::size_t ns = 0;
        std::int64_t cpu = 0;
        std::int64_t memory = 0;
        PodPhase phase = PodPhase::waiting_quota;
        Time created{0};
        Time ready_at{0};
        std::int64_t node = -1;  // index into nodes_
        std::size_t record = 0;  // index into pod records (when recorded)
        bool alive = true;
        bool waited_for_capacity = false;
        double usage = 0;  // millicores this tick
        std::uint32_t generation = 0;  // the deployment's pod template when created
    };
    struct Node {
        NodeStatus status;
        bool alive = true;
    };
    struct NamespaceState {
        std::int64_t quota_cpu = -1;
        std::int64_t quota_memory = -1;
        std::int64_t quota_pods = -1;
        std::int64_t admitted_pods = 0;
        // accumulators
        double quota_core_seconds = 0;
        double demand_core_seconds = 0;
        double pending_pod_seconds = 0;
        std::int64_t succeeded = 0;
    };
    struct DeploymentState {
        double load = 0;
        int alive_pods = 0;
        std::uint32_t generation = 0;  // bumped when a decision re-pins the deployment (new pod template)
        bool ever_ready = false;
        int min_ready_after_first = std::numeric_limits<int>::max();
        int max_ready = 0;
        double max_desired = 0;
        double downtime = 0;
        double unserved = 0;
        double demand = 0;
        std::vector<double> utilisation;  // one sample per tick with ready pods
    };

    void reset() {
        const auto& s = scenario_;
        nodes_.clear();
        pods_.clear();
        records_.clear();
        pool_status_.assign(s.pools.size(), {});
        pool_node_seconds_.assign(s.pools.size(), 0.0);
        pool_cost_.assign(s.pools.size(), 0.0);
        pool_max_nodes_.assign(s.pools.size(), 0);
        pool_serial_.assign(s.pools.size(), 0);
        namespace_status_.clear();
        namespace_state_.assign(s.namespaces.size(), {});
        namespace_lookup_.clear();
        for (std::size_t i = 0; i < s.namespaces.size(); ++i) {
            NamespaceStatus st;
            st.name = s.namespaces[i].name;
            namespace_status_.push_back(st);
            namespace_lookup_.emplace(st.name, i);
            set_quota(i, s.namespaces[i].quota);
        }
        deployment_status_.clear();
        deployment_state_.assign(s.deployments.size(), {});
        deployment_lookup_.clear();
        for (std::size_t i = 0; i < s.deployments.size(); ++i) {
            const auto& d = s.deployments[i];
            DeploymentStatus st;
            st.name = d.name;
            st.namespace_index = namespace_lookup_.at(d.namespace_name);
            st.replicas_from = d.replicas_from;
            st.pod_cpu = d.pod_request.cpu_millis();
            st.pod_memory = d.pod_request.memory_bytes();
            st.desired = d.replicas_from == ReplicaControl::scaler ? d.initial_replicas : 0;
            deployment_status_.push_back(st);
            deployment_lookup_.emplace(d.name, i);
        }
        for (std::size_t p = 0; p < s.pools.size(); ++p) {
            for (std::size_t i = 0; i < s.deployments.size(); ++i) {
                if (s.deployments[i].node_pool == s.pools[p].name) deployment_status_[i].pinned_pool = p;
            }
        }
        pool_lookup_.clear();
        node_lookup_.clear();
        for (std::size_t p = 0; p < s.pools.size(); ++p) {
            pool_lookup_.emplace(s.pools[p].name, p);
            const int initial = std::max(s.pools[p].initial_size, s.pools[p].min_size);
            for (int k = 0; k < initial; ++k) add_node(p, Time{0}, Time{0}, NodePhase::ready);
        }
        total_cost_ = 0;
        pending_pod_seconds_ = 0;
        evictions_ = 0;
        failed_ = 0;
        succeeded_ = 0;
        utilisation_weighted_ = 0;
        utilisation_weight_ = 0;
        efficiency_ = PercentDistribution{};
        series_ = TimeSeriesTable{};
        next_sample_ = Time{0};
        ready_delays_since_sample_.clear();
        setup_series();
    }

    void set_quota(std::size_t ns, const std::optional<Resources>& quota) {
        auto& state = namespace_state_[ns];
        auto& status = namespace_status_[ns];
        state.quota_cpu = state.quota_memory = state.quota_pods = -1;
        status.quota = quota;
        if (quota) {
            for (const auto& [key, value] : *quota) {
                if (value < 0) throw InvalidArgument(continuum::detail::message("quota for namespace \"{}\": {} must be >= 0", status.name, quota->to_string()));
                if (detail::is_cpu_key(key)) {
                    state.quota_cpu = value;
                } else if (detail::is_memory_key(key)) {
                    state.quota_memory = value;
                } else if (detail::is_pods_key(key)) {
                    state.quota_pods = value;
                } else {
                    throw InvalidArgument(continuum::detail::message("quota for namespace \"{}\": resource \"{}\" is not simulated (cpu, memory, pods)", status.name, key));
                }
            }
            // A quota that lists cpu, memory or pods as 0 is absent from Resources; an explicit
            // empty quota means nothing may run, as in Kubernetes only for listed resources.
        }
        status.quota_cpu = state.quota_cpu;
    }

    void add_node(std::size_t pool, Time requested, Time ready_at, NodePhase phase) {
        const auto& spec = scenario_.pools[pool];
        Node node;
        node.status.name = continuum::detail::message("{}-{}", spec.name, pool_serial_[pool]++);
        node.status.pool = pool;
        node.status.phase = phase;
        node.status.requested_at = requested;
        node.status.ready_at = ready_at;
        node.status.cpu_capacity = spec.capacity.cpu_millis();
        node.status.memory_capacity = spec.capacity.memory_bytes();
        node_lookup_.emplace(node.status.name, nodes_.size());
        nodes_.push_back(std::move(node));
        auto& ps = pool_status_[pool];
        (phase == NodePhase::ready ? ps.ready : ps.provisioning) += 1;
    }

    void advance_lifecycles() {
        for (auto& node : nodes_) {
            if (node.alive && node.status.phase == NodePhase::provisioning && node.status.ready_at <= now_) {
                node.status.phase = NodePhase::ready;
                pool_status_[node.status.pool].provisioning -= 1;
                pool_status_[node.status.pool].ready += 1;
            }
        }
        for (auto& pod : pods_) {
            if (pod.alive && pod.phase == PodPhase::starting && pod.ready_at <= now_) {
                pod.phase = PodPhase::running;
                namespace_state_[pod.ns].succeeded += 1;
                ++succeeded_;
                if (scenario_.config.record.pod_records) records_[pod.record].ready = pod.ready_at;
                ready_delays_since_sample_.push_back(to_seconds(pod.ready_at - pod.created));
            }
        }
    }

    void read_loads() {
        const Duration t = now_;
        for (std::size_t i = 0; i < scenario_.deployments.size(); ++i) {
            const auto& spec = scenario_.deployments[i];
            auto& st = deployment_status_[i];
            const double load = std::max(0.0, spec.load.at(t));
            deployment_state_[i].load = load;
            if (spec.load_kind == LoadKind::cpu_cores) {
                st.cpu_demand_cores = load;
            }
            if (spec.replicas_from == ReplicaControl::workload) {
                if (spec.load_kind == LoadKind::replicas) {
                    st.desired = static_cast<int>(std::min<double>(std::lround(load), 1e7));
                } else {
                    st.desired = static_cast<int>(std::min(std::ceil(load * 1000.0 / static_cast<double>(st.pod_cpu) - 1e-9), 1e7));
                }
            }
            if (spec.load_kind == LoadKind::replicas) {
                st.cpu_demand_cores = static_cast<double>(st.desired) * spec.usage_per_pod * static_cast<double>(st.pod_cpu) / 1000.0;
            }
        }
    }

    void create_pod(std::size_t deployment) {
        const auto& st = deployment_status_[deployment];
        Pod pod;
        pod.deployment = deployment;
        pod.ns = st.namespace_index;
        pod.cpu = st.pod_cpu;
        pod.memory = st.pod_memory;
        pod.created = now_;
        pod.generation = deployment_state_[deployment].generation;
        if (scenario_.config.record.pod_records) {
            pod.record = records_.size();
            records_.push_back(PodRecord{deployment, pod.ns, now_, std::nullopt, false, false});
        }
        pods_.push_back(pod);
    }

    void remove_pod(Pod& pod) {
        if (!pod.alive) return;
        pod.alive = false;
        if (pod.phase != PodPhase::waiting_quota) {
            namespace_status_[pod.ns].requested_cpu -= pod.cpu;
            namespace_status_[pod.ns].requested_memory -= pod.memory;
            namespace_state_[pod.ns].admitted_pods -= 1;
        }
        if (pod.node >= 0) {
            auto& node = nodes_[static_cast<std::size_t>(pod.node)].status;
            node.cpu_requested -= pod.cpu;
            node.memory_requested -= pod.memory;
            node.pods -= 1;
        }
    }

    void reconcile_deployments() {
        // Alive pods per deployment, then create or delete to match the desired count.
        for (auto& state : deployment_state_) state.alive_pods = 0;
        for (const auto& pod : pods_) {
            if (pod.alive) deployment_state_[pod.deployment].alive_pods += 1;
        }
        for (std::size_t d = 0; d < deployment_status_.size(); ++d) {
            if (roll_out(d)) continue;
            const int desired = deployment_status_[d].desired;
            int alive = deployment_state_[d].alive_pods;
            for (; alive < desired; ++alive) create_pod(d);
            if (alive > desired) {
                int surplus = alive - desired;
                // ReplicaSet deletion order: unscheduled before scheduled, not ready before ready,
                // newer before older.
                for (PodPhase phase : {PodPhase::waiting_quota, PodPhase::pending, PodPhase::starting, PodPhase::running}) {
                    for (auto it = pods_.rbegin(); it != pods_.rend() && surplus > 0; ++it) {
                        if (it->alive && it->deployment == d && it->phase == phase) {
                            remove_pod(*it);
                            --surplus;
                        }
                    }
                }
            }
        }
        compact_pods();
    }

    /// A Deployment rollout after a pod-template change (maxSurge rollout_max_surge_percent,
    /// maxUnavailable 0): outdated pods that are not Ready go at once, new pods are created up to
    /// desired + surge pods in all, and Ready outdated pods are deleted only while Ready pods exceed
    /// the desired count. Returns false when the deployment has no outdated pod (plain scaling).
    bool roll_out(std::size_t d) {
        const std::uint32_t generation = deployment_state_[d].generation;
        int current = 0, current_running = 0, outdated = 0, outdated_running = 0;
        for (const auto& pod : pods_) {
            if (!pod.alive || pod.deployment != d) continue;
            const bool running = pod.phase == PodPhase::running;
            if (pod.generation == generation) {
                ++current;
                current_running += running ? 1 : 0;
            } else {
                ++outdated;
                outdated_running += running ? 1 : 0;
            }
        }
        if (outdated == 0) return false;
        const int desired = deployment_status_[d].desired;
        const int surge = desired == 0 ? 0 : std::max(1, (desired * scenario_.config.rollout_max_surge_percent + 99) / 100);
        // Outdated pods that serve nothing, then the newest current pods beyond the desired count.
        for (auto& pod : pods_) {
            if (pod.alive && pod.deployment == d && pod.generation != generation && pod.phase != PodPhase::running) {
                remove_pod(pod);
                --outdated;
            }
        }
        for (PodPhase phase : {PodPhase::waiting_quota, PodPhase::pending, PodPhase::starting, PodPhase::running}) {
            for (auto it = pods_.rbegin(); it != pods_.rend() && current > desired; ++it) {
                if (it->alive && it->deployment == d && it->generation == generation && it->phase == phase) {
                    current_running -= phase == PodPhase::running ? 1 : 0;
                    remove_pod(*it);
                    --current;
                }
            }
        }
        for (; current < desired && current + outdated < desired + surge; ++current) create_pod(d);
        // Ready outdated pods, oldest first, while the Ready count stays at or above desired.
        for (auto& pod : pods_) {
            if (current_running + outdated_running <= desired) break;
            if (pod.alive && pod.deployment == d && pod.generation != generation && pod.phase == PodPhase::running) {
                remove_pod(pod);
                --outdated_running;
            }
        }
        return true;
    }

    void compact_pods() {
        pods_.erase(std::remove_if(pods_.begin(), pods_.end(), [](const Pod& p) { return !p.alive; }), pods_.end());
    }

    bool quota_admits(std::size_t ns, const Pod& pod) const {
        const auto& state = namespace_state_[ns];
        const auto& status = namespace_status_[ns];
        if (!status.quota) return true;
        if (state.quota_cpu >= 0 && status.requested_cpu + pod.cpu > state.quota_cpu) return false;
        if (state.quota_memory >= 0 && status.requested_memory + pod.memory > state.quota_memory) return false;
        if (state.quota_pods >= 0 && state.admitted_pods + 1 > state.quota_pods) return false;
        return true;
    }

    void schedule() {
        const Duration startup = now_ == Time{0} && scenario_.config.initial_pods_ready ? Duration{0} : scenario_.config.pod_startup;
        for (auto& pod : pods_) {
            if (!pod.alive) continue;
            if (pod.phase == PodPhase::waiting_quota) {
                if (!quota_admits(pod.ns, pod)) continue;
                pod.phase = PodPhase::pending;
                namespace_status_[pod.ns].requested_cpu += pod.cpu;
                namespace_status_[pod.ns].requested_memory += pod.memory;
                namespace_state_[pod.ns].admitted_pods += 1;
            }
            if (pod.phase != PodPhase::pending) continue;
            std::optional<std::size_t> chosen;
            double best_free = -1.0;
            for (std::size_t n = 0; n < nodes_.size(); ++n) {
                const auto& node = nodes_[n].status;
                if (!nodes_[n].alive || node.phase != NodePhase::ready) continue;
                const auto& pin = deployment_status_[pod.deployment].pinned_pool;
                if (pin && node.pool != *pin) continue;
                if (node.cpu_requested + pod.cpu > node.cpu_capacity || node.memory_requested + pod.memory > node.memory_capacity) continue;
                if (scenario_.config.scheduling == SchedulingPolicy::first_fit) {
                    chosen = n;
                    break;
                }
                const double free = static_cast<double>(node.cpu_capacity - node.cpu_requested) / static_cast<double>(node.cpu_capacity);
                if (free > best_free + 1e-12) {
                    best_free = free;
                    chosen = n;
                }
            }
            if (chosen) {
                auto& node = nodes_[*chosen].status;
                node.cpu_requested += pod.cpu;
                node.memory_requested += pod.memory;
                node.pods += 1;
                pod.node = static_cast<std::int64_t>(*chosen);
                pod.phase = PodPhase::starting;
                pod.ready_at = now_ + startup;
            }
            if (pod.phase == PodPhase::pending) {
                pod.waited_for_capacity = true;
                if (scenario_.config.record.pod_records) records_[pod.record].waited_for_capacity = true;
            }
        }
        // Pods with zero start-up become ready within the same tick.
        if (startup.count() == 0) advance_lifecycles();
    }

    void compute_usage() {
        for (auto& node : nodes_) node.status.cpu_used = 0;
        std::vector<int> ready(deployment_status_.size(), 0);
        for (const auto& pod : pods_) {
            if (pod.alive && pod.phase == PodPhase::running) ready[pod.deployment] += 1;
        }
        // Desired usage per pod, then scale down on overcommitted nodes (only possible with limits > requests).
        std::vector<double> node_desired(nodes_.size(), 0.0);
        for (auto& pod : pods_) {
            pod.usage = 0;
            if (!pod.alive || pod.phase != PodPhase::running) continue;
            const auto& spec = scenario_.deployments[pod.deployment];
            const double limit = static_cast<double>(pod.cpu) * spec.cpu_limit_factor;
            double want = 0;
            if (spec.load_kind == LoadKind::replicas) {
                want = spec.usage_per_pod * static_cast<double>(pod.cpu);
            } else {
                want = deployment_status_[pod.deployment].cpu_demand_cores * 1000.0 / ready[pod.deployment];
            }
            pod.usage = std::min(want, limit);
            node_desired[static_cast<std::size_t>(pod.node)] += pod.usage;
        }
        for (auto& st : deployment_status_) st.cpu_used_cores = 0;
        for (auto& pod : pods_) {
            if (!pod.alive || pod.phase != PodPhase::running) continue;
            const auto n = static_cast<std::size_t>(pod.node);
            const double capacity = static_cast<double>(nodes_[n].status.cpu_capacity);
            if (node_desired[n] > capacity) pod.usage *= capacity / node_desired[n];
            nodes_[n].status.cpu_used += static_cast<std::int64_t>(std::llround(pod.usage));
            deployment_status_[pod.deployment].cpu_used_cores += pod.usage / 1000.0;
        }
    }

    void refresh_status() {
        for (auto& st : deployment_status_) {
            st.ready = st.starting = st.pending = 0;
            st.ready_per_pool.assign(scenario_.pools.size(), 0);
        }
        for (auto& ns : namespace_status_) {
            ns.demand_cpu = 0;
            ns.used_cpu = 0;
            ns.pending_pods = 0;
            ns.quota_rejected_pods = 0;
        }
        pending_.clear();
        for (const auto& pod : pods_) {
            if (!pod.alive) continue;
            auto& st = deployment_status_[pod.deployment];
            switch (pod.phase) {
                case PodPhase::running:
                    st.ready += 1;
                    st.ready_per_pool[nodes_[static_cast<std::size_t>(pod.node)].status.pool] += 1;
                    break;
                case PodPhase::starting: st.starting += 1; break;
                case PodPhase::waiting_quota:
                case PodPhase::pending: {
                    st.pending += 1;
                    auto& ns = namespace_status_[pod.ns];
                    ns.pending_pods += 1;
                    const auto reason = pod.phase == PodPhase::waiting_quota ? PendingReason::quota : PendingReason::unschedulable;
                    if (reason == PendingReason::quota) ns.quota_rejected_pods += 1;
                    pending_.push_back(PendingPod{pod.deployment, pod.ns, pod.cpu, pod.memory, pod.created, reason});
                    break;
                }
            }
        }
        for (std::size_t d = 0; d < deployment_status_.size(); ++d) {
            auto& st = deployment_status_[d];
            auto& ns = namespace_status_[st.namespace_index];
            ns.demand_cpu += static_cast<std::int64_t>(st.desired) * st.pod_cpu;
            ns.used_cpu += static_cast<std::int64_t>(std::llround(st.cpu_used_cores * 1000.0));
            st.utilisation = st.ready > 0 ? st.cpu_used_cores * 1000.0 / (static_cast<double>(st.ready) * static_cast<double>(st.pod_cpu)) : 0.0;
        }
        live_nodes_.clear();
        live_index_.assign(nodes_.size(), 0);
        for (std::size_t n = 0; n < nodes_.size(); ++n) {
            if (!nodes_[n].alive) continue;
            live_index_[n] = live_nodes_.size();
            live_nodes_.push_back(nodes_[n].status);
        }
        bound_.clear();
        for (const auto& pod : pods_) {
            if (!pod.alive || pod.node < 0) continue;
            bound_.push_back(BoundPod{pod.deployment, live_index_[static_cast<std::size_t>(pod.node)], pod.cpu, pod.memory, pod.phase == PodPhase::running});
        }
    }

    [[nodiscard]] Snapshot snapshot() const {
        Snapshot s;
        s.now = now_;
        s.tick = scenario_.config.tick;
        s.pool_specs = scenario_.pools;
        s.pools = pool_status_;
        s.nodes = live_nodes_;
        s.namespaces = namespace_status_;
        s.deployments = deployment_status_;
        s.pending = pending_;
        s.bound = bound_;
        return s;
    }

    void release_node(std::size_t n) {
        auto& node = nodes_[n];
        if (!node.alive) return;
        for (auto& pod : pods_) {
            if (pod.alive && pod.node == static_cast<std::int64_t>(n)) {
                remove_pod(pod);
                ++evictions_;
            }
        }
        node.alive = false;
        auto& ps = pool_status_[node.status.pool];
        (node.status.phase == NodePhase::ready ? ps.ready : ps.provisioning) -= 1;
        node_lookup_.erase(node.status.name);
    }

    void apply(const Decision& decision) {
        for (const auto& change : decision.quotas) {
            const auto it = namespace_lookup_.find(change.namespace_name);
            if (it == namespace_lookup_.end()) throw InvalidArgument(continuum::detail::message("decision: unknown namespace \"{}\" (reason: {})", change.namespace_name, decision.reason));
            set_quota(it->second, change.hard);
        }
        for (const auto& change : decision.replicas) {
            const auto it = deployment_lookup_.find(change.deployment);
            if (it == deployment_lookup_.end()) throw InvalidArgument(continuum::detail::message("decision: unknown deployment \"{}\"", change.deployment));
            if (change.replicas < 0) throw InvalidArgument(continuum::detail::message("decision: replicas for \"{}\" must be >= 0, got {}", change.deployment, change.replicas));
            if (scenario_.deployments[it->second].replicas_from != ReplicaControl::scaler) {
                throw InvalidArgument(continuum::detail::message("decision: deployment \"{}\" follows its workload; the scaler cannot set its replicas", change.deployment));
            }
            deployment_status_[it->second].desired = change.replicas;
            if (!change.node_pool.empty()) {
                const auto pool = pool_lookup_.find(change.node_pool);
                if (pool == pool_lookup_.end()) throw InvalidArgument(continuum::detail::message("decision: deployment \"{}\" pinned to unknown pool \"{}\"", change.deployment, change.node_pool));
                auto& pinned = deployment_status_[it->second].pinned_pool;
                if (pinned != pool->second) deployment_state_[it->second].generation += 1;  // a rollout starts
                pinned = pool->second;
            }
        }
        for (const auto& release : decision.releases) {
            const auto it = node_lookup_.find(release.node);
            if (it == node_lookup_.end()) throw InvalidArgument(continuum::detail::message("decision: unknown or released node \"{}\"", release.node));
            const auto& pool = scenario_.pools[nodes_[it->second].status.pool];
            if (pool_status_[nodes_[it->second].status.pool].size() - 1 < pool.min_size) {
                throw InvalidArgument(continuum::detail::message("decision: releasing \"{}\" takes pool \"{}\" below min_size {}", release.node, pool.name, pool.min_size));
            }
            release_node(it->second);
        }
        for (const auto& resize : decision.pools) {
            const auto it = pool_lookup_.find(resize.pool);
            if (it == pool_lookup_.end()) throw InvalidArgument(continuum::detail::message("decision: unknown node pool \"{}\"", resize.pool));
            const std::size_t p = it->second;
            const auto& spec = scenario_.pools[p];
            if (resize.size < spec.min_size || (spec.max_size != unlimited_nodes && resize.size > spec.max_size)) {
                throw InvalidArgument(continuum::detail::message("decision: pool \"{}\" size {} outside [{}, {}]", spec.name, resize.size, spec.min_size,
                                                                 spec.max_size == unlimited_nodes ? std::string("unlimited") : std::to_string(spec.max_size)));
            }
            int size = pool_status_[p].size();
            for (; size < resize.size; ++size) add_node(p, now_, now_ + spec.latency(), NodePhase::provisioning);
            while (size > resize.size) {
                // Cancel the newest provisioning node, else release the ready node with fewest pods (newest on ties).
                std::optional<std::size_t> victim;
                for (std::size_t n = nodes_.size(); n-- > 0;) {
                    const auto& node = nodes_[n];
                    if (node.alive && node.status.pool == p && node.status.phase == NodePhase::provisioning) {
                        victim = n;
                        break;
                    }
                }
                if (!victim) {
                    for (std::size_t n = nodes_.size(); n-- > 0;) {
                        const auto& node = nodes_[n];
                        if (node.alive && node.status.pool == p && (!victim || node.status.pods < nodes_[*victim].status.pods)) victim = n;
                    }
                }
                release_node(*victim);
                --size;
            }
        }
        compact_pods();
    }

    void expire_pending() {
        const Duration timeout = scenario_.config.pending_timeout;
        for (auto& pod : pods_) {
            if (!pod.alive || (pod.phase != PodPhase::waiting_quota && pod.phase != PodPhase::pending)) continue;
            // now_ + tick: the pod has been pending through the end of this tick.
            if (now_ + scenario_.config.tick - pod.created > timeout) {
                if (scenario_.config.record.pod_records) records_[pod.record].failed = true;
                namespace_status_[pod.ns].failed_deployments += 1;
                ++failed_;
                remove_pod(pod);
            }
        }
        compact_pods();
    }

    void setup_series() {
        const auto& rec = scenario_.config.record;
        auto& t = series_;
        col_time_ = t.add_column("time_s");
        col_cost_rate_ = t.add_column("cost_per_minute");
        col_cost_ = t.add_column("cost_cumulative");
        col_nodes_ = t.add_column("nodes");
        col_capacity_ = t.add_column("cpu_capacity_cores");
        col_requested_ = t.add_column("cpu_requested_cores");
        col_used_ = t.add_column("cpu_used_cores");
        col_pending_ = t.add_column("pending_pods");
        col_eta_ = t.add_column("efficiency_mean_pct");
        col_delay_ = t.add_column("deployment_delay_s");
        col_pools_.clear();
        for (const auto& pool : scenario_.pools) col_pools_.push_back(t.add_column("nodes_" + pool.name));
        col_namespaces_.clear();
        if (rec.per_namespace) {
            for (const auto& ns : scenario_.namespaces) {
                col_namespaces_.push_back({t.add_column("quota_cores_" + ns.name), t.add_column("demand_cores_" + ns.name),
                                           t.add_column("requested_cores_" + ns.name), t.add_column("used_cores_" + ns.name)});
            }
        }
        col_deployments_.clear();
        if (rec.per_deployment) {
            for (const auto& d : scenario_.deployments) {
                col_deployments_.push_back({t.add_column("desired_" + d.name), t.add_column("ready_" + d.name), t.add_column("utilisation_pct_" + d.name),
                                            t.add_column("demand_cores_" + d.name), t.add_column("used_cores_" + d.name)});
            }
        }
    }

    void record() {
        const auto& config = scenario_.config;
        const double dt = to_seconds(config.tick);
        // Cost, node-seconds, efficiency (eta per node slot: ready = used/capacity, provisioning = 0,
        // idle slots of bounded pools = 100).
        double cost_rate = 0;
        double eta_sum = 0;
        double eta_count = 0;
        std::int64_t capacity = 0;
        std::int64_t requested = 0;
        std::int64_t used = 0;
        for (const auto& node : nodes_) {
            if (!node.alive) continue;
            const auto& st = node.status;
            const auto& pool = scenario_.pools[st.pool];
            cost_rate += pool.cost_per_minute;
            pool_cost_[st.pool] += pool.cost_per_minute * dt / 60.0;
            pool_node_seconds_[st.pool] += dt;
            const double eta = st.ready() ? 100.0 * static_cast<double>(st.cpu_used) / static_cast<double>(st.cpu_capacity) : 0.0;
            efficiency_.add(eta, dt);
            eta_sum += eta;
            eta_count += 1;
            if (st.ready()) {
                capacity += st.cpu_capacity;
                requested += st.cpu_requested;
                used += st.cpu_used;
            }
        }
        for (std::size_t p = 0; p < scenario_.pools.size(); ++p) {
            const auto& pool = scenario_.pools[p];
            pool_max_nodes_[p] = std::max(pool_max_nodes_[p], pool_status_[p].size());
            if (pool.max_size != unlimited_nodes) {
                const int idle = pool.max_size - pool_status_[p].size();
                if (idle > 0) {
                    efficiency_.add(100.0, dt * idle);
                    eta_sum += 100.0 * idle;
                    eta_count += idle;
                }
            }
        }
        total_cost_ += cost_rate * dt / 60.0;
        if (capacity > 0) {
            utilisation_weighted_ += dt * static_cast<double>(used) / static_cast<double>(capacity);
            utilisation_weight_ += dt;
        }
        // Namespaces: quota vs demand, pending time.
        for (std::size_t i = 0; i < namespace_status_.size(); ++i) {
            const auto& st = namespace_status_[i];
            auto& acc = namespace_state_[i];
            acc.pending_pod_seconds += dt * st.pending_pods;
            pending_pod_seconds_ += dt * st.pending_pods;
            if (st.quota_cpu >= 0 && st.demand_cpu > 0) {
                acc.quota_core_seconds += dt * static_cast<double>(st.quota_cpu) / 1000.0;
                acc.demand_core_seconds += dt * static_cast<double>(st.demand_cpu) / 1000.0;
            }
        }
        for (std::size_t d = 0; d < deployment_status_.size(); ++d) {
            const auto& st = deployment_status_[d];
            auto& acc = deployment_state_[d];
            acc.max_ready = std::max(acc.max_ready, st.ready);
            acc.max_desired = std::max(acc.max_desired, static_cast<double>(st.desired));
            if (st.ready > 0) {
                acc.ever_ready = true;
                acc.utilisation.push_back(100.0 * st.utilisation);
            }
            if (acc.ever_ready) {
                acc.min_ready_after_first = std::min(acc.min_ready_after_first, st.ready);
                if (st.ready == 0 && st.cpu_demand_cores > 0) acc.downtime += dt;
            }
            acc.demand += dt * st.cpu_demand_cores;
            acc.unserved += dt * std::max(0.0, st.cpu_demand_cores - st.cpu_used_cores);
        }
        // Time series.
        if (now_ < next_sample_) return;
        const Duration every = config.record.sample_every.count() > 0 ? config.record.sample_every : config.tick;
        next_sample_ = now_ + every;
        auto& t = series_;
        const auto row = t.add_row();
        t.set(col_time_, row, to_seconds(now_));
        t.set(col_cost_rate_, row, cost_rate);
        t.set(col_cost_, row, total_cost_);
        int node_count = 0;
        for (std::size_t p = 0; p < pool_status_.size(); ++p) {
            t.set(col_pools_[p], row, pool_status_[p].size());
            node_count += pool_status_[p].size();
        }
        t.set(col_nodes_, row, node_count);
        t.set(col_capacity_, row, static_cast<double>(capacity) / 1000.0);
        t.set(col_requested_, row, static_cast<double>(requested) / 1000.0);
        t.set(col_used_, row, static_cast<double>(used) / 1000.0);
        t.set(col_pending_, row, static_cast<double>(pending_.size()));
        t.set(col_eta_, row, eta_count > 0 ? eta_sum / eta_count : 100.0);
        double delay = 0;
        for (double v : ready_delays_since_sample_) delay = std::max(delay, v);
        ready_delays_since_sample_.clear();
        t.set(col_delay_, row, delay);
        for (std::size_t i = 0; i < col_namespaces_.size(); ++i) {
            const auto& st = namespace_status_[i];
            t.set(col_namespaces_[i][0], row, st.quota_cpu >= 0 ? static_cast<double>(st.quota_cpu) / 1000.0 : 0.0);
            t.set(col_namespaces_[i][1], row, static_cast<double>(st.demand_cpu) / 1000.0);
            t.set(col_namespaces_[i][2], row, static_cast<double>(st.requested_cpu) / 1000.0);
            t.set(col_namespaces_[i][3], row, static_cast<double>(st.used_cpu) / 1000.0);
        }
        for (std::size_t d = 0; d < col_deployments_.size(); ++d) {
            const auto& st = deployment_status_[d];
            t.set(col_deployments_[d][0], row, st.desired);
            t.set(col_deployments_[d][1], row, st.ready);
            t.set(col_deployments_[d][2], row, 100.0 * st.utilisation);
            t.set(col_deployments_[d][3], row, st.cpu_demand_cores);
            t.set(col_deployments_[d][4], row, st.cpu_used_cores);
        }
    }

    SimulationResult finish() {
        SimulationResult out;
        out.simulated = scenario_.config.duration;
        out.total_cost = total_cost_;
        for (std::size_t p = 0; p < scenario_.pools.size(); ++p) {
            out.pools.push_back(PoolSummary{scenario_.pools[p].name, pool_cost_[p], pool_node_seconds_[p], pool_max_nodes_[p]});
        }
        for (std::size_t i = 0; i < namespace_status_.size(); ++i) {
            const auto& acc = namespace_state_[i];
            NamespaceSummary ns;
            ns.name = namespace_status_[i].name;
            if (acc.demand_core_seconds > 0) ns.quota_sufficiency_ratio = 100.0 * acc.quota_core_seconds / acc.demand_core_seconds;
            ns.deployments_succeeded = acc.succeeded;
            ns.deployments_failed = namespace_status_[i].failed_deployments;
            const auto attempts = ns.deployments_succeeded + ns.deployments_failed;
            ns.deployment_failure_ratio = attempts > 0 ? 100.0 * static_cast<double>(ns.deployments_failed) / static_cast<double>(attempts) : 0.0;
            ns.pending_pod_seconds = acc.pending_pod_seconds;
            ns.quota_core_seconds = acc.quota_core_seconds;
            ns.demand_core_seconds = acc.demand_core_seconds;
            out.namespaces.push_back(std::move(ns));
        }
        for (std::size_t d = 0; d < deployment_status_.size(); ++d) {
            auto& acc = deployment_state_[d];
            DeploymentSummary s;
            s.name = deployment_status_[d].name;
            s.utilisation = SampleStats::of(std::move(acc.utilisation));
            s.downtime_seconds = acc.downtime;
            s.min_ready_after_first_ready = acc.ever_ready ? acc.min_ready_after_first : 0;
            s.max_ready = acc.max_ready;
            s.max_desired = acc.max_desired;
            s.unserved_core_seconds = acc.unserved;
            s.demand_core_seconds = acc.demand;
            out.deployments.push_back(std::move(s));
        }
        out.efficiency = efficiency_;
        std::vector<double> delays;
        for (const auto& r : records_) {
            if (r.ready) delays.push_back(r.delay_seconds());
        }
        out.deployment_delay = SampleStats::of(std::move(delays));
        out.deployments_succeeded = succeeded_;
        out.deployments_failed = failed_;
        const auto attempts = succeeded_ + failed_;
        out.deployment_failure_ratio = attempts > 0 ? 100.0 * static_cast<double>(failed_) / static_cast<double>(attempts) : 0.0;
        out.pending_pod_seconds = pending_pod_seconds_;
        out.evictions = evictions_;
        out.mean_cluster_cpu_utilisation = utilisation_weight_ > 0 ? 100.0 * utilisation_weighted_ / utilisation_weight_ : 0.0;
        out.series = std::move(series_);
        out.pods = std::move(records_);
        return out;
    }

    Scenario scenario_;
    Time now_{0};
    std::vector<Node> nodes_;
    std::vector<NodeStatus> live_nodes_;
    std::vector<std::size_t> live_index_;  // nodes_ index -> live_nodes_ index (alive nodes)
    std::vector<BoundPod> bound_;
    std::vector<Pod> pods_;
    std::vector<PodRecord> records_;
    std::vector<PoolStatus> pool_status_;
    std::vector<double> pool_node_seconds_;
    std::vector<double> pool_cost_;
    std::vector<int> pool_max_nodes_;
    std::vector<int> pool_serial_;
    std::vector<NamespaceStatus> namespace_status_;
    std::vector<NamespaceState> namespace_state_;
    std::vector<DeploymentStatus> deployment_status_;
    std::vector<DeploymentState> deployment_state_;
    std::vector<PendingPod> pending_;
    std::unordered_map<std::string, std::size_t> namespace_lookup_;
    std::unordered_map<std::string, std::size_t> deployment_lookup_;
    std::unordered_map<std::string, std::size_t> pool_lookup_;
    std::unordered_map<std::string, std::size_t> node_lookup_;
    double total_cost_ = 0;
    double pending_pod_seconds_ = 0;
    std::int64_t evictions_ = 0;
    std::int64_t failed_ = 0;
    std::int64_t succeeded_ = 0;
    double utilisation_weighted_ = 0;
    double utilisation_weight_ = 0;
    PercentDistribution efficiency_;
    TimeSeriesTable series_;
    Time next_sample_{0};
    std::vector<double> ready_delays_since_sample_;
    std::size_t col_time_ = 0, col_cost_rate_ = 0, col_cost_ = 0, col_nodes_ = 0, col_capacity_ = 0, col_requested_ = 0, col_used_ = 0, col_pending_ = 0,
                col_eta_ = 0, col_delay_ = 0;
    std::vector<std::size_t> col_pools_;
    std::vector<std::array<std::size_t, 4>> col_namespaces_;
    std::vector<std::array<std::size_t, 5>> col_deployments_;
};

using Simulator = BasicSimulator<>;

}  // namespace continuum::sim
