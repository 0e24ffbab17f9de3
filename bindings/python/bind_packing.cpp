// Python bindings for continuum/packing: 1-D and vector heuristics over numpy arrays, lower bounds,
// the exact solver (budgeted), node types with cost and consolidation.
#include "common.hpp"
#include "repr.hpp"

#include <continuum/packing.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
// A namespace of its own per bind_<area>.cpp: its using-directives and file-local helpers stay out of
// the other files of a unity unit (CONTINUUM_PYTHON_UNITY), whichever files it is grouped with.
namespace continuum_bind_packing {
using namespace continuum;
using namespace continuum::packing;

namespace {

/// A PDB field from Python: None, an int (a count) or "N%" (a percentage).
std::optional<CountOrPercent> count_or_percent(const py::object& value, const char* name) {
    if (value.is_none()) return std::nullopt;
    if (!py::isinstance<py::str>(value)) return CountOrPercent::count(py::cast<std::int64_t>(value));
    const auto text = py::cast<std::string>(value);
    std::size_t used = 0;
    long long number = -1;
    try {
        number = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used + 1 != text.size() || text.back() != '%') throw InvalidArgument(std::string(name) + " must be None, an int or \"N%\", got \"" + text + "\"");
    return CountOrPercent::percentage(number);
}

py::dict item_dict(const py::handle& item, const char* what, std::size_t index) {
    if (!py::isinstance<py::dict>(item)) throw InvalidArgument(std::string(what) + "[" + std::to_string(index) + "] must be a dict");
    return py::reinterpret_borrow<py::dict>(item);
}

using python::to_optional_resources;
using python::to_resources;
using python::to_resources_list;

/// An integer numpy view of `value` (lists are converted); floats are refused, never truncated.
py::array_t<std::int64_t, py::array::c_style> integer_array(const py::handle& value, const char* argument) {
    py::array array = py::array::ensure(value);
    if (!array) throw InvalidArgument(std::string(argument) + ": expected an array of integers");
    const char kind = array.dtype().kind();
    if (array.size() > 0 && kind != 'i' && kind != 'u') {
        throw InvalidArgument(std::string(argument) + ": expected integers (canonical units), got dtype " + py::cast<std::string>(py::str(array.dtype())));
    }
    return py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
}

struct Problem {
    bool vector = false;
    std::vector<std::int64_t> sizes;
    std::size_t dimensions = 1;
    std::vector<std::int64_t> capacity;
};

/// True when `value` names its resources: a Resources, a dict, a structured array, or a list whose
/// first element is a Resources or a dict.
bool names_resources(const py::handle& value) {
    if (py::isinstance<Resources>(value) || py::isinstance<py::dict>(value) || python::is_structured_array(value)) return true;
    if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value)) return false;
    const auto sequence = py::reinterpret_borrow<py::sequence>(value);
    return sequence.size() > 0 && (py::isinstance<Resources>(sequence[0]) || py::isinstance<py::dict>(sequence[0]));
}

/// Items and capacity with resource names (dicts, Resources, a structured array) as a dense vector
/// problem over the sorted union of the names, in canonical units.
Problem named_problem(const py::handle& sizes_object, const py::handle& capacity_object) {
    const auto items = to_resources_list(sizes_object, "sizes");
    const auto capacity = to_resources(capacity_object, "capacity");
    std::vector<std::string> names = capacity.names();
    for (const auto& item : items) {
        for (const auto& name : item.names()) {
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        }
    }
    std::sort(names.begin(), names.end());
    if (names.empty()) throw InvalidArgument("capacity is empty");
    Problem p;
    p.vector = true;
    p.dimensions = names.size();
    for (const auto& item : items) {
        for (const auto& name : names) p.sizes.push_back(item.get(name));
    }
    for (const auto& name : names) p.capacity.push_back(capacity.get(name));
    return p;
}

