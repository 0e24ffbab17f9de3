// State support for the bound stateful classes (issue 17): to_json / from_json, copy and pickling
// through the C++ state value (bind_state). Only the JSON reader and writer are included here: each
// bind_<area>.cpp includes the serialization header of its own area (<continuum/serialization/X.hpp>),
// not every area's. Needs nlohmann_json (CONTINUUM_HAVE_NLOHMANN_JSON).
#pragma once

#include "common.hpp"

#if CONTINUUM_HAVE_NLOHMANN_JSON
#include <continuum/serialization/detail/json_reader.hpp>

#include <pybind11/pybind11.h>

#include <functional>
#include <string>
#include <type_traits>
#include <utility>

namespace continuum::python {

/// Rebuilds a pickled stateful object: cls(*arguments).from_json(text) (registered as
/// continuum._core._restore_pickled, the callable every such object's __reduce__ names).
inline py::object restore_pickled(const py::object& cls, const py::tuple& arguments, const std::string& text) {
    return cls(*arguments).attr("from_json")(text);
}

/// State support for a bound stateful class (issue 17), all through the C++ state value:
/// to_json() -> str (the state document), from_json(text) -> a new object with this object's
/// configuration and the document's state, __copy__ / __deepcopy__ (exact), and, when `arguments`
/// gives picklable constructor arguments rebuilding the configuration, pickling.
template <typename T, typename... Options, typename Take, typename Give>
void bind_state(py::module_& root, py::class_<T, Options...>& cls, Take take, Give give,
                std::type_identity_t<std::function<py::tuple(const T&)>> arguments = {}) {
    using State = std::decay_t<decltype(take(std::declval<const T&>()))>;
    if (!py::hasattr(root, "_restore_pickled")) root.def("_restore_pickled", &restore_pickled, "Rebuilds a pickled object: cls(*arguments).from_json(text).");
    cls.def("to_json", [take](const T& self) { return serialization::dump(take(self)); },
            "The state as a JSON document {\"schema\": ..., \"version\": ..., ...} (see docs/state.md).");
    cls.def("from_json", [give](const T& self, const std::string& text) { return give(self, serialization::parse<State>(text)); }, py::arg("text"),
            "A new object with this object's configuration and the state of `text` (written by to_json). Raises ParseError\n"
            "naming the field on a malformed document, InvalidArgument when the state does not match the configuration.");
    cls.def("__copy__", [take, give](const T& self) { return give(self, take(self)); });
    cls.def("__deepcopy__", [take, give](const T& self, const py::dict&) { return give(self, take(self)); }, py::arg("memo"));
    if (arguments) {
        cls.def("__reduce__", [take, arguments](const py::object& self) {
            const T& value = py::cast<const T&>(self);
            // The state first, then the arguments, as statements: both can throw, and the order of
            // evaluation of a call's arguments differs between compilers (g++ right to left, clang left
            // to right), so the error a user sees would depend on the compiler.
            auto text = serialization::dump(take(value));
            auto rebuild = arguments(value);
            return py::make_tuple(py::module_::import("continuum._core").attr("_restore_pickled"),
                                  py::make_tuple(self.attr("__class__"), std::move(rebuild), std::move(text)));
        });
    }
}
}  // namespace continuum::python
#endif
