// Python bindings for continuum/scalers: the Kubernetes HPA reference (Hpa, HpaMetric, behaviours,
// KEDA activation) and the MAS-H² HierarchicalScaler with its snapshot, plans and actions.
#include "common.hpp"
#include "forecasters.hpp"
#include "repr.hpp"
#include "state.hpp"

#include <continuum/scalers.hpp>
#if CONTINUUM_HAVE_NLOHMANN_JSON
#include <continuum/serialization/scalers.hpp>
#endif

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace py = pybind11;
// A namespace of its own per bind_<area>.cpp: its using-directives and file-local helpers stay out of
// the other files of a unity unit (CONTINUUM_PYTHON_UNITY), whichever files it is grouped with.
namespace continuum_bind_scalers {
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

// HPA amounts (issue 18): a bare number is whole units, a string a quantity, as for Resources; the
// replica calculator works on milli-units (Quantity.MilliValue: a value finer than 1m rounds up).
std::int64_t milli(const py::handle& value, const std::string& argument) { return python::amount_from_python("metric", value, argument, scale::milli); }
std::optional<std::int64_t> optional_milli(const std::optional<python::AmountLike>& value, const std::string& argument) {
    if (!value || value->is_none()) return std::nullopt;
    return milli(*value, argument);
}
std::optional<python::Amount> optional_amount(const std::optional<std::int64_t>& milli_value) {
    if (!milli_value) return std::nullopt;
    return python::milli_to_python(*milli_value);
}
/// A target: averageUtilization is a percent (an int), the others amounts.
std::int64_t target_of(TargetType type, const py::handle& value, const std::string& argument) {
    if (type == TargetType::utilization) return python::field_from_python<std::int64_t>(value, argument + " (percent)");
    return milli(value, argument);
}
/// Per-pod amounts of resource_utilization: amounts, or milli-unit integers when `milli_units`; None
/// (and, for usage, a negative number) is a missing sample.
std::vector<std::optional<std::int64_t>> milli_list(const py::object& values, const char* argument, bool milli_units, bool missing_allowed) {
    if (py::isinstance<py::str>(values) || !py::isinstance<py::iterable>(values)) {
        throw InvalidArgument(fmt::format("{}: expected a list or array of amounts, got {}", argument, python::type_name(values)));
    }
    std::vector<std::optional<std::int64_t>> out;
    for (const auto& v : py::reinterpret_borrow<py::iterable>(values)) {
        const std::string at = fmt::format("{}[{}]", argument, out.size());
        std::optional<std::int64_t> x;
        if (!v.is_none()) x = milli_units ? python::field_from_python<std::int64_t>(v, at + " (milli-units)") : milli(v, at);
        if (x && *x < 0 && missing_allowed) x.reset();
        if (!x && !missing_allowed) throw InvalidArgument(at + ": a request is required, got " + py::cast<std::string>(py::repr(v)));
        out.push_back(x);
    }
    return out;
}

}  // namespace

