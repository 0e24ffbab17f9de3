// Wrong-typed arguments as continuum.InvalidArgument (issue 18): after every bind_<area>() ran, the
// module's functions, methods, static methods and constructors are switched to a dispatcher that
// calls pybind11's own and, when no overload took the arguments, names the argument whose value none
// of its declared types accepts ("forecast.auto(): horizon: expected int, got str 'x'"). The bindings
// keep their C++ parameter types, so the signatures and the stubs stay what a user passes.
#pragma once

#include "py_types.hpp"

#include <pybind11/chrono.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace continuum::python {

namespace arguments_detail {

namespace py = pybind11;

/// pybind11's dispatcher is a protected static member of cpp_function.
struct Dispatcher : py::cpp_function {
    using py::cpp_function::dispatcher;
};

/// continuum.InvalidArgument, set once when the module is finished.
inline PyObject*& invalid_argument_type() {
    static PyObject* type = nullptr;
    return type;
}

/// Splits "a: int, b: List[str] = ['x, y']" at its top-level commas (outside brackets and quotes).
inline std::vector<std::string> split_top_level(const std::string& text, char separator = ',') {
    std::vector<std::string> parts;
    int depth = 0;
    char quote = 0;
    std::string current;
    for (const char c : text) {
        if (quote != 0) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '[' || c == '(' || c == '{' || c == '<') {
            ++depth;
        } else if (c == ']' || c == ')' || c == '}' || c == '>') {
            --depth;
        } else if (c == separator && depth == 0) {
            parts.push_back(current);
            current.clear();
            continue;
        }
        current += c;
    }
    if (!current.empty()) parts.push_back(current);
    for (auto& part : parts) {
        const auto first = part.find_first_not_of(' ');
        const auto last = part.find_last_not_of(' ');
        part = first == std::string::npos ? std::string() : part.substr(first, last - first + 1);
    }
    return parts;
}

/// One parameter of a pybind11 signature: "horizon: int = 12".
struct Parameter {
    std::string name;
    std::string type;
    bool has_default = false;
};

/// The parameters of a signature "(self: X, horizon: int = 12, *, level: float = 0.0) -> Y", without
/// the "*" and "/" markers; *args and **kwargs keep their stars in the name.
inline std::vector<Parameter> parameters_of(const std::string& signature) {
    std::vector<Parameter> out;
    const auto open = signature.find('(');
    const auto close = signature.rfind(") -> ");
    if (open == std::string::npos || close == std::string::npos || close < open) return out;
    for (const auto& piece : split_top_level(signature.substr(open + 1, close - open - 1))) {
        if (piece == "*" || piece == "/" || piece.empty()) continue;
        Parameter p;
        const auto colon = piece.find(": ");
        const auto equals = piece.find(" = ");
        p.name = piece.substr(0, std::min(colon, equals));
        if (colon != std::string::npos && (equals == std::string::npos || colon < equals)) {
            p.type = piece.substr(colon + 2, equals == std::string::npos ? std::string::npos : equals - colon - 2);
        }
        p.has_default = equals != std::string::npos;
        out.push_back(std::move(p));
    }
    return out;
}

/// The registered pybind11 type whose tp_name is `name` ("continuum._core.forecast.Seasonal").
inline const py::detail::type_info* registered_type(const std::string& name) {
    static std::unordered_map<std::string, const py::detail::type_info*> by_name;
    if (by_name.empty()) {
        for (const auto& [type, infos] : py::detail::get_internals().registered_types_py) {
            if (!infos.empty()) by_name.emplace(type->tp_name, infos.front());
        }
    }
    const auto found = by_name.find(name);
    return found == by_name.end() ? nullptr : found->second;
}

template <typename T>
bool loads_as(const py::handle& value) {
    py::detail::make_caster<T> caster;
    const bool ok = caster.load(value, true);
    PyErr_Clear();
    return ok;
}

