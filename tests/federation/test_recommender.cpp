#include <continuum/federation/recommender.hpp>

#include <doctest/doctest.h>

#include <cmath>

using namespace continuum;
using namespace continuum::federation;

namespace {
Offer make_offer(std::string id, std::string cpu, std::string memory, double node_price, Labels labels = {}) {
    Offer o;
    o.cluster_id = std::move(id);
    o.provider = "p";
    o.capacity = Resources{{"cpu", cpu}, {"memory", memory}};
    o.node_price = node_price;
    o.labels = std::move(labels);
    return o;
}
}  // namespace

TEST_CASE("recommender: seed 000 Table 1 ranks the three low-cost providers first") {
    std::vector<Offer> offers = {
        make_offer("high-1", "4", "4Gi", 5.0, {{"provider", "pr2"}}),
        make_offer("low-3", "2", "4Gi", 1.0, {{"provider", "pr1"}}),
        make_offer("low-1", "2", "4Gi", 1.0, {{"provider", "pr1"}}),
        make_offer("low-2", "2", "4Gi", 1.0, {{"provider", "pr1"}}),
    };
    const Recommender recommender;
    const auto r = recommender.recommend(offers, {});
    REQUIRE(r.ranked.size() == 4);
    CHECK(offers[r.ranked[0].offer_index].cluster_id == "low-1");  // tie on cost broken by cluster id
    CHECK(offers[r.ranked[1].offer_index].cluster_id == "low-2");
    CHECK(offers[r.ranked[2].offer_index].cluster_id == "low-3");
    CHECK(offers[r.ranked[3].offer_index].cluster_id == "high-1");
    CHECK(r.ranked[0].score == 1.0);
    CHECK(r.ranked[3].score == 5.0);
    CHECK(r.reason(r.ranked[0], offers) == "rank 1 of 4: monetary(requested) cost 1 (tied on cost; ordered by whole-node price, then cluster id)");
    CHECK(r.reason(r.ranked[3], offers) == "rank 4 of 4: monetary(requested) cost 5");

    // A 3-core request fits only the high-cost provider.
    OfferRequirements big;
    big.request = Resources{{"cpu", "3"}, {"memory", "1Gi"}};
    const auto r2 = recommender.recommend(offers, big);
    REQUIRE(r2.ranked.size() == 1);
    CHECK(offers[*r2.best()].cluster_id == "high-1");
    REQUIRE(r2.rejected.size() == 3);
    CHECK(r2.rejected[0].verdict == Verdict::insufficient_capacity);
    CHECK(r2.reason(r2.rejected[0], offers) == "request {cpu: 3, memory: 1Gi} does not fit one node of capacity {cpu: 2, memory: 4Gi}");
}

TEST_CASE("recommender: unit prices, filters and reasons") {
    Offer a = make_offer("a", "8", "16Gi", 0.0, {{"kubernetes.io/arch", "arm64"}, {"region", "eu"}});
    a.unit_prices = {{"cpu", 0.5}, {"memory", 0.25}};  // $/core, $/GiB
    Offer b = make_offer("b", "8", "32Gi", 2.0, {{"kubernetes.io/arch", "amd64"}, {"region", "eu"}});
    Offer c = make_offer("c", "16", "64Gi", 10.0, {{"kubernetes.io/arch", "amd64"}, {"region", "us"}});
    c.capacity.set("nvidia.com/gpu", 2);
    Offer d = make_offer("d", "4", "8Gi", 0.1, {{"kubernetes.io/arch", "amd64"}, {"region", "eu"}});
    d.reachability = Reachability::nat;
    const std::vector<Offer> offers = {a, b, c, d};

    OfferRequirements req;
    req.request = Resources{{"cpu", "2"}, {"memory", "4Gi"}};
    const auto r = Recommender{}.recommend(offers, req);
    // a: 0.5*2 + 0.25*4 = 2; b: flat 2 (whole node 2); c: 10; d: 0.1. Tie a/b at 2: whole-node price a = 0.5*8+0.25*16 = 8 > 2.
    REQUIRE(r.ranked.size() == 4);
    CHECK(offers[r.ranked[0].offer_index].cluster_id == "d");
    CHECK(offers[r.ranked[1].offer_index].cluster_id == "b");
    CHECK(offers[r.ranked[2].offer_index].cluster_id == "a");
    CHECK(r.ranked[2].score == doctest::Approx(2.0));
    CHECK(offers[r.ranked[3].offer_index].cluster_id == "c");

    req.allow_nat = false;
    req.arch = "amd64";
    req.selector = parse_label_selector("region=eu");
    const auto r2 = Recommender{}.recommend(offers, req);
    REQUIRE(r2.ranked.size() == 1);
    CHECK(offers[r2.ranked[0].offer_index].cluster_id == "b");
    REQUIRE(r2.rejected.size() == 3);
    CHECK(r2.rejected[0].verdict == Verdict::wrong_arch);
    CHECK(r2.reason(r2.rejected[0], offers) == "arch is arm64, required amd64");
    CHECK(r2.rejected[1].verdict == Verdict::selector_mismatch);
    CHECK(r2.reason(r2.rejected[1], offers) == "labels fail the selector: requirement region=eu not met (region=us)");
    CHECK(r2.rejected[2].verdict == Verdict::unreachable);

    OfferRequirements gpu;
    gpu.min_gpus = 1;
    const auto r3 = Recommender{}.recommend(offers, gpu);
    REQUIRE(r3.ranked.size() == 1);
    CHECK(offers[r3.ranked[0].offer_index].cluster_id == "c");
    CHECK(r3.reason(r3.rejected[0], offers) == "0 GPUs per node, required 1");
    CHECK(r3.reasons(offers).size() == 4);
}