Problem to_problem(const py::handle& sizes_object, const py::handle& capacity_object) {
    if (names_resources(sizes_object) || names_resources(capacity_object)) return named_problem(sizes_object, capacity_object);
    Problem p;
    const auto sizes = integer_array(sizes_object, "sizes");
    const auto capacity = integer_array(capacity_object, "capacity");
    if (sizes.ndim() > 2) throw InvalidArgument("sizes must be 1-D (n) or 2-D (n x d), got " + std::to_string(sizes.ndim()) + " dimensions");
    if (capacity.ndim() > 1) throw InvalidArgument("capacity must be a scalar or a 1-D array");
    p.sizes.assign(sizes.data(), sizes.data() + sizes.size());
    p.capacity.assign(capacity.data(), capacity.data() + capacity.size());
    if (sizes.ndim() == 2) {
        p.vector = true;
        p.dimensions = static_cast<std::size_t>(sizes.shape(1));
        if (capacity.ndim() == 0 || capacity.size() == 1) {
            if (p.dimensions != 1 && capacity.ndim() == 0) p.capacity.assign(p.dimensions, p.capacity.at(0));
        }
        if (p.dimensions == 0 && sizes.shape(0) > 0) throw InvalidArgument("sizes has zero columns");
        if (p.dimensions == 0) p.dimensions = p.capacity.size();
    } else if (capacity.ndim() == 1 && capacity.size() != 1) {
        throw InvalidArgument("capacity has " + std::to_string(capacity.size()) + " values but sizes is 1-D; pass an n x d array for vector items");
    }
    if (p.capacity.empty()) throw InvalidArgument("capacity is empty");
    return p;
}

py::list bins_to_python(const std::vector<std::vector<std::size_t>>& bins) {
    py::list out;
    for (const auto& bin : bins) out.append(py::cast(bin));
    return out;
}

template <typename Heuristic1D, typename HeuristicVector>
py::object run_heuristic(const py::handle& sizes, const py::handle& capacity, Heuristic1D one, HeuristicVector vec) {
    const auto p = to_problem(sizes, capacity);
    if (!p.vector) {
        Packing result;
        {
            py::gil_scoped_release release;
            result = one(p.sizes, p.capacity[0]);
        }
        return py::cast(result);
    }
    VectorPacking result;
    {
        py::gil_scoped_release release;
        result = vec(p);
    }
    return py::cast(result);
}

Budget make_budget(std::int64_t node_limit, std::optional<double> time_limit_ms) {
    Budget b;
    b.node_limit = node_limit;
    if (time_limit_ms) {
        if (!(*time_limit_ms >= 0)) throw InvalidArgument("time_limit_ms must be >= 0, got " + std::to_string(*time_limit_ms));
        b.time_limit = Duration(static_cast<Duration::rep>(*time_limit_ms));
    }
    b.validate();
    return b;
}

/// Registers T unless another area's bindings already did (federation binds PlacedPod and PodMove
/// for its own submodule); then `m.<name>` is an alias of that same Python type.
template <typename T, typename Define>
void bind_once(py::module_& m, const char* name, Define define) {
    if (py::detail::get_type_info(typeid(T)) != nullptr) {
        m.attr(name) = py::type::of<T>();
        return;
    }
    define();
}

}  // namespace

