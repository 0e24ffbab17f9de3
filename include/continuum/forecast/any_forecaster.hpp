// AnyForecaster: a type-erased, copyable holder for any Forecaster, for runtime configuration
// (choose a model from a config file) and the Python bindings. C++ hosts that know the model at
// compile time should use the concrete type and pay nothing for the indirection.
#pragma once

#include <continuum/forecast/forecaster.hpp>

#include <concepts>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace continuum::forecast {

template <std::floating_point T>
struct LstmModelState;  // forecast/lstm_model_state.hpp

class AnyForecaster {
public:
    AnyForecaster() = default;

    /// Wraps a copy of `model`.
    template <Forecaster F>
        requires(!std::is_same_v<std::remove_cvref_t<F>, AnyForecaster>)
    AnyForecaster(F model)  // NOLINT(google-explicit-constructor): wrapping is the point
        : impl_(std::make_unique<Model<F>>(std::move(model))) {}

    AnyForecaster(const AnyForecaster& other) : impl_(other.impl_ ? other.impl_->clone() : nullptr) {}
    AnyForecaster(AnyForecaster&&) noexcept = default;
    AnyForecaster& operator=(const AnyForecaster& other) {
        if (this != &other) impl_ = other.impl_ ? other.impl_->clone() : nullptr;
        return *this;
    }
    AnyForecaster& operator=(AnyForecaster&&) noexcept = default;
    ~AnyForecaster() = default;

    /// \throws InvalidArgument when empty, or whatever the wrapped model throws.
    void fit(SeriesView history) { get().fit(history); }
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const { return get().forecast(horizon, level); }
    void update(double value) { get().update(value); }
    [[nodiscard]] std::string name() const { return impl_ ? impl_->name() : std::string("empty"); }
    /// Forwards to the wrapped model's plan_for_horizon(horizon) when it has one (a selecting
    /// forecaster such as Portfolio); nothing otherwise. \throws InvalidArgument when empty.
    void plan_for_horizon(int horizon) { get().plan_for_horizon(horizon); }
    [[nodiscard]] bool empty() const { return impl_ == nullptr; }

    /// The wrapped model when it is an F, else nullptr.
    template <typename F>
    [[nodiscard]] F* target() {
        auto* model = dynamic_cast<Model<F>*>(impl_.get());
        return model ? &model->value : nullptr;
    }
    template <typename F>
    [[nodiscard]] const F* target() const {
        const auto* model = dynamic_cast<const Model<F>*>(impl_.get());
        return model ? &model->value : nullptr;
    }

    /// When the wrapped model is an Lstm<double> (Lstm<float>): its state with its weights into
    /// `*as_double` (`*as_float`), and true; false for any other model. state_of(const AnyForecaster&)
    /// takes an LSTM's state through this, so forecaster_state.hpp needs neither the LSTM nor Eigen.
    bool lstm_model_state(LstmModelState<double>* as_double, LstmModelState<float>* as_float) const {
        return impl_ && impl_->lstm_model_state(as_double, as_float);
    }

private:
    struct Concept {
        virtual ~Concept() = default;
        virtual void fit(SeriesView history) = 0;
        virtual Forecast forecast(int horizon, double level) const = 0;
        virtual void update(double value) = 0;
        virtual std::string name() const = 0;
        virtual void plan_for_horizon(int horizon) = 0;
        virtual std::unique_ptr<Concept> clone() const = 0;
        virtual bool lstm_model_state(LstmModelState<double>* as_double, LstmModelState<float>* as_float) const = 0;
    };
    template <typename F>
    struct Model final : Concept {
        explicit Model(F v) : value(std::move(v)) {}
        void fit(SeriesView history) override { value.fit(history); }
        Forecast forecast(int horizon, double level) const override { return value.forecast(horizon, level); }
        void update(double observation) override { value.update(observation); }
        std::string name() const override { return value.name(); }
        void plan_for_horizon(int horizon) override {
            if constexpr (requires { value.plan_for_horizon(horizon); }) value.plan_for_horizon(horizon);
        }
        std::unique_ptr<Concept> clone() const override { return std::make_unique<Model>(value); }
        bool lstm_model_state([[maybe_unused]] LstmModelState<double>* as_double, [[maybe_unused]] LstmModelState<float>* as_float) const override {
            // An Lstm<T> (forecast/lstm.hpp), where LstmModelState is complete.
            if constexpr (requires { { value.model_state() } -> std::same_as<LstmModelState<double>>; }) {
                *as_double = value.model_state();
                return true;
            } else if constexpr (requires { { value.model_state() } -> std::same_as<LstmModelState<float>>; }) {
                *as_float = value.model_state();
                return true;
            } else {
                return false;
            }
        }
        F value;
    };
    Concept& get() const {
        if (!impl_) throw InvalidArgument("AnyForecaster: no forecaster wrapped");
        return *impl_;
    }

    std::unique_ptr<Concept> impl_;
};

static_assert(Forecaster<AnyForecaster>);

}  // namespace continuum::forecast
