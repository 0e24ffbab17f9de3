// Python bindings for continuum/scalers: the Kubernetes HPA reference (Hpa, HpaMetric, behaviours,
// KEDA activation) and the MAS-H² HierarchicalScaler with its snapshot, plans and actions.
#include "common.hpp"
#include "repr.hpp"

#include <continuum/scalers.hpp>

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace continuum;
using namespace continuum::scalers;

namespace {

using PythonForecaster = python::HorizonCallableForecaster;
using python::GilSafeDeleter;

using PyHierarchical = HierarchicalScaler<PythonForecaster>;

/// The forecaster argument as a callable f(history, horizon): a callable as it is; a model with
/// fit(history) and forecast(horizon) (every continuum.forecast model) deep-copied and refitted on
/// the history at each call, its forecast's mean read (a numpy array is the mean itself).
py::object forecaster_callable(const py::object& forecaster) {
    if (py::hasattr(forecaster, "fit") && py::hasattr(forecaster, "forecast")) {
        py::object model = py::module_::import("copy").attr("deepcopy")(forecaster);
        return py::cpp_function([model](const py::array_t<double>& history, int horizon) -> py::object {
            model.attr("fit")(history);
            py::object result = model.attr("forecast")(horizon);
            if (!py::isinstance<py::array>(result) && py::hasattr(result, "mean")) result = result.attr("mean");
            return result;
        });
    }
    if (!PyCallable_Check(forecaster.ptr())) {
        throw InvalidArgument("forecaster: expected a callable f(history, horizon), a model with fit() and forecast(), or None; got " +
                              py::cast<std::string>(py::repr(forecaster)));
    }
    return forecaster;
}

std::vector<std::int64_t> to_int_vector(const py::object& o) { return py::cast<std::vector<std::int64_t>>(o); }

/// An instant in seconds (float) to a continuum Time, rejecting NaN and infinities.
Time time_from_seconds(double seconds, const char* argument) {
    if (!std::isfinite(seconds)) throw InvalidArgument(fmt::format("{} must be a finite number of seconds, got {}", argument, seconds));
    return Time{static_cast<std::int64_t>(std::llround(seconds * 1000.0))};
}

std::optional<double> seconds_of(const std::optional<Time>& t) {
    if (!t) return std::nullopt;
    return to_seconds(*t);
}

/// The Python constructor's and set_spec's arguments as an HpaSpec (validated by Hpa).
HpaSpec make_hpa_spec(std::int64_t min_replicas, std::int64_t max_replicas, std::vector<HpaMetric> metrics, double tolerance,
                      std::optional<HpaBehavior> behavior, double downscale_stabilization, std::optional<double> activation_cooldown,
                      bool seed_recommendations) {
    HpaSpec spec;
    spec.min_replicas = min_replicas;
    spec.max_replicas = max_replicas;
    spec.metrics = std::move(metrics);
    spec.tolerance = tolerance;
    spec.behavior = std::move(behavior);
    spec.downscale_stabilization = python::duration_from_seconds(downscale_stabilization, "downscale_stabilization");
    if (activation_cooldown) spec.activation = Activation{python::duration_from_seconds(*activation_cooldown, "activation_cooldown")};
    spec.seed_recommendations = seed_recommendations;
    return spec;
}

std::vector<std::tuple<std::int64_t, double, bool>> scale_events(const std::vector<Hpa::ScaleEvent>& events) {
    std::vector<std::tuple<std::int64_t, double, bool>> out;
    for (const auto& e : events) out.emplace_back(e.replicas, to_seconds(e.time), e.outdated);
    return out;
}

std::string optional_repr(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "None"; }

}  // namespace

