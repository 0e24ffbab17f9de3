// Adapters that run continuum's quota scalers (seed 001: Algorithm 2 reactive through
// quota::ReactiveQuotaScaler, and the hybrid framework through quota::HybridQuotaScaler with any
// Forecaster) inside the simulator: they map a namespace, its quota and a pool of paused waiting
// worker nodes to the scalers' snapshots and turn the decisions into quota changes, pool resizes
// and node stops.
#pragma once

#include <continuum/core/detail/counted.hpp>
#include <continuum/capacity/waiting_pool.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/series.hpp>
#include <continuum/core/time.hpp>
#include <continuum/forecast/forecaster.hpp>
#include <continuum/quota/hybrid.hpp>
#include <continuum/quota/proactive.hpp>
#include <continuum/quota/reactive.hpp>
#include <continuum/sim/decision.hpp>
#include <continuum/sim/scaler.hpp>
#include <continuum/sim/snapshot.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim::adapters {

/// Where a quota scaler lives in the simulated cluster.
struct QuotaTarget {
    /// The namespace whose quota is scaled (the paper's FederatedResourceQuota, cpu only).
    std::string namespace_name;
    /// The pool of paused VMs (NodeSource::paused_vm, finite max_size): its inactive slots are the
    /// waiting worker nodes; activating one grows the pool.
    std::string waiting_pool;
    /// Stop (pause again) empty waiting-pool nodes the quotas no longer need (Algorithm 1 line 19,
    /// StopRedundantNode). Seed 001's reactive runs re-provision nodes at every burst (Fig. 6), so
    /// they stop nodes too.
    bool stop_redundant_nodes = true;
};

namespace detail {

/// Cluster cpu capacity (ready + provisioning nodes) minus every other namespace's cpu quota.
inline std::int64_t capacity_for(const Snapshot& snap, std::size_t ns) {
    std::int64_t capacity = 0;
    for (const auto& node : snap.nodes) capacity += node.cpu_capacity;
    for (std::size_t i = 0; i < snap.namespaces.size(); ++i) {
        if (i != ns && snap.namespaces[i].quota_cpu > 0) capacity -= snap.namespaces[i].quota_cpu;
    }
    return std::max<std::int64_t>(0, capacity);
}

/// The waiting pool's inactive slots as capacity::WaitingNode values named "<pool>/<k>".
inline std::vector<capacity::WaitingNode> waiting_nodes(const Snapshot& snap, std::size_t pool) {
    const auto& spec = snap.pool_specs[pool];
    if (spec.max_size == unlimited_nodes) throw InvalidArgument(continuum::detail::message("quota adapter: waiting pool \"{}\" must have a finite max_size", spec.name));
    std::vector<capacity::WaitingNode> out;
    for (int k = snap.pools[pool].size(); k < spec.max_size; ++k) {
        out.push_back({continuum::detail::message("{}/{}", spec.name, k), Resources::from_units({{"cpu", spec.capacity.cpu_millis()}}), spec.latency(), spec.cost_per_minute});
    }
    return out;
}

/// Empty ready nodes of the waiting pool that the total cpu quota does not need, newest first.
inline void stop_redundant(const Snapshot& snap, std::size_t pool, std::int64_t total_quota_after, Decision& d) {
    std::int64_t capacity = 0;
    for (const auto& node : snap.nodes) capacity += node.cpu_capacity;
    for (std::size_t n = snap.nodes.size(); n-- > 0;) {
        const auto& node = snap.nodes[n];
        if (node.pool != pool || !node.ready() || node.pods > 0) continue;
        if (capacity - node.cpu_capacity < total_quota_after) break;
        capacity -= node.cpu_capacity;
        d.releases.push_back({node.name});
    }
    if (!d.releases.empty()) d.reason += continuum::detail::message("{}stop {}", d.reason.empty() ? "" : "; ", continuum::detail::counted(std::ssize(d.releases), "redundant waiting node"));
}

inline std::int64_t total_quota(const Snapshot& snap, std::size_t ns, std::int64_t own) {
    std::int64_t total = own;
    for (std::size_t i = 0; i < snap.namespaces.size(); ++i) {
        if (i != ns && snap.namespaces[i].quota_cpu > 0) total += snap.namespaces[i].quota_cpu;
    }
    return total;
}

inline Resources cpu(std::int64_t millis) { return Resources::from_units({{"cpu", std::max<std::int64_t>(0, millis)}}); }

}  // namespace detail