void bind(py::module_& root) {
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

    py::class_<PodSample> pod_sample(m, "PodSample", R"pbdoc(
One pod for one metric: phase, deleting, cpu_ready, value (the pod's metric value or None) and request (its request of the
resource, utilization targets). Amounts as everywhere: a bare number is whole units (cores, bytes), a string a quantity
("250m"); the canonical milli-units (Quantity.MilliValue, what the replica calculator uses) are value_milli and request_milli.)pbdoc");
    pod_sample.def(py::init([](std::string name, const std::optional<python::AmountLike>& value, const python::AmountLike& request, PodPhase phase, bool deleting,
                               bool cpu_ready) {
                       return PodSample{std::move(name), phase, deleting, cpu_ready, optional_milli(value, "PodSample.value"), milli(request, "PodSample.request")};
                   }),
                   py::arg("name") = "", py::arg("value") = std::nullopt, py::arg("request") = 0, py::arg("phase") = PodPhase::running,
                   py::arg("deleting") = false, py::arg("cpu_ready") = true);
    python::def_field(pod_sample, "name", &PodSample::name);
    python::def_field(pod_sample, "phase", &PodSample::phase);
    python::def_field(pod_sample, "deleting", &PodSample::deleting);
    python::def_field(pod_sample, "cpu_ready", &PodSample::cpu_ready);
    python::def_field(pod_sample, "value", [](const PodSample& p) { return optional_amount(p.value); },
                      [](PodSample& p, std::optional<python::AmountLike> v) { p.value = optional_milli(v, "PodSample.value"); });
    python::def_field(pod_sample, "request", [](const PodSample& p) { return python::milli_to_python(p.request); },
                      [](PodSample& p, python::AmountLike v) { p.request = milli(v, "PodSample.request"); });
    pod_sample.def_property_readonly("value_milli", [](const PodSample& p) { return p.value; }, "value in milli-units (canonical), or None")
        .def_property_readonly("request_milli", [](const PodSample& p) { return p.request; }, "request in milli-units (canonical)")
        .def("__repr__", continuum::python::fields_repr({"name", "value", "request", "phase", "deleting", "cpu_ready"}));

    py::class_<HpaMetric> hpa_metric(m, "HpaMetric", R"pbdoc(
One spec.metrics entry with this cycle's observation. target: averageUtilization (an int percent) for utilization
targets, else the averageValue or value as an amount (a bare number is whole units, a string a quantity: "500m").
Per-pod sources fill `pods`; object/external fill `value` (an amount). activation_threshold: KEDA's, an amount.
The canonical milli-units the replica calculator works on (Quantity.MilliValue, rounded up as upstream) are
target_milli, value_milli and activation_threshold_milli. container: the container of a container_resource metric.
timestamp: the metrics API's timestamp (seconds), reported back in MetricProposal.timestamp.)pbdoc");
    hpa_metric.def(py::init([](std::string name, MetricSource source, TargetType target_type, const python::AmountLike& target, std::vector<PodSample> pods,
                               const std::optional<python::AmountLike>& value, bool available, const python::AmountLike& activation_threshold, std::string container,
                               std::optional<double> timestamp) {
                       HpaMetric metric{std::move(name), source, target_type, 0, std::move(pods), optional_milli(value, "HpaMetric.value"), available,
                                        milli(activation_threshold, "HpaMetric.activation_threshold"), std::move(container), std::nullopt};
                       metric.target = target_of(target_type, target, "HpaMetric.target");
                       if (timestamp) metric.timestamp = time_from_seconds(*timestamp, "timestamp");
                       return metric;
                   }),
                   py::arg("name") = "cpu", py::arg("source") = MetricSource::resource, py::arg("target_type") = TargetType::utilization,
                   py::arg("target") = 80, py::arg("pods") = std::vector<PodSample>{}, py::arg("value") = std::nullopt, py::arg("available") = true,
                   py::arg("activation_threshold") = 0, py::arg("container") = "", py::arg("timestamp") = std::nullopt)
        .def_static(
            "resource_utilization",
            [](std::string name, std::int64_t target_percent, const py::object& usage, const py::object& requests, std::optional<py::object> ready, bool milli_units) {
                HpaMetric metric{std::move(name), MetricSource::resource, TargetType::utilization, target_percent, {}, std::nullopt, true, 0, {}, std::nullopt};
                const auto u = milli_list(usage, "usage", milli_units, true);
                const auto r = milli_list(requests, "requests", milli_units, false);
                if (u.size() != r.size()) throw InvalidArgument(fmt::format("usage has {} pods but requests has {}", u.size(), r.size()));
                std::vector<bool> ok(u.size(), true);
                if (ready) {
                    const auto rd = py::cast<std::vector<bool>>(*ready);
                    if (rd.size() != u.size()) throw InvalidArgument(fmt::format("ready has {} entries for {} pods", rd.size(), u.size()));
                    ok = rd;
                }
                for (std::size_t i = 0; i < u.size(); ++i) {
                    metric.pods.push_back({fmt::format("pod-{}", i), PodPhase::running, false, ok[i], u[i], *r[i]});
                }
                return metric;
            },
            py::arg("name"), py::arg("target_percent"), py::arg("usage"), py::arg("requests"), py::arg("ready") = std::nullopt, py::arg("milli") = false,
            "Resource Utilization metric from per-pod usage and requests: amounts (whole units: cores, bytes; quantity strings; None or < 0 = "
            "no sample), or with milli=True integers in milli-units (millicores, as the metrics API's MilliValue).");
    python::def_field(hpa_metric, "name", &HpaMetric::name);
    python::def_field(hpa_metric, "source", &HpaMetric::source);
    python::def_field(hpa_metric, "target_type", &HpaMetric::target_type);
    python::def_field(hpa_metric, "target",
                      [](const HpaMetric& x) { return x.target_type == TargetType::utilization ? python::Amount(py::int_(x.target)) : python::milli_to_python(x.target); },
                      [](HpaMetric& x, python::AmountLike v) { x.target = target_of(x.target_type, v, "HpaMetric.target"); },
                      "averageUtilization (int percent) for utilization targets, else an amount; set target_type first");
    python::def_field(hpa_metric, "pods", &HpaMetric::pods);
    python::def_field(hpa_metric, "value", [](const HpaMetric& x) { return optional_amount(x.value); },
                      [](HpaMetric& x, std::optional<python::AmountLike> v) { x.value = optional_milli(v, "HpaMetric.value"); });
    python::def_field(hpa_metric, "available", &HpaMetric::available);
    python::def_field(hpa_metric, "activation_threshold", [](const HpaMetric& x) { return python::milli_to_python(x.activation_threshold); },
                      [](HpaMetric& x, python::AmountLike v) { x.activation_threshold = milli(v, "HpaMetric.activation_threshold"); });
    python::def_field(hpa_metric, "container", &HpaMetric::container);
    python::def_field(hpa_metric, "timestamp", [](const HpaMetric& x) { return seconds_of(x.timestamp); },
                      [](HpaMetric& x, std::optional<double> s) { x.timestamp = s ? std::optional<Time>(time_from_seconds(*s, "HpaMetric.timestamp")) : std::nullopt; });
    hpa_metric.def_property_readonly("target_milli", [](const HpaMetric& x) { return x.target; }, "the target the replica calculator reads (percent for utilization targets, else milli-units)")
        .def_property_readonly("value_milli", [](const HpaMetric& x) { return x.value; }, "value in milli-units (canonical), or None")
        .def_property_readonly("activation_threshold_milli", [](const HpaMetric& x) { return x.activation_threshold; }, "activation_threshold in milli-units (canonical)")
        .def("__repr__", continuum::python::fields_repr({"name", "source", "target_type", "target", "pods?", "value?", "available", "activation_threshold", "container?", "timestamp?"}));

    py::class_<MetricProposal>(m, "MetricProposal", R"pbdoc(
What one HPA metric proposes: replicas, usage ratio, the status values and why. Status amounts (current for non-utilization
targets, average_value, value) read as amounts (whole units as an int, else a quantity string); *_milli give the
milli-units the controller writes.)pbdoc")
        .def_readonly("metric", &MetricProposal::metric)
        .def_readonly("valid", &MetricProposal::valid)
        .def_readonly("replicas", &MetricProposal::replicas)
        .def_readonly("usage_ratio", &MetricProposal::usage_ratio)
        .def_property_readonly("current", [](const MetricProposal& p) { return p.average_utilization ? python::Amount(py::int_(p.current)) : python::milli_to_python(p.current); },
                               "utilisation percent (int) for Utilization targets, else the average value or value (an amount)")
        .def_readonly("reason", &MetricProposal::reason)
        .def_readonly("source", &MetricProposal::source)
        .def_readonly("average_utilization", &MetricProposal::average_utilization, "status averageUtilization (percent), Utilization targets")
        .def_property_readonly("average_value", [](const MetricProposal& p) { return optional_amount(p.average_value); },
                               "status averageValue as an amount (the raw average for Utilization targets), or None")
        .def_property_readonly("value", [](const MetricProposal& p) { return optional_amount(p.value); }, "status value as an amount (Value targets), or None")
        .def_readonly("average_value_milli", &MetricProposal::average_value, "average_value in milli-units (canonical), or None")
        .def_readonly("value_milli", &MetricProposal::value, "value in milli-units (canonical), or None")
        .def_property_readonly("timestamp", [](const MetricProposal& p) { return seconds_of(p.timestamp); }, "the metric timestamp the controller carries (seconds) or None")
        .def_readonly("condition_reason", &MetricProposal::condition_reason, "the ScalingActive reason of an invalid metric (FailedGetResourceMetric, ...), else empty")
        .def("__repr__", [](const py::object& self) {
            const auto& p = py::cast<const MetricProposal&>(self);
            if (!p.valid) return fmt::format("MetricProposal('{}', invalid, {}, reason='{}')", p.metric, p.condition_reason, p.reason);
            return fmt::format("MetricProposal('{}', replicas={}, average_utilization={}, average_value={}, value={}, reason='{}')", p.metric, p.replicas,
                               optional_repr(p.average_utilization), python::repr_value(self.attr("average_value")), python::repr_value(self.attr("value")),
                               p.reason);
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
    py::class_<ScalingPolicy> scaling_policy(m, "ScalingPolicy", "At most `value` pods or percent per `period` seconds.");
    scaling_policy.def(py::init([](ScalingPolicyType type, std::int64_t value, double period) {
                 return ScalingPolicy{type, value, python::duration_from_seconds(period, "period")};
             }),
             py::arg("type"), py::arg("value"), py::arg("period") = 15.0);
    python::def_field(scaling_policy, "type", &ScalingPolicy::type);
    python::def_field(scaling_policy, "value", &ScalingPolicy::value);
    python::def_field(scaling_policy, "period", [](const ScalingPolicy& p) { return to_seconds(p.period); },
                      [](ScalingPolicy& p, double s) { p.period = python::duration_from_seconds(s, "period"); });
    scaling_policy.def("__repr__", continuum::python::fields_repr({"type", "value", "period"}));
    py::class_<ScalingRules> scaling_rules(m, "ScalingRules", "HPAScalingRules: stabilization_window (s), select_policy, policies, tolerance.");
    scaling_rules.def(py::init([](double window, SelectPolicy select, std::vector<ScalingPolicy> policies, std::optional<double> tolerance) {
                 return ScalingRules{python::duration_from_seconds(window, "stabilization_window"), select, std::move(policies), tolerance};
             }),
             py::arg("stabilization_window"), py::arg("select_policy") = SelectPolicy::max, py::arg("policies") = std::vector<ScalingPolicy>{},
             py::arg("tolerance") = std::nullopt)
        .def_static("default_scale_up", &ScalingRules::default_scale_up, "Kubernetes' default scale-up rules: no stabilisation, max(100 %, 4 pods) per 15 s.")
        .def_static("default_scale_down", &ScalingRules::default_scale_down, "Kubernetes' default scale-down rules: 300 s stabilisation, 100 % per 15 s.");
    python::def_field(scaling_rules, "stabilization_window", [](const ScalingRules& r) { return to_seconds(r.stabilization_window); },
                      [](ScalingRules& r, double s) { r.stabilization_window = python::duration_from_seconds(s, "stabilization_window"); });
    python::def_field(scaling_rules, "select_policy", &ScalingRules::select_policy);
    python::def_field(scaling_rules, "policies", &ScalingRules::policies);
    python::def_field(scaling_rules, "tolerance", &ScalingRules::tolerance);
    scaling_rules.def("__repr__", continuum::python::fields_repr({"stabilization_window", "select_policy", "policies", "tolerance"}));
    py::class_<HpaBehavior> hpa_behavior(m, "HpaBehavior", "spec.behavior; the default is Kubernetes' documented default behaviour.");
    hpa_behavior.def(py::init([](std::optional<ScalingRules> up, std::optional<ScalingRules> down) {
                 HpaBehavior b;
                 if (up) b.scale_up = *up;
                 if (down) b.scale_down = *down;
                 return b;
             }),
             py::arg("scale_up") = std::nullopt, py::arg("scale_down") = std::nullopt);
    python::def_field(hpa_behavior, "scale_up", &HpaBehavior::scale_up);
    python::def_field(hpa_behavior, "scale_down", &HpaBehavior::scale_down);
    hpa_behavior.def("__repr__", continuum::python::fields_repr({"scale_up", "scale_down"}));

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
    py::class_<ApplicationState> application_state(m, "ApplicationState", "A managed Deployment: pod_request, demand history (cores), replicas, node_pool, ready_replicas per pool.");
    application_state.def(py::init([](std::string name, const python::ResourcesLike& pod_request, std::vector<double> demand, std::int64_t replicas, std::string node_pool,
                         std::map<std::string, std::int64_t> ready_replicas) {
                 return ApplicationState{std::move(name), python::to_resources(pod_request, "pod_request"), std::move(demand), replicas, std::move(node_pool), std::move(ready_replicas), {}};
             }),
             py::arg("name"), py::arg("pod_request"), py::arg("demand") = std::vector<double>{}, py::arg("replicas") = 0, py::arg("node_pool") = "",
             py::arg("ready_replicas") = std::map<std::string, std::int64_t>{});
    python::def_field(application_state, "name", &ApplicationState::name);
    python::def_field(application_state, "pod_request", &ApplicationState::pod_request);
    python::def_field(application_state, "demand", &ApplicationState::demand);
    python::def_field(application_state, "replicas", &ApplicationState::replicas);
    python::def_field(application_state, "node_pool", &ApplicationState::node_pool);
    python::def_field(application_state, "ready_replicas", &ApplicationState::ready_replicas);
    application_state.def("__repr__", continuum::python::fields_repr({"name", "pod_request", "demand", "replicas", "node_pool", "ready_replicas?"}));
    py::class_<OtherWorkload> other_workload(m, "OtherWorkload", "Unmanaged pods occupying a pool.");
    other_workload.def(py::init([](std::string name, const python::ResourcesLike& request, std::int64_t count, std::string node_pool) {
                 return OtherWorkload{std::move(name), python::to_resources(request, "request"), count, std::move(node_pool)};
             }),
             py::arg("name"), py::arg("request"), py::arg("count") = 1, py::arg("node_pool") = "");
    python::def_field(other_workload, "name", &OtherWorkload::name);
    python::def_field(other_workload, "request", &OtherWorkload::request);
    python::def_field(other_workload, "count", &OtherWorkload::count);
    python::def_field(other_workload, "node_pool", &OtherWorkload::node_pool);
    other_workload.def("__repr__", continuum::python::fields_repr({"name", "request", "count", "node_pool"}));
    py::class_<NodePoolState> node_pool_state(m, "NodePoolState", "A resizable pool: size, ready_nodes, min/max size (-1 = unlimited), optional node type.");
    node_pool_state.def(py::init([](std::string name, std::int64_t size, std::optional<std::int64_t> ready_nodes, std::int64_t min_size, std::int64_t max_size,
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
             py::arg("node_type") = std::nullopt, py::arg("node_capacity") = py::none(), py::arg("node_cost") = 0.0);
    python::def_field(node_pool_state, "name", &NodePoolState::name);
    python::def_field(node_pool_state, "size", &NodePoolState::size);
    python::def_field(node_pool_state, "ready_nodes", &NodePoolState::ready_nodes);
    python::def_field(node_pool_state, "min_size", &NodePoolState::min_size);
    python::def_field(node_pool_state, "max_size", &NodePoolState::max_size);
    node_pool_state.def("__repr__", continuum::python::fields_repr({"name", "size", "ready_nodes", "min_size", "max_size"}));
    py::class_<ClusterSnapshot> cluster_snapshot(m, "ClusterSnapshot", "applications, other_workloads, node_pools, plus signals and override_policy for the Strategic Agent.");
    cluster_snapshot.def(py::init([](std::vector<ApplicationState> applications, std::vector<NodePoolState> node_pools, std::vector<OtherWorkload> other_workloads,
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
             py::arg("signals") = std::map<std::string, std::string>{}, py::arg("override_policy") = std::nullopt);
    python::def_field(cluster_snapshot, "applications", &ClusterSnapshot::applications);
    python::def_field(cluster_snapshot, "node_pools", &ClusterSnapshot::node_pools);
    python::def_field(cluster_snapshot, "other_workloads", &ClusterSnapshot::other_workloads);
    python::def_field(cluster_snapshot, "signals", [](const ClusterSnapshot& s) { return s.context.signals; },
            [](ClusterSnapshot& s, std::map<std::string, std::string> v) { s.context.signals = std::move(v); });
    python::def_field(cluster_snapshot, "override_policy", [](const ClusterSnapshot& s) { return s.context.override_policy; },
            [](ClusterSnapshot& s, std::optional<std::string> v) { s.context.override_policy = std::move(v); });
    cluster_snapshot.def("__repr__", continuum::python::fields_repr({"applications", "node_pools", "other_workloads?", "signals?", "override_policy?"}));

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
    python::def_result(py::class_<ApplicationPlan>(m, "ApplicationPlan", "The workload plan of one application: forecast peak, required, planned and current replicas, reason."),
                        python::field("name", &ApplicationPlan::name),
                        python::field("peak_cores", &ApplicationPlan::peak_cores),
                        python::field("required_replicas", &ApplicationPlan::required_replicas),
                        python::field("planned_replicas", &ApplicationPlan::planned_replicas),
                        python::field("current_replicas", &ApplicationPlan::current_replicas),
                        python::field("reason", &ApplicationPlan::reason));
    python::def_result(py::class_<PoolPlan>(m, "PoolPlan", "The node plan of one pool: pods to place, required and planned nodes, bounds and a reason."),
                        python::field("pool", &PoolPlan::pool),
                        python::field("node_type", &PoolPlan::node_type),
                        python::field("pods", &PoolPlan::pods),
                        python::field("required_nodes", &PoolPlan::required_nodes),
                        python::field("lower_bound", &PoolPlan::lower_bound),
                        python::field("optimal", &PoolPlan::optimal),
                        python::field("planned_size", &PoolPlan::planned_size),
                        python::field("current_size", &PoolPlan::current_size),
                        python::field("ready_nodes", &PoolPlan::ready_nodes),
                        python::field("reason", &PoolPlan::reason));
    python::def_result(py::class_<UnschedulablePods>(m, "UnschedulablePods", "Pods of a workload that no node of its pool can hold."),
                        python::field("workload", &UnschedulablePods::workload),
                        python::field("node_pool", &UnschedulablePods::node_pool),
                        python::field("request", &UnschedulablePods::request),
                        python::field("count", &UnschedulablePods::count));
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
        python::reduce_by_constructor<PodSample>(pod, [](const PodSample& p) {
            return py::make_tuple(p.name, optional_amount(p.value), python::milli_to_python(p.request), p.phase, p.deleting, p.cpu_ready);
        });
        auto metric = py::reinterpret_borrow<py::class_<HpaMetric>>(m.attr("HpaMetric"));
        python::reduce_by_constructor<HpaMetric>(metric, [](const HpaMetric& x) {
            const python::Amount target = x.target_type == TargetType::utilization ? python::Amount(py::int_(x.target)) : python::milli_to_python(x.target);
            return py::make_tuple(x.name, x.source, x.target_type, target, x.pods, optional_amount(x.value), x.available,
                                  python::milli_to_python(x.activation_threshold), x.container, seconds_of(x.timestamp));
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
}  // namespace continuum_bind_scalers

void bind_scalers(py::module_& m) { continuum_bind_scalers::bind(m); }
