#include <continuum/packing/lower_bounds.hpp>
#include <continuum/packing/vector_heuristics.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace continuum::packing;
using continuum::Resources;
using Bins = std::vector<std::vector<std::size_t>>;

namespace {
Resources pod(std::int64_t cpu_millis, std::int64_t memory_mib) {
    return Resources::from_units({{"cpu", cpu_millis}, {"memory", memory_mib * 1024 * 1024}});
}
}  // namespace

TEST_CASE("vector orderings: Cluster Autoscaler sum, max, Karpenter lexicographic") {
    const Resources node = pod(4000, 8192);
    // normalised (cpu, mem): a=(0.5,0.125) b=(0.25,0.5) c=(0.625,0.0625) d=(0.125,0.375)
    const std::vector<Resources> items{pod(2000, 1024), pod(1000, 4096), pod(2500, 512), pod(500, 3072)};
    // sum: b .75, c .6875, a .625, d .5 ; FF: b->0, c->0 (cpu 3500, mem 4608), a -> 1 (cpu 2000), d -> 0 (cpu 4000, mem 7680)
    CHECK(first_fit_decreasing(items, node).bins == Bins{{1, 2, 3}, {0}});
    // max: c .625, a .5, b .5, d .375 (a before b: tie by index); c->0, a->1, b->0 (cpu 3500), d->0 (cpu 4000)
    CHECK(first_fit_decreasing(items, node, VectorOrder::max_normalized).bins == Bins{{2, 1, 3}, {0}});
    // lexicographic cpu first: c 2500, a 2000, b 1000, d 500 ; c->0, a->1, b->0, d->0
    CHECK(first_fit_decreasing(items, node, VectorOrder::lexicographic).bins == Bins{{2, 1, 3}, {0}});
    // best fit by sum: b->0; c fits 0 -> 0; a: only new bin 1; d: bin0 residual after (0,0.0625) sum .0625 vs bin1 (.375,.5) -> 0
    CHECK(best_fit_decreasing(items, node).bins == Bins{{1, 2, 3}, {0}});
}

TEST_CASE("Panigrahy bin-centric DotProduct and L2 rules") {
    const Resources node = Resources::from_units({{"cpu", 10}, {"memory", 10}});
    const std::vector<Resources> items{Resources::from_units({{"cpu", 6}, {"memory", 1}}), Resources::from_units({{"cpu", 1}, {"memory", 6}}),
                                       Resources::from_units({{"cpu", 4}, {"memory", 4}}), Resources::from_units({{"cpu", 4}, {"memory", 9}})};
    // Dot: bin residual (1,1): scores .7 .7 .8 1.3 -> item 3; residual (.6,.1): only item0 fits? 6>6? cpu .6 ok mem .1 ok -> item 0 (0.37)
    // then residual (0, 0): nothing. Bin 2: (1,1): item1 .7 vs item2 .8 -> item 2; residual (.6,.6): item1 .6*.1+.6*.6=.42 -> item 1.
    CHECK(first_fit_decreasing(items, node, VectorOrder::dot_product).bins == Bins{{3, 0}, {2, 1}});
    // L2: minimise ||r - s||^2: from (1,1): item3 (.6,.1)->.37 best; then residual (.6,.1): item0 -> (0,0) = 0.
    CHECK(first_fit_decreasing(items, node, VectorOrder::l2_norm).bins == Bins{{3, 0}, {2, 1}});
}

TEST_CASE("vector: unplaced items, dimension the node lacks, empty input, bad input") {
    const Resources node = pod(2000, 2048);
    const std::vector<Resources> items{pod(3000, 10), pod(100, 100), Resources::from_units({{"nvidia.com/gpu", 1}})};
    const auto packing = first_fit_decreasing(items, node);
    CHECK(packing.bins == Bins{{1}});
    CHECK(packing.unplaced == std::vector<std::size_t>{0, 2});
    CHECK(first_fit_decreasing(std::vector<Resources>{}, node).num_bins() == 0);
    CHECK_THROWS_AS(first_fit_decreasing(std::vector<Resources>{Resources{}}, node), continuum::InvalidArgument);
    CHECK_THROWS_AS(first_fit_decreasing(std::vector<Resources>{Resources::from_units({{"cpu", -1}})}, node), continuum::InvalidArgument);
    CHECK_THROWS_AS(first_fit_decreasing(items, Resources{}), continuum::InvalidArgument);
    const std::vector<std::int64_t> dense{1, 2, 3};
    const std::vector<std::int64_t> cap2{4, 4};
    CHECK_THROWS_AS(first_fit_decreasing(dense, 2, cap2), continuum::InvalidArgument);  // 3 values, 2 dims
    const std::vector<std::int64_t> cap3{4, 4, 4};
    CHECK_THROWS_AS(first_fit_decreasing(std::vector<std::int64_t>{1, 2}, 2, cap3), continuum::InvalidArgument);  // mismatch
}

