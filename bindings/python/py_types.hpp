// The Python type tests every part of the bindings shares, the argument dispatcher (arguments.hpp,
// compiled into module.cpp) included: pybind11 and numpy only, no continuum header, so that a unit
// needing just these does not parse the library.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

namespace continuum::python {

namespace py = pybind11;

inline std::string type_name(const py::handle& value) { return py::cast<std::string>(py::str(py::type::of(value).attr("__name__"))); }

/// A numpy floating scalar that is not a Python float (np.float32, np.float16, np.longdouble):
/// taken wherever a float is (PyFloat_AsDouble reads it through __float__).
inline bool is_numpy_float(const py::handle& value) {
    if (PyFloat_Check(value.ptr()) || !py::hasattr(value, "dtype") || py::isinstance<py::array>(value)) return false;
    return py::cast<std::string>(value.attr("dtype").attr("kind")) == "f";
}
}  // namespace continuum::python