TEST_CASE("recommender: cost models") {
    Offer a = make_offer("a", "4", "8Gi", 1.0);
    a.latency_ms = 40;
    a.power_watts = 200;
    a.carbon_intensity = 300;
    Offer b = make_offer("b", "4", "8Gi", 3.0);
    b.latency_ms = 5;
    b.power_watts = 100;
    b.carbon_intensity = 900;
    Offer c = make_offer("c", "4", "8Gi", 0.5);  // no figures
    const std::vector<Offer> offers = {a, b, c};
    OfferRequirements req;
    req.request = Resources{{"cpu", "1"}, {"memory", "4Gi"}};  // dominant share 0.5 (memory)

    const auto by_latency = Recommender{LatencyCost{}}.recommend(offers, req);
    REQUIRE(by_latency.ranked.size() == 2);
    CHECK(offers[by_latency.ranked[0].offer_index].cluster_id == "b");
    CHECK(by_latency.rejected[0].verdict == Verdict::unpriceable);
    CHECK(by_latency.reason(by_latency.rejected[0], offers) == "cost model latency cannot price this offer (a figure it needs is missing)");

    const auto by_energy = Recommender{EnergyCost{}}.recommend(offers, req);
    CHECK(by_energy.ranked[0].score == doctest::Approx(50.0));   // b: 100 W x 0.5
    CHECK(by_energy.ranked[1].score == doctest::Approx(100.0));  // a: 200 W x 0.5
    const auto by_carbon = Recommender{EnergyCost{true}}.recommend(offers, req);
    CHECK(offers[by_carbon.ranked[0].offer_index].cluster_id == "a");  // 100 W x 0.3 = 30 g/h vs 50 x 0.9 = 45
    CHECK(by_carbon.ranked[0].score == doctest::Approx(30.0));

    // 1 x $ + 0.1 x ms: a = 1 + 4 = 5, b = 3 + 0.5 = 3.5.
    const WeightedCost weighted(Weighted<MonetaryCost>{1.0, {}}, Weighted<LatencyCost>{0.1, {}});
    const auto by_both = Recommender{weighted}.recommend(offers, req);
    CHECK(offers[by_both.ranked[0].offer_index].cluster_id == "b");
    CHECK(by_both.ranked[0].score == doctest::Approx(3.5));
    CHECK(by_both.cost_model == "1*monetary(requested)+0.1*latency");
    const WeightedSum runtime({{1.0, MonetaryCost{}}, {0.1, LatencyCost{}}});
    CHECK(Recommender{AnyCostModel(runtime)}.recommend(offers, req).ranked[0].score == doctest::Approx(3.5));

    // A user callable: prefer the most memory per dollar (lower is better).
    const auto custom = make_cost_model("dollars-per-gib", [](const Offer& o, const Resources&) {
        return o.node_cost() / (static_cast<double>(o.capacity.memory_bytes()) / (1 << 30));
    });
    const auto by_custom = Recommender{custom}.recommend(offers, req);
    CHECK(offers[by_custom.ranked[0].offer_index].cluster_id == "c");
    CHECK(by_custom.ranked[0].score == doctest::Approx(0.0625));

    const auto nan_model = make_cost_model("nan", [](const Offer&, const Resources&) { return std::nan(""); });
    CHECK_THROWS_AS((void)Recommender{nan_model}.recommend(offers, req), InvalidArgument);
    const auto negative = make_cost_model("neg", [](const Offer&, const Resources&) { return -1.0; });
    CHECK_THROWS_AS((void)Recommender{negative}.recommend(offers, req), InvalidArgument);
    CHECK_THROWS_AS(WeightedSum({{-1.0, MonetaryCost{}}}), InvalidArgument);
}

