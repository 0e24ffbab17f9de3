// Shared helpers for the bind_<area>.cpp files: pybind11 includes and conversions between
// Python values and continuum core types (Resources from a dict, durations from seconds, settable
// fields). Core only: the Python-backed forecasters are in forecasters.hpp, quota levels in
// quota_levels.hpp, state documents in state.hpp; each unit includes what it uses.
#pragma once

#include "py_types.hpp"

#include <continuum/core.hpp>

#include <pybind11/chrono.h>
#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <type_traits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace continuum::python {

namespace py = pybind11;

// ---- Resources from Python: the one converter every binding uses (issue 18).
//
// The rule: a bare number is whole units (cores for cpu, bytes for memory and storage, a count
// otherwise); an int is exact (any sign), a float is a forecast (finite, >= 0, rounded up to the
// canonical unit like Resources::from_forecast); a str (or continuum.Quantity) is a Kubernetes
// quantity. Canonical integers (millicores) enter only through numpy arrays, whose dtype says so
// (a structured array names its resources by field), and Resources.from_units.

/// A py::object that accepts any Python object (the converters below check it) and carries its own
/// name in the signatures pybind11 writes, so the stubs can spell out what it accepts.
#define CONTINUUM_PYTHON_ANY_OBJECT(Name)                                 \
    class Name : public py::object {                                      \
    public:                                                               \
        PYBIND11_OBJECT_DEFAULT(Name, object, [](PyObject*) { return true; }) \
    }

/// A Python argument taken as any object and converted by to_resources: the stubs name it
/// ResourcesLike (tools/generate_stubs.py spells it out), and a wrong type raises InvalidArgument
/// naming the argument instead of pybind11's TypeError.
CONTINUUM_PYTHON_ANY_OBJECT(ResourcesLike);
/// ResourcesLike or None (an optional argument), named OptionalResourcesLike in the stubs.
CONTINUUM_PYTHON_ANY_OBJECT(OptionalResourcesLike);
/// A list of resources (see to_resources_list), named ResourcesListLike in the stubs.
CONTINUUM_PYTHON_ANY_OBJECT(ResourcesListLike);
/// An amount as Python reads it back (amount_to_python): an int or a quantity string, named
/// AmountOut in the stubs.
CONTINUUM_PYTHON_ANY_OBJECT(Amount);
/// Quota levels of one resource: a QuotaLevels or a list of amounts, named LevelsLike in the stubs.
CONTINUUM_PYTHON_ANY_OBJECT(LevelsLike);
/// {name: canonical integer units} (Resources.from_units), named CanonicalUnitsLike in the stubs.
CONTINUUM_PYTHON_ANY_OBJECT(CanonicalUnitsLike);
/// One amount of one resource (int, float or quantity string), named AmountLike in the stubs.
CONTINUUM_PYTHON_ANY_OBJECT(AmountLike);

/// The amount of resource `name` that `value` means, in canonical units (see the rule above), or at
/// `at_scale` (scale::milli for an HPA metric's milli-units) when given.
/// \throws InvalidArgument naming `argument` for a wrong type, NaN, infinity, a negative float or
///         a value beyond int64; ParseError for a malformed quantity string.
inline std::int64_t amount_from_python(std::string_view name, const py::handle& value, const std::string& argument, std::optional<int> at_scale = {}) {
    const int scale_of_name = at_scale.value_or(canonical_scale(name));
    const auto fail = [&](const std::string& why) -> std::int64_t { throw InvalidArgument(argument + ": " + why); };
    if (py::isinstance<py::str>(value) || py::isinstance<Quantity>(value)) {
        const auto text = py::cast<std::string>(py::str(value));
        try {
            return Quantity::parse(text).scaled_value(scale_of_name);
        } catch (const ParseError& e) {
            throw ParseError(argument + ": " + e.what());
        } catch (const InvalidArgument& e) {
            return fail(e.what());
        }
    }
    if (py::isinstance<py::bool_>(value) || type_name(value) == "bool_") return fail("expected a number or a quantity string, got bool");
    if (PyIndex_Check(value.ptr())) {
        PyObject* index = PyNumber_Index(value.ptr());
        if (index == nullptr) throw py::error_already_set();
        const py::int_ whole = py::reinterpret_steal<py::int_>(index);
        int overflow = 0;
        const long long units = PyLong_AsLongLongAndOverflow(whole.ptr(), &overflow);
        std::int64_t canonical = 0;
        const std::int64_t factor = scale_of_name == scale::milli ? 1000 : 1;
        if (overflow != 0 || __builtin_mul_overflow(static_cast<std::int64_t>(units), factor, &canonical)) {
            return fail(fmt::format("{} whole units of \"{}\" do not fit in int64 canonical units", py::cast<std::string>(py::str(py::handle(whole))), name));
        }
        return canonical;
    }
    if (PyFloat_Check(value.ptr()) || is_numpy_float(value)) {
        const double x = PyFloat_AsDouble(value.ptr());
        if (x == -1.0 && PyErr_Occurred() != nullptr) throw py::error_already_set();
        if (!std::isfinite(x) || x < 0.0) return fail(fmt::format("a float amount of \"{}\" must be finite and >= 0, got {}", name, x));
        try {
            return at_scale ? Quantity::parse(fmt::format("{}", x)).scaled_value(scale_of_name) : Resources::round_up_to_canonical(name, x);
        } catch (const InvalidArgument& e) {
            return fail(e.what());
        }
    }
    return fail("expected an int or float (whole units: cores, bytes, counts) or a quantity string such as \"250m\", got " + type_name(value));
}