namespace {
// Textbook O(n * bins * d) FFD, items by Σ (or max with `max_key`) of size_k / cap_k, largest first.
Bins naive_vector_ffd(const std::vector<std::int64_t>& sizes, std::size_t d, const std::vector<std::int64_t>& cap, bool max_key = false) {
    const std::size_t n = sizes.size() / d;
    std::vector<std::pair<double, std::size_t>> keyed;
    for (std::size_t i = 0; i < n; ++i) {
        double key = 0;
        for (std::size_t k = 0; k < d; ++k) {
            const double s = static_cast<double>(sizes[i * d + k]) / static_cast<double>(cap[k]);
            key = max_key ? std::max(key, s) : key + s;
        }
        keyed.emplace_back(key, i);
    }
    std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    Bins bins;
    std::vector<std::vector<std::int64_t>> residual;
    for (const auto& entry : keyed) {
        const std::size_t i = entry.second;
        const auto fits = [&](const std::vector<std::int64_t>& r) {
            for (std::size_t k = 0; k < d; ++k) {
                if (sizes[i * d + k] > r[k]) return false;
            }
            return true;
        };
        if (!fits(cap)) continue;
        std::size_t b = 0;
        while (b < bins.size() && !fits(residual[b])) ++b;
        if (b == bins.size()) {
            bins.emplace_back();
            residual.push_back(cap);
        }
        bins[b].push_back(i);
        for (std::size_t k = 0; k < d; ++k) residual[b][k] -= sizes[i * d + k];
    }
    return bins;
}
}  // namespace

TEST_CASE("property: vector FFD equals a naive FFD, every order places each item once within capacity") {
    std::mt19937_64 rng(99);
    for (int trial = 0; trial < 200; ++trial) {
        const std::size_t d = std::uniform_int_distribution<std::size_t>(1, 4)(rng);
        const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 60)(rng);
        std::vector<std::int64_t> cap(d);
        for (auto& c : cap) c = std::uniform_int_distribution<std::int64_t>(1, 100)(rng);
        std::vector<std::int64_t> sizes(n * d);
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t k = 0; k < d; ++k) sizes[i * d + k] = std::uniform_int_distribution<std::int64_t>(k == 0 ? 1 : 0, cap[k] + 5)(rng);
        }
        REQUIRE(first_fit_decreasing(sizes, d, cap).bins == naive_vector_ffd(sizes, d, cap));
        for (const auto order : {VectorOrder::sum_normalized, VectorOrder::max_normalized, VectorOrder::lexicographic, VectorOrder::dot_product, VectorOrder::l2_norm}) {
            for (const auto& packing : {first_fit_decreasing(sizes, d, cap, order), best_fit_decreasing(sizes, d, cap, order)}) {
                std::vector<int> seen(n, 0);
                for (const auto& bin : packing.bins) {
                    REQUIRE_FALSE(bin.empty());
                    std::vector<std::int64_t> load(d, 0);
                    for (const auto i : bin) {
                        ++seen[i];
                        for (std::size_t k = 0; k < d; ++k) load[k] += sizes[i * d + k];
                    }
                    for (std::size_t k = 0; k < d; ++k) REQUIRE(load[k] <= cap[k]);
                }
                for (const auto i : packing.unplaced) {
                    ++seen[i];
                    bool too_big = false;
                    for (std::size_t k = 0; k < d; ++k) too_big = too_big || sizes[i * d + k] > cap[k];
                    REQUIRE(too_big);
                }
                REQUIRE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
            }
        }
    }
}

TEST_CASE("property: vector FFD equals the naive FFD on instances with thousands of bins (tree growth, closed bins)") {
    std::mt19937_64 rng(20261122);
    for (const std::size_t d : {2, 4}) {
        const std::vector<std::int64_t> cap(d, 100);
        std::vector<std::int64_t> sizes(4000 * d);
        for (std::size_t i = 0; i < 4000; ++i) {
            for (std::size_t k = 0; k < d; ++k) sizes[i * d + k] = std::uniform_int_distribution<std::int64_t>(k == 0 ? 5 : 0, k == 1 ? 110 : 60)(rng);
        }
        const auto sum = first_fit_decreasing(sizes, d, cap);
        CHECK(sum.num_bins() > 1024);
        CHECK_FALSE(sum.unplaced.empty());
        REQUIRE(sum.bins == naive_vector_ffd(sizes, d, cap));
        REQUIRE(first_fit_decreasing(sizes, d, cap, VectorOrder::max_normalized).bins == naive_vector_ffd(sizes, d, cap, true));
    }
}
