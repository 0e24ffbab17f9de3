// Python bindings for continuum/federation: offers, the offer catalogue, label selectors, cost models,
// the Recommender, the Cluster Autoscaler expanders and chains, the FederatedClusterScaler and the
// reservation Ledger. PlacedPod and PodMove are packing's types (bind_packing.cpp registers them;
// continuum/federation.py re-exports them).
#include "common.hpp"
#include "repr.hpp"
#include "state.hpp"

#include <continuum/federation.hpp>
#if CONTINUUM_HAVE_NLOHMANN_JSON
#include <continuum/serialization/federation.hpp>
#endif
#if CONTINUUM_HAVE_PRIORITY_CONFIG
#include <continuum/federation/priority_config.hpp>
#endif


#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
// A namespace of its own per bind_<area>.cpp: its using-directives and file-local helpers stay out of
// the other files of a unity unit (CONTINUUM_PYTHON_UNITY), whichever files it is grouped with.
namespace continuum_bind_federation {
using namespace continuum;
using namespace continuum::federation;

namespace {

using python::to_optional_resources;
using python::to_resources;

LabelSelector to_selector(const py::handle& value) {
    if (value.is_none()) return {};
    if (py::isinstance<py::str>(value)) return LabelSelector::parse(py::cast<std::string>(value));
    if (py::isinstance<LabelSelector>(value)) return py::cast<LabelSelector>(value);
    throw InvalidArgument("selector: expected a string such as \"a=b,c in (x,y)\" or a LabelSelector");
}

Labels to_labels(const py::dict& labels) {
    Labels out;
    for (const auto& [k, v] : labels) out[py::cast<std::string>(k)] = py::cast<std::string>(v);
    return out;
}

Time to_time(double seconds, const char* argument) { return python::duration_from_seconds(seconds, argument); }

/// A Python callable (offer, request) -> float as a cost model; calls back with the GIL held.
AnyCostModel callable_cost(std::string name, py::function function) {
    auto holder = std::shared_ptr<py::function>(new py::function(std::move(function)), [](py::function* f) {
        py::gil_scoped_acquire gil;
        delete f;
    });
    return make_cost_model(std::move(name), [holder](const Offer& offer, const Resources& request) {
        py::gil_scoped_acquire gil;
        return py::cast<double>((*holder)(offer, request));
    });
}

/// Model.cost(offer, request) taking request through the shared converter.
template <typename Model>
auto cost_of() {
    return [](const Model& model, const Offer& offer, const python::ResourcesLike& request) { return model.cost(offer, to_resources(request, "request")); };
}

AnyCostModel to_cost_model(const py::handle& value) {
    if (value.is_none()) return AnyCostModel{};
    if (py::isinstance<AnyCostModel>(value)) return py::cast<AnyCostModel>(value);
    if (py::isinstance<MonetaryCost>(value)) return py::cast<MonetaryCost>(value);
    if (py::isinstance<LatencyCost>(value)) return py::cast<LatencyCost>(value);
    if (py::isinstance<EnergyCost>(value)) return py::cast<EnergyCost>(value);
    if (py::isinstance<WeightedSum>(value)) return py::cast<WeightedSum>(value);
    if (PyCallable_Check(value.ptr())) {
        const std::string name = py::hasattr(value, "__name__") ? py::cast<std::string>(value.attr("__name__")) : "callable";
        return callable_cost(name, py::reinterpret_borrow<py::function>(value));
    }
    throw InvalidArgument("cost_model: expected MonetaryCost, LatencyCost, EnergyCost, WeightedSum, CostModel or a callable(offer, request) -> float");
}

/// A ranked or rejected offer, with its cluster id and reason resolved for Python.
struct PyScoredOffer {
    std::size_t offer_index;
    std::string cluster_id;
    double score;
    Verdict verdict;
    std::string reason;
};

struct PyRecommendation {
    std::vector<PyScoredOffer> ranked;
    std::vector<PyScoredOffer> rejected;
    std::string cost_model;
    std::size_t eligible = 0;
};

PyRecommendation to_python(const Recommendation& r, std::span<const Offer> offers) {
    PyRecommendation out{{}, {}, r.cost_model, r.eligible};
    for (const auto& e : r.ranked) out.ranked.push_back({e.offer_index, offers[e.offer_index].cluster_id, e.score, e.verdict, r.reason(e, offers)});
    for (const auto& e : r.rejected) out.rejected.push_back({e.offer_index, offers[e.offer_index].cluster_id, e.score, e.verdict, r.reason(e, offers)});
    return out;
}

PricingModel to_pricing(const py::handle& value) {
    if (value.is_none()) return {};
    return py::cast<PricingModel>(value);
}

/// A Python callable kept alive by the C++ object that calls it (released with the GIL held).
std::shared_ptr<py::object> python_callable(py::object function) {
    return std::shared_ptr<py::object>(new py::object(std::move(function)), python::GilSafeDeleter{});
}

/// A stage or fallback given as a callable (named by __name__) or a (name, callable) pair.
std::pair<std::string, py::object> named_callable(const py::object& value, const char* argument) {
    if (py::isinstance<py::tuple>(value) && py::len(value) == 2 && PyCallable_Check(value[py::int_(1)].ptr())) {
        return {py::cast<std::string>(value[py::int_(0)]), value[py::int_(1)]};
    }
    if (PyCallable_Check(value.ptr())) {
        return {py::hasattr(value, "__name__") ? py::cast<std::string>(value.attr("__name__")) : std::string("callable"), value};
    }
    throw InvalidArgument(std::string(argument) + ": expected an expander name, a callable or a (name, callable) pair");
}

/// A Python filter callable(options, among) -> list[int] | FilterResult as a C++ filter.
AnyOptionFilter python_filter(py::object function) {
    auto f = python_callable(std::move(function));
    return [f](std::span<const ExpansionOption> options, std::span<const std::size_t> among) {
        py::gil_scoped_acquire gil;
        const py::object r = (*f)(std::vector<ExpansionOption>(options.begin(), options.end()), std::vector<std::size_t>(among.begin(), among.end()));
        if (py::isinstance<FilterResult>(r)) return py::cast<FilterResult>(r);
        return FilterResult{py::cast<std::vector<std::size_t>>(r), {}};
    };
}

/// The "priority" stage: a PriorityTiers or any filter callable.
AnyOptionFilter to_priority_filter(const py::object& value) {
#if CONTINUUM_HAVE_PRIORITY_CONFIG
    if (py::isinstance<PriorityTiers>(value)) return py::cast<PriorityTiers>(value);
#endif
    if (!PyCallable_Check(value.ptr())) throw InvalidArgument("priorities: expected a PriorityTiers or a callable(options, among)");
    return python_filter(value);
}

}  // namespace

void bind(py::module_& root) {
    auto m = root.def_submodule("federation", "Offers, cost models, the Federation Recommender, Cluster Autoscaler expanders, the federated cluster scaler.");

    // --- selectors ---------------------------------------------------------------------------
    py::enum_<SelectorOperator>(m, "SelectorOperator", "A matchExpressions operator (Kubernetes spelling).")
        .value("In", SelectorOperator::in)
        .value("NotIn", SelectorOperator::not_in)
        .value("Exists", SelectorOperator::exists)
        .value("DoesNotExist", SelectorOperator::does_not_exist)
        .value("Gt", SelectorOperator::gt)
        .value("Lt", SelectorOperator::lt);
    py::class_<SelectorRequirement>(m, "SelectorRequirement", "One matchExpressions entry.")
        .def(py::init([](std::string key, SelectorOperator op, std::vector<std::string> values) {
                 SelectorRequirement r{std::move(key), op, std::move(values)};
                 r.validate();
                 return r;
             }),
             py::arg("key"), py::arg("operator"), py::arg("values") = std::vector<std::string>{})
        .def_readonly("key", &SelectorRequirement::key)
        .def_readonly("operator", &SelectorRequirement::op)
        .def_readonly("values", &SelectorRequirement::values)
        .def("matches", [](const SelectorRequirement& r, const py::dict& labels) { return r.matches(to_labels(labels)); }, py::arg("labels"),
             "True when labels (dict) satisfy this requirement.")
        .def("__str__", &SelectorRequirement::to_string)
        .def("__eq__", [](const SelectorRequirement& a, const SelectorRequirement& b) { return a == b; })
        .def("__repr__", continuum::python::fields_repr({"key", "operator", "values?"}));
    py::class_<LabelSelector>(m, "LabelSelector", R"pbdoc(
A Kubernetes label selector: match_labels (a dict) and match_expressions (SelectorRequirement list),
all of which must hold. LabelSelector.parse("a=b,c in (x,y),!d") reads the kubectl -l form and
raises continuum.ParseError on malformed text.)pbdoc")
        .def(py::init([](const py::dict& match_labels, std::vector<SelectorRequirement> match_expressions) {
                 LabelSelector s{to_labels(match_labels), std::move(match_expressions)};
                 s.validate();
                 return s;
             }),
             py::arg("match_labels") = py::dict(), py::arg("match_expressions") = std::vector<SelectorRequirement>{})
        .def_static("parse", &LabelSelector::parse<>, py::arg("text"),
                    "Kubernetes selector text: 'tier=gold,region in (eu,us),!spot'. Raises ParseError on malformed text.")
        .def_property_readonly("match_labels", [](const LabelSelector& s) { return std::map<std::string, std::string>(s.match_labels.begin(), s.match_labels.end()); })
        .def_readonly("match_expressions", &LabelSelector::match_expressions)
        .def("matches", [](const LabelSelector& s, const py::dict& labels) { return s.matches(to_labels(labels)); }, py::arg("labels"),
             "True when labels (dict) satisfy every requirement.")
        .def("explain_mismatch", [](const LabelSelector& s, const py::dict& labels) { return s.explain_mismatch(to_labels(labels)); }, py::arg("labels"),
             "The first requirement labels (dict) fail, as readable text; empty when they match.")
        .def("empty", &LabelSelector::empty, "True for the selector with no requirement (it matches every label set).")
        .def("__str__", &LabelSelector::to_string)
        .def("__repr__", [](const LabelSelector& s) { return "LabelSelector.parse('" + s.to_string() + "')"; })
        .def("__eq__", [](const LabelSelector& a, const LabelSelector& b) { return a == b; });
    m.def("parse_label_selector", &parse_label_selector<>, py::arg("text"), "LabelSelector.parse(text).");

    // --- offers ------------------------------------------------------------------------------
    py::enum_<Reachability>(m, "Reachability", "How an offer's cluster is reached: directly or behind a NAT.").value("direct", Reachability::direct).value("nat", Reachability::nat);
    py::class_<Offer>(m, "Offer", R"pbdoc(
What a remote cluster advertises: capacity of one virtual node (cpu and memory > 0, GPUs as
nvidia.com/gpu), max_nodes such nodes, a flat node_price and/or unit_prices per core / GiB / GPU,
per unit of time; labels; reachability (direct or nat); optional latency_ms, bandwidth_mbps,
power_watts and carbon_intensity (gCO2/kWh). Raises InvalidArgument on negative prices or
zero capacity.)pbdoc")
        .def(py::init([](std::string cluster_id, const python::ResourcesLike& capacity, double node_price, std::map<std::string, double> unit_prices, const py::dict& labels,
                         std::string provider, std::int64_t max_nodes, Reachability reachability, std::optional<double> latency_ms, std::optional<double> bandwidth_mbps,
                         std::optional<double> power_watts, std::optional<double> carbon_intensity) {
                 Offer o;
                 o.cluster_id = std::move(cluster_id);
                 o.capacity = to_resources(capacity, "capacity");
                 o.node_price = node_price;
                 o.unit_prices.insert(unit_prices.begin(), unit_prices.end());
                 o.labels = to_labels(labels);
                 o.provider = std::move(provider);
                 o.max_nodes = max_nodes;
                 o.reachability = reachability;
                 o.latency_ms = latency_ms;
                 o.bandwidth_mbps = bandwidth_mbps;
                 o.power_watts = power_watts;
                 o.carbon_intensity = carbon_intensity;
                 o.validate();
                 return o;
             }),
             py::arg("cluster_id"), py::arg("capacity"), py::arg("node_price") = 0.0, py::arg("unit_prices") = std::map<std::string, double>{},
             py::arg("labels") = py::dict(), py::arg("provider") = "", py::arg("max_nodes") = 1, py::arg("reachability") = Reachability::direct,
             py::arg("latency_ms") = py::none(), py::arg("bandwidth_mbps") = py::none(), py::arg("power_watts") = py::none(),
             py::arg("carbon_intensity") = py::none())
        .def_readonly("cluster_id", &Offer::cluster_id)
        .def_readonly("provider", &Offer::provider)
        .def_property_readonly("labels", [](const Offer& o) { return std::map<std::string, std::string>(o.labels.begin(), o.labels.end()); })
        .def_readonly("capacity", &Offer::capacity)
        .def_readonly("max_nodes", &Offer::max_nodes)
        .def_readonly("node_price", &Offer::node_price)
        .def_property_readonly("unit_prices", [](const Offer& o) { return std::map<std::string, double>(o.unit_prices.begin(), o.unit_prices.end()); })
        .def_readonly("reachability", &Offer::reachability)
        .def_readonly("latency_ms", &Offer::latency_ms)
        .def_readonly("bandwidth_mbps", &Offer::bandwidth_mbps)
        .def_readonly("power_watts", &Offer::power_watts)
        .def_readonly("carbon_intensity", &Offer::carbon_intensity)
        .def("price_of", [](const Offer& o, const python::ResourcesLike& reserved) { return o.price_of(to_resources(reserved, "reserved")); }, py::arg("reserved"),
             "Price per unit of time of one node reserving `reserved`.")
        .def("node_cost", &Offer::node_cost, "Price per unit of time of one whole node.")
        .def("__repr__", continuum::python::fields_repr({"cluster_id", "capacity", "node_price", "unit_prices?", "labels?", "provider?", "max_nodes", "reachability",
                                                          "latency_ms?", "bandwidth_mbps?", "power_watts?", "carbon_intensity?"}));
    m.def("validate_offers", [](const std::vector<Offer>& offers) { validate_offers(offers); }, py::arg("offers"),
          "Raises InvalidArgument on an invalid offer or duplicate cluster ids.");
    py::class_<OfferCatalogue>(m, "OfferCatalogue", R"pbdoc(
Offers validated once and stored as columns, for ranking the same offers again and again:
Recommender().recommend(catalogue, ...) skips validation and string lookups. Holds its own copy of
the offers; raises InvalidArgument exactly as validate_offers.)pbdoc")
        .def(py::init([](std::vector<Offer> offers) {
                 py::gil_scoped_release release;
                 return OfferCatalogue::owning(std::move(offers));
             }),
             py::arg("offers"))
        .def("__len__", &OfferCatalogue::size)
        .def("__getitem__", [](const OfferCatalogue& c, std::size_t row) { return c.offer(row); }, py::arg("row"))
        .def_property_readonly("offers", [](const OfferCatalogue& c) { return std::vector<Offer>(c.offers().begin(), c.offers().end()); })
        .def_property_readonly("cluster_ids", [](const OfferCatalogue& c) {
            std::vector<std::string> out;
            for (const auto& o : c.offers()) out.push_back(o.cluster_id);
            return out;
        })
        .def_property_readonly("node_costs", [](const OfferCatalogue& c) { return std::vector<double>(c.node_costs().begin(), c.node_costs().end()); },
                               "Offer.node_cost() of every offer.")
        .def_property_readonly("resource_names", &OfferCatalogue::resource_names<>)
        .def("capacity", [](const OfferCatalogue& c, const std::string& name) {
                 std::vector<std::int64_t> scratch;
                 return python::amounts_to_python(name, c.capacity(name, scratch));
             }, py::arg("resource"), "Capacity of one resource per offer, in whole units as Resources gives them (0 when absent).")
        .def("canonical_capacity", [](const OfferCatalogue& c, const std::string& name) {
                 std::vector<std::int64_t> scratch;
                 const auto column = c.capacity(name, scratch);
                 return std::vector<std::int64_t>(column.begin(), column.end());
             }, py::arg("resource"), "Capacity of one resource per offer, in canonical integer units (millicores for cpu; 0 when absent).")
        .def("matching", [](const OfferCatalogue& c, const py::object& selector) {
                 const auto mask = c.matching(to_selector(selector));
                 return std::vector<bool>(mask.begin(), mask.end());
             }, py::arg("selector"), "Whether each offer's labels match the selector.")
        .def("__repr__", [](const OfferCatalogue& c) { return fmt::format("OfferCatalogue({} offers)", c.size()); });

    // --- cost models -------------------------------------------------------------------------
    py::enum_<PriceBasis>(m, "PriceBasis", "What MonetaryCost prices: the requested resources or one whole node.").value("requested", PriceBasis::requested).value("whole_offer", PriceBasis::whole_offer);
    py::class_<MonetaryCost>(m, "MonetaryCost", "Money per unit of time: the price of the request (default) or of one whole node.")
        .def(py::init([](PriceBasis basis) { return MonetaryCost{basis}; }), py::arg("basis") = PriceBasis::requested)
        .def("cost", cost_of<MonetaryCost>(), py::arg("offer"), py::arg("request"),
             "The cost of serving request (Resources) on offer; lower ranks first. Raises InvalidArgument when the offer lacks\n"
             "the figure this model prices.")
        .def_property_readonly("name", &MonetaryCost::name)
        .def("__repr__", [](const MonetaryCost& c) { return continuum::python::call_repr("MonetaryCost", {{"basis", py::cast(c.basis)}}); });
    py::class_<LatencyCost>(m, "LatencyCost", "Round-trip latency (ms); offers without latency_ms are rejected as unpriceable.")
        .def(py::init<>())
        .def("cost", cost_of<LatencyCost>(), py::arg("offer"), py::arg("request"),
             "The cost of serving request (Resources) on offer; lower ranks first. Raises InvalidArgument when the offer lacks\n"
             "the figure this model prices.")
        .def_property_readonly("name", &LatencyCost::name)
        .def("__repr__", [](const LatencyCost&) { return std::string("LatencyCost()"); });
    py::class_<EnergyCost>(m, "EnergyCost", "Watts for the request's share of a node, or with carbon=True grams of CO2 per hour.")
        .def(py::init([](bool carbon) { return EnergyCost{carbon}; }), py::arg("carbon") = false)
        .def("cost", cost_of<EnergyCost>(), py::arg("offer"), py::arg("request"),
             "The cost of serving request (Resources) on offer; lower ranks first. Raises InvalidArgument when the offer lacks\n"
             "the figure this model prices.")
        .def_property_readonly("name", &EnergyCost::name)
        .def("__repr__", [](const EnergyCost& c) { return continuum::python::call_repr("EnergyCost", {{"carbon", py::cast(c.carbon)}}); });
    py::class_<AnyCostModel>(m, "CostModel", "Any cost model (type-erased). CostModel(model) accepts the built-ins or a callable(offer, request) -> float.")
        .def(py::init([](const py::object& model, const py::object& name) {
                 if (!name.is_none() && PyCallable_Check(model.ptr())) return callable_cost(py::cast<std::string>(name), py::reinterpret_borrow<py::function>(model));
                 return to_cost_model(model);
             }),
             py::arg("model"), py::arg("name") = py::none())
        .def("cost", cost_of<AnyCostModel>(), py::arg("offer"), py::arg("request"),
             "The cost of serving request (Resources) on offer; lower ranks first. Raises InvalidArgument when the offer lacks\n"
             "the figure this model prices.")
        .def_property_readonly("name", &AnyCostModel::name)
        .def("__repr__", continuum::python::fields_repr({"name"}));
    py::class_<WeightedSum>(m, "WeightedSum", "Sum of weight * model over [(weight, model), ...]; weights >= 0.")
        .def(py::init([](const py::list& terms) {
                 std::vector<std::pair<double, AnyCostModel>> t;
                 for (const auto& item : terms) {
                     const auto pair = py::reinterpret_borrow<py::tuple>(item);
                     if (pair.size() != 2) throw InvalidArgument("WeightedSum: each term is a (weight, model) pair");
                     t.emplace_back(py::cast<double>(pair[0]), to_cost_model(pair[1]));
                 }
                 return WeightedSum(std::move(t));
             }),
             py::arg("terms"))
        .def("cost", cost_of<WeightedSum>(), py::arg("offer"), py::arg("request"),
             "The cost of serving request (Resources) on offer; lower ranks first. Raises InvalidArgument when the offer lacks\n"
             "the figure this model prices.")
        .def_property_readonly("name", &WeightedSum::name)
        .def("__repr__", continuum::python::fields_repr({"name"}));

    // --- recommender -------------------------------------------------------------------------
    py::enum_<Verdict>(m, "Verdict", "Why an offer was ranked or rejected by the recommender.")
        .value("ranked", Verdict::ranked)
        .value("unreachable", Verdict::unreachable)
        .value("wrong_arch", Verdict::wrong_arch)
        .value("insufficient_gpus", Verdict::insufficient_gpus)
        .value("selector_mismatch", Verdict::selector_mismatch)
        .value("insufficient_capacity", Verdict::insufficient_capacity)
        .value("unpriceable", Verdict::unpriceable);
    python::def_result(py::class_<PyScoredOffer>(m, "ScoredOffer", "One offer as the recommender saw it: index, cluster id, score (the cost model's value, lower is better), verdict, reason."),
                        python::field("offer_index", &PyScoredOffer::offer_index),
                        python::field("cluster_id", &PyScoredOffer::cluster_id),
                        python::field("score", &PyScoredOffer::score),
                        python::field("verdict", &PyScoredOffer::verdict),
                        python::field("reason", &PyScoredOffer::reason));
    // ranked: offers that passed, best first; rejected: offers filtered out, in input order, each with its
    // reason; eligible: offers that passed every filter (len(ranked) unless top_k cut it).
    python::def_result(py::class_<PyRecommendation>(m, "Recommendation", "The Federation Recommender's answer: ranked offers (best first), rejected ones with reasons, the cost model."),
                       python::field("ranked", &PyRecommendation::ranked), python::field("rejected", &PyRecommendation::rejected),
                       python::field("cost_model", &PyRecommendation::cost_model), python::field("eligible", &PyRecommendation::eligible))
        .def_property_readonly("best", [](const PyRecommendation& r) { return r.ranked.empty() ? py::object(py::none()) : py::object(py::str(r.ranked.front().cluster_id)); });
    py::class_<Recommender<AnyCostModel>>(m, "Recommender", R"pbdoc(
The Federation Recommender: filters offers by selector, GPUs, arch, fit and reachability, then ranks
them by the cost model (default MonetaryCost()); ties go to the cheaper whole node, then the smaller
cluster id.)pbdoc")
        .def(py::init([](const py::object& cost_model) { return Recommender<AnyCostModel>(to_cost_model(cost_model)); }), py::arg("cost_model") = py::none())
        .def(
            "recommend",
            [](const Recommender<AnyCostModel>& self, const py::object& offers, const py::object& selector, const python::OptionalResourcesLike& request, std::int64_t min_gpus,
               std::string arch, bool allow_nat, const std::optional<std::size_t>& top_k) {
                OfferRequirements req{to_selector(selector), to_optional_resources(request, "request"), min_gpus, std::move(arch), allow_nat};
                const std::size_t k = top_k ? *top_k : Recommender<AnyCostModel>::all;
                Recommendation r;
                if (py::isinstance<OfferCatalogue>(offers)) {
                    const auto& catalogue = py::cast<const OfferCatalogue&>(offers);
                    {
                        py::gil_scoped_release release;
                        r = self.recommend(catalogue, req, k);
                    }
                    return to_python(r, catalogue.offers());
                }
                const auto list = py::cast<std::vector<Offer>>(offers);
                {
                    py::gil_scoped_release release;
                    r = self.recommend(list, req, k);
                }
                return to_python(r, list);
            },
            py::arg("offers"), py::arg("selector") = py::none(), py::arg("request") = py::none(), py::arg("min_gpus") = 0, py::arg("arch") = "",
            py::arg("allow_nat") = true, py::arg("top_k") = py::none(),
            "Ranks `offers` (a list of Offer or an OfferCatalogue; offer_index is the position in it), keeping the best top_k when given. "
            "Raises InvalidArgument on bad offers (duplicate ids, negative prices, zero capacity).")
        .def("__repr__", [](const Recommender<AnyCostModel>& r) { return continuum::python::call_repr("Recommender", {{"cost_model", py::cast(r.cost_model())}}); });

    // --- expanders ---------------------------------------------------------------------------
    py::class_<Taint>(m, "Taint", "A node taint of an option's template: key, value and effect (NoSchedule, PreferNoSchedule, NoExecute).")
        .def(py::init([](std::string key, std::string value, std::string effect) { return Taint{std::move(key), std::move(value), std::move(effect)}; }),
             py::arg("key"), py::arg("value") = "", py::arg("effect") = "NoSchedule")
        .def_readonly("key", &Taint::key)
        .def_readonly("value", &Taint::value)
        .def_readonly("effect", &Taint::effect)
        .def(py::self == py::self)
        .def("__repr__", [](const Taint& t) { return fmt::format("Taint('{}', '{}', '{}')", t.key, t.value, t.effect); });
    py::class_<ExpansionPod>(m, "ExpansionPod", "A pod the new nodes would host, as CA's PricingModel.PodPrice sees it: namespace/name, labels, requests.")
        .def(py::init([](std::string name, const python::OptionalResourcesLike& requests, const py::object& labels, std::string namespace_name) {
                 return ExpansionPod(std::move(name), to_optional_resources(requests, "requests"), labels.is_none() ? Labels{} : to_labels(py::cast<py::dict>(labels)),
                                     std::move(namespace_name));
             }),
             py::arg("name") = "", py::arg("requests") = py::none(), py::arg("labels") = py::none(), py::arg("namespace") = "default")
        .def_readonly("name", &ExpansionPod::name)
        .def_readonly("namespace", &ExpansionPod::namespace_name)
        .def_readonly("labels", &ExpansionPod::labels)
        .def_readonly("requests", &ExpansionPod::requests)
        .def(py::self == py::self)
        .def("__repr__", [](const ExpansionPod& p) { return fmt::format("ExpansionPod('{}/{}', {})", p.namespace_name, p.name, p.requests); });
    py::class_<ExpansionOption>(m, "ExpansionOption",
                                "A CA expansion option: node_count nodes of node_group for pods, with the group's template node (capacity,\n"
                                "allocatable (None: = capacity), labels, taints).")
        .def(py::init([](std::string node_group, std::int64_t node_count, const py::list& pods, const python::ResourcesLike& node_capacity, bool node_group_exists,
                         const python::OptionalResourcesLike& node_allocatable, const py::object& node_labels, std::vector<Taint> node_taints) {
                 ExpansionOption o;
                 o.node_group = std::move(node_group);
                 o.node_count = node_count;
                 for (const auto& p : pods) o.pods.push_back(py::isinstance<ExpansionPod>(p) ? py::cast<ExpansionPod>(p) : ExpansionPod(to_resources(p, "pods")));
                 o.node_capacity = to_resources(node_capacity, "node_capacity");
                 o.node_group_exists = node_group_exists;
                 o.node_allocatable = to_optional_resources(node_allocatable, "node_allocatable");
                 if (!node_labels.is_none()) o.node_labels = to_labels(py::cast<py::dict>(node_labels));
                 o.node_taints = std::move(node_taints);
                 o.validate();
                 return o;
             }),
             py::arg("node_group"), py::arg("node_count"), py::arg("pods"), py::arg("node_capacity"), py::arg("node_group_exists") = true,
             py::arg("node_allocatable") = py::none(), py::arg("node_labels") = py::none(), py::arg("node_taints") = std::vector<Taint>{})
        .def_readonly("node_group", &ExpansionOption::node_group)
        .def_readonly("node_count", &ExpansionOption::node_count)
        .def_readonly("pods", &ExpansionOption::pods)
        .def_readonly("node_capacity", &ExpansionOption::node_capacity)
        .def_readonly("node_labels", &ExpansionOption::node_labels)
        .def_readonly("node_taints", &ExpansionOption::node_taints)
        .def_readonly("node_group_exists", &ExpansionOption::node_group_exists)
        .def_property_readonly("node_allocatable", &ExpansionOption::allocatable, "Allocatable (the capacity when none was given).")
        .def("has_gpu", &ExpansionOption::has_gpu, py::arg("gpu_label") = "",
             "CA's NodeHasGpu: the provider's GPU label is on the template, or its allocatable has nvidia.com/gpu.")
        .def("__repr__", [](const ExpansionOption& o) {
            return fmt::format("ExpansionOption('{}', {}, {} pods, {})", o.node_group, o.node_count, o.pods.size(), o.node_capacity);
        });
    py::class_<FilterResult>(m, "FilterResult", "What a filter returns: the kept option indices (input order) and CA's warnings.")
        .def(py::init([](std::vector<std::size_t> kept, std::vector<std::string> warnings) { return FilterResult{std::move(kept), std::move(warnings)}; }),
             py::arg("kept"), py::arg("warnings") = std::vector<std::string>{})
        .def_readonly("kept", &FilterResult::kept)
        .def_readonly("warnings", &FilterResult::warnings)
        .def(py::self == py::self)
        .def("__repr__", [](const FilterResult& r) { return fmt::format("FilterResult(kept={}, {} warnings)", r.kept, r.warnings.size()); });
    py::class_<PricingModel>(m, "PricingModel",
                             "CA's pricing model: node_price(option) and pod_price(pod: ExpansionPod) -> float, or None where CA's model\n"
                             "has no price (the price expander then skips the option, or drops the stabilisation term).")
        .def(py::init([](py::function node_price, py::function pod_price) {
                 auto node = python_callable(std::move(node_price));
                 auto pod = python_callable(std::move(pod_price));
                 PricingModel p;
                 p.node_price = [node](const ExpansionOption& o) {
                     py::gil_scoped_acquire gil;
                     return py::cast<std::optional<double>>((*node)(o));
                 };
                 p.pod_price = [pod](const ExpansionPod& x) {
                     py::gil_scoped_acquire gil;
                     return py::cast<std::optional<double>>((*pod)(x));
                 };
                 return p;
             }),
             py::arg("node_price"), py::arg("pod_price"))
        .def_static("linear", &PricingModel::linear, py::arg("per_core"), py::arg("per_gib"), py::arg("per_gpu") = 0.0,
                    "Prices proportional to cores, GiB and GPUs (node: capacity; pod: requests), as CA's simple pricing.")
        .def("node_price", [](const PricingModel& p, const ExpansionOption& o) { return p.node_price(o); }, py::arg("option"),
             "The price of one node of option's group, or None.")
        .def("pod_price",
             [](const PricingModel& p, const py::object& pod) {
                 return p.pod_price(py::isinstance<ExpansionPod>(pod) ? py::cast<ExpansionPod>(pod) : ExpansionPod(to_resources(pod, "pod")));
             },
             py::arg("pod"), "The price of a pod (an ExpansionPod, or its requests), or None.")
        .def("__repr__", [](const PricingModel&) { return std::string("PricingModel(node_price, pod_price)"); });
    py::class_<PriceScore>(m, "PriceScore", "Every term of CA's price score of one option; scored is False when CA skips the option.")
        .def_readonly("scored", &PriceScore::scored)
        .def_readonly("total_node_price", &PriceScore::total_node_price)
        .def_readonly("total_pod_price", &PriceScore::total_pod_price)
        .def_readonly("stabilization_price", &PriceScore::stabilization_price)
        .def_readonly("price_sub_score", &PriceScore::price_sub_score)
        .def_readonly("unfitness", &PriceScore::unfitness)
        .def_readonly("suppressed_unfitness", &PriceScore::suppressed_unfitness)
        .def_readonly("score", &PriceScore::score)
        .def_readonly("warnings", &PriceScore::warnings)
        .def("__str__", &PriceScore::to_string)
        .def("__repr__", [](const PriceScore& s) { return "PriceScore(" + s.to_string() + ")"; });
    const auto price_context = [](const PricingModel& pricing, std::int64_t cluster_node_count, const python::OptionalResourcesLike& preferred_node, std::string gpu_label) {
        PriceContext c{pricing, cluster_node_count, std::nullopt, std::move(gpu_label)};
        if (!preferred_node.is_none()) c.preferred_node = to_resources(preferred_node, "preferred_node");
        return c;
    };
#if CONTINUUM_HAVE_PRIORITY_CONFIG
    m.attr("HAVE_PRIORITY_CONFIG") = true;
    py::class_<PriorityTiers>(m, "PriorityTiers",
                              "The priority expander's ConfigMap: the YAML text (parsed as CA's yaml.v2 reads it) or {priority: [regex, ...]};\n"
                              "patterns are RE2 (Go regexp syntax). Callable as a filter: tiers(options, among=None) -> FilterResult.")
        .def(py::init([](const py::object& tiers) {
                 if (py::isinstance<py::str>(tiers)) return PriorityTiers::parse(py::cast<std::string>(tiers));
                 return PriorityTiers(py::cast<std::map<std::int64_t, std::vector<std::string>>>(tiers));
             }),
             py::arg("tiers"))
        .def("highest_match", &PriorityTiers::highest_match, py::arg("node_group"), "The highest priority whose patterns match node_group, or None.")
        .def_property_readonly("tiers", &PriorityTiers::tiers)
        .def_property_readonly("configured", &PriorityTiers::configured, "False for an empty ConfigMap value (the filter then keeps everything).")
        .def(
            "__call__",
            [](const PriorityTiers& t, const std::vector<ExpansionOption>& options, const std::optional<std::vector<std::size_t>>& among) {
                return among ? t(options, *among) : priority(options, t);
            },
            py::arg("options"), py::arg("among") = py::none())
        .def("__repr__", [](const PriorityTiers& t) { return fmt::format("PriorityTiers({} tiers)", t.tiers().size()); });
#else
    m.attr("HAVE_PRIORITY_CONFIG") = false;
#endif
    using Options = std::vector<ExpansionOption>;
    m.def("random_option", [](const Options& o, std::uint64_t seed) { return random_option(o, seed); }, py::arg("options"), py::arg("seed"),
          "random: one index chosen uniformly, reproducible from the seed.");
    m.def("most_pods", [](const Options& o) { return most_pods(o); }, py::arg("options"), "most-pods: indices of the options with the most pods.");
    m.def("least_nodes", [](const Options& o) { return least_nodes(o); }, py::arg("options"), "least-nodes: indices with the fewest (non-zero) nodes.");
    m.def("least_waste", [](const Options& o) { return least_waste(o); }, py::arg("options"), "least-waste: indices with the smallest CPU + memory waste fraction.");
    m.def("least_waste_score", &least_waste_score, py::arg("option"), "CA's waste score, or None when node_count or the capacity is 0.");
    m.def(
        "price",
        [price_context](const Options& o, const PricingModel& p, std::int64_t n, const python::OptionalResourcesLike& preferred, std::string gpu_label) {
            return price(o, price_context(p, n, preferred, std::move(gpu_label)));
        },
        py::arg("options"), py::arg("pricing"), py::arg("cluster_node_count") = 0, py::arg("preferred_node") = py::none(), py::arg("gpu_label") = "",
        "price: FilterResult of the options with the smallest CA price score; options without a node or pod price are skipped (warnings).");
    m.def(
        "price_score",
        [price_context](const ExpansionOption& o, const PricingModel& p, std::int64_t n, const python::OptionalResourcesLike& preferred, std::string gpu_label) {
            return price_score(o, price_context(p, n, preferred, std::move(gpu_label)));
        },
        py::arg("option"), py::arg("pricing"), py::arg("cluster_node_count") = 0, py::arg("preferred_node") = py::none(), py::arg("gpu_label") = "",
        "CA's price expander score of one option with every term (PriceScore); lower is better. preferred_node overrides the cluster-size table.");
#if CONTINUUM_HAVE_PRIORITY_CONFIG
    m.def("priority", [](const Options& o, const PriorityTiers& t) { return priority(o, t); }, py::arg("options"), py::arg("tiers"),
          "priority: FilterResult of the options matching the highest tier that matches anything (all when none match), with CA's warnings.");
#endif
    m.def("suppress_unfitness", &suppress_unfitness, py::arg("unfitness"), py::arg("node_count"),
          "(unfitness - 1) x (1 - tanh((node_count - 1) / 15)) + 1: large scale-ups care less about the node shape.");
    m.def("node_unfitness", &node_unfitness, py::arg("preferred_cpu_millis"), py::arg("node_cpu_millis"),
          "CA's SimpleNodeUnfitness: max(preferred / node, node / preferred) over cpu. Raises InvalidArgument when a cpu is <= 0.");
    m.def("preferred_node", &preferred_node, py::arg("cluster_node_count"),
          "CA's SimplePreferredNodeProvider: the preferred node (cpu, memory) for a cluster of that many nodes.");
    py::class_<ExpanderChoice>(m, "ExpanderChoice", "What an expander chain chose: the option, the expander that decided and why.")
        .def_readonly("best", &ExpanderChoice::best)
        .def_readonly("stages", &ExpanderChoice::stages)
        .def_readonly("fallback_used", &ExpanderChoice::fallback_used)
        .def_readonly("random_tie_break", &ExpanderChoice::random_tie_break)
        .def_readonly("warnings", &ExpanderChoice::warnings)
        .def_readonly("reason", &ExpanderChoice::reason)
        .def("__repr__", [](const ExpanderChoice& c) {
            return fmt::format("ExpanderChoice(best={}, '{}')", c.best ? std::to_string(*c.best) : std::string("None"), c.reason);
        });
    py::class_<ExpanderChain>(m, "ExpanderChain",
                              "CA's --expander chain: ExpanderChain('least-waste,price'), or a list of stages (built-in names, callables\n"
                              "filter(options, among) -> list[int] | FilterResult, or (name, callable) pairs) and an optional fallback\n"
                              "strategy(options, among) -> int | None (default: the seeded random choice).")
        .def(py::init([](const py::object& stages, const py::object& fallback) {
                 ExpanderStrategy strategy = ExpanderStrategy::random();
                 if (!fallback.is_none()) {
                     auto [name, function] = named_callable(fallback, "fallback");
                     auto f = python_callable(std::move(function));
                     strategy = ExpanderStrategy(name, [f](std::span<const ExpansionOption> options, std::span<const std::size_t> among) {
                         py::gil_scoped_acquire gil;
                         return py::cast<std::optional<std::size_t>>((*f)(Options(options.begin(), options.end()), std::vector<std::size_t>(among.begin(), among.end())));
                     });
                 }
                 if (py::isinstance<py::str>(stages)) return ExpanderChain::parse(py::cast<std::string>(stages), std::move(strategy));
                 std::vector<ExpanderStage> list;
                 for (const auto& stage : stages) {
                     if (py::isinstance<py::str>(stage)) {
                         const auto parsed = ExpanderChain::parse(py::cast<std::string>(stage));
                         list.insert(list.end(), parsed.stages().begin(), parsed.stages().end());
                         continue;
                     }
                     auto [name, function] = named_callable(py::reinterpret_borrow<py::object>(stage), "stages");
                     list.emplace_back(name, python_filter(std::move(function)));
                 }
                 return ExpanderChain(std::move(list), std::move(strategy));
             }),
             py::arg("stages"), py::arg("fallback") = py::none())
        .def(
            "choose",
            [price_context](const ExpanderChain& chain, const Options& options, const py::object& pricing, std::int64_t cluster_node_count,
                            const py::object& priorities, std::uint64_t seed, const python::OptionalResourcesLike& preferred_node, std::string gpu_label) {
                const auto price = price_context(to_pricing(pricing), cluster_node_count, preferred_node, std::move(gpu_label));
                ExpanderContext context{price.pricing, price.cluster_node_count, price.preferred_node, price.gpu_label, {}};
                if (!priorities.is_none()) context.priority = to_priority_filter(priorities);
                return chain.choose(options, context, seed);
            },
            py::arg("options"), py::arg("pricing") = py::none(), py::arg("cluster_node_count") = 0, py::arg("priorities") = py::none(), py::arg("seed") = 0,
            py::arg("preferred_node") = py::none(), py::arg("gpu_label") = "",
            "Runs the chain over options (ExpansionOption list) and returns the ExpanderChoice: best index, the survivors of\n"
            "each stage, whether the fallback decided, the filters' warnings and the reason. pricing (PricingModel) is needed\n"
            "by 'price', priorities (PriorityTiers, or a filter callable) by 'priority'.")
        .def_property_readonly("stage_names", [](const ExpanderChain& chain) {
            std::vector<std::string> names;
            for (const auto& stage : chain.stages()) names.push_back(stage.name());
            return names;
        })
        .def_property_readonly("fallback_name", [](const ExpanderChain& chain) { return chain.fallback().name(); })
        .def("__str__", &ExpanderChain::to_string)
        .def("__repr__", [](const ExpanderChain& chain) { return fmt::format("ExpanderChain('{}', fallback='{}')", chain.to_string(), chain.fallback().name()); });

    // --- scaler ------------------------------------------------------------------------------
    py::class_<PendingPod>(m, "PendingPod", "A pod waiting to be scheduled: request (GPUs as nvidia.com/gpu) and node selector.")
        .def(py::init([](std::string name, const python::ResourcesLike& request, const py::object& node_selector) {
                 return PendingPod{std::move(name), to_resources(request, "request"), to_selector(node_selector)};
             }),
             py::arg("name"), py::arg("request"), py::arg("node_selector") = py::none())
        .def_readonly("name", &PendingPod::name)
        .def_readonly("request", &PendingPod::request)
        .def_readonly("node_selector", &PendingPod::node_selector)
        .def("__repr__", continuum::python::fields_repr({"name", "request", "node_selector"}));
    py::class_<VirtualNode>(m, "VirtualNode", "A peered Liqo virtual node: allocatable, labels, cost per unit of time and the pods on it.")
        .def(py::init([](std::string name, std::string cluster_id, const python::ResourcesLike& allocatable, const py::dict& labels, double cost, std::vector<PlacedPod> pods) {
                 return VirtualNode{std::move(name), std::move(cluster_id), to_labels(labels), to_resources(allocatable, "allocatable"), cost, std::move(pods)};
             }),
             py::arg("name"), py::arg("cluster_id"), py::arg("allocatable"), py::arg("labels") = py::dict(), py::arg("cost") = 0.0,
             py::arg("pods") = std::vector<PlacedPod>{})
        .def_readonly("name", &VirtualNode::name)
        .def_readonly("cluster_id", &VirtualNode::cluster_id)
        .def_readonly("allocatable", &VirtualNode::allocatable)
        .def_readonly("pods", &VirtualNode::pods)
        .def("__repr__", continuum::python::fields_repr({"name", "cluster_id", "allocatable", "pods?"}));
    m.def("node_utilization", &node_utilization, py::arg("node"), "CA's utilisation: max(cpu, memory) requested / allocatable, or GPU on GPU nodes.");
    python::def_result(py::class_<NewVirtualNode>(m, "NewVirtualNode", "One virtual node a peering adds: the pods it hosts, what they request, what it reserves and its cost."),
                        python::field("pods", &NewVirtualNode::pods),
                        python::field("requested", &NewVirtualNode::requested),
                        python::field("reserved", &NewVirtualNode::reserved),
                        python::field("cost", &NewVirtualNode::cost));
    python::def_result(py::class_<Peering>(m, "Peering", "Peer with one offer: its cluster id and index, the new virtual nodes on it and their cost."),
                        python::field("cluster_id", &Peering::cluster_id),
                        python::field("offer_index", &Peering::offer_index),
                        python::field("nodes", &Peering::nodes),
                        python::field("cost", &Peering::cost));
    python::def_result(py::class_<PodPlacement>(m, "PodPlacement", "A pending pod placed on an existing virtual node."),
                        python::field("pod", &PodPlacement::pod),
                        python::field("node", &PodPlacement::node));
    python::def_result(py::class_<UnschedulablePod>(m, "UnschedulablePod", "A pending pod no offer or node can host, and why."),
                        python::field("pod", &UnschedulablePod::pod),
                        python::field("reason", &UnschedulablePod::reason));
    python::def_result(py::class_<ScaleOutDecision>(m, "ScaleOutDecision", "Scale-out: the peerings to make, pods placed on existing nodes, unschedulable pods, cost and a reason."),
                       python::field("peerings", &ScaleOutDecision::peerings),
                       python::field("existing_node_placements", &ScaleOutDecision::existing_node_placements),
                       python::field("unschedulable", &ScaleOutDecision::unschedulable), python::field("cost", &ScaleOutDecision::cost),
                       python::field("lower_bound", &ScaleOutDecision::lower_bound), python::field("optimal", &ScaleOutDecision::optimal),
                       python::field("reason", &ScaleOutDecision::reason))
        .def_property_readonly("new_node_count", &ScaleOutDecision::new_node_count);
    python::def_result(py::class_<NodeScaleInStatus>(m, "NodeScaleInStatus", "One virtual node as scale-in sees it: utilisation, unneeded for how many seconds, released or not, and why."),
                       python::field("node", &NodeScaleInStatus::node), python::field("utilization", &NodeScaleInStatus::utilization),
                       python::field("unneeded", &NodeScaleInStatus::unneeded), python::field("unneeded_for", &NodeScaleInStatus::unneeded_for),
                       python::field("released", &NodeScaleInStatus::released), python::field("reason", &NodeScaleInStatus::reason));
    python::def_result(py::class_<ScaleInDecision>(m, "ScaleInDecision", "Scale-in: the virtual nodes to release, the pod moves, the cost saved, each node's status and a reason."),
                        python::field("nodes_to_release", &ScaleInDecision::nodes_to_release),
                        python::field("moves", &ScaleInDecision::moves),
                        python::field("saved_cost", &ScaleInDecision::saved_cost),
                        python::field("nodes", &ScaleInDecision::nodes),
                        python::field("reason", &ScaleInDecision::reason));
    py::class_<FederatedClusterScaler>(m, "FederatedClusterScaler", R"pbdoc(
Scale-out onto the cheapest offers (packing.cheapest_node_mix) and scale-in with the Cluster
Autoscaler's rules. Times are seconds (float) since an epoch of your choice; durations in seconds.)pbdoc")
        .def(py::init([](bool allow_nat, bool use_existing_nodes, double utilization_threshold, double gpu_utilization_threshold, double unneeded_time,
                         double delay_after_add, std::size_t max_nodes_per_decision) {
                 ScaleOutOptions out{allow_nat, use_existing_nodes, {}};
                 ScaleInOptions in{utilization_threshold, gpu_utilization_threshold, python::duration_from_seconds(unneeded_time, "unneeded_time"),
                                   python::duration_from_seconds(delay_after_add, "delay_after_add"), max_nodes_per_decision};
                 return FederatedClusterScaler(out, in);
             }),
             py::arg("allow_nat") = true, py::arg("use_existing_nodes") = true, py::arg("utilization_threshold") = 0.5, py::arg("gpu_utilization_threshold") = 0.5,
             py::arg("unneeded_time") = 600.0, py::arg("delay_after_add") = 600.0, py::arg("max_nodes_per_decision") = 10)
        .def("scale_out",
             [](FederatedClusterScaler& self, const std::vector<PendingPod>& pending, const std::vector<VirtualNode>& nodes, const std::vector<Offer>& offers, double now) {
                 const Time t = to_time(now, "now");
                 py::gil_scoped_release release;
                 return self.scale_out(pending, nodes, offers, t);
             },
             py::arg("pending"), py::arg("nodes"), py::arg("offers"), py::arg("now"),
             "Seed 000's scale-out: the cheapest set of virtual nodes (peerings with the offers, ranked by the cost model)\n"
             "that fits the pending pods, after filling the existing nodes; now in seconds. Returns a ScaleOutDecision.")
        .def("scale_in",
             [](FederatedClusterScaler& self, const std::vector<VirtualNode>& nodes, double now) {
                 const Time t = to_time(now, "now");
                 py::gil_scoped_release release;
                 return self.scale_in(nodes, t);
             },
             py::arg("nodes"), py::arg("now"),
             "CA's scale-down over the virtual nodes: nodes below the utilization threshold for unneeded_time whose pods\n"
             "fit elsewhere are released; now in seconds. Returns a ScaleInDecision.")
        .def("observe_scale_out", [](FederatedClusterScaler& self, double when) { self.observe_scale_out(to_time(when, "when")); }, py::arg("when"),
             "Records a scale-out at when (seconds): scale-in waits delay_after_add after it, as CA's scale-down-delay-after-add.")
        .def("__repr__", [](const FederatedClusterScaler& s) {
            const auto& out = s.scale_out_options();
            const auto& in = s.scale_in_options();
            return continuum::python::call_repr("FederatedClusterScaler", {{"allow_nat", py::cast(out.allow_nat)},
                                                                           {"use_existing_nodes", py::cast(out.use_existing_nodes)},
                                                                           {"utilization_threshold", py::cast(in.utilization_threshold)},
                                                                           {"gpu_utilization_threshold", py::cast(in.gpu_utilization_threshold)},
                                                                           {"unneeded_time", py::cast(to_seconds(in.unneeded_time))},
                                                                           {"delay_after_add", py::cast(to_seconds(in.delay_after_add))},
                                                                           {"max_nodes_per_decision", py::cast(in.max_nodes_per_decision)}});
        });
    m.def(
        "plan_scale_out",
        [](const std::vector<PendingPod>& pending, const std::vector<VirtualNode>& nodes, const std::vector<Offer>& offers, bool allow_nat, bool use_existing_nodes) {
            py::gil_scoped_release release;
            return plan_scale_out(pending, nodes, offers, ScaleOutOptions{allow_nat, use_existing_nodes, {}});
        },
        py::arg("pending"), py::arg("nodes"), py::arg("offers"), py::arg("allow_nat") = true, py::arg("use_existing_nodes") = true,
        "The scale-out plan alone (no scaler state): which offers to peer with and how many nodes of each, for the pending pods.");

    // --- ledger ------------------------------------------------------------------------------
    py::enum_<ReservationState>(m, "ReservationState", "A reservation is reserved (may expire) or committed (in use).").value("reserved", ReservationState::reserved).value("committed", ReservationState::committed);
    python::def_result(py::class_<Reservation>(m, "Reservation", "Capacity a consumer holds on a provider in a Ledger: id, amounts and state."),
                        python::field("id", &Reservation::id),
                        python::field("consumer", &Reservation::consumer),
                        python::field("cluster_id", &Reservation::cluster_id),
                        python::field("amount", &Reservation::amount),
                        python::field("state", &Reservation::state));
    py::class_<Ledger>(m, "Ledger", "Thread-safe reservations of offers' capacity (capacity x max_nodes) so consumers never over-commit a provider.")
        .def(py::init([](const py::object& offers) {
                 if (offers.is_none()) return std::make_unique<Ledger>();
                 const auto list = py::cast<std::vector<Offer>>(offers);
                 return std::make_unique<Ledger>(list);
             }),
             py::arg("offers") = py::none())
        .def("set_capacity", [](Ledger& l, const std::string& id, const python::ResourcesLike& capacity) { l.set_capacity(id, to_resources(capacity, "capacity")); }, py::arg("cluster_id"),
             py::arg("capacity"), "Sets (or adds) a provider's capacity. Raises InvalidArgument below what is already held.")
        .def("try_reserve",
             [](Ledger& l, const std::string& consumer, const std::string& id, const python::ResourcesLike& amount, const py::object& expires_at) {
                 std::optional<Time> expiry;
                 if (!expires_at.is_none()) expiry = to_time(py::cast<double>(expires_at), "expires_at");
                 return l.try_reserve(consumer, id, to_resources(amount, "amount"), expiry);
             },
             py::arg("consumer"), py::arg("cluster_id"), py::arg("amount"), py::arg("expires_at") = py::none(), "A reservation id, or None when it does not fit.")
        .def("reserve",
             [](Ledger& l, const std::string& consumer, const std::string& id, const python::ResourcesLike& amount, const py::object& expires_at) {
                 std::optional<Time> expiry;
                 if (!expires_at.is_none()) expiry = to_time(py::cast<double>(expires_at), "expires_at");
                 return l.reserve(consumer, id, to_resources(amount, "amount"), expiry);
             },
             py::arg("consumer"), py::arg("cluster_id"), py::arg("amount"), py::arg("expires_at") = py::none(), "A reservation id; raises Infeasible when it does not fit.")
        .def("commit", &Ledger::commit, py::arg("reservation"), "Marks a reservation as in use. Raises InvalidArgument for an unknown or released id.")
        .def("release", &Ledger::release, py::arg("reservation"), "Frees a reservation, committed or not. Raises InvalidArgument for an unknown or released id.")
        .def("expire", [](Ledger& l, double now) { return l.expire(to_time(now, "now")); }, py::arg("now"),
             "Releases every uncommitted reservation whose expires_at is <= now (seconds); returns how many.")
        .def("available", &Ledger::available, py::arg("cluster_id"), "Capacity minus what is held. Raises InvalidArgument for an unknown provider.")
        .def("held", &Ledger::held, py::arg("cluster_id"), "Reserved plus committed. Raises InvalidArgument for an unknown provider.")
        .def("capacity", &Ledger::capacity, py::arg("cluster_id"), "The provider's capacity. Raises InvalidArgument for an unknown provider.")
        .def("reservations", [](const Ledger& l, const std::optional<std::string>& consumer) {
                 return consumer ? l.reservations(std::string_view(*consumer)) : l.reservations();
             }, py::arg("consumer") = py::none(), "The live reservations, all or only consumer's.")
        .def("providers", &Ledger::providers, "The cluster ids with a capacity.")
        .def("audit", &Ledger::audit, "Empty string when held == sum of reservations <= capacity for every provider.")
        .def("__repr__", [](const Ledger& l) {
            return continuum::python::call_repr("Ledger", {{"providers", py::cast(l.providers())}, {"reservations", py::cast(l.reservations().size())}});
        });

#if CONTINUUM_HAVE_NLOHMANN_JSON
    {
        auto cls = py::reinterpret_borrow<py::class_<Ledger>>(m.attr("Ledger"));
        python::bind_state(
            root, cls, [](const Ledger& l) { return l.state(); }, [](const Ledger&, const LedgerState& state) { return std::make_unique<Ledger>(state); },
            [](const Ledger&) { return py::make_tuple(); });
    }
    {
        auto cls = py::reinterpret_borrow<py::class_<FederatedClusterScaler>>(m.attr("FederatedClusterScaler"));
        python::bind_state(
            root, cls, [](const FederatedClusterScaler& s) { return s.state(); },
            [](const FederatedClusterScaler& s, const FederatedClusterScalerState& state) {
                return FederatedClusterScaler(s.scale_out_options(), s.scale_in_options(), state);
            },
            [](const FederatedClusterScaler& s) {
                const auto& out = s.scale_out_options();
                const auto& in = s.scale_in_options();
                return py::make_tuple(out.allow_nat, out.use_existing_nodes, in.utilization_threshold, in.gpu_utilization_threshold, to_seconds(in.unneeded_time),
                                      to_seconds(in.delay_after_add), in.max_nodes_per_decision);
            });
    }
#endif
}
}  // namespace continuum_bind_federation

void bind_federation(py::module_& m) { continuum_bind_federation::bind(m); }
