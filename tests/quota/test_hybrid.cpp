// Tests for quota/hybrid.hpp with a tiny deterministic test forecaster: warm-up, proactive raise
// and decrease, reactive events (cases 2 and 3), the fairness rule over several namespaces
// (priority, then proportional to demand; who was cut and by how much), consolidation, bad input,
// and a seeded property test: total quota never exceeds what the cluster plus resumed nodes back.
#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/quota/hybrid.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

using namespace continuum;
using namespace std::chrono_literals;
using capacity::WaitingNode;
using quota::HybridConfig;
using quota::HybridQuotaScaler;
using quota::NamespaceSnapshot;
using quota::ProactiveAction;
using quota::ReactiveCase;

namespace {

/// Predicts last observation x scale + offset for every step of the horizon.
struct LastValueForecaster {
    double scale = 1.0;
    double offset = 0.0;
    double last = 0.0;
    bool fitted = false;
    int fits = 0;
    void fit(SeriesView history) {
        if (history.empty()) throw InvalidArgument("LastValueForecaster: empty history");
        last = history.back();
        fitted = true;
        ++fits;
    }
    void update(double value) { last = value; }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double /*level*/) const {
        if (!fitted) throw InvalidArgument("LastValueForecaster: not fitted");
        return forecast::Forecast{std::vector<double>(static_cast<std::size_t>(horizon), last * scale + offset), {}, {}, 0.0};
    }
    [[nodiscard]] std::string name() const { return "last-value"; }
};
static_assert(forecast::Forecaster<LastValueForecaster>);

Resources cpu(std::string_view q) { return Resources{{"cpu", q}}; }

HybridConfig paper_config(std::size_t min_history = 3) {
    HybridConfig config;
    config.proactive.levels.set("cpu", quota::QuotaLevels::parse("cpu", {"20", "40", "60", "80", "100"}));
    config.min_history = min_history;
    return config;
}

}  // namespace