/// An amount in canonical units as Python gives it back: an int of whole units when it is one
/// (2 cores -> 2, bytes and counts always), else the Kubernetes quantity ("250m"). Either reads
/// back through amount_from_python to the same integer, whatever its sign.
inline Amount amount_to_python(std::string_view name, std::int64_t canonical) {
    if (canonical_scale(name) != scale::milli) return Amount(py::int_(canonical));
    if (canonical % 1000 == 0) return Amount(py::int_(canonical / 1000));
    return Amount(py::str(format_resource(name, canonical)));
}

/// An HPA metric's amount (milli-units, Quantity.MilliValue) as Python reads it: whole units as an
/// int, else a quantity string ("250m"), like amount_to_python for cpu.
inline Amount milli_to_python(std::int64_t milli) { return amount_to_python(resource_names::cpu, milli); }

/// amount_to_python over a list of canonical amounts of one resource.
template <typename Range>
std::vector<Amount> amounts_to_python(std::string_view name, const Range& canonical) {
    std::vector<Amount> out;
    for (const auto value : canonical) out.push_back(amount_to_python(name, value));
    return out;
}

/// Resources from a continuum.Resources or a mapping {name: amount}. None is not Resources: an
/// optional argument tests for None itself (to_optional_resources).
inline Resources to_resources(const py::handle& value, const std::string& argument) {
    if (py::isinstance<Resources>(value)) return py::cast<Resources>(value);
    if (!py::isinstance<py::dict>(value) && !(py::hasattr(value, "keys") && py::hasattr(value, "__getitem__"))) {
        throw InvalidArgument(argument + ": expected a continuum.Resources or a dict {resource: amount}, got " + type_name(value));
    }
    Resources out;
    const auto mapping = py::reinterpret_borrow<py::object>(value);
    for (const auto& key : mapping.attr("keys")()) {
        if (!py::isinstance<py::str>(key)) throw InvalidArgument(argument + ": resource names must be str, got " + type_name(key));
        const auto name = py::cast<std::string>(key);
        if (name.empty()) throw InvalidArgument(argument + ": resource name must not be empty");
        out.set(name, amount_from_python(name, mapping[key], argument + "[\"" + name + "\"]"));
    }
    return out;
}
inline Resources to_optional_resources(const py::handle& value, const std::string& argument) {
    return value.is_none() ? Resources{} : to_resources(value, argument);
}

/// True for a numpy structured array (fields name the resources).
inline bool is_structured_array(const py::handle& value) {
    return py::isinstance<py::array>(value) && py::hasattr(py::reinterpret_borrow<py::array>(value).dtype(), "names") &&
           !py::reinterpret_borrow<py::array>(value).dtype().attr("names").is_none();
}

/// A list of Resources from: a sequence of Resources or dicts, or a numpy structured array of
/// canonical integer units whose fields name the resources (np.array([(500, 2**30)],
/// dtype=[("cpu", "i8"), ("memory", "i8")])). A plain numeric array has no resource names and is
/// refused here (the packing heuristics take it as unnamed dimensions).
inline std::vector<Resources> to_resources_list(const py::handle& values, const std::string& argument) {
    std::vector<Resources> out;
    if (is_structured_array(values)) {
        const auto array = py::reinterpret_borrow<py::array>(values);
        if (array.ndim() != 1) throw InvalidArgument(argument + ": a structured array must be 1-D, got " + std::to_string(array.ndim()) + " dimensions");
        const auto names = py::cast<std::vector<std::string>>(array.dtype().attr("names"));
        for (const auto& name : names) {
            const py::object field = array.dtype().attr("fields")[py::str(name)][py::int_(0)];
            const auto kind = py::cast<std::string>(field.attr("kind"));
            if (kind != "i" && kind != "u") {
                throw InvalidArgument(argument + ": field \"" + name + "\" must hold integers (canonical units), got dtype " + py::cast<std::string>(py::str(field)));
            }
        }
        for (py::ssize_t i = 0; i < array.shape(0); ++i) {
            Resources r;
            const py::object row = array[py::int_(i)];
            for (const auto& name : names) r.set(name, py::cast<std::int64_t>(row[py::str(name)]));
            out.push_back(std::move(r));
        }
        return out;
    }
    if (py::isinstance<py::str>(values) || py::isinstance<py::dict>(values) || py::isinstance<Resources>(values) || !py::isinstance<py::iterable>(values)) {
        throw InvalidArgument(argument + ": expected a list of continuum.Resources or dicts, or a numpy structured array, got " + type_name(values));
    }
    if (py::isinstance<py::array>(values)) {
        throw InvalidArgument(argument + ": a plain numpy array has no resource names; use a structured array (a field per resource, canonical units) or a list of dicts");
    }
    std::size_t i = 0;
    for (const auto& v : py::reinterpret_borrow<py::iterable>(values)) out.push_back(to_resources(v, argument + "[" + std::to_string(i++) + "]"));
    return out;
}

