// Tests of sim/adapters/quota_scalers.hpp: the reactive, proactive and hybrid quota adapters on a
// hand-computed cluster (one always-on 4-core node, two paused 4-core waiting nodes resumed in 40 s,
// 1-core pods, a 2-core quota), and the hybrid adapter going through quota::HybridQuotaScaler.
#include <continuum/sim/adapters/quota_scalers.hpp>
#include <continuum/sim/simulator.hpp>

#include <doctest/doctest.h>

#include <vector>

using namespace continuum;
using namespace continuum::sim;
using namespace std::chrono_literals;

namespace {
/// Predicts the value one season (2 periods) before the next one: knows the alternation.
struct SeasonalNaive2 {
    std::vector<double> h;
    void fit(SeriesView history) { h.assign(history.begin(), history.end()); }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double /*level*/) const {
        forecast::Forecast f;
        for (int k = 0; k < horizon; ++k) f.mean.push_back(h.size() >= 2 ? h[h.size() - 2 + static_cast<std::size_t>(k % 2)] : h.back());
        return f;
    }
    void update(double value) { h.push_back(value); }
    [[nodiscard]] std::string name() const { return "seasonal naive (2)"; }
};
static_assert(forecast::Forecaster<SeasonalNaive2>);

/// Demand 2 cores, then 6 cores from 60 s to 120 s, then 2 cores again (per minute).
Scenario quota_scenario() {
    Scenario s;
    NodePool active;
    active.name = "active";
    active.capacity = Resources{{"cpu", "4"}, {"memory", "16Gi"}};
    active.source = NodeSource::local;
    active.initial_size = active.min_size = active.max_size = 1;
    NodePool waiting = active;
    waiting.name = "waiting";
    waiting.source = NodeSource::paused_vm;
    waiting.provisioning_latency = 40s;
    waiting.initial_size = waiting.min_size = 0;
    waiting.max_size = 2;
    s.pools = {active, waiting};
    s.namespaces.push_back({"svc", Resources{{"cpu", "2"}}});
    DeploymentSpec d;
    d.name = "web";
    d.namespace_name = "svc";
    d.pod_request = Resources{{"cpu", "1"}};
    d.load = LoadProfile::from_samples({2, 6, 2}, 1min);
    d.load_kind = LoadKind::cpu_cores;
    s.deployments.push_back(d);
    s.config.tick = 1s;
    return s;
}

const adapters::QuotaTarget target{"svc", "waiting", true};
}  // namespace

TEST_CASE("reactive: rejected pods raise the quota and resume a waiting node, they wait for it") {
    Simulator sim(quota_scenario());
    adapters::ReactiveQuotaAdapter reactive(target);
    const auto r = sim.run(reactive);
    // At 60 s: W_req = 2 + 4 = 6 cores, quota 2, 2 cores free: Algorithm 2 case 3 resumes one node.
    CHECK(r.pool_summary("waiting").max_nodes == 1);
    CHECK(reactive.interventions() == 1);
    CHECK(r.namespace_summary("svc").deployment_failure_ratio == 0.0);
    // Two pods fit the active node at once; two wait for the resumed node: 40 s + 3 s start-up.
    CHECK(r.deployment_delay.max == doctest::Approx(43.0));
}

TEST_CASE("hybrid (quota::HybridQuotaScaler): the forecast raises the quota and resumes the node a period ahead") {
    Simulator sim(quota_scenario());
    // History ends ..., 2, 6: at 0 s the scaler observes 2 and predicts 6 for the next minute.
    const Series history(std::vector<double>{2, 6, 2, 6}, 1min);
    adapters::HybridQuotaAdapter<SeasonalNaive2> hybrid(target, SeasonalNaive2{}, history);
    const auto r = sim.run(hybrid);
    CHECK(r.pool_summary("waiting").max_nodes == 1);
    CHECK(hybrid.reactive_interventions() == 0);
    CHECK(r.namespace_summary("svc").deployment_failure_ratio == 0.0);
    // The node resumed at 0 s is Ready at 40 s: the burst's pods only pay the start-up.
    CHECK(r.deployment_delay.max == doctest::Approx(3.0));
    // At 120 s (observing 2 after 6) the forecast is 6 again: the hybrid never lowers below it.
    CHECK(hybrid.last_prediction_cores() == doctest::Approx(6.0));
    // The scaler registered the namespace and fitted its model on history + the first observation.
    CHECK(hybrid.scaler().size() == 1);
}

TEST_CASE("hybrid: a wrong forecast is corrected by the reactive step between periods") {
    Simulator sim(quota_scenario());
    // History ends ..., 6, 2: the scaler predicts 2 at 0 s and 6 at 60 s (too late for the burst).
    const Series history(std::vector<double>{6, 2, 6, 2}, 1min);
    adapters::HybridQuotaAdapter<SeasonalNaive2> hybrid(target, SeasonalNaive2{}, history);
    const auto r = sim.run(hybrid);
    CHECK(r.namespace_summary("svc").deployment_failure_ratio == 0.0);
    CHECK(r.pool_summary("waiting").max_nodes == 1);
    // The burst's pods are rejected at 60 s; the period's tick raises the quota for them (Algorithm 2
    // inside the hybrid tick), resuming one node: the last two pods wait 40 s + 3 s.
    CHECK(hybrid.reactive_interventions() == 1);
    CHECK(r.deployment_delay.max == doctest::Approx(43.0));
}

TEST_CASE("proactive alone follows the forecast, bad configuration throws") {
    Simulator sim(quota_scenario());
    const Series history(std::vector<double>{2, 6, 2, 6}, 1min);
    adapters::ProactiveQuotaAdapter<SeasonalNaive2> proactive(target, SeasonalNaive2{}, history);
    const auto r = sim.run(proactive);
    CHECK(r.pool_summary("waiting").max_nodes == 1);
    CHECK(r.deployment_delay.max == doctest::Approx(3.0));
    CHECK_THROWS_AS(adapters::ProactiveQuotaAdapter<SeasonalNaive2>(target, SeasonalNaive2{}, history, {}, 0s), InvalidArgument);
    quota::HybridConfig bad;
    bad.step = 0s;
    CHECK_THROWS_AS(adapters::HybridQuotaAdapter<SeasonalNaive2>(target, SeasonalNaive2{}, history, bad), InvalidArgument);
    adapters::HybridQuotaAdapter<SeasonalNaive2> unknown({"nope", "waiting", true}, SeasonalNaive2{}, history);
    Simulator again(quota_scenario());
    CHECK_THROWS_AS(again.run(unknown), InvalidArgument);
}