TEST_CASE("one namespace: warm-up, then the forecast raises the quota ahead of demand") {
    HybridQuotaScaler scaler(LastValueForecaster{1.0, 10.0}, paper_config(3));
    const quota::ClusterSnapshot cluster{0s, cpu("200"), {}, {}};
    std::vector<NamespaceSnapshot> ns{{"shop", cpu("50"), cpu("60"), {}}};
    for (int t = 0; t < 2; ++t) {
        auto c = cluster;
        c.now = Time(t * 60'000);
        const auto d = scaler.tick(c, ns);
        CHECK(d.namespaces[0].warming_up);
        CHECK(d.namespaces[0].quota == cpu("60"));
        // An unchanged quota says so, not "60 -> 60".
        CHECK(d.namespaces[0].reason() == "shop: quota {cpu: 60} unchanged; proactive: warming up (not enough history to forecast)");
    }
    auto c = cluster;
    c.now = 120s;
    ns[0].usage = cpu("55");
    const auto d = scaler.tick(c, ns);  // forecast 55 + 10 = 65 > 60: raise to 65 (not snapped)
    CHECK_FALSE(d.namespaces[0].warming_up);
    CHECK(d.namespaces[0].prediction == cpu("65"));
    CHECK(d.namespaces[0].proactive == ProactiveAction::raise_quota);
    CHECK(d.namespaces[0].quota == cpu("65"));
    CHECK(d.namespaces[0].changed());
    CHECK(d.activation.nodes.empty());
    CHECK(d.cut.empty());
}

TEST_CASE("one namespace: a predicted decrease waits for usage, then snaps up to a level") {
    HybridQuotaScaler scaler(LastValueForecaster{1.0, 0.0}, paper_config(1));
    const std::vector<NamespaceSnapshot> busy{{"shop", cpu("90"), cpu("100"), {}}};
    // The forecaster says 90 -> 90 < 100 -> snap_up(90) = 100: nothing to lower.
    auto d = scaler.tick({0s, cpu("200"), {}, {}}, busy);
    CHECK(d.namespaces[0].proactive == ProactiveAction::hold);
    // Usage falls to 42 -> prediction 42 -> target 60; usage 42 <= 60: lowered at once.
    const std::vector<NamespaceSnapshot> quiet{{"shop", cpu("42"), cpu("100"), {}}};
    d = scaler.tick({60s, cpu("200"), {}, {}}, quiet);
    CHECK(d.namespaces[0].proactive == ProactiveAction::lower_quota);
    CHECK(d.namespaces[0].quota == cpu("60"));
}

TEST_CASE("a forecast below usage keeps the decrease pending until usage comes down") {
    HybridQuotaScaler scaler(LastValueForecaster{0.25, 0.0}, paper_config(1));  // predicts a quarter of usage
    const std::vector<NamespaceSnapshot> ns{{"shop", cpu("80"), cpu("100"), {}}};
    const auto d = scaler.tick({0s, cpu("200"), {}, {}}, ns);  // prediction 20 -> target 20, usage 80 > 20
    CHECK(d.namespaces[0].proactive == ProactiveAction::wait_for_usage_decrease);
    CHECK(d.namespaces[0].quota == cpu("100"));
    CHECK(d.namespaces[0].pending_target == cpu("20"));
    REQUIRE(scaler.pending("shop").has_value());
    CHECK(scaler.pending("shop")->target == cpu("20"));
}

TEST_CASE("reactive events: raise by the shortfall (case 2) or resume waiting nodes (case 3)") {
    const std::vector<WaitingNode> pool{{"wwn-1", cpu("8"), 20s, 1.0}, {"wwn-2", cpu("8"), 20s, 1.0}};
    SUBCASE("case 2") {
        HybridQuotaScaler scaler(LastValueForecaster{}, paper_config(10));
        const std::vector<NamespaceSnapshot> ns{{"shop", cpu("95"), cpu("100"), {cpu("120")}}};
        const auto d = scaler.tick({0s, cpu("150"), pool, {}}, ns);
        CHECK(d.namespaces[0].reactive == ReactiveCase::raise_quota);
        CHECK(d.namespaces[0].quota == cpu("120"));
        CHECK(d.activation.nodes.empty());
    }
    SUBCASE("case 3") {
        HybridQuotaScaler scaler(LastValueForecaster{}, paper_config(10));
        const std::vector<NamespaceSnapshot> ns{{"shop", cpu("95"), cpu("100"), {cpu("120")}}};
        const auto d = scaler.tick({0s, cpu("110"), pool, {}}, ns);  // 10 missing -> two 8-CPU nodes
        CHECK(d.namespaces[0].reactive == ReactiveCase::activate_nodes);
        CHECK(d.activation.names == std::vector<std::string>{"wwn-1", "wwn-2"});
        CHECK(d.namespaces[0].quota == cpu("120"));
        CHECK(d.backed_capacity == cpu("126"));
    }
    SUBCASE("react() between ticks sees the free capacity left by every quota") {
        HybridQuotaScaler scaler(LastValueForecaster{}, paper_config(10));
        const std::vector<NamespaceSnapshot> ns{{"a", cpu("10"), cpu("60"), {}}, {"b", cpu("10"), cpu("30"), {}}};
        const auto r = scaler.react({0s, cpu("100"), pool, {}}, ns, "b", cpu("45"));  // free 10, shortfall 15
        CHECK(r.kind == ReactiveCase::activate_nodes);
        CHECK(r.nodes_to_activate() == std::vector<std::string>{"wwn-1"});
        CHECK(r.new_quota == cpu("45"));
        CHECK_THROWS_AS((void)scaler.react({0s, cpu("100"), pool, {}}, ns, "c", cpu("1")), InvalidArgument);
    }
}

TEST_CASE("many namespaces over capacity: priority, then proportional to demand, the decision says who was cut") {
    HybridQuotaScaler scaler(LastValueForecaster{}, paper_config(10));
    // A: quota 60, uses 30, predicted 60 (hold). B: quota 40, uses 40, predicted 70 (raise).
    // Wanted 130 on a 100-CPU cluster without waiting nodes.
    const std::vector<NamespaceSnapshot> ns{{"a", cpu("30"), cpu("60"), {}}, {"b", cpu("40"), cpu("40"), {}}};
    const std::vector<Resources> predictions{cpu("60"), cpu("70")};
    SUBCASE("equal priority: floors 30 + 40, the other 30 split 30:30 -> 45 and 55") {
        const auto d = scaler.tick_with_predictions({0s, cpu("100"), {}, {}}, ns, predictions);
        CHECK(d.namespaces[0].quota == cpu("45"));
        CHECK(d.namespaces[1].quota == cpu("55"));
        CHECK(d.namespaces[0].cut == cpu("15"));
        CHECK(d.namespaces[1].cut == cpu("15"));
        CHECK(d.cut == std::vector<std::size_t>{0, 1});
        CHECK(d.still_missing == cpu("30"));
        CHECK(d.namespaces[1].proactive == ProactiveAction::infeasible);
        CHECK(d.reason.find("cut a by {cpu: 15}, b by {cpu: 15}") != std::string::npos);
        CHECK(d.namespaces[0].reason().find("cut by {cpu: 15}") != std::string::npos);
        CHECK(d.namespaces[0].reason().rfind("a: quota {cpu: 60} -> {cpu: 45}; proactive step ", 0) == 0);
    }
    SUBCASE("b more important: b gets 70, a keeps its usage (30)") {
        scaler.add_namespace("b", 10);
        const auto d = scaler.tick_with_predictions({0s, cpu("100"), {}, {}}, ns, predictions);
        CHECK(d.namespaces[1].quota == cpu("70"));
        CHECK(d.namespaces[0].quota == cpu("30"));
        CHECK(d.cut == std::vector<std::size_t>{0});
        CHECK(d.namespaces[0].cut == cpu("30"));
    }
    SUBCASE("a waiting node covers the excess: nobody is cut") {
        const std::vector<WaitingNode> pool{{"wwn-big", cpu("32"), 30s, 2.0}};
        const auto d = scaler.tick_with_predictions({0s, cpu("100"), pool, {}}, ns, predictions);
        CHECK(d.cut.empty());
        CHECK(d.activation.names == std::vector<std::string>{"wwn-big"});
        CHECK(d.namespaces[1].quota == cpu("70"));
        CHECK(d.namespaces[1].proactive == ProactiveAction::activate_and_raise_quota);
    }
    SUBCASE("a pool too small is resumed entirely and the rest is shared") {
        const std::vector<WaitingNode> pool{{"wwn-small", cpu("10"), 30s, 1.0}};
        const auto d = scaler.tick_with_predictions({0s, cpu("100"), pool, {}}, ns, predictions);
        CHECK(d.activation.names == std::vector<std::string>{"wwn-small"});
        CHECK(d.backed_capacity == cpu("110"));
        CHECK(d.namespaces[0].quota + d.namespaces[1].quota == cpu("110"));
        CHECK(d.namespaces[0].quota == cpu("50"));  // floors 70, 40 left split 30:30
    }
}

TEST_CASE("a lowered quota brings the consolidation plan of the paper (3 + 4 on two nodes of 10)") {
    HybridConfig config;
    config.proactive.levels.set("cpu", quota::QuotaLevels::parse("cpu", {"10", "20", "30"}));
    HybridQuotaScaler scaler(LastValueForecaster{}, config);
    const std::vector<packing::NodeState> nodes{
        {"node-1", cpu("10"), 1.0, {{"pod-3", cpu("3"), true}}},
        {"node-2", cpu("10"), 1.0, {{"pod-4", cpu("4"), true}}},
    };
    const std::vector<NamespaceSnapshot> ns{{"shop", cpu("7"), cpu("20"), {}}};
    const std::vector<Resources> predictions{cpu("7")};
    const auto d = scaler.tick_with_predictions({0s, cpu("20"), {}, nodes}, ns, predictions);
    CHECK(d.namespaces[0].quota == cpu("10"));
    REQUIRE(d.consolidation.has_value());
    CHECK(d.consolidation->nodes_to_release.size() == 1);
    CHECK(d.consolidation->moves.size() == 1);
}

TEST_CASE("works with AnyForecaster (runtime choice of model)") {
    HybridQuotaScaler<forecast::AnyForecaster> scaler(forecast::AnyForecaster(LastValueForecaster{1.0, 5.0}), paper_config(1));
    const std::vector<NamespaceSnapshot> ns{{"shop", cpu("50"), cpu("50"), {}}};
    const auto d = scaler.tick({0s, cpu("100"), {}, {}}, ns);
    CHECK(d.namespaces[0].quota == cpu("55"));
}

TEST_CASE("bad input: duplicates, time going backwards, NaN forecasts, mismatched spans, bad config") {
    HybridQuotaScaler scaler(LastValueForecaster{}, paper_config(1));
    const std::vector<NamespaceSnapshot> twice{{"a", cpu("1"), cpu("1"), {}}, {"a", cpu("1"), cpu("1"), {}}};
    CHECK_THROWS_WITH_AS(scaler.tick({0s, cpu("10"), {}, {}}, twice), doctest::Contains("\"a\" appears twice"), InvalidArgument);
    const std::vector<NamespaceSnapshot> one{{"a", cpu("1"), cpu("1"), {}}};
    (void)scaler.tick({10s, cpu("10"), {}, {}}, one);
    CHECK_THROWS_WITH_AS(scaler.tick({5s, cpu("10"), {}, {}}, one), doctest::Contains("before the previous tick"), InvalidArgument);
    const std::vector<Resources> none;
    CHECK_THROWS_AS(scaler.tick_with_predictions({20s, cpu("10"), {}, {}}, one, none), InvalidArgument);
    const std::vector<NamespaceSnapshot> negative{{"a", Resources::from_units({{"cpu", -1}}), cpu("1"), {}}};
    CHECK_THROWS_AS(scaler.tick({20s, cpu("10"), {}, {}}, negative), InvalidArgument);

    HybridQuotaScaler nan_scaler(LastValueForecaster{std::numeric_limits<double>::quiet_NaN(), 0.0}, paper_config(1));
    CHECK_THROWS_WITH_AS(nan_scaler.tick({0s, cpu("10"), {}, {}}, one), doctest::Contains("namespace \"a\" resource \"cpu\""), InvalidArgument);

    HybridConfig bad = paper_config(1);
    bad.horizon = 0;
    CHECK_THROWS_AS(HybridQuotaScaler(LastValueForecaster{}, bad), InvalidArgument);
    bad = paper_config(5);
    bad.max_history = 2;
    CHECK_THROWS_AS(HybridQuotaScaler(LastValueForecaster{}, bad), InvalidArgument);
}

TEST_CASE("refit_every refits on the kept history, max_history bounds it") {
    HybridConfig config = paper_config(2);
    config.refit_every = 3;
    config.max_history = 4;
    HybridQuotaScaler scaler(LastValueForecaster{}, config);
    for (int t = 0; t < 20; ++t) {
        const std::vector<NamespaceSnapshot> ns{{"a", Resources::from_cores(10.0 + t), cpu("100"), {}}};
        const auto d = scaler.tick({Time(t * 1000), cpu("1000"), {}, {}}, ns);
        if (t >= 1) CHECK(d.namespaces[0].prediction == Resources::from_cores(10.0 + t));
    }
}

TEST_CASE("property: quotas never exceed what the cluster plus resumed nodes back, uncut namespaces get what they want") {
    std::mt19937_64 rng(99);
    std::uniform_int_distribution<std::int64_t> amount(0, 20'000);
    std::uniform_int_distribution<int> priority(0, 2);
    std::uniform_int_distribution<int> count(1, 12);
    for (int trial = 0; trial < 200; ++trial) {
        HybridQuotaScaler scaler(LastValueForecaster{}, paper_config(1));
        const int n = count(rng);
        std::vector<NamespaceSnapshot> ns;
        std::vector<Resources> predictions;
        for (int i = 0; i < n; ++i) {
            scaler.add_namespace(fmt::format("ns{}", i), priority(rng));
            std::vector<Resources> failed;
            if (i % 3 == 0) failed.push_back(Resources::from_units({{"cpu", amount(rng) * 2}, {"memory", amount(rng) << 20}}));
            ns.push_back({fmt::format("ns{}", i), Resources::from_units({{"cpu", amount(rng) / 2}, {"memory", amount(rng) << 18}}),
                          Resources::from_units({{"cpu", amount(rng)}, {"memory", amount(rng) << 20}}), failed});
            predictions.push_back(Resources::from_units({{"cpu", amount(rng)}}));
        }
        std::vector<WaitingNode> pool;
        for (int k = 0; k < trial % 4; ++k) pool.push_back({fmt::format("w{}", k), Resources::from_units({{"cpu", 4000}, {"memory", 8LL << 30}}), 1s, 1.0});
        const Resources capacity = Resources::from_units({{"cpu", amount(rng) * n / 2}, {"memory", (amount(rng) << 20) * n / 2}});
        const auto d = scaler.tick_with_predictions({0s, capacity, pool, {}}, ns, predictions);
        Resources total;
        for (std::size_t i = 0; i < d.namespaces.size(); ++i) {
            const auto& nd = d.namespaces[i];
            total += nd.quota;
            CHECK(nd.quota + nd.cut == max(nd.quota, nd.wanted));
            if (!nd.was_cut()) CHECK(nd.quota == nd.wanted);
            for (const auto& request : ns[i].failed_requests) {
                if (nd.reactive != ReactiveCase::infeasible) CHECK(request.fits_in(nd.quota));
            }
        }
        CAPTURE(d.reason);
        CHECK(total.fits_in(d.backed_capacity));  // cpu and memory are both constrained here
        CHECK(d.backed_capacity == capacity + d.activation.activated_capacity);
        if (d.cut.empty()) CHECK(d.still_missing.empty());
    }
}

TEST_CASE("a reused decision object is fully reset between ticks") {
    HybridQuotaScaler scaler(LastValueForecaster{}, paper_config(10));
    const std::vector<NamespaceSnapshot> ns{{"a", cpu("30"), cpu("60"), {}}, {"b", cpu("40"), cpu("40"), {cpu("70")}}};
    const std::vector<Resources> predictions{cpu("60"), cpu("70")};
    quota::HybridDecision out;
    scaler.tick_with_predictions({0s, cpu("100"), {}, {}}, ns, predictions, out);
    CHECK(out.cut.size() == 2);
    CHECK(out.namespaces[1].reactive == ReactiveCase::infeasible);
    const std::vector<NamespaceSnapshot> fewer{{"b", cpu("40"), cpu("40"), {}}};
    const std::vector<Resources> one{cpu("40")};
    scaler.tick_with_predictions({60s, cpu("1000"), {}, {}}, fewer, one, out);
    REQUIRE(out.namespaces.size() == 1);
    CHECK(out.namespaces[0].name == "b");
    CHECK(out.cut.empty());
    CHECK(out.namespaces[0].cut.empty());
    CHECK(out.namespaces[0].reactive == ReactiveCase::sufficient_quota);
    CHECK(out.namespaces[0].proactive == ProactiveAction::hold);
    CHECK(out.namespaces[0].failed_requests == 0);
    CHECK(out.still_missing.empty());
    CHECK(out.namespaces[0].quota == cpu("40"));
}

namespace {
/// Forecasts the horizon it was told through plan_for_horizon (0 if never told), as cores.
struct PlanRecordingForecaster {
    int planned = 0;
    void fit(SeriesView /*history*/) {}
    void update(double /*value*/) {}
    void plan_for_horizon(int horizon) { planned = horizon; }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double /*level*/) const {
        return forecast::Forecast{std::vector<double>(static_cast<std::size_t>(horizon), static_cast<double>(planned)), {}, {}, 0.0};
    }
    [[nodiscard]] std::string name() const { return "plan-recording"; }
};
static_assert(forecast::Forecaster<PlanRecordingForecaster>);
}  // namespace

TEST_CASE("the scaler tells a selecting forecaster its horizon (directly or through AnyForecaster)") {
    auto config = paper_config(1);
    config.horizon = 7;
    const quota::ClusterSnapshot cluster{0s, cpu("200"), {}, {}};
    const std::vector<NamespaceSnapshot> ns{{"shop", cpu("1"), cpu("1"), {}}};
    HybridQuotaScaler direct(PlanRecordingForecaster{}, config);
    CHECK(direct.tick(cluster, ns).namespaces[0].prediction == cpu("7"));
    HybridQuotaScaler erased(forecast::AnyForecaster(PlanRecordingForecaster{}), config);
    CHECK(erased.tick(cluster, ns).namespaces[0].prediction == cpu("7"));
    // A forecaster without the hook is wrapped unchanged: AnyForecaster's forwarding is a no-op.
    forecast::AnyForecaster plain(LastValueForecaster{});
    CHECK_NOTHROW(plain.plan_for_horizon(7));
    CHECK_THROWS_AS(forecast::AnyForecaster().plan_for_horizon(7), InvalidArgument);
}
