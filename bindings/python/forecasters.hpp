// The two Python-backed forecasters of the bindings: ModelForecaster (a continuum forecaster object
// or a callable history -> prediction; quota, the sim quota adapters) with to_forecaster, and
// HorizonCallableForecaster (scalers.HierarchicalScaler, sim.HierarchicalAdapter).
#pragma once

#include "common.hpp"

#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace continuum::python {

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
        if (model_ && level > 0.0 && py::hasattr(target_, "forecast_interval")) {
            // continuum's Python forecasters: forecast_interval(h, level) -> (mean, lower, upper).
            const auto interval = py::cast<py::tuple>(target_.attr("forecast_interval")(horizon, level));
            if (interval.size() != 3) throw InvalidArgument("forecaster: forecast_interval(h, level) must return (mean, lower, upper)");
            forecast::Forecast out;
            out.mean = to_vector(interval[0]);
            out.lower = to_vector(interval[1]);
            out.upper = to_vector(interval[2]);
            out.level = level;
            return out;
        }
        py::object result;
        if (model_) {
            result = level > 0.0 ? target_.attr("forecast")(horizon, level) : target_.attr("forecast")(horizon);
        } else {
            result = target_(py::array_t<double>(static_cast<py::ssize_t>(history_.size()), history_.data()));
        }
        forecast::Forecast out;
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
    /// A number or an iterable of numbers, as the values of a forecast.
    static std::vector<double> to_vector(const py::handle& v) {
        std::vector<double> values;
        if (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)) {
            values.push_back(py::cast<double>(v));
        } else {
            for (const auto& x : py::reinterpret_borrow<py::iterable>(v)) values.push_back(py::cast<double>(x));
        }
        return values;
    }

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
}  // namespace continuum::python
