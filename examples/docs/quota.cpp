// docs/quota.md: quota levels, Algorithm 2 (reactive: a failed deployment), Algorithm 1
// (proactive: a predicted decrease) and the hybrid scaler over a namespace's usage history.
#include <continuum/forecast/drift.hpp>
#include <continuum/quota.hpp>

#include <chrono>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "check.hpp"

int main() {
    using namespace continuum;
    using std::chrono::minutes;
    const auto cpu = [](const char* q) { return Resources{{"cpu", q}}; };

    const auto levels = quota::QuotaLevels::parse("cpu", {"20", "40", "60", "80", "100"});  // millicores
    CHECK(levels.snap_up(77'000) == 80'000 && levels.snap_up(42'000) == 60'000);

    // Algorithm 2: the deployment needs 120 cpu under a quota of 100 and only 4 are free: case 3,
    // resume waiting nodes covering the other 16.
    const std::vector<capacity::WaitingNode> pool{{"wn-1", cpu("8"), std::chrono::seconds(30), 1.0},
                                                  {"wn-2", cpu("8"), std::chrono::seconds(30), 1.0},
                                                  {"wn-3", cpu("16"), std::chrono::seconds(90), 1.5}};
    const auto r = quota::reactive_quota_step({cpu("120"), cpu("100"), cpu("4"), pool});
    fmt::print("reactive: case {}, {}\n", r.case_number(), r.reason);
    CHECK(r.case_number() == 3 && r.new_quota == cpu("120"));
    CHECK(r.nodes_to_activate() == std::vector<std::string>{"wn-3"});  // fewest nodes

    // Algorithm 1: 77 cpu predicted under a quota of 100; usage 78 already fits the snapped target.
    quota::ProactiveConfig config;
    config.levels.set("cpu", levels);
    quota::ProactiveQuotaScaler proactive(config);
    const auto d = proactive.decide({Time{minutes(0)}, Resources::from_cores(77.0), cpu("100"), cpu("78"), cpu("120"), pool, {}});
    fmt::print("proactive: {} -> {} ({})\n", quota::to_string(d.action), d.new_quota, d.reason);
    CHECK(d.action == quota::ProactiveAction::lower_quota && d.new_quota == cpu("80"));

    // Hybrid: usage history -> Drift forecast -> quota, once min_history observations exist.
    quota::HybridConfig hybrid_config;
    hybrid_config.min_history = 3;
    quota::HybridQuotaScaler<forecast::Drift> hybrid(forecast::Drift{}, hybrid_config);
    hybrid.add_namespace("shop", 10);
    quota::HybridDecision decision;
    Resources shop_quota = cpu("50");
    for (int minute = 0; minute < 3; ++minute) {
        const std::vector<quota::NamespaceSnapshot> namespaces{
            {"shop", Resources::from_cores(40.0 + 5.0 * minute), shop_quota, {}}};  // 40, 45, 50 cpu
        decision = hybrid.tick({Time{minutes(minute)}, cpu("100"), {}, {}}, namespaces);
        shop_quota = decision.namespaces[0].quota;
        fmt::print("minute {}: {}\n", minute, decision.namespaces[0].reason());
    }
    CHECK(decision.namespaces[0].quota == cpu("55"));  // drift: 50 + 5 one minute ahead
}