void bind(py::module_& root) {
    auto m = root.def_submodule("packing", "Bin packing: FF/BF/FFD/BFD (1-D and vector), bounds, an exact solver, node types with cost, consolidation.");
    m.attr("unlimited") = unlimited;

    py::enum_<VectorOrder>(m, "VectorOrder", "Item order / bin score of the vector heuristics.")
        .value("sum_normalized", VectorOrder::sum_normalized, "sum of size/capacity (Cluster Autoscaler)")
        .value("max_normalized", VectorOrder::max_normalized, "max of size/capacity")
        .value("lexicographic", VectorOrder::lexicographic, "cpu, then memory, then others (Karpenter)")
        .value("dot_product", VectorOrder::dot_product, "Panigrahy DotProduct (bin-centric in FFD)")
        .value("l2_norm", VectorOrder::l2_norm, "Panigrahy Norm-based greedy (bin-centric in FFD)");

    py::class_<Packing>(m, "Packing", "Result of a 1-D heuristic: item indices per bin and unplaced items.")
        .def_property_readonly("bins", [](const Packing& p) { return bins_to_python(p.bins); })
        .def_readonly("unplaced", &Packing::unplaced)
        .def_property_readonly("num_bins", &Packing::num_bins)
        .def("__repr__", [](const Packing& p) { return "Packing(num_bins=" + std::to_string(p.num_bins()) + ", unplaced=" + std::to_string(p.unplaced.size()) + ")"; });
    py::class_<VectorPacking>(m, "VectorPacking", "Result of a vector heuristic: item indices per bin and unplaced items.")
        .def_property_readonly("bins", [](const VectorPacking& p) { return bins_to_python(p.bins); })
        .def_readonly("unplaced", &VectorPacking::unplaced)
        .def_property_readonly("num_bins", &VectorPacking::num_bins)
        .def("__repr__", [](const VectorPacking& p) { return "VectorPacking(num_bins=" + std::to_string(p.num_bins()) + ", unplaced=" + std::to_string(p.unplaced.size()) + ")"; });
    py::class_<ExactPacking>(m, "ExactPacking", "Result of solve_exact: packing, proved lower bound, optimality, gap.")
        .def_property_readonly("bins", [](const ExactPacking& p) { return bins_to_python(p.bins); })
        .def_readonly("unplaced", &ExactPacking::unplaced)
        .def_property_readonly("num_bins", &ExactPacking::num_bins)
        .def_readonly("lower_bound", &ExactPacking::lower_bound)
        .def_readonly("optimal", &ExactPacking::optimal)
        .def_readonly("gap", &ExactPacking::gap)
        .def_readonly("nodes", &ExactPacking::nodes)
        .def("__repr__", [](const ExactPacking& p) {
            return "ExactPacking(num_bins=" + std::to_string(p.num_bins()) + ", lower_bound=" + std::to_string(p.lower_bound) + ", optimal=" + (p.optimal ? "True" : "False") + ")";
        });

    const char* sizes_doc =
        "sizes: 1-D (n) or 2-D (n x d) integer array of unnamed sizes with capacity a scalar or length-d integer array; or named "
        "resources (a list of Resources or dicts {resource: amount}, or a numpy structured array of canonical units) with capacity "
        "a Resources or dict, packed over the union of the names.";
    m.def(
        "first_fit_decreasing",
        [](const py::object& sizes, const py::object& capacity, VectorOrder order) {
            return run_heuristic(
                sizes, capacity, [](const std::vector<std::int64_t>& s, std::int64_t c) { return first_fit_decreasing(s, c); },
                [order](const Problem& p) { return first_fit_decreasing(p.sizes, p.dimensions, p.capacity, order); });
        },
        py::arg("sizes"), py::arg("capacity"), py::arg("order") = VectorOrder::sum_normalized,
        (std::string("First fit decreasing, O(n log n). ") + sizes_doc + " Returns Packing (1-D) or VectorPacking (2-D).").c_str());
    m.def(
        "best_fit_decreasing",
        [](const py::object& sizes, const py::object& capacity, VectorOrder order) {
            return run_heuristic(
                sizes, capacity, [](const std::vector<std::int64_t>& s, std::int64_t c) { return best_fit_decreasing(s, c); },
                [order](const Problem& p) { return best_fit_decreasing(p.sizes, p.dimensions, p.capacity, order); });
        },
        py::arg("sizes"), py::arg("capacity"), py::arg("order") = VectorOrder::sum_normalized,
        (std::string("Best fit decreasing. ") + sizes_doc).c_str());
    const auto dense_resources = [](const Problem& p) {
        std::vector<Resources> items;
        for (std::size_t i = 0; i < p.sizes.size() / std::max<std::size_t>(p.dimensions, 1); ++i) {
            Resources r;
            for (std::size_t k = 0; k < p.dimensions; ++k) {
                if (p.sizes[i * p.dimensions + k] < 0) throw InvalidArgument("sizes[" + std::to_string(i) + "][" + std::to_string(k) + "] must be >= 0");
                r.set("d" + std::to_string(k), p.sizes[i * p.dimensions + k]);
            }
            items.push_back(std::move(r));
        }
        Resources cap;
        if (p.capacity.size() != p.dimensions) throw InvalidArgument("capacity has " + std::to_string(p.capacity.size()) + " values but sizes has " + std::to_string(p.dimensions) + " columns");
        for (std::size_t k = 0; k < p.dimensions; ++k) {
            if (p.capacity[k] < 0) throw InvalidArgument("capacity[" + std::to_string(k) + "] must be >= 0");
            cap.set("d" + std::to_string(k), p.capacity[k]);
        }
        return std::make_pair(items, cap);
    };
    m.def(
        "first_fit",
        [dense_resources](const py::object& sizes, const py::object& capacity) {
            return run_heuristic(
                sizes, capacity, [](const std::vector<std::int64_t>& s, std::int64_t c) { return first_fit(s, c); },
                [dense_resources](const Problem& p) { const auto [i, c] = dense_resources(p); return first_fit(i, c); });
        },
        py::arg("sizes"), py::arg("capacity"), (std::string("First fit in input order. ") + sizes_doc).c_str());
    m.def(
        "best_fit",
        [dense_resources](const py::object& sizes, const py::object& capacity) {
            return run_heuristic(
                sizes, capacity, [](const std::vector<std::int64_t>& s, std::int64_t c) { return best_fit(s, c); },
                [dense_resources](const Problem& p) { const auto [i, c] = dense_resources(p); return best_fit(i, c); });
        },
        py::arg("sizes"), py::arg("capacity"), (std::string("Best fit in input order. ") + sizes_doc).c_str());
    m.def(
        "next_fit",
        [dense_resources](const py::object& sizes, const py::object& capacity) {
            return run_heuristic(
                sizes, capacity, [](const std::vector<std::int64_t>& s, std::int64_t c) { return next_fit(s, c); },
                [dense_resources](const Problem& p) { const auto [i, c] = dense_resources(p); return next_fit(i, c); });
        },
        py::arg("sizes"), py::arg("capacity"), (std::string("Next fit in input order. ") + sizes_doc).c_str());
    m.def(
        "lower_bound",
        [dense_resources](const py::object& sizes, const py::object& capacity) {
            const auto p = to_problem(sizes, capacity);
            if (!p.vector) return l2_bound(p.sizes, p.capacity[0]);
            const auto [items, cap] = dense_resources(p);
            return lower_bound(items, cap);
        },
        py::arg("sizes"), py::arg("capacity"),
        "Martello-Toth L2 lower bound on the number of bins (2-D or named sizes: max over dimensions). Items larger than the capacity are\n"
        "ignored. sizes and capacity as in first_fit_decreasing.");
    m.def(
        "l1_bound", [](const py::object& sizes, std::int64_t capacity) { return l1_bound(to_problem(sizes, py::int_(capacity)).sizes, capacity); },
        py::arg("sizes"), py::arg("capacity"), "ceil(sum(sizes) / capacity) over 1-D sizes that fit.");
    m.def(
        "solve_exact",
        [](const py::object& sizes, const py::object& capacity, std::int64_t node_limit, std::optional<double> time_limit_ms) {
            const auto p = to_problem(sizes, capacity);
            const auto budget = make_budget(node_limit, time_limit_ms);
            py::gil_scoped_release release;
            if (!p.vector) return solve_exact(p.sizes, p.capacity[0], budget);
            return solve_exact(p.sizes, p.dimensions, p.capacity, budget);
        },
        py::arg("sizes"), py::arg("capacity"), py::arg("node_limit") = Budget{}.node_limit, py::arg("time_limit_ms") = py::none(),
        "Minimum number of bins within a budget (explored nodes, milliseconds). Returns ExactPacking with .num_bins, "
        ".lower_bound, .optimal, .gap, .bins (lists of item indices); never worse than FFD. sizes and capacity as in first_fit_decreasing.");

    py::class_<NodeType> node_type(m, "NodeType", "A node type: name, capacity (Resources or dict), cost per unit of time, max_count (unlimited = -1).");
    node_type.def(py::init([](std::string name, const python::ResourcesLike& capacity, double cost, std::int64_t max_count) {
                 return NodeType{std::move(name), to_resources(capacity, "capacity"), cost, max_count};
             }),
             py::arg("name"), py::arg("capacity"), py::arg("cost") = 0.0, py::arg("max_count") = unlimited);
    python::def_field(node_type, "name", &NodeType::name);
    python::def_field(node_type, "capacity", &NodeType::capacity);
    python::def_field(node_type, "cost", &NodeType::cost);
    python::def_field(node_type, "max_count", &NodeType::max_count);
    node_type.def("__repr__", continuum::python::fields_repr({"name", "capacity", "cost", "max_count"}));
    python::def_result(py::class_<OpenedNode>(m, "OpenedNode", "A node to open: type index and item indices."),
                        python::field("type", &OpenedNode::type),
                        python::field("items", &OpenedNode::items));
    python::def_result(py::class_<UnplaceableItem>(m, "UnplaceableItem", "An item no node can hold, and why."),
                        python::field("item", &UnplaceableItem::item),
                        python::field("reason", &UnplaceableItem::reason));
    py::class_<NodeMix>(m, "NodeMix", "Nodes to open, total cost, lower bound, optimal, gap, unplaceable items, count per type.")
        .def_readonly("nodes", &NodeMix::nodes)
        .def_readonly("cost", &NodeMix::cost)
        .def_readonly("lower_bound", &NodeMix::lower_bound)
        .def_readonly("optimal", &NodeMix::optimal)
        .def_readonly("gap", &NodeMix::gap)
        .def_readonly("unplaceable", &NodeMix::unplaceable)
        .def_readonly("count_per_type", &NodeMix::count_per_type)
        .def_readonly("existing_items", &NodeMix::existing_items)
        .def("__repr__", [](const NodeMix& mix) {
            return fmt::format("NodeMix(nodes={}, cost={:.6g}, lower_bound={:.6g}, optimal={}, unplaceable={})", mix.nodes.size(), mix.cost, mix.lower_bound,
                               mix.optimal ? "True" : "False", mix.unplaceable.size());
        });
    m.def(
        "cheapest_node_mix",
        [](const python::ResourcesListLike& items, const std::vector<NodeType>& types, std::int64_t node_limit, std::optional<double> time_limit_ms) {
            const auto list = to_resources_list(items, "items");
            const auto budget = make_budget(node_limit, time_limit_ms);
            py::gil_scoped_release release;
            return cheapest_node_mix(list, types, budget);
        },
        py::arg("items"), py::arg("types"), py::arg("node_limit") = Budget{}.node_limit,
        py::arg("time_limit_ms") = static_cast<double>(continuum::per_tick_deadline.count()),
        "Cheapest mix of new nodes (list of NodeType) holding items (Resources or dicts, or a structured array): heuristics, then an exact search over "
        "item classes (equal requests) within node_limit and time_limit_ms (default 10 ms; None: no deadline). Returns NodeMix.");

    py::class_<ExistingNode> existing_node(m, "ExistingNode", "A running node: name, capacity and allocated (Resources or dicts); its residual is filled before new nodes open.");
    existing_node.def(py::init([](std::string name, const python::ResourcesLike& capacity, const python::OptionalResourcesLike& allocated) {
                 return ExistingNode{std::move(name), to_resources(capacity, "capacity"), to_optional_resources(allocated, "allocated")};
             }),
             py::arg("name"), py::arg("capacity"), py::arg("allocated") = py::none());
    python::def_field(existing_node, "name", &ExistingNode::name);
    python::def_field(existing_node, "capacity", &ExistingNode::capacity);
    python::def_field(existing_node, "allocated", &ExistingNode::allocated);
    existing_node.def("__repr__", continuum::python::fields_repr({"name", "capacity", "allocated?"}));
    py::class_<PackingOntoExisting>(m, "PackingOntoExisting", "Items added to each existing node, items per new node, unplaced items.")
        .def_readonly("existing", &PackingOntoExisting::existing)
        .def_readonly("new_nodes", &PackingOntoExisting::new_nodes)
        .def_readonly("unplaced", &PackingOntoExisting::unplaced)
        .def_property_readonly("num_new_nodes", &PackingOntoExisting::num_new_nodes)
        .def("__repr__", [](const PackingOntoExisting& p) {
            return "PackingOntoExisting(existing=" + std::to_string(p.existing.size()) + ", num_new_nodes=" + std::to_string(p.num_new_nodes()) + ", unplaced=" + std::to_string(p.unplaced.size()) + ")";
        });
    m.def(
        "first_fit_decreasing_onto_existing",
        [](const python::ResourcesListLike& items, const std::vector<ExistingNode>& existing_nodes, const python::ResourcesLike& new_node_capacity, VectorOrder order) {
            const auto list = to_resources_list(items, "items");
            const auto capacity = to_resources(new_node_capacity, "new_node_capacity");
            py::gil_scoped_release release;
            return first_fit_decreasing_onto_existing(list, existing_nodes, capacity, order);
        },
        py::arg("items"), py::arg("existing_nodes"), py::arg("new_node_capacity"), py::arg("order") = VectorOrder::sum_normalized,
        "First fit decreasing onto existing nodes' residual capacity first, then onto new nodes of new_node_capacity. "
        "items: Resources or dicts; existing_nodes: list of ExistingNode. Returns PackingOntoExisting.");
    m.def(
        "best_fit_decreasing_onto_existing",
        [](const python::ResourcesListLike& items, const std::vector<ExistingNode>& existing_nodes, const python::ResourcesLike& new_node_capacity, VectorOrder order) {
            const auto list = to_resources_list(items, "items");
            const auto capacity = to_resources(new_node_capacity, "new_node_capacity");
            py::gil_scoped_release release;
            return best_fit_decreasing_onto_existing(list, existing_nodes, capacity, order);
        },
        py::arg("items"), py::arg("existing_nodes"), py::arg("new_node_capacity"), py::arg("order") = VectorOrder::sum_normalized,
        "Best fit decreasing: each item to the best existing node that holds it, else the best new node. Returns PackingOntoExisting.");
    m.def(
        "cheapest_node_mix_onto_existing",
        [](const python::ResourcesListLike& items, const std::vector<ExistingNode>& existing_nodes, const std::vector<NodeType>& types, std::int64_t node_limit,
           std::optional<double> time_limit_ms) {
            const auto list = to_resources_list(items, "items");
            const auto budget = make_budget(node_limit, time_limit_ms);
            py::gil_scoped_release release;
            return cheapest_node_mix_onto_existing(list, existing_nodes, types, budget);
        },
        py::arg("items"), py::arg("existing_nodes"), py::arg("types"), py::arg("node_limit") = Budget{}.node_limit,
        py::arg("time_limit_ms") = static_cast<double>(continuum::per_tick_deadline.count()),
        "Cheapest new nodes (list of NodeType) for what does not fit on existing_nodes (free residual capacity). "
        "Returns NodeMix; .existing_items lists the items added to each existing node; cost counts new nodes only.");

    bind_once<PlacedPod>(m, "PlacedPod", [&] {
        py::class_<PlacedPod> placed_pod(m, "PlacedPod", "A pod on a node: name, request (Resources or dict), movable.");
        placed_pod.def(py::init([](std::string name, const python::ResourcesLike& request, bool movable) { return PlacedPod{std::move(name), to_resources(request, "request"), movable}; }),
                 py::arg("name"), py::arg("request"), py::arg("movable") = true);
        python::def_field(placed_pod, "name", &PlacedPod::name);
        python::def_field(placed_pod, "request", &PlacedPod::request);
        python::def_field(placed_pod, "movable", &PlacedPod::movable);
        placed_pod.def("__repr__", continuum::python::fields_repr({"name", "request", "movable"}));
    });
    py::class_<NodeState> node_state(m, "NodeState", "A current node: name, capacity, cost, pods.");
    node_state.def(py::init([](std::string name, const python::ResourcesLike& capacity, double cost, std::vector<PlacedPod> pods) {
                 return NodeState{std::move(name), to_resources(capacity, "capacity"), cost, std::move(pods)};
             }),
             py::arg("name"), py::arg("capacity"), py::arg("cost") = 0.0, py::arg("pods") = std::vector<PlacedPod>{});
    python::def_field(node_state, "name", &NodeState::name);
    python::def_field(node_state, "capacity", &NodeState::capacity);
    python::def_field(node_state, "cost", &NodeState::cost);
    python::def_field(node_state, "pods", &NodeState::pods);
    node_state.def("__repr__", continuum::python::fields_repr({"name", "capacity", "cost", "pods"}));
    bind_once<PodMove>(m, "PodMove", [&] {
        python::def_result(py::class_<PodMove>(m, "PodMove", "Move pod from one node to another."),
                            python::field("pod", &PodMove::pod),
                            python::field("from_node", &PodMove::from),
                            python::field("to_node", &PodMove::to));
    });
    python::def_result(py::class_<ConsolidationPlan>(m, "ConsolidationPlan", "Nodes to release, pod moves, saved cost and reason."),
                        python::field("nodes_to_release", &ConsolidationPlan::nodes_to_release),
                        python::field("moves", &ConsolidationPlan::moves),
                        python::field("saved_cost", &ConsolidationPlan::saved_cost),
                        python::field("reason", &ConsolidationPlan::reason));
    py::class_<DisruptionBudget>(m, "DisruptionBudget", R"pbdoc(
A PodDisruptionBudget for scale-in: min_available or max_unavailable (not both), each None, an int or "N%" of the
desired replicas (rounded up). Neither: ready pods never below the desired count.)pbdoc")
        .def(py::init([](const py::object& min_available, const py::object& max_unavailable) {
                 DisruptionBudget b{count_or_percent(min_available, "min_available"), count_or_percent(max_unavailable, "max_unavailable")};
                 b.validate();
                 return b;
             }),
             py::arg("min_available") = py::none(), py::arg("max_unavailable") = py::none())
        .def("desired_healthy", &DisruptionBudget::desired_healthy, py::arg("desired"), "Pods that must stay healthy when `desired` replicas are wanted.")
        .def("disruptions_allowed", &DisruptionBudget::disruptions_allowed, py::arg("desired"), py::arg("healthy"),
             "healthy - desired_healthy(desired), at least 0.")
        .def("__repr__", [](const DisruptionBudget& b) { return "DisruptionBudget(" + b.to_string() + ")"; });
    m.def(
        "plan_drains",
        [](const py::list& nodes, const py::list& pods, const py::list& workloads, const std::vector<std::size_t>& candidates, std::size_t max_removals) {
            std::vector<DrainNode> n;
            for (std::size_t i = 0; i < nodes.size(); ++i) {
                const auto d = item_dict(nodes[i], "nodes", i);
                n.push_back({py::cast<std::string>(d["name"]), to_resources(d["allocatable"], "allocatable"),
                             d.contains("requested") ? to_optional_resources(d["requested"], "requested") : Resources{}, d.contains("ready") ? py::cast<bool>(d["ready"]) : true});
            }
            std::vector<DrainPod> p;
            for (std::size_t i = 0; i < pods.size(); ++i) {
                const auto d = item_dict(pods[i], "pods", i);
                p.push_back({py::cast<std::size_t>(d["node"]), d.contains("workload") ? py::cast<std::string>(d["workload"]) : std::string{},
                             to_resources(d["request"], "request"), d.contains("movable") ? py::cast<bool>(d["movable"]) : true});
            }
            std::vector<WorkloadAvailability> w;
            for (std::size_t i = 0; i < workloads.size(); ++i) {
                const auto d = item_dict(workloads[i], "workloads", i);
                w.push_back({py::cast<std::string>(d["name"]), py::cast<std::int64_t>(d["desired"]), py::cast<std::int64_t>(d["healthy"]),
                             d.contains("budget") && !d["budget"].is_none() ? py::cast<DisruptionBudget>(d["budget"]) : DisruptionBudget{}});
            }
            const auto plan = plan_drains(n, p, w, candidates, max_removals);
            return py::dict(py::arg("removed") = plan.removed, py::arg("blocked") = plan.blocked);
        },
        py::arg("nodes"), py::arg("pods"), py::arg("workloads"), py::arg("candidates"), py::arg("max_removals"),
        "The Cluster Autoscaler's drain rules: which candidates (node indices, tried in order) may go, at most max_removals. nodes: "
        "[{name, allocatable, requested, ready}], pods: [{node, workload, request, movable}], workloads: [{name, desired, healthy, "
        "budget: DisruptionBudget}]. Returns {removed: [node index], blocked: [why each kept candidate stays]}.");
    m.def(
        "plan_consolidation",
        [](const std::vector<NodeState>& nodes, std::int64_t node_limit, std::optional<double> time_limit_ms) {
            const auto budget = make_budget(node_limit, time_limit_ms);
            py::gil_scoped_release release;
            return plan_consolidation(nodes, budget);
        },
        py::arg("nodes"), py::arg("node_limit") = Budget{}.node_limit, py::arg("time_limit_ms") = py::none(),
        "Which nodes can be emptied (maximum saved cost) and the pod moves; unmovable pods pin their node.");
}
}  // namespace continuum_bind_packing

void bind_packing(py::module_& m) { continuum_bind_packing::bind(m); }
