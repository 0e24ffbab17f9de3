// State of the scalers: the HPA (behavior, legacy and KEDA activation paths) and the hierarchical
// scaler (with a make-before-break migration in flight at the stop) saved at a random step through
// JSON, restored and continued: every later decision equals the uninterrupted run's.
#include "state_testing.hpp"

#include "../scalers/hierarchical_host.hpp"

#include <continuum/serialization/scalers.hpp>

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

using namespace continuum;
using namespace continuum::scalers;
using std::chrono::seconds;

namespace {

HpaSpec cpu_spec(int variant) {
    HpaSpec spec;
    spec.min_replicas = 1;
    spec.max_replicas = 40;
    HpaMetric m;
    m.name = "cpu";
    m.source = MetricSource::resource;
    m.target_type = TargetType::utilization;
    m.target = 60;
    spec.metrics = {m};
    if (variant == 1) {
        spec.behavior->scale_up.policies = {{ScalingPolicyType::pods, 2, seconds(60)}};
        spec.behavior->scale_down.stabilization_window = seconds(120);
        spec.behavior->scale_down.policies = {{ScalingPolicyType::percent, 20, seconds(60)}, {ScalingPolicyType::pods, 1, seconds(30)}};
    } else if (variant == 2) {
        spec.behavior.reset();  // the legacy path: downscale stabilisation only
    }
    return spec;
}

std::string describe(const HpaDecision& d) { return fmt::format("{}->{}|{}|{}|{}", d.current_replicas, d.desired_replicas, d.reason, d.able_to_scale_reason, d.scaling_limited_reason); }

/// One sync period: random per-pod usage around a drifting load, the desired count written back.
std::string hpa_step(Hpa& hpa, std::mt19937_64& rng, std::int64_t& replicas, int t) {
    const std::int64_t load = 200 + static_cast<std::int64_t>(rng() % 1600);
    std::vector<PodSample> pods;
    for (std::int64_t i = 0; i < replicas; ++i) {
        pods.push_back({fmt::format("pod-{}", i), PodPhase::running, false, true, load / std::max<std::int64_t>(1, replicas / 3) + static_cast<std::int64_t>(rng() % 100), 500});
    }
    auto metrics = hpa.spec().metrics;
    metrics[0].pods = pods;
    const auto d = hpa.decide(metrics, {replicas, replicas, replicas}, Time{seconds(15 * t)});
    replicas = d.desired_replicas;
    return describe(d);
}

}  // namespace

TEST_CASE("hpa state: a restored HPA decides exactly as the uninterrupted one (behavior, custom and legacy paths)") {
    for (int variant = 0; variant < 3; ++variant) {
        for (std::uint64_t seed = 1; seed <= 8; ++seed) {
            std::mt19937_64 rng_a(seed), rng_b(seed);
            Hpa uninterrupted(cpu_spec(variant)), first_half(cpu_spec(variant));
            std::int64_t replicas_a = 4, replicas_b = 4;
            const int stop = static_cast<int>(seed * 11 % 60);
            for (int t = 0; t < stop; ++t) CHECK(hpa_step(uninterrupted, rng_a, replicas_a, t) == hpa_step(first_half, rng_b, replicas_b, t));
            const auto saved = testing::through_json(first_half.state());
            Hpa restored(cpu_spec(variant), saved);
            CHECK(restored.state() == saved);
            for (int t = stop; t < 80; ++t) CHECK(hpa_step(uninterrupted, rng_a, replicas_a, t) == hpa_step(restored, rng_b, replicas_b, t));
            CHECK(restored.state() == uninterrupted.state());
        }
    }
}

TEST_CASE("hpa state: a restart without the state forgets the stabilisation window, with it, it holds") {
    Hpa hpa(cpu_spec(0));
    std::mt19937_64 rng(5);
    std::int64_t replicas = 10;
    auto metrics = hpa.spec().metrics;
    const auto at = [&](Hpa& h, std::int64_t usage, int t) {
        metrics[0].pods.clear();
        for (int i = 0; i < 10; ++i) metrics[0].pods.push_back({fmt::format("p{}", i), PodPhase::running, false, true, usage, 500});
        return h.decide(metrics, {replicas, replicas, replicas}, Time{seconds(t)}).desired_replicas;
    };
    CHECK(at(hpa, 300, 0) == 10);     // 60 %: at target
    const auto saved = hpa.state();
    Hpa restored(cpu_spec(0), saved);
    auto unseeded_spec = cpu_spec(0);
    unseeded_spec.seed_recommendations = false;
    Hpa unseeded(unseeded_spec);
    Hpa fresh(cpu_spec(0));
    CHECK(at(restored, 60, 15) == 10);   // 12 %: the 300 s window still holds the recommendation of 10
    CHECK(at(unseeded, 60, 15) == 2);    // no state and no seeding: it would scale down at once
    CHECK(at(fresh, 60, 15) == 10);      // no state: seeded from the current replicas, as the controller does
}

TEST_CASE("hpa state: bad states and documents are rejected naming the field") {
    HpaState s;
    s.last_now = Time{seconds(30)};
    s.recommendations = {{3, Time{seconds(45)}}};
    CHECK_THROWS_WITH_AS(Hpa(cpu_spec(0), s), "hpa restore: state.recommendations[0].time = 45000 ms is after the last decision", InvalidArgument);
    s.recommendations = {{-3, Time{seconds(15)}}};
    CHECK_THROWS_WITH_AS(Hpa(cpu_spec(0), s), "hpa restore: state.recommendations[0].replicas = -3 must be >= 0", InvalidArgument);
    s.recommendations.clear();
    s.last_active = Time{seconds(60)};
    CHECK_THROWS_WITH_AS(Hpa(cpu_spec(0), s), "hpa restore: state.last_active = 60000 ms is after the last decision", InvalidArgument);
    auto doc = serialization::to_json(HpaState{});
    doc["scale_up_events"] = {{{"replicas", 2}}};
    CHECK_THROWS_WITH_AS(serialization::from_json<HpaState>(doc), "state document: $.scale_up_events[0].time: missing field", ParseError);
}

