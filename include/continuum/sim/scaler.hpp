// The one small concept every scaler plugs into the simulator through: observe a Snapshot, return a
// Decision. Also a type-erased AnyScaler (runtime choice, Python callables), a period wrapper (HPA
// every 15 s, CA every 10 s) and a combinator running two scalers in the same tick (HPA + CA).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/time.hpp>
#include <continuum/sim/decision.hpp>
#include <continuum/sim/snapshot.hpp>

#include <concepts>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace continuum::sim {

/// A scaler under simulation: `decide(snapshot)` is called once per tick (time is in the snapshot)
/// and may keep state between calls.
template <typename S>
concept Scaler = requires(S s, const Snapshot& snapshot) {
    { s.decide(snapshot) } -> std::convertible_to<Decision>;
};

/// Any callable Snapshot -> Decision.
class AnyScaler {
public:
    AnyScaler() = default;
    template <Scaler S>
        requires(!std::is_same_v<std::remove_cvref_t<S>, AnyScaler>)
    AnyScaler(S scaler)  // NOLINT(google-explicit-constructor): wrapping is the point
        : decide_([s = std::move(scaler)](const Snapshot& snapshot) mutable { return Decision(s.decide(snapshot)); }) {}
    explicit AnyScaler(std::function<Decision(const Snapshot&)> decide) : decide_(std::move(decide)) {}

    /// \throws InvalidArgument when empty.
    Decision decide(const Snapshot& snapshot) {
        if (!decide_) throw InvalidArgument("AnyScaler: no scaler wrapped");
        return decide_(snapshot);
    }

private:
    std::function<Decision(const Snapshot&)> decide_;
};

/// Runs `scaler` at most once per `period` (its control-loop interval), returning nothing between.
template <Scaler S>
class Periodic {
public:
    /// \throws InvalidArgument when period <= 0.
    Periodic(S scaler, Duration period) : scaler_(std::move(scaler)), period_(period) {
        if (period.count() <= 0) throw InvalidArgument(continuum::detail::message("Periodic: period must be > 0, got {} ms", period.count()));
    }
    Decision decide(const Snapshot& snapshot) {
        if (last_ && snapshot.now - *last_ < period_) return {};
        last_ = snapshot.now;
        return scaler_.decide(snapshot);
    }
    S& inner() { return scaler_; }

private:
    S scaler_;
    Duration period_;
    std::optional<Time> last_;
};

/// Two scalers in one tick, first then second; decisions are merged (e.g. HPA for replicas and a
/// cluster autoscaler for nodes).
template <Scaler A, Scaler B>
class Combined {
public:
    Combined(A first, B second) : first_(std::move(first)), second_(std::move(second)) {}
    Decision decide(const Snapshot& snapshot) {
        Decision out = first_.decide(snapshot);
        out.merge(second_.decide(snapshot));
        return out;
    }
    A& first() { return first_; }
    B& second() { return second_; }

private:
    A first_;
    B second_;
};

}  // namespace continuum::sim