/// {name: amount} as amount_to_python gives it, or canonical integers when asked by name.
inline std::map<std::string, Amount> resources_to_dict(const Resources& r, bool canonical) {
    std::map<std::string, Amount> d;
    for (const auto& [name, value] : r) d.emplace(name, canonical ? Amount(py::int_(value)) : amount_to_python(name, value));
    return d;
}

// ---- Settable fields (issue 18): every def_field setter converts through field_from_python, so
// a field takes what the constructor takes and a wrong type is InvalidArgument naming Class.field.

namespace detail {
template <typename T>
struct is_vector : std::false_type {};
template <typename T>
struct is_vector<std::vector<T>> : std::true_type {};
template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
}  // namespace detail

/// What the error messages call a field's type: Resources as its converter does, a std::vector as
/// "a list of ...", a bound class by its name, anything else by pybind11's own caster name.
template <typename T>
std::string expected_type_name() {
    if constexpr (std::is_same_v<T, Resources>) {
        return "a continuum.Resources or a dict {resource: amount}";
    } else if constexpr (detail::is_vector<T>::value) {
        return "a list of " + expected_type_name<typename T::value_type>();
    } else {
        if (const auto* info = py::detail::get_type_info(typeid(T)); info != nullptr) {
            // "continuum._core.scalers.SelectPolicy" as users import it: continuum.scalers.SelectPolicy.
            std::string name = info->type->tp_name;
            if (const auto at = name.find("._core"); at != std::string::npos) name.erase(at, 6);
            return name;
        }
        return py::detail::make_caster<T>::name.text;
    }
}

/// The value of a field of type T from Python, for `argument` ("NodeType.capacity"): Resources
/// through to_resources, numbers as the constructors take them (ints, floats, numpy scalars; never
/// bool or str), std::optional from None, anything else through pybind11's caster.
/// \throws InvalidArgument naming `argument`, the expected type and the value for a wrong type.
template <typename T>
T field_from_python(const py::handle& value, const std::string& argument) {
    const auto wrong = [&]() -> T {
        throw InvalidArgument(argument + ": expected " + expected_type_name<T>() + ", got " + type_name(value) + " " + py::cast<std::string>(py::repr(value)));
    };
    const bool boolean = py::isinstance<py::bool_>(value) || type_name(value) == "bool_";
    if constexpr (std::is_same_v<T, Resources>) {
        return to_resources(value, argument);
    } else if constexpr (detail::is_optional<T>::value) {
        if (value.is_none()) return std::nullopt;
        return field_from_python<typename T::value_type>(value, argument);
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!boolean) return wrong();
        return PyObject_IsTrue(value.ptr()) == 1;
    } else if constexpr (std::is_integral_v<T>) {
        if (boolean || !PyIndex_Check(value.ptr())) return wrong();
        try {
            return py::cast<T>(py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr())));
        } catch (const py::cast_error&) {
            throw InvalidArgument(argument + ": " + py::cast<std::string>(py::repr(value)) + " is out of range");
        }
    } else if constexpr (std::is_floating_point_v<T>) {
        if (boolean || !(PyFloat_Check(value.ptr()) || PyIndex_Check(value.ptr()) || is_numpy_float(value))) return wrong();
        const double x = PyFloat_AsDouble(value.ptr());
        if (x == -1.0 && PyErr_Occurred() != nullptr) throw py::error_already_set();
        return static_cast<T>(x);
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!py::isinstance<py::str>(value)) return wrong();
        return py::cast<std::string>(value);
    } else {
        try {
            return py::cast<T>(value);
        } catch (const py::cast_error&) {
            return wrong();
        }
    }
}