/// Algorithm 2 on every tick with pods rejected by the quota: W_req = admitted requests plus the
/// rejected pods' requests. With `follow_demand_down` the quota is also lowered to the admitted
/// requests when nothing waits (seed 001 reports the reactive run's QSR at 100 %, which Algorithm 2
/// alone, never lowering a quota, cannot produce).
class ReactiveQuotaAdapter {
public:
    ReactiveQuotaAdapter(QuotaTarget target, quota::ReactiveConfig config = {}, bool follow_demand_down = true)
        : target_(std::move(target)), scaler_(std::move(config)), follow_demand_down_(follow_demand_down) {}

    /// \throws InvalidArgument for unknown names or an unbounded waiting pool; whatever Algorithm 2 throws.
    Decision decide(const Snapshot& snap) {
        const auto ns = snap.namespace_index(target_.namespace_name);
        const auto pool = snap.pool_index(target_.waiting_pool);
        return step(snap, ns, pool);
    }

    /// One reactive step for namespace `ns`.
    Decision step(const Snapshot& snap, std::size_t ns, std::size_t pool) {
        const auto& st = snap.namespaces[ns];
        std::int64_t waiting = 0;
        for (const auto& pod : snap.pending) {
            if (pod.namespace_index == ns && pod.reason == PendingReason::quota) waiting += pod.cpu;
        }
        const std::int64_t quota = std::max<std::int64_t>(0, st.quota_cpu);
        Decision d;
        if (waiting > 0) {
            const auto nodes = detail::waiting_nodes(snap, pool);
            quota::ReactiveSnapshot rs;
            rs.request = detail::cpu(st.requested_cpu + waiting);
            rs.current_quota = detail::cpu(quota);
            rs.available = detail::cpu(detail::capacity_for(snap, ns) - quota);
            rs.waiting_nodes = nodes;
            const auto decision = scaler_.decide(rs);
            last_reactive_case_ = decision.kind;
            if (decision.kind != quota::ReactiveCase::sufficient_quota && decision.kind != quota::ReactiveCase::infeasible) {
                d.quotas.push_back({st.name, decision.new_quota});
                const auto activate = static_cast<int>(decision.activation.count());
                if (activate > 0) d.pools.push_back({snap.pool_specs[pool].name, snap.pools[pool].size() + activate});
                d.reason = "reactive (Algorithm 2): " + decision.reason;
                ++interventions_;
            }
            return d;
        }
        if (follow_demand_down_ && st.quota_cpu > st.requested_cpu && st.pending_pods == 0) {
            d.quotas.push_back({st.name, detail::cpu(st.requested_cpu)});
            d.reason = continuum::detail::message("reactive: quota follows the admitted requests down to {}m", st.requested_cpu);
        }
        if (target_.stop_redundant_nodes) {
            const auto own = d.quotas.empty() ? quota : st.requested_cpu;
            detail::stop_redundant(snap, pool, detail::total_quota(snap, ns, own), d);
        }
        return d;
    }

    [[nodiscard]] std::int64_t interventions() const { return interventions_; }
    [[nodiscard]] const QuotaTarget& target() const { return target_; }
    [[nodiscard]] bool follow_demand_down() const { return follow_demand_down_; }

private:
    QuotaTarget target_;
    quota::ReactiveQuotaScaler scaler_;
    bool follow_demand_down_;
    std::int64_t interventions_ = 0;
    quota::ReactiveCase last_reactive_case_ = quota::ReactiveCase::sufficient_quota;
};
static_assert(Scaler<ReactiveQuotaAdapter>);

/// Algorithm 1 alone (quota::ProactiveQuotaScaler): every `forecast_period` the forecaster absorbs
/// the namespace's cpu demand (cores) and predicts the next period; the quota follows the
/// prediction (raised at once, resuming waiting nodes when the cluster lacks room; lowered to a
/// quota level once usage has come down, stopping empty waiting nodes). Pods the quota rejects
/// wait for the next prediction: pair it with the reactive side through HybridQuotaAdapter.
template <forecast::Forecaster F>
class ProactiveQuotaAdapter {
public:
    /// `history`: demand (cores) before the run, one value per forecast_period, to fit on.
    /// \throws InvalidArgument for a non-positive period; whatever the forecaster's fit throws.
    ProactiveQuotaAdapter(QuotaTarget target, F forecaster, const Series& history, quota::ProactiveConfig config = {},
                          Duration forecast_period = std::chrono::minutes(1))
        : target_(std::move(target)), forecaster_(std::move(forecaster)), scaler_(std::move(config)), period_(forecast_period) {
        if (period_.count() <= 0) throw InvalidArgument(continuum::detail::message("proactive quota adapter: forecast_period must be > 0, got {} ms", period_.count()));
        forecaster_.fit(history);
    }

