// Python bindings for continuum/core: the exception hierarchy, Kubernetes quantities and Resources.
#include "common.hpp"
#include "repr.hpp"

#include <continuum/version.hpp>

#include <cstdint>
#include <exception>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
// A namespace of its own per bind_<area>.cpp: its using-directives and file-local helpers stay out of
// the other files of a unity unit (CONTINUUM_PYTHON_UNITY), whichever files it is grouped with.
namespace continuum_bind_core {
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

void bind(py::module_& m) {
    m.attr("__version__") = continuum::version_string;

    // Exceptions: continuum.Error <- InvalidArgument (also ValueError) <- ParseError; Infeasible.
    static PyObject* error_type = make_exception(m, "Error", PyExc_RuntimeError, "Base of every error continuum raises; a RuntimeError (docs/errors.md: the exception classes).");
    static PyObject* invalid_type = [&] {
        py::tuple bases = py::make_tuple(py::handle(error_type), py::handle(PyExc_ValueError));
        return make_exception(m, "InvalidArgument", bases.release().ptr(), "An argument is outside the function's domain or of a type none of its signatures takes; also a ValueError.");
    }();
    static PyObject* parse_type = make_exception(m, "ParseError", invalid_type, "Text that does not parse (quantity, weights file, trace, selector); an InvalidArgument, so a ValueError too.");
    static PyObject* infeasible_type = make_exception(m, "Infeasible", error_type, "A well-formed request that cannot be satisfied (a level above the top, a reservation that does not fit); not a ValueError.");
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
An exact vector of named resources (held as int64 in canonical units: cpu in millicores, memory and
storage in bytes, pods and GPUs as counts). A bare number is whole units, as in a Kubernetes manifest:
Resources({"cpu": 2, "memory": "1Gi"}) is 2 cores; an int is exact, a float is rounded up to the
millicore (NaN, infinity and negative floats raise InvalidArgument); a str is a Kubernetes quantity
("250m"). Reading gives the same units back: r["cpu"] is 2 (an int when whole), or "250m" (a quantity
string) when not, so Resources(dict(r)) == r and Resources(r.to_dict()) == r. Canonical integers only
through names that say so: r.canonical("cpu") == 2000, r.to_dict(canonical=True), Resources.from_units.)pbdoc")
        .def(py::init<>())
        .def(py::init([](const python::ResourcesLike& quantities) { return python::to_resources(quantities, "quantities"); }), py::arg("quantities"))
        .def_static("from_units", [](const python::CanonicalUnitsLike& units) {
                if (!py::isinstance<py::dict>(units)) throw InvalidArgument("units: expected a dict {resource: canonical integer units}, got " + python::type_name(units));
                Resources out;
                for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(units)) {
                    const auto name = py::cast<std::string>(py::str(key));
                    if (!py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value)) {
                        throw InvalidArgument("units[\"" + name + "\"]: expected an int of canonical units, got " + python::type_name(value));
                    }
                    try {
                        out.set(name, py::cast<std::int64_t>(value));
                    } catch (const py::cast_error&) {
                        throw InvalidArgument("units[\"" + name + "\"]: " + py::cast<std::string>(py::str(value)) + " does not fit in int64");
                    }
                }
                return out;
            }, py::arg("units"), "From canonical integer units: Resources.from_units({'cpu': 2500}) is 2500m (2.5 cores).")
        .def_static("from_cores", &Resources::from_cores, py::arg("cores"), "CPU cores as a float, rounded up to millicores.")
        .def_static("from_forecast", &Resources::from_forecast, py::arg("name"), py::arg("value"),
                    "A forecast in natural units (cores, bytes), rounded up to canonical units.")
        .def("__getitem__", [](const Resources& r, const std::string& name) { return python::amount_to_python(name, r.get(name)); }, py::arg("name"),
             "The amount in whole units (an int: cores, bytes, counts), or a quantity string ('250m') when it is not whole; 0 when absent.")
        .def("__setitem__", [](Resources& r, const std::string& name, const python::AmountLike& value) {
                r.set(name, python::amount_from_python(name, value, "resources[\"" + name + "\"]"));
            }, py::arg("name"), py::arg("value"), "Sets one amount: an int or float of whole units, or a quantity string.")
        .def("canonical", [](const Resources& r, const std::string& name) { return r.get(name); }, py::arg("name"),
             "The amount of name in canonical integer units (millicores for cpu, bytes, counts); 0 when absent.")
        .def("__contains__", [](const Resources& r, const std::string& name) { return r.contains(name); })
        .def("__len__", &Resources::size)
        .def("__iter__", [](const Resources& r) { return py::iter(py::cast(r.names())); })
        .def("keys", &Resources::names, "The resource names, sorted.")
        .def("items", [](const Resources& r) {
                std::vector<std::pair<std::string, python::Amount>> out;
                for (const auto& [name, value] : r) out.emplace_back(name, python::amount_to_python(name, value));
                return out;
            }, "[(name, amount)] sorted by name, amounts as r[name] gives them.")
        .def("get", [](const Resources& r, const std::string& name, const py::object& default_value) {
                return r.contains(name) ? py::object(python::amount_to_python(name, r.get(name))) : default_value;
            }, py::arg("name"), py::arg("default") = 0,
             "The amount of name as r[name] gives it, or default when absent.")
        .def("quantity", [](const Resources& r, const std::string& name) { return format_resource(name, r.get(name)); },
             py::arg("name"), "The amount of one resource as Kubernetes text ('1500m', '4Gi').")
        .def("to_dict", &python::resources_to_dict, py::arg("canonical") = false,
             "{name: amount} as r[name] gives them, so Resources(this dict) == r; canonical=True: {name: canonical integer units}.")
        .def("to_quantities", [](const Resources& r) {
                py::dict d;
                for (const auto& [name, value] : r) d[py::str(name)] = format_resource(name, value);
                return d;
            }, "{name: Kubernetes text}")
        .def("fits_in", [](const Resources& r, const python::ResourcesLike& capacity) { return r.fits_in(python::to_resources(capacity, "capacity")); },
             py::arg("capacity"), "True when every amount is at most capacity's (a missing resource counts as 0).")
        .def("any_negative", &Resources::any_negative, "True when some amount is below 0 (e.g. after a subtraction).")
        .def(py::self + py::self)
        .def(py::self - py::self)
        .def(py::self == py::self)
        .def("__mul__", [](const Resources& r, std::int64_t k) { return r * k; })
        .def("__rmul__", [](const Resources& r, std::int64_t k) { return r * k; })
        .def("__str__", &Resources::to_string)
        .def("__repr__", &continuum::python::resources_repr);
    py::implicitly_convertible<py::dict, Resources>();

    m.def("ceil_div", [](const python::ResourcesLike& demand, const python::ResourcesLike& unit) {
              return ceil_div(python::to_resources(demand, "demand"), python::to_resources(unit, "unit"));
          }, py::arg("demand"), py::arg("unit"),
          "How many copies of unit cover demand in every resource. Raises Infeasible when unit lacks a demanded resource.");
    m.def("dominant_share", [](const python::ResourcesLike& demand, const python::ResourcesLike& capacity) {
              return dominant_share(python::to_resources(demand, "demand"), python::to_resources(capacity, "capacity"));
          }, py::arg("demand"), py::arg("capacity"),
          "max over resources of demand / capacity (DRF's dominant share); 0 for empty demand. Raises Infeasible when\n"
          "demand needs a resource capacity lacks.");
    m.def("positive_part", [](const python::ResourcesLike& resources) { return positive_part(python::to_resources(resources, "resources")); },
          py::arg("resources"), "resources with every negative amount replaced by 0.");
}
}  // namespace continuum_bind_core

void bind_core(py::module_& m) { continuum_bind_core::bind(m); }