/// Whether pybind11 would take `value` for a parameter declared as `type` (its signature text). A
/// type this does not know is taken as accepted (the caller then reports the call as a whole).
inline bool accepts(const std::string& type, const py::handle& value) {
    const auto inner = [&](std::size_t prefix) { return split_top_level(type.substr(prefix, type.size() - prefix - 1)); };
    const auto starts = [&](const char* prefix) { return type.rfind(prefix, 0) == 0 && type.back() == ']'; };
    if (type == "int") return loads_as<long long>(value) || loads_as<unsigned long long>(value);
    if (type == "float") return loads_as<double>(value);
    if (type == "bool") return loads_as<bool>(value);
    if (type == "str") return loads_as<std::string>(value);
    if (type == "dict") return PyDict_Check(value.ptr()) != 0;
    if (type == "list") return PyList_Check(value.ptr()) != 0;
    if (type == "tuple") return PyTuple_Check(value.ptr()) != 0;
    if (type == "datetime.timedelta") return loads_as<std::chrono::duration<double>>(value);
    if (type == "numpy.ndarray[numpy.float64]") return loads_as<py::array_t<double, py::array::forcecast>>(value);
    if (type == "numpy.ndarray[numpy.int64]") return loads_as<py::array_t<std::int64_t, py::array::forcecast>>(value);
    if (starts("Optional[")) return value.is_none() || accepts(type.substr(9, type.size() - 10), value);
    if (starts("Union[")) {
        for (const auto& alternative : inner(6)) {
            if (accepts(alternative, value)) return true;
        }
        return false;
    }
    if (starts("List[")) {
        if (!PySequence_Check(value.ptr()) || PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr())) return false;
        const auto element = type.substr(5, type.size() - 6);
        for (const auto& item : py::reinterpret_borrow<py::sequence>(value)) {
            if (!accepts(element, item)) return false;
        }
        return true;
    }
    if (starts("Dict[")) {
        const auto kv = inner(5);
        if (!PyDict_Check(value.ptr()) || kv.size() != 2) return PyDict_Check(value.ptr());
        for (const auto& [k, v] : py::reinterpret_borrow<py::dict>(value)) {
            if (!accepts(kv[0], k) || !accepts(kv[1], v)) return false;
        }
        return true;
    }
    if (starts("Callable[")) return PyCallable_Check(value.ptr()) != 0;
    if (const auto* info = registered_type(type); info != nullptr) {
        py::detail::type_caster_generic caster(info);
        const bool ok = caster.load(value, true);
        PyErr_Clear();
        return ok;
    }
    return true;
}

/// How a message names a type: without the extension's "._core", an enum with its members.
inline std::string expected(const std::string& type) {
    std::string text = type;
    for (auto at = text.find("continuum._core."); at != std::string::npos; at = text.find("continuum._core.")) text.erase(at + 9, 6);
    if (const auto* info = registered_type(type); info != nullptr) {
        const auto cls = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(info->type));
        if (py::hasattr(cls, "__members__")) {
            std::string members;
            for (const auto& [name, member] : py::reinterpret_borrow<py::dict>(cls.attr("__members__"))) {
                members += (members.empty() ? "" : ", ") + text + "." + py::cast<std::string>(name);
            }
            text += " (" + members + ")";
        }
    }
    return text;
}

inline std::string shown(const py::handle& value) {
    std::string text;
    try {
        text = py::cast<std::string>(py::repr(value));
    } catch (const py::error_already_set&) {
        text = "<repr raised>";
    }
    if (text.size() > 80) text = text.substr(0, 77) + "...";
    return type_name(value) + " " + text;
}

/// "forecast.auto()", "Portfolio.forecast()", "Portfolio()": the callable as a user wrote it.
inline std::string callable_name(const py::detail::function_record& record) {
    std::string scope;
    if (record.scope && py::hasattr(record.scope, "__name__")) scope = py::cast<std::string>(record.scope.attr("__name__"));
    if (const auto dot = scope.rfind("._core."); dot != std::string::npos) scope = scope.substr(dot + 7);
    if (scope == "continuum._core") scope.clear();
    if (record.is_constructor) return scope + "()";
    return (scope.empty() ? "" : scope + ".") + record.name + "()";
}

