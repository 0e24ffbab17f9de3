// OfferCatalogue and the Recommender's columnar ranking: parity with the straightforward ranking
// (validate, filter and price offer by offer, sort with string tie-breaks) on random offers with
// ties, missing resources, sparse columns and every built-in cost model; same validation messages.
#include <continuum/federation/offer_catalogue.hpp>
#include <continuum/federation/recommender.hpp>
#include <continuum/federation/scale_out.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

using namespace continuum;
using namespace continuum::federation;

namespace {

/// The ranking as Recommender::recommend computed it before the catalogue: kept verbatim as the
/// reference the columnar path must reproduce bit for bit.
template <typename M>
Recommendation reference_recommend(const M& model, std::span<const Offer> offers, const OfferRequirements& requirements) {
    validate_offers(offers);
    requirements.validate();
    Recommendation out;
    out.requirements = requirements;
    out.cost_model = model.name();
    for (std::size_t i = 0; i < offers.size(); ++i) {
        const Verdict verdict = Recommender<M>::filter(offers[i], requirements);
        if (verdict != Verdict::ranked) {
            out.rejected.push_back({i, 0.0, verdict});
            continue;
        }
        const double score = static_cast<double>(model.cost(offers[i], requirements.request));
        if (std::isnan(score) || score < 0.0) throw InvalidArgument("bad score");
        if (std::isinf(score)) {
            out.rejected.push_back({i, 0.0, Verdict::unpriceable});
            continue;
        }
        out.ranked.push_back({i, score, Verdict::ranked});
    }
    std::sort(out.ranked.begin(), out.ranked.end(), [&](const ScoredOffer& a, const ScoredOffer& b) {
        if (a.score != b.score) return a.score < b.score;
        const double ca = offers[a.offer_index].node_cost(), cb = offers[b.offer_index].node_cost();
        if (ca != cb) return ca < cb;
        return offers[a.offer_index].cluster_id < offers[b.offer_index].cluster_id;
    });
    out.eligible = out.ranked.size();
    return out;
}

std::string describe(const ScoredOffer& e) { return fmt::format("{}:{:016x}:{}", e.offer_index, std::bit_cast<std::uint64_t>(e.score), to_string(e.verdict)); }

bool same(const ScoredOffer& a, const ScoredOffer& b) {
    return a.offer_index == b.offer_index && std::bit_cast<std::uint64_t>(a.score) == std::bit_cast<std::uint64_t>(b.score) && a.verdict == b.verdict;
}

void check_same(const Recommendation& got, const Recommendation& want, std::size_t top_k = Recommender<>::all) {
    CHECK(got.eligible == want.ranked.size());
    const std::size_t k = std::min(top_k, want.ranked.size());
    REQUIRE(got.ranked.size() == k);
    REQUIRE(got.rejected.size() == want.rejected.size());
    std::size_t mismatches = 0;
    const auto compare = [&](const ScoredOffer& a, const ScoredOffer& b) {
        if (same(a, b)) return;
        if (++mismatches <= 3) CHECK(describe(a) == describe(b));
    };
    for (std::size_t i = 0; i < k; ++i) compare(got.ranked[i], want.ranked[i]);
    for (std::size_t i = 0; i < want.rejected.size(); ++i) compare(got.rejected[i], want.rejected[i]);
    CHECK(mismatches == 0);
    CHECK(got.cost_model == want.cost_model);
}

template <typename T>
const T& pick(std::mt19937_64& rng, const std::vector<T>& options) {
    return options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
}

std::vector<Offer> random_offers(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < n; ++i) ids.push_back(fmt::format("c{}-{}", rng() % 1000, i));  // unique, shuffled order
    std::shuffle(ids.begin(), ids.end(), rng);
    std::vector<Offer> offers;
    for (std::size_t i = 0; i < n; ++i) {
        Offer o;
        o.cluster_id = ids[i];
        o.provider = "p";
        o.capacity = Resources::from_units({{"cpu", pick<std::int64_t>(rng, {500, 1000, 2000, 4000})}, {"memory", pick<std::int64_t>(rng, {1, 2, 4, 8}) << 30}});
        if (chance(0.2)) o.capacity.set("nvidia.com/gpu", pick<std::int64_t>(rng, {1, 2, 4}));
        if (chance(0.04)) o.capacity.set("example.com/fpga", pick<std::int64_t>(rng, {1, 2}));  // sparse column
        if (chance(0.5)) o.capacity.set("pods", 110);
        o.max_nodes = pick<std::int64_t>(rng, {1, 2, 3});
        o.node_price = pick<double>(rng, {0.0, 0.5, 1.0, 1.0, 2.5, 0.1});
        if (chance(0.5)) {
            o.unit_prices["cpu"] = pick<double>(rng, {0.0, 0.1, 0.2, 0.3, 0.7});
            if (chance(0.7)) o.unit_prices["memory"] = pick<double>(rng, {0.0, 0.05, 0.1});
            if (chance(0.3)) o.unit_prices["nvidia.com/gpu"] = pick<double>(rng, {0.0, 1.0, 2.0});
            if (chance(0.05)) o.unit_prices["example.com/fpga"] = 3.0;
        }
        if (chance(0.9)) o.labels["region"] = pick<std::string>(rng, {"eu", "us", "ap", ""});
        if (chance(0.8)) o.labels[std::string(label_keys::arch)] = pick<std::string>(rng, {"amd64", "arm64"});
        if (chance(0.6)) o.labels["tier"] = pick<std::string>(rng, {"1", "2", "3", "10", "x"});
        if (chance(0.03)) o.labels["rare"] = "yes";  // sparse label column
        o.reachability = chance(0.3) ? Reachability::nat : Reachability::direct;
        if (chance(0.7)) o.latency_ms = pick<double>(rng, {1.0, 5.0, 12.5, 40.0});
        if (chance(0.7)) o.power_watts = pick<double>(rng, {100.0, 250.0, 400.0});
        if (chance(0.6)) o.carbon_intensity = pick<double>(rng, {50.0, 300.0});
        offers.push_back(std::move(o));
    }
    return offers;
}

