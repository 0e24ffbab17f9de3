// Python bindings for continuum/sim: load profiles and the seed papers' workload shapes, the
// Simulator driven by a static baseline or any Python callable, and the replays of seeds 000, 001 and
// 004 returning their tables as dicts.
#include "common.hpp"

#include <continuum/sim.hpp>

#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace continuum;
using namespace continuum::sim;

namespace {

Duration seconds(double s, const char* argument) { return python::duration_from_seconds(s, argument); }

py::array_t<double> to_numpy(const std::vector<double>& values) { return py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data()); }

py::dict series_dict(const TimeSeriesTable& table) {
    py::dict out;
    for (const auto& name : table.columns()) out[py::str(name)] = to_numpy(table.column(name));
    return out;
}

py::dict result_dict(const SimulationResult& r) {
    py::dict out;
    out["simulated_s"] = to_seconds(r.simulated);
    out["total_cost"] = r.total_cost;
    out["efficiency_median_pct"] = r.efficiency.median();
    out["efficiency_mean_pct"] = r.efficiency.mean();
    std::vector<double> xs, ps;
    for (const auto& [x, p] : r.efficiency.cdf()) {
        xs.push_back(x);
        ps.push_back(p);
    }
    out["efficiency_cdf"] = py::make_tuple(to_numpy(xs), to_numpy(ps));
    out["deployments_succeeded"] = r.deployments_succeeded;
    out["deployments_failed"] = r.deployments_failed;
    out["deployment_failure_ratio_pct"] = r.deployment_failure_ratio;
    out["deployment_delay_mean_s"] = r.deployment_delay.mean;
    out["deployment_delay_max_s"] = r.deployment_delay.max;
    out["pending_pod_seconds"] = r.pending_pod_seconds;
    out["evictions"] = r.evictions;
    out["mean_cluster_cpu_utilisation_pct"] = r.mean_cluster_cpu_utilisation;
    py::dict pools, namespaces, deployments;
    for (const auto& p : r.pools) pools[py::str(p.name)] = py::dict(py::arg("cost") = p.cost, py::arg("node_seconds") = p.node_seconds, py::arg("max_nodes") = p.max_nodes);
    for (const auto& n : r.namespaces) {
        namespaces[py::str(n.name)] = py::dict(py::arg("qsr_pct") = n.quota_sufficiency_ratio ? py::cast(*n.quota_sufficiency_ratio) : py::none(),
                                               py::arg("dfr_pct") = n.deployment_failure_ratio, py::arg("succeeded") = n.deployments_succeeded,
                                               py::arg("failed") = n.deployments_failed, py::arg("pending_pod_seconds") = n.pending_pod_seconds);
    }
    for (const auto& d : r.deployments) {
        deployments[py::str(d.name)] = py::dict(py::arg("utilisation_mean_pct") = d.utilisation.mean, py::arg("utilisation_p95_pct") = d.utilisation.p95,
                                                py::arg("utilisation_max_pct") = d.utilisation.max, py::arg("downtime_s") = d.downtime_seconds,
                                                py::arg("max_ready") = d.max_ready, py::arg("unserved_core_seconds") = d.unserved_core_seconds);
    }
    out["pools"] = pools;
    out["namespaces"] = namespaces;
    out["deployments"] = deployments;
    out["series"] = series_dict(r.series);
    return out;
}

LoadProfile profile_from(const py::handle& h) {
    if (py::isinstance<LoadProfile>(h)) return py::cast<LoadProfile>(h);
    std::vector<double> values = py::cast<std::vector<double>>(h);
    return LoadProfile::from_samples(values, std::chrono::minutes(1));
}

NodeSource source_from(const std::string& s) {
    for (auto v : {NodeSource::local, NodeSource::cold_vm, NodeSource::paused_vm, NodeSource::liqo_peering}) {
        if (to_string(v) == s) return v;
    }
    throw InvalidArgument("node pool source must be local, cold_vm, paused_vm or liqo_peering, got \"" + s + "\"");
}

template <typename T>
T get(const py::dict& d, const char* key, T fallback) {
    return d.contains(key) ? py::cast<T>(d[key]) : fallback;
}

