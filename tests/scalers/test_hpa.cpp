// Tests of scalers/hpa_metrics.hpp and scalers/hpa.hpp against the Kubernetes documentation's worked
// examples, hand-computed cases of replica_calculator.go / horizontal.go, and upstream's own test
// tables (replica_calculator_test.go, horizontal_test.go), each row naming the upstream test.
#include <continuum/scalers/hpa.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

using namespace continuum;
using namespace continuum::scalers;
using std::chrono::seconds;

namespace {

/// `n` running, ready pods with the given cpu usage and request (millicores).
std::vector<PodSample> cpu_pods(int n, std::int64_t usage, std::int64_t request) {
    std::vector<PodSample> pods;
    for (int i = 0; i < n; ++i) pods.push_back({"pod-" + std::to_string(i), PodPhase::running, false, true, usage, request});
    return pods;
}

HpaMetric cpu_utilization(std::int64_t target_percent, std::vector<PodSample> pods) {
    HpaMetric m;
    m.name = "cpu";
    m.source = MetricSource::resource;
    m.target_type = TargetType::utilization;
    m.target = target_percent;
    m.pods = std::move(pods);
    return m;
}

HpaMetric pods_average(std::string name, std::int64_t target_milli, std::vector<std::int64_t> values) {
    HpaMetric m;
    m.name = std::move(name);
    m.source = MetricSource::pods;
    m.target_type = TargetType::average_value;
    m.target = target_milli;
    for (std::size_t i = 0; i < values.size(); ++i) m.pods.push_back({"pod-" + std::to_string(i), PodPhase::running, false, true, values[i], 0});
    return m;
}

HpaMetric external_average(std::int64_t target_milli, std::int64_t value_milli, std::int64_t activation = 0) {
    HpaMetric m;
    m.name = "queue_length";
    m.source = MetricSource::external;
    m.target_type = TargetType::average_value;
    m.target = target_milli;
    m.value = value_milli;
    m.activation_threshold = activation;
    return m;
}

ScaleTargetState at(std::int64_t replicas) { return {replicas, replicas, replicas}; }

Time time_at(std::int64_t s) { return Time{seconds(s)}; }

}  // namespace

TEST_CASE("hpa docs: 50 replicas at 90% against a 75% target give 60") {
    const auto p = metric_replicas(cpu_utilization(75, cpu_pods(50, 900, 1000)), at(50));
    CHECK(p.valid);
    CHECK(p.current == 90);
    CHECK(p.usage_ratio == doctest::Approx(1.2));
    CHECK(p.replicas == 60);

    HpaSpec spec;
    spec.min_replicas = 1;
    spec.max_replicas = 100;
    spec.metrics = {cpu_utilization(75, cpu_pods(50, 900, 1000))};
    Hpa hpa(spec);
    const auto d = hpa.decide(at(50), time_at(0));
    CHECK(d.desired_replicas == 60);
    CHECK(d.scale);
    CHECK(d.scaling_limited_reason == "DesiredWithinRange");
}

TEST_CASE("hpa docs: 200m against 100m doubles, 50m halves") {
    CHECK(metric_replicas(pods_average("rps", 100, {200, 200, 200, 200}), at(4)).replicas == 8);
    CHECK(metric_replicas(pods_average("rps", 100, {50, 50, 50, 50}), at(4)).replicas == 2);
    // A controller seeing the HPA for the first time seeds its history with the current count:
    // the halving waits for the 300 s window (recordInitialRecommendation).
    HpaSpec spec;
    spec.max_replicas = 20;
    spec.metrics = {pods_average("rps", 100, {50, 50, 50, 50})};
    Hpa hpa(spec);
    const auto first = hpa.decide(at(4), time_at(0));
    CHECK(first.desired_replicas == 4);
    CHECK(first.stabilization_reason == "ScaleDownStabilized");
    CHECK(hpa.decide(at(4), time_at(300)).desired_replicas == 2);  // the seed at 0 is not After(300 - 300)
    // Without the seed, both at once.
    spec.seed_recommendations = false;
    Hpa unseeded(spec);
    CHECK(unseeded.decide(at(4), time_at(0)).desired_replicas == 2);
}

TEST_CASE("hpa tolerance: 1 +- 0.1 inclusive, per direction configurable") {
    // 110% of target is exactly 1 + 0.1: within (isWithin is inclusive), keep.
    CHECK(metric_replicas(cpu_utilization(50, cpu_pods(4, 55, 100)), at(4)).replicas == 4);
    // 112% -> ratio 1.12 -> ceil(4.48) = 5.
    CHECK(metric_replicas(cpu_utilization(50, cpu_pods(4, 56, 100)), at(4)).replicas == 5);
    // 90% of target: within; 88%: ceil(0.88 x 10) = 9.
    CHECK(metric_replicas(cpu_utilization(50, cpu_pods(10, 45, 100)), at(10)).replicas == 10);
    CHECK(metric_replicas(cpu_utilization(50, cpu_pods(10, 44, 100)), at(10)).replicas == 9);
    // Utilisation is an integer percent: 349m of 500m is 69% (truncated), not 69.8%.
    const auto p = metric_replicas(cpu_utilization(50, cpu_pods(3, 349, 500)), at(3));
    CHECK(p.current == 69);
    CHECK(p.replicas == 5);  // ceil(1.38 x 3) = ceil(4.14)
    // A wider scale-up tolerance (KEP-4951) absorbs the 1.12.
    CHECK(metric_replicas(cpu_utilization(50, cpu_pods(4, 56, 100)), at(4), Tolerances{0.1, 0.15}).replicas == 4);
}