    /// \throws as the proactive scaler and the forecaster.
    Decision decide(const Snapshot& snap) {
        if (last_forecast_ && snap.now - *last_forecast_ < period_) return {};
        last_forecast_ = snap.now;
        const auto ns = snap.namespace_index(target_.namespace_name);
        const auto pool = snap.pool_index(target_.waiting_pool);
        const auto& st = snap.namespaces[ns];
        forecaster_.update(static_cast<double>(st.demand_cpu) / 1000.0);
        const auto f = forecaster_.forecast(1, 0.0);
        prediction_cores_ = std::max(0.0, f.mean.empty() ? 0.0 : f.mean.front());
        const auto nodes = detail::waiting_nodes(snap, pool);
        quota::ProactiveSnapshot ps;
        ps.now = snap.now;
        ps.prediction = Resources::from_cores(prediction_cores_);
        ps.current_quota = detail::cpu(std::max<std::int64_t>(0, st.quota_cpu));
        ps.current_usage = detail::cpu(st.requested_cpu);
        ps.cluster_resources = detail::cpu(detail::capacity_for(snap, ns));
        ps.waiting_nodes = nodes;
        const auto decision = scaler_.decide(ps);
        Decision d;
        if (decision.new_quota.cpu_millis() != std::max<std::int64_t>(0, st.quota_cpu)) d.quotas.push_back({st.name, decision.new_quota});
        const auto activate = static_cast<int>(decision.activation.count());
        if (activate > 0) d.pools.push_back({snap.pool_specs[pool].name, snap.pools[pool].size() + activate});
        d.reason = continuum::detail::message("proactive (Algorithm 1, {} predicts {:.2f} cores): {}", forecaster_.name(), prediction_cores_, decision.reason);
        if (decision.action == quota::ProactiveAction::lower_quota && target_.stop_redundant_nodes) {
            detail::stop_redundant(snap, pool, detail::total_quota(snap, ns, decision.new_quota.cpu_millis()), d);
        }
        return d;
    }

    [[nodiscard]] double last_prediction_cores() const { return prediction_cores_; }
    [[nodiscard]] const F& forecaster() const { return forecaster_; }
    /// The configuration, as constructed.
    [[nodiscard]] const QuotaTarget& target() const { return target_; }
    [[nodiscard]] const quota::ProactiveConfig& config() const { return scaler_.config(); }
    [[nodiscard]] Duration forecast_period() const { return period_; }

private:
    QuotaTarget target_;
    F forecaster_;
    quota::ProactiveQuotaScaler scaler_;
    Duration period_;
    std::optional<Time> last_forecast_;
    double prediction_cores_ = 0;
};

namespace detail {

/// A forecaster whose fit() sees `prefix` (history from before the run) followed by the window it
/// is given: lets quota::HybridQuotaScaler, which fits on what it observed, start from the
/// workload's past (seed 001's model is trained beforehand).
template <forecast::Forecaster F>
class WithHistory {
public:
    WithHistory(F inner, std::vector<double> prefix) : inner_(std::move(inner)), prefix_(std::move(prefix)) {}
    void fit(SeriesView window) {
        std::vector<double> all(prefix_);
        all.insert(all.end(), window.begin(), window.end());
        inner_.fit(SeriesView(all, window.step()));
    }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double level) const { return inner_.forecast(horizon, level); }
    void update(double value) { inner_.update(value); }
    [[nodiscard]] std::string name() const { return inner_.name(); }
    [[nodiscard]] const F& inner() const { return inner_; }

private:
    F inner_;
    std::vector<double> prefix_;
};

}  // namespace detail

/// Seed 001's hybrid framework: quota::HybridQuotaScaler over the target namespace. Every
/// config.step (the forecast period, 1 min) the scaler observes the namespace's cpu demand (the
/// requests of every pod its workloads want: what seed 001 forecasts; the quota's status.used would be
/// capped by the quota), forecasts the next period (Algorithm 1 one period ahead) and handles the
/// pods the quota rejects (Algorithm 2); between periods HybridQuotaScaler::react handles them.
/// Quota changes, resumed waiting nodes (pool growth) and, after a lowered quota, stopped empty
/// waiting nodes are the decisions. The forecaster is fitted on `history` (cores, one value per
/// period) followed by what the scaler observed, at the first period (min_history is then 1).
template <forecast::Forecaster F>
class HybridQuotaAdapter {
public:
    /// \throws InvalidArgument for an invalid config (see quota::HybridConfig::validate).
    HybridQuotaAdapter(QuotaTarget target, F forecaster, const Series& history, quota::HybridConfig config = {})
        : target_(std::move(target)), scaler_(detail::WithHistory<F>(std::move(forecaster), history.values()), prepared(std::move(config), history)) {
        scaler_.add_namespace(target_.namespace_name);
    }

