// An LSTM's state as a member of a ForecasterState (LstmModelState): its weights, head and scaling
// travel with its observation window. The weights are Eigen matrices, so the parameters are held
// behind a copyable box (LstmParametersBox) whose operations forecast/lstm.hpp supplies: a
// ForecasterState, and everything that stores one (Portfolio, the quota scalers), compiles without
// Eigen or the LSTM. Code that reads the weights includes forecast/lstm.hpp.
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/forecast/any_forecaster.hpp>

#include <concepts>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace continuum::forecast {

template <std::floating_point T>
struct LstmParameters;  // forecast/lstm.hpp

/// What an Lstm remembers besides its parameters (weights, head and scaling: its configuration):
/// the last window of raw observations fit() and update() gave it.
template <std::floating_point T>
struct LstmState {
    std::vector<T> window;  ///< window() x features() raw values, oldest first
    bool fitted = false;

    friend bool operator==(const LstmState&, const LstmState&) = default;
};

namespace detail {

/// What a box does with the parameters it holds; one table per T, defined in forecast/lstm.hpp
/// (lstm_parameters_operations), which every unit that makes a box from LstmParameters includes.
template <std::floating_point T>
struct LstmParametersOperations {
    LstmParameters<T>* (*copy)(const LstmParameters<T>&);
    void (*destroy)(LstmParameters<T>*) noexcept;
    bool (*equal)(const LstmParameters<T>&, const LstmParameters<T>&);
    AnyForecaster (*restore)(const LstmParameters<T>&, const LstmState<T>&, const std::string& source);
    std::optional<AnyForecaster> (*with_state)(const AnyForecaster& prototype, const LstmParameters<T>&, const LstmState<T>&);
};

template <std::floating_point T>
const LstmParametersOperations<T>& lstm_parameters_operations();  // defined in forecast/lstm.hpp

}  // namespace detail

/// LstmParameters<T> as a value (copies copy the weights, == compares them) that does not need the
/// type complete: made from an LstmParameters<T> where forecast/lstm.hpp is included, read with `*`
/// and `->` there. A default-constructed box is empty (`empty()`); reading it throws.
template <std::floating_point T>
class LstmParametersBox {
public:
    LstmParametersBox() = default;
    /// Takes `parameters` (implicit, so an LstmModelState is still built as {parameters, state, source}).
    LstmParametersBox(LstmParameters<T> parameters)  // NOLINT(google-explicit-constructor)
        : operations_(&detail::lstm_parameters_operations<T>()), parameters_(operations_->copy(parameters)) {}
    LstmParametersBox(const LstmParametersBox& other)
        : operations_(other.operations_), parameters_(other.parameters_ ? operations_->copy(*other.parameters_) : nullptr) {}
    LstmParametersBox(LstmParametersBox&& other) noexcept
        : operations_(std::exchange(other.operations_, nullptr)), parameters_(std::exchange(other.parameters_, nullptr)) {}
    LstmParametersBox& operator=(LstmParametersBox other) noexcept {
        std::swap(operations_, other.operations_);
        std::swap(parameters_, other.parameters_);
        return *this;
    }
    ~LstmParametersBox() {
        if (parameters_) operations_->destroy(parameters_);
    }

    [[nodiscard]] bool empty() const { return parameters_ == nullptr; }
    /// \throws InvalidArgument when empty.
    [[nodiscard]] const LstmParameters<T>& get() const {
        if (!parameters_) throw InvalidArgument("lstm model state: parameters: empty (no weights)");
        return *parameters_;
    }
    [[nodiscard]] const LstmParameters<T>& operator*() const { return get(); }
    [[nodiscard]] const LstmParameters<T>* operator->() const { return &get(); }

    /// Equal weights, head, window, scaling, target feature and step (two empty boxes are equal).
    friend bool operator==(const LstmParametersBox& a, const LstmParametersBox& b) {
        if (!a.parameters_ || !b.parameters_) return a.parameters_ == b.parameters_;
        return a.operations_->equal(*a.parameters_, *b.parameters_);
    }

    /// Lstm<T>::restore(parameters, state, source), wrapped. \throws InvalidArgument as Lstm::restore, or when empty.
    [[nodiscard]] AnyForecaster restore(const LstmState<T>& state, const std::string& source) const {
        const auto& parameters = get();  // a box that holds parameters has its operations
        return operations_->restore(parameters, state, source);
    }
    /// When `prototype` wraps an Lstm<T>: its with_state(state), after checking that its parameters are
    /// these; nullopt when it wraps something else. \throws InvalidArgument when the parameters differ.
    [[nodiscard]] std::optional<AnyForecaster> with_state(const AnyForecaster& prototype, const LstmState<T>& state) const {
        const auto& parameters = get();
        return operations_->with_state(prototype, parameters, state);
    }

private:
    const detail::LstmParametersOperations<T>* operations_ = nullptr;
    LstmParameters<T>* parameters_ = nullptr;
};

/// An LSTM's state as a member of a ForecasterState: unlike the other models its configuration
/// (weights, head, window, scaling) cannot be rebuilt from a few numbers, so it travels with the
/// state (a Portfolio member or an AnyForecaster is restored from the state alone), with the
/// observation window and the name of the weights' source.
template <std::floating_point T>
struct LstmModelState {
    using Scalar = T;
    LstmParametersBox<T> parameters;  ///< read with `*parameters` / `parameters->window` (include forecast/lstm.hpp)
    LstmState<T> state;
    std::string source = "lstm";

    friend bool operator==(const LstmModelState& a, const LstmModelState& b) {
        return a.state == b.state && a.source == b.source && a.parameters == b.parameters;
    }
};

}  // namespace continuum::forecast