TEST_CASE("hpa missing metrics count as 100% on scale-down and 0% on scale-up") {
    // 4 pods, target 50%: 3 report 40m of 100m, one reports nothing. Ratio 0.8 (scale-down), the
    // missing pod counts as 100% of its request: (120 + 100) / 400 = 55% -> 1.1, within: keep 4.
    auto pods = cpu_pods(4, 40, 100);
    pods[3].value.reset();
    auto p = metric_replicas(cpu_utilization(50, pods), at(4));
    CHECK(p.replicas == 4);
    // Without the missing pod it would have been ceil(0.8 x 3) = 3.
    CHECK(metric_replicas(cpu_utilization(50, cpu_pods(3, 40, 100)), at(3)).replicas == 3);

    // Scale-down that survives: 6 pods, 2 missing, 4 report 10m of 100m: ratio 0.2;
    // adjusted (40 + 200) / 600 = 40% -> 0.8 -> ceil(0.8 x 6) = 5.
    pods = cpu_pods(6, 10, 100);
    pods[4].value.reset();
    pods[5].value.reset();
    p = metric_replicas(cpu_utilization(50, pods), at(6));
    CHECK(p.replicas == 5);

    // Scale-up: 4 report 100m of 100m (200% of 50%), 2 missing count as 0:
    // 400 / 600 = 66% -> 1.32 -> ceil(1.32 x 6) = ceil(7.92) = 8.
    pods = cpu_pods(6, 100, 100);
    pods[4].value.reset();
    pods[5].value.reset();
    p = metric_replicas(cpu_utilization(50, pods), at(6));
    CHECK(p.replicas == 8);

    // Plain metrics: missing pods count as exactly the target on scale-down.
    auto rps = pods_average("rps", 100, {20, 20, 20});
    rps.pods.push_back({"gone", PodPhase::running, false, true, std::nullopt, 0});
    // ratio 0.2; adjusted (60 + 100) / 4 = 40 -> 0.4 -> ceil(1.6) = 2.
    CHECK(metric_replicas(rps, at(4)).replicas == 2);
}

TEST_CASE("hpa unready pods count as 0% on scale-up only") {
    // 1 ready pod using 260m of 100m, 1 unready pod requesting 300m, target 50%:
    // ratio 5.2; adjusted 260 / 400 = 65% -> 1.3 -> ceil(1.3 x 2) = 3 (not ceil(5.2) = 6).
    auto pods = cpu_pods(2, 260, 100);
    pods[1].cpu_ready = false;
    pods[1].request = 300;
    pods[1].value = 280;
    CHECK(metric_replicas(cpu_utilization(50, pods), at(2)).replicas == 3);
    // A pending pod is unready for every metric: same arithmetic.
    pods[1].cpu_ready = true;
    pods[1].phase = PodPhase::pending;
    CHECK(metric_replicas(cpu_utilization(50, pods), at(2)).replicas == 3);
    // On a scale-down unready pods are simply left out: 2 ready at 10% -> ceil(0.2 x 2) = 1.
    pods = cpu_pods(3, 10, 100);
    pods[2].cpu_ready = false;
    pods[2].value = 500;
    CHECK(metric_replicas(cpu_utilization(50, pods), at(3)).replicas == 1);
    // cpu readiness does not apply to memory: the "unready" pod counts as ready there.
    auto memory = cpu_utilization(50, cpu_pods(2, 100, 100));
    memory.name = "memory";
    memory.pods[1].cpu_ready = false;
    CHECK(metric_replicas(memory, at(2)).replicas == 4);  // 200% -> ceil(2 x 2)
    // Deleting and failed pods are ignored altogether.
    pods = cpu_pods(4, 100, 100);
    pods[2].deleting = true;
    pods[3].phase = PodPhase::failed;
    CHECK(metric_replicas(cpu_utilization(50, pods), at(4)).replicas == 4);  // ceil(2 x 2 ready)
}

TEST_CASE("hpa does nothing when the adjusted ratio flips direction") {
    // Scale-down flips: 1 ready at 40% (ratio 0.8), 3 missing as 100%: 340 / 400 = 85% -> 1.7.
    auto pods = cpu_pods(4, 40, 100);
    for (int i = 1; i < 4; ++i) pods[static_cast<std::size_t>(i)].value.reset();
    auto p = metric_replicas(cpu_utilization(50, pods), at(4));
    CHECK(p.replicas == 4);
    CHECK(p.reason.find("flips direction") != std::string::npos);
    // Scale-up flips: 1 ready at 60% (ratio 1.2), 3 missing as 0: 60 / 400 = 15% -> 0.3.
    pods = cpu_pods(4, 60, 100);
    for (int i = 1; i < 4; ++i) pods[static_cast<std::size_t>(i)].value.reset();
    CHECK(metric_replicas(cpu_utilization(50, pods), at(4)).replicas == 4);
    // Unready pods flip it: 2 ready at 60m of 100m (ratio 1.2), 1 unready as 0: 120 / 300 = 40% -> 0.8.
    pods = cpu_pods(3, 60, 100);
    pods[2].cpu_ready = false;
    CHECK(metric_replicas(cpu_utilization(50, pods), at(3)).replicas == 3);
    // The adjusted proposal moves against the ratio: spec says 10 replicas, 3 pods exist, 2 at 100% of
    // 50% (ratio 2), 1 missing as 0: 200 / 300 = 66% -> 1.32 -> ceil(3.96) = 4 < 10: keep 10.
    pods = cpu_pods(3, 100, 100);
    pods[2].value.reset();
    p = metric_replicas(cpu_utilization(50, pods), at(10));
    CHECK(p.replicas == 10);
    CHECK(p.reason.find("against the ratio") != std::string::npos);
}

TEST_CASE("hpa object and external metrics") {
    HpaMetric object;
    object.name = "requests-per-second";
    object.source = MetricSource::object;
    object.target_type = TargetType::value;
    object.target = 10'000;
    object.value = 25'000;
    // ratio 2.5 x 4 ready pods = 10.
    CHECK(metric_replicas(object, {4, 4, 4}).replicas == 10);
    // At 0 replicas: ceil(ratio) (HPAScaleToZero path).
    CHECK(metric_replicas(object, {0, 0, 0}).replicas == 3);
    // External AverageValue: ceil(total / per-pod target) on status replicas.
    CHECK(metric_replicas(external_average(10'000, 95'000), {3, 3, 3}).replicas == 10);
    // Within tolerance of status replicas x target: keep status replicas.
    CHECK(metric_replicas(external_average(10'000, 31'000), {3, 3, 3}).replicas == 3);
    // Unavailable -> invalid.
    object.value.reset();
    CHECK_FALSE(metric_replicas(object, {4, 4, 4}).valid);
}