/// Why the arguments fit no overload, when one of them has a type no overload takes: "name:
/// expected T, got U value"; empty when every overload fails on the number or names of arguments
/// (pybind11's TypeError stands then, as Python's own for a missing argument).
inline std::string wrong_argument(const py::detail::function_record* overloads, PyObject* args, PyObject* kwargs) {
    const auto positional = py::reinterpret_borrow<py::tuple>(args);
    const auto keywords = kwargs != nullptr ? py::reinterpret_borrow<py::dict>(kwargs) : py::dict();
    std::string name;
    std::vector<std::string> types;
    std::ptrdiff_t furthest = -1;
    bool undiagnosed = false;
    std::string got;
    for (const auto* record = overloads; record != nullptr; record = record->next) {
        if (record->signature == nullptr || record->has_args || record->has_kwargs) continue;
        const auto parameters = parameters_of(record->signature);
        if (positional.size() > parameters.size()) continue;
        std::vector<py::handle> bound(parameters.size());
        bool fits = true;
        for (std::size_t i = 0; i < positional.size(); ++i) bound[i] = positional[i];
        std::set<std::string> used;
        for (const auto& [key, value] : keywords) {
            const auto k = py::cast<std::string>(key);
            std::size_t i = 0;
            while (i < parameters.size() && parameters[i].name != k) ++i;
            if (i == parameters.size() || bound[i]) fits = false;
            else bound[i] = value;
        }
        for (std::size_t i = 0; fits && i < parameters.size(); ++i) fits = bound[i] || parameters[i].has_default;
        if (!fits) continue;
        bool found = false;
        for (std::size_t i = record->is_method ? 1 : 0; i < parameters.size(); ++i) {
            if (!bound[i] || accepts(parameters[i].type, bound[i])) continue;
            found = true;
            const auto at = static_cast<std::ptrdiff_t>(i);
            if (at > furthest || (at == furthest && parameters[i].name != name)) {
                furthest = at;
                name = parameters[i].name;
                types.clear();
                got = shown(bound[i]);
            }
            if (parameters[i].name == name) {
                auto text = expected(parameters[i].type);
                if (std::find(types.begin(), types.end(), text) == types.end()) types.push_back(std::move(text));
            }
            break;
        }
        undiagnosed = undiagnosed || !found;
    }
    if (name.empty()) {
        if (!undiagnosed) return {};
        std::string given;
        // Not self: a constructor's is not constructed yet (its repr would read unset fields).
        for (std::size_t i = overloads->is_method ? 1 : 0; i < positional.size(); ++i) given += (given.empty() ? "" : ", ") + shown(positional[i]);
        for (const auto& [key, value] : keywords) given += (given.empty() ? "" : ", ") + py::cast<std::string>(key) + "=" + shown(value);
        std::string declared;
        for (const auto* record = overloads; record != nullptr; record = record->next) declared += (declared.empty() ? "" : " or ") + expected(record->signature);
        return "the arguments (" + given + ") fit none of " + declared;
    }
    std::string alternatives;
    for (const auto& t : types) alternatives += (alternatives.empty() ? "" : " or ") + t;
    return name + ": expected " + alternatives + ", got " + got;
}

/// The parameters declared float (or Optional[float]) of a function with one overload, by position
/// and name, read once from its signature.
inline const std::vector<std::pair<std::size_t, std::string>>& float_parameters(const py::detail::function_record* record) {
    static std::unordered_map<const py::detail::function_record*, std::vector<std::pair<std::size_t, std::string>>> cache;
    const auto found = cache.find(record);
    if (found != cache.end()) return found->second;
    std::vector<std::pair<std::size_t, std::string>> floats;
    if (record->next == nullptr && record->signature != nullptr && !record->has_args) {
        const auto parameters = parameters_of(record->signature);
        for (std::size_t i = 0; i < parameters.size(); ++i) {
            if (parameters[i].type == "float" || parameters[i].type == "Optional[float]") floats.emplace_back(i, parameters[i].name);
        }
    }
    return cache.emplace(record, std::move(floats)).first->second;
}

/// "ScalingRules.tolerance" for the setter of that property (a setter's parameter has no name).
inline std::unordered_map<const py::detail::function_record*, std::string>& setter_names() {
    static std::unordered_map<const py::detail::function_record*, std::string> names;
    return names;
}

/// A NaN or an infinity given for a float parameter: continuum's numbers are finite (a deadline or
/// a limit that may be absent is Optional and None). Sets InvalidArgument naming the parameter.
inline bool refuse_non_finite(const py::detail::function_record* record, PyObject* args, PyObject* kwargs) {
    for (const auto& [index, name] : float_parameters(record)) {
        PyObject* value = index < static_cast<std::size_t>(PyTuple_GET_SIZE(args)) ? PyTuple_GET_ITEM(args, index)
                          : kwargs != nullptr                                       ? PyDict_GetItemString(kwargs, name.c_str())
                                                                                    : nullptr;
        if (value == nullptr || !(PyFloat_Check(value) || is_numpy_float(value))) continue;
        const double x = PyFloat_AsDouble(value);
        if (x == -1.0 && PyErr_Occurred() != nullptr) return false;
        if (std::isfinite(x)) continue;
        const auto setter = setter_names().find(record);
        const auto message = (setter != setter_names().end() ? setter->second : callable_name(*record) + ": " + name) + ": expected a finite float, got " + shown(value);
        PyErr_SetString(invalid_argument_type(), message.c_str());
        return true;
    }
    return false;
}

