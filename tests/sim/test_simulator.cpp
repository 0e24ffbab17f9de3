// Tests of sim/simulator.hpp: hand-computed cost, efficiency, quota admission, pending timeout,
// provisioning latency, scale-in, determinism and invariants over random scenarios.
#include <continuum/sim.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace continuum;
using namespace continuum::sim;
using namespace std::chrono_literals;

namespace {

NodePool pool(std::string name, const char* cpu, double cost, int initial, int max_size = unlimited_nodes, NodeSource source = NodeSource::local) {
    NodePool p;
    p.name = std::move(name);
    p.capacity = Resources{{"cpu", cpu}, {"memory", "4Gi"}};
    p.cost_per_minute = cost;
    p.source = source;
    p.initial_size = initial;
    p.max_size = max_size;
    return p;
}

DeploymentSpec replicas_deployment(std::string name, std::string ns, double replicas, const char* cpu, double usage) {
    DeploymentSpec d;
    d.name = std::move(name);
    d.namespace_name = std::move(ns);
    d.pod_request = Resources{{"cpu", cpu}, {"memory", "256Mi"}};
    d.load = LoadProfile::from_samples({replicas}, 1min);
    d.load_kind = LoadKind::replicas;
    d.usage_per_pod = usage;
    return d;
}

/// One pool of one node, deployment `name` with `replicas` scaler-controlled pods sharing `cores`.
Scenario scaler_deployment(const char* node_cpu, std::string name, const char* pod_cpu, double cores, int replicas) {
    Scenario s;
    s.pools.push_back(pool("a", node_cpu, 0.0, 1));
    s.namespaces.push_back({"web", std::nullopt});
    DeploymentSpec d;
    d.name = std::move(name);
    d.namespace_name = "web";
    d.pod_request = Resources{{"cpu", pod_cpu}};
    d.load = LoadProfile::from_samples({cores}, 1min);
    d.replicas_from = ReplicaControl::scaler;
    d.initial_replicas = replicas;
    s.deployments.push_back(d);
    return s;
}

Scenario basic(Duration duration) {
    Scenario s;
    s.pools.push_back(pool("local", "2", 1.0, 2));
    s.namespaces.push_back({"app", std::nullopt});
    s.deployments.push_back(replicas_deployment("stress", "app", 3, "1", 0.5));
    s.config.duration = duration;
    return s;
}

}  // namespace

TEST_CASE("static cluster: cost and efficiency computed by hand") {
    Simulator sim(basic(10min));
    const auto result = sim.run(StaticScaler{});
    // Two always-on nodes at 1 $/min for 10 minutes.
    CHECK(result.total_cost == doctest::Approx(20.0));
    CHECK(result.pool_summary("local").max_nodes == 2);
    // First-fit: node 0 gets pods 1 and 2 (50 % used), node 1 pod 3 (25 %); 3 s of start-up at 0 %.
    // Weights: 0 % 6 s, 25 % 597 s, 50 % 597 s -> median 25 %, mean (0.25*597+0.5*597)*100/1200.
    CHECK(result.efficiency.total_weight() == doctest::Approx(1200.0));
    CHECK(result.efficiency.median() == doctest::Approx(25.0));
    CHECK(result.efficiency.mean() == doctest::Approx((25.0 * 597 + 50.0 * 597) / 1200.0));
    CHECK(result.deployments_succeeded == 3);
    CHECK(result.deployments_failed == 0);
    CHECK(result.deployment_delay.mean == doctest::Approx(3.0));
    CHECK(result.deployment_delay.max == doctest::Approx(3.0));
    CHECK(result.series.rows() == 600);
    CHECK(result.series.column("nodes_local")[10] == 2);
    CHECK(result.series.column("ready_stress")[2] == 0);
    CHECK(result.series.column("ready_stress")[3] == 3);
    CHECK(result.series.column("cpu_used_cores")[5] == doctest::Approx(1.5));
}