TEST_CASE("recommender: bad offers are rejected with the offending field") {
    std::vector<Offer> offers = {make_offer("a", "2", "4Gi", 1.0), make_offer("a", "2", "4Gi", 1.0)};
    CHECK_THROWS_WITH_AS((void)Recommender{}.recommend(offers, {}), "offers[1]: duplicate cluster_id \"a\"", InvalidArgument);
    offers[1].cluster_id = "b";
    offers[1].node_price = -1;
    CHECK_THROWS_WITH_AS((void)Recommender{}.recommend(offers, {}), "offers[1]: offer b: node_price must be finite and >= 0, got -1", InvalidArgument);
    offers[1].node_price = 1;
    offers[1].unit_prices["cpu"] = -0.5;
    CHECK_THROWS_AS((void)Recommender{}.recommend(offers, {}), InvalidArgument);
    offers[1].unit_prices.clear();
    offers[1].capacity = Resources{{"cpu", "0"}, {"memory", "4Gi"}};
    CHECK_THROWS_AS((void)Recommender{}.recommend(offers, {}), InvalidArgument);
    offers[1].capacity = Resources{{"cpu", "1"}, {"memory", "4Gi"}};
    offers[1].max_nodes = 0;
    CHECK_THROWS_AS((void)Recommender{}.recommend(offers, {}), InvalidArgument);
    offers[1].max_nodes = 1;
    offers[1].latency_ms = -3;
    CHECK_THROWS_AS((void)Recommender{}.recommend(offers, {}), InvalidArgument);
    offers[1].latency_ms.reset();
    offers[1].cluster_id = "";
    CHECK_THROWS_AS((void)Recommender{}.recommend(offers, {}), InvalidArgument);
    offers[1].cluster_id = "b";
    CHECK(Recommender{}.recommend(offers, {}).ranked.size() == 2);
    OfferRequirements bad;
    bad.min_gpus = -1;
    CHECK_THROWS_AS((void)Recommender{}.recommend(offers, bad), InvalidArgument);
}

TEST_CASE("recommender: property - ranking is sorted, total and independent of input order") {
    std::vector<Offer> offers;
    std::uint64_t state = 12345;
    const auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 33;
    };
    for (int i = 0; i < 200; ++i) {
        Offer o = make_offer(fmt::format("c{:03}", i), std::to_string(1 + next() % 8), fmt::format("{}Gi", 1 + next() % 16), static_cast<double>(next() % 5));
        if (next() % 3 == 0) o.unit_prices["cpu"] = static_cast<double>(next() % 4) * 0.25;
        o.labels["zone"] = fmt::format("z{}", next() % 3);
        offers.push_back(o);
    }
    OfferRequirements req;
    req.request = Resources{{"cpu", "1"}, {"memory", "1Gi"}};
    req.selector = parse_label_selector("zone in (z0,z1)");
    const auto r = Recommender{}.recommend(offers, req);
    CHECK(r.ranked.size() + r.rejected.size() == offers.size());
    for (std::size_t i = 1; i < r.ranked.size(); ++i) CHECK(r.ranked[i - 1].score <= r.ranked[i].score);
    std::vector<Offer> reversed(offers.rbegin(), offers.rend());
    const auto r2 = Recommender{}.recommend(reversed, req);
    REQUIRE(r2.ranked.size() == r.ranked.size());
    for (std::size_t i = 0; i < r.ranked.size(); ++i) {
        CHECK(offers[r.ranked[i].offer_index].cluster_id == reversed[r2.ranked[i].offer_index].cluster_id);
    }
}
