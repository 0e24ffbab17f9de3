// Tests of policy/policy.hpp, policy/utility.hpp and policy/selector.hpp: built-ins, the utility
// formula on hand-computed states, selector precedence and time windows, utility maximisation.
#include <continuum/policy.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <string>

using namespace continuum;
using namespace continuum::policy;
using std::chrono::hours;
using std::chrono::minutes;

TEST_CASE("built-in policies: the paper's two pools") {
    const Policy cost = cost_saving();
    const Policy perf = performance();
    CHECK_NOTHROW(cost.validate());
    CHECK_NOTHROW(perf.validate());
    CHECK(cost.name == "COST_SAVING");
    CHECK(cost.node_type.name == "e2-medium");
    CHECK(cost.node_pool == "mas-h2-staging-pool");
    CHECK(cost.node_type.capacity == Resources{{"cpu", "2"}, {"memory", "4Gi"}});
    CHECK(perf.name == "PERFORMANCE");
    CHECK(perf.node_type.name == "n2-standard-2");
    CHECK(perf.node_pool == "performance-pool");
    CHECK(perf.min_replicas == 2);
    CHECK(perf.target_utilization == 0.4);
    CHECK(perf.node_type.cost > cost.node_type.cost);
}

TEST_CASE("policy validation names the field") {
    Policy p = cost_saving();
    p.target_utilization = 0.0;
    CHECK_THROWS_WITH_AS(p.validate(), doctest::Contains("target_utilization"), InvalidArgument);
    p = cost_saving();
    p.min_replicas = 5;
    p.max_replicas = 4;
    CHECK_THROWS_WITH_AS(p.validate(), doctest::Contains("max_replicas"), InvalidArgument);
    p = cost_saving();
    p.weights.cost = -1;
    CHECK_THROWS_WITH_AS(p.validate(), doctest::Contains("weights.cost"), InvalidArgument);
    p = cost_saving();
    p.node_type.capacity = Resources{{"memory", "4Gi"}};
    CHECK_THROWS_AS(p.validate(), InvalidArgument);
}

TEST_CASE("utility U(S|P) on hand-computed states") {
    // COST_SAVING: demand 4 cores, 4 cores requested, 4 e2-medium at 0.0335/h, 2 replicas.
    // perf = min(1, 4 x 0.8 / 4) = 0.8; cost = 0.134; res = 1; U = 0.3 x 0.8 - 0.7 x 0.134 = 0.1462.
    const auto a = Utility{}.evaluate({4.0, 4.0, 0.134, 2}, cost_saving());
    CHECK(a.performance == doctest::Approx(0.8));
    CHECK(a.cost == doctest::Approx(0.134));
    CHECK(a.resilience == doctest::Approx(1.0));
    CHECK(a.utility == doctest::Approx(0.1462));
    // PERFORMANCE: 10 cores requested at 40 % cover 4 cores: perf 1; 5 n2 at 0.0971/h; 2 replicas.
    // U = 0.6 - 0.2 x 0.4855 + 0.2 = 0.7029.
    const auto b = Utility{}.evaluate({4.0, 10.0, 0.4855, 2}, performance());
    CHECK(b.performance == doctest::Approx(1.0));
    CHECK(b.utility == doctest::Approx(0.7029));
    // One replica under PERFORMANCE's floor of 2: res = 0.5.
    CHECK(Utility{}.evaluate({4.0, 10.0, 0.4855, 1}, performance()).resilience == doctest::Approx(0.5));
    // No demand: full performance; no capacity for positive demand: zero.
    CHECK(utility({0.0, 0.0, 0.0, 1}, cost_saving()) == doctest::Approx(0.3));
    CHECK(Utility{}.evaluate({2.0, 0.0, 0.0, 0}, cost_saving()).performance == 0.0);
    // Shared weights override the policy's own.
    const auto shared = Utility{UtilityWeights{1.0, 1.0, 0.0}}.evaluate({4.0, 4.0, 0.134, 2}, cost_saving());
    CHECK(shared.utility == doctest::Approx(0.8 - 0.134));
    CHECK_THROWS_AS((void)Utility{}.evaluate({-1.0, 0.0, 0.0, 0}, cost_saving()), InvalidArgument);
    CHECK_THROWS_AS((Utility{UtilityWeights{-1.0, 0.0, 0.0}}), InvalidArgument);
}