    /// \throws InvalidArgument for unknown names or an unbounded waiting pool; whatever the scaler and the forecaster throw.
    Decision decide(const Snapshot& snap) {
        const auto ns = snap.namespace_index(target_.namespace_name);
        const auto pool = snap.pool_index(target_.waiting_pool);
        const auto& st = snap.namespaces[ns];
        std::int64_t waiting = 0;
        for (const auto& pod : snap.pending) {
            if (pod.namespace_index == ns && pod.reason == PendingReason::quota) waiting += pod.cpu;
        }
        const bool period = !last_tick_ || snap.now - *last_tick_ >= scaler_.config().step;
        if (!period && waiting == 0) return {};
        const auto nodes = detail::waiting_nodes(snap, pool);
        quota::ClusterSnapshot cluster;
        cluster.now = snap.now;
        cluster.capacity = detail::cpu(detail::capacity_for(snap, ns));
        cluster.waiting_nodes = nodes;
        const std::int64_t quota = std::max<std::int64_t>(0, st.quota_cpu);
        quota::NamespaceSnapshot view{st.name, detail::cpu(std::max(st.demand_cpu, st.requested_cpu)), detail::cpu(quota), {}};
        const Resources request = detail::cpu(st.requested_cpu + waiting);
        if (waiting > 0) view.failed_requests.push_back(request);
        Decision d;
        if (period) {
            last_tick_ = snap.now;
            scaler_.tick(cluster, std::span<const quota::NamespaceSnapshot>(&view, 1), decision_);
            const auto& nd = decision_.namespaces.front();
            prediction_cores_ = static_cast<double>(nd.prediction.cpu_millis()) / 1000.0;
            if (nd.quota.cpu_millis() != quota) d.quotas.push_back({st.name, detail::cpu(nd.quota.cpu_millis())});
            apply_activation(snap, pool, decision_.activation, d);
            if (nd.reactive == quota::ReactiveCase::raise_quota || nd.reactive == quota::ReactiveCase::activate_nodes) ++reactive_interventions_;
            d.reason = "hybrid quota scaler: " + nd.reason();
            if (nd.proactive == quota::ProactiveAction::lower_quota && target_.stop_redundant_nodes) {
                detail::stop_redundant(snap, pool, detail::total_quota(snap, ns, nd.quota.cpu_millis()), d);
            }
            return d;
        }
        // Between periods: Algorithm 2 for the pods the quota rejects.
        const auto reactive = scaler_.react(cluster, std::span<const quota::NamespaceSnapshot>(&view, 1), st.name, request);
        if (reactive.kind == quota::ReactiveCase::sufficient_quota || reactive.kind == quota::ReactiveCase::infeasible) return d;
        d.quotas.push_back({st.name, detail::cpu(reactive.new_quota.cpu_millis())});
        apply_activation(snap, pool, reactive.activation, d);
        d.reason = "hybrid quota scaler, reactive (Algorithm 2): " + reactive.reason;
        ++reactive_interventions_;
        return d;
    }

    /// The last period's prediction (cores; 0 before the first).
    [[nodiscard]] double last_prediction_cores() const { return prediction_cores_; }
    /// Quota raises made for rejected pods (Algorithm 2), at a period or between periods.
    [[nodiscard]] std::int64_t reactive_interventions() const { return reactive_interventions_; }
    [[nodiscard]] const quota::HybridQuotaScaler<detail::WithHistory<F>>& scaler() const { return scaler_; }
    [[nodiscard]] const QuotaTarget& target() const { return target_; }

private:
    static quota::HybridConfig prepared(quota::HybridConfig config, const Series& history) {
        if (!history.values().empty()) config.min_history = 1;
        return config;
    }

    static void apply_activation(const Snapshot& snap, std::size_t pool, const capacity::ActivationPlan& plan, Decision& d) {
        const auto activate = static_cast<int>(plan.nodes.size());
        if (activate > 0) d.pools.push_back({snap.pool_specs[pool].name, snap.pools[pool].size() + activate});
    }

    QuotaTarget target_;
    quota::HybridQuotaScaler<detail::WithHistory<F>> scaler_;
    quota::HybridDecision decision_;
    std::optional<Time> last_tick_;
    double prediction_cores_ = 0;
    std::int64_t reactive_interventions_ = 0;
};

/// The hybrid config seed 001's replays use: quota levels for lowering, 1-minute periods.
inline quota::HybridConfig hybrid_config(quota::QuotaLevels levels, Duration period = std::chrono::minutes(1)) {
    quota::HybridConfig config;
    config.proactive.levels.set("cpu", std::move(levels));
    config.step = period;
    return config;
}

}  // namespace continuum::sim::adapters