std::vector<OfferRequirements> requirement_cases() {
    std::vector<OfferRequirements> out;
    const std::vector<std::string> selectors = {"", "region=eu", "region in (eu,us)", "region notin (eu)", "!region", "region", "tier>1", "tier<3",
                                                "region=eu,tier>0", "rare", "!rare", "absent-key", "!absent-key", "region=mars", "region!="};
    const std::vector<Resources> requests = {
        Resources{},
        Resources{{"cpu", "500m"}, {"memory", "1Gi"}},
        Resources{{"cpu", "1500m"}, {"memory", "2Gi"}},
        Resources{{"cpu", "1"}, {"nvidia.com/gpu", "1"}},
        Resources{{"cpu", "100m"}, {"example.com/fpga", "1"}},
        Resources{{"cpu", "100m"}, {"example.com/unknown", "1"}},
        Resources{{"memory", "3Gi"}, {"pods", "1"}},
    };
    std::size_t i = 0;
    for (const auto& selector : selectors) {
        for (const auto& request : requests) {
            OfferRequirements r;
            r.selector = parse_label_selector(selector);
            r.request = request;
            r.arch = (i % 3 == 0) ? "amd64" : (i % 7 == 0 ? "riscv64" : "");
            r.min_gpus = (i % 5 == 0) ? 1 : 0;
            r.allow_nat = i % 4 != 0;
            out.push_back(std::move(r));
            ++i;
        }
    }
    LabelSelector match_labels;
    match_labels.match_labels = {{"region", "us"}, {"tier", "2"}};
    out.push_back({match_labels, Resources{{"cpu", "1"}}, 0, "", true});
    return out;
}

template <typename M>
void check_model(const M& model, const std::vector<Offer>& offers, const OfferCatalogue& catalogue) {
    const Recommender<M> recommender(model);
    std::size_t index = 0;
    for (const auto& requirements : requirement_cases()) {
        CAPTURE(requirements.selector.to_string());
        CAPTURE(requirements.request.to_string());
        const auto want = reference_recommend(model, offers, requirements);
        check_same(recommender.recommend(catalogue, requirements), want);
        check_same(recommender.recommend(offers, requirements), want);
        if (index++ % 4 != 0) continue;
        for (const std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{7}, want.ranked.size() / 2}) {
            check_same(recommender.recommend(catalogue, requirements, k), want, k);
            check_same(recommender.recommend(offers, requirements, k), want, k);
        }
    }
}

}  // namespace