TEST_CASE("hierarchical state: a migration in flight survives a restore and completes identically") {
    policy::Policy cost = policy::cost_saving();
    policy::Policy perf = policy::performance();
    cost.min_replicas = 2;
    const policy::PolicySelector selector({cost, perf}, "COST_SAVING");
    HierarchicalConfig config;
    config.noise.scale_down_window = seconds(60);
    int stopped_mid_migration = 0;
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        std::mt19937_64 rng(seed);
        std::vector<std::pair<std::vector<double>, const char*>> script;
        std::vector<double> demand = {1.2, 1.4, 1.3};
        const char* active = "COST_SAVING";
        for (int k = 0; k < 40; ++k) {
            demand.push_back(0.8 + static_cast<double>(rng() % 200) / 100.0);
            if (rng() % 9 == 0) active = active[0] == 'C' ? "PERFORMANCE" : "COST_SAVING";
            script.emplace_back(demand, active);
        }
        const auto make_host = [] {
            testing::SimulatedHost host;
            host.pools["mas-h2-staging-pool"] = {2, 2};
            host.pools["performance-pool"] = {0, 0};
            host.app_pool = "mas-h2-staging-pool";
            host.replicas = 4;
            host.ready_pods["mas-h2-staging-pool"] = 4;
            return host;
        };
        auto host_a = make_host(), host_b = make_host();
        HierarchicalScaler<forecast::AnyForecaster> uninterrupted(selector, forecast::Naive(), config);
        HierarchicalScaler<forecast::AnyForecaster> first_half(selector, forecast::Naive(), config);
        const auto step = [&](HierarchicalScaler<forecast::AnyForecaster>& scaler, testing::SimulatedHost& host, std::size_t k) {
            auto snapshot = host.snapshot(script[k].first);
            snapshot.context.override_policy = script[k].second;
            const auto d = scaler.decide(snapshot, Time{seconds(15 * static_cast<std::int64_t>(k))});
            host.apply(d);
            host.tick();
            std::string out = fmt::format("{}|{}|{}", d.reason, d.policy, to_string(d.migration));
            for (const auto& p : d.patch_deployments) out += fmt::format("|patch {} {} {}", p.name, p.replicas, p.node_pool);
            for (const auto& r : d.resize_node_pools) out += fmt::format("|resize {} {}", r.pool, r.size);
            return out;
        };
        const std::size_t stop = 2 + seed * 5 % 36;
        for (std::size_t k = 0; k < stop; ++k) CHECK(step(uninterrupted, host_a, k) == step(first_half, host_b, k));
        const auto saved = testing::through_json(first_half.state());
        if (saved.migration.phase != MigrationPhase::none) ++stopped_mid_migration;
        HierarchicalScaler<forecast::AnyForecaster> restored(selector, forecast::Naive(), config, saved);
        CHECK(restored.migration_phase() == saved.migration.phase);
        for (std::size_t k = stop; k < script.size(); ++k) CHECK(step(uninterrupted, host_a, k) == step(restored, host_b, k));
        CHECK(restored.state() == uninterrupted.state());
    }
    CHECK(stopped_mid_migration >= 3);  // the property covers migrations in flight, not just steady states
}

TEST_CASE("hierarchical state: bad states are rejected naming the field") {
    const policy::PolicySelector selector({policy::cost_saving(), policy::performance()}, "COST_SAVING");
    HierarchicalScalerState s;
    s.migration = {MigrationPhase::migrating, {"mas-h2-staging-pool"}, "performance-pool", "TURBO"};
    using Scaler = HierarchicalScaler<forecast::AnyForecaster>;
    CHECK_THROWS_WITH_AS(Scaler(selector, forecast::Naive(), {}, s), "hierarchical restore: state.migration.policy \"TURBO\" is not one of the selector's policies",
                         InvalidArgument);
    s.migration.policy = "COST_SAVING";
    CHECK_THROWS_WITH_AS(Scaler(selector, forecast::Naive(), {}, s),
                         "hierarchical restore: state.migration.to = \"performance-pool\" but policy COST_SAVING uses node pool \"mas-h2-staging-pool\"", InvalidArgument);
    s.migration = {MigrationPhase::none, {"x"}, "", ""};
    CHECK_THROWS_WITH_AS(Scaler(selector, forecast::Naive(), {}, s), "hierarchical restore: state.migration.phase is none but from, to or policy is set",
                         InvalidArgument);
    s.migration = {};
    s.stabilizers["web"] = {{-1, Time{seconds(1)}}};
    CHECK_THROWS_WITH_AS(Scaler(selector, forecast::Naive(), {}, s),
                         "hierarchical restore: state.stabilizers[\"web\"]: replica stabilizer: samples[0].replicas = -1 must be >= 0", InvalidArgument);
    auto doc = serialization::to_json(HierarchicalScalerState{});
    doc["migration"]["phase"] = "teleporting";
    CHECK_THROWS_WITH_AS(serialization::from_json<HierarchicalScalerState>(doc), "state document: $.migration.phase: unknown value \"teleporting\"", ParseError);
}
