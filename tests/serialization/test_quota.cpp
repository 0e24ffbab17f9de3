// State of the quota scalers: random multi-namespace runs (usage random walks, failed deployments,
// a shared cluster with waiting nodes; the host writes back the decided quotas) saved at a random
// tick through JSON, restored into a new scaler and continued: every later decision is identical.
#include "state_testing.hpp"

#include <continuum/serialization/quota.hpp>

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

using namespace continuum;
using namespace std::chrono_literals;
namespace fc = continuum::forecast;

namespace {

quota::HybridConfig hybrid_config(std::size_t refit_every) {
    quota::HybridConfig config;
    config.proactive.levels.set("cpu", quota::QuotaLevels::parse("cpu", {"2", "4", "8", "16", "32"}));
    config.proactive.decrease_hold = 2min;
    config.min_history = 10;
    config.max_history = 24;
    config.refit_every = refit_every;
    config.interval_level = 0.8;
    return config;
}

/// A cluster of five namespaces the host drives: usage is a random walk, the quota written back is
/// the decided one, some ticks carry a failed deployment.
struct Host {
    std::mt19937_64 rng;
    std::vector<quota::NamespaceSnapshot> namespaces;
    std::vector<capacity::WaitingNode> waiting{{"w1", Resources{{"cpu", "8"}}, 0ms, 1.0}, {"w2", Resources{{"cpu", "16"}}, 0ms, 2.0}};

    explicit Host(std::uint64_t seed) : rng(seed) {
        for (int i = 0; i < 5; ++i) namespaces.push_back({fmt::format("ns-{}", i), Resources{{"cpu", "2"}}, Resources{{"cpu", "4"}}, {}});
    }
    template <typename Scaler>
    std::string tick(Scaler& scaler, int t) {
        for (auto& ns : namespaces) {
            const std::int64_t step = static_cast<std::int64_t>(rng() % 1201) - 600;
            ns.usage.set("cpu", std::clamp<std::int64_t>(ns.usage.cpu_millis() + step, 100, 30000));
            ns.failed_requests.clear();
            if (rng() % 13 == 0) ns.failed_requests.push_back(ns.usage + Resources{{"cpu", "3"}});
        }
        const quota::ClusterSnapshot cluster{Time{std::chrono::minutes(t)}, Resources{{"cpu", "48"}}, waiting, {}};
        const auto d = scaler.tick(cluster, namespaces);
        std::string out = d.reason;
        for (std::size_t i = 0; i < namespaces.size(); ++i) {
            out += "|" + d.namespaces[i].reason();
            namespaces[i].quota = d.namespaces[i].quota;
        }
        return out + fmt::format("|{}", fmt::join(d.activation.names, ","));
    }
};

template <typename F>
void check_hybrid_resumes(const F& prototype, std::size_t refit_every) {
    const auto config = hybrid_config(refit_every);
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        Host host_a(seed), host_b(seed);
        quota::HybridQuotaScaler<F> uninterrupted(prototype, config);
        quota::HybridQuotaScaler<F> first_half(prototype, config);
        first_half.add_namespace("ns-3", 5);  // a priority is state too
        uninterrupted.add_namespace("ns-3", 5);
        const int ticks = 60;
        const int stop = static_cast<int>(3 + seed * 9 % 50);
        for (int t = 0; t < stop; ++t) CHECK(host_a.tick(uninterrupted, t) == host_b.tick(first_half, t));
        const auto saved = testing::through_json(first_half.state());
        quota::HybridQuotaScaler<F> restored(prototype, config, saved);
        CHECK(restored.state() == saved);
        for (int t = stop; t < ticks; ++t) CHECK(host_a.tick(uninterrupted, t) == host_b.tick(restored, t));
        CHECK(restored.state() == uninterrupted.state());
    }
}

}  // namespace

TEST_CASE("hybrid state: a restored scaler decides exactly as the uninterrupted one") {
    check_hybrid_resumes(fc::SimpleExponentialSmoothing{}, 0);
    check_hybrid_resumes(fc::MovingAverage{4}, 7);
    fc::HoltWintersSpec spec;
    spec.trend = fc::Trend::none;
    spec.season_length = 4;
    check_hybrid_resumes(fc::AnyForecaster(fc::HoltWinters<double>(spec)), 5);
}

TEST_CASE("hybrid state: without refits the fitted namespaces carry no history") {
    quota::HybridQuotaScaler<fc::Naive> scaler(fc::Naive{}, hybrid_config(0));
    Host host(3);
    for (int t = 0; t < 12; ++t) (void)host.tick(scaler, t);
    const auto s = scaler.state();
    REQUIRE(s.namespaces.size() == 5);
    CHECK(s.namespaces[0].fitted);
    CHECK(s.namespaces[0].history.empty());
    CHECK(s.namespaces[0].models.size() == 1);
    quota::HybridQuotaScaler<fc::Naive> warming(fc::Naive{}, hybrid_config(0));
    for (int t = 0; t < 4; ++t) (void)host.tick(warming, t);
    REQUIRE(warming.state().namespaces[0].history.size() == 1);
    CHECK(warming.state().namespaces[0].history.front().size() == 4);
    CHECK(warming.state().namespaces[0].history.front().back() == static_cast<double>(host.namespaces[0].usage.cpu_millis()) / 1000.0);
}

