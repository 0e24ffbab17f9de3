// Tests for quota/proactive.hpp: Algorithm 1 by hand. Predicted increase (fits, needs waiting
// nodes, infeasible); predicted decrease snapped with the paper's levels (77 -> 80, 42 -> 60,
// 19 -> 20) and applied only once usage has come down (explicit state, time passed in); the
// paper's consolidation example (3 + 4 units on two nodes of capacity 10 -> one node).
#include <continuum/quota/proactive.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace continuum;
using namespace std::chrono_literals;
using capacity::WaitingNode;
using quota::DecreaseCondition;
using quota::ProactiveAction;
using quota::ProactiveConfig;
using quota::ProactiveQuotaScaler;
using quota::ProactiveSnapshot;
using quota::QuotaLevels;

namespace {

ProactiveConfig paper_proactive_config() {
    ProactiveConfig config;
    config.levels.set("cpu", QuotaLevels::parse("cpu", {"20", "40", "60", "80", "100"}));
    return config;
}

Resources cpu_quantity(std::string_view q) { return Resources{{"cpu", q}}; }

ProactiveSnapshot snapshot(Time now, std::string_view prediction, std::string_view quota, std::string_view usage, std::string_view cluster,
                           std::span<const WaitingNode> pool = {}) {
    return ProactiveSnapshot{now, cpu_quantity(prediction), cpu_quantity(quota), cpu_quantity(usage), cpu_quantity(cluster), pool, {}};
}

}  // namespace

