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

// Textbook O(n * bins) first fit of the items in `order`, the reference for the tree version.
Bins naive_first_fit(const std::vector<std::int64_t>& sizes, std::int64_t capacity, const std::vector<std::size_t>& order) {
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

Bins naive_ffd(const std::vector<std::int64_t>& sizes, std::int64_t capacity) {
    std::vector<std::size_t> order(sizes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
    return naive_first_fit(sizes, capacity, order);
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

TEST_CASE("property: tree FFD and set BFD equal the naive references, every item placed once, no bin over capacity") {
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

TEST_CASE("property: FF, FFD and BFD equal the naive references on large instances (tree growth, equal-size runs, 64-bit sizes)") {
    std::mt19937_64 rng(20261122);
    const auto check = [](const std::vector<std::int64_t>& sizes, std::int64_t capacity) {
        std::vector<std::size_t> identity(sizes.size());
        for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = i;
        const auto ffd = first_fit_decreasing(sizes, capacity);
        REQUIRE(ffd.bins == naive_ffd(sizes, capacity));
        REQUIRE(first_fit(sizes, capacity).bins == naive_first_fit(sizes, capacity, identity));
        REQUIRE(best_fit_decreasing(sizes, capacity).bins == naive_bfd(sizes, capacity));
        std::vector<std::size_t> unplaced;
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            if (sizes[i] > capacity) unplaced.push_back(i);
        }
        REQUIRE(ffd.unplaced == unplaced);
        return ffd.num_bins();
    };
    // Small range (counting sort, int32 tree): thousands of bins, so the tree grows from 1,024
    // leaves several times; every size repeats many times (the equal-size search path).
    for (int trial = 0; trial < 3; ++trial) {
        std::vector<std::int64_t> sizes(6000);
        for (auto& s : sizes) s = std::uniform_int_distribution<std::int64_t>(1, 100)(rng);
        CHECK(check(sizes, 100) > 2048);
    }
    // Input order with runs of equal sizes (first fit resumes a run's search at the last bin).
    {
        std::vector<std::int64_t> sizes;
        while (sizes.size() < 5000) {
            const auto s = std::uniform_int_distribution<std::int64_t>(1, 60)(rng);
            const auto run = std::uniform_int_distribution<int>(1, 40)(rng);
            for (int r = 0; r < run; ++r) sizes.push_back(s);
        }
        CHECK(check(sizes, 100) > 1024);
    }
    // Wide range above 2^31 (packed-key sort, int64 tree), sizes drawn from a pool so that runs occur,
    // some larger than the capacity.
    {
        const std::int64_t capacity = std::int64_t{3} << 40;
        std::vector<std::int64_t> pool(200);
        for (auto& s : pool) s = std::uniform_int_distribution<std::int64_t>(1, capacity + capacity / 50)(rng);
        std::vector<std::int64_t> sizes(4000);
        for (auto& s : sizes) s = pool[std::uniform_int_distribution<std::size_t>(0, pool.size() - 1)(rng)];
        CHECK(check(sizes, capacity) > 1024);
    }
    // Capacity 60,000: best fit still on residual buckets, whose successor bit tree has three levels.
    {
        std::vector<std::int64_t> sizes(3000);
        for (auto& s : sizes) s = std::uniform_int_distribution<std::int64_t>(1, 50'000)(rng);
        CHECK(check(sizes, 60'000) > 1024);
    }
    // Sizes near 2^62.
    {
        const std::int64_t capacity = std::int64_t{1} << 62;
        std::vector<std::int64_t> sizes(3000);
        for (auto& s : sizes) s = std::uniform_int_distribution<std::int64_t>(capacity / 8, capacity)(rng);
        CHECK(check(sizes, capacity) > 1024);
    }
}
