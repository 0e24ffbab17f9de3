// Seed 001's experiment replayed (hybrid resource-quota scaling, Section 5, Figs. 5-6, Table 2): one
// namespace with bursty CPU demand; no quota scaling (a fixed 100-CPU quota) vs reactive quota scaling
// (Algorithm 2) vs hybrid (Algorithm 1 on a one-minute-ahead forecast + Algorithm 2), with paused
// waiting worker nodes resumed on demand. Metrics: QSR, DFR, deployment time in and out of bursts.
#pragma once

#include <continuum/core/resources.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/quota/levels.hpp>
#include <continuum/quota/proactive.hpp>
#include <continuum/sim/adapters/quota_scalers.hpp>
#include <continuum/sim/metrics.hpp>
#include <continuum/sim/scenario.hpp>
#include <continuum/sim/simulator.hpp>
#include <continuum/sim/static_scaler.hpp>
#include <continuum/sim/workload_shapes.hpp>

#include <chrono>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace continuum::sim::replay {

using namespace std::chrono_literals;

struct Seed001Parameters {
    BurstyCpu workload{};
    /// One workload pod: 1 CPU (the namespace's demand in cores is its pod count).
    Resources pod_request{{"cpu", "1"}};
    /// Always-on worker nodes and the paused waiting worker nodes (OpenStack VMs, 16 vCPU each).
    int active_nodes = 4;
    int waiting_nodes = 8;
    Resources node_capacity{{"cpu", "16"}, {"memory", "64Gi"}};
    double node_cost_per_minute = 1.0;  ///< the paper gives no price: cost is in node-minutes
    Duration resume_latency = default_latency::paused_vm;
    double fixed_quota_cores = 100;     ///< the "No Quota Scaling" configuration
    double initial_quota_cores = 60;    ///< where the scaled runs start
    /// Predefined quota levels for lowering (GetNearestQuotaLevel): every 10 CPUs up to 200.
    int level_step_cores = 10;
    int season_length = 60;             ///< Holt-Winters season, in forecast periods (bursts recur hourly)
    Duration tick = 1s;
};

struct Seed001Row {
    std::string configuration;
    double qsr_pct = 0;
    double dfr_pct = 0;
    double deployment_time_no_burst_s = 0;  ///< mean creation-to-Ready outside bursts
    double deployment_time_burst_s = 0;     ///< mean creation-to-Ready of pods created in bursts
    double max_deployment_time_s = 0;
    double node_minutes = 0;
    SimulationResult result;
};

struct Seed001Report {
    Seed001Parameters parameters;
    std::vector<std::pair<Duration, Duration>> bursts;
    std::vector<Seed001Row> rows;  ///< no quota scaling, reactive, hybrid
};

/// The scenario: pools "active" (always on) and "waiting" (paused VMs; `waiting_ready` of them
/// resumed at time 0), namespace "service" with quota `quota_cores`, deployment "workload".
inline Scenario seed001_scenario(const Seed001Parameters& p, const LoadProfile& load, double quota_cores, int waiting_ready) {
    Scenario s;
    NodePool active;
    active.name = "active";
    active.capacity = p.node_capacity;
    active.cost_per_minute = p.node_cost_per_minute;
    active.source = NodeSource::local;
    active.initial_size = p.active_nodes;
    active.min_size = p.active_nodes;
    active.max_size = p.active_nodes;
    active.description = "always-on worker nodes";
    NodePool waiting;
    waiting.name = "waiting";
    waiting.capacity = p.node_capacity;
    waiting.cost_per_minute = p.node_cost_per_minute;
    waiting.source = NodeSource::paused_vm;
    waiting.provisioning_latency = p.resume_latency;
    waiting.max_size = p.waiting_nodes;
    waiting.initial_size = waiting_ready;
    waiting.description = "paused waiting worker nodes (OpenStack VM pause/unpause)";
    s.pools = {active, waiting};
    s.namespaces.push_back({"service", Resources::from_cores(quota_cores)});
    DeploymentSpec d;
    d.name = "workload";
    d.namespace_name = "service";
    d.pod_request = p.pod_request;
    d.load = load;
    d.load_kind = LoadKind::cpu_cores;
    d.replicas_from = ReplicaControl::workload;
    s.deployments.push_back(d);
    s.config.tick = p.tick;
    s.config.duration = p.workload.duration;
    s.config.record.sample_every = 5s;  // the time series (Figs. 5-6); metrics use every tick
    return s;
}