TEST_CASE("offer catalogue: ranking is bit-identical to the straightforward ranking on random offers") {
    for (const auto& [seed, n] : {std::pair<std::uint64_t, std::size_t>{1, 3000}, {2, 400}}) {
        const auto offers = random_offers(n, seed);
        const OfferCatalogue catalogue(offers);
        REQUIRE(catalogue.size() == n);
        CHECK(catalogue.has_tie_order());
        check_model(MonetaryCost{}, offers, catalogue);
        check_model(MonetaryCost{PriceBasis::whole_offer}, offers, catalogue);
        check_model(LatencyCost{}, offers, catalogue);
        check_model(EnergyCost{}, offers, catalogue);
        check_model(EnergyCost{true}, offers, catalogue);
        check_model(WeightedCost(Weighted<MonetaryCost>{2.0, {}}, Weighted<LatencyCost>{0.1, {}}, Weighted<EnergyCost>{0.0, {}}), offers, catalogue);
        check_model(WeightedSum({{1.0, MonetaryCost{}}, {0.01, EnergyCost{true}}, {0.0, LatencyCost{}}}), offers, catalogue);
        // Not columnar: priced offer by offer through the catalogue's offers.
        const auto custom = make_cost_model("cores", [](const Offer& o, const Resources&) { return static_cast<double>(o.capacity.cpu_millis() % 3000); });
        check_model(custom, offers, catalogue);
        check_model(AnyCostModel(custom), offers, catalogue);
        check_model(WeightedSum({{1.0, MonetaryCost{}}, {1.0, custom}}), offers, catalogue);
    }
}

TEST_CASE("offer catalogue: columns, sparse columns, owning copies and selectors") {
    const auto offers = random_offers(500, 9);
    const auto catalogue = OfferCatalogue::owning(offers);
    const OfferCatalogue copy = catalogue;  // shares the owned offers
    REQUIRE(copy.size() == offers.size());
    std::vector<std::int64_t> scratch, other;
    const auto fpga = copy.capacity("example.com/fpga", scratch);
    const auto nope = copy.capacity("nope", other);
    CHECK(std::vector<std::int64_t>(nope.begin(), nope.end()) == std::vector<std::int64_t>(offers.size(), 0));
    for (std::size_t i = 0; i < offers.size(); ++i) {
        CHECK(copy.offer(i).cluster_id == offers[i].cluster_id);
        CHECK(fpga[i] == offers[i].capacity.get("example.com/fpga"));
        CHECK(copy.capacity(i, "example.com/fpga") == offers[i].capacity.get("example.com/fpga"));
        CHECK(copy.capacity(i, "cpu") == offers[i].capacity.cpu_millis());
        CHECK(copy.node_costs()[i] == offers[i].node_cost());
        CHECK((copy.priced_per_unit()[i] != 0) == offers[i].priced_per_unit());
        CHECK(std::isnan(copy.latency_ms()[i]) == !offers[i].latency_ms.has_value());
    }
    for (const auto* text : {"rare", "!rare", "tier>1", "region notin (eu,us)", "region=", "!absent-key"}) {
        const auto selector = parse_label_selector(text);
        const auto mask = copy.matching(selector);
        std::size_t matches = 0;
        for (std::size_t i = 0; i < offers.size(); ++i) {
            CHECK((mask[i] != 0) == selector.matches(offers[i].labels));
            matches += mask[i];
        }
        CHECK(matches > 0);
        CHECK(matches <= offers.size());
    }
    CHECK_THROWS_AS((void)copy.offer(offers.size()), InvalidArgument);
    const OfferCatalogue empty{std::span<const Offer>{}};
    CHECK(empty.size() == 0);
    CHECK(Recommender{}.recommend(empty, {}).ranked.empty());
}

TEST_CASE("offer catalogue: the same validation messages as validate_offers") {
    const auto base = random_offers(20, 4);
    std::vector<std::vector<Offer>> bad(9, base);
    bad[0][3].cluster_id = "";
    bad[1][5].labels["bad key!"] = "x";
    bad[2][5].labels["region"] = "-bad-";
    bad[3][7].capacity.set("cpu", 0);
    bad[4][7].capacity.set("nvidia.com/gpu", -1);
    bad[5][2].node_price = -1.0;
    bad[6][2].unit_prices["memory"] = std::numeric_limits<double>::quiet_NaN();
    bad[7][9].latency_ms = -3.0;
    bad[8][11].cluster_id = bad[8][4].cluster_id;
    bad[8][13].cluster_id = bad[8][4].cluster_id;
    for (const auto& offers : bad) {
        std::string want;
        try {
            validate_offers(offers);
        } catch (const InvalidArgument& e) {
            want = e.what();
        }
        REQUIRE(!want.empty());
        CHECK_THROWS_WITH_AS(OfferCatalogue{offers}, want.c_str(), InvalidArgument);
        CHECK_THROWS_WITH_AS((void)Recommender{}.recommend(offers, {}), want.c_str(), InvalidArgument);
    }
    const std::string duplicate = "offers[11]: duplicate cluster_id \"" + base[4].cluster_id + "\"";
    CHECK_THROWS_WITH_AS(OfferCatalogue{bad[8]}, duplicate.c_str(), InvalidArgument);
}