Scenario scenario_from(const py::list& pools, const py::list& namespaces, const py::list& deployments, double tick_s, double duration_s,
                       double pending_timeout_s, double pod_startup_s, const std::string& scheduling, double sample_every_s) {
    Scenario s;
    for (const auto& item : pools) {
        const auto d = py::cast<py::dict>(item);
        NodePool p;
        p.name = py::cast<std::string>(d["name"]);
        p.capacity = python::resources_from_dict(py::cast<py::dict>(d["capacity"]));
        p.cost_per_minute = get<double>(d, "cost_per_minute", 0.0);
        p.source = source_from(get<std::string>(d, "source", "cold_vm"));
        if (d.contains("provisioning_latency_s")) p.provisioning_latency = seconds(py::cast<double>(d["provisioning_latency_s"]), "provisioning_latency_s");
        p.min_size = get<int>(d, "min_size", 0);
        p.max_size = get<int>(d, "max_size", unlimited_nodes);
        p.initial_size = get<int>(d, "initial_size", 0);
        s.pools.push_back(std::move(p));
    }
    for (const auto& item : namespaces) {
        const auto d = py::cast<py::dict>(item);
        NamespaceSpec n;
        n.name = py::cast<std::string>(d["name"]);
        if (d.contains("quota") && !d["quota"].is_none()) n.quota = python::resources_from_dict(py::cast<py::dict>(d["quota"]));
        s.namespaces.push_back(std::move(n));
    }
    for (const auto& item : deployments) {
        const auto d = py::cast<py::dict>(item);
        DeploymentSpec dep;
        dep.name = py::cast<std::string>(d["name"]);
        dep.namespace_name = py::cast<std::string>(d["namespace"]);
        dep.pod_request = python::resources_from_dict(py::cast<py::dict>(d["pod_request"]));
        dep.load = profile_from(d["load"]);
        const auto kind = get<std::string>(d, "load_kind", "cpu_cores");
        if (kind != "cpu_cores" && kind != "replicas") throw InvalidArgument("deployment load_kind must be cpu_cores or replicas, got \"" + kind + "\"");
        dep.load_kind = kind == "replicas" ? LoadKind::replicas : LoadKind::cpu_cores;
        const auto control = get<std::string>(d, "replicas_from", "workload");
        if (control != "workload" && control != "scaler") throw InvalidArgument("deployment replicas_from must be workload or scaler, got \"" + control + "\"");
        dep.replicas_from = control == "scaler" ? ReplicaControl::scaler : ReplicaControl::workload;
        dep.initial_replicas = get<int>(d, "initial_replicas", 1);
        dep.usage_per_pod = get<double>(d, "usage_per_pod", 1.0);
        dep.cpu_limit_factor = get<double>(d, "cpu_limit_factor", 1.0);
        dep.node_pool = get<std::string>(d, "node_pool", "");
        s.deployments.push_back(std::move(dep));
    }
    s.config.tick = seconds(tick_s, "tick");
    s.config.duration = seconds(duration_s, "duration");
    s.config.pending_timeout = seconds(pending_timeout_s, "pending_timeout");
    s.config.pod_startup = seconds(pod_startup_s, "pod_startup");
    s.config.record.sample_every = seconds(sample_every_s, "sample_every");
    if (scheduling != "first_fit" && scheduling != "least_allocated") throw InvalidArgument("scheduling must be first_fit or least_allocated, got \"" + scheduling + "\"");
    s.config.scheduling = scheduling == "first_fit" ? SchedulingPolicy::first_fit : SchedulingPolicy::least_allocated;
    return s;
}