/// A setter's argument: any object (field_from_python converts it), named in the stubs as T's
/// caster names it (ResourcesLike for Resources), so a stub still says what the field takes.
template <typename T>
class FieldValue : public py::object {
public:
    PYBIND11_OBJECT_DEFAULT(FieldValue, object, [](PyObject*) { return true; })
};

namespace detail {
template <typename F>
struct setter_argument;
template <typename C, typename R, typename Self, typename V>
struct setter_argument<R (C::*)(Self, V) const> {
    using type = std::decay_t<V>;
};
}  // namespace detail

/// A settable field: the getter as def_readwrite's (a reference into the object), the setter through
/// field_from_python. With a member pointer the field is the member; with (get, set) the setter
/// `set(Class&, V)` gets a V converted by field_from_python (durations as seconds, optional times).
/// A class with validate() (Policy) is validated after the change, as its constructor validates.
template <typename Class, typename... Options, typename Get, typename Set>
py::class_<Class, Options...>& def_field(py::class_<Class, Options...>& cls, const char* name, Get get, Set set, const char* doc = "") {
    using Value = typename detail::setter_argument<decltype(&Set::operator())>::type;
    std::string argument = py::cast<std::string>(cls.attr("__name__")) + "." + name;
    return cls.def_property(
        name, std::move(get),
        [set = std::move(set), argument = std::move(argument)](Class& self, const FieldValue<Value>& value) {
            if constexpr (requires(const Class& c) { c.validate(); }) {
                // On a copy, so that a refused value changes nothing.
                Class changed = self;
                set(changed, field_from_python<Value>(value, argument));
                changed.validate();
                self = std::move(changed);
            } else {
                set(self, field_from_python<Value>(value, argument));
            }
        },
        doc);
}
template <typename Class, typename... Options, typename Member>
py::class_<Class, Options...>& def_field(py::class_<Class, Options...>& cls, const char* name, Member Class::*member, const char* doc = "") {
    return def_field(
        cls, name, [member](const Class& self) -> const Member& { return self.*member; }, [member](Class& self, Member value) { self.*member = std::move(value); },
        doc);
}

/// Seconds (float) to a continuum Duration, rejecting NaN and negative values.
inline Duration duration_from_seconds(double seconds, const char* argument) {
    if (!std::isfinite(seconds) || seconds < 0) {
        throw InvalidArgument(std::string(argument) + " must be a finite number of seconds >= 0, got " + std::to_string(seconds));
    }
    return Duration(static_cast<Duration::rep>(std::llround(seconds * 1000.0)));
}

struct GilSafeDeleter {
    void operator()(py::object* o) const {
        py::gil_scoped_acquire gil;
        delete o;
    }
};

/// Pickling (and copy.deepcopy) of a configuration value through its constructor: __reduce__
/// returns (cls, arguments(value)), so pickle rebuilds it as cls(*arguments).
template <typename T, typename... Options>
void reduce_by_constructor(py::class_<T, Options...>& cls, std::function<py::tuple(const T&)> arguments) {
    cls.def("__reduce__", [arguments](const py::object& self) { return py::make_tuple(self.attr("__class__"), arguments(py::cast<const T&>(self))); });
}

}  // namespace continuum::python

namespace pybind11::detail {
// The stub names of the converter types (tools/generate_stubs.py spells each one out).
#define CONTINUUM_PYTHON_TYPE_NAME(Name, Text)          \
    template <>                                         \
    struct handle_type_name<continuum::python::Name> {  \
        static constexpr auto name = const_name(Text);  \
    }
CONTINUUM_PYTHON_TYPE_NAME(ResourcesLike, "ResourcesLike");
CONTINUUM_PYTHON_TYPE_NAME(OptionalResourcesLike, "OptionalResourcesLike");
CONTINUUM_PYTHON_TYPE_NAME(ResourcesListLike, "ResourcesListLike");
CONTINUUM_PYTHON_TYPE_NAME(CanonicalUnitsLike, "CanonicalUnitsLike");
CONTINUUM_PYTHON_TYPE_NAME(Amount, "AmountOut");
CONTINUUM_PYTHON_TYPE_NAME(LevelsLike, "LevelsLike");
CONTINUUM_PYTHON_TYPE_NAME(AmountLike, "AmountLike");
#undef CONTINUUM_PYTHON_TYPE_NAME
/// A field's setter argument is named as its value type (ResourcesLike for Resources).
template <typename T>
struct handle_type_name<continuum::python::FieldValue<T>> {
    static constexpr auto name = make_caster<T>::name;
};
template <>
struct handle_type_name<continuum::python::FieldValue<continuum::Resources>> {
    static constexpr auto name = const_name("ResourcesLike");
};
}  // namespace pybind11::detail
