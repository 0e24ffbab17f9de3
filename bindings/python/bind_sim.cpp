// Python bindings for continuum/sim: load profiles and the seed papers' workload shapes, the
// Simulator driven by continuum's scalers through their sim adapters (static, HPA, CA-like autoscaler,
// reactive / proactive / hybrid quota, federated cluster scaler, hierarchical), a list of them or any
// Python callable, and the replays of seeds 000, 001, 004 and the Alibaba trace as dicts.
#include "common.hpp"
#include "forecasters.hpp"
#include "quota_levels.hpp"
#include "repr.hpp"

#include <continuum/sim/adapters.hpp>
#include <replay/alibaba.hpp>
#include <replay/seed000.hpp>
#include <replay/seed001.hpp>
#include <replay/seed004.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
// A namespace of its own per bind_<area>.cpp: its using-directives and file-local helpers stay out of
// the other files of a unity unit (CONTINUUM_PYTHON_UNITY), whichever files it is grouped with.
namespace continuum_bind_sim {
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
    out["efficiency_below_full_pct"] = 100.0 * r.efficiency.cdf_at(99.99);  // node-time below 100 % (PercentDistribution::cdf_at)
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
        p.capacity = python::to_resources(d["capacity"], "capacity");
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
        if (d.contains("quota") && !d["quota"].is_none()) n.quota = python::to_resources(d["quota"], "quota");
        s.namespaces.push_back(std::move(n));
    }
    for (const auto& item : deployments) {
        const auto d = py::cast<py::dict>(item);
        DeploymentSpec dep;
        dep.name = py::cast<std::string>(d["name"]);
        dep.namespace_name = py::cast<std::string>(d["namespace"]);
        dep.pod_request = python::to_resources(d["pod_request"], "pod_request");
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
            d.quotas.push_back({py::cast<std::string>(name), quota.is_none() ? std::nullopt : std::optional<Resources>(python::to_resources(quota, "quotas[\"" + py::cast<std::string>(name) + "\"]"))});
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

/// A scaler ready for Simulator::run, and whether it calls into Python (then the GIL stays held).
struct PreparedScaler {
    AnyScaler scaler;
    bool calls_python = false;
};

using PyHierarchicalScaler = scalers::HierarchicalScaler<python::HorizonCallableForecaster>;
using PyHierarchicalAdapter = adapters::HierarchicalAdapter<python::HorizonCallableForecaster>;
using PyProactiveAdapter = adapters::ProactiveQuotaAdapter<forecast::AnyForecaster>;
using PyHybridAdapter = adapters::HybridQuotaAdapter<forecast::AnyForecaster>;
using PyFederatedAdapter = adapters::FederatedClusterAdapter<federation::AnyCostModel>;

/// Each run starts from a copy of the adapter as constructed, so one Python object can drive many runs.
PreparedScaler prepare_scaler(const py::handle& h) {
    if (h.is_none() || py::isinstance<StaticScaler>(h)) return {AnyScaler(StaticScaler{}), false};
    if (py::isinstance<adapters::HpaAdapter>(h)) return {AnyScaler(py::cast<adapters::HpaAdapter>(h)), false};
    if (py::isinstance<ClusterAutoscaler>(h)) return {AnyScaler(py::cast<ClusterAutoscaler>(h)), false};
    if (py::isinstance<adapters::ReactiveQuotaAdapter>(h)) return {AnyScaler(py::cast<adapters::ReactiveQuotaAdapter>(h)), false};
    if (py::isinstance<PyFederatedAdapter>(h)) return {AnyScaler(py::cast<PyFederatedAdapter>(h)), false};
    if (py::isinstance<PyProactiveAdapter>(h)) return {AnyScaler(py::cast<PyProactiveAdapter>(h)), true};
    if (py::isinstance<PyHybridAdapter>(h)) return {AnyScaler(py::cast<PyHybridAdapter>(h)), true};
    if (py::isinstance<PyHierarchicalAdapter>(h)) return {AnyScaler(py::cast<PyHierarchicalAdapter>(h)), true};
    if (py::isinstance<py::list>(h) || py::isinstance<py::tuple>(h)) {
        std::vector<AnyScaler> parts;
        bool calls_python = false;
        for (const auto& item : py::reinterpret_borrow<py::sequence>(h)) {
            auto part = prepare_scaler(item);
            calls_python = calls_python || part.calls_python;
            parts.push_back(std::move(part.scaler));
        }
        if (parts.empty()) throw InvalidArgument("Simulator.run: scaler is an empty list");
        return {AnyScaler([parts = std::move(parts)](const Snapshot& snap) mutable {
                    Decision out;
                    for (auto& part : parts) out.merge(part.decide(snap));
                    return out;
                }),
                calls_python};
    }
    if (PyCallable_Check(h.ptr())) {
        auto f = py::reinterpret_borrow<py::object>(h);
        return {AnyScaler([f](const Snapshot& snap) { return decision_from(f(snapshot_dict(snap))); }), true};
    }
    throw InvalidArgument("Simulator.run: scaler must be None, a continuum.sim scaler (StaticScaler, HpaAdapter, ClusterAutoscaler, ReactiveQuotaAdapter, "
                          "ProactiveQuotaAdapter, HybridQuotaAdapter, FederatedClusterAdapter, HierarchicalAdapter), a list of them or a callable; got " +
                          py::cast<std::string>(py::repr(h)));
}

/// Quota levels of cpu: None, a continuum.quota.QuotaLevels of cpu or a list of amounts (cores, quantity strings).
std::optional<quota::QuotaLevels> levels_from(const py::handle& h) {
    if (h.is_none()) return std::nullopt;
    return python::to_quota_levels(h, "cpu", "levels");
}

Series history_from(const std::vector<double>& cores, Duration period) {
    for (std::size_t i = 0; i < cores.size(); ++i) {
        if (!std::isfinite(cores[i]) || cores[i] < 0) throw InvalidArgument(fmt::format("history[{}] must be a finite number of cores >= 0, got {}", i, cores[i]));
    }
    return Series(cores, period, "history");
}

adapters::QuotaTarget quota_target(std::string namespace_name, std::string waiting_pool, bool stop_redundant_nodes) {
    if (namespace_name.empty()) throw InvalidArgument("namespace_name must not be empty");
    if (waiting_pool.empty()) throw InvalidArgument("waiting_pool must not be empty");
    return {std::move(namespace_name), std::move(waiting_pool), stop_redundant_nodes};
}

/// A PodDisruptionBudget from Python: None = ready pods never below desired; an int or "N%" = maxUnavailable
/// (parsed by continuum.packing.DisruptionBudget).
packing::DisruptionBudget disruption_budget(const py::object& max_unavailable) {
    if (max_unavailable.is_none()) return {};
    return py::cast<packing::DisruptionBudget>(py::module_::import("continuum._core").attr("packing").attr("DisruptionBudget")(py::arg("max_unavailable") = max_unavailable));
}

federation::ScaleInOptions scale_in_options(double threshold, double unneeded_s, double delay_after_add_s) {
    federation::ScaleInOptions o;
    o.utilization_threshold = threshold;
    o.unneeded_time = seconds(unneeded_s, "scale_down_unneeded_time_s");
    o.delay_after_add = seconds(delay_after_add_s, "scale_down_delay_after_add_s");
    o.validate();
    return o;
}

py::list seed001_rows(const replay::Seed001Report& r) {
    py::list rows;
    for (const auto& row : r.rows) {
        rows.append(py::dict(py::arg("configuration") = row.configuration, py::arg("qsr_pct") = row.qsr_pct, py::arg("dfr_pct") = row.dfr_pct,
                             py::arg("deployment_time_no_burst_s") = row.deployment_time_no_burst_s, py::arg("deployment_time_burst_s") = row.deployment_time_burst_s,
                             py::arg("max_deployment_time_s") = row.max_deployment_time_s, py::arg("node_minutes") = row.node_minutes,
                             py::arg("result") = result_dict(row.result)));
    }
    return rows;
}

py::list stages_list(const std::vector<Stage>& stages) {
    py::list out;
    for (const auto& s : stages) out.append(py::make_tuple(to_seconds(s.duration), s.target));
    return out;
}


using Arguments = std::vector<std::pair<std::string, py::object>>;

/// max_unavailable as the adapters' constructors take it: None, an int or "N%".
py::object max_unavailable_of(const packing::DisruptionBudget& budget) {
    if (!budget.max_unavailable) return py::none();
    if (budget.max_unavailable->percent) return py::str(budget.max_unavailable->to_string());
    return py::int_(budget.max_unavailable->value);
}

/// The cpu quota levels as the quota adapters take them: None or a list of amounts (cores, quantities).
py::object cpu_levels_of(const quota::ResourceQuotaLevels& levels) {
    const auto* cpu = levels.find("cpu");
    if (cpu == nullptr) return py::none();
    return py::cast(python::amounts_to_python("cpu", cpu->levels()));
}

/// namespace_name and waiting_pool, the first arguments of every quota adapter.
Arguments quota_target_arguments(const adapters::QuotaTarget& target) {
    return {{"namespace_name", py::str(target.namespace_name)}, {"waiting_pool", py::str(target.waiting_pool)}};
}

/// HpaAdapter(deployment=..., min_replicas=..., max_replicas=..., target_percent=..., ...) for a plain
/// cpu HPA (what those three arguments build), else HpaAdapter(deployment=..., hpa=Hpa(...), ...).
std::string hpa_adapter_repr(const adapters::HpaAdapter& a) {
    const auto& spec = a.spec();
    const auto hpa_of = [](const scalers::HpaSpec& s) { return py::cast(scalers::Hpa(s)); };
    Arguments arguments{{"deployment", py::str(a.deployment())}};
    const auto hpa = hpa_of(spec);
    const bool plain = spec.metrics.size() == 1 &&
                       py::repr(hpa).equal(py::repr(hpa_of(adapters::HpaAdapter::cpu_spec(spec.min_replicas, spec.max_replicas, spec.metrics[0].target))));
    if (plain) {
        arguments.insert(arguments.end(), {{"min_replicas", py::int_(spec.min_replicas)}, {"max_replicas", py::int_(spec.max_replicas)},
                                           {"target_percent", py::int_(spec.metrics[0].target)}});
    } else {
        arguments.emplace_back("hpa", hpa);
    }
    arguments.insert(arguments.end(), {{"sync_period_s", py::float_(to_seconds(a.sync_period()))}, {"metrics_window_s", py::float_(to_seconds(a.metrics_window()))}});
    return python::call_repr("HpaAdapter", arguments);
}

std::string cluster_autoscaler_repr(const ClusterAutoscaler& a) {
    const auto& c = a.config();
    const char* expander = c.expander == Expander::priority ? "priority" : c.expander == Expander::cheapest ? "cheapest" : "most_pods";
    return python::call_repr("ClusterAutoscaler", {{"pools", py::cast(c.pools)},
                                                   {"expander", py::str(expander)},
                                                   {"scan_interval_s", py::float_(to_seconds(c.scan_interval))},
                                                   {"scale_down_utilisation_threshold", py::float_(c.scale_down_utilisation_threshold)},
                                                   {"scale_down_unneeded_time_s", py::float_(to_seconds(c.scale_down_unneeded_time))},
                                                   {"scale_down_delay_after_add_s", py::float_(to_seconds(c.scale_down_delay_after_add))},
                                                   {"max_empty_bulk_delete", py::int_(c.max_empty_bulk_delete)},
                                                   {"scale_down_enabled", py::bool_(c.scale_down_enabled)},
                                                   {"max_unavailable", max_unavailable_of(c.disruption_budget)}});
}

std::string federated_adapter_repr(const PyFederatedAdapter& a) {
    const auto& c = a.config();
    const bool cost_aware = a.recommender().cost_model().name() == adapters::cost_model_for(adapters::OfferRanking::cost_aware).name();
    return python::call_repr("FederatedClusterAdapter", {{"ranking", py::str(cost_aware ? "cost_aware" : "cost_unaware")},
                                                         {"pools", py::cast(c.pools)},
                                                         {"scan_interval_s", py::float_(to_seconds(c.scan_interval))},
                                                         {"scale_down_utilisation_threshold", py::float_(c.scale_in.utilization_threshold)},
                                                         {"scale_down_unneeded_time_s", py::float_(to_seconds(c.scale_in.unneeded_time))},
                                                         {"scale_down_delay_after_add_s", py::float_(to_seconds(c.scale_in.delay_after_add))},
                                                         {"max_unavailable", max_unavailable_of(c.disruption_budget)}});
}

void bind_scalers_and_adapters(py::module_& sim) {
    py::class_<StaticScaler>(sim, "StaticScaler", "The static baseline: never changes anything (the scenario's initial nodes and quotas stay). No arguments.")
        .def(py::init<>())
        .def("__repr__", [](const StaticScaler&) { return std::string("StaticScaler()"); });

    py::class_<adapters::HpaAdapter>(sim, "HpaAdapter", R"pbdoc(
continuum.scalers.Hpa on one deployment (its replicas_from must be "scaler"), every sync_period_s, on CPU utilisation.
deployment: the deployment's name; hpa: a continuum.scalers.Hpa whose spec is used (its first metric is the CPU
utilisation target), or None for a plain CPU HPA from min_replicas, max_replicas and target_percent (Kubernetes'
default behaviour); sync_period_s: the HPA's sync period in seconds (15); metrics_window_s: the CPU usage the HPA reads is
the mean over this window (0: the tick's usage).)pbdoc")
        .def(py::init([](std::string deployment, const py::object& hpa, std::int64_t min_replicas, std::int64_t max_replicas, std::int64_t target_percent,
                         double sync_period_s, double metrics_window_s) {
                 if (deployment.empty()) throw InvalidArgument("deployment must not be empty");
                 auto spec = hpa.is_none() ? adapters::HpaAdapter::cpu_spec(min_replicas, max_replicas, target_percent) : py::cast<const scalers::Hpa&>(hpa).spec();
                 const Duration window = metrics_window_s == 0.0 ? Duration{0} : seconds(metrics_window_s, "metrics_window_s");
                 return adapters::HpaAdapter(std::move(deployment), std::move(spec), seconds(sync_period_s, "sync_period_s"), window);
             }),
             py::arg("deployment"), py::arg("hpa") = py::none(), py::arg("min_replicas") = 1, py::arg("max_replicas") = 10, py::arg("target_percent") = 80,
             py::arg("sync_period_s") = 15.0, py::arg("metrics_window_s") = 0.0)
        .def("__repr__", &hpa_adapter_repr);

    py::class_<ClusterAutoscaler>(sim, "ClusterAutoscaler", R"pbdoc(
The Cluster-Autoscaler-like reactive node scaler (the HPA + CA baseline's node side). pools: the pools it manages
([] = every pool that is not local); expander: "priority" (first pool given), "cheapest" (cost per placed pod) or
"most_pods"; scan_interval_s: --scan-interval (10); scale_down_utilisation_threshold: --scale-down-utilization-threshold
in [0, 1] (0.5); scale_down_unneeded_time_s: --scale-down-unneeded-time (600); scale_down_delay_after_add_s:
--scale-down-delay-after-add (600); max_empty_bulk_delete: empty nodes removed per scan (10); scale_down_enabled;
max_unavailable: every deployment's PodDisruptionBudget for scale-down, an int or "N%" (None: a node is removed only
when no deployment's ready pods fall below its desired count).)pbdoc")
        .def(py::init([](std::vector<std::string> pools, const std::string& expander, double scan_interval_s, double threshold, double unneeded_s,
                         double delay_after_add_s, int max_empty_bulk_delete, bool scale_down_enabled, const py::object& max_unavailable) {
                 ClusterAutoscalerConfig c;
                 c.pools = std::move(pools);
                 if (expander == "priority") {
                     c.expander = Expander::priority;
                 } else if (expander == "cheapest") {
                     c.expander = Expander::cheapest;
                 } else if (expander == "most_pods") {
                     c.expander = Expander::most_pods;
                 } else {
                     throw InvalidArgument("expander must be priority, cheapest or most_pods, got \"" + expander + "\"");
                 }
                 c.scan_interval = seconds(scan_interval_s, "scan_interval_s");
                 c.scale_down_utilisation_threshold = threshold;
                 c.scale_down_unneeded_time = seconds(unneeded_s, "scale_down_unneeded_time_s");
                 c.scale_down_delay_after_add = seconds(delay_after_add_s, "scale_down_delay_after_add_s");
                 c.max_empty_bulk_delete = max_empty_bulk_delete;
                 c.scale_down_enabled = scale_down_enabled;
                 c.disruption_budget = disruption_budget(max_unavailable);
                 return ClusterAutoscaler(std::move(c));
             }),
             py::arg("pools") = std::vector<std::string>{}, py::arg("expander") = "priority", py::arg("scan_interval_s") = 10.0,
             py::arg("scale_down_utilisation_threshold") = 0.5, py::arg("scale_down_unneeded_time_s") = 600.0, py::arg("scale_down_delay_after_add_s") = 600.0,
             py::arg("max_empty_bulk_delete") = 10, py::arg("scale_down_enabled") = true, py::arg("max_unavailable") = py::none())
        .def("__repr__", &cluster_autoscaler_repr);

    py::class_<adapters::ReactiveQuotaAdapter>(sim, "ReactiveQuotaAdapter", R"pbdoc(
Seed 001's reactive quota scaling (continuum.quota.ReactiveQuotaScaler, Algorithm 2) on every tick with pods the quota
rejects. namespace_name: the namespace whose cpu quota is scaled; waiting_pool: the pool of paused VMs (finite max_size)
whose inactive slots are the waiting worker nodes; stop_redundant_nodes: pause empty waiting nodes the quotas no longer
need; follow_demand_down: lower the quota to the admitted requests when nothing waits (seed 001's 100 % QSR).)pbdoc")
        .def(py::init([](std::string namespace_name, std::string waiting_pool, bool stop_redundant_nodes, bool follow_demand_down) {
                 return adapters::ReactiveQuotaAdapter(quota_target(std::move(namespace_name), std::move(waiting_pool), stop_redundant_nodes), {}, follow_demand_down);
             }),
             py::arg("namespace_name"), py::arg("waiting_pool"), py::arg("stop_redundant_nodes") = true, py::arg("follow_demand_down") = true)
        .def("__repr__", [](const adapters::ReactiveQuotaAdapter& a) {
            auto arguments = quota_target_arguments(a.target());
            arguments.insert(arguments.end(), {{"stop_redundant_nodes", py::bool_(a.target().stop_redundant_nodes)}, {"follow_demand_down", py::bool_(a.follow_demand_down())}});
            return python::call_repr("ReactiveQuotaAdapter", arguments);
        });

    py::class_<PyProactiveAdapter>(sim, "ProactiveQuotaAdapter", R"pbdoc(
Seed 001's Algorithm 1 alone (continuum.quota.ProactiveQuotaScaler): every forecast_period_s the forecaster absorbs the
namespace's cpu demand (cores) and predicts the next period; the quota follows the prediction. namespace_name,
waiting_pool, stop_redundant_nodes: as ReactiveQuotaAdapter; forecaster: a continuum.forecast model (or any object with
fit / update / forecast) or a callable history -> prediction (cores); history: demand in cores before the run, one value
per period, fitted on at construction; levels: quota levels for lowering (a continuum.quota.QuotaLevels of cpu, a
list of cores, or None = lower to the prediction); forecast_period_s: the forecast period in seconds (60).)pbdoc")
        .def(py::init([](std::string namespace_name, std::string waiting_pool, const py::object& forecaster, const std::vector<double>& history,
                         const py::object& levels, double forecast_period_s, bool stop_redundant_nodes) {
                 const auto period = seconds(forecast_period_s, "forecast_period_s");
                 quota::ProactiveConfig config;
                 if (auto l = levels_from(levels)) config.levels.set("cpu", std::move(*l));
                 return PyProactiveAdapter(quota_target(std::move(namespace_name), std::move(waiting_pool), stop_redundant_nodes), python::to_forecaster(forecaster),
                                           history_from(history, period), std::move(config), period);
             }),
             py::arg("namespace_name"), py::arg("waiting_pool"), py::arg("forecaster"), py::arg("history"), py::arg("levels") = py::none(),
             py::arg("forecast_period_s") = 60.0, py::arg("stop_redundant_nodes") = true)
        .def("__repr__", [](const PyProactiveAdapter& a) {
            // The forecaster was fitted on the history at construction: shown by name, the repr does not evaluate back.
            auto arguments = quota_target_arguments(a.target());
            arguments.insert(arguments.end(), {{"forecaster", py::str(a.forecaster().name())}, {"levels", cpu_levels_of(a.config().levels)},
                                               {"forecast_period_s", py::float_(to_seconds(a.forecast_period()))}, {"stop_redundant_nodes", py::bool_(a.target().stop_redundant_nodes)}});
            return python::readable_repr("ProactiveQuotaAdapter", arguments);
        });

    py::class_<PyHybridAdapter>(sim, "HybridQuotaAdapter", R"pbdoc(
Seed 001's hybrid framework (continuum.quota.HybridQuotaScaler): every period_s the namespace's cpu demand is observed and
forecast one period ahead (Algorithm 1), and pods the quota rejects are handled at once (Algorithm 2). namespace_name,
waiting_pool, stop_redundant_nodes: as ReactiveQuotaAdapter; forecaster: a continuum.forecast model (or any object with fit /
update / forecast) or a callable history -> prediction (cores); history: demand in cores before the run, one value per
period (the forecaster is fitted on it followed by what the scaler observed); levels: quota levels for lowering (a
continuum.quota.QuotaLevels of cpu, a list of cores, or None); period_s: the forecast period in seconds (60).)pbdoc")
        .def(py::init([](std::string namespace_name, std::string waiting_pool, const py::object& forecaster, const std::vector<double>& history,
                         const py::object& levels, double period_s, bool stop_redundant_nodes) {
                 const auto period = seconds(period_s, "period_s");
                 if (period.count() <= 0) throw InvalidArgument("period_s must be > 0, got " + std::to_string(period_s));
                 quota::HybridConfig config;
                 config.step = period;
                 if (auto l = levels_from(levels)) config = adapters::hybrid_config(std::move(*l), period);
                 return PyHybridAdapter(quota_target(std::move(namespace_name), std::move(waiting_pool), stop_redundant_nodes), python::to_forecaster(forecaster),
                                        history_from(history, period), std::move(config));
             }),
             py::arg("namespace_name"), py::arg("waiting_pool"), py::arg("forecaster"), py::arg("history"), py::arg("levels") = py::none(),
             py::arg("period_s") = 60.0, py::arg("stop_redundant_nodes") = true)
        .def("__repr__", [](const PyHybridAdapter& a) {
            // As ProactiveQuotaAdapter's: the fitted forecaster by name.
            auto arguments = quota_target_arguments(a.target());
            arguments.insert(arguments.end(), {{"forecaster", py::str(a.scaler().prototype().name())}, {"levels", cpu_levels_of(a.scaler().config().proactive.levels)},
                                               {"period_s", py::float_(to_seconds(a.scaler().config().step))}, {"stop_redundant_nodes", py::bool_(a.target().stop_redundant_nodes)}});
            return python::readable_repr("HybridQuotaAdapter", arguments);
        });

    py::class_<PyFederatedAdapter>(sim, "FederatedClusterAdapter", R"pbdoc(
Seed 000's Liqo-aware cluster autoscaler (continuum.federation's FederatedClusterScaler with the Federation Recommender):
remote pools become offers, scale-out peers with the offers it picks, scale-in unpeers the nodes CA's rules find unneeded.
ranking: "cost_aware" (offers priced at the pools' cost_per_minute: the cheapest mix of nodes) or "cost_unaware" (every node
worth 1: the fewest, larger nodes); pools: the remote pools offered ([] = every pool that is not local); scan_interval_s:
--scan-interval (10); scale_down_utilisation_threshold (0.5), scale_down_unneeded_time_s (600) and
scale_down_delay_after_add_s (600): CA's scale-down rules; max_unavailable: every deployment's PodDisruptionBudget for
scale-in, an int or "N%" (None: a node is released only when no deployment's ready pods fall below its desired count).)pbdoc")
        .def(py::init([](const std::string& ranking, std::vector<std::string> pools, double scan_interval_s, double threshold, double unneeded_s,
                         double delay_after_add_s, const py::object& max_unavailable) {
                 adapters::OfferRanking r{};
                 if (ranking == "cost_aware") {
                     r = adapters::OfferRanking::cost_aware;
                 } else if (ranking == "cost_unaware") {
                     r = adapters::OfferRanking::cost_unaware;
                 } else {
                     throw InvalidArgument("ranking must be cost_aware or cost_unaware, got \"" + ranking + "\"");
                 }
                 adapters::FederatedAdapterConfig c;
                 c.pools = std::move(pools);
                 c.scan_interval = seconds(scan_interval_s, "scan_interval_s");
                 c.scale_in = scale_in_options(threshold, unneeded_s, delay_after_add_s);
                 c.disruption_budget = disruption_budget(max_unavailable);
                 return adapters::make_federated_adapter(r, std::move(c));
             }),
             py::arg("ranking") = "cost_aware", py::arg("pools") = std::vector<std::string>{}, py::arg("scan_interval_s") = 10.0,
             py::arg("scale_down_utilisation_threshold") = 0.5, py::arg("scale_down_unneeded_time_s") = 600.0, py::arg("scale_down_delay_after_add_s") = 600.0,
             py::arg("max_unavailable") = py::none())
        .def("__repr__", &federated_adapter_repr);

    py::class_<PyHierarchicalAdapter>(sim, "HierarchicalAdapter", R"pbdoc(
Seed 004's MAS-H² hierarchical scaler in the simulator: every scaler step it samples each managed deployment's CPU usage and
applies the scaler's replica patches and node-pool resizes. scaler: a continuum.scalers.HierarchicalScaler (copied; its step is
the control period); deployments: the managed deployments' names (replicas_from "scaler"); switches: operator policy overrides
[(at_s, policy name)], e.g. [(1800.0, "PERFORMANCE")].)pbdoc")
        .def(py::init([](const py::object& scaler, std::vector<std::string> deployments, const std::vector<std::pair<double, std::string>>& switches) {
                 if (!py::isinstance<PyHierarchicalScaler>(scaler)) {
                     throw InvalidArgument("scaler: expected a continuum.scalers.HierarchicalScaler, got " + py::cast<std::string>(py::repr(scaler)));
                 }
                 std::vector<adapters::PolicySwitch> out;
                 for (const auto& [at, policy] : switches) {
                     const auto t = seconds(at, "switches[].at_s");
                     out.push_back({Time{t.count()}, policy});
                 }
                 return PyHierarchicalAdapter(py::cast<PyHierarchicalScaler>(scaler), std::move(deployments), std::move(out));
             }),
             py::arg("scaler"), py::arg("deployments"), py::arg("switches") = std::vector<std::pair<double, std::string>>{})
        .def("__repr__", [](const PyHierarchicalAdapter& a) {
            // The scaler holds a Python forecaster (a callable): readable, not evaluated back.
            std::vector<std::pair<double, std::string>> switches;
            for (const auto& s : a.switches()) switches.emplace_back(to_seconds(s.at), s.policy);
            return python::readable_repr("HierarchicalAdapter", {{"scaler", py::cast(a.scaler())}, {"deployments", py::cast(a.deployments())}, {"switches", py::cast(switches)}});
        });
}

}  // namespace

void bind(py::module_& m) {
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
             "Every value multiplied by factor, plus offset (e.g. VUs to millicores). Raises InvalidArgument on a non-finite argument.")
        .def("__repr__", [](const LoadProfile& p) {
            // from_stages rebuilds a linear profile; a held one is summarised by its samples.
            py::list points;
            for (const auto& [t, v] : p.points()) points.append(py::make_tuple(to_seconds(t), v));
            return continuum::python::call_repr("LoadProfile", {{"interpolation", py::str(p.interpolation() == Interpolation::linear ? "linear" : "hold")},
                                                                {"points", points}});
        });

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
                auto prepared = prepare_scaler(scaler);
                if (prepared.calls_python) return result_dict(self.run(prepared.scaler));
                SimulationResult result;
                {
                    py::gil_scoped_release release;
                    result = self.run(prepared.scaler);
                }
                return result_dict(result);
            },
            py::arg("scaler") = py::none(),
            "Runs the scenario and returns the result dict. scaler: None (the static baseline), a continuum.sim scaler (StaticScaler,\n"
            "HpaAdapter, ClusterAutoscaler, ReactiveQuotaAdapter, ProactiveQuotaAdapter, HybridQuotaAdapter, FederatedClusterAdapter,\n"
            "HierarchicalAdapter; each run starts from a copy of the adapter as constructed), a list of them (run in order each tick,\n"
            "decisions merged, e.g. [HpaAdapter(...), ClusterAutoscaler()]) or a callable snapshot_dict -> decision dict\n"
            "({'quotas': {ns: {cpu: ..} or None}, 'replicas': {deployment: n}, 'pools': {pool: size}, 'release': [node], 'reason': str}).")
        .def("__repr__", [](const Simulator& s) {
            const auto& scenario = s.scenario();
            const auto names = [](const auto& items) {
                py::list out;
                for (const auto& item : items) out.append(py::str(item.name));
                return out;
            };
            return continuum::python::call_repr("Simulator", {{"pools", names(scenario.pools)}, {"namespaces", names(scenario.namespaces)},
                                                              {"deployments", names(scenario.deployments)}, {"tick_s", py::cast(to_seconds(scenario.config.tick))},
                                                              {"duration_s", py::cast(to_seconds(scenario.config.duration))}});
        });

    bind_scalers_and_adapters(sim);

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

    sim.def(
        "replay_seed001",
        [](double duration_h, int level_step_cores) {
            replay::Seed001Parameters p;
            p.workload.duration = std::chrono::minutes(static_cast<std::int64_t>(std::llround(duration_h * 60)));
            if (level_step_cores < 1) throw InvalidArgument(fmt::format("level_step_cores must be >= 1, got {}", level_step_cores));
            p.level_step_cores = level_step_cores;
            replay::Seed001Report r;
            {
                py::gil_scoped_release release;
                r = replay::replay_seed001(p);
            }
            return py::dict(py::arg("paper") = py::dict(py::arg("qsr_pct") = py::dict(py::arg("no quota scaling") = 178.08, py::arg("reactive") = 100.0, py::arg("hybrid") = 105.08),
                                                        py::arg("dfr_pct") = py::dict(py::arg("no quota scaling") = 34.68, py::arg("reactive") = 0.0, py::arg("hybrid") = 0.0)),
                            py::arg("rows") = seed001_rows(r));
        },
        py::arg("duration_h") = 6.0, py::arg("level_step_cores") = 10,
        "Seed 001's experiment: no quota scaling, reactive and hybrid rows (QSR, DFR, deployment times, full result). level_step_cores: "
        "the spacing of the quota levels the proactive step snaps to (10 CPUs).");
    sim.def(
        "replay_seed004",
        [](double heartbeat_cycle_s, const std::string& hpa_node_cpu, int hpa_pool_max_nodes, double cold_vm_latency_s, double hpa_sync_period_s,
           double hpa_metrics_window_s, std::int64_t hpa_max_replicas) {
            const auto non_negative = [](double v, const char* name) {
                if (!(std::isfinite(v) && v >= 0)) throw InvalidArgument(fmt::format("{} must be finite and >= 0, got {}", name, v));
                return Duration(std::llround(v * 1000.0));
            };
            replay::Seed004Parameters p;
            p.heartbeat_cycle = non_negative(heartbeat_cycle_s, "heartbeat_cycle_s");
            if (!hpa_node_cpu.empty()) p.hpa_node_allocatable = Resources{{"cpu", hpa_node_cpu}, {"memory", "4Gi"}};
            p.hpa_pool_max_nodes = hpa_pool_max_nodes;
            p.cold_vm_latency = non_negative(cold_vm_latency_s, "cold_vm_latency_s");
            p.hpa_sync_period = non_negative(hpa_sync_period_s, "hpa_sync_period_s");
            p.hpa_metrics_window = non_negative(hpa_metrics_window_s, "hpa_metrics_window_s");
            p.max_replicas = hpa_max_replicas;
            replay::Seed004Report r;
            {
                py::gil_scoped_release release;
                r = replay::replay_seed004(p);
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
        py::arg("heartbeat_cycle_s") = 240.0, py::arg("hpa_node_cpu") = "", py::arg("hpa_pool_max_nodes") = 10, py::arg("cold_vm_latency_s") = 90.0,
        py::arg("hpa_sync_period_s") = 0.0, py::arg("hpa_metrics_window_s") = 0.0, py::arg("hpa_max_replicas") = 20,
        "Seed 004's experiment: HPA + CA and hierarchical rows for Heartbeat and Flash Sale. heartbeat_cycle_s: the Heartbeat's "
        "cycle the hierarchical scaler forecasts with (seasonal naive; a multiple of the 15-s control period), 0 = a linear trend. "
        "The HPA baseline's knobs (docs/papers.md): hpa_node_cpu, its pool's allocatable CPU per node (\"\" = 2 CPU, e2-medium's "
        "capacity; memory 4Gi); hpa_pool_max_nodes (10); cold_vm_latency_s, node boot for both configurations (90); hpa_sync_period_s "
        "(0 = the 15-s control period); hpa_metrics_window_s, the window the HPA's CPU metric is averaged over (0 = the tick); "
        "hpa_max_replicas (20).");
    sim.def(
        "replay_alibaba",
        [](const std::string& trace_path, int history_days, int minutes, int start_minute, double cores_per_percent, double static_headroom,
           const py::dict& forecasters) {
            replay::AlibabaParameters p;
            p.trace_path = trace_path;
            p.history_days = history_days;
            p.minutes = minutes;
            p.start_minute = start_minute;
            if (!(std::isfinite(cores_per_percent) && cores_per_percent > 0)) throw InvalidArgument(fmt::format("cores_per_percent must be finite and > 0, got {}", cores_per_percent));
            if (!(std::isfinite(static_headroom) && static_headroom > 0)) throw InvalidArgument(fmt::format("static_headroom must be finite and > 0, got {}", static_headroom));
            p.cores_per_percent = cores_per_percent;
            p.static_headroom = static_headroom;
            replay::Seed001Report r;
            {
                py::gil_scoped_release release;
                r = replay::replay_alibaba(p);
            }
            for (const auto& [label, forecaster] : forecasters) {
                replay::add_alibaba_hybrid(r, p, python::to_forecaster(py::reinterpret_borrow<py::object>(forecaster)), py::cast<std::string>(label));
            }
            return py::dict(py::arg("rows") = seed001_rows(r));
        },
        py::arg("trace_path"), py::arg("history_days") = 2, py::arg("minutes") = 1440, py::arg("start_minute") = -1, py::arg("cores_per_percent") = 2.0,
        py::arg("static_headroom") = 1.1, py::arg("forecasters") = py::dict(),
        "A day of the Alibaba 2018 cluster CPU trace as one namespace's demand through seed 001's quota scaling: static quota, reactive\n"
        "and hybrid (Holt-Winters, daily season) rows (QSR, DFR, deployment times, full result), plus one hybrid row per entry of\n"
        "forecasters {label: continuum.forecast model or callable history -> prediction}. trace_path: the CSV with column\n"
        "cpu_util_percent (data/traces/alibaba2018/machine_usage_days_1_to_8_grouped_30_seconds.csv in the repository, 30-s rows);\n"
        "history_days: days fitted on before the replayed minutes; minutes: minutes replayed; start_minute: first minute of the\n"
        "history (-1 = the trace's tail); cores_per_percent: demand in cores per % of cluster CPU; static_headroom: the static\n"
        "quota is the history's peak times this.");
}
}  // namespace continuum_bind_sim

void bind_sim(py::module_& m) { continuum_bind_sim::bind(m); }