TEST_CASE("predicted increase that the cluster backs: quota = prediction, not snapped") {
    ProactiveQuotaScaler scaler(paper_proactive_config());
    const auto d = scaler.decide(snapshot(0ms, "110", "100", "95", "120"));
    CHECK(d.action == ProactiveAction::raise_quota);
    CHECK(d.new_quota == cpu_quantity("110"));
    CHECK(d.nodes_to_activate().empty());
    CHECK(d.reason.rfind("raise_quota: ", 0) == 0);
    // Forecasts enter through the one rounding-up door: 77.0001 cores -> 77001m.
    const auto e = scaler.decide(ProactiveSnapshot{1ms, Resources::from_cores(77.0001), cpu_quantity("60"), cpu_quantity("50"), cpu_quantity("120"), {}, {}});
    CHECK(e.new_quota.cpu_millis() == 77'001);
}

TEST_CASE("predicted increase beyond the cluster: resume waiting nodes, then raise the quota") {
    const std::vector<WaitingNode> pool = {
        WaitingNode{"wwn-a", cpu_quantity("8"), 30s, 1.0},
        WaitingNode{"wwn-b", cpu_quantity("8"), 30s, 1.0},
        WaitingNode{"wwn-c", cpu_quantity("8"), 30s, 1.0},
    };
    ProactiveQuotaScaler scaler(paper_proactive_config());
    // Shortfall = 115 - 100 = 15 CPUs -> CalculateRequiredNodes = 2 nodes of 8.
    const auto d = scaler.decide(snapshot(0ms, "115", "100", "95", "100", pool));
    CHECK(d.action == ProactiveAction::activate_and_raise_quota);
    CHECK(d.nodes_to_activate() == std::vector<std::string>{"wwn-a", "wwn-b"});
    CHECK(d.new_quota == cpu_quantity("115"));
    CHECK(d.reason.find("exceeds the cluster resources {cpu: 100} by {cpu: 15}") != std::string::npos);
    // 130 needs 30 > 24 waiting: infeasible, nothing changes.
    const auto e = scaler.decide(snapshot(1ms, "130", "100", "95", "100", pool));
    CHECK(e.action == ProactiveAction::infeasible);
    CHECK(e.new_quota == cpu_quantity("100"));
    CHECK(e.still_missing == cpu_quantity("6"));
    CHECK(e.nodes_to_activate().empty());
    // One "infeasible:" prefix, the action's.
    CHECK(e.reason ==
          "infeasible: predicted increase to {cpu: 130} exceeds the cluster resources {cpu: 100} by {cpu: 30} and resuming all 3 waiting "
          "nodes still leaves {cpu: 6} missing; quota unchanged");
}

TEST_CASE("predicted decrease: the paper's levels, 77 -> 80, 42 -> 60, 19 -> 20") {
    for (const auto& example : {std::pair{"77", "80"}, std::pair{"42", "60"}, std::pair{"19", "20"}}) {
        const std::string_view prediction = example.first;
        const std::string_view expected = example.second;
        ProactiveQuotaScaler scaler(paper_proactive_config());
        const auto d = scaler.decide(snapshot(0ms, prediction, "100", prediction, "100"));
        CAPTURE(prediction);
        CHECK(d.action == ProactiveAction::lower_quota);
        CHECK(d.new_quota == cpu_quantity(expected));
        CHECK_FALSE(scaler.pending().has_value());
    }
}

TEST_CASE("WaitUntilActualDemandDecreases: the decrease waits for usage, as explicit state") {
    ProactiveQuotaScaler scaler(paper_proactive_config());
    // Predicted 77 but the namespace still uses 90: wait, quota unchanged, target 80 pending.
    auto d = scaler.decide(snapshot(0ms, "77", "100", "90", "100"));
    CHECK(d.action == ProactiveAction::wait_for_usage_decrease);
    CHECK(d.new_quota == cpu_quantity("100"));
    CHECK(d.target_quota == cpu_quantity("80"));
    REQUIRE(scaler.pending().has_value());
    CHECK(scaler.pending()->target == cpu_quantity("80"));
    CHECK(scaler.pending()->since == 0ms);
    CHECK(d.reason.find("waits until usage") != std::string::npos);
    // A minute later usage is 78 <= 80: lower to 80.
    d = scaler.decide(snapshot(60s, "77", "100", "78", "100"));
    CHECK(d.action == ProactiveAction::lower_quota);
    CHECK(d.new_quota == cpu_quantity("80"));
    CHECK_FALSE(scaler.pending().has_value());
    // Prediction back at the quota: hold.
    d = scaler.decide(snapshot(120s, "80", "80", "78", "100"));
    CHECK(d.action == ProactiveAction::hold);
    CHECK(d.new_quota == cpu_quantity("80"));
}

TEST_CASE("a hold time: usage must stay down for decrease_hold without interruption") {
    ProactiveConfig config = paper_proactive_config();
    config.decrease_hold = 60s;
    ProactiveQuotaScaler scaler(config);
    CHECK(scaler.decide(snapshot(0s, "42", "100", "50", "100")).action == ProactiveAction::wait_for_usage_decrease);
    CHECK(scaler.pending()->condition_since == 0s);
    CHECK(scaler.decide(snapshot(30s, "42", "100", "55", "100")).action == ProactiveAction::wait_for_usage_decrease);
    CHECK(scaler.decide(snapshot(40s, "42", "100", "65", "100")).action == ProactiveAction::wait_for_usage_decrease);  // up again: reset
    CHECK_FALSE(scaler.pending()->condition_since.has_value());
    CHECK(scaler.decide(snapshot(50s, "42", "100", "50", "100")).action == ProactiveAction::wait_for_usage_decrease);
    CHECK(scaler.decide(snapshot(109s, "42", "100", "50", "100")).action == ProactiveAction::wait_for_usage_decrease);
    const auto d = scaler.decide(snapshot(110s, "42", "100", "50", "100"));
    CHECK(d.action == ProactiveAction::lower_quota);
    CHECK(d.new_quota == cpu_quantity("60"));
}

TEST_CASE("the paper's literal line 17 (usage < current quota) is available as an option") {
    ProactiveConfig config = paper_proactive_config();
    config.condition = DecreaseCondition::usage_below_current_quota;
    ProactiveQuotaScaler scaler(config);
    const auto d = scaler.decide(snapshot(0s, "77", "100", "90", "100"));
    CHECK(d.action == ProactiveAction::lower_quota);
    CHECK(d.new_quota == cpu_quantity("80"));
    // Usage at the quota: not below it, wait.
    ProactiveQuotaScaler other(config);
    CHECK(other.decide(snapshot(0s, "77", "100", "100", "100")).action == ProactiveAction::wait_for_usage_decrease);
}

TEST_CASE("a prediction above the top level is reported and used as is, never capped") {
    ProactiveQuotaScaler scaler(paper_proactive_config());
    const auto d = scaler.decide(snapshot(0s, "120", "150", "110", "200"));
    CHECK(d.action == ProactiveAction::lower_quota);
    CHECK(d.new_quota == cpu_quantity("120"));
    CHECK(d.above_top_level == std::vector<std::string>{"cpu"});
    CHECK(d.reason.find("no quota level covers") != std::string::npos);
}

TEST_CASE("a snapped target that would not lower the quota holds") {
    ProactiveQuotaScaler scaler(paper_proactive_config());
    // 79 < 80 but snap_up(79) = 80: nothing to lower.
    const auto d = scaler.decide(snapshot(0s, "79", "80", "70", "100"));
    CHECK(d.action == ProactiveAction::hold);
    CHECK(d.new_quota == cpu_quantity("80"));
    CHECK_FALSE(scaler.pending().has_value());
    // The reason says why, once: the prediction snaps up to the level that is the quota.
    CHECK(d.reason == "hold: prediction {cpu: 79} snaps up to the quota level {cpu: 80}, the current quota; quota unchanged");
}

TEST_CASE("hold reasons name what happened: equal, snapped up to the quota or above it, zero") {
    ProactiveQuotaScaler scaler(paper_proactive_config());
    CHECK(scaler.decide(snapshot(0s, "80", "80", "70", "100")).reason == "hold: prediction {cpu: 80} equals the quota; quota unchanged");
    // The issue's case: a forecast of 14.502 cores under levels 2, 4, 8, 16 and a quota of 16.
    ProactiveConfig config;
    config.levels.set("cpu", QuotaLevels::parse("cpu", {"2", "4", "8", "16"}));
    ProactiveQuotaScaler issue(config);
    CHECK(issue.decide(snapshot(0s, "14502m", "16", "10", "32")).reason ==
          "hold: prediction {cpu: 14502m} snaps up to the quota level {cpu: 16}, the current quota; quota unchanged");
    // A quota between levels (set by hand): 70 snaps up to 80, above the quota of 75.
    CHECK(scaler.decide(snapshot(1s, "70", "75", "60", "100")).reason ==
          "hold: prediction {cpu: 70} snaps up to {cpu: 80} on the quota levels, not below the quota {cpu: 75}; quota unchanged");
    // Without levels a zero prediction would lower the quota to zero, which a quota never is.
    ProactiveQuotaScaler plain(ProactiveConfig{});
    CHECK(plain.decide(snapshot(0s, "0", "8", "0", "16")).reason ==
          "hold: the prediction is zero and a quota is never lowered to zero; quota {cpu: 8} unchanged");
}

TEST_CASE("after lowering, the consolidation plan of the paper: 3 + 4 units on two nodes of 10 -> one node") {
    ProactiveConfig config;
    config.levels.set("cpu", QuotaLevels::parse("cpu", {"10", "20", "30"}));
    ProactiveQuotaScaler scaler(config);
    const std::vector<packing::NodeState> nodes = {
        packing::NodeState{"node-1", cpu_quantity("10"), 1.0, {packing::PlacedPod{"pod-3", cpu_quantity("3"), true}}},
        packing::NodeState{"node-2", cpu_quantity("10"), 1.0, {packing::PlacedPod{"pod-4", cpu_quantity("4"), true}}},
    };
    const auto d = scaler.decide(ProactiveSnapshot{0s, cpu_quantity("7"), cpu_quantity("20"), cpu_quantity("7"), cpu_quantity("20"), {}, nodes});
    CHECK(d.action == ProactiveAction::lower_quota);
    CHECK(d.new_quota == cpu_quantity("10"));
    REQUIRE(d.consolidation.has_value());
    REQUIRE(d.consolidation->nodes_to_release.size() == 1);
    REQUIRE(d.consolidation->moves.size() == 1);
    const auto& released = d.consolidation->nodes_to_release.front();
    CHECK(d.consolidation->moves.front().from == released);
    CHECK(d.consolidation->moves.front().to != released);
    CHECK(d.consolidation->saved_cost == 1.0);
    CHECK(d.reason.find("consolidation") != std::string::npos);
    // No nodes given: no plan.
    ProactiveQuotaScaler bare(config);
    CHECK_FALSE(bare.decide(ProactiveSnapshot{0s, cpu_quantity("7"), cpu_quantity("20"), cpu_quantity("7"), cpu_quantity("20"), {}, {}}).consolidation.has_value());
}

TEST_CASE("several resources: cpu rises while memory waits to fall") {
    ProactiveConfig config;
    config.resources = {"cpu", "memory"};
    config.levels.set("memory", QuotaLevels::parse("memory", {"8Gi", "16Gi", "32Gi"}));
    ProactiveQuotaScaler scaler(config);
    const Resources quota{{"cpu", "10"}, {"memory", "32Gi"}};
    const auto d = scaler.decide(ProactiveSnapshot{0s, Resources{{"cpu", "12"}, {"memory", "10Gi"}}, quota, Resources{{"cpu", "9"}, {"memory", "20Gi"}},
                                                   Resources{{"cpu", "64"}, {"memory", "256Gi"}}, {}, {}});
    CHECK(d.action == ProactiveAction::raise_quota);
    CHECK(d.new_quota == Resources{{"cpu", "12"}, {"memory", "32Gi"}});
    CHECK(d.target_quota == Resources{{"cpu", "10"}, {"memory", "16Gi"}});  // pending memory target
    REQUIRE(scaler.pending().has_value());
}

TEST_CASE("bad input: negative amounts, NaN predictions, unmanaged resources, time going backwards") {
    ProactiveQuotaScaler scaler(paper_proactive_config());
    const auto negative = Resources::from_units({{"cpu", -1}});
    CHECK_THROWS_WITH_AS(scaler.decide(ProactiveSnapshot{0s, negative, cpu_quantity("1"), cpu_quantity("1"), cpu_quantity("1"), {}, {}}), doctest::Contains("prediction"), InvalidArgument);
    CHECK_THROWS_WITH_AS(scaler.decide(ProactiveSnapshot{0s, cpu_quantity("1"), cpu_quantity("1"), negative, cpu_quantity("1"), {}, {}}), doctest::Contains("current_usage"),
                         InvalidArgument);
    CHECK_THROWS_AS((void)Resources::from_cores(std::numeric_limits<double>::quiet_NaN()), InvalidArgument);
    CHECK_THROWS_AS((void)Resources::from_cores(-2.0), InvalidArgument);
    CHECK_THROWS_WITH_AS(scaler.decide(ProactiveSnapshot{0s, Resources{{"memory", "1Gi"}}, cpu_quantity("1"), cpu_quantity("1"), cpu_quantity("1"), {}, {}}),
                         doctest::Contains("manages only [cpu]"), InvalidArgument);
    (void)scaler.decide(snapshot(10s, "50", "50", "40", "100"));
    CHECK_THROWS_WITH_AS(scaler.decide(snapshot(9s, "50", "50", "40", "100")), doctest::Contains("before the previous call"), InvalidArgument);
    ProactiveConfig bad;
    bad.resources = {};
    CHECK_THROWS_AS(ProactiveQuotaScaler{bad}, InvalidArgument);
    bad.resources = {"cpu", "cpu"};
    CHECK_THROWS_AS(ProactiveQuotaScaler{bad}, InvalidArgument);
    bad = ProactiveConfig{};
    bad.decrease_hold = Duration(-1);
    CHECK_THROWS_AS(ProactiveQuotaScaler{bad}, InvalidArgument);
}
