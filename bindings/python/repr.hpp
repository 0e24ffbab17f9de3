// __repr__ for the bound classes, written the way a user would type the value back:
// NodeType(name='m5.large', capacity=Resources({'cpu': 2, 'memory': '8Gi'}), cost=0.096, max_count=-1).
// One field-list formatter reads the fields as Python attributes, so a repr shows what the properties
// show; Resources print as quantities (whole units as ints), enums as Type.member, durations as seconds.
#pragma once

#include "common.hpp"

#include <continuum/core.hpp>

#include <pybind11/pybind11.h>

#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace continuum::python {

namespace py = pybind11;

/// Resources({'cpu': '250m', 'memory': '8Gi', 'pods': 3}): every amount as Kubernetes text, written
/// as an int when it is whole units, so the text evaluates back to an equal Resources.
inline std::string resources_repr(const Resources& r) {
    std::string out = "Resources({";
    bool first = true;
    for (const auto& [name, value] : r) {
        if (!first) out += ", ";
        first = false;
        const std::string text = format_resource(name, value);
        const bool integer = !text.empty() && text.find_first_not_of("-0123456789") == std::string::npos;
        out += "'" + name + "': " + (integer ? text : "'" + text + "'");
    }
    return out + "})";
}

/// One value as Python source: Resources and nested bound objects through their own reprs, enums as
/// Type.member, timedelta as float seconds (what the constructors take), lists, tuples and dicts
/// element by element.
inline std::string repr_value(const py::handle& value) {
    if (value.is_none()) return "None";
    if (py::isinstance<Resources>(value)) return resources_repr(py::cast<const Resources&>(value));
    const py::handle type = py::type::handle_of(value);
    if (py::hasattr(type, "__members__") && py::hasattr(value, "name") && py::hasattr(type, "__entries")) {
        return py::cast<std::string>(type.attr("__name__")) + "." + py::cast<std::string>(value.attr("name"));
    }
    if (py::isinstance(value, py::module_::import("datetime").attr("timedelta"))) {
        return py::cast<std::string>(py::repr(value.attr("total_seconds")()));
    }
    const auto join = [](const py::iterable& items, const char* open, const char* close, bool pairs) {
        std::string out = open;
        bool first = true;
        for (const auto& item : items) {
            if (!first) out += ", ";
            first = false;
            if (pairs) {
                const auto pair = py::reinterpret_borrow<py::tuple>(item);
                out += repr_value(pair[0]) + ": " + repr_value(pair[1]);
            } else {
                out += repr_value(item);
            }
        }
        return out + close;
    };
    if (py::isinstance<py::list>(value)) return join(py::reinterpret_borrow<py::iterable>(value), "[", "]", false);
    if (py::isinstance<py::tuple>(value)) {
        const auto size = py::len(value);
        const std::string inner = join(py::reinterpret_borrow<py::iterable>(value), "(", ")", false);
        return size == 1 ? inner.substr(0, inner.size() - 1) + ",)" : inner;
    }
    if (py::isinstance<py::dict>(value)) return join(py::reinterpret_borrow<py::dict>(value).attr("items")(), "{", "}", true);
    return py::cast<std::string>(py::repr(value));
}

/// "Type(name=value, ...)" from C++ values, for classes whose configuration is not a Python
/// attribute (cost models, scalers): call_repr("EnergyCost", {{"carbon", py::cast(true)}}).
/// `open` and `close` frame the arguments: "(" and ")" for a repr that evaluates back, " " and ">"
/// with "<" + type for one that only reads (readable_repr).
inline std::string call_repr(const std::string& type, const std::vector<std::pair<std::string, py::object>>& arguments, const char* open = "(",
                             const char* close = ")") {
    std::string out = type + open;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        out += (i == 0 ? "" : ", ") + arguments[i].first + "=" + repr_value(arguments[i].second);
    }
    return out + close;
}

/// "<Type name=value, ...>": the repr of an object whose configuration holds something that does not
/// evaluate back (a fitted forecaster, a Python callable), shown as Python's own reprs show such objects.
inline std::string readable_repr(const std::string& type, const std::vector<std::pair<std::string, py::object>>& arguments) {
    return call_repr("<" + type, arguments, " ", ">");
}

