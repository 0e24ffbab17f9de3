// Shared helpers for the bind_<area>.cpp files: pybind11 includes and conversions between
// Python values and continuum core types (Resources from a dict, durations from seconds).
#pragma once

#include <continuum/core.hpp>

#include <pybind11/chrono.h>
#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <string>

namespace continuum::python {

namespace py = pybind11;

/// Resources from a Python dict {name: quantity}, where a quantity is a Kubernetes string ("250m",
/// "4Gi"), an int (whole units: cores, bytes, counts) or a float (natural units, rounded up).
inline Resources resources_from_dict(const py::dict& quantities) {
    Resources out;
    for (const auto& [key, value] : quantities) {
        const auto name = py::cast<std::string>(key);
        if (out.contains(name)) throw InvalidArgument("resources: duplicate resource name \"" + name + "\"");
        Resources one;
        if (py::isinstance<py::str>(value)) {
            const auto text = py::cast<std::string>(value);
            one = Resources{{name, text}};
        } else if (py::isinstance<py::bool_>(value)) {
            throw InvalidArgument("resource \"" + name + "\": expected a quantity string, int or float, got bool");
        } else if (py::isinstance<py::int_>(value)) {
            one = Resources{{name, std::to_string(py::cast<long long>(value))}};
        } else if (py::isinstance<py::float_>(value)) {
            one = Resources::from_forecast(name, py::cast<double>(value));
        } else {
            throw InvalidArgument("resource \"" + name + "\": expected a quantity string, int or float, got " +
                                  py::cast<std::string>(py::str(value.get_type())));
        }
        out += one;
    }
    return out;
}

/// Seconds (float) to a continuum Duration, rejecting NaN and negative values.
inline Duration duration_from_seconds(double seconds, const char* argument) {
    if (!std::isfinite(seconds) || seconds < 0) {
        throw InvalidArgument(std::string(argument) + " must be a finite number of seconds >= 0, got " + std::to_string(seconds));
    }
    return Duration(static_cast<Duration::rep>(std::llround(seconds * 1000.0)));
}

}  // namespace continuum::python
