// docs/policy.md: score a cluster state under a policy, then let the selector pick the active
// policy from the context (override > signal > time window > utility > default).
#include <continuum/policy.hpp>

#include <chrono>
#include <cmath>

#include <fmt/core.h>

#include "check.hpp"

int main() {
    using namespace continuum::policy;
    using std::chrono::hours;

    // COST_SAVING (weights 0.3 perf, 0.7 cost): 4 cores demanded, 4 requested, 0.134 $/h, 2 replicas.
    const double u = utility(UtilityState{.demand_cores = 4.0, .capacity_cores = 4.0, .cost = 0.134, .replicas = 2},
                             cost_saving());
    fmt::print("U = 0.3 * 0.8 - 0.7 * 0.134 = {:.4f}\n", u);
    CHECK(std::abs(u - 0.1462) < 1e-12);

    PolicySelector selector({cost_saving(), performance()}, "COST_SAVING");
    selector.add_signal_rule({"flash_sale", "on", "PERFORMANCE"})
        .add_time_window({"PERFORMANCE", hours(9), hours(17)});  // office hours, every 24 h

    SelectionContext context;
    context.now = continuum::Time{hours(10)};
    const auto at_ten = selector.select(context);
    context.now = continuum::Time{hours(20)};
    const auto at_eight_pm = selector.select(context);
    context.signals["flash_sale"] = "on";
    const auto flash_sale = selector.select(context);
    fmt::print("10:00 -> {} ({})\n20:00 -> {} ({})\nflash sale -> {} ({})\n", at_ten.policy, at_ten.reason,
               at_eight_pm.policy, at_eight_pm.reason, flash_sale.policy, flash_sale.reason);
    CHECK(at_ten.policy == "PERFORMANCE" && at_ten.source == SelectionSource::time_window);
    CHECK(at_eight_pm.policy == "COST_SAVING" && at_eight_pm.source == SelectionSource::default_policy);
    CHECK(flash_sale.policy == "PERFORMANCE" && flash_sale.source == SelectionSource::signal);
}