TEST_CASE("hybrid state: bad states are rejected naming the field, and nothing is kept") {
    const auto config = hybrid_config(5);
    quota::HybridQuotaScaler<fc::SeasonalNaive> scaler(fc::SeasonalNaive{4}, config);
    Host host(1);
    for (int t = 0; t < 14; ++t) (void)host.tick(scaler, t);
    const auto good = scaler.state();
    using Scaler = quota::HybridQuotaScaler<fc::SeasonalNaive>;
    CHECK_THROWS_WITH_AS(Scaler(fc::SeasonalNaive{6}, config, good),
                         "hybrid quota scaling restore: state.namespaces[0].models[0]: seasonal_naive restore: state.season_length = 4 but the configuration has 6",
                         InvalidArgument);
    auto bad = good;
    bad.namespaces[1].name = "ns-0";
    CHECK_THROWS_WITH_AS(Scaler(fc::SeasonalNaive{4}, config, bad), "hybrid quota scaling restore: state.namespaces[1].name \"ns-0\" appears twice", InvalidArgument);
    bad = good;
    bad.namespaces[2].history[0][3] = -1.0;
    CHECK_THROWS_WITH_AS(Scaler(fc::SeasonalNaive{4}, config, bad), "hybrid quota scaling restore: state.namespaces[2].history[0][3] = -1 is not a finite usage >= 0",
                         InvalidArgument);
    bad = good;
    bad.namespaces[0].since_fit = 5;
    CHECK_THROWS_WITH_AS(Scaler(fc::SeasonalNaive{4}, config, bad), "hybrid quota scaling restore: state.namespaces[0].since_fit = 5 must be below refit_every = 5",
                         InvalidArgument);
    auto other = config;
    other.proactive.resources = {"cpu", "memory"};
    CHECK_THROWS_WITH_AS(Scaler(fc::SeasonalNaive{4}, other, good),
                         "hybrid quota scaling restore: state.namespaces[0].models has 1 models, expected 2 (one per managed resource)", InvalidArgument);
    bad = good;
    bad.namespaces[0].pending = quota::PendingDecrease{Resources{{"cpu", "2"}}, Time{1h}, std::nullopt};
    CHECK_THROWS_WITH_AS(Scaler(fc::SeasonalNaive{4}, config, bad),
                         "hybrid quota scaling restore: state.namespaces[0].pending.since = 3600000 ms is not before the last time seen", InvalidArgument);

    auto doc = serialization::to_json(good);
    doc["namespaces"][0]["models"][0]["next"] = "two";
    CHECK_THROWS_WITH_AS(serialization::from_json<Scaler::State>(doc), "state document: $.namespaces[0].models[0].next: expected an integer, got string", ParseError);
    doc = serialization::to_json(good);
    doc["namespaces"][0].erase("pending");
    CHECK_THROWS_WITH_AS(serialization::from_json<Scaler::State>(doc), "state document: $.namespaces[0].pending: missing field", ParseError);
    doc = serialization::to_json(good);
    doc["namespaces"][0]["models"][0]["schema"] = "continuum.Naive";
    CHECK_THROWS_WITH_AS(serialization::from_json<Scaler::State>(doc),
                         "state document: $.namespaces[0].models[0].schema: expected \"continuum.SeasonalNaive\", got \"continuum.Naive\"", ParseError);
}

TEST_CASE("proactive and reactive state: a restored scaler decides exactly as the uninterrupted one") {
    quota::ProactiveConfig config;
    config.levels.set("cpu", quota::QuotaLevels::parse("cpu", {"2", "4", "8", "16"}));
    config.decrease_hold = 90s;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        std::mt19937_64 rng_a(seed), rng_b(seed);
        quota::ProactiveQuotaScaler uninterrupted(config), first_half(config);
        Resources quota_a{{"cpu", "8"}}, quota_b{{"cpu", "8"}};
        const auto step = [](quota::ProactiveQuotaScaler& s, std::mt19937_64& rng, Resources& q, int t) {
            const auto prediction = Resources::from_units({{"cpu", static_cast<std::int64_t>(500 + rng() % 12000)}});
            const auto usage = Resources::from_units({{"cpu", static_cast<std::int64_t>(200 + rng() % 9000)}});
            const auto d = s.decide({Time{std::chrono::seconds(30 * t)}, prediction, q, usage, Resources{{"cpu", "12"}}, {}, {}});
            q = d.new_quota;
            return d.reason;
        };
        const int stop = static_cast<int>(seed * 5 % 40);
        for (int t = 0; t < stop; ++t) CHECK(step(uninterrupted, rng_a, quota_a, t) == step(first_half, rng_b, quota_b, t));
        const auto saved = testing::through_json(first_half.state());
        quota::ProactiveQuotaScaler restored(config, saved);
        for (int t = stop; t < 40; ++t) CHECK(step(uninterrupted, rng_a, quota_a, t) == step(restored, rng_b, quota_b, t));
        CHECK(restored.state() == uninterrupted.state());
    }
    const quota::ReactiveQuotaScaler reactive;
    const quota::ReactiveQuotaScaler reactive_restored({}, testing::through_json(reactive.state()));
    CHECK(serialization::dump(reactive.state()) == R"({"schema":"continuum.ReactiveQuotaScaler","version":1})");
    quota::ProactiveQuotaScalerState bad{quota::PendingDecrease{Resources{{"cpu", "2"}}, Time{5min}, Time{4min}}, Time{6min}};
    CHECK_THROWS_WITH_AS(quota::ProactiveQuotaScaler(config, bad),
                         "proactive quota scaling restore: state.pending.condition_since = 240000 ms is not between since and the last time seen", InvalidArgument);
}
