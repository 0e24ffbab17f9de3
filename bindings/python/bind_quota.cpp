// Python bindings for continuum/quota: QuotaLevels, ReactiveQuotaScaler (Algorithm 2),
// ProactiveQuotaScaler (Algorithm 1), HybridQuotaScaler over any forecaster, the fairness rule and
// split_across_clusters (seed 001, hybrid resource-quota scaling for Karmada FRQ).
//
// HybridQuotaScaler takes its forecaster as: a continuum.forecast.AnyForecaster when the forecast
// bindings register one; any object with fit(history) / update(value) / forecast(horizon[, level])
// (every continuum.forecast model, or your own), deep-copied per namespace and resource; or a plain
// callable history -> prediction (float, or a sequence over the horizon).
#include "common.hpp"
#include "forecasters.hpp"
#include "quota_levels.hpp"
#include "repr.hpp"
#include "state.hpp"

#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/quota.hpp>
#if CONTINUUM_HAVE_NLOHMANN_JSON
#include <continuum/serialization/quota.hpp>
#endif

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
// A namespace of its own per bind_<area>.cpp: its using-directives and file-local helpers stay out of
// the other files of a unity unit (CONTINUUM_PYTHON_UNITY), whichever files it is grouped with.
namespace continuum_bind_quota {
using namespace continuum;
using namespace continuum::quota;

namespace {

using python::to_optional_resources;
using python::to_resources;
using python::to_resources_list;

capacity::ActivationObjective to_objective(const py::handle& value) {
    if (py::isinstance<capacity::ActivationObjective>(value)) return py::cast<capacity::ActivationObjective>(value);
    const auto text = py::cast<std::string>(value);
    if (text == "fewest_nodes") return capacity::ActivationObjective::fewest_nodes;
    if (text == "cheapest") return capacity::ActivationObjective::cheapest;
    if (text == "fastest") return capacity::ActivationObjective::fastest;
    throw InvalidArgument("objective: expected 'fewest_nodes', 'cheapest' or 'fastest', got '" + text + "'");
}

DecreaseCondition to_condition(const py::handle& value) {
    if (py::isinstance<DecreaseCondition>(value)) return py::cast<DecreaseCondition>(value);
    const auto text = py::cast<std::string>(value);
    if (text == "usage_within_target") return DecreaseCondition::usage_within_target;
    if (text == "usage_below_current_quota") return DecreaseCondition::usage_below_current_quota;
    throw InvalidArgument("condition: expected 'usage_within_target' or 'usage_below_current_quota', got '" + text + "'");
}

/// {resource: QuotaLevels or [amounts]}; amounts as in Resources dicts (int or float whole units, quantity strings).
ResourceQuotaLevels to_levels(const py::handle& value) {
    ResourceQuotaLevels out;
    if (value.is_none()) return out;
    if (!py::isinstance<py::dict>(value)) {
        throw InvalidArgument("levels: expected a dict {resource: QuotaLevels or list of amounts}, got " + python::type_name(value));
    }
    for (const auto& [key, item] : py::reinterpret_borrow<py::dict>(value)) {
        const auto name = py::cast<std::string>(key);
        out.set(name, python::to_quota_levels(item, name, "levels[\"" + name + "\"]"));
    }
    return out;
}

using python::QuotaLevelsOf;

/// A Snap as Python reads it: value in the levels' whole units (see amount_to_python).
struct SnapOf {
    std::string resource;
    Snap snap;
};

std::int64_t snap_argument(const QuotaLevelsOf& l, const py::handle& value) { return python::amount_from_python(l.resource, value, "value"); }

std::vector<python::Amount> amounts_of(const QuotaLevelsOf& l) { return python::amounts_to_python(l.resource, l.levels.levels()); }

std::vector<capacity::WaitingNode> to_pool(const py::handle& value) {
    if (value.is_none()) return {};
    return py::cast<std::vector<capacity::WaitingNode>>(value);
}

/// packing.NodeState when the packing bindings register it, else dicts
/// {name, capacity, cost, pods: [{name, request, movable}]}.
std::vector<packing::NodeState> to_nodes(const py::handle& value) {
    std::vector<packing::NodeState> out;
    if (value.is_none()) return out;
    for (const auto& item : py::reinterpret_borrow<py::iterable>(value)) {
        if (py::detail::get_type_info(typeid(packing::NodeState)) != nullptr && !py::isinstance<py::dict>(item)) {
            out.push_back(py::cast<packing::NodeState>(item));
            continue;
        }
        if (!py::isinstance<py::dict>(item)) throw InvalidArgument("nodes: expected dicts {name, capacity, cost, pods: [{name, request, movable}]}");
        const auto node = py::reinterpret_borrow<py::dict>(item);
        packing::NodeState state;
        state.name = py::cast<std::string>(node["name"]);
        state.capacity = to_resources(node["capacity"], "nodes[].capacity");
        state.cost = node.contains("cost") ? py::cast<double>(node["cost"]) : 0.0;
        if (node.contains("pods")) {
            for (const auto& p : py::reinterpret_borrow<py::iterable>(node["pods"])) {
                const auto pod = py::reinterpret_borrow<py::dict>(p);
                state.pods.push_back(packing::PlacedPod{py::cast<std::string>(pod["name"]), to_resources(pod["request"], "pods[].request"),
                                                        pod.contains("movable") ? py::cast<bool>(pod["movable"]) : true});
            }
        }
        out.push_back(std::move(state));
    }
    return out;
}

py::dict consolidation_to_dict(const packing::ConsolidationPlan& plan) {
    py::list moves;
    for (const auto& m : plan.moves) moves.append(py::dict(py::arg("pod") = m.pod, py::arg("from") = m.from, py::arg("to") = m.to));
    return py::dict(py::arg("nodes_to_release") = plan.nodes_to_release, py::arg("moves") = moves, py::arg("saved_cost") = plan.saved_cost,
                    py::arg("reason") = plan.reason);
}

using python::to_forecaster;

using PyHybrid = HybridQuotaScaler<forecast::AnyForecaster>;

NamespaceSnapshot to_namespace(const py::handle& value) {
    if (py::isinstance<NamespaceSnapshot>(value)) return py::cast<NamespaceSnapshot>(value);
    if (!py::isinstance<py::dict>(value)) throw InvalidArgument("namespaces: expected NamespaceSnapshot or dict {name, usage, quota, failed_requests}");
    const auto d = py::reinterpret_borrow<py::dict>(value);
    NamespaceSnapshot ns;
    ns.name = py::cast<std::string>(d["name"]);
    ns.usage = d.contains("usage") ? to_optional_resources(d["usage"], "usage") : Resources{};
    ns.quota = d.contains("quota") ? to_optional_resources(d["quota"], "quota") : Resources{};
    if (d.contains("failed_requests")) {
        ns.failed_requests = to_resources_list(d["failed_requests"], "failed_requests");
    }
    return ns;
}

std::vector<NamespaceSnapshot> to_namespaces(const py::iterable& values) {
    std::vector<NamespaceSnapshot> out;
    for (const auto& v : values) out.push_back(to_namespace(v));
    return out;
}

}  // namespace

namespace {

/// The built-in C++ forecasters the forecast bindings register, each wrapped as itself (so the
/// hybrid scaler's models have a state: issue 17); any other model goes through ModelForecaster.
template <typename... F>
forecast::AnyForecaster built_in_or_python(const py::object& value) {
    forecast::AnyForecaster out;
    const bool found = ((py::detail::get_type_info(typeid(F)) != nullptr && py::isinstance<F>(value) && (out = forecast::AnyForecaster(py::cast<F>(value)), true)) || ...);
    return found ? out : python::to_forecaster(value);
}
forecast::AnyForecaster to_stateful_forecaster(const py::object& value) {
    using namespace forecast;
    return built_in_or_python<Naive, Drift, SimpleExponentialSmoothing, SeasonalNaive, SeasonalMedian, MovingAverage, MovingMedian, LinearRegression, HoltWinters<double>,
                              Lstm<double>>(value);
}

#if CONTINUUM_HAVE_NLOHMANN_JSON
/// The Python object of a built-in model (for pickling a hybrid scaler's prototype).
template <typename... F>
py::object forecaster_object(const forecast::AnyForecaster& model) {
    py::object out;
    const bool found = (([&] {
                            if (const auto* m = model.target<F>()) out = py::cast(*m);
                            return static_cast<bool>(out);
                        }()) || ...);
    if (!found) throw InvalidArgument(fmt::format("pickling a HybridQuotaScaler needs a built-in forecaster, not {}", model.name()));
    return out;
}
#endif
py::dict levels_dict(const ResourceQuotaLevels& levels) {
    py::dict out;
    for (const auto& [name, l] : levels.entries()) {
        py::list values;
        for (const auto v : l.levels()) values.append(format_resource(name, v));
        out[py::str(name)] = values;
    }
    return out;
}
const char* objective_name(capacity::ActivationObjective o) {
    return o == capacity::ActivationObjective::fewest_nodes ? "fewest_nodes" : (o == capacity::ActivationObjective::cheapest ? "cheapest" : "fastest");
}
const char* condition_name(DecreaseCondition c) { return c == DecreaseCondition::usage_within_target ? "usage_within_target" : "usage_below_current_quota"; }

}  // namespace

/// The keyword arguments that rebuild a proactive configuration (the reprs of the quota scalers).
std::vector<std::pair<std::string, py::object>> proactive_arguments(const ProactiveConfig& c) {
    return {{"resources", py::cast(c.resources)}, {"levels", levels_dict(c.levels)}, {"condition", py::str(condition_name(c.condition))},
            {"decrease_hold", py::cast(to_seconds(c.decrease_hold))}, {"objective", py::str(objective_name(c.objective))}, {"node_limit", py::cast(c.budget.node_limit)}};
}

void bind(py::module_& root) {
    py::module_ m = root.def_submodule("quota", "Quota levels; reactive, proactive and hybrid quota scaling (seed 001).");

    py::enum_<SnapOutcome>(m, "SnapOutcome", "Where a value fell when snapped to quota levels.")
        .value("on_level", SnapOutcome::on_level)
        .value("above_top", SnapOutcome::above_top)
        .value("below_bottom", SnapOutcome::below_bottom);
    py::class_<SnapOf>(m, "Snap", "Result of a reporting snap: value (in the levels' whole units, as QuotaLevels.levels) and where it fell.")
        .def_property_readonly("value", [](const SnapOf& s) { return python::amount_to_python(s.resource, s.snap.value); })
        .def_property_readonly("outcome", [](const SnapOf& s) { return s.snap.outcome; })
        .def_property_readonly("on_level", [](const SnapOf& s) { return s.snap.on_level(); })
        .def("__repr__", [](const SnapOf& s) {
            return fmt::format("Snap(value={}, outcome={})", py::cast<std::string>(py::repr(python::amount_to_python(s.resource, s.snap.value))),
                               s.snap.outcome == SnapOutcome::on_level ? "on_level" : s.snap.outcome == SnapOutcome::above_top ? "above_top" : "below_bottom");
        });

    py::class_<QuotaLevelsOf>(m, "QuotaLevels", R"pbdoc(Operator-defined quota levels of one resource (sorted, unique, positive).
Numbers are whole units of `resource` (default "cpu": cores), as everywhere in continuum's Python API:
QuotaLevels([20, 40, 60, 80, 100]).snap_up(42) == 60 (cores); snap_up(14.5) takes a float forecast
(rounded up to the millicore) and QuotaLevels(["500m", 1]) quantity strings. Raises InvalidArgument
for empty, unsorted or non-positive levels, NaN, infinity or a wrong type, naming the argument.)pbdoc")
        .def(py::init([](const python::LevelsLike& levels, const std::string& resource) {
                 return QuotaLevelsOf{resource, python::to_quota_levels(levels, resource, "levels")};
             }),
             py::arg("levels"), py::arg("resource") = "cpu")
        .def_static("parse", [](const std::string& resource, const std::vector<std::string>& quantities) { return QuotaLevelsOf{resource, QuotaLevels::parse(resource, quantities)}; },
                    py::arg("resource"), py::arg("quantities"), "Levels written as Kubernetes quantities: QuotaLevels.parse('cpu', ['500m', '1']).")
        .def("snap_up", [](const QuotaLevelsOf& l, const python::AmountLike& value) { return python::amount_to_python(l.resource, l.levels.snap_up(snap_argument(l, value), l.resource)); },
             py::arg("value"),
             "Smallest level >= value (the paper's GetNearestQuotaLevel: 77 -> 80, 42 -> 60, 19 -> 20). Raises Infeasible above the top level.")
        .def("snap_down", [](const QuotaLevelsOf& l, const python::AmountLike& value) { return python::amount_to_python(l.resource, l.levels.snap_down(snap_argument(l, value), l.resource)); },
             py::arg("value"), "Largest level <= value. Raises Infeasible above the top or below the lowest level.")
        .def("snap_nearest", [](const QuotaLevelsOf& l, const python::AmountLike& value) { return python::amount_to_python(l.resource, l.levels.snap_nearest(snap_argument(l, value), l.resource)); },
             py::arg("value"), "Closest level, ties up. Raises Infeasible above the top level.")
        .def("try_snap_up", [](const QuotaLevelsOf& l, const python::AmountLike& value) { return SnapOf{l.resource, l.levels.try_snap_up(snap_argument(l, value), l.resource)}; },
             py::arg("value"), "snap_up that reports instead of raising: Snap(value, outcome).")
        .def("try_snap_down", [](const QuotaLevelsOf& l, const python::AmountLike& value) { return SnapOf{l.resource, l.levels.try_snap_down(snap_argument(l, value), l.resource)}; },
             py::arg("value"),
             "snap_down that reports instead of raising: above the top level Snap(value, above_top), below the lowest Snap(value, below_bottom).")
        .def("try_snap_nearest", [](const QuotaLevelsOf& l, const python::AmountLike& value) { return SnapOf{l.resource, l.levels.try_snap_nearest(snap_argument(l, value), l.resource)}; },
             py::arg("value"), "snap_nearest that reports instead of raising: above the top level Snap(value, above_top).")
        .def_property_readonly("resource", [](const QuotaLevelsOf& l) { return l.resource; }, "The resource whose whole units the numbers are.")
        .def_property_readonly("levels", &amounts_of, "The levels in whole units (ints, or quantity strings such as '500m' when not whole).")
        .def_property_readonly("canonical_levels", [](const QuotaLevelsOf& l) { return l.levels.levels(); }, "The levels in canonical integer units (millicores for cpu).")
        .def_property_readonly("top", [](const QuotaLevelsOf& l) { return python::amount_to_python(l.resource, l.levels.top()); })
        .def_property_readonly("bottom", [](const QuotaLevelsOf& l) { return python::amount_to_python(l.resource, l.levels.bottom()); })
        .def("__len__", [](const QuotaLevelsOf& l) { return l.levels.size(); })
        .def("__eq__", [](const QuotaLevelsOf& a, const QuotaLevelsOf& b) { return a.resource == b.resource && a.levels == b.levels; })
        .def("__repr__", [](const QuotaLevelsOf& l) {
            std::vector<std::string> shown;
            for (const auto& v : amounts_of(l)) shown.push_back(py::cast<std::string>(py::repr(v)));
            return fmt::format("QuotaLevels([{}]{})", fmt::join(shown, ", "), l.resource == "cpu" ? "" : ", resource=" + py::cast<std::string>(py::repr(py::str(l.resource))));
        });

    // ---- Reactive (Algorithm 2)
    py::enum_<ReactiveCase>(m, "ReactiveCase", "Which case of Algorithm 2 applied.")
        .value("sufficient_quota", ReactiveCase::sufficient_quota)
        .value("raise_quota", ReactiveCase::raise_quota)
        .value("activate_nodes", ReactiveCase::activate_nodes)
        .value("infeasible", ReactiveCase::infeasible);
    py::class_<ReactiveDecision>(m, "ReactiveDecision", "One reactive step (Algorithm 2): the case, new quota, nodes to activate, what is still missing, reason.")
        .def_readonly("kind", &ReactiveDecision::kind)
        .def_property_readonly("case", &ReactiveDecision::case_number, "1, 2 or 3 as in the paper; 0 when infeasible.")
        .def_readonly("new_quota", &ReactiveDecision::new_quota)
        .def_readonly("quota_increase", &ReactiveDecision::quota_increase)
        .def_readonly("activation", &ReactiveDecision::activation)
        .def_property_readonly("nodes_to_activate", &ReactiveDecision::nodes_to_activate)
        .def_readonly("still_missing", &ReactiveDecision::still_missing)
        .def_readonly("reason", &ReactiveDecision::reason)
        .def_property_readonly("deploy", &ReactiveDecision::deploy)
        .def("__repr__", continuum::python::fields_repr({"kind", "new_quota", "quota_increase", "nodes_to_activate", "still_missing", "reason"}));
    py::class_<ReactiveQuotaScaler>(m, "ReactiveQuotaScaler", "Algorithm 2 of the hybrid quota paper (stateless).")
        .def(py::init([](const py::object& objective, std::int64_t node_limit) {
                 return ReactiveQuotaScaler(ReactiveConfig{to_objective(objective), Budget{node_limit, {}}});
             }),
             py::arg("objective") = "fewest_nodes", py::arg("node_limit") = capacity::default_activation_node_limit)
        .def(
            "decide",
            [](const ReactiveQuotaScaler& s, const python::ResourcesLike& request, const python::ResourcesLike& current_quota,
               const python::ResourcesLike& available, const py::object& waiting_nodes) {
                const auto pool = to_pool(waiting_nodes);  // the snapshot views it
                const ReactiveSnapshot snapshot{to_resources(request, "request"), to_resources(current_quota, "current_quota"), to_resources(available, "available"),
                                                pool};
                py::gil_scoped_release release;
                return s.decide(snapshot);
            },
            py::arg("request"), py::arg("current_quota"), py::arg("available"), py::arg("waiting_nodes") = py::none(),
            R"pbdoc(One reactive step: request = what the quota must admit (usage + new pods), current_quota,
available = free cluster resources, waiting_nodes = list of continuum.capacity.WaitingNode.)pbdoc")
        .def("__repr__", [](const ReactiveQuotaScaler& s) { return continuum::python::call_repr("ReactiveQuotaScaler", {{"objective", py::str(objective_name(s.config().objective))}, {"node_limit", py::cast(s.config().budget.node_limit)}}); });

    // ---- Proactive (Algorithm 1)
    py::enum_<DecreaseCondition>(m, "DecreaseCondition", "When a predicted decrease may be applied: usage within the new target, or below the current quota.")
        .value("usage_within_target", DecreaseCondition::usage_within_target)
        .value("usage_below_current_quota", DecreaseCondition::usage_below_current_quota);
    py::enum_<ProactiveAction>(m, "ProactiveAction", "What a proactive step did to the quota (Algorithm 1).")
        .value("hold", ProactiveAction::hold)
        .value("raise_quota", ProactiveAction::raise_quota)
        .value("activate_and_raise_quota", ProactiveAction::activate_and_raise_quota)
        .value("infeasible", ProactiveAction::infeasible)
        .value("wait_for_usage_decrease", ProactiveAction::wait_for_usage_decrease)
        .value("lower_quota", ProactiveAction::lower_quota);
    py::class_<ProactiveDecision>(m, "ProactiveDecision", "One proactive step (Algorithm 1): action, new and target quota, nodes to activate, consolidation, reason.")
        .def_readonly("action", &ProactiveDecision::action)
        .def_readonly("new_quota", &ProactiveDecision::new_quota)
        .def_readonly("target_quota", &ProactiveDecision::target_quota)
        .def_readonly("activation", &ProactiveDecision::activation)
        .def_property_readonly("nodes_to_activate", &ProactiveDecision::nodes_to_activate)
        .def_property_readonly("consolidation", [](const ProactiveDecision& d) -> py::object {
            return d.consolidation ? py::object(consolidation_to_dict(*d.consolidation)) : py::object(py::none());
        }, "None, or {nodes_to_release, moves: [{pod, from, to}], saved_cost, reason}.")
        .def_readonly("still_missing", &ProactiveDecision::still_missing)
        .def_readonly("above_top_level", &ProactiveDecision::above_top_level)
        .def_readonly("reason", &ProactiveDecision::reason)
        .def("__repr__", continuum::python::fields_repr({"action", "new_quota", "target_quota", "nodes_to_activate", "still_missing", "above_top_level", "reason"}));
    py::class_<ProactiveQuotaScaler>(m, "ProactiveQuotaScaler", "Algorithm 1 of the hybrid quota paper, with its wait-for-usage state.")
        .def(py::init([](std::vector<std::string> resources, const py::object& levels, const py::object& condition, double decrease_hold,
                         const py::object& objective, std::int64_t node_limit) {
                 ProactiveConfig config;
                 config.resources = std::move(resources);
                 config.levels = to_levels(levels);
                 config.condition = to_condition(condition);
                 config.decrease_hold = python::duration_from_seconds(decrease_hold, "decrease_hold");
                 config.objective = to_objective(objective);
                 config.budget = Budget{node_limit, {}};
                 return ProactiveQuotaScaler(std::move(config));
             }),
             py::arg("resources") = std::vector<std::string>{"cpu"}, py::arg("levels") = py::none(), py::arg("condition") = "usage_within_target",
             py::arg("decrease_hold") = 0.0, py::arg("objective") = "fewest_nodes", py::arg("node_limit") = capacity::default_activation_node_limit,
             R"pbdoc(resources: managed resource names; levels: {resource: [quantities] or QuotaLevels};
condition: 'usage_within_target' (default) or 'usage_below_current_quota' (the paper's literal line 17);
decrease_hold: seconds usage must stay down before lowering.)pbdoc")
        .def(
            "decide",
            [](ProactiveQuotaScaler& s, double now, const python::ResourcesLike& prediction, const python::ResourcesLike& current_quota,
               const python::ResourcesLike& current_usage, const python::ResourcesLike& cluster_resources, const py::object& waiting_nodes, const py::object& nodes) {
                const auto pool = to_pool(waiting_nodes);  // the snapshot views them
                const auto states = to_nodes(nodes);
                const ProactiveSnapshot snapshot{python::duration_from_seconds(now, "now"), to_resources(prediction, "prediction"),
                                                 to_resources(current_quota, "current_quota"), to_resources(current_usage, "current_usage"),
                                                 to_resources(cluster_resources, "cluster_resources"), pool, states};
                py::gil_scoped_release release;
                return s.decide(snapshot);
            },
            py::arg("now"), py::arg("prediction"), py::arg("current_quota"), py::arg("current_usage"), py::arg("cluster_resources"),
            py::arg("waiting_nodes") = py::none(), py::arg("nodes") = py::none(),
            "One step at time now (seconds). nodes: active nodes [{name, capacity, cost, pods: [{name, request, movable}]}] for consolidation.")
        .def_property_readonly("pending_target", [](const ProactiveQuotaScaler& s) -> py::object {
            return s.pending() ? py::cast(s.pending()->target) : py::object(py::none());
        }, "The lowered quota waiting for usage to come down, or None.")
        .def("reset", &ProactiveQuotaScaler::reset, "Forgets the pending decrease and the last time seen.")
        .def("__repr__", [](const ProactiveQuotaScaler& s) { return continuum::python::call_repr("ProactiveQuotaScaler", proactive_arguments(s.config())); });

    // ---- Fairness and cluster split
    m.def(
        "share_by_priority",
        [](std::int64_t capacity, const std::vector<std::int64_t>& demands, const std::vector<int>& priorities) {
            return share_by_priority(capacity, demands, priorities);
        },
        py::arg("capacity"), py::arg("demands"), py::arg("priorities"),
        "Integer shares of capacity: highest priority first, then in proportion to demand (largest remainders).");
    m.def(
        "split_across_clusters",
        [](const python::ResourcesLike& overall_value, const py::dict& clusters) {
            const Resources overall = to_resources(overall_value, "overall");
            std::vector<MemberCluster> members;
            for (const auto& [k, v] : clusters) members.push_back(MemberCluster{py::cast<std::string>(k), to_resources(v, "clusters[\"" + py::cast<std::string>(k) + "\"]")});
            py::dict out;
            for (auto& a : split_across_clusters(overall, members)) out[py::str(a.cluster_name)] = a.hard;
            return out;
        },
        py::arg("overall"), py::arg("clusters"),
        "Splits overall across {cluster: capacity} in proportion to capacity, exactly (Karmada FRQ staticAssignments).");

    // ---- Hybrid
    py::class_<NamespaceSnapshot> namespace_snapshot(m, "NamespaceSnapshot",
                                  "One namespace at one tick: name, usage and quota (Resources or dict), and the requests that failed\n"
                                  "admission since the last tick (failed_requests, a list of Resources or dicts).");
    namespace_snapshot.def(py::init([](std::string name, const python::OptionalResourcesLike& usage, const python::OptionalResourcesLike& quota, const py::object& failed_requests) {
                 NamespaceSnapshot ns{std::move(name), to_optional_resources(usage, "usage"), to_optional_resources(quota, "quota"), {}};
                 if (!failed_requests.is_none()) ns.failed_requests = to_resources_list(failed_requests, "failed_requests");
                 return ns;
             }),
             py::arg("name"), py::arg("usage"), py::arg("quota"), py::arg("failed_requests") = py::none());
    python::def_field(namespace_snapshot, "name", &NamespaceSnapshot::name);
    python::def_field(namespace_snapshot, "usage", &NamespaceSnapshot::usage);
    python::def_field(namespace_snapshot, "quota", &NamespaceSnapshot::quota);
    python::def_field(namespace_snapshot, "failed_requests", &NamespaceSnapshot::failed_requests);
    namespace_snapshot.def("__repr__", continuum::python::fields_repr({"name", "usage", "quota", "failed_requests?"}));
    py::class_<NamespaceDecision>(m, "NamespaceDecision", "One namespace's quota at a hybrid tick: before and after, what it wanted, the prediction and its steps.")
        .def_readonly("name", &NamespaceDecision::name)
        .def_readonly("priority", &NamespaceDecision::priority)
        .def_readonly("quota", &NamespaceDecision::quota)
        .def_readonly("previous_quota", &NamespaceDecision::previous_quota)
        .def_readonly("wanted", &NamespaceDecision::wanted)
        .def_readonly("cut", &NamespaceDecision::cut)
        .def_readonly("prediction", &NamespaceDecision::prediction)
        .def_readonly("pending_target", &NamespaceDecision::pending_target)
        .def_readonly("proactive", &NamespaceDecision::proactive)
        .def_readonly("reactive", &NamespaceDecision::reactive)
        .def_readonly("failed_requests", &NamespaceDecision::failed_requests)
        .def_readonly("warming_up", &NamespaceDecision::warming_up)
        .def_property_readonly("changed", &NamespaceDecision::changed)
        .def_property_readonly("was_cut", &NamespaceDecision::was_cut)
        .def_property_readonly("reason", &NamespaceDecision::reason)
        .def("__repr__", continuum::python::fields_repr({"name", "priority", "quota", "previous_quota", "wanted", "prediction", "reason"}));
    py::class_<HybridDecision>(m, "HybridDecision", "One hybrid tick: a decision per namespace, waiting nodes to resume, consolidation, fairness cuts and a reason.")
        .def_property_readonly("now", [](const HybridDecision& d) { return to_seconds(d.now); })
        .def_readonly("namespaces", &HybridDecision::namespaces)
        .def_readonly("activation", &HybridDecision::activation)
        .def_property_readonly("nodes_to_activate", [](const HybridDecision& d) { return d.activation.names; })
        .def_property_readonly("consolidation", [](const HybridDecision& d) -> py::object {
            return d.consolidation ? py::object(consolidation_to_dict(*d.consolidation)) : py::object(py::none());
        })
        .def_readonly("cut", &HybridDecision::cut, "Indices of the namespaces the fairness rule cut.")
        .def_readonly("total_wanted", &HybridDecision::total_wanted)
        .def_readonly("backed_capacity", &HybridDecision::backed_capacity)
        .def_readonly("still_missing", &HybridDecision::still_missing)
        .def_readonly("reason", &HybridDecision::reason)
        .def("__getitem__", [](const HybridDecision& d, const std::string& name) {
            for (const auto& n : d.namespaces) {
                if (n.name == name) return n;
            }
            throw py::key_error(name);
        })
        .def("__repr__", continuum::python::fields_repr({"now", "namespaces", "nodes_to_activate", "cut", "total_wanted", "backed_capacity", "still_missing", "reason"}));

    py::class_<PyHybrid>(m, "HybridQuotaScaler", R"pbdoc(Hybrid quota scaling over one or many namespaces sharing a
cluster. forecaster: any continuum forecaster (an object with fit(history), update(value),
forecast(horizon[, level]) -> Forecast / sequence / float; deep-copied per namespace and resource), or
a plain callable history (numpy array) -> prediction (float or sequence over the horizon).)pbdoc")
        .def(py::init([](const py::object& forecaster, std::vector<std::string> resources, const py::object& levels, const py::object& condition,
                         double decrease_hold, const py::object& objective, std::int64_t node_limit, int horizon, double interval_level,
                         std::size_t min_history, std::size_t max_history, std::size_t refit_every, double step) {
                 HybridConfig config;
                 config.proactive.resources = std::move(resources);
                 config.proactive.levels = to_levels(levels);
                 config.proactive.condition = to_condition(condition);
                 config.proactive.decrease_hold = python::duration_from_seconds(decrease_hold, "decrease_hold");
                 config.proactive.objective = to_objective(objective);
                 config.proactive.budget = Budget{node_limit, {}};
                 config.horizon = horizon;
                 config.interval_level = interval_level;
                 config.min_history = min_history;
                 config.max_history = max_history;
                 config.refit_every = refit_every;
                 config.step = python::duration_from_seconds(step, "step");
                 return std::make_unique<PyHybrid>(to_stateful_forecaster(forecaster), std::move(config));
             }),
             py::arg("forecaster"), py::arg("resources") = std::vector<std::string>{"cpu"}, py::arg("levels") = py::none(),
             py::arg("condition") = "usage_within_target", py::arg("decrease_hold") = 0.0, py::arg("objective") = "fewest_nodes",
             py::arg("node_limit") = capacity::default_activation_node_limit, py::arg("horizon") = 1, py::arg("interval_level") = 0.0,
             py::arg("min_history") = 10, py::arg("max_history") = 1440, py::arg("refit_every") = 0, py::arg("step") = 60.0)
        .def("add_namespace", &PyHybrid::add_namespace, py::arg("name"), py::arg("priority") = 0, "Registers a namespace or updates its priority.")
        .def("__len__", &PyHybrid::size)
        .def("pending_target", [](const PyHybrid& s, const std::string& name) -> py::object {
            const auto& p = s.pending(name);
            return p ? py::cast(p->target) : py::object(py::none());
        }, py::arg("name"), "The target of the namespace's pending (delayed) quota decrease, or None.")
        .def(
            "tick",
            [](PyHybrid& s, double now, const python::ResourcesLike& capacity, const py::iterable& namespaces, const py::object& waiting_nodes, const py::object& nodes) {
                const auto ns = to_namespaces(namespaces);
                const auto pool = to_pool(waiting_nodes);
                const auto states = to_nodes(nodes);
                // The GIL stays held: Python forecasters are called during the tick.
                return s.tick(ClusterSnapshot{python::duration_from_seconds(now, "now"), to_resources(capacity, "capacity"), pool, states}, ns);
            },
            py::arg("now"), py::arg("capacity"), py::arg("namespaces"), py::arg("waiting_nodes") = py::none(), py::arg("nodes") = py::none(),
            R"pbdoc(Observe usage, forecast, decide. namespaces: NamespaceSnapshot or dicts {name, usage, quota,
failed_requests}; capacity: the cluster's allocatable capacity shared by the namespaces.)pbdoc")
        .def(
            "tick_with_predictions",
            [](PyHybrid& s, double now, const python::ResourcesLike& capacity_value, const py::iterable& namespaces, const python::ResourcesListLike& predictions,
               const py::object& waiting_nodes, const py::object& nodes) {
                const Resources capacity = to_resources(capacity_value, "capacity");
                const auto ns = to_namespaces(namespaces);
                const auto given = to_resources_list(predictions, "predictions");
                const auto pool = to_pool(waiting_nodes);
                const auto states = to_nodes(nodes);
                py::gil_scoped_release release;
                return s.tick_with_predictions(ClusterSnapshot{python::duration_from_seconds(now, "now"), capacity, pool, states}, ns, given);
            },
            py::arg("now"), py::arg("capacity"), py::arg("namespaces"), py::arg("predictions"), py::arg("waiting_nodes") = py::none(),
            py::arg("nodes") = py::none(), "Decide with predictions given per namespace (no forecasting).")
        .def(
            "react",
            [](const PyHybrid& s, double now, const python::ResourcesLike& capacity, const py::iterable& namespaces, const std::string& name,
               const python::ResourcesLike& request, const py::object& waiting_nodes) {
                const auto ns = to_namespaces(namespaces);
                const auto pool = to_pool(waiting_nodes);
                return s.react(ClusterSnapshot{python::duration_from_seconds(now, "now"), to_resources(capacity, "capacity"), pool, {}}, ns, name,
                               to_resources(request, "request"));
            },
            py::arg("now"), py::arg("capacity"), py::arg("namespaces"), py::arg("name"), py::arg("request"), py::arg("waiting_nodes") = py::none(),
            "Algorithm 2 for one failed deployment between ticks.")
        .def("__repr__", [](const PyHybrid& s) {
            auto arguments = proactive_arguments(s.config().proactive);
            arguments.insert(arguments.begin(), {"forecaster", py::str(s.prototype().name())});
            for (auto [name, value] : {std::pair{"horizon", py::cast(s.config().horizon)}, {"interval_level", py::cast(s.config().interval_level)},
                                       {"min_history", py::cast(s.config().min_history)}, {"max_history", py::cast(s.config().max_history)},
                                       {"refit_every", py::cast(s.config().refit_every)}, {"step", py::cast(to_seconds(s.config().step))}}) {
                arguments.emplace_back(name, value);
            }
            return continuum::python::call_repr("HybridQuotaScaler", arguments);
        });

#if CONTINUUM_HAVE_NLOHMANN_JSON
    {
        auto cls = py::reinterpret_borrow<py::class_<ReactiveQuotaScaler>>(m.attr("ReactiveQuotaScaler"));
        python::bind_state(
            root, cls, [](const ReactiveQuotaScaler& s) { return s.state(); },
            [](const ReactiveQuotaScaler& s, const ReactiveQuotaScalerState& state) { return ReactiveQuotaScaler(s.config(), state); },
            [](const ReactiveQuotaScaler& s) { return py::make_tuple(objective_name(s.config().objective), s.config().budget.node_limit); });
    }
    {
        auto cls = py::reinterpret_borrow<py::class_<ProactiveQuotaScaler>>(m.attr("ProactiveQuotaScaler"));
        python::bind_state(
            root, cls, [](const ProactiveQuotaScaler& s) { return s.state(); },
            [](const ProactiveQuotaScaler& s, const ProactiveQuotaScalerState& state) { return ProactiveQuotaScaler(s.config(), state); },
            [](const ProactiveQuotaScaler& s) {
                const auto& c = s.config();
                return py::make_tuple(c.resources, levels_dict(c.levels), condition_name(c.condition), to_seconds(c.decrease_hold), objective_name(c.objective),
                                      c.budget.node_limit);
            });
    }
    {
        auto cls = py::reinterpret_borrow<py::class_<PyHybrid>>(m.attr("HybridQuotaScaler"));
        python::bind_state(
            root, cls, [](const PyHybrid& s) { return s.state(); },
            [](const PyHybrid& s, const PyHybrid::State& state) { return std::make_unique<PyHybrid>(s.prototype(), s.config(), state); },
            [](const PyHybrid& s) {
                using namespace forecast;
                const auto& c = s.config();
                const auto& p = c.proactive;
                return py::make_tuple(
                    forecaster_object<Naive, Drift, SimpleExponentialSmoothing, SeasonalNaive, SeasonalMedian, MovingAverage, MovingMedian, LinearRegression, HoltWinters<double>,
                                      Lstm<double>>(
                        s.prototype()),
                    p.resources, levels_dict(p.levels), condition_name(p.condition), to_seconds(p.decrease_hold), objective_name(p.objective), p.budget.node_limit,
                    c.horizon, c.interval_level, c.min_history, c.max_history, c.refit_every, to_seconds(c.step));
            });
    }
#endif
}
}  // namespace continuum_bind_quota

void bind_quota(py::module_& m) { continuum_bind_quota::bind(m); }