/// Seed 001's row from a run: QSR and DFR of namespace "service", deployment times split by burst.
inline Seed001Row seed001_row(std::string name, SimulationResult result, const std::vector<std::pair<Duration, Duration>>& bursts) {
    Seed001Row row;
    row.configuration = std::move(name);
    const auto& ns = result.namespace_summary("service");
    row.qsr_pct = ns.quota_sufficiency_ratio.value_or(0.0);
    row.dfr_pct = ns.deployment_failure_ratio;
    std::vector<double> in_burst;
    std::vector<double> outside;
    for (const auto& pod : result.pods) {
        if (!pod.ready) continue;
        const bool burst = std::any_of(bursts.begin(), bursts.end(), [&](const auto& b) { return b.first <= pod.created && pod.created < b.second; });
        (burst ? in_burst : outside).push_back(pod.delay_seconds());
    }
    row.deployment_time_burst_s = SampleStats::of(in_burst).mean;
    row.deployment_time_no_burst_s = SampleStats::of(outside).mean;
    row.max_deployment_time_s = result.deployment_delay.max;
    for (const auto& pool : result.pools) row.node_minutes += pool.node_seconds / 60.0;
    row.result = std::move(result);
    return row;
}

/// Quota levels every `step` cores from step to 200 cores (at least 20 levels).
inline quota::QuotaLevels seed001_levels(int step_cores) {
    std::vector<std::int64_t> levels;
    for (int v = step_cores; v <= std::max(200, 20 * step_cores); v += step_cores) levels.push_back(static_cast<std::int64_t>(v) * 1000);
    return quota::QuotaLevels(levels);
}

/// Runs the three configurations. The hybrid run forecasts with additive Holt-Winters (season = one
/// burst period) fitted on the workload's history; pass another forecaster with replay_seed001_with.
/// \throws as Simulator and the quota scalers.
template <forecast::Forecaster F>
Seed001Report replay_seed001_with(F forecaster, const Seed001Parameters& p = {}, std::string forecaster_label = "hybrid") {
    Seed001Report report;
    report.parameters = p;
    const auto workload = p.workload.generate();
    report.bursts = workload.bursts;
    const auto target = adapters::QuotaTarget{"service", "waiting", true};
    const int static_nodes = static_cast<int>(std::ceil((p.fixed_quota_cores * 1000.0 - p.active_nodes * static_cast<double>(p.node_capacity.cpu_millis())) /
                                                        static_cast<double>(p.node_capacity.cpu_millis())));
    {
        Simulator sim(seed001_scenario(p, workload.load, p.fixed_quota_cores, std::clamp(static_nodes, 0, p.waiting_nodes)));
        report.rows.push_back(seed001_row("no quota scaling", sim.run(StaticScaler{}), workload.bursts));
    }
    Simulator sim(seed001_scenario(p, workload.load, p.initial_quota_cores, 0));
    report.rows.push_back(seed001_row("reactive", sim.run(adapters::ReactiveQuotaAdapter(target)), workload.bursts));
    auto hybrid = adapters::HybridQuotaAdapter<F>(target, std::move(forecaster), workload.history, adapters::hybrid_config(seed001_levels(p.level_step_cores)));
    report.rows.push_back(seed001_row(std::move(forecaster_label), sim.run(hybrid), workload.bursts));
    return report;
}

/// replay_seed001_with an additive Holt-Winters forecaster (additive trend and season).
inline Seed001Report replay_seed001(const Seed001Parameters& p = {}) {
    forecast::HoltWintersSpec spec;
    spec.trend = forecast::Trend::none;
    spec.seasonal = forecast::Seasonality::additive;
    spec.season_length = p.season_length;
    return replay_seed001_with(forecast::HoltWinters<double>(spec), p, "hybrid");
}

}  // namespace continuum::sim::replay
