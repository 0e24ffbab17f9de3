// Python bindings for continuum/core: the exception hierarchy, Kubernetes quantities and Resources.
#include "common.hpp"
#include "repr.hpp"

#include <continuum/version.hpp>

#include <exception>

namespace py = pybind11;
using namespace continuum;

namespace {

PyObject* make_exception(py::module_& m, const char* name, PyObject* base, const char* doc) {
    const std::string qualified = std::string("continuum.") + name;
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
    if (type == nullptr) throw py::error_already_set();
    m.attr(name) = py::handle(type);
    return type;
}

}  // namespace

void bind_core(py::module_& m) {
    m.attr("__version__") = continuum::version_string;

    // Exceptions: continuum.Error <- InvalidArgument (also ValueError) <- ParseError; Infeasible.
    static PyObject* error_type = make_exception(m, "Error", PyExc_RuntimeError, "Base of every error continuum raises.");
    static PyObject* invalid_type = [&] {
        py::tuple bases = py::make_tuple(py::handle(error_type), py::handle(PyExc_ValueError));
        return make_exception(m, "InvalidArgument", bases.release().ptr(), "An argument is outside the function's domain.");
    }();
    static PyObject* parse_type = make_exception(m, "ParseError", invalid_type, "Text that does not parse (quantity, weights file, trace, selector).");
    static PyObject* infeasible_type = make_exception(m, "Infeasible", error_type, "A well-formed request that cannot be satisfied.");
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const ParseError& e) {
            PyErr_SetString(parse_type, e.what());
        } catch (const InvalidArgument& e) {
            PyErr_SetString(invalid_type, e.what());
        } catch (const Infeasible& e) {
            PyErr_SetString(infeasible_type, e.what());
        } catch (const Error& e) {
            PyErr_SetString(error_type, e.what());
        }
    });

    py::enum_<QuantityFormat>(m, "QuantityFormat", "How a quantity was written, and so how it prints.")
        .value("decimal_si", QuantityFormat::decimal_si)
        .value("binary_si", QuantityFormat::binary_si)
        .value("decimal_exponent", QuantityFormat::decimal_exponent);

    py::class_<Quantity>(m, "Quantity", R"pbdoc(
An exact Kubernetes resource quantity with apimachinery's semantics (resource.Quantity): parsing,
String() (str), ordering, + - unary- and * int, round_up, JSON. The value is an int64 mantissa times a
power of ten; an operation whose exact result has none raises instead of rounding.)pbdoc")
        .def(py::init([](const std::string& text) { return Quantity::parse(text); }), py::arg("text"),
             "Parses a Kubernetes quantity such as '250m', '1.5Gi' or '2e3'. Raises ParseError on malformed text.")
        .def_static("from_value", &Quantity::from_value, py::arg("value"), py::arg("format") = QuantityFormat::decimal_si,
                    "value whole units (NewQuantity).")
        .def_static("from_milli", &Quantity::from_milli, py::arg("value"), py::arg("format") = QuantityFormat::decimal_si,
                    "value thousandths (NewMilliQuantity).")
        .def_static("from_scaled", &Quantity::from_scaled, py::arg("value"), py::arg("exponent"),
                    py::arg("format") = QuantityFormat::decimal_si, "value * 10**exponent (NewScaledQuantity).")
        .def_static("from_json", &Quantity::from_json, py::arg("json"),
                    "UnmarshalJSON: null is zero, surrounding quotes and white space are removed. Raises ParseError.")
        .def("scaled_value", &Quantity::scaled_value, py::arg("scale_exponent"),
             "The value in units of 10**scale_exponent, rounded away from zero. Raises InvalidArgument beyond int64.")
        .def_property_readonly("value", &Quantity::value, "Whole units, rounded away from zero.")
        .def_property_readonly("milli_value", &Quantity::milli_value, "Thousandths, rounded away from zero.")
        .def_property_readonly("format", &Quantity::format)
        .def_property_readonly("mantissa", &Quantity::mantissa, "The value is mantissa * 10**exponent (no trailing zeros).")
        .def_property_readonly("exponent", &Quantity::exponent, "The power of ten of the value (see mantissa).")
        .def("sign", &Quantity::sign, "-1, 0 or 1.")
        .def("is_zero", &Quantity::is_zero, "True when the value is zero, whatever its format.")
        .def("cmp", &Quantity::cmp, py::arg("other"), "-1, 0 or 1 as self is below, equal to or above other (Cmp).")
        .def("as_int64", &Quantity::as_int64, "The value when it is an integer in int64, else None (AsInt64).")
        .def("as_approximate_float64", &Quantity::as_approximate_float64,
             "apimachinery's AsApproximateFloat64, bit for bit (Quantity('0.3') gives 0.30000000000000004).")
        .def("round_up", [](const Quantity& q, int scale_exponent) {
                const auto rounded = q.round_up(scale_exponent);
                return py::make_tuple(rounded.quantity, rounded.exact);
            }, py::arg("scale_exponent"), "RoundUp: (quantity rounded away from zero to a multiple of 10**scale_exponent, exact).")
        .def("canonical", &Quantity::canonical_string, "The canonical text (CanonicalizeBytes), whatever the spelling parsed.")
        .def("to_json", &Quantity::to_json, "MarshalJSON: str(self) in double quotes.")
        .def("__str__", &Quantity::to_string)
        .def("__repr__", [](const Quantity& q) { return "Quantity('" + q.to_string() + "')"; })
        .def("__float__", &Quantity::as_float64, "The float nearest to the exact value.")
        .def("__int__", [](const Quantity& q) {
                const auto value = q.as_int64();
                if (!value) throw InvalidArgument("int(Quantity('" + q.to_string() + "')): not an integer in int64");
                return *value;
            }, "The value when it is an integer in int64; raises InvalidArgument otherwise (never rounds).")
        .def("__bool__", [](const Quantity& q) { return !q.is_zero(); })
        .def(py::self == py::self)
        .def(py::self != py::self)
        .def(py::self < py::self)
        .def(py::self <= py::self)
        .def(py::self > py::self)
        .def(py::self >= py::self)
        .def(py::self + py::self)
        .def(py::self - py::self)
        .def(-py::self)
        .def(py::self * std::int64_t())
        .def(std::int64_t() * py::self)
        .def("__hash__", [](const Quantity& q) { return py::hash(py::make_tuple(q.mantissa(), q.exponent())); },
             "Equal quantities (whatever their spelling) hash equal.");

    m.def("parse_quantity", &parse_quantity, py::arg("text"), py::arg("scale_exponent") = 0,
          R"pbdoc(Parses a Kubernetes quantity and returns it in units of 10**scale_exponent, rounded up
(away from zero): parse_quantity("250m", -3) == 250, parse_quantity("1.5Gi") == 1610612736.
Raises ParseError for malformed text, InvalidArgument when the result leaves int64.)pbdoc");
    m.def("format_quantity", &format_quantity, py::arg("value"), py::arg("scale_exponent") = 0,
          py::arg("format") = QuantityFormat::decimal_si,
          "Canonical Kubernetes text for value * 10**scale_exponent: format_quantity(1500, -3) == '1500m'.");

    py::class_<Resources>(m, "Resources", R"pbdoc(
An exact vector of named resources in canonical integer units: cpu in millicores, memory and
storage in bytes, pods and GPUs as counts. Build it from a dict of quantities,
Resources({"cpu": "250m", "memory": "1Gi"}), where ints and floats are natural units (cores,
bytes; floats round up). Indexing returns canonical units: r["cpu"] == 250.)pbdoc")
        .def(py::init<>())
        .def(py::init(&continuum::python::resources_from_dict), py::arg("quantities"))
        .def_static("from_units", [](const py::dict& units) {
                Resources out;
                for (const auto& [key, value] : units) {
                    const auto name = py::cast<std::string>(key);
                    if (out.contains(name)) throw InvalidArgument("resources: duplicate resource name \"" + name + "\"");
                    out.set(name, py::cast<std::int64_t>(value));
                }
                return out;
            }, py::arg("units"), "From canonical integer units: Resources.from_units({'cpu': 2500}) is 2500m.")
        .def_static("from_cores", &Resources::from_cores, py::arg("cores"), "CPU cores as a float, rounded up to millicores.")
        .def_static("from_forecast", &Resources::from_forecast, py::arg("name"), py::arg("value"),
                    "A forecast in natural units (cores, bytes), rounded up to canonical units.")
        .def("__getitem__", [](const Resources& r, const std::string& name) { return r.get(name); })
        .def("__setitem__", [](Resources& r, const std::string& name, std::int64_t value) { r.set(name, value); })
        .def("__contains__", [](const Resources& r, const std::string& name) { return r.contains(name); })
        .def("__len__", &Resources::size)
        .def("__iter__", [](const Resources& r) { return py::iter(py::cast(r.names())); })
        .def("keys", &Resources::names, "The resource names, sorted.")
        .def("items", [](const Resources& r) { return r.entries(); }, "[(name, canonical units)], sorted by name.")
        .def("get", [](const Resources& r, const std::string& name, std::int64_t default_value) {
                return r.get(name) != 0 ? r.get(name) : default_value;
            }, py::arg("name"), py::arg("default") = 0,
             "The amount of name in canonical units (millicores, bytes, counts), or default when absent.")
        .def("quantity", [](const Resources& r, const std::string& name) { return format_resource(name, r.get(name)); },
             py::arg("name"), "The amount of one resource as Kubernetes text ('1500m', '4Gi').")
        .def("to_dict", [](const Resources& r) {
                py::dict d;
                for (const auto& [name, value] : r) d[py::str(name)] = value;
                return d;
            }, "{name: canonical units}")
        .def("to_quantities", [](const Resources& r) {
                py::dict d;
                for (const auto& [name, value] : r) d[py::str(name)] = format_resource(name, value);
                return d;
            }, "{name: Kubernetes text}")
        .def("fits_in", &Resources::fits_in, py::arg("capacity"), "True when every amount is at most capacity's (a missing resource counts as 0).")
        .def("any_negative", &Resources::any_negative, "True when some amount is below 0 (e.g. after a subtraction).")
        .def(py::self + py::self)
        .def(py::self - py::self)
        .def(py::self == py::self)
        .def("__mul__", [](const Resources& r, std::int64_t k) { return r * k; })
        .def("__rmul__", [](const Resources& r, std::int64_t k) { return r * k; })
        .def("__str__", &Resources::to_string)
        .def("__repr__", &continuum::python::resources_repr);
    py::implicitly_convertible<py::dict, Resources>();

    m.def("ceil_div", &ceil_div, py::arg("demand"), py::arg("unit"),
          "How many copies of unit cover demand in every resource. Raises Infeasible when unit lacks a demanded resource.");
    m.def("dominant_share", &dominant_share, py::arg("demand"), py::arg("capacity"),
          "max over resources of demand / capacity (DRF's dominant share); 0 for empty demand. Raises Infeasible when\n"
          "demand needs a resource capacity lacks.");
    m.def("positive_part", &positive_part, py::arg("resources"), "resources with every negative amount replaced by 0.");
}
