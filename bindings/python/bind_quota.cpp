// Python bindings for continuum/quota: QuotaLevels, ReactiveQuotaScaler (Algorithm 2),
// ProactiveQuotaScaler (Algorithm 1), HybridQuotaScaler over any forecaster, the fairness rule and
// split_across_clusters (seed 001, hybrid resource-quota scaling for Karmada FRQ).
//
// HybridQuotaScaler takes its forecaster as: a continuum.forecast.AnyForecaster when the forecast
// bindings register one; any object with fit(history) / update(value) / forecast(horizon[, level])
// (every continuum.forecast model, or your own), deep-copied per namespace and resource; or a plain
// callable history -> prediction (float, or a sequence over the horizon).
#include "common.hpp"

#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/quota.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace continuum;
using namespace continuum::quota;

namespace {

Resources to_resources(const py::handle& value, const char* argument) {
    if (value.is_none()) return {};
    if (py::isinstance<Resources>(value)) return py::cast<Resources>(value);
    if (py::isinstance<py::dict>(value)) return python::resources_from_dict(py::reinterpret_borrow<py::dict>(value));
    throw InvalidArgument(std::string(argument) + ": expected a continuum.Resources or a dict of quantities");
}

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

/// {resource: QuotaLevels or [quantities]}; quantities as in Resources dicts (str, int whole units, float).
ResourceQuotaLevels to_levels(const py::handle& value) {
    ResourceQuotaLevels out;
    if (value.is_none()) return out;
    if (!py::isinstance<py::dict>(value)) throw InvalidArgument("levels: expected a dict {resource: QuotaLevels or list of quantities}");
    for (const auto& [key, item] : py::reinterpret_borrow<py::dict>(value)) {
        const auto name = py::cast<std::string>(key);
        if (py::isinstance<QuotaLevels>(item)) {
            out.set(name, py::cast<QuotaLevels>(item));
            continue;
        }
        std::vector<std::int64_t> canonical;
        for (const auto& level : py::reinterpret_borrow<py::iterable>(item)) {
            py::dict one;
            one[py::str(name)] = level;
            canonical.push_back(python::resources_from_dict(one).get(name));
        }
        out.set(name, QuotaLevels(std::move(canonical)));
    }
    return out;
}

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
    ns.usage = d.contains("usage") ? to_resources(d["usage"], "usage") : Resources{};
    ns.quota = d.contains("quota") ? to_resources(d["quota"], "quota") : Resources{};
    if (d.contains("failed_requests")) {
        for (const auto& r : py::reinterpret_borrow<py::iterable>(d["failed_requests"])) ns.failed_requests.push_back(to_resources(r, "failed_requests"));
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
    return built_in_or_python<Naive, Drift, SimpleExponentialSmoothing, SeasonalNaive, SeasonalMedian, MovingAverage, LinearRegression, HoltWinters<double>,
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
#endif

}  // namespace

void bind_quota(py::module_& root) {
    py::module_ m = root.def_submodule("quota", "Quota levels; reactive, proactive and hybrid quota scaling (seed 001).");

    py::enum_<SnapOutcome>(m, "SnapOutcome")
        .value("on_level", SnapOutcome::on_level)
        .value("above_top", SnapOutcome::above_top)
        .value("below_bottom", SnapOutcome::below_bottom);
    py::class_<Snap>(m, "Snap", "Result of a reporting snap: value and where it fell.")
        .def_readonly("value", &Snap::value)
        .def_readonly("outcome", &Snap::outcome)
        .def_property_readonly("on_level", &Snap::on_level)
        .def("__repr__", [](const Snap& s) {
            return fmt::format("Snap(value={}, outcome={})", s.value,
                               s.outcome == SnapOutcome::on_level ? "on_level" : s.outcome == SnapOutcome::above_top ? "above_top" : "below_bottom");
        });

    py::class_<QuotaLevels>(m, "QuotaLevels", R"pbdoc(Operator-defined quota levels of one resource (sorted, unique,
positive integers in the resource's canonical units). QuotaLevels([20, 40, 60, 80, 100]).snap_up(42) == 60.)pbdoc")
        .def(py::init<std::vector<std::int64_t>>(), py::arg("levels"))
        .def_static("parse", [](const std::string& resource, const std::vector<std::string>& quantities) { return QuotaLevels::parse(resource, quantities); },
                    py::arg("resource"), py::arg("quantities"), "Levels written as Kubernetes quantities: QuotaLevels.parse('cpu', ['20', '40']).")
        .def("snap_up", &QuotaLevels::snap_up, py::arg("value"),
             "Smallest level >= value (the paper's GetNearestQuotaLevel: 77 -> 80, 42 -> 60, 19 -> 20). Raises Infeasible above the top level.")
        .def("snap_down", &QuotaLevels::snap_down, py::arg("value"), "Largest level <= value. Raises Infeasible above the top or below the lowest level.")
        .def("snap_nearest", &QuotaLevels::snap_nearest, py::arg("value"), "Closest level, ties up. Raises Infeasible above the top level.")
        .def("try_snap_up", &QuotaLevels::try_snap_up, py::arg("value"), "snap_up that reports instead of raising: Snap(value, outcome).")
        .def("try_snap_down", &QuotaLevels::try_snap_down, py::arg("value"),
             "snap_down that reports instead of raising: above the top level Snap(value, above_top), below the lowest Snap(value, below_bottom).")
        .def("try_snap_nearest", &QuotaLevels::try_snap_nearest, py::arg("value"),
             "snap_nearest that reports instead of raising: above the top level Snap(value, above_top).")
        .def_property_readonly("levels", &QuotaLevels::levels)
        .def_property_readonly("top", &QuotaLevels::top)
        .def_property_readonly("bottom", &QuotaLevels::bottom)
        .def("__len__", &QuotaLevels::size)
        .def("__eq__", [](const QuotaLevels& a, const QuotaLevels& b) { return a == b; })
        .def("__repr__", [](const QuotaLevels& l) { return fmt::format("QuotaLevels([{}])", fmt::join(l.levels(), ", ")); });

    // ---- Reactive (Algorithm 2)
    py::enum_<ReactiveCase>(m, "ReactiveCase", "Which case of Algorithm 2 applied.")
        .value("sufficient_quota", ReactiveCase::sufficient_quota)
        .value("raise_quota", ReactiveCase::raise_quota)
        .value("activate_nodes", ReactiveCase::activate_nodes)
        .value("infeasible", ReactiveCase::infeasible);
    py::class_<ReactiveDecision>(m, "ReactiveDecision")
        .def_readonly("kind", &ReactiveDecision::kind)
        .def_property_readonly("case", &ReactiveDecision::case_number, "1, 2 or 3 as in the paper; 0 when infeasible.")
        .def_readonly("new_quota", &ReactiveDecision::new_quota)
        .def_readonly("quota_increase", &ReactiveDecision::quota_increase)
        .def_readonly("activation", &ReactiveDecision::activation)
        .def_property_readonly("nodes_to_activate", &ReactiveDecision::nodes_to_activate)
        .def_readonly("still_missing", &ReactiveDecision::still_missing)
        .def_readonly("reason", &ReactiveDecision::reason)
        .def_property_readonly("deploy", &ReactiveDecision::deploy)
        .def("__repr__", [](const ReactiveDecision& d) { return "ReactiveDecision(" + d.reason + ")"; });
    py::class_<ReactiveQuotaScaler>(m, "ReactiveQuotaScaler", "Algorithm 2 of the hybrid quota paper (stateless).")
        .def(py::init([](const py::object& objective, std::int64_t node_limit) {
                 return ReactiveQuotaScaler(ReactiveConfig{to_objective(objective), Budget{node_limit, {}}});
             }),
             py::arg("objective") = "fewest_nodes", py::arg("node_limit") = capacity::default_activation_node_limit)
        .def(
            "decide",
            [](const ReactiveQuotaScaler& s, const Resources& request, const Resources& current_quota, const Resources& available,
               const py::object& waiting_nodes) {
                const auto pool = to_pool(waiting_nodes);
                py::gil_scoped_release release;
                return s.decide(ReactiveSnapshot{request, current_quota, available, pool});
            },
            py::arg("request"), py::arg("current_quota"), py::arg("available"), py::arg("waiting_nodes") = py::none(),
            R"pbdoc(One reactive step: request = what the quota must admit (usage + new pods), current_quota,
available = free cluster resources, waiting_nodes = list of continuum.capacity.WaitingNode.)pbdoc");

    // ---- Proactive (Algorithm 1)
    py::enum_<DecreaseCondition>(m, "DecreaseCondition")
        .value("usage_within_target", DecreaseCondition::usage_within_target)
        .value("usage_below_current_quota", DecreaseCondition::usage_below_current_quota);
    py::enum_<ProactiveAction>(m, "ProactiveAction")
        .value("hold", ProactiveAction::hold)
        .value("raise_quota", ProactiveAction::raise_quota)
        .value("activate_and_raise_quota", ProactiveAction::activate_and_raise_quota)
        .value("infeasible", ProactiveAction::infeasible)
        .value("wait_for_usage_decrease", ProactiveAction::wait_for_usage_decrease)
        .value("lower_quota", ProactiveAction::lower_quota);
    py::class_<ProactiveDecision>(m, "ProactiveDecision")
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
        .def("__repr__", [](const ProactiveDecision& d) { return "ProactiveDecision(" + d.reason + ")"; });
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
            [](ProactiveQuotaScaler& s, double now, const Resources& prediction, const Resources& current_quota, const Resources& current_usage,
               const Resources& cluster_resources, const py::object& waiting_nodes, const py::object& nodes) {
                const auto pool = to_pool(waiting_nodes);
                const auto states = to_nodes(nodes);
                const Time t = python::duration_from_seconds(now, "now");
                py::gil_scoped_release release;
                return s.decide(ProactiveSnapshot{t, prediction, current_quota, current_usage, cluster_resources, pool, states});
            },
            py::arg("now"), py::arg("prediction"), py::arg("current_quota"), py::arg("current_usage"), py::arg("cluster_resources"),
            py::arg("waiting_nodes") = py::none(), py::arg("nodes") = py::none(),
            "One step at time now (seconds). nodes: active nodes [{name, capacity, cost, pods: [{name, request, movable}]}] for consolidation.")
        .def_property_readonly("pending_target", [](const ProactiveQuotaScaler& s) -> py::object {
            return s.pending() ? py::cast(s.pending()->target) : py::object(py::none());
        }, "The lowered quota waiting for usage to come down, or None.")
        .def("reset", &ProactiveQuotaScaler::reset, "Forgets the pending decrease and the last time seen.");

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
        [](const Resources& overall, const py::dict& clusters) {
            std::vector<MemberCluster> members;
            for (const auto& [k, v] : clusters) members.push_back(MemberCluster{py::cast<std::string>(k), to_resources(v, "clusters")});
            py::dict out;
            for (auto& a : split_across_clusters(overall, members)) out[py::str(a.cluster_name)] = a.hard;
            return out;
        },
        py::arg("overall"), py::arg("clusters"),
        "Splits overall across {cluster: capacity} in proportion to capacity, exactly (Karmada FRQ staticAssignments).");

