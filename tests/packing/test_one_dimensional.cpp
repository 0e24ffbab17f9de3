#include <continuum/packing/one_dimensional.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace continuum::packing;
using Bins = std::vector<std::vector<std::size_t>>;

TEST_CASE("1-D heuristics on a hand-computed instance") {
    const std::vector<std::int64_t> sizes{4, 8, 1, 4, 2, 1};
    CHECK(next_fit(sizes, 10).bins == Bins{{0}, {1, 2}, {3, 4, 5}});
    CHECK(first_fit(sizes, 10).bins == Bins{{0, 2, 3, 5}, {1, 4}});
    CHECK(best_fit(sizes, 10).bins == Bins{{0, 3, 4}, {1, 2, 5}});
    CHECK(first_fit_decreasing(sizes, 10).bins == Bins{{1, 4}, {0, 3, 2, 5}});
    CHECK(best_fit_decreasing(sizes, 10).bins == Bins{{1, 4}, {0, 3, 2, 5}});
    CHECK(next_fit_decreasing(sizes, 10).bins == Bins{{1}, {0, 3, 4}, {2, 5}});
}

TEST_CASE("FFD is not optimal on the classic 5,5,4,4,3,3,3,3 instance") {
    const std::vector<std::int64_t> sizes{5, 5, 4, 4, 3, 3, 3, 3};
    CHECK(first_fit_decreasing(sizes, 10).num_bins() == 4);
}

TEST_CASE("1-D: items larger than the capacity are reported, empty input gives zero bins") {
    const std::vector<std::int64_t> sizes{11, 5, 12};
    for (const auto& packing : {next_fit(sizes, 10), first_fit(sizes, 10), best_fit(sizes, 10), first_fit_decreasing(sizes, 10), best_fit_decreasing(sizes, 10)}) {
        CHECK(packing.bins == Bins{{1}});
        CHECK(packing.unplaced == std::vector<std::size_t>{0, 2});
    }
    CHECK(first_fit_decreasing(std::vector<std::int64_t>{}, 10).num_bins() == 0);
}

TEST_CASE("1-D bad input names the argument and value") {
    const std::vector<std::int64_t> zero{3, 0};
    CHECK_THROWS_WITH_AS(first_fit_decreasing(zero, 10), "sizes[1] must be > 0, got 0", continuum::InvalidArgument);
    const std::vector<std::int64_t> negative{-2};
    CHECK_THROWS_AS(best_fit_decreasing(negative, 10), continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS(first_fit(std::vector<std::int64_t>{1}, 0), "capacity must be > 0, got 0", continuum::InvalidArgument);
    CHECK_THROWS_AS(next_fit(std::vector<std::int64_t>{1}, -5), continuum::InvalidArgument);
}

namespace {

// Textbook O(n * bins) first fit decreasing, the reference for the tree version.
Bins naive_ffd(const std::vector<std::int64_t>& sizes, std::int64_t capacity) {
    std::vector<std::size_t> order(sizes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
    Bins bins;
    std::vector<std::int64_t> residual;
    for (const auto i : order) {
        if (sizes[i] > capacity) continue;
        std::size_t b = 0;
        while (b < bins.size() && residual[b] < sizes[i]) ++b;
        if (b == bins.size()) {
            bins.emplace_back();
            residual.push_back(capacity);
        }
        bins[b].push_back(i);
        residual[b] -= sizes[i];
    }
    return bins;
}

Bins naive_bfd(const std::vector<std::int64_t>& sizes, std::int64_t capacity) {
    std::vector<std::size_t> order(sizes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
    Bins bins;
    std::vector<std::int64_t> residual;
    for (const auto i : order) {
        if (sizes[i] > capacity) continue;
        std::size_t best = bins.size();
        for (std::size_t b = 0; b < bins.size(); ++b) {
            if (residual[b] >= sizes[i] && (best == bins.size() || residual[b] < residual[best])) best = b;
        }
        if (best == bins.size()) {
            bins.emplace_back();
            residual.push_back(capacity);
        }
        bins[best].push_back(i);
        residual[best] -= sizes[i];
    }
    return bins;
}

}  // namespace

TEST_CASE("property: tree FFD and set BFD equal the naive references; every item placed once, no bin over capacity") {
    std::mt19937_64 rng(20240601);
    for (int trial = 0; trial < 300; ++trial) {
        const std::int64_t capacity = std::uniform_int_distribution<std::int64_t>(1, 200)(rng);
        const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 120)(rng);
        std::vector<std::int64_t> sizes(n);
        for (auto& s : sizes) s = std::uniform_int_distribution<std::int64_t>(1, capacity + capacity / 4 + 1)(rng);
        const auto ffd = first_fit_decreasing(sizes, capacity);
        const auto bfd = best_fit_decreasing(sizes, capacity);
        REQUIRE(ffd.bins == naive_ffd(sizes, capacity));
        REQUIRE(bfd.bins == naive_bfd(sizes, capacity));
        for (const auto& packing : {ffd, bfd, first_fit(sizes, capacity), best_fit(sizes, capacity), next_fit(sizes, capacity), next_fit_decreasing(sizes, capacity)}) {
            std::vector<int> seen(n, 0);
            for (const auto& bin : packing.bins) {
                REQUIRE_FALSE(bin.empty());
                std::int64_t load = 0;
                for (const auto i : bin) {
                    ++seen[i];
                    load += sizes[i];
                }
                REQUIRE(load <= capacity);
            }
            for (const auto i : packing.unplaced) {
                REQUIRE(sizes[i] > capacity);
                ++seen[i];
            }
            REQUIRE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
        }
    }
}
