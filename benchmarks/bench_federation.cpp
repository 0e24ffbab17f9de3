// Federation benchmarks: rank 100,000 offers (target < 10 ms) from a list (validating and building
// a one-shot catalogue each time) and from an OfferCatalogue built once (all, and the top 10), the
// catalogue build itself, and a scale-out decision for 1,000 pending pods over 1,000 offers
// (target < 50 ms). Offers are drawn from 20 flavours with prices
// varying per offer, three regions and two arches; pods from a few sizes, a quarter with a selector.
#include <continuum/federation.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include <fmt/format.h>

using namespace continuum;
using namespace continuum::federation;

namespace {

std::uint64_t next(std::uint64_t& state) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
}

std::vector<Offer> make_offers(std::size_t n, std::uint64_t seed, bool distinct_prices) {
    std::vector<Offer> offers;
    offers.reserve(n);
    std::uint64_t state = seed;
    const char* regions[] = {"eu-west", "eu-south", "us-east"};
    for (std::size_t i = 0; i < n; ++i) {
        Offer o;
        o.cluster_id = fmt::format("cluster-{:06}", i);
        o.provider = fmt::format("provider-{}", i % 37);
        const auto flavour = next(state) % 20;
        o.capacity = Resources::from_units({{"cpu", static_cast<std::int64_t>(2 + flavour % 5 * 2) * 1000},
                                            {"memory", static_cast<std::int64_t>(4 + flavour / 5 * 4) << 30},
                                            {"pods", 110}});
        o.labels = {{"topology.kubernetes.io/region", regions[next(state) % 3]}, {"kubernetes.io/arch", next(state) % 4 == 0 ? "arm64" : "amd64"}};
        if (next(state) % 2 == 0) {
            o.node_price = distinct_prices ? 0.5 + static_cast<double>(next(state) % 1000) / 100.0 : 1.0 + static_cast<double>(flavour);
        } else {
            o.unit_prices = {{"cpu", distinct_prices ? 0.2 + static_cast<double>(next(state) % 50) / 100.0 : 0.5}, {"memory", 0.05}};
        }
        o.max_nodes = 1 + static_cast<std::int64_t>(next(state) % 3);
        offers.push_back(std::move(o));
    }
    return offers;
}

void BM_RankOffers(benchmark::State& state) {
    const auto offers = make_offers(static_cast<std::size_t>(state.range(0)), 7, true);
    OfferRequirements req;
    req.request = Resources{{"cpu", "1500m"}, {"memory", "2Gi"}};
    req.selector = parse_label_selector("topology.kubernetes.io/region in (eu-west,eu-south)");
    req.arch = "amd64";
    const Recommender recommender;
    for (auto _ : state) {
        auto r = recommender.recommend(offers, req);
        benchmark::DoNotOptimize(r.ranked.data());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_RankOffers)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

OfferRequirements rank_requirements() {
    OfferRequirements req;
    req.request = Resources{{"cpu", "1500m"}, {"memory", "2Gi"}};
    req.selector = parse_label_selector("topology.kubernetes.io/region in (eu-west,eu-south)");
    req.arch = "amd64";
    return req;
}

// Ranking every tick over the same offers: the catalogue is built once, outside the loop.
// Arg 1: how many to keep (0 = all).
void BM_RankCatalogue(benchmark::State& state) {
    const auto offers = make_offers(static_cast<std::size_t>(state.range(0)), 7, true);
    const OfferCatalogue catalogue(offers);
    const auto req = rank_requirements();
    const Recommender recommender;
    const auto top_k = state.range(1) == 0 ? Recommender<>::all : static_cast<std::size_t>(state.range(1));
    for (auto _ : state) {
        auto r = recommender.recommend(catalogue, req, top_k);
        benchmark::DoNotOptimize(r.ranked.data());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_RankCatalogue)->Args({100000, 0})->Args({100000, 10})->Unit(benchmark::kMillisecond);

void BM_BuildCatalogue(benchmark::State& state) {
    const auto offers = make_offers(static_cast<std::size_t>(state.range(0)), 7, true);
    for (auto _ : state) {
        const OfferCatalogue catalogue(offers);
        benchmark::DoNotOptimize(catalogue.node_costs().data());
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_BuildCatalogue)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_ScaleOut(benchmark::State& state) {
    const bool distinct = state.range(1) != 0;
    const auto offers = make_offers(static_cast<std::size_t>(state.range(0)), 11, distinct);
    std::vector<PendingPod> pods;
    std::uint64_t s = 3;
    for (int i = 0; i < 1000; ++i) {
        const auto size = next(s) % 4;
        pods.push_back({fmt::format("pod-{:04}", i), Resources::from_units({{"cpu", static_cast<std::int64_t>(250 + 250 * size)}, {"memory", static_cast<std::int64_t>(256 + 512 * size) << 20}}),
                        next(s) % 4 == 0 ? parse_label_selector("topology.kubernetes.io/region=eu-west") : LabelSelector{}});
    }
    const OfferCatalogue catalogue(offers);
    const bool use_catalogue = state.range(2) != 0;
    for (auto _ : state) {
        auto d = use_catalogue ? plan_scale_out(pods, {}, catalogue) : plan_scale_out(pods, {}, offers);
        benchmark::DoNotOptimize(d.peerings.data());
        state.counters["new_nodes"] = static_cast<double>(d.new_node_count());
        state.counters["unschedulable"] = static_cast<double>(d.unschedulable.size());
        state.counters["cost"] = d.cost;
    }
}
// Args: offers, distinct prices (0/1), offers as a prebuilt OfferCatalogue (0/1).
BENCHMARK(BM_ScaleOut)->Args({1000, 0, 0})->Args({1000, 1, 0})->Args({1000, 1, 1})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