TEST_CASE("hpa takes the largest proposal, a failed metric blocks only scale-down") {
    HpaSpec spec;
    spec.max_replicas = 50;
    spec.metrics = {cpu_utilization(50, cpu_pods(4, 75, 100)),            // 150% -> 6
                    pods_average("rps", 100, {225, 225, 225, 225})};       // 2.25 -> 9
    Hpa hpa(spec);
    auto d = hpa.decide(at(4), time_at(0));
    CHECK(d.metric_replicas == 9);
    CHECK(d.desired_replicas == 8);  // default scale-up limit: max(4 x 2, 4 + 4) = 8
    CHECK(d.scaling_limited_reason == "ScaleUpLimit");
    CHECK(d.proposals.size() == 2);

    // One metric fails and the other proposes a scale-down: no action.
    spec.metrics = {cpu_utilization(50, cpu_pods(4, 10, 100)), pods_average("rps", 100, {})};
    spec.metrics[1].available = false;
    Hpa blocked(spec);
    d = blocked.decide(at(4), time_at(0));
    CHECK_FALSE(d.scale);
    CHECK(d.desired_replicas == 4);
    CHECK(d.scaling_active_reason == "FailedGetPodsMetric");
    CHECK(d.failed_metric == "rps");
    CHECK(d.able_to_scale_reason == "SucceededGetScale");
    CHECK(d.proposals[1].condition_reason == "FailedGetPodsMetric");
    // ... but a scale-up proceeds.
    spec.metrics[0] = cpu_utilization(50, cpu_pods(4, 75, 100));
    Hpa partial(spec);
    d = partial.decide(at(4), time_at(0));
    CHECK(d.desired_replicas == 6);
    CHECK(d.scaling_active_reason == "ValidMetricFound");  // upstream proceeds, returning the error too
    CHECK(d.failed_metric == "rps");
    CHECK(d.able_to_scale_reason == "SucceededRescale");
}

TEST_CASE("hpa min/max replicas and the disabled target") {
    HpaSpec spec;
    spec.min_replicas = 2;
    spec.max_replicas = 5;
    spec.metrics = {cpu_utilization(50, cpu_pods(4, 500, 100))};  // 1000% -> 40
    Hpa hpa(spec);
    auto d = hpa.decide(at(4), time_at(0));
    CHECK(d.desired_replicas == 5);
    CHECK(d.scaling_limited_reason == "TooManyReplicas");
    d = hpa.decide(at(8), time_at(15));
    CHECK(d.desired_replicas == 5);  // above max: straight to max, no metrics read
    CHECK(d.proposals.empty());
    d = hpa.decide(at(1), time_at(30));
    CHECK(d.desired_replicas == 2);
    d = hpa.decide(at(0), time_at(45));
    CHECK_FALSE(d.scale);
    CHECK(d.scaling_active_reason == "ScalingDisabled");
    CHECK(d.able_to_scale_reason == "SucceededGetScale");
    CHECK(d.scaling_limited_reason.empty());  // this sync leaves ScalingLimited as it was
}

TEST_CASE("hpa scale-down stabilisation: max over the last 300 s") {
    HpaSpec spec;
    spec.max_replicas = 20;
    spec.metrics = {pods_average("rps", 100, std::vector<std::int64_t>(10, 100))};
    Hpa hpa(spec);
    CHECK(hpa.decide(at(10), time_at(0)).desired_replicas == 10);  // at target: records 10
    spec.metrics[0] = pods_average("rps", 100, std::vector<std::int64_t>(10, 50));  // proposes 5
    for (int s = 15; s < 300; s += 15) {
        const auto d = hpa.decide(spec.metrics, at(10), time_at(s));
        CHECK(d.metric_replicas == 5);
        CHECK(d.desired_replicas == 10);
        CHECK(d.able_to_scale_reason == "ScaleDownStabilized");
    }
    // At exactly 300 s the t = 0 sample is no longer After(now - 300 s).
    const auto d = hpa.decide(spec.metrics, at(10), time_at(300));
    CHECK(d.desired_replicas == 5);
    CHECK(d.scale);

    // A spike inside the window holds the replicas up for a full window after it.
    Hpa spiky(spec);
    spiky.decide(spec.metrics, at(5), time_at(0));
    auto high = spec.metrics;
    high[0] = pods_average("rps", 100, std::vector<std::int64_t>(5, 160));  // proposes 8
    CHECK(spiky.decide(high, at(5), time_at(15)).desired_replicas == 8);
    CHECK(spiky.decide(spec.metrics, at(8), time_at(30)).desired_replicas == 8);   // 5 proposed, 8 in the window
    CHECK(spiky.decide(spec.metrics, at(8), time_at(314)).desired_replicas == 8);
    CHECK(spiky.decide(spec.metrics, at(8), time_at(315)).desired_replicas == 5);  // ceil(0.5 x 10 pods)
}