TEST_CASE("re-pinning a deployment rolls it out: surge 25 %, maxUnavailable 0, old pods go once new ones are ready") {
    Scenario s;
    s.pools.push_back(pool("old", "2", 1.0, 2));
    s.pools.push_back(pool("new", "2", 1.0, 2));
    s.namespaces.push_back({"app", std::nullopt});
    DeploymentSpec d = replicas_deployment("web", "app", 0, "500m", 0.5);
    d.replicas_from = ReplicaControl::scaler;
    d.initial_replicas = 6;
    d.node_pool = "old";
    s.deployments.push_back(d);
    s.config.duration = 2min;
    struct Mover {
        std::vector<int> ready, alive, on_new;
        Decision decide(const Snapshot& snap) {
            const auto& dep = snap.deployments[0];
            ready.push_back(dep.ready);
            alive.push_back(dep.ready + dep.starting + dep.pending);
            on_new.push_back(dep.ready_per_pool[1]);
            Decision out;
            if (snap.now == Time{60s}) out.replicas.push_back({"web", 6, "new"});
            return out;
        }
    } mover;
    Simulator sim(s);
    const auto result = sim.run(mover);
    REQUIRE(mover.ready.size() == 120);
    for (std::size_t t = 10; t < mover.ready.size(); ++t) {
        CAPTURE(t);
        CHECK(mover.ready[t] >= 6);  // maxUnavailable 0: never below the desired count once up
        CHECK(mover.alive[t] <= 6 + 2);  // surge ceil(25 % of 6) = 2
    }
    CHECK(mover.on_new[60] == 0);
    CHECK(mover.on_new.back() == 6);  // every pod moved
    CHECK(result.deployment_summary("web").downtime_seconds == 0.0);
    // Three waves of two (3 s start-up each): the last old pod goes at 60 + 3 x 3 s or so.
    const auto done = std::find(mover.on_new.begin(), mover.on_new.end(), 6) - mover.on_new.begin();
    CHECK(done > 60);
    CHECK(done <= 75);
    s.config.rollout_max_surge_percent = 101;
    CHECK_THROWS_WITH_AS(Simulator{s}, doctest::Contains("rollout_max_surge_percent"), InvalidArgument);
}

TEST_CASE("quota admission and the 60 s pending timeout give QSR and DFR") {
    auto s = basic(10min);
    s.pools[0].initial_size = 4;  // capacity is not the limit; the quota is
    s.namespaces[0].quota = Resources{{"cpu", "2"}};
    Simulator sim(s);
    const auto result = sim.run(StaticScaler{});
    const auto& ns = result.namespace_summary("app");
    // Two pods run; the third waits for quota and fails after 60 s, is recreated the next tick:
    // created at 0, 61, 122, ... and failed at 60, 121, ..., 548 -> 9 failures before 600 s.
    CHECK(ns.deployments_succeeded == 2);
    CHECK(ns.deployments_failed == 9);
    CHECK(ns.deployment_failure_ratio == doctest::Approx(100.0 * 9 / 11));
    REQUIRE(ns.quota_sufficiency_ratio.has_value());
    CHECK(*ns.quota_sufficiency_ratio == doctest::Approx(100.0 * 2 / 3));
    CHECK(result.pending_pod_seconds == doctest::Approx(600.0 - 9.0));  // one pod pending except the 9 recreation gaps
}

TEST_CASE("provisioning latency delays pods, scaler decisions resize pools") {
    Scenario s;
    s.pools.push_back(pool("vm", "2", 0.5, 0, 3, NodeSource::cold_vm));
    s.namespaces.push_back({"app", std::nullopt});
    s.deployments.push_back(replicas_deployment("web", "app", 1, "1", 1.0));
    s.config.duration = 5min;
    s.config.pending_timeout = 120s;
    bool asked = false;
    AnyScaler scaler([&](const Snapshot& snap) {
        Decision d;
        if (!asked && !snap.pending.empty()) {
            asked = true;
            d.pools.push_back({"vm", 1});
            d.reason = "one pending pod";
        }
        return d;
    });
    Simulator sim(s);
    const auto result = sim.run(scaler);
    // Requested at t = 0, ready at 90 s (cold VM default), pod bound at 90 s, ready at 93 s.
    REQUIRE(result.pods.size() == 1);
    REQUIRE(result.pods[0].ready.has_value());
    CHECK(result.pods[0].delay_seconds() == doctest::Approx(93.0));
    CHECK(result.pods[0].waited_for_capacity);
    CHECK(result.total_cost == doctest::Approx(0.5 * 5));  // billed from the request
    // eta: the provisioning node counts 0 % for 90 s; two idle slots of the bounded pool 100 %.
    CHECK(result.efficiency.total_weight() == doctest::Approx(300.0 * 3));
}