inline PyObject* checked_dispatcher(PyObject* self, PyObject* args, PyObject* kwargs) {
    const auto* head = reinterpret_cast<const py::detail::function_record*>(PyCapsule_GetPointer(self, py::detail::get_function_record_capsule_name()));
    if (refuse_non_finite(head, args, kwargs)) return nullptr;
    if (PyErr_Occurred() != nullptr) return nullptr;
    PyObject* result = Dispatcher::dispatcher(self, args, kwargs);
    if (result != nullptr || !PyErr_ExceptionMatches(PyExc_TypeError)) return result;
    PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
    PyErr_Fetch(&type, &value, &traceback);
    const auto error = py::reinterpret_steal<py::object>(value);
    const auto error_type = py::reinterpret_steal<py::object>(type);
    const auto error_traceback = py::reinterpret_steal<py::object>(traceback);
    try {
        const auto message = py::cast<std::string>(py::str(error));
        const std::string own = std::string(head->name) + "(): incompatible ";
        if (message.rfind(own, 0) == 0) {
            if (auto why = wrong_argument(head, args, kwargs); !why.empty()) {
                PyErr_SetString(invalid_argument_type(), (callable_name(*head) + ": " + why).c_str());
                return nullptr;
            }
        }
    } catch (const py::error_already_set&) {
        PyErr_Clear();
    }
    PyErr_Restore(error_type.inc_ref().ptr(), error.inc_ref().ptr(), error_traceback.inc_ref().ptr());
    return nullptr;
}

/// The pybind11 function record behind `value` (a builtin function of this extension), or nullptr.
inline py::detail::function_record* record_of(const py::handle& value) {
    py::handle function = value;
    if (PyInstanceMethod_Check(function.ptr())) function = PyInstanceMethod_GET_FUNCTION(function.ptr());
    if (!PyCFunction_Check(function.ptr())) return nullptr;
    PyObject* self = PyCFunction_GET_SELF(function.ptr());
    if (self == nullptr || !PyCapsule_CheckExact(self)) return nullptr;
    const auto capsule = py::reinterpret_borrow<py::capsule>(self);
    if (!py::detail::is_function_record_capsule(capsule)) return nullptr;
    return capsule.get_pointer<py::detail::function_record>();
}

inline void check_arguments_in(const py::handle& scope, std::set<PyObject*>& seen) {
    if (!seen.insert(scope.ptr()).second) return;
    const auto patch = [](const py::handle& value) {
        auto* record = record_of(value);
        if (record != nullptr && record->def != nullptr) record->def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(checked_dispatcher));
        return record;
    };
    const auto builtins = py::module_::import("builtins");
    const py::dict members(scope.attr("__dict__"));  // a type's is a mappingproxy
    for (const auto& [key, value] : members) {
        if (PyModule_Check(value.ptr())) {
            if (py::cast<std::string>(value.attr("__name__")).rfind("continuum", 0) != 0) continue;
            check_arguments_in(value, seen);
        } else if (PyType_Check(value.ptr())) {
            if (py::detail::get_type_info(reinterpret_cast<PyTypeObject*>(value.ptr())) != nullptr) check_arguments_in(value, seen);
        } else if (py::isinstance(value, builtins.attr("staticmethod"))) {
            patch(value.attr("__func__"));
        } else if (py::isinstance(value, builtins.attr("property"))) {
            patch(value.attr("fget"));
            if (const auto* setter = patch(value.attr("fset")); setter != nullptr) {
                setter_names()[setter] = py::cast<std::string>(scope.attr("__name__")) + "." + py::cast<std::string>(key);
            }
        } else {
            patch(value);
        }
    }
}

}  // namespace arguments_detail

/// Switches every function of `module` (submodules and bound classes included) to the dispatcher
/// that reports a wrong-typed argument as continuum.InvalidArgument. Called once, last.
inline void check_arguments(pybind11::module_& module) {
    arguments_detail::invalid_argument_type() = module.attr("InvalidArgument").ptr();
    std::set<PyObject*> seen;
    arguments_detail::check_arguments_in(module, seen);
}

}  // namespace continuum::python