TEST_CASE("selector precedence: override, signals, time windows, default") {
    PolicySelector selector({cost_saving(), performance()}, "COST_SAVING");
    selector.add_signal_rule({"flash_sale", "on", "PERFORMANCE"});
    selector.add_time_window({"PERFORMANCE", hours(9), hours(17), hours(24)});

    SelectionContext night;
    night.now = Time{hours(24 * 3 + 2)};  // 02:00 on day 3
    auto s = selector.select(night);
    CHECK(s.policy == "COST_SAVING");
    CHECK(s.source == SelectionSource::default_policy);

    SelectionContext day = night;
    day.now = Time{hours(24 * 3 + 9)};  // 09:00 sharp: inside [9, 17)
    CHECK(selector.select(day).policy == "PERFORMANCE");
    CHECK(selector.select(day).source == SelectionSource::time_window);
    day.now = Time{hours(24 * 3 + 17)};  // 17:00: outside
    CHECK(selector.select(day).policy == "COST_SAVING");

    SelectionContext sale = night;
    sale.signals["flash_sale"] = "on";
    s = selector.select(sale);
    CHECK(s.policy == "PERFORMANCE");
    CHECK(s.source == SelectionSource::signal);
    sale.signals["flash_sale"] = "off";
    CHECK(selector.select(sale).policy == "COST_SAVING");

    SelectionContext forced = sale;
    forced.signals["flash_sale"] = "on";
    forced.override_policy = "COST_SAVING";
    s = selector.select(forced);
    CHECK(s.policy == "COST_SAVING");
    CHECK(s.source == SelectionSource::override_policy);
    forced.override_policy = "TURBO";
    CHECK_THROWS_WITH_AS((void)selector.select(forced), doctest::Contains("TURBO"), InvalidArgument);
}

TEST_CASE("selector time windows wrap around the period, negative times work") {
    PolicySelector selector({cost_saving(), performance()}, "PERFORMANCE");
    selector.add_time_window({"COST_SAVING", hours(22), hours(6), hours(24)});
    SelectionContext c;
    c.now = Time{hours(23)};
    CHECK(selector.select(c).policy == "COST_SAVING");
    c.now = Time{hours(5) + minutes(59)};
    CHECK(selector.select(c).policy == "COST_SAVING");
    c.now = Time{hours(6)};
    CHECK(selector.select(c).policy == "PERFORMANCE");
    c.now = Time{-hours(1)};  // 23:00 the day before the epoch
    CHECK(selector.select(c).policy == "COST_SAVING");
    CHECK_THROWS_AS(selector.add_time_window({"COST_SAVING", hours(1), hours(25), hours(24)}), InvalidArgument);
    CHECK_THROWS_AS(selector.add_time_window({"NOPE", hours(1), hours(2), hours(24)}), InvalidArgument);
}

TEST_CASE("selector maximises utility when no rule applies") {
    PolicySelector selector({cost_saving(), performance()}, "COST_SAVING");
    selector.maximize_utility(true, UtilityWeights{1.0, 1.0, 0.0});
    const auto state_of = [](const Policy& p) -> UtilityState {
        // Demand of 4 cores; each policy sizes for its own target.
        if (p.name == "COST_SAVING") return {4.0, 5.0, 0.1005, 3};   // 3 nodes
        return {4.0, 10.0, 0.4855, 5};                                // 5 nodes
    };
    SelectionContext c;
    auto s = selector.select(c, state_of);
    // COST_SAVING: perf min(1, 5 x 0.8 / 4) = 1, U = 1 - 0.1005; PERFORMANCE: 1 - 0.4855.
    CHECK(s.policy == "COST_SAVING");
    CHECK(s.source == SelectionSource::utility);
    REQUIRE(s.utilities.size() == 2);
    CHECK(s.utilities[0] == doctest::Approx(0.8995));
    CHECK(s.utilities[1] == doctest::Approx(0.5145));
    // Under-provisioned COST_SAVING plan loses: perf = 2 x 0.8 / 4 = 0.4.
    s = selector.select(c, [](const Policy& p) -> UtilityState {
        if (p.name == "COST_SAVING") return {4.0, 2.0, 0.0335, 1};
        return {4.0, 10.0, 0.4855, 5};
    });
    CHECK(s.policy == "PERFORMANCE");
    // The rules-only overload never evaluates.
    CHECK(selector.select(c).source == SelectionSource::default_policy);
}

TEST_CASE("selector construction errors") {
    CHECK_THROWS_AS(PolicySelector({}, "x"), InvalidArgument);
    CHECK_THROWS_AS(PolicySelector({cost_saving(), cost_saving()}, "COST_SAVING"), InvalidArgument);
    CHECK_THROWS_AS(PolicySelector({cost_saving()}, "PERFORMANCE"), InvalidArgument);
    Policy clash = performance();
    clash.node_pool = cost_saving().node_pool;  // same pool, different capacity
    CHECK_THROWS_WITH_AS(PolicySelector({cost_saving(), clash}, "COST_SAVING"), doctest::Contains("share pool"), InvalidArgument);
}