TEST_CASE("shrinking a pool releases the emptiest node and evicted pods come back") {
    Scenario s;
    s.pools.push_back(pool("a", "2", 1.0, 2));
    s.namespaces.push_back({"app", std::nullopt});
    s.deployments.push_back(replicas_deployment("web", "app", 3, "1", 1.0));
    s.config.duration = 2min;
    AnyScaler scaler([](const Snapshot& snap) {
        Decision d;
        if (snap.now == Time{30'000}) d.pools.push_back({"a", 1});  // node a-1 has one pod, a-0 two
        return d;
    });
    Simulator sim(s);
    const auto result = sim.run(scaler);
    CHECK(result.evictions == 1);
    // The evicted pod is recreated and stays pending (no room): 3 succeeded ready pods, then one
    // attempt failing after 60 s.
    CHECK(result.deployments_succeeded == 3);
    CHECK(result.deployments_failed == 1);
    CHECK(result.deployment_summary("web").min_ready_after_first_ready == 2);
    CHECK(result.pool_summary("a").cost == doctest::Approx(0.5 * 2 + 1.5 * 1));
}

TEST_CASE("cpu demand is shared by ready pods and capped by the limit") {
    Scenario s = scaler_deployment("4", "nginx", "500m", 1.5, 2);  // 1.5 cores on two pods
    s.config.duration = 1min;
    Simulator sim(s);
    const auto result = sim.run(StaticScaler{});
    const auto& summary = result.deployment_summary("nginx");
    // Two pods of 500m serve at most 1 core: utilisation 100 %, 0.5 core unserved per second.
    CHECK(summary.utilisation.max == doctest::Approx(100.0));
    CHECK(summary.unserved_core_seconds == doctest::Approx(1.5 * 3 + 0.5 * 57));
    CHECK(result.series.column("utilisation_pct_nginx")[10] == doctest::Approx(100.0));
    CHECK(result.series.column("demand_cores_nginx")[10] == doctest::Approx(1.5));
}

TEST_CASE("Periodic and Combined scalers") {
    int calls_a = 0;
    int calls_b = 0;
    auto a = Periodic(AnyScaler([&](const Snapshot&) { ++calls_a; Decision d; d.reason = "a"; return d; }), 15s);
    auto b = AnyScaler([&](const Snapshot&) { ++calls_b; Decision d; d.reason = "b"; return d; });
    Combined both(std::move(a), std::move(b));
    Simulator sim(basic(1min));
    (void)sim.run(both);
    CHECK(calls_a == 4);  // t = 0, 15, 30, 45
    CHECK(calls_b == 60);
    CHECK_THROWS_AS(Periodic(StaticScaler{}, 0s), InvalidArgument);
}

TEST_CASE("bad scenarios and decisions are rejected with the offending name") {
    auto s = basic(1min);
    s.namespaces.push_back({"app", std::nullopt});
    CHECK_THROWS_WITH_AS(Simulator{s}, doctest::Contains("duplicate namespace \"app\""), InvalidArgument);
    s = basic(1min);
    s.deployments[0].namespace_name = "nope";
    CHECK_THROWS_WITH_AS(Simulator{s}, doctest::Contains("unknown namespace \"nope\""), InvalidArgument);
    s = basic(1min);
    s.deployments[0].pod_request = Resources{{"cpu", "3"}};
    CHECK_THROWS_AS(Simulator{s}, Infeasible);
    s = basic(1min);
    s.config.tick = 0ms;
    CHECK_THROWS_AS(Simulator{s}, InvalidArgument);
    s = basic(1min);
    s.pools[0].cost_per_minute = std::nan("");
    CHECK_THROWS_WITH_AS(Simulator{s}, doctest::Contains("cost_per_minute"), InvalidArgument);
    s = basic(1min);
    s.namespaces[0].quota = Resources{{"nvidia.com/gpu", "1"}};
    CHECK_THROWS_AS(Simulator{s}, InvalidArgument);
    Simulator sim(basic(1min));
    CHECK_THROWS_WITH_AS(sim.run(AnyScaler([](const Snapshot&) { Decision d; d.pools.push_back({"missing", 1}); return d; })),
                         doctest::Contains("unknown node pool \"missing\""), InvalidArgument);
    CHECK_THROWS_AS(sim.run(AnyScaler([](const Snapshot&) { Decision d; d.replicas.push_back({"stress", 2, {}}); return d; })), InvalidArgument);
    auto bounded = basic(1min);
    bounded.pools[0].max_size = 2;
    Simulator sim2(bounded);
    CHECK_THROWS_AS(sim2.run(AnyScaler([](const Snapshot&) { Decision d; d.pools.push_back({"local", 3}); return d; })), InvalidArgument);
}

TEST_CASE("property: random scenarios keep the invariants and are deterministic") {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        sim::detail::Random random(seed);
        Scenario s;
        s.pools.push_back(pool("base", "4", 0.1, 1 + static_cast<int>(random.below(3))));
        s.pools.push_back(pool("burst", "8", 0.4, 0, 6, NodeSource::paused_vm));
        for (int n = 0; n < 3; ++n) {
            NamespaceSpec ns{fmt::format("ns{}", n), std::nullopt};
            if (random.uniform() < 0.6) ns.quota = Resources::from_units({{"cpu", 1000 * static_cast<std::int64_t>(2 + random.below(10))}});
            s.namespaces.push_back(ns);
            DeploymentSpec d;
            d.name = fmt::format("d{}", n);
            d.namespace_name = ns.name;
            d.pod_request = Resources::from_units({{"cpu", 250 * static_cast<std::int64_t>(1 + random.below(4))}});
            std::vector<double> load;
            for (int k = 0; k < 20; ++k) load.push_back(random.uniform(0.0, 6.0));
            d.load = LoadProfile::from_samples(load, 30s);
            s.deployments.push_back(d);
        }
        s.config.duration = 10min;
        s.config.tick = 5s;
        // A scaler that grows and shrinks the burst pool and quotas at random, checking invariants.
        auto make_scaler = [&](std::uint64_t scaler_seed, std::vector<double>& trace) {
            return AnyScaler([&trace, rng = sim::detail::Random(scaler_seed)](const Snapshot& snap) mutable {
                for (const auto& node : snap.nodes) {
                    CHECK(node.cpu_requested <= node.cpu_capacity);
                    CHECK(node.cpu_used <= node.cpu_capacity);
                    CHECK(node.cpu_used >= 0);
                }
                for (const auto& dep : snap.deployments) {
                    CHECK(std::isfinite(dep.utilisation));
                    CHECK(dep.ready + dep.starting + dep.pending <= dep.desired);
                    trace.push_back(dep.cpu_used_cores);
                }
                Decision d;
                if (rng.uniform() < 0.1) d.pools.push_back({"burst", static_cast<int>(rng.below(7))});
                if (rng.uniform() < 0.05) d.quotas.push_back({"ns0", Resources::from_units({{"cpu", 1000 * static_cast<std::int64_t>(rng.below(12))}})});
                return d;
            });
        };
        std::vector<double> trace1, trace2;
        Simulator sim(s);
        const auto r1 = sim.run(make_scaler(seed, trace1));
        const auto r2 = sim.run(make_scaler(seed, trace2));
        CHECK(trace1 == trace2);
        CHECK(r1.total_cost == r2.total_cost);
        CHECK(r1.series.to_csv() == r2.series.to_csv());
        for (const auto& name : r1.series.columns()) {
            for (double v : r1.series.column(name)) CHECK(std::isfinite(v));
        }
        CHECK(std::isfinite(r1.deployment_failure_ratio));
        CHECK(r1.efficiency.median() >= 0.0);
        CHECK(r1.efficiency.median() <= 100.0);
    }
}

TEST_CASE("initial_pods_ready: pods bound at time 0 start Ready (a deployment running before the experiment)") {
    Scenario s = scaler_deployment("2", "nginx", "250m", 0.3, 2);
    s.config.duration = 10s;
    const auto ready_at = [&](bool initial_ready) {
        s.config.initial_pods_ready = initial_ready;
        const auto result = Simulator(s).run(StaticScaler{});
        return result.series.column("ready_nginx");
    };
    const auto cold = ready_at(false);
    CHECK(cold[0] == 0);  // pod_startup 3 s: Ready from t = 3 s
    CHECK(cold[2] == 0);
    CHECK(cold[3] == 2);
    const auto warm = ready_at(true);
    CHECK(warm[0] == 2);
    CHECK(warm[1] == 2);
    // 0.3 cores over two ready 250m pods from the first tick: 60 % each.
    s.config.initial_pods_ready = true;
    CHECK(Simulator(s).run(StaticScaler{}).series.column("utilisation_pct_nginx")[0] == doctest::Approx(60.0));
}
