// Tests of packing/disruption_budget.hpp and packing/drain.hpp: the disruption controller's
// arithmetic (counts, percentages rounded up) and the Cluster Autoscaler's drain rules (pods must
// reschedule, budgets shared across removals, a receiving node is kept), with hand-computed cases.
#include <continuum/packing/drain.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

using namespace continuum;
using namespace continuum::packing;

TEST_CASE("disruption budget: desired healthy and disruptions allowed as the disruption controller computes them") {
    DisruptionBudget strict;  // neither field: ready must stay at the desired count
    CHECK(strict.desired_healthy(5) == 5);
    CHECK(strict.disruptions_allowed(5, 5) == 0);
    CHECK(strict.disruptions_allowed(5, 7) == 2);
    DisruptionBudget one{std::nullopt, CountOrPercent::count(1)};
    CHECK(one.desired_healthy(3) == 2);
    CHECK(one.disruptions_allowed(3, 3) == 1);
    CHECK(one.disruptions_allowed(3, 1) == 0);  // never negative
    DisruptionBudget half{CountOrPercent::percentage(50), std::nullopt};
    CHECK(half.desired_healthy(5) == 3);  // 2.5 rounds up
    CHECK(half.disruptions_allowed(5, 4) == 1);
    DisruptionBudget quarter{std::nullopt, CountOrPercent::percentage(25)};
    CHECK(quarter.desired_healthy(10) == 7);  // maxUnavailable ceil(2.5) = 3
    DisruptionBudget two{CountOrPercent::count(2), std::nullopt};
    CHECK(two.desired_healthy(10) == 2);
    DisruptionBudget lots{std::nullopt, CountOrPercent::count(20)};
    CHECK(lots.desired_healthy(5) == 0);
    CHECK(lots.to_string() == "maxUnavailable 20");
    CHECK(half.to_string() == "minAvailable 50%");
    CHECK_THROWS_WITH_AS(DisruptionBudget({CountOrPercent::count(1), CountOrPercent::count(1)}).validate(),
                         "disruption budget: set min_available (1) or max_unavailable (1), not both", InvalidArgument);
    CHECK_THROWS_WITH_AS(DisruptionBudget({CountOrPercent::percentage(120), std::nullopt}).validate(),
                         "disruption budget: min_available must be a count >= 0 or a percentage in [0, 100], got 120%", InvalidArgument);
    CHECK_THROWS_WITH_AS(DisruptionBudget({std::nullopt, CountOrPercent::count(-1)}).validate(),
                         "disruption budget: max_unavailable must be a count >= 0 or a percentage in [0, 100], got -1", InvalidArgument);
}

namespace {
const Resources pod300{{"cpu", "300m"}, {"memory", "100Mi"}};
DrainNode node(std::string name, const char* requested_cpu, bool ready = true) {
    return {std::move(name), Resources{{"cpu", "1"}, {"memory", "1Gi"}}, Resources{{"cpu", requested_cpu}}, ready};
}
}  // namespace

TEST_CASE("drain: pods must reschedule, budgets are shared, a receiving node is kept") {
    // a: two pods of w (600m), b: one pod of w (300m), c: not ready (receives nothing).
    const std::vector<DrainNode> nodes{node("a", "600m"), node("b", "300m"), node("c", "0", false)};
    const std::vector<DrainPod> pods{{0, "w", pod300, true}, {0, "w", pod300, true}, {1, "w", pod300, true}};
    const std::vector<WorkloadAvailability> one{{"w", 3, 3, DisruptionBudget{std::nullopt, CountOrPercent::count(1)}}};
    const std::vector<std::size_t> b_then_a{1, 0};
    auto plan = plan_drains(nodes, pods, one, b_then_a, 2);
    CHECK(plan.removed == std::vector<std::size_t>{1});  // b's pod goes to a (400m free)
    REQUIRE(plan.blocked.size() == 1);
    CHECK(plan.blocked[0] == "a kept: it receives pods from a node removed before it");
    // a first: two evictions exceed maxUnavailable 1; then b still goes.
    const std::vector<std::size_t> a_then_b{0, 1};
    plan = plan_drains(nodes, pods, one, a_then_b, 2);
    CHECK(plan.removed == std::vector<std::size_t>{1});
    CHECK(plan.blocked[0] == "a kept: evicting 2 pods of w exceeds its budget, 1 disruption allowed by maxUnavailable 1 (3 desired, 3 ready)");
    // Default budget with 3 ready of 3 desired: nothing may go.
    const std::vector<WorkloadAvailability> strict{{"w", 3, 3, {}}};
    plan = plan_drains(nodes, pods, strict, b_then_a, 2);
    CHECK(plan.removed.empty());
    CHECK(plan.summary() == "b kept: evicting 1 pod of w exceeds its budget, 0 disruptions allowed by ready >= desired (3 desired, 3 ready); "
                            "a kept: evicting 2 pods of w exceeds its budget, 0 disruptions allowed by ready >= desired (3 desired, 3 ready)");
    // Without a budget (no WorkloadAvailability for w) only room matters: a's 600m fit on b's
    // 700m free, and b then receives, so at most one goes. The not-ready node c is cancelled freely.
    const std::vector<std::size_t> a_b_c{0, 1, 2};
    plan = plan_drains(nodes, pods, {}, a_b_c, 3);
    CHECK(plan.removed == std::vector<std::size_t>{0, 2});
    // max_removals stops early; an unmovable pod blocks its node.
    plan = plan_drains(nodes, pods, {}, a_b_c, 1);
    CHECK(plan.removed == std::vector<std::size_t>{0});
    const std::vector<DrainPod> pinned{{0, "w", pod300, false}, {1, "w", pod300, true}};
    plan = plan_drains(nodes, pinned, {}, a_then_b, 1);
    CHECK(plan.removed == std::vector<std::size_t>{1});
    CHECK(plan.blocked[0] == "a kept: a pod of w cannot move");
    // Room: b full (1000m) cannot take a's pods; b's one pod then fits in a's 400m.
    const std::vector<DrainNode> full{node("a", "600m"), node("b", "1")};
    plan = plan_drains(full, pods, {}, a_then_b, 1);
    CHECK(plan.removed == std::vector<std::size_t>{1});
    CHECK(plan.blocked[0] == "a kept: a pod of w (request {cpu: 300m, memory: 100Mi}) fits on no other ready node");
    // Bad input is named.
    const std::vector<DrainPod> stray{{5, "w", pod300, true}};
    CHECK_THROWS_WITH_AS(plan_drains(nodes, stray, {}, a_then_b, 1), "drain: pods[0].node = 5 but there are 3 nodes", InvalidArgument);
    const std::vector<WorkloadAvailability> twice{{"w", 3, 3, {}}, {"w", 1, 1, {}}};
    CHECK_THROWS_WITH_AS(plan_drains(nodes, pods, twice, a_then_b, 1), "drain: duplicate workload \"w\"", InvalidArgument);
}