py::dict snapshot_dict(const Snapshot& snap) {
    py::dict out;
    out["now_s"] = to_seconds(snap.now);
    py::dict pools, namespaces, deployments;
    for (std::size_t p = 0; p < snap.pools.size(); ++p) {
        pools[py::str(snap.pool_specs[p].name)] = py::dict(py::arg("ready") = snap.pools[p].ready, py::arg("provisioning") = snap.pools[p].provisioning,
                                                            py::arg("max_size") = snap.pool_specs[p].max_size);
    }
    for (const auto& n : snap.namespaces) {
        namespaces[py::str(n.name)] = py::dict(py::arg("quota_cores") = n.quota_cpu >= 0 ? py::cast(n.quota_cpu / 1000.0) : py::none(),
                                               py::arg("demand_cores") = n.demand_cpu / 1000.0, py::arg("requested_cores") = n.requested_cpu / 1000.0,
                                               py::arg("used_cores") = n.used_cpu / 1000.0, py::arg("pending_pods") = n.pending_pods,
                                               py::arg("quota_rejected_pods") = n.quota_rejected_pods);
    }
    for (const auto& d : snap.deployments) {
        deployments[py::str(d.name)] = py::dict(py::arg("desired") = d.desired, py::arg("ready") = d.ready, py::arg("pending") = d.pending,
                                                py::arg("cpu_demand_cores") = d.cpu_demand_cores, py::arg("cpu_used_cores") = d.cpu_used_cores,
                                                py::arg("utilisation") = d.utilisation);
    }
    out["pools"] = pools;
    out["namespaces"] = namespaces;
    out["deployments"] = deployments;
    return out;
}

Decision decision_from(const py::handle& h) {
    Decision d;
    if (h.is_none()) return d;
    const auto dict = py::cast<py::dict>(h);
    if (dict.contains("quotas")) {
        for (const auto& [name, quota] : py::cast<py::dict>(dict["quotas"])) {
            d.quotas.push_back({py::cast<std::string>(name), quota.is_none() ? std::nullopt : std::optional<Resources>(python::resources_from_dict(py::cast<py::dict>(quota)))});
        }
    }
    if (dict.contains("replicas")) {
        for (const auto& [name, n] : py::cast<py::dict>(dict["replicas"])) d.replicas.push_back({py::cast<std::string>(name), py::cast<int>(n), {}});
    }
    if (dict.contains("pools")) {
        for (const auto& [name, n] : py::cast<py::dict>(dict["pools"])) d.pools.push_back({py::cast<std::string>(name), py::cast<int>(n)});
    }
    if (dict.contains("release")) {
        for (const auto& name : py::cast<py::list>(dict["release"])) d.releases.push_back({py::cast<std::string>(name)});
    }
    if (dict.contains("reason")) d.reason = py::cast<std::string>(dict["reason"]);
    return d;
}

py::list stages_list(const std::vector<Stage>& stages) {
    py::list out;
    for (const auto& s : stages) out.append(py::make_tuple(to_seconds(s.duration), s.target));
    return out;
}

}  // namespace

