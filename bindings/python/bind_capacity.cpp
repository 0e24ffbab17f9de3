// Python bindings for continuum/capacity: shortfall, required_nodes, waiting worker nodes and
// choose_nodes_to_activate (seed 001's waiting-node activation).
#include "common.hpp"
#include "repr.hpp"

#include <continuum/capacity.hpp>

#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
// A namespace of its own per bind_<area>.cpp: its using-directives and file-local helpers stay out of
// the other files of a unity unit (CONTINUUM_PYTHON_UNITY), whichever files it is grouped with.
namespace continuum_bind_capacity {
using namespace continuum;
using namespace continuum::capacity;

namespace {

ActivationObjective to_objective(const py::handle& value) {
    if (py::isinstance<ActivationObjective>(value)) return py::cast<ActivationObjective>(value);
    if (py::isinstance<py::str>(value)) {
        const auto text = py::cast<std::string>(value);
        if (text == "fewest_nodes") return ActivationObjective::fewest_nodes;
        if (text == "cheapest") return ActivationObjective::cheapest;
        if (text == "fastest") return ActivationObjective::fastest;
        throw InvalidArgument("objective: expected 'fewest_nodes', 'cheapest' or 'fastest', got '" + text + "'");
    }
    throw InvalidArgument("objective: expected an ActivationObjective or one of 'fewest_nodes', 'cheapest', 'fastest'");
}

}  // namespace

void bind(py::module_& root) {
    py::module_ m = root.def_submodule("capacity", "Shortfall, node counts, waiting (paused) worker-node pools (seed 001).");

    m.def("shortfall", &shortfall, py::arg("required"), py::arg("available"),
          "Per resource, max(required - available, 0). Raises InvalidArgument for negative amounts.");
    m.def("required_nodes", &required_nodes, py::arg("shortfall"), py::arg("node_capacity"),
          R"pbdoc(Smallest count of identical nodes of node_capacity covering shortfall in every resource
(max over resources of the ceiling). Raises Infeasible naming a needed resource the node lacks.)pbdoc");

    py::enum_<ActivationObjective>(m, "ActivationObjective", "What 'best' means when choosing waiting nodes.")
        .value("fewest_nodes", ActivationObjective::fewest_nodes)
        .value("cheapest", ActivationObjective::cheapest)
        .value("fastest", ActivationObjective::fastest);

    py::class_<WaitingNode> waiting_node(m, "WaitingNode", "A paused / hibernated worker node that can be resumed.");
    waiting_node.def(py::init([](std::string name, const python::ResourcesLike& capacity, double resume_latency, double cost) {
                 return WaitingNode{std::move(name), python::to_resources(capacity, "capacity"), python::duration_from_seconds(resume_latency, "resume_latency"), cost};
             }),
             py::arg("name"), py::arg("capacity"), py::arg("resume_latency") = 0.0, py::arg("cost") = 0.0,
             "name, capacity (Resources or dict of quantities), resume_latency in seconds, cost per unit of time.");
    python::def_field(waiting_node, "name", &WaitingNode::name);
    python::def_field(waiting_node, "capacity", &WaitingNode::capacity);
    python::def_field(waiting_node, "resume_latency", [](const WaitingNode& n) { return to_seconds(n.resume_latency); },
            [](WaitingNode& n, double s) { n.resume_latency = python::duration_from_seconds(s, "resume_latency"); }, "Seconds.");
    python::def_field(waiting_node, "cost", &WaitingNode::cost);
    waiting_node.def("__repr__", continuum::python::fields_repr({"name", "capacity", "resume_latency", "cost"}));

    python::def_result(py::class_<ActivationPlan>(m, "ActivationPlan", "The waiting nodes to resume (nodes: indices into the pool, ascending, and their names) and what "
                                                                       "they bring; still_missing: what the plan does not cover (empty when it covers); "
                                                                       "resume_latency: seconds, of the slowest chosen node."),
                       python::field("nodes", &ActivationPlan::nodes), python::field("names", &ActivationPlan::names),
                       python::field("activated_capacity", &ActivationPlan::activated_capacity), python::field("still_missing", &ActivationPlan::still_missing),
                       python::field("cost", &ActivationPlan::cost), python::field("resume_latency", &ActivationPlan::resume_latency),
                       python::field("optimal", &ActivationPlan::optimal), python::field("reason", &ActivationPlan::reason))
        .def_property_readonly("covers", &ActivationPlan::covers)
        .def("__len__", &ActivationPlan::count);

    m.def(
        "choose_nodes_to_activate",
        [](const python::ResourcesLike& shortfall_value, const std::vector<WaitingNode>& pool, const py::object& objective, std::int64_t node_limit) {
            const Resources shortfall = python::to_resources(shortfall_value, "shortfall");
            const ActivationObjective chosen = to_objective(objective);
            py::gil_scoped_release release;
            return choose_nodes_to_activate(shortfall, pool, chosen, Budget{node_limit, {}});
        },
        py::arg("shortfall"), py::arg("pool"), py::arg("objective") = ActivationObjective::fewest_nodes,
        py::arg("node_limit") = default_activation_node_limit,
        R"pbdoc(Which waiting nodes to resume to cover shortfall: objective 'fewest_nodes' (default), 'cheapest'
or 'fastest'. Exact for pools of up to 48 distinct node kinds within node_limit search nodes, greedy
beyond. When the whole pool cannot cover the shortfall, plan.covers is False and plan.still_missing
says how much is left.)pbdoc");
    m.attr("exact_activation_kinds") = exact_activation_kinds;
}
}  // namespace continuum_bind_capacity

void bind_capacity(py::module_& m) { continuum_bind_capacity::bind(m); }