TEST_CASE("recommender: top-k keeps the best k and reasons count every eligible offer") {
    std::vector<Offer> offers;
    for (int i = 0; i < 6; ++i) {
        Offer o;
        o.cluster_id = fmt::format("o{}", 5 - i);
        o.capacity = Resources{{"cpu", "2"}, {"memory", "4Gi"}};
        o.node_price = i < 3 ? 1.0 : 0.5 * i;  // o5, o4, o3 cost 1; o2 1.5, o1 2, o0 2.5
        offers.push_back(o);
    }
    const OfferCatalogue catalogue(offers);
    const auto top = Recommender{}.recommend(catalogue, {}, 2);
    REQUIRE(top.ranked.size() == 2);
    CHECK(top.eligible == 6);
    CHECK(offers[top.ranked[0].offer_index].cluster_id == "o3");  // cost 1 tie: by cluster id
    CHECK(offers[top.ranked[1].offer_index].cluster_id == "o4");
    CHECK(top.rejected.empty());
    CHECK(top.reason(top.ranked[1], offers) == "rank 2 of 6: monetary(requested) cost 1 (tied on cost; ordered by whole-node price, then cluster id)");
    CHECK(Recommender{}.recommend(catalogue, {}, 0).ranked.empty());
    CHECK(Recommender{}.recommend(catalogue, {}, 100).ranked.size() == 6);
}

TEST_CASE("scale-out: node types covered by enough cheaper, larger nodes are left out of the packing") {
    std::vector<Resources> items(4, Resources{{"cpu", "1"}, {"memory", "1Gi"}, {"pods", "1"}});
    std::vector<packing::NodeType> types;
    types.push_back({"big", Resources{{"cpu", "4"}, {"memory", "4Gi"}, {"pods", "110"}}, 1.0, 10});
    for (int t = 1; t < 20; ++t) types.push_back({fmt::format("small-{}", t), Resources{{"cpu", "2"}, {"memory", "2Gi"}, {"pods", "110"}}, 1.0 + t, 1});
    // First fit decreasing: one big node, U = 1, so an optimal mix has at most floor(1 / 1) + 1 = 2
    // nodes; ten big nodes cover every small type.
    CHECK(federation::detail::undominated_types(items, types) == std::vector<std::size_t>{0});
    // One big node only: small-1 (cost 2) is covered by 1 < 2 nodes and stays; small-2 (cost 3) is
    // covered by big and small-1 (2 nodes) and goes, as do the rest.
    types[0].max_count = 1;
    CHECK(federation::detail::undominated_types(items, types) == std::vector<std::size_t>{0, 1});
    // Free types: no bound.
    types[5].cost = 0.0;
    CHECK(federation::detail::undominated_types(items, types).size() == 20);
}

TEST_CASE("scale-out: a catalogue gives the same decision as the offer list") {
    const auto offers = random_offers(300, 5);
    const OfferCatalogue catalogue(offers);
    std::vector<PendingPod> pods;
    for (int i = 0; i < 120; ++i) {
        pods.push_back({fmt::format("p{}", i), Resources::from_units({{"cpu", 250 * (1 + i % 4)}, {"memory", std::int64_t{256 + 512 * (i % 3)} << 20}}),
                        i % 5 == 0 ? parse_label_selector("region=eu") : LabelSelector{}});
    }
    const auto a = plan_scale_out(pods, {}, offers);
    const auto b = plan_scale_out(pods, {}, catalogue);
    CHECK(a.reason == b.reason);
    CHECK(a.cost == b.cost);
    REQUIRE(a.peerings.size() == b.peerings.size());
    for (std::size_t i = 0; i < a.peerings.size(); ++i) {
        CHECK(a.peerings[i].offer_index == b.peerings[i].offer_index);
        CHECK(a.peerings[i].nodes.size() == b.peerings[i].nodes.size());
    }
    CHECK(a.unschedulable.size() == b.unschedulable.size());
    CHECK(a.unschedulable.empty());
    CHECK(a.new_node_count() > 0);
}
