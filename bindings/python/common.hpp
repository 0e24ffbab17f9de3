// Shared helpers for the bind_<area>.cpp files: pybind11 includes and conversions between
// Python values and continuum core types (Resources from a dict, durations from seconds), and the two
// Python-backed forecasters: ModelForecaster (quota, sim quota adapters) and HorizonCallableForecaster
// (scalers.HierarchicalScaler, sim.HierarchicalAdapter).
#pragma once

#include <continuum/core.hpp>
#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/forecast/forecaster.hpp>

#if CONTINUUM_HAVE_NLOHMANN_JSON
#include <continuum/serialization.hpp>
#endif

#include <pybind11/chrono.h>
#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <functional>
#include <type_traits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

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

/// A Forecaster backed by Python: a model object (fit / update / forecast) or a callable
/// history -> prediction. Called with the GIL held (HybridQuotaScaler.tick keeps it).
class ModelForecaster {
public:
    explicit ModelForecaster(py::object target) : target_(std::move(target)) {
        model_ = py::hasattr(target_, "fit") && py::hasattr(target_, "forecast") && py::hasattr(target_, "update");
        if (!model_ && !PyCallable_Check(target_.ptr())) {
            throw InvalidArgument("forecaster: expected a continuum forecaster (fit/update/forecast) or a callable history -> prediction");
        }
    }
    ModelForecaster(const ModelForecaster& other) : model_(other.model_), history_(other.history_) {
        py::gil_scoped_acquire gil;
        target_ = model_ ? py::module_::import("copy").attr("deepcopy")(other.target_) : other.target_;
    }
    ModelForecaster& operator=(const ModelForecaster& other) {
        if (this != &other) *this = ModelForecaster(other);
        return *this;
    }
    ModelForecaster(ModelForecaster&&) noexcept = default;
    ModelForecaster& operator=(ModelForecaster&&) noexcept = default;
    ~ModelForecaster() {
        py::gil_scoped_acquire gil;
        target_ = py::object();
    }

    void fit(SeriesView history) {
        py::gil_scoped_acquire gil;
        history_.assign(history.begin(), history.end());
        if (model_) target_.attr("fit")(py::array_t<double>(static_cast<py::ssize_t>(history_.size()), history_.data()));
    }
    void update(double value) {
        py::gil_scoped_acquire gil;
        history_.push_back(value);
        if (model_) target_.attr("update")(value);
    }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double level) const {
        py::gil_scoped_acquire gil;
        py::object result;
        if (model_) {
            result = level > 0.0 ? target_.attr("forecast")(horizon, level) : target_.attr("forecast")(horizon);
        } else {
            result = target_(py::array_t<double>(static_cast<py::ssize_t>(history_.size()), history_.data()));
        }
        forecast::Forecast out;
        const auto to_vector = [](const py::handle& v) {
            std::vector<double> values;
            if (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)) {
                values.push_back(py::cast<double>(v));
            } else {
                for (const auto& x : py::reinterpret_borrow<py::iterable>(v)) values.push_back(py::cast<double>(x));
            }
            return values;
        };
        // A Forecast-like object has a `mean` field; a numpy array's `mean` is a method.
        if (py::hasattr(result, "mean") && !PyCallable_Check(result.attr("mean").ptr())) {
            out.mean = to_vector(result.attr("mean"));
            if (py::hasattr(result, "upper") && py::hasattr(result, "lower")) {
                out.upper = to_vector(result.attr("upper"));
                out.lower = to_vector(result.attr("lower"));
                if (!out.upper.empty()) out.level = level;
            }
        } else {
            out.mean = to_vector(result);
        }
        if (out.mean.size() == 1 && horizon > 1) out.mean.assign(static_cast<std::size_t>(horizon), out.mean.front());
        return out;
    }
    /// Forwards to the model's plan_for_horizon (continuum.forecast.Portfolio) on a private deep copy,
    /// so the caller's object is not changed; nothing for models without it and for callables.
    void plan_for_horizon(int horizon) {
        py::gil_scoped_acquire gil;
        if (!model_ || !py::hasattr(target_, "plan_for_horizon")) return;
        target_ = py::module_::import("copy").attr("deepcopy")(target_);
        target_.attr("plan_for_horizon")(horizon);
    }
    [[nodiscard]] std::string name() const {
        py::gil_scoped_acquire gil;
        if (py::hasattr(target_, "name")) {
            py::object n = target_.attr("name");
            if (PyCallable_Check(n.ptr())) n = n();
            return py::cast<std::string>(py::str(n));
        }
        return py::cast<std::string>(py::str(py::repr(target_)));
    }

private:
    py::object target_;
    bool model_ = false;
    std::vector<double> history_;
};
static_assert(forecast::Forecaster<ModelForecaster>);

inline forecast::AnyForecaster to_forecaster(const py::object& value) {
    if (py::detail::get_type_info(typeid(forecast::AnyForecaster)) != nullptr && py::isinstance<forecast::AnyForecaster>(value)) {
        return py::cast<forecast::AnyForecaster>(value);
    }
    return forecast::AnyForecaster(ModelForecaster(value));
}

/// A Forecaster over a Python callable f(history: numpy.ndarray, horizon: int) -> sequence of
/// floats; without a callable, the last observation repeated. Copies share the callable without
/// touching its reference count, so decide() may copy it with the GIL released.
struct HorizonCallableForecaster {
    std::shared_ptr<py::object> callable;
    std::shared_ptr<py::object> source;  // the object the host passed (pickled in its place: issue 17)
    std::vector<double> history;

    void fit(SeriesView s) { history.assign(s.begin(), s.end()); }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double /*level*/) const {
        forecast::detail::require_horizon(horizon);
        if (history.empty()) throw InvalidArgument("forecaster: forecast before fit");
        forecast::Forecast out;
        if (!callable) {
            out.mean.assign(static_cast<std::size_t>(horizon), history.back());
            return out;
        }
        py::gil_scoped_acquire gil;
        py::array_t<double> h(static_cast<py::ssize_t>(history.size()), history.data());
        const py::object result = (*callable)(h, horizon);
        out.mean = py::cast<std::vector<double>>(result);
        if (out.mean.empty()) throw InvalidArgument("forecaster: the Python forecaster returned an empty forecast");
        return out;
    }
    void update(double value) { history.push_back(value); }
    [[nodiscard]] std::string name() const { return callable ? "python-forecaster" : "last-value"; }
};

struct GilSafeDeleter {
    void operator()(py::object* o) const {
        py::gil_scoped_acquire gil;
        delete o;
    }
};

#if CONTINUUM_HAVE_NLOHMANN_JSON
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
            return py::make_tuple(py::module_::import("continuum._core").attr("_restore_pickled"),
                                  py::make_tuple(self.attr("__class__"), arguments(value), serialization::dump(take(value))));
        });
    }
}
#endif

/// Pickling (and copy.deepcopy) of a configuration value through its constructor: __reduce__
/// returns (cls, arguments(value)), so pickle rebuilds it as cls(*arguments).
template <typename T, typename... Options>
void reduce_by_constructor(py::class_<T, Options...>& cls, std::function<py::tuple(const T&)> arguments) {
    cls.def("__reduce__", [arguments](const py::object& self) { return py::make_tuple(self.attr("__class__"), arguments(py::cast<const T&>(self))); });
}

}  // namespace continuum::python