    // ---- Hybrid
    py::class_<NamespaceSnapshot>(m, "NamespaceSnapshot",
                                  "One namespace at one tick: name, usage and quota (Resources or dict), and the requests that failed\n"
                                  "admission since the last tick (failed_requests, a list of Resources or dicts).")
        .def(py::init([](std::string name, const py::object& usage, const py::object& quota, const py::object& failed_requests) {
                 NamespaceSnapshot ns{std::move(name), to_resources(usage, "usage"), to_resources(quota, "quota"), {}};
                 if (!failed_requests.is_none()) {
                     for (const auto& r : py::reinterpret_borrow<py::iterable>(failed_requests)) ns.failed_requests.push_back(to_resources(r, "failed_requests"));
                 }
                 return ns;
             }),
             py::arg("name"), py::arg("usage"), py::arg("quota"), py::arg("failed_requests") = py::none())
        .def_readwrite("name", &NamespaceSnapshot::name)
        .def_readwrite("usage", &NamespaceSnapshot::usage)
        .def_readwrite("quota", &NamespaceSnapshot::quota)
        .def_readwrite("failed_requests", &NamespaceSnapshot::failed_requests);
    py::class_<NamespaceDecision>(m, "NamespaceDecision")
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
        .def("__repr__", [](const NamespaceDecision& d) { return "NamespaceDecision(" + d.reason() + ")"; });
    py::class_<HybridDecision>(m, "HybridDecision")
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
        .def("__repr__", [](const HybridDecision& d) { return "HybridDecision(" + d.reason + ")"; });

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
            [](PyHybrid& s, double now, const Resources& capacity, const py::iterable& namespaces, const py::object& waiting_nodes, const py::object& nodes) {
                const auto ns = to_namespaces(namespaces);
                const auto pool = to_pool(waiting_nodes);
                const auto states = to_nodes(nodes);
                // The GIL stays held: Python forecasters are called during the tick.
                return s.tick(ClusterSnapshot{python::duration_from_seconds(now, "now"), capacity, pool, states}, ns);
            },
            py::arg("now"), py::arg("capacity"), py::arg("namespaces"), py::arg("waiting_nodes") = py::none(), py::arg("nodes") = py::none(),
            R"pbdoc(Observe usage, forecast, decide. namespaces: NamespaceSnapshot or dicts {name, usage, quota,
failed_requests}; capacity: the cluster's allocatable capacity shared by the namespaces.)pbdoc")
        .def(
            "tick_with_predictions",
            [](PyHybrid& s, double now, const Resources& capacity, const py::iterable& namespaces, const py::iterable& predictions,
               const py::object& waiting_nodes, const py::object& nodes) {
                const auto ns = to_namespaces(namespaces);
                std::vector<Resources> given;
                for (const auto& p : predictions) given.push_back(to_resources(p, "predictions"));
                const auto pool = to_pool(waiting_nodes);
                const auto states = to_nodes(nodes);
                py::gil_scoped_release release;
                return s.tick_with_predictions(ClusterSnapshot{python::duration_from_seconds(now, "now"), capacity, pool, states}, ns, given);
            },
            py::arg("now"), py::arg("capacity"), py::arg("namespaces"), py::arg("predictions"), py::arg("waiting_nodes") = py::none(),
            py::arg("nodes") = py::none(), "Decide with predictions given per namespace (no forecasting).")
        .def(
            "react",
            [](const PyHybrid& s, double now, const Resources& capacity, const py::iterable& namespaces, const std::string& name,
               const Resources& request, const py::object& waiting_nodes) {
                const auto ns = to_namespaces(namespaces);
                const auto pool = to_pool(waiting_nodes);
                return s.react(ClusterSnapshot{python::duration_from_seconds(now, "now"), capacity, pool, {}}, ns, name, request);
            },
            py::arg("now"), py::arg("capacity"), py::arg("namespaces"), py::arg("name"), py::arg("request"), py::arg("waiting_nodes") = py::none(),
            "Algorithm 2 for one failed deployment between ticks.");

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
                    forecaster_object<Naive, Drift, SimpleExponentialSmoothing, SeasonalNaive, SeasonalMedian, MovingAverage, LinearRegression, HoltWinters<double>,
                                      Lstm<double>>(
                        s.prototype()),
                    p.resources, levels_dict(p.levels), condition_name(p.condition), to_seconds(p.decrease_hold), objective_name(p.objective), p.budget.node_limit,
                    c.horizon, c.interval_level, c.min_history, c.max_history, c.refit_every, to_seconds(c.step));
            });
    }
#endif
}
