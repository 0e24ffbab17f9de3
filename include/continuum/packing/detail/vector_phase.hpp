// Internal: a share of a call's budget for one phase of the vector exact solver (the root LP, the
// dive). ColumnGeneration holds its BudgetTracker by reference; for vectors that reference is a
// phase's tracker, re-armed with a share of what is left before each phase, and the nodes it counted
// are charged to the call's tracker when the phase ends, so node limits and deadlines still hold.
#pragma once

#include <continuum/core/budget.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>

namespace continuum::packing::detail {

template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicVectorPhase {
public:
    /// `budget` is the call's budget, `started` when the call began (read only with a deadline).
    BasicVectorPhase(const Budget& budget, std::chrono::steady_clock::time_point started) : budget_(budget), phase_(budget) {
        if (budget.time_limit) deadline_ = started + *budget.time_limit;
    }

    [[nodiscard]] BudgetTracker& tracker() { return phase_; }

    /// Arms the phase with `share` of the call's budget (nodes and time), never more than `whole` has left.
    void begin(double share, const BudgetTracker& whole) {
        const auto left = std::max<std::int64_t>(1, budget_.node_limit - whole.nodes());
        const auto nodes = std::clamp<std::int64_t>(static_cast<std::int64_t>(static_cast<double>(budget_.node_limit) * share), 1, left);
        std::optional<Duration> time;
        if (deadline_) time = std::min(time_until(*deadline_), std::chrono::duration_cast<Duration>(*budget_.time_limit * share));
        arm(nodes, time);
    }

    /// Arms the phase with all that `whole` has left but `reserve` (a share of the call's budget, nodes
    /// and time), and at least one node: so a later phase keeps its share.
    void begin_leaving(double reserve, const BudgetTracker& whole) {
        const auto kept = static_cast<std::int64_t>(static_cast<double>(budget_.node_limit) * reserve);
        const auto nodes = std::max<std::int64_t>(1, budget_.node_limit - whole.nodes() - kept);
        std::optional<Duration> time;
        if (deadline_) time = time_until(*deadline_ - std::chrono::duration_cast<std::chrono::steady_clock::duration>(*budget_.time_limit * reserve));
        arm(nodes, time);
    }

    /// Charges the nodes the phase counted to `whole`. True when the phase ran out of its share
    /// (rather than finishing its work).
    bool end(BudgetTracker& whole) {
        const bool cut = phase_.exhausted();
        for (std::int64_t i = 0; i < phase_.nodes(); ++i) whole.count();
        phase_ = BudgetTracker(Budget{});
        return cut;
    }

private:
    using TimePoint = std::chrono::steady_clock::time_point;

    /// The time from now to `end`, or zero when it has passed.
    static Duration time_until(TimePoint end) {
        const auto now = std::chrono::steady_clock::now();
        return end > now ? std::chrono::duration_cast<Duration>(end - now) : Duration{0};
    }

    /// Starts a phase of `nodes` and `time` (none without a deadline).
    void arm(std::int64_t nodes, std::optional<Duration> time) {
        Budget part;
        part.node_limit = nodes;
        part.time_limit = time;
        phase_ = BudgetTracker(part);
    }

    Budget budget_;
    BudgetTracker phase_;
    std::optional<TimePoint> deadline_;
};
using VectorPhase = BasicVectorPhase<>;

}  // namespace continuum::packing::detail