/// A __repr__ for a bound class: "Type(field=value, ...)" over the named attributes. A field written
/// "name?" is left out when its value is None or empty (a constructor default), so reprs stay short.
inline auto fields_repr(std::vector<std::string> fields) {
    return [fields = std::move(fields)](const py::object& self) {
        std::vector<std::pair<std::string, py::object>> arguments;
        for (const auto& field : fields) {
            const bool optional = !field.empty() && field.back() == '?';
            const std::string name = optional ? field.substr(0, field.size() - 1) : field;
            py::object value = self.attr(name.c_str());
            if (optional && (value.is_none() || (py::hasattr(value, "__len__") && py::len(value) == 0))) continue;
            arguments.emplace_back(name, std::move(value));
        }
        return call_repr(py::cast<std::string>(py::type::handle_of(self).attr("__name__")), arguments);
    };
}

/// One field of a result class for def_result: its Python name and the member it reads. An
/// `optional` field is left out of the repr when None or empty (its constructor default).
template <typename Class, typename Member>
struct ResultField {
    const char* name;
    Member Class::*member;
    bool optional = false;
};
template <typename Class, typename Member>
ResultField<Class, Member> field(const char* name, Member Class::*member) {
    return {name, member, false};
}
template <typename Class, typename Member>
ResultField<Class, Member> optional_field(const char* name, Member Class::*member) {
    return {name, member, true};
}

namespace detail {
/// What a result field is in Python: itself, but a Duration is float seconds (as the constructors
/// of the inputs take durations).
template <typename Member>
struct result_python {
    using type = Member;
};
template <>
struct result_python<Duration> {
    using type = double;
};
template <typename Member>
py::object result_to_python(const Member& value) {
    if constexpr (std::is_same_v<Member, Duration>) {
        return py::float_(to_seconds(value));
    } else {
        return py::cast(value);
    }
}
/// The getter of a result field, typed (so the stub says what it returns): the member by value, a
/// Duration as float seconds.
template <typename Class, typename Member>
auto result_getter(Member Class::*member) {
    return [member](const Class& self) -> typename result_python<Member>::type {
        if constexpr (std::is_same_v<Member, Duration>) {
            return to_seconds(self.*member);
        } else {
            return self.*member;
        }
    };
}
template <typename Member>
Member result_from_python(const py::handle& value, const std::string& argument) {
    if constexpr (std::is_same_v<Member, Duration>) {
        return duration_from_seconds(field_from_python<double>(value, argument), argument.c_str());
    } else {
        return field_from_python<Member>(value, argument);
    }
}
}  // namespace detail

/// A result class (a value continuum returns) from its field list, in one place: a read-only
/// property per field (a Duration as float seconds), a keyword constructor over the same fields
/// (defaults: a default-constructed value; each argument converted by field_from_python, so a wrong
/// type is InvalidArgument naming Class.field), __eq__ field by field, and the fields_repr that
/// evaluates back through that constructor: eval(repr(x)) == x. Derived properties (computed from
/// the fields) are defined on the returned class as usual.
template <typename Class, typename... Options, typename... Members>
py::class_<Class, Options...> def_result(py::class_<Class, Options...> cls, ResultField<Class, Members>... fields) {
    const auto type = py::cast<std::string>(cls.attr("__name__"));
    (cls.def_property_readonly(fields.name, detail::result_getter(fields.member)), ...);
    const Class defaults{};
    cls.def(py::init([type, fields...](const FieldValue<typename detail::result_python<Members>::type>&... values) {
                Class out{};
                ((out.*(fields.member) = detail::result_from_python<Members>(values, type + "." + fields.name)), ...);
                return out;
            }),
            (py::arg(fields.name) = detail::result_to_python(defaults.*(fields.member)))...);
    cls.def(
        "__eq__",
        [names = std::vector<std::string>{fields.name...}](const py::object& self, const py::object& other) {
            if (!py::type::handle_of(self).is(py::type::handle_of(other))) return false;
            for (const auto& name : names) {
                if (!self.attr(name.c_str()).equal(other.attr(name.c_str()))) return false;
            }
            return true;
        },
        py::is_operator());
    cls.def("__repr__", fields_repr({(std::string(fields.name) + (fields.optional ? "?" : ""))...}));
    return cls;
}

}  // namespace continuum::python