TEST_CASE("hpa docs behaviour example: Pods 4 / Percent 10 per 60 s, 80 -> 10") {
    HpaSpec spec;
    spec.min_replicas = 1;
    spec.max_replicas = 100;
    HpaBehavior behavior;
    behavior.scale_down.policies = {{ScalingPolicyType::pods, 4, seconds(60)}, {ScalingPolicyType::percent, 10, seconds(60)}};
    behavior.scale_down.stabilization_window = seconds(0);
    spec.behavior = behavior;
    spec.metrics = {external_average(1000, 10'000)};  // 10 pods' worth at any replica count
    Hpa hpa(spec);
    const std::vector<std::int64_t> expected = {72, 64, 57, 51, 45, 40, 36, 32, 28, 24, 20, 16, 12, 10};
    std::int64_t replicas = 80;
    std::int64_t now = 0;
    for (const auto next : expected) {
        const auto d = hpa.decide({replicas, replicas, replicas}, time_at(now));
        CHECK(d.desired_replicas == next);
        // Within the same 60 s period nothing more may be removed.
        const auto held = hpa.decide({next, next, next}, time_at(now + 15));
        if (next != 10) {
            CHECK(held.desired_replicas == next);
            CHECK(held.scaling_limited_reason == "ScaleDownLimit");
        }
        replicas = next;
        now += 60;
    }
}

TEST_CASE("hpa default scale-up: max(100%, 4 pods) per 15 s") {
    HpaSpec spec;
    spec.max_replicas = 100;
    spec.metrics = {external_average(1000, 20'000)};  // wants 20
    Hpa hpa(spec);
    CHECK(hpa.decide(at(1), time_at(0)).desired_replicas == 5);   // max(ceil(1 x 2), 1 + 4)
    CHECK(hpa.decide(at(5), time_at(5)).desired_replicas == 5);   // period start 1 -> limit 5
    CHECK(hpa.decide(at(5), time_at(15)).desired_replicas == 10); // event at 0 left the period: max(10, 9)
    CHECK(hpa.decide(at(10), time_at(30)).desired_replicas == 20);
}

TEST_CASE("hpa selectPolicy Min and Disabled, and the legacy path") {
    HpaSpec spec;
    spec.max_replicas = 200;
    HpaBehavior behavior;
    behavior.scale_down.stabilization_window = seconds(0);
    behavior.scale_down.policies = {{ScalingPolicyType::percent, 10, seconds(60)}, {ScalingPolicyType::pods, 5, seconds(60)}};
    behavior.scale_down.select_policy = SelectPolicy::min;
    spec.behavior = behavior;
    spec.metrics = {external_average(1000, 10'000)};
    Hpa min_policy(spec);
    CHECK(min_policy.decide(at(100), time_at(0)).desired_replicas == 95);  // Percent -> 90, Pods -> 95: Min picks 95

    behavior.scale_down.select_policy = SelectPolicy::disabled;
    spec.behavior = behavior;
    Hpa disabled(spec);
    CHECK(disabled.decide(at(100), time_at(0)).desired_replicas == 100);

    behavior = HpaBehavior{};
    behavior.scale_up.select_policy = SelectPolicy::disabled;
    spec.behavior = behavior;
    spec.metrics = {external_average(1000, 50'000)};
    Hpa no_up(spec);
    CHECK(no_up.decide(at(3), time_at(0)).desired_replicas == 3);

    // Without spec.behavior: scale-up limited to max(2 x current, 4) per decision, no memory.
    spec.behavior.reset();
    Hpa legacy(spec);
    CHECK(legacy.decide(at(3), time_at(0)).desired_replicas == 6);
    CHECK(legacy.decide(at(6), time_at(1)).desired_replicas == 12);
    CHECK(legacy.decide(at(1), time_at(2)).desired_replicas == 4);
}

TEST_CASE("keda activation: activation wins over scaling, scale to zero after the cooldown") {
    HpaSpec spec;
    spec.min_replicas = 1;
    spec.max_replicas = 100;
    spec.activation = Activation{seconds(300)};
    // KEDA docs: threshold 10, activationThreshold 50, 40 messages: stays at 0 although the HPA wants 4.
    spec.metrics = {external_average(10'000, 40'000, 50'000)};
    Hpa keda(spec);
    auto d = keda.decide(at(0), time_at(0));
    CHECK_FALSE(d.active);
    CHECK(d.desired_replicas == 0);
    CHECK_FALSE(d.scale);
    // 60 messages: active, 0 -> min replicas.
    auto metrics = spec.metrics;
    metrics[0].value = 60'000;
    d = keda.decide(metrics, at(0), time_at(30));
    CHECK(d.active);
    CHECK(d.desired_replicas == 1);
    // At 1 replica the HPA scales: ceil(60 / 10) = 6, limited to max(2, 1 + 4) = 5.
    d = keda.decide(metrics, at(1), time_at(60));
    CHECK(d.desired_replicas == 5);
    // Inactive but inside the cooldown: the HPA owns it (min 1, stabilised at 5).
    metrics[0].value = 0;
    d = keda.decide(metrics, at(5), time_at(90));
    CHECK_FALSE(d.active);
    CHECK(d.desired_replicas == 5);
    d = keda.decide(metrics, at(5), time_at(360));  // last active at 60: 60 + 300 is not before 360
    CHECK(d.desired_replicas != 0);
    d = keda.decide(metrics, at(5), time_at(361));
    CHECK(d.desired_replicas == 0);
    CHECK(d.reason.find("cooldown") != std::string::npos);
}

TEST_CASE("hpa cpu readiness rule (groupPods)") {
    const auto s = [](std::int64_t x) { return Time{seconds(x)}; };
    // Never had a Ready condition or start time: unready.
    CHECK(cpu_sample_unready(std::nullopt, true, s(0), s(0), seconds(30), s(100)));
    CHECK(cpu_sample_unready(s(0), std::nullopt, s(0), s(0), seconds(30), s(100)));
    // Within the 5 min initialisation: unready if not ready, or the sample window began before readiness.
    CHECK(cpu_sample_unready(s(0), false, s(10), s(100), seconds(30), s(100)));
    CHECK(cpu_sample_unready(s(0), true, s(80), s(100), seconds(30), s(100)));   // 100 < 80 + 30
    CHECK_FALSE(cpu_sample_unready(s(0), true, s(60), s(100), seconds(30), s(100)));
    // After initialisation: unready only if not ready and it never became ready within 30 s of start.
    CHECK(cpu_sample_unready(s(0), false, s(10), s(400), seconds(30), s(400)));
    CHECK_FALSE(cpu_sample_unready(s(0), false, s(120), s(400), seconds(30), s(400)));
    CHECK_FALSE(cpu_sample_unready(s(0), true, s(10), s(400), seconds(30), s(400)));
}

TEST_CASE("hpa rejects bad specs and inputs with named errors") {
    HpaSpec spec;
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);  // no metrics
    spec.metrics = {cpu_utilization(0, {})};
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
    spec.metrics = {cpu_utilization(50, {})};
    spec.min_replicas = 0;  // scale to zero needs an object or external metric
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
    spec.min_replicas = -1;
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
    spec.min_replicas = 5;
    spec.max_replicas = 4;
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
    spec.max_replicas = 10;
    spec.behavior->scale_down.policies.clear();
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
    spec.behavior = HpaBehavior{};
    spec.behavior->scale_up.policies[0].period = seconds(1801);
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
    spec.behavior = HpaBehavior{};
    HpaMetric wrong = pods_average("rps", 100, {1});
    wrong.target_type = TargetType::utilization;
    spec.metrics = {wrong};
    try {
        Hpa bad{spec};
        FAIL("no throw");
    } catch (const InvalidArgument& e) {
        CHECK(std::string(e.what()).find("rps") != std::string::npos);
    }
    spec.metrics = {cpu_utilization(50, cpu_pods(2, 50, 100))};
    Hpa ok(spec);
    ok.decide(at(2), time_at(10));
    CHECK_THROWS_AS(ok.decide(at(2), time_at(5)), InvalidArgument);  // time went backwards
    CHECK_THROWS_AS(ok.decide(at(-1), time_at(20)), InvalidArgument);
    CHECK_THROWS_AS(ok.decide({}, at(2), time_at(20)), InvalidArgument);  // wrong number of metrics
}

TEST_CASE("hpa property: decisions stay within [min, max] and move towards the proposal") {
    std::mt19937_64 rng(20240811);
    std::uniform_int_distribution<int> pods_dist(1, 30);
    std::uniform_int_distribution<std::int64_t> usage_dist(0, 3000);
    for (int trial = 0; trial < 200; ++trial) {
        HpaSpec spec;
        spec.min_replicas = 1 + trial % 3;
        spec.max_replicas = spec.min_replicas + 40;
        spec.metrics = {cpu_utilization(60, {})};
        Hpa hpa(spec);
        std::int64_t replicas = spec.min_replicas;
        for (int step = 0; step < 20; ++step) {
            std::vector<PodSample> pods;
            const int n = static_cast<int>(replicas);
            for (int i = 0; i < n; ++i) {
                PodSample pod{"p", PodPhase::running, false, (rng() % 7) != 0, usage_dist(rng), 500};
                if (rng() % 11 == 0) pod.value.reset();
                if (rng() % 13 == 0) pod.phase = PodPhase::pending;
                pods.push_back(pod);
            }
            (void)pods_dist;
            auto metrics = spec.metrics;
            metrics[0].pods = pods;
            const auto d = hpa.decide(metrics, at(replicas), time_at(step * 15));
            CHECK(d.desired_replicas >= spec.min_replicas);
            CHECK(d.desired_replicas <= spec.max_replicas);
            for (const auto& p : d.proposals) CHECK(std::isfinite(p.usage_ratio));
            if (d.metric_replicas > 0 && d.desired_replicas > replicas) CHECK(d.desired_replicas <= std::max(d.metric_replicas, spec.min_replicas));
            replicas = d.desired_replicas;
        }
    }
}

namespace {

/// Upstream's replica calculator fixtures put 2 containers in every pod (numContainersPerPod), each
/// with the listed request and usage: a pod's request and usage are twice the listed values.
struct CalcCase {
    const char* upstream_test;
    std::int64_t current;
    std::vector<std::int64_t> requests;  // per container, millicores
    std::vector<std::int64_t> levels;    // per container, millicores; fewer than pods = missing
    std::vector<bool> ready;             // empty = all ready
    std::int64_t target_percent;
    Tolerances tolerances;
    std::int64_t expected_replicas;
    std::int64_t expected_utilization;
    std::int64_t expected_value;  // raw average per pod, millicores
};

HpaMetric upstream_cpu(const CalcCase& c) {
    HpaMetric m = cpu_utilization(c.target_percent, {});
    for (std::size_t i = 0; i < c.requests.size(); ++i) {
        PodSample pod{fmt::format("test-pod-{}", i), PodPhase::running, false, c.ready.empty() || c.ready[i], std::nullopt, 2 * c.requests[i]};
        if (i < c.levels.size()) pod.value = 2 * c.levels[i];
        m.pods.push_back(pod);
    }
    m.timestamp = Time{seconds(1'700'000'000)};
    return m;
}

}  // namespace

TEST_CASE("replica_calculator_test.go: resource utilization tables") {
    const Tolerances d{0.1, 0.1};
    const std::vector<CalcCase> cases = {
        {"TestReplicaCalcScaleUp", 3, {1000, 1000, 1000}, {300, 500, 700}, {}, 30, d, 5, 50, 1000},
        {"TestReplicaCalcScaleUpUnreadyLessScale", 3, {1000, 1000, 1000}, {300, 500, 700}, {false, true, true}, 30, d, 4, 60, 1200},
        {"TestReplicaCalcScaleUpUnreadyNoScale", 3, {1000, 1000, 1000}, {400, 500, 700}, {true, false, false}, 30, d, 3, 40, 800},
        {"TestReplicaCalcScaleDown", 5, {1000, 1000, 1000, 1000, 1000}, {100, 300, 500, 250, 250}, {}, 50, d, 3, 28, 560},
        {"TestReplicaCalcScaleDownIgnoresUnreadyPods", 5, {1000, 1000, 1000, 1000, 1000}, {100, 300, 500, 250, 250},
         {true, true, true, false, false}, 50, d, 2, 30, 600},
        {"TestReplicaCalcTolerance", 3, {900, 1000, 1100}, {1010, 1030, 1020}, {}, 100, d, 3, 102, 2040},
        {"TestReplicaCalcConfigurableTolerance/Outside of a 0% tolerance", 3, {900, 1000, 1100}, {909, 1010, 1111}, {}, 100, {0.0, 0.0}, 4, 101, 2020},
        {"TestReplicaCalcConfigurableTolerance/Within a 200% scale-up tolerance", 3, {900, 1000, 1100}, {1890, 1910, 1900}, {}, 100, {0.1, 2.0}, 3, 190, 3800},
        {"TestReplicaCalcConfigurableTolerance/Outside 8% scale-up tolerance", 3, {900, 1000, 1100}, {1100, 1080, 1090}, {}, 100, {2.0, 0.08}, 4, 109, 2180},
        {"TestReplicaCalcConfigurableTolerance/Within a 36% scale-down tolerance", 3, {900, 1000, 1100}, {660, 640, 650}, {}, 100, {0.36, 0.1}, 3, 65, 1300},
        {"TestReplicaCalcConfigurableTolerance/Outside a 34% scale-down tolerance", 3, {900, 1000, 1100}, {660, 640, 650}, {}, 100, {0.34, 0.1}, 2, 65, 1300},
        {"TestReplicaCalcMissingMetrics", 4, {1000, 1000, 1000, 1000}, {400, 95}, {}, 100, d, 3, 24, 495},
        {"TestReplicaCalcMissingMetricsNoChangeEq", 2, {1000, 1000}, {1000}, {}, 100, d, 2, 100, 2000},
        {"TestReplicaCalcMissingMetricsNoChangeGt", 2, {1000, 1000}, {1900}, {}, 100, d, 2, 190, 3800},
        {"TestReplicaCalcMissingMetricsNoChangeLt", 2, {1000, 1000}, {600}, {}, 100, d, 2, 60, 1200},
        {"TestReplicaCalcMissingMetricsUnreadyChange", 3, {1000, 1000, 1000}, {100, 450}, {false, true, true}, 50, d, 3, 45, 900},
        {"TestReplicaCalcMissingMetricsUnreadyScaleUp", 3, {1000, 1000, 1000}, {100, 2000}, {false, true, true}, 50, d, 4, 200, 4000},
        {"TestReplicaCalcMissingMetricsUnreadyScaleDown", 4, {1000, 1000, 1000, 1000}, {100, 100, 100}, {false, true, true, true}, 50, d, 3, 10, 200},
        {"TestReplicaCalcMissingMetricsScaleDownTargetOver100", 4, {1000, 1000, 2000, 2000}, {200, 100, 100}, {false, true, true, true}, 300, d, 2, 6, 200},
        {"TestReplicaCalcDuringRollingUpdateWithMaxSurge", 2, {1000, 1000, 1000}, {100, 100}, {}, 50, d, 2, 10, 200},
        // TestReplicaCalcComputedToleranceAlgImplementation: requests 300m +- jitter, 150m each, target
        // int32((1 / (2 x 0.9) + 0.01) x 100) = 56 -> ceil(50 / 56 x 10) = 9; with + 0.004: 55 -> within.
        {"TestReplicaCalcComputedToleranceAlgImplementation", 10, {400, 200, 310, 290, 302, 298, 301, 299, 300, 300},
         std::vector<std::int64_t>(10, 150), {}, 56, d, 9, 50, 300},
        {"TestReplicaCalcComputedToleranceAlgImplementation (unscaling)", 10, {400, 200, 310, 290, 302, 298, 301, 299, 300, 300},
         std::vector<std::int64_t>(10, 150), {}, 55, d, 10, 50, 300},
    };
    for (const auto& c : cases) {
        CAPTURE(c.upstream_test);
        const auto metric = upstream_cpu(c);
        const auto p = metric_replicas(metric, at(c.current), c.tolerances);
        REQUIRE(p.valid);
        CHECK(p.replicas == c.expected_replicas);
        CHECK(p.average_utilization == c.expected_utilization);
        CHECK(p.average_value == c.expected_value);
        CHECK_FALSE(p.value.has_value());
        CHECK(p.timestamp == metric.timestamp);  // "timestamp should be as expected"
    }
    // TestReplicaCalcDisjointResourcesMetrics' error: requests summing to 0 -> "no metrics returned matched known pods".
    const auto disjoint = metric_replicas(cpu_utilization(100, cpu_pods(1, 100, 0)), at(1));
    CHECK_FALSE(disjoint.valid);
    CHECK(disjoint.reason.find("no metrics returned matched known pods") != std::string::npos);
    CHECK(disjoint.condition_reason == "FailedGetResourceMetric");
    CHECK_FALSE(disjoint.timestamp.has_value());
}

TEST_CASE("replica_calculator_test.go: pods, object and external metric tables") {
    struct Case {
        const char* upstream_test;
        MetricSource source;
        TargetType type;
        std::int64_t current;
        std::vector<std::int64_t> levels;
        std::int64_t target;
        Tolerances tolerances;
        std::int64_t expected_replicas;
        std::int64_t expected_usage;
    };
    const Tolerances d{0.1, 0.1};
    const Tolerances up1{0.1, 0.01};
    const auto pods = MetricSource::pods;
    const auto object = MetricSource::object;
    const auto external = MetricSource::external;
    const auto value = TargetType::value;
    const auto average = TargetType::average_value;
    const std::vector<Case> cases = {
        {"TestReplicaCalcScaleUpCM", pods, average, 3, {20000, 10000, 30000}, 15000, d, 4, 20000},
        {"TestReplicaCalcScaleDownCM", pods, average, 5, {12000, 12000, 12000, 12000, 12000}, 20000, d, 3, 12000},
        {"TestReplicaCalcToleranceCM", pods, average, 3, {20000, 21000, 21000}, 20000, d, 3, 20666},
        {"TestReplicaCalcConfigurableToleranceCM", pods, average, 3, {20000, 21000, 21000}, 20000, up1, 4, 20666},
        {"TestPlainMetricReplicaCalcMissingMetricsNoChangeEq", pods, average, 5, {20000, 19000, 21000, -1, -1}, 20000, d, 5, 20000},
        {"TestReplicaCalcDuringRollingUpdateWithMaxSurgeCM", pods, average, 2, {10000, 10000, -1}, 17000, d, 2, 10000},
        {"TestReplicaCalcScaleUpCMObject", object, value, 3, {20000}, 15000, d, 4, 20000},
        {"TestReplicaCalcScaleDownCMObject", object, value, 5, {12000}, 20000, d, 3, 12000},
        {"TestReplicaCalcToleranceCMObject", object, value, 3, {20666}, 20000, d, 3, 20666},
        {"TestReplicaCalcConfigurableToleranceCMObject", object, value, 3, {20666}, 20000, up1, 4, 20666},
        {"TestReplicaCalcConfigurableTolerancePerPodCMObject", object, average, 4, {20208}, 5000, up1, 5, 5052},
        {"TestReplicaCalcToleranceCMExternal", external, value, 3, {8600}, 8888, d, 3, 8600},
        {"TestReplicaCalcTolerancePerPodCMExternal", external, average, 3, {8600}, 2900, d, 3, 2867},
        {"TestReplicaCalcConfigurableToleranceCMExternal", external, value, 3, {8900}, 8800, up1, 4, 8900},
        {"TestReplicaCalcConfigurableTolerancePerPodCMExternal", external, average, 3, {8600}, 2800, up1, 4, 2867},
    };
    for (const auto& c : cases) {
        CAPTURE(c.upstream_test);
        HpaMetric m;
        m.name = "qps";
        m.source = c.source;
        m.target_type = c.type;
        m.target = c.target;
        m.timestamp = Time{seconds(1'700'000'000)};
        if (c.source == pods) {
            for (std::size_t i = 0; i < c.levels.size(); ++i) {
                m.pods.push_back({fmt::format("test-pod-{}", i), PodPhase::running, false, true,
                                  c.levels[i] < 0 ? std::nullopt : std::optional<std::int64_t>(c.levels[i]), 0});
            }
        } else {
            m.value = c.levels[0];
        }
        const auto p = metric_replicas(m, at(c.current), c.tolerances);
        REQUIRE(p.valid);
        CHECK(p.replicas == c.expected_replicas);
        CHECK(p.current == c.expected_usage);
        if (c.type == value) {
            CHECK(p.value == c.expected_usage);
            // GetObjectMetricReplicas / GetExternalMetricReplicas drop the metric's timestamp.
            CHECK_FALSE(p.timestamp.has_value());
        } else {
            CHECK(p.average_value == c.expected_usage);
            CHECK(p.timestamp == m.timestamp);
        }
    }
}

TEST_CASE("hpa ContainerResource metrics: one container's usage and request, FailedGetContainerResourceMetric") {
    // The pods' "app" containers request 500m and use 400m (80 %); sidecars are not in the samples.
    HpaMetric m = cpu_utilization(50, cpu_pods(4, 400, 500));
    m.source = MetricSource::container_resource;
    m.container = "app";
    auto p = metric_replicas(m, at(4));
    CHECK(p.replicas == 7);  // ceil(1.6 x 4)
    CHECK(p.average_utilization == 80);
    CHECK(p.average_value == 400);
    // cpu readiness applies to ContainerResource cpu too (groupPods gets the resource name).
    m.pods[3].cpu_ready = false;
    p = metric_replicas(m, at(4));
    CHECK(p.replicas == 5);  // 1200 / 2000 = 60 % -> 1.2 -> ceil(4.8)
    m.available = false;
    p = metric_replicas(m, at(4));
    CHECK_FALSE(p.valid);
    CHECK(p.condition_reason == "FailedGetContainerResourceMetric");
    m.container.clear();
    CHECK_THROWS_AS((void)metric_replicas(m, at(4)), InvalidArgument);
    HpaSpec spec;
    spec.metrics = {m};
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
}

TEST_CASE("hpa tolerances: any finite value >= 0 (KEP-4951), per direction") {
    HpaSpec spec;
    spec.max_replicas = 20;
    spec.metrics = {pods_average("rps", 100, {300, 300})};  // ratio 3
    spec.behavior->scale_up.tolerance = 2.5;                   // 1 + 2.5 >= 3: within
    Hpa wide(spec);
    CHECK(wide.decide(at(2), time_at(0)).desired_replicas == 2);
    spec.behavior->scale_up.tolerance = 1.5;
    wide.set_spec(spec);
    CHECK(wide.decide(at(2), time_at(15)).desired_replicas == 6);
    // A scale-down tolerance >= 1 never scales down.
    spec.metrics = {pods_average("rps", 100, {0, 0})};
    spec.behavior->scale_down.tolerance = 1.0;
    spec.behavior->scale_down.stabilization_window = seconds(0);
    Hpa never_down(spec);
    CHECK(metric_replicas(spec.metrics[0], at(2), Tolerances{1.0, 0.1}).replicas == 2);
    CHECK(never_down.decide(at(2), time_at(0)).desired_replicas == 2);
    spec.tolerance = 3.0;  // the cluster-wide flag too
    CHECK_NOTHROW(Hpa{spec});
    for (const double bad : {-0.1, std::nan(""), HUGE_VAL}) {
        spec.behavior->scale_up.tolerance = bad;
        CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
        CHECK_THROWS_AS((void)metric_replicas(spec.metrics[0], at(2), Tolerances{0.1, bad}), InvalidArgument);
    }
}

TEST_CASE("hpa scale to zero: min_replicas 0 with an external metric (HPAScaleToZero)") {
    HpaSpec spec;
    spec.min_replicas = 0;
    spec.max_replicas = 10;
    HpaMetric queue;
    queue.name = "queue";
    queue.source = MetricSource::external;
    queue.target_type = TargetType::value;
    queue.target = 10'000;
    queue.value = 0;
    spec.metrics = {queue};
    spec.behavior->scale_down.stabilization_window = seconds(0);
    Hpa hpa(spec);
    // Empty queue at 2 replicas: ratio 0 -> ceil(0 x 2) = 0, min 0 -> scale to zero.
    auto d = hpa.decide(at(2), time_at(0));
    CHECK(d.desired_replicas == 0);
    CHECK(d.scaling_active_reason == "ValidMetricFound");
    // At 0 replicas the controller keeps computing (minReplicas = 0): getUsageRatioReplicaCount uses
    // ceil(ratio) without tolerance; 25 messages of 10 -> 3, within the scale-up limit max(0 x 2, 0 + 4).
    spec.metrics[0].value = 25'000;
    d = hpa.decide(spec.metrics, at(0), time_at(15));
    CHECK(d.desired_replicas == 3);
    CHECK(d.scale);
    spec.metrics[0].value = 0;
    d = hpa.decide(spec.metrics, at(0), time_at(30));
    CHECK(d.desired_replicas == 0);
    CHECK_FALSE(d.scale);
    // The legacy path's scale-up limit at 0 is max(2 x 0, 4) = 4.
    spec.behavior.reset();
    Hpa legacy(spec);
    spec.metrics[0].value = 90'000;
    CHECK(legacy.decide(spec.metrics, at(0), time_at(0)).desired_replicas == 4);
    // API validation: scale to zero needs an object or external metric; KEDA activation owns 0 <-> 1.
    spec.metrics.push_back(cpu_utilization(50, {}));
    CHECK_NOTHROW(Hpa{spec});
    spec.metrics.erase(spec.metrics.begin());
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
    spec.metrics = {queue};
    spec.activation = Activation{};
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
    spec.activation.reset();
    spec.max_replicas = 0;
    CHECK_THROWS_AS(Hpa{spec}, InvalidArgument);
}

TEST_CASE("hpa seeds its history on first sight: no scale-down within the window after a start") {
    HpaSpec spec;
    spec.max_replicas = 20;
    spec.metrics = {pods_average("rps", 100, std::vector<std::int64_t>(10, 20))};  // proposes 2
    Hpa hpa(spec);
    for (int s = 0; s < 300; s += 15) {
        const auto d = hpa.decide(at(10), time_at(s));
        CHECK(d.desired_replicas == 10);
        CHECK(d.stabilization_reason == "ScaleDownStabilized");
    }
    CHECK(hpa.recommendations().front().replicas == 10);  // the seed
    const auto d = hpa.decide(at(10), time_at(300));
    CHECK(d.desired_replicas == 2);
    CHECK(d.able_to_scale_reason == "SucceededRescale");
    CHECK(d.stabilization_reason == "ReadyForNewScale");
    // A restarted controller (reset) seeds again with the count it finds.
    hpa.reset();
    CHECK(hpa.decide(at(6), time_at(600)).desired_replicas == 6);
    // The legacy path (no behavior) seeds too.
    spec.behavior.reset();
    Hpa legacy(spec);
    CHECK(legacy.decide(at(10), time_at(0)).desired_replicas == 10);
    CHECK(legacy.decide(at(10), time_at(301)).desired_replicas == 2);
}

TEST_CASE("hpa history: old samples are overwritten, not dropped, and survive spec edits") {
    HpaSpec spec;
    spec.max_replicas = 20;
    spec.metrics = {pods_average("rps", 100, std::vector<std::int64_t>(4, 100))};  // at target
    spec.seed_recommendations = false;
    spec.behavior->scale_down.stabilization_window = seconds(60);
    spec.behavior->scale_down.select_policy = SelectPolicy::disabled;
    Hpa hpa(spec);
    const auto rps = [](int pods, std::int64_t value) { return std::vector<HpaMetric>{pods_average("rps", 100, std::vector<std::int64_t>(static_cast<std::size_t>(pods), value))}; };
    CHECK(hpa.decide(rps(4, 200), at(4), time_at(0)).desired_replicas == 8);
    hpa.decide(rps(8, 100), at(8), time_at(15));  // at target: 8
    // At 100 s both samples are older than the 60 s window: the last old one (t = 15) is
    // overwritten, the t = 0 one stays (stabilizeRecommendationWithBehaviors).
    auto d = hpa.decide(rps(8, 62), at(8), time_at(100));  // proposes 5; scale-down disabled keeps 8
    CHECK(d.stabilized_replicas == 5);
    CHECK(d.desired_replicas == 8);
    REQUIRE(hpa.recommendations().size() == 2);
    CHECK(hpa.recommendations()[0].replicas == 8);
    CHECK(hpa.recommendations()[0].time == time_at(0));
    CHECK(hpa.recommendations()[1].replicas == 5);
    // Editing the HPA (wider window, scale-down enabled) keeps the history: the kept t = 0 sample is
    // inside the new 300 s window and holds the replicas at 8 (without it: 5).
    spec.behavior->scale_down.stabilization_window = seconds(300);
    spec.behavior->scale_down.select_policy = SelectPolicy::max;
    hpa.set_spec(spec);
    d = hpa.decide(rps(8, 25), at(8), time_at(120));
    CHECK(d.metric_replicas == 2);
    CHECK(d.stabilized_replicas == 8);
    CHECK(d.desired_replicas == 8);
    CHECK(d.stabilization_reason == "ScaleDownStabilized");
    // A rejected edit leaves the Hpa as it was.
    spec.max_replicas = 0;
    CHECK_THROWS_AS(hpa.set_spec(spec), InvalidArgument);
    CHECK(hpa.spec().max_replicas == 20);
}

TEST_CASE("hpa scale events: the sticky outdated flag (storeScaleEvent, markScaleEventsOutdated)") {
    HpaSpec spec;
    spec.max_replicas = 100;
    spec.seed_recommendations = false;
    spec.behavior->scale_up.policies = {{ScalingPolicyType::pods, 100, seconds(15)}};
    spec.metrics = {external_average(1000, 0)};
    Hpa hpa(spec);
    const auto queue = [](std::int64_t v) { return std::vector<HpaMetric>{external_average(1000, v)}; };
    CHECK(hpa.decide(queue(3000), at(1), time_at(0)).desired_replicas == 3);   // event A (+2 at 0)
    CHECK(hpa.decide(queue(5000), at(3), time_at(10)).desired_replicas == 5);  // event B (+2 at 10)
    CHECK(hpa.decide(queue(7000), at(5), time_at(30)).desired_replicas == 7);  // A and B outdated; C overwrites B
    REQUIRE(hpa.scale_up_events().size() == 2);
    CHECK(hpa.scale_up_events()[0].outdated);
    CHECK(hpa.scale_up_events()[1].time == time_at(30));
    // A 60 s period: A (t = 0) is inside it again, but its flag is sticky: D overwrites it.
    spec.behavior->scale_up.policies = {{ScalingPolicyType::pods, 100, seconds(60)}};
    hpa.set_spec(spec);
    CHECK(hpa.decide(queue(9000), at(7), time_at(40)).desired_replicas == 9);
    REQUIRE(hpa.scale_up_events().size() == 2);
    CHECK(hpa.scale_up_events()[0].time == time_at(40));
    CHECK_FALSE(hpa.scale_up_events()[0].outdated);
    CHECK(hpa.scale_up_events()[1].time == time_at(30));
}

TEST_CASE("hpa reports the metric timestamp, status values and the winning metric") {
    HpaSpec spec;
    spec.max_replicas = 50;
    auto cpu = cpu_utilization(50, cpu_pods(4, 75, 100));  // 150 % -> 6
    cpu.timestamp = time_at(100);
    auto rps = pods_average("rps", 100, {225, 225, 225, 225});  // 2.25 -> 9
    rps.timestamp = time_at(101);
    spec.metrics = {cpu, rps};
    Hpa hpa(spec);
    const auto d = hpa.decide(at(4), time_at(110));
    CHECK(d.metric_timestamp == time_at(101));
    CHECK(d.proposals[0].average_utilization == 75);  // percent of request; ratio 1.5 against 50 %
    CHECK(d.proposals[0].average_value == 75);
    CHECK(d.proposals[1].average_value == 225);
    CHECK_FALSE(d.proposals[1].average_utilization.has_value());
    CHECK(d.proposals[1].source == MetricSource::pods);
    CHECK(d.scaling_active_reason == "ValidMetricFound");
    CHECK(d.failed_metric.empty());
}