void bind_scalers(py::module_& root) {
    py::module_ m = root.def_submodule("scalers", "The Kubernetes HPA reference and the MAS-H² hierarchical scaler (seed 004).");

    // ---------------- HPA ----------------
    py::enum_<MetricSource>(m, "MetricSource", "Where an HPA metric comes from (spec.metrics[].type).")
        .value("resource", MetricSource::resource)
        .value("pods", MetricSource::pods)
        .value("object", MetricSource::object)
        .value("external", MetricSource::external)
        .value("container_resource", MetricSource::container_resource);
    py::enum_<TargetType>(m, "TargetType", "An HPA metric target: utilization (percent), average value or value.")
        .value("utilization", TargetType::utilization)
        .value("average_value", TargetType::average_value)
        .value("value", TargetType::value);
    py::enum_<PodPhase>(m, "PodPhase", "A pod's phase as the HPA counts it.").value("pending", PodPhase::pending).value("running", PodPhase::running).value("failed", PodPhase::failed);

    py::class_<PodSample>(m, "PodSample", "One pod for one metric: phase, deleting, cpu_ready, value (milli-units or None), request (milli-units).")
        .def(py::init([](std::string name, std::optional<std::int64_t> value, std::int64_t request, PodPhase phase, bool deleting, bool cpu_ready) {
                 return PodSample{std::move(name), phase, deleting, cpu_ready, value, request};
             }),
             py::arg("name") = "", py::arg("value") = std::nullopt, py::arg("request") = 0, py::arg("phase") = PodPhase::running,
             py::arg("deleting") = false, py::arg("cpu_ready") = true)
        .def_readwrite("name", &PodSample::name)
        .def_readwrite("phase", &PodSample::phase)
        .def_readwrite("deleting", &PodSample::deleting)
        .def_readwrite("cpu_ready", &PodSample::cpu_ready)
        .def_readwrite("value", &PodSample::value)
        .def_readwrite("request", &PodSample::request)
        .def("__repr__", continuum::python::fields_repr({"name", "value", "request", "phase", "deleting", "cpu_ready"}));

    py::class_<HpaMetric>(m, "HpaMetric", R"pbdoc(
One spec.metrics entry with this cycle's observation. target: percent for utilization, milli-units
otherwise. Per-pod sources fill `pods`; object/external fill `value` (milli-units). container: the
container of a container_resource metric. timestamp: the metrics API's timestamp (seconds), reported
back in MetricProposal.timestamp.)pbdoc")
        .def(py::init([](std::string name, MetricSource source, TargetType target_type, std::int64_t target, std::vector<PodSample> pods,
                         std::optional<std::int64_t> value, bool available, std::int64_t activation_threshold, std::string container,
                         std::optional<double> timestamp) {
                 HpaMetric m{std::move(name), source, target_type, target, std::move(pods), value, available, activation_threshold, std::move(container), std::nullopt};
                 if (timestamp) m.timestamp = time_from_seconds(*timestamp, "timestamp");
                 return m;
             }),
             py::arg("name") = "cpu", py::arg("source") = MetricSource::resource, py::arg("target_type") = TargetType::utilization,
             py::arg("target") = 80, py::arg("pods") = std::vector<PodSample>{}, py::arg("value") = std::nullopt, py::arg("available") = true,
             py::arg("activation_threshold") = 0, py::arg("container") = "", py::arg("timestamp") = std::nullopt)
        .def_static(
            "resource_utilization",
            [](std::string name, std::int64_t target_percent, const py::object& usage, const py::object& requests, std::optional<py::object> ready) {
                HpaMetric metric{std::move(name), MetricSource::resource, TargetType::utilization, target_percent, {}, std::nullopt, true, 0, {}, std::nullopt};
                const auto u = to_int_vector(usage);
                const auto r = to_int_vector(requests);
                if (u.size() != r.size()) throw InvalidArgument(fmt::format("usage has {} pods but requests has {}", u.size(), r.size()));
                std::vector<bool> ok(u.size(), true);
                if (ready) {
                    const auto rd = py::cast<std::vector<bool>>(*ready);
                    if (rd.size() != u.size()) throw InvalidArgument(fmt::format("ready has {} entries for {} pods", rd.size(), u.size()));
                    ok = rd;
                }
                for (std::size_t i = 0; i < u.size(); ++i) {
                    metric.pods.push_back({fmt::format("pod-{}", i), PodPhase::running, false, ok[i], u[i] < 0 ? std::nullopt : std::optional<std::int64_t>(u[i]), r[i]});
                }
                return metric;
            },
            py::arg("name"), py::arg("target_percent"), py::arg("usage"), py::arg("requests"), py::arg("ready") = std::nullopt,
            "Resource Utilization metric from arrays of per-pod usage and requests in milli-units (usage < 0 = missing).")
        .def_readwrite("name", &HpaMetric::name)
        .def_readwrite("source", &HpaMetric::source)
        .def_readwrite("target_type", &HpaMetric::target_type)
        .def_readwrite("target", &HpaMetric::target)
        .def_readwrite("pods", &HpaMetric::pods)
        .def_readwrite("value", &HpaMetric::value)
        .def_readwrite("available", &HpaMetric::available)
        .def_readwrite("activation_threshold", &HpaMetric::activation_threshold)
        .def_readwrite("container", &HpaMetric::container)
        .def_property("timestamp", [](const HpaMetric& m) { return seconds_of(m.timestamp); },
                      [](HpaMetric& m, std::optional<double> s) { m.timestamp = s ? std::optional<Time>(time_from_seconds(*s, "timestamp")) : std::nullopt; })
        .def("__repr__", continuum::python::fields_repr({"name", "source", "target_type", "target", "pods?", "value?", "available", "activation_threshold", "container?", "timestamp?"}));

    py::class_<MetricProposal>(m, "MetricProposal", "What one HPA metric proposes: replicas, usage ratio, the status values and why.")
        .def_readonly("metric", &MetricProposal::metric)
        .def_readonly("valid", &MetricProposal::valid)
        .def_readonly("replicas", &MetricProposal::replicas)
        .def_readonly("usage_ratio", &MetricProposal::usage_ratio)
        .def_readonly("current", &MetricProposal::current)
        .def_readonly("reason", &MetricProposal::reason)
        .def_readonly("source", &MetricProposal::source)
        .def_readonly("average_utilization", &MetricProposal::average_utilization, "status averageUtilization (percent), Utilization targets")
        .def_readonly("average_value", &MetricProposal::average_value, "status averageValue (milli-units; the raw average for Utilization targets)")
        .def_readonly("value", &MetricProposal::value, "status value (milli-units), Value targets")
        .def_property_readonly("timestamp", [](const MetricProposal& p) { return seconds_of(p.timestamp); }, "the metric timestamp the controller carries (seconds) or None")
        .def_readonly("condition_reason", &MetricProposal::condition_reason, "the ScalingActive reason of an invalid metric (FailedGetResourceMetric, ...), else empty")
        .def("__repr__", [](const MetricProposal& p) {
            if (!p.valid) return fmt::format("MetricProposal('{}', invalid, {}, reason='{}')", p.metric, p.condition_reason, p.reason);
            return fmt::format("MetricProposal('{}', replicas={}, average_utilization={}, average_value={}, value={}, reason='{}')", p.metric, p.replicas,
                               optional_repr(p.average_utilization), optional_repr(p.average_value), optional_repr(p.value), p.reason);
        });

    m.def(
        "metric_replicas",
        [](const HpaMetric& metric, std::int64_t spec_replicas, std::optional<std::int64_t> status_replicas, std::optional<std::int64_t> ready_pods,
           double tolerance, std::optional<double> scale_down_tolerance, std::optional<double> scale_up_tolerance) {
            return metric_replicas(metric, {spec_replicas, status_replicas.value_or(spec_replicas), ready_pods.value_or(spec_replicas)},
                                   Tolerances{scale_down_tolerance.value_or(tolerance), scale_up_tolerance.value_or(tolerance)});
        },
        py::arg("metric"), py::arg("spec_replicas"), py::arg("status_replicas") = std::nullopt, py::arg("ready_pods") = std::nullopt,
        py::arg("tolerance") = 0.1, py::arg("scale_down_tolerance") = std::nullopt, py::arg("scale_up_tolerance") = std::nullopt,
        "One metric's replica proposal (the HPA replica calculator). scale_down_tolerance / scale_up_tolerance (behavior.scaleDown/scaleUp.tolerance) "
        "override `tolerance` per direction; any finite value >= 0.");

    m.def(
        "cpu_sample_unready",
        [](std::optional<double> start_time, std::optional<bool> ready, double last_transition_time, double metric_timestamp, double metric_window,
           double now, double cpu_initialization_period, double initial_readiness_delay) {
            const auto start = start_time ? std::optional<Time>(time_from_seconds(*start_time, "start_time")) : std::nullopt;
            return cpu_sample_unready(start, ready, time_from_seconds(last_transition_time, "last_transition_time"),
                                      time_from_seconds(metric_timestamp, "metric_timestamp"), python::duration_from_seconds(metric_window, "metric_window"),
                                      time_from_seconds(now, "now"), python::duration_from_seconds(cpu_initialization_period, "cpu_initialization_period"),
                                      python::duration_from_seconds(initial_readiness_delay, "initial_readiness_delay"));
        },
        py::arg("start_time"), py::arg("ready"), py::arg("last_transition_time"), py::arg("metric_timestamp"), py::arg("metric_window"), py::arg("now"),
        py::arg("cpu_initialization_period") = 300.0, py::arg("initial_readiness_delay") = 30.0,
        "groupPods' rule for setting a pod's cpu sample aside as not yet ready (use the result as PodSample.cpu_ready = not unready). "
        "Times in seconds; start_time / ready None = no start time / no Ready condition. Defaults: the controller's "
        "--horizontal-pod-autoscaler-cpu-initialization-period 5 min and --horizontal-pod-autoscaler-initial-readiness-delay 30 s.");

    py::enum_<ScalingPolicyType>(m, "ScalingPolicyType", "An HPA scaling policy counts pods or percent.").value("pods", ScalingPolicyType::pods).value("percent", ScalingPolicyType::percent);
    py::enum_<SelectPolicy>(m, "SelectPolicy", "How an HPA combines its scaling policies (selectPolicy).").value("max", SelectPolicy::max).value("min", SelectPolicy::min).value("disabled", SelectPolicy::disabled);
    py::class_<ScalingPolicy>(m, "ScalingPolicy", "At most `value` pods or percent per `period` seconds.")
        .def(py::init([](ScalingPolicyType type, std::int64_t value, double period) {
                 return ScalingPolicy{type, value, python::duration_from_seconds(period, "period")};
             }),
             py::arg("type"), py::arg("value"), py::arg("period") = 15.0)
        .def_readwrite("type", &ScalingPolicy::type)
        .def_readwrite("value", &ScalingPolicy::value)
        .def_property("period", [](const ScalingPolicy& p) { return to_seconds(p.period); },
                      [](ScalingPolicy& p, double s) { p.period = python::duration_from_seconds(s, "period"); })
        .def("__repr__", continuum::python::fields_repr({"type", "value", "period"}));
    py::class_<ScalingRules>(m, "ScalingRules", "HPAScalingRules: stabilization_window (s), select_policy, policies, tolerance.")
        .def(py::init([](double window, SelectPolicy select, std::vector<ScalingPolicy> policies, std::optional<double> tolerance) {
                 return ScalingRules{python::duration_from_seconds(window, "stabilization_window"), select, std::move(policies), tolerance};
             }),
             py::arg("stabilization_window"), py::arg("select_policy") = SelectPolicy::max, py::arg("policies") = std::vector<ScalingPolicy>{},
             py::arg("tolerance") = std::nullopt)
        .def_static("default_scale_up", &ScalingRules::default_scale_up, "Kubernetes' default scale-up rules: no stabilisation, max(100 %, 4 pods) per 15 s.")
        .def_static("default_scale_down", &ScalingRules::default_scale_down, "Kubernetes' default scale-down rules: 300 s stabilisation, 100 % per 15 s.")
        .def_property("stabilization_window", [](const ScalingRules& r) { return to_seconds(r.stabilization_window); },
                      [](ScalingRules& r, double s) { r.stabilization_window = python::duration_from_seconds(s, "stabilization_window"); })
        .def_readwrite("select_policy", &ScalingRules::select_policy)
        .def_readwrite("policies", &ScalingRules::policies)
        .def_readwrite("tolerance", &ScalingRules::tolerance)
        .def("__repr__", continuum::python::fields_repr({"stabilization_window", "select_policy", "policies", "tolerance"}));
    py::class_<HpaBehavior>(m, "HpaBehavior", "spec.behavior; the default is Kubernetes' documented default behaviour.")
        .def(py::init([](std::optional<ScalingRules> up, std::optional<ScalingRules> down) {
                 HpaBehavior b;
                 if (up) b.scale_up = *up;
                 if (down) b.scale_down = *down;
                 return b;
             }),
             py::arg("scale_up") = std::nullopt, py::arg("scale_down") = std::nullopt)
        .def_readwrite("scale_up", &HpaBehavior::scale_up)
        .def_readwrite("scale_down", &HpaBehavior::scale_down)
        .def("__repr__", continuum::python::fields_repr({"scale_up", "scale_down"}));

    py::class_<HpaDecision>(m, "HpaDecision", "One HPA sync: current and desired replicas, each metric's proposal, the status conditions and a reason.")
        .def_readonly("current_replicas", &HpaDecision::current_replicas)
        .def_readonly("desired_replicas", &HpaDecision::desired_replicas)
        .def_readonly("scale", &HpaDecision::scale)
        .def_readonly("metric_replicas", &HpaDecision::metric_replicas)
        .def_readonly("stabilized_replicas", &HpaDecision::stabilized_replicas)
        .def_readonly("proposals", &HpaDecision::proposals)
        .def_readonly("able_to_scale_reason", &HpaDecision::able_to_scale_reason)
        .def_readonly("scaling_active_reason", &HpaDecision::scaling_active_reason)
        .def_readonly("scaling_limited_reason", &HpaDecision::scaling_limited_reason)
        .def_readonly("stabilization_reason", &HpaDecision::stabilization_reason)
        .def_readonly("failed_metric", &HpaDecision::failed_metric)
        .def_property_readonly("metric_timestamp", [](const HpaDecision& d) { return seconds_of(d.metric_timestamp); })
        .def_readonly("active", &HpaDecision::active)
        .def_readonly("reason", &HpaDecision::reason)
        .def("__repr__", [](const HpaDecision& d) {
            return fmt::format("HpaDecision({} -> {}, AbleToScale={}, ScalingActive={}, ScalingLimited={}, reason='{}')", d.current_replicas,
                               d.desired_replicas, d.able_to_scale_reason, d.scaling_active_reason, d.scaling_limited_reason, d.reason);
        });

    py::class_<Hpa>(m, "Hpa", R"pbdoc(
The Kubernetes HPA controller for one target. behavior=HpaBehavior() (default) uses the documented
defaults; behavior=None reproduces the controller's path for an HPA without spec.behavior.
min_replicas=0 scales to zero (needs an object or external metric). activation_cooldown (seconds)
enables KEDA-style activation and scale to zero. seed_recommendations=True seeds the history with
the current replicas on the first decision, as the controller does on first sight.)pbdoc")
        .def(py::init([](std::int64_t min_replicas, std::int64_t max_replicas, std::vector<HpaMetric> metrics, double tolerance,
                         std::optional<HpaBehavior> behavior, double downscale_stabilization, std::optional<double> activation_cooldown,
                         bool seed_recommendations) {
                 return Hpa(make_hpa_spec(min_replicas, max_replicas, std::move(metrics), tolerance, std::move(behavior), downscale_stabilization,
                                          activation_cooldown, seed_recommendations));
             }),
             py::arg("min_replicas") = 1, py::arg("max_replicas") = 10, py::arg("metrics") = std::vector<HpaMetric>{}, py::arg("tolerance") = 0.1,
             py::arg("behavior") = HpaBehavior{}, py::arg("downscale_stabilization") = 300.0, py::arg("activation_cooldown") = std::nullopt,
             py::arg("seed_recommendations") = true)
        .def(
            "set_spec",
            [](Hpa& hpa, std::int64_t min_replicas, std::int64_t max_replicas, std::vector<HpaMetric> metrics, double tolerance,
               std::optional<HpaBehavior> behavior, double downscale_stabilization, std::optional<double> activation_cooldown, bool seed_recommendations) {
                hpa.set_spec(make_hpa_spec(min_replicas, max_replicas, std::move(metrics), tolerance, std::move(behavior), downscale_stabilization,
                                           activation_cooldown, seed_recommendations));
            },
            py::arg("min_replicas") = 1, py::arg("max_replicas") = 10, py::arg("metrics") = std::vector<HpaMetric>{}, py::arg("tolerance") = 0.1,
            py::arg("behavior") = HpaBehavior{}, py::arg("downscale_stabilization") = 300.0, py::arg("activation_cooldown") = std::nullopt,
            py::arg("seed_recommendations") = true,
            "Replaces the whole spec (same arguments as the constructor) as an edit of the HPA object: the recommendation and scale-event "
            "history is kept. On an error the Hpa is unchanged.")
        .def(
            "decide",
            [](Hpa& hpa, std::int64_t spec_replicas, double now, std::optional<std::vector<HpaMetric>> metrics,
               std::optional<std::int64_t> status_replicas, std::optional<std::int64_t> ready_pods) {
                const ScaleTargetState target{spec_replicas, status_replicas.value_or(spec_replicas), ready_pods.value_or(spec_replicas)};
                const Time t{static_cast<std::int64_t>(std::llround(now * 1000.0))};
                if (metrics) return hpa.decide(*metrics, target, t);
                return hpa.decide(target, t);
            },
            py::arg("spec_replicas"), py::arg("now"), py::arg("metrics") = std::nullopt, py::arg("status_replicas") = std::nullopt,
            py::arg("ready_pods") = std::nullopt, "One sync: now in seconds; metrics = fresh samples for every spec metric, in order.")
        .def("reset", &Hpa::reset, "Forgets all recorded recommendations and scale events (a restarted controller).")
        .def_property_readonly("recommendations", [](const Hpa& h) {
            std::vector<std::pair<std::int64_t, double>> out;
            for (const auto& r : h.recommendations()) out.emplace_back(r.replicas, to_seconds(r.time));
            return out;
        })
        .def_property_readonly("scale_up_events", [](const Hpa& h) { return scale_events(h.scale_up_events()); }, "[(replicas added, time s, outdated)]")
        .def_property_readonly("scale_down_events", [](const Hpa& h) { return scale_events(h.scale_down_events()); }, "[(replicas removed, time s, outdated)]")
        .def("__repr__", [](const Hpa& h) {
            const auto& s = h.spec();
            const auto cooldown = s.activation ? py::cast(to_seconds(s.activation->cooldown_period)) : py::object(py::none());
            return continuum::python::call_repr("Hpa", {{"min_replicas", py::cast(s.min_replicas)}, {"max_replicas", py::cast(s.max_replicas)},
                                                        {"metrics", py::cast(s.metrics)}, {"tolerance", py::cast(s.tolerance)}, {"behavior", py::cast(s.behavior)},
                                                        {"downscale_stabilization", py::cast(to_seconds(s.downscale_stabilization))},
                                                        {"activation_cooldown", cooldown}, {"seed_recommendations", py::cast(s.seed_recommendations)}});
        });

    // ---------------- Hierarchical (MAS-H²) ----------------
    py::class_<ApplicationState>(m, "ApplicationState", "A managed Deployment: pod_request, demand history (cores), replicas, node_pool, ready_replicas per pool.")
        .def(py::init([](std::string name, const python::ResourcesLike& pod_request, std::vector<double> demand, std::int64_t replicas, std::string node_pool,
                         std::map<std::string, std::int64_t> ready_replicas) {
                 return ApplicationState{std::move(name), python::to_resources(pod_request, "pod_request"), std::move(demand), replicas, std::move(node_pool), std::move(ready_replicas), {}};
             }),
             py::arg("name"), py::arg("pod_request"), py::arg("demand") = std::vector<double>{}, py::arg("replicas") = 0, py::arg("node_pool") = "",
             py::arg("ready_replicas") = std::map<std::string, std::int64_t>{})
        .def_readwrite("name", &ApplicationState::name)
        .def_readwrite("pod_request", &ApplicationState::pod_request)
        .def_readwrite("demand", &ApplicationState::demand)
        .def_readwrite("replicas", &ApplicationState::replicas)
        .def_readwrite("node_pool", &ApplicationState::node_pool)
        .def_readwrite("ready_replicas", &ApplicationState::ready_replicas)
        .def("__repr__", continuum::python::fields_repr({"name", "pod_request", "demand", "replicas", "node_pool", "ready_replicas?"}));
    py::class_<OtherWorkload>(m, "OtherWorkload", "Unmanaged pods occupying a pool.")
        .def(py::init([](std::string name, const python::ResourcesLike& request, std::int64_t count, std::string node_pool) {
                 return OtherWorkload{std::move(name), python::to_resources(request, "request"), count, std::move(node_pool)};
             }),
             py::arg("name"), py::arg("request"), py::arg("count") = 1, py::arg("node_pool") = "")
        .def_readwrite("name", &OtherWorkload::name)
        .def_readwrite("request", &OtherWorkload::request)
        .def_readwrite("count", &OtherWorkload::count)
        .def_readwrite("node_pool", &OtherWorkload::node_pool)
        .def("__repr__", continuum::python::fields_repr({"name", "request", "count", "node_pool"}));
    py::class_<NodePoolState>(m, "NodePoolState", "A resizable pool: size, ready_nodes, min/max size (-1 = unlimited), optional node type.")
        .def(py::init([](std::string name, std::int64_t size, std::optional<std::int64_t> ready_nodes, std::int64_t min_size, std::int64_t max_size,
                         std::optional<std::string> node_type, const python::OptionalResourcesLike& node_capacity, double node_cost) {
                 NodePoolState p;
                 p.name = std::move(name);
                 p.size = size;
                 p.ready_nodes = ready_nodes.value_or(size);
                 p.min_size = min_size;
                 p.max_size = max_size;
                 if (!node_capacity.is_none()) p.node_type = packing::NodeType{node_type.value_or(p.name), python::to_resources(node_capacity, "node_capacity"), node_cost, packing::unlimited};
                 return p;
             }),
             py::arg("name"), py::arg("size") = 0, py::arg("ready_nodes") = std::nullopt, py::arg("min_size") = 0, py::arg("max_size") = -1,
             py::arg("node_type") = std::nullopt, py::arg("node_capacity") = py::none(), py::arg("node_cost") = 0.0)
        .def_readwrite("name", &NodePoolState::name)
        .def_readwrite("size", &NodePoolState::size)
        .def_readwrite("ready_nodes", &NodePoolState::ready_nodes)
        .def_readwrite("min_size", &NodePoolState::min_size)
        .def_readwrite("max_size", &NodePoolState::max_size)
        .def("__repr__", continuum::python::fields_repr({"name", "size", "ready_nodes", "min_size", "max_size"}));
    py::class_<ClusterSnapshot>(m, "ClusterSnapshot", "applications, other_workloads, node_pools, plus signals and override_policy for the Strategic Agent.")
        .def(py::init([](std::vector<ApplicationState> applications, std::vector<NodePoolState> node_pools, std::vector<OtherWorkload> other_workloads,
                         std::map<std::string, std::string> signals, std::optional<std::string> override_policy) {
                 ClusterSnapshot s;
                 s.applications = std::move(applications);
                 s.node_pools = std::move(node_pools);
                 s.other_workloads = std::move(other_workloads);
                 s.context.signals = std::move(signals);
                 s.context.override_policy = std::move(override_policy);
                 return s;
             }),
             py::arg("applications"), py::arg("node_pools"), py::arg("other_workloads") = std::vector<OtherWorkload>{},
             py::arg("signals") = std::map<std::string, std::string>{}, py::arg("override_policy") = std::nullopt)
        .def_readwrite("applications", &ClusterSnapshot::applications)
        .def_readwrite("node_pools", &ClusterSnapshot::node_pools)
        .def_readwrite("other_workloads", &ClusterSnapshot::other_workloads)
        .def_property(
            "signals", [](const ClusterSnapshot& s) { return s.context.signals; },
            [](ClusterSnapshot& s, std::map<std::string, std::string> v) { s.context.signals = std::move(v); })
        .def_property(
            "override_policy", [](const ClusterSnapshot& s) { return s.context.override_policy; },
            [](ClusterSnapshot& s, std::optional<std::string> v) { s.context.override_policy = std::move(v); })
        .def("__repr__", continuum::python::fields_repr({"applications", "node_pools", "other_workloads?", "signals?", "override_policy?"}));

    py::class_<PatchDeployment>(m, "PatchDeployment", "Action: set a Deployment's replicas (and node pool).")
        .def_readonly("name", &PatchDeployment::name)
        .def_readonly("replicas", &PatchDeployment::replicas)
        .def_readonly("node_pool", &PatchDeployment::node_pool)
        .def_readonly("reason", &PatchDeployment::reason)
        .def("__repr__", [](const PatchDeployment& p) { return fmt::format("PatchDeployment('{}', replicas={}, node_pool='{}')", p.name, p.replicas, p.node_pool); });
    py::class_<ResizeNodePool>(m, "ResizeNodePool", "Action: resize a node pool to `size` nodes.")
        .def_readonly("pool", &ResizeNodePool::pool)
        .def_readonly("size", &ResizeNodePool::size)
        .def_readonly("reason", &ResizeNodePool::reason)
        .def("__repr__", [](const ResizeNodePool& r) { return fmt::format("ResizeNodePool('{}', size={})", r.pool, r.size); });
    py::class_<ApplicationPlan>(m, "ApplicationPlan", "The workload plan of one application: forecast peak, required, planned and current replicas, reason.")
        .def_readonly("name", &ApplicationPlan::name)
        .def_readonly("peak_cores", &ApplicationPlan::peak_cores)
        .def_readonly("required_replicas", &ApplicationPlan::required_replicas)
        .def_readonly("planned_replicas", &ApplicationPlan::planned_replicas)
        .def_readonly("current_replicas", &ApplicationPlan::current_replicas)
        .def_readonly("reason", &ApplicationPlan::reason)
        .def("__repr__", continuum::python::fields_repr({"name", "peak_cores", "required_replicas", "planned_replicas", "current_replicas", "reason"}));
    py::class_<PoolPlan>(m, "PoolPlan", "The node plan of one pool: pods to place, required and planned nodes, bounds and a reason.")
        .def_readonly("pool", &PoolPlan::pool)
        .def_readonly("node_type", &PoolPlan::node_type)
        .def_readonly("pods", &PoolPlan::pods)
        .def_readonly("required_nodes", &PoolPlan::required_nodes)
        .def_readonly("lower_bound", &PoolPlan::lower_bound)
        .def_readonly("optimal", &PoolPlan::optimal)
        .def_readonly("planned_size", &PoolPlan::planned_size)
        .def_readonly("current_size", &PoolPlan::current_size)
        .def_readonly("ready_nodes", &PoolPlan::ready_nodes)
        .def_readonly("reason", &PoolPlan::reason)
        .def("__repr__", continuum::python::fields_repr({"pool", "node_type", "pods", "required_nodes", "lower_bound", "optimal", "planned_size", "current_size", "ready_nodes", "reason"}));
    py::class_<UnschedulablePods>(m, "UnschedulablePods", "Pods of a workload that no node of its pool can hold.")
        .def_readonly("workload", &UnschedulablePods::workload)
        .def_readonly("node_pool", &UnschedulablePods::node_pool)
        .def_readonly("request", &UnschedulablePods::request)
        .def_readonly("count", &UnschedulablePods::count)
        .def("__repr__", continuum::python::fields_repr({"workload", "node_pool", "request", "count"}));
    py::enum_<MigrationPhase>(m, "MigrationPhase", "Where a make-before-break migration between node pools stands.")
        .value("none", MigrationPhase::none)
        .value("provisioning", MigrationPhase::provisioning)
        .value("migrating", MigrationPhase::migrating)
        .value("decommissioning", MigrationPhase::decommissioning);
    py::class_<HierarchicalDecision>(m, "HierarchicalDecision", "One MAS-H2 cycle: the policy chosen, per-application and per-pool plans, the actions to apply, migration state.")
        .def_readonly("selection", &HierarchicalDecision::selection)
        .def_readonly("policy", &HierarchicalDecision::policy)
        .def_readonly("applications", &HierarchicalDecision::applications)
        .def_readonly("pools", &HierarchicalDecision::pools)
        .def_readonly("patch_deployments", &HierarchicalDecision::patch_deployments)
        .def_readonly("resize_node_pools", &HierarchicalDecision::resize_node_pools)
        .def_readonly("unschedulable", &HierarchicalDecision::unschedulable)
        .def_readonly("migration", &HierarchicalDecision::migration)
        .def_readonly("migration_from", &HierarchicalDecision::migration_from)
        .def_readonly("migration_to", &HierarchicalDecision::migration_to)
        .def_readonly("state", &HierarchicalDecision::state)
        .def_readonly("utility", &HierarchicalDecision::utility)
        .def_readonly("reason", &HierarchicalDecision::reason)
        .def("__repr__", [](const HierarchicalDecision& d) {
            return fmt::format("HierarchicalDecision(policy='{}', {} patch(es), {} resize(s), migration={})", d.policy, d.patch_deployments.size(),
                               d.resize_node_pools.size(), to_string(d.migration));
        });

    py::class_<PyHierarchical>(m, "HierarchicalScaler", R"pbdoc(
MAS-H² hierarchical autoscaler. forecaster: a callable f(history: numpy array of cores, horizon: int)
-> sequence of floats, a continuum.forecast model (or any object with fit(history) and forecast(horizon);
it is deep-copied and refitted on the history at each decision), or None for "last value".
node_planner: "ffd" or "exact". Times in seconds.)pbdoc")
        .def(py::init([](policy::PolicySelector selector, const py::object& forecaster, int horizon, double step, std::size_t min_history,
                         std::size_t median_window, double scale_down_window, double dead_band, const std::string& node_planner,
                         std::int64_t exact_node_limit) {
                 HierarchicalConfig config;
                 config.horizon = horizon;
                 config.step = python::duration_from_seconds(step, "step");
                 config.min_history = min_history;
                 config.noise.median_window = median_window;
                 config.noise.scale_down_window = python::duration_from_seconds(scale_down_window, "scale_down_window");
                 config.noise.dead_band = dead_band;
                 if (node_planner == "ffd") {
                     config.node_planner = NodePlanner::first_fit_decreasing;
                 } else if (node_planner == "exact") {
                     config.node_planner = NodePlanner::exact;
                 } else {
                     throw InvalidArgument("node_planner: expected 'ffd' or 'exact', got '" + node_planner + "'");
                 }
                 config.exact_budget.node_limit = exact_node_limit;
                 PythonForecaster f;
                 if (!forecaster.is_none()) f.callable = std::shared_ptr<py::object>(new py::object(forecaster_callable(forecaster)), GilSafeDeleter{});
                 if (!forecaster.is_none()) f.source = std::shared_ptr<py::object>(new py::object(forecaster), GilSafeDeleter{});
                 return PyHierarchical(std::move(selector), std::move(f), config);
             }),
             py::arg("selector"), py::arg("forecaster") = py::none(), py::arg("horizon") = 5, py::arg("step") = 60.0, py::arg("min_history") = 3,
             py::arg("median_window") = 3, py::arg("scale_down_window") = 60.0, py::arg("dead_band") = 0.1, py::arg("node_planner") = "ffd",
             py::arg("exact_node_limit") = 10'000'000)
        .def(
            "decide",
            [](PyHierarchical& s, const ClusterSnapshot& snapshot, double now) {
                const Time t{static_cast<std::int64_t>(std::llround(now * 1000.0))};
                py::gil_scoped_release release;
                return s.decide(snapshot, t);
            },
            py::arg("snapshot"), py::arg("now"), "One strategic -> planning -> execution cycle; now in seconds.")
        .def("evaluate", &PyHierarchical::evaluate, py::arg("snapshot"), py::arg("policy"), "What-if UtilityState of planning under `policy`.")
        .def_property_readonly("migration_phase", &PyHierarchical::migration_phase)
        .def("reset", &PyHierarchical::reset, "Forgets the noise filter's memory and any migration in progress.")
        .def("__repr__", [](const PyHierarchical& s) {
            const auto& c = s.config();
            return continuum::python::call_repr("HierarchicalScaler", {{"selector", py::cast(s.selector())}, {"horizon", py::cast(c.horizon)},
                                                                       {"step", py::cast(to_seconds(c.step))}, {"min_history", py::cast(c.min_history)},
                                                                       {"median_window", py::cast(c.noise.median_window)},
                                                                       {"scale_down_window", py::cast(to_seconds(c.noise.scale_down_window))},
                                                                       {"dead_band", py::cast(c.noise.dead_band)},
                                                                       {"node_planner", py::str(c.node_planner == NodePlanner::exact ? "exact" : "ffd")},
                                                                       {"exact_node_limit", py::cast(c.exact_budget.node_limit)}});
        });

    // Pickling of the HPA's configuration values through their constructors (issue 17).
    {
        auto pod = py::reinterpret_borrow<py::class_<PodSample>>(m.attr("PodSample"));
        python::reduce_by_constructor<PodSample>(pod, [](const PodSample& p) { return py::make_tuple(p.name, p.value, p.request, p.phase, p.deleting, p.cpu_ready); });
        auto metric = py::reinterpret_borrow<py::class_<HpaMetric>>(m.attr("HpaMetric"));
        python::reduce_by_constructor<HpaMetric>(metric, [](const HpaMetric& x) {
            return py::make_tuple(x.name, x.source, x.target_type, x.target, x.pods, x.value, x.available, x.activation_threshold, x.container,
                                  seconds_of(x.timestamp));
        });
        auto policy = py::reinterpret_borrow<py::class_<ScalingPolicy>>(m.attr("ScalingPolicy"));
        python::reduce_by_constructor<ScalingPolicy>(policy, [](const ScalingPolicy& p) { return py::make_tuple(p.type, p.value, to_seconds(p.period)); });
        auto rules = py::reinterpret_borrow<py::class_<ScalingRules>>(m.attr("ScalingRules"));
        python::reduce_by_constructor<ScalingRules>(rules, [](const ScalingRules& r) {
            return py::make_tuple(to_seconds(r.stabilization_window), r.select_policy, r.policies, r.tolerance);
        });
        auto behavior = py::reinterpret_borrow<py::class_<HpaBehavior>>(m.attr("HpaBehavior"));
        python::reduce_by_constructor<HpaBehavior>(behavior, [](const HpaBehavior& b) { return py::make_tuple(b.scale_up, b.scale_down); });
    }

#if CONTINUUM_HAVE_NLOHMANN_JSON
    // State (issue 17): pickled as (class, constructor arguments of the configuration, state document).
    {
        auto cls = py::reinterpret_borrow<py::class_<Hpa>>(m.attr("Hpa"));
        python::bind_state(
            root, cls, [](const Hpa& h) { return h.state(); }, [](const Hpa& h, const HpaState& state) { return Hpa(h.spec(), state); },
            [](const Hpa& h) {
                const HpaSpec& s = h.spec();
                const py::object cooldown = s.activation ? py::object(py::float_(to_seconds(s.activation->cooldown_period))) : py::object(py::none());
                return py::make_tuple(s.min_replicas, s.max_replicas, s.metrics, s.tolerance, s.behavior, to_seconds(s.downscale_stabilization), cooldown,
                                      s.seed_recommendations);
            });
    }
    {
        auto cls = py::reinterpret_borrow<py::class_<PyHierarchical>>(m.attr("HierarchicalScaler"));
        python::bind_state(
            root, cls, [](const PyHierarchical& s) { return s.state(); },
            [](const PyHierarchical& s, const HierarchicalScalerState& state) { return PyHierarchical(s.selector(), s.prototype(), s.config(), state); },
            [](const PyHierarchical& s) {
                const HierarchicalConfig& c = s.config();
                const py::object forecaster = s.prototype().source ? *s.prototype().source : py::none();
                return py::make_tuple(s.selector(), forecaster, c.horizon, to_seconds(c.step), c.min_history, c.noise.median_window,
                                      to_seconds(c.noise.scale_down_window), c.noise.dead_band,
                                      c.node_planner == NodePlanner::exact ? "exact" : "ffd", c.exact_budget.node_limit);
            });
    }
#endif
}
