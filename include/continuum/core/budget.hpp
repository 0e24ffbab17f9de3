// Budgets for anything that can be slow (exact packing, parameter fitting): a limit on explored
// nodes or iterations and an optional wall-clock deadline. Reading std::chrono::steady_clock to
// enforce a caller's deadline is the one place continuum looks at a clock (DESIGN.md).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/time.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>

#include <fmt/format.h>

namespace continuum {

/// How much work a bounded algorithm may do. Defaults: 10 million nodes, no deadline.
struct Budget {
    /// Explored search nodes / iterations / function evaluations, algorithm-defined. Must be >= 1.
    std::int64_t node_limit = 10'000'000;
    /// Wall-clock limit measured with steady_clock from the start of the call; nullopt = none.
    std::optional<Duration> time_limit;

    /// \throws InvalidArgument when node_limit < 1 or time_limit is negative.
    void validate() const {
        if (node_limit < 1) throw InvalidArgument(continuum::detail::message("budget.node_limit must be >= 1, got {}", node_limit));
        if (time_limit && time_limit->count() < 0) {
            throw InvalidArgument(continuum::detail::message("budget.time_limit must be >= 0 ms, got {} ms", time_limit->count()));
        }
    }
};

/// Default deadline of the calls a scaler makes every tick (cheapest_node_mix, plan_scale_out, the
/// hierarchical scaler's exact node planner): they return their best answer and an honest bound
/// when it passes. 10 ms: on the per-tick sweep (benchmarks/bench_node_mix: 1..200 identical pods
/// and mixes of 2-5 pod shapes over three node-type sets) every call proves its optimum within a
/// few ms of CPU, so the deadline is a safety net for larger inputs; with the uninterruptible
/// heuristics and a loaded host (2 cores at load 10) a call still ends well within 50 ms.
inline constexpr Duration per_tick_deadline{10};

/// The default budget of a per-tick call: the default node limit and per_tick_deadline.
inline Budget per_tick_budget() {
    Budget budget;
    budget.time_limit = per_tick_deadline;
    return budget;
}

/// Tracks a Budget during one call: count() each explored node, and stop when exhausted().
/// The clock is read only every 1024 counted nodes, so checking is cheap in inner loops.
class BudgetTracker {
public:
    explicit BudgetTracker(const Budget& budget) : budget_(budget) {
        budget.validate();
        if (budget.time_limit) deadline_ = std::chrono::steady_clock::now() + *budget.time_limit;
    }

    /// Counts one node; returns false once the budget is exhausted.
    bool count() {
        ++nodes_;
        if (nodes_ >= budget_.node_limit) exhausted_ = true;
        if (deadline_ && (nodes_ & 1023) == 0 && std::chrono::steady_clock::now() >= *deadline_) exhausted_ = true;
        return !exhausted_;
    }
    /// True once the node limit or the deadline was reached (deadline checked now).
    [[nodiscard]] bool exhausted() {
        if (!exhausted_ && deadline_ && std::chrono::steady_clock::now() >= *deadline_) exhausted_ = true;
        return exhausted_;
    }
    [[nodiscard]] std::int64_t nodes() const { return nodes_; }

private:
    Budget budget_;
    std::optional<std::chrono::steady_clock::time_point> deadline_;
    std::int64_t nodes_ = 0;
    bool exhausted_ = false;
};

}  // namespace continuum