void bind_sim(py::module_& m) {
    auto sim = m.def_submodule("sim", "Trace-driven simulator, workload shapes, metrics and the seed papers' experiments replayed.");

    py::class_<LoadProfile>(sim, "LoadProfile", "A value over simulated time: k6 stages (linear ramps) or samples held per step.")
        .def_static(
            "from_stages",
            [](const std::vector<std::pair<double, double>>& stages, double start) {
                std::vector<Stage> out;
                for (const auto& [d, t] : stages) out.push_back({seconds(d, "stage duration"), t});
                return LoadProfile::from_stages(out, start);
            },
            py::arg("stages"), py::arg("start_value") = 0.0, "k6 stages [(duration_s, target), ...] ramping linearly from start_value.")
        .def_static(
            "from_samples", [](const std::vector<double>& values, double step_s) { return LoadProfile::from_samples(values, seconds(step_s, "step")); },
            py::arg("values"), py::arg("step_s"), "Samples step_s apart, held between samples.")
        .def("at", [](const LoadProfile& p, double t) { return p.at(seconds(t, "t")); }, py::arg("t_s"), "The value at t_s seconds.")
        .def_property_readonly("duration_s", [](const LoadProfile& p) { return to_seconds(p.duration()); })
        .def("sample", [](const LoadProfile& p, double step) { return to_numpy(p.sample(seconds(step, "step")).values()); }, py::arg("step_s"),
             "Values every step_s seconds from 0 to duration_s, as a numpy array.")
        .def("scaled", &LoadProfile::scaled, py::arg("factor"), py::arg("offset") = 0.0,
             "Every value multiplied by factor, plus offset (e.g. VUs to millicores). Raises InvalidArgument on a non-finite argument.");

    sim.def("heartbeat_stages", [] { return stages_list(heartbeat_stages()); }, "Seed 004 Table 1 as [(duration_s, VUs), ...].");
    sim.def("flash_sale_stages", [] { return stages_list(flash_sale_stages()); }, "Seed 004 Table 2 as [(duration_s, VUs), ...].");
    sim.def(
        "vu_to_cpu", [](const LoadProfile& vus, double per_vu, double idle) { return VuToCpu{per_vu, idle}.cores(vus); }, py::arg("vus"),
        py::arg("millicores_per_vu") = 2.0, py::arg("idle_millicores") = 5.0, "CPU cores for a VU profile (seed 004's documented VU -> CPU model).");
    sim.def(
        "rising_falling_replicas",
        [](double start, double peak, double idle_before, double rise, double hold, double fall, double idle_after) {
            return RisingFallingReplicas{start, peak, seconds(idle_before, "idle_before"), seconds(rise, "rise"), seconds(hold, "hold"), seconds(fall, "fall"),
                                         seconds(idle_after, "idle_after")}
                .profile();
        },
        py::arg("start") = 0.0, py::arg("peak") = 16.0, py::arg("idle_before_s") = 300.0, py::arg("rise_s") = 1200.0, py::arg("hold_s") = 600.0,
        py::arg("fall_s") = 1200.0, py::arg("idle_after_s") = 1500.0, "Seed 000's linearly rising and falling replica count.");
    sim.def(
        "bursty_cpu",
        [](double duration_h, std::uint64_t seed) {
            BurstyCpu b;
            b.duration = std::chrono::minutes(static_cast<std::int64_t>(std::llround(duration_h * 60)));
            b.seed = seed;
            const auto r = b.generate();
            py::list bursts;
            for (const auto& [begin, end] : r.bursts) bursts.append(py::make_tuple(to_seconds(begin), to_seconds(end)));
            return py::dict(py::arg("history") = to_numpy(r.history.values()), py::arg("load") = r.load, py::arg("bursts") = bursts);
        },
        py::arg("duration_h") = 6.0, py::arg("seed") = 1, "Seed 001's bursty CPU demand: {history, load, bursts}.");

    py::class_<Simulator>(sim, "Simulator", "The discrete-time cluster simulator (see docs/sim.md for the tick order).")
        .def(py::init([](const py::list& pools, const py::list& namespaces, const py::list& deployments, double tick_s, double duration_s, double pending_timeout_s,
                         double pod_startup_s, const std::string& scheduling, double sample_every_s) {
                 return Simulator(scenario_from(pools, namespaces, deployments, tick_s, duration_s, pending_timeout_s, pod_startup_s, scheduling, sample_every_s));
             }),
             py::arg("pools"), py::arg("namespaces"), py::arg("deployments"), py::arg("tick_s") = 1.0, py::arg("duration_s") = 0.0,
             py::arg("pending_timeout_s") = 60.0, py::arg("pod_startup_s") = 3.0, py::arg("scheduling") = "first_fit", py::arg("sample_every_s") = 0.0,
             "pools: [{name, capacity, cost_per_minute, source, provisioning_latency_s, min_size, max_size, initial_size}], namespaces: [{name, quota}],\n"
             "deployments: [{name, namespace, pod_request, load (LoadProfile or per-minute list), load_kind, replicas_from, initial_replicas, ...}].")
        .def(
            "run",
            [](Simulator& self, const py::object& scaler) {
                if (scaler.is_none()) {
                    py::gil_scoped_release release;
                    auto result = self.run(StaticScaler{});
                    py::gil_scoped_acquire acquire;
                    return result_dict(result);
                }
                AnyScaler any([&](const Snapshot& snap) { return decision_from(scaler(snapshot_dict(snap))); });
                return result_dict(self.run(any));
            },
            py::arg("scaler") = py::none(),
            "Runs with the static baseline (scaler=None) or a callable snapshot_dict -> decision dict\n"
            "({'quotas': {ns: {cpu: ..} or None}, 'replicas': {deployment: n}, 'pools': {pool: size}, 'release': [node], 'reason': str}).");

    sim.def(
        "replay_seed000",
        [] {
            replay::Seed000Report r;
            {
                py::gil_scoped_release release;
                r = replay::replay_seed000();
            }
            py::list rows;
            for (const auto& row : r.rows) {
                rows.append(py::dict(py::arg("configuration") = row.configuration, py::arg("cost") = row.cost, py::arg("cost_reduction_pct") = row.cost_reduction_pct,
                                     py::arg("median_efficiency_pct") = row.median_efficiency_pct, py::arg("max_remote_nodes") = row.max_remote_nodes,
                                     py::arg("result") = result_dict(row.result)));
            }
            return py::dict(py::arg("paper") = py::dict(py::arg("cost_reduction_pct_at_least") = 60.0, py::arg("median_efficiency_pct") =
                                                                                                         py::dict(py::arg("baseline") = 25.0, py::arg("cost-aware") = 75.0, py::arg("cost-unaware") = 100.0),
                                                        py::arg("cost_unaware_max_remote_nodes") = 2),
                            py::arg("rows") = rows);
        },
        "Seed 000's experiment: baseline, cost-unaware and cost-aware rows (cost, saving, median eta, remote nodes, full result).");

    const auto seed001_rows = [](const replay::Seed001Report& r) {
        py::list rows;
        for (const auto& row : r.rows) {
            rows.append(py::dict(py::arg("configuration") = row.configuration, py::arg("qsr_pct") = row.qsr_pct, py::arg("dfr_pct") = row.dfr_pct,
                                 py::arg("deployment_time_no_burst_s") = row.deployment_time_no_burst_s, py::arg("deployment_time_burst_s") = row.deployment_time_burst_s,
                                 py::arg("max_deployment_time_s") = row.max_deployment_time_s, py::arg("node_minutes") = row.node_minutes,
                                 py::arg("result") = result_dict(row.result)));
        }
        return rows;
    };
    sim.def(
        "replay_seed001",
        [seed001_rows](double duration_h) {
            replay::Seed001Parameters p;
            p.workload.duration = std::chrono::minutes(static_cast<std::int64_t>(std::llround(duration_h * 60)));
            replay::Seed001Report r;
            {
                py::gil_scoped_release release;
                r = replay::replay_seed001(p);
            }
            return py::dict(py::arg("paper") = py::dict(py::arg("qsr_pct") = py::dict(py::arg("no quota scaling") = 178.08, py::arg("reactive") = 100.0, py::arg("hybrid") = 105.08),
                                                        py::arg("dfr_pct") = py::dict(py::arg("no quota scaling") = 34.68, py::arg("reactive") = 0.0, py::arg("hybrid") = 0.0)),
                            py::arg("rows") = seed001_rows(r));
        },
        py::arg("duration_h") = 6.0, "Seed 001's experiment: no quota scaling, reactive and hybrid rows (QSR, DFR, deployment times, full result).");
    sim.def(
        "replay_seed004",
        [] {
            replay::Seed004Report r;
            {
                py::gil_scoped_release release;
                r = replay::replay_seed004();
            }
            py::list rows;
            for (const auto& row : r.rows) {
                rows.append(py::dict(py::arg("scenario") = row.scenario, py::arg("configuration") = row.configuration, py::arg("max_replicas") = row.max_replicas,
                                     py::arg("peak_utilisation_pct") = row.peak_utilisation_pct, py::arg("p95_utilisation_pct") = row.p95_utilisation_pct,
                                     py::arg("downtime_s") = row.downtime_s, py::arg("min_ready_during_migration") = row.min_ready_during_migration,
                                     py::arg("cost") = row.cost, py::arg("result") = result_dict(row.result)));
            }
            return py::dict(py::arg("rows") = rows);
        },
        "Seed 004's experiment: HPA + CA and hierarchical rows for Heartbeat and Flash Sale.");
}
