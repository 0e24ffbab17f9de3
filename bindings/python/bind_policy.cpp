// Python bindings for continuum/policy: the MAS-H² policy tuple and built-ins, the utility U(S | P)
// and the PolicySelector (override, signals, time windows, utility maximisation).
#include "common.hpp"
#include "repr.hpp"

#include <continuum/policy.hpp>

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace py = pybind11;
// A namespace of its own per bind_<area>.cpp: its using-directives and file-local helpers stay out of
// the other files of a unity unit (CONTINUUM_PYTHON_UNITY), whichever files it is grouped with.
namespace continuum_bind_policy {
using namespace continuum;
using namespace continuum::policy;

void bind(py::module_& root) {
    py::module_ m = root.def_submodule("policy", "Strategic policies, the utility U(S | P) and policy selection (seed 004, MAS-H²).");

    py::class_<UtilityWeights> utility_weights(m, "UtilityWeights", "Weights of U(S|P) = w_performance*perf - w_cost*cost + w_resilience*res.");
    utility_weights.def(py::init([](double performance, double cost, double resilience) { return UtilityWeights{performance, cost, resilience}; }),
             py::arg("performance") = 0.5, py::arg("cost") = 0.5, py::arg("resilience") = 0.0);
    python::def_field(utility_weights, "performance", &UtilityWeights::performance);
    python::def_field(utility_weights, "cost", &UtilityWeights::cost);
    python::def_field(utility_weights, "resilience", &UtilityWeights::resilience);
    utility_weights.def("__repr__", [](const UtilityWeights& w) {
            return fmt::format("UtilityWeights(performance={}, cost={}, resilience={})", w.performance, w.cost, w.resilience);
        });

    py::class_<Policy> policy_class(m, "Policy", R"pbdoc(
The policy tuple: name, node pool and its node type (name, capacity, cost per hour), min/max
replicas (resilience bound), target CPU utilisation in (0, 1], utility weights and the cost
normaliser reference_cost. Raises InvalidArgument (naming the field) when invalid.)pbdoc");
    policy_class.def(py::init([](std::string name, std::string node_pool, std::string node_type, const python::ResourcesLike& node_capacity, double node_cost,
                         std::int64_t min_replicas, std::int64_t max_replicas, double target_utilization, UtilityWeights weights,
                         double reference_cost) {
                 Policy p;
                 p.name = std::move(name);
                 p.node_pool = std::move(node_pool);
                 p.node_type = packing::NodeType{std::move(node_type), python::to_resources(node_capacity, "node_capacity"), node_cost, packing::unlimited};
                 p.min_replicas = min_replicas;
                 p.max_replicas = max_replicas;
                 p.target_utilization = target_utilization;
                 p.weights = weights;
                 p.reference_cost = reference_cost;
                 p.validate();
                 return p;
             }),
             py::arg("name"), py::arg("node_pool"), py::arg("node_type"), py::arg("node_capacity"), py::arg("node_cost") = 0.0,
             py::arg("min_replicas") = 1, py::arg("max_replicas") = 100, py::arg("target_utilization") = 0.7,
             py::arg("weights") = UtilityWeights{}, py::arg("reference_cost") = 1.0);
    python::def_field(policy_class, "name", &Policy::name);
    python::def_field(policy_class, "node_pool", &Policy::node_pool);
    python::def_field(policy_class, "node_type", [](const Policy& p) { return p.node_type.name; }, [](Policy& p, std::string v) { p.node_type.name = std::move(v); });
    python::def_field(policy_class, "node_capacity", [](const Policy& p) { return p.node_type.capacity; }, [](Policy& p, Resources r) { p.node_type.capacity = std::move(r); });
    python::def_field(policy_class, "node_cost", [](const Policy& p) { return p.node_type.cost; }, [](Policy& p, double c) { p.node_type.cost = c; });
    python::def_field(policy_class, "min_replicas", &Policy::min_replicas);
    python::def_field(policy_class, "max_replicas", &Policy::max_replicas);
    python::def_field(policy_class, "target_utilization", &Policy::target_utilization);
    python::def_field(policy_class, "weights", &Policy::weights);
    python::def_field(policy_class, "reference_cost", &Policy::reference_cost);
    policy_class.def("validate", &Policy::validate<>, "Raises InvalidArgument naming the first invalid field.")
        .def("__repr__", continuum::python::fields_repr({"name", "node_pool", "node_type", "node_capacity", "node_cost", "min_replicas", "max_replicas",
                                                          "target_utilization", "weights", "reference_cost"}));
    m.def("cost_saving", &cost_saving, "COST_SAVING: e2-medium pool, target 80 %, min 1 replica, weights favour cost.");
    m.def("performance", &performance, "PERFORMANCE: n2-standard-2 pool, target 40 %, min 2 replicas, weights favour performance.");

    py::class_<UtilityState> utility_state(m, "UtilityState", "The state S: demand and requested cores, cost per hour, smallest replica count.");
    utility_state.def(py::init([](double demand_cores, double capacity_cores, double cost, std::int64_t replicas) {
                 return UtilityState{demand_cores, capacity_cores, cost, replicas};
             }),
             py::arg("demand_cores") = 0.0, py::arg("capacity_cores") = 0.0, py::arg("cost") = 0.0, py::arg("replicas") = 0);
    python::def_field(utility_state, "demand_cores", &UtilityState::demand_cores);
    python::def_field(utility_state, "capacity_cores", &UtilityState::capacity_cores);
    python::def_field(utility_state, "cost", &UtilityState::cost);
    python::def_field(utility_state, "replicas", &UtilityState::replicas);
    utility_state.def("__repr__", [](const UtilityState& s) {
            return fmt::format("UtilityState(demand_cores={}, capacity_cores={}, cost={}, replicas={})", s.demand_cores, s.capacity_cores, s.cost, s.replicas);
        });

    py::class_<UtilityTerms>(m, "UtilityTerms", "perf(S), cost(S), res(S) and U(S|P).")
        .def_readonly("performance", &UtilityTerms::performance)
        .def_readonly("cost", &UtilityTerms::cost)
        .def_readonly("resilience", &UtilityTerms::resilience)
        .def_readonly("utility", &UtilityTerms::utility)
        .def("__repr__", [](const UtilityTerms& t) {
            return fmt::format("UtilityTerms(performance={:.6g}, cost={:.6g}, resilience={:.6g}, utility={:.6g})", t.performance, t.cost, t.resilience, t.utility);
        });

    py::class_<Utility>(m, "Utility", R"pbdoc(
U(S|P) = w_perf*perf(S) - w_cost*cost(S) + w_res*res(S), with perf = min(1, capacity*target/demand)
(1 without demand), cost = cost/reference_cost, res = min(1, replicas/min_replicas). Uses the
policy's weights, or `weights` for all policies when given.)pbdoc")
        .def(py::init<std::optional<UtilityWeights>>(), py::arg("weights") = std::nullopt)
        .def("evaluate", &Utility::evaluate, py::arg("state"), py::arg("policy"), "The terms of U(state | policy).")
        .def("__call__", [](const Utility& u, const UtilityState& s, const Policy& p) { return u.evaluate(s, p).utility; }, py::arg("state"),
             py::arg("policy"))
        .def_property_readonly("weights", &Utility::weights)
        .def("__repr__", continuum::python::fields_repr({"weights"}));
    m.def("utility", &utility<>, py::arg("state"), py::arg("policy"), "U(state | policy) with the policy's own weights.");

    py::enum_<SelectionSource>(m, "SelectionSource", "Which rule chose the policy.")
        .value("override_policy", SelectionSource::override_policy)
        .value("signal", SelectionSource::signal)
        .value("time_window", SelectionSource::time_window)
        .value("utility", SelectionSource::utility)
        .value("default_policy", SelectionSource::default_policy);

    python::def_result(py::class_<Selection>(m, "Selection", "The chosen policy, the rule that chose it, per-candidate utilities and a reason."),
                        python::field("index", &Selection::index),
                        python::field("policy", &Selection::policy),
                        python::field("source", &Selection::source),
                        python::field("utilities", &Selection::utilities),
                        python::field("reason", &Selection::reason));

    py::class_<PolicySelector>(m, "PolicySelector", R"pbdoc(
The Strategic Agent: picks the active policy by explicit override, then external signal rules,
then time windows, then (when enabled) maximum utility, else the default policy.)pbdoc")
        .def(py::init<std::vector<Policy>, std::string>(), py::arg("policies"), py::arg("default_policy"))
        .def(
            "add_time_window",
            [](PolicySelector& s, std::string policy, double begin, double end, double period) -> PolicySelector& {
                return s.add_time_window({std::move(policy), python::duration_from_seconds(begin, "begin"),
                                          python::duration_from_seconds(end, "end"), python::duration_from_seconds(period, "period")});
            },
            py::arg("policy"), py::arg("begin"), py::arg("end"), py::arg("period") = 86400.0, py::return_value_policy::reference_internal,
            "The policy applies while (now mod period) is in [begin, end) seconds; wraps when begin > end.")
        .def(
            "add_signal_rule",
            [](PolicySelector& s, std::string signal, std::string value, std::string policy) -> PolicySelector& {
                return s.add_signal_rule({std::move(signal), std::move(value), std::move(policy)});
            },
            py::arg("signal"), py::arg("value"), py::arg("policy"), py::return_value_policy::reference_internal,
            "The policy applies while signals[signal] == value (signal rules outrank time windows); returns self.")
        .def("maximize_utility", &PolicySelector::maximize_utility, py::arg("enabled") = true, py::arg("weights") = std::nullopt,
             py::return_value_policy::reference_internal, "When no rule applies, pick the candidate of maximum utility.")
        .def_property_readonly("policies", &PolicySelector::policies)
        .def_property_readonly("default_policy", &PolicySelector::default_policy)
        .def("policy", &PolicySelector::policy, py::arg("name"), "The candidate policy called name. Raises InvalidArgument for an unknown name.")
        .def(
            "select",
            [](const PolicySelector& s, double now, std::map<std::string, std::string> signals, std::optional<std::string> override_policy,
               std::optional<py::function> state_of) {
                SelectionContext c;
                c.now = Time{static_cast<std::int64_t>(std::llround(now * 1000.0))};
                c.signals = std::move(signals);
                c.override_policy = std::move(override_policy);
                if (state_of) return s.select(c, [&](const Policy& p) { return py::cast<UtilityState>((*state_of)(p)); });
                return s.select(c);
            },
            py::arg("now") = 0.0, py::arg("signals") = std::map<std::string, std::string>{}, py::arg("override_policy") = std::nullopt,
            py::arg("state_of") = std::nullopt,
            "now in seconds since the host's epoch; state_of(policy) -> UtilityState enables utility maximisation.")
        .def("__repr__", continuum::python::fields_repr({"policies", "default_policy"}));

    // Pickling (and copy.deepcopy) of the policy values and the selector, for the HierarchicalScaler's
    // pickle (issue 17): the selector as its policies, default, time windows, signal rules and
    // utility setting, rebuilt through the same validating calls.
    {
        auto weights = py::reinterpret_borrow<py::class_<UtilityWeights>>(m.attr("UtilityWeights"));
        python::reduce_by_constructor<UtilityWeights>(weights, [](const UtilityWeights& w) { return py::make_tuple(w.performance, w.cost, w.resilience); });
        auto policy = py::reinterpret_borrow<py::class_<Policy>>(m.attr("Policy"));
        python::reduce_by_constructor<Policy>(policy, [](const Policy& p) {
            // The capacity as its exact quantities ({"cpu": "2", "memory": "4Gi"}), which the constructor reads back.
            return py::make_tuple(p.name, p.node_pool, p.node_type.name, py::cast(p.node_type.capacity).attr("to_quantities")(), p.node_type.cost,
                                  p.min_replicas, p.max_replicas, p.target_utilization, p.weights, p.reference_cost);
        });
        const auto seconds = [](Duration d) { return static_cast<double>(d.count()) / 1000.0; };
        auto selector = py::reinterpret_borrow<py::class_<PolicySelector>>(m.attr("PolicySelector"));
        selector.def(py::pickle(
            [seconds](const PolicySelector& s) {
                py::list windows, rules;
                for (const auto& w : s.time_windows()) windows.append(py::make_tuple(w.policy, seconds(w.begin), seconds(w.end), seconds(w.period)));
                for (const auto& r : s.signal_rules()) rules.append(py::make_tuple(r.signal, r.value, r.policy));
                return py::make_tuple(s.policies(), s.default_policy(), windows, rules, s.maximizes_utility(), s.utility().weights());
            },
            [](const py::tuple& t) {
                if (t.size() != 6) throw InvalidArgument(fmt::format("PolicySelector pickle: expected 6 fields, got {}", t.size()));
                PolicySelector s(t[0].cast<std::vector<Policy>>(), t[1].cast<std::string>());
                for (const auto& w : t[2].cast<std::vector<std::tuple<std::string, double, double, double>>>()) {
                    s.add_time_window({std::get<0>(w), python::duration_from_seconds(std::get<1>(w), "begin"), python::duration_from_seconds(std::get<2>(w), "end"),
                                       python::duration_from_seconds(std::get<3>(w), "period")});
                }
                for (const auto& r : t[3].cast<std::vector<std::tuple<std::string, std::string, std::string>>>()) {
                    s.add_signal_rule({std::get<0>(r), std::get<1>(r), std::get<2>(r)});
                }
                s.maximize_utility(t[4].cast<bool>(), t[5].cast<std::optional<UtilityWeights>>());
                return s;
            }));
    }
}
}  // namespace continuum_bind_policy

void bind_policy(py::module_& m) { continuum_bind_policy::bind(m); }
