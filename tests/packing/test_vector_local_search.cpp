// The vector consistent-neighbourhood search (detail/vector_local_search.hpp) behind solve_exact's
// vector primal side: it must keep every packing valid and find packings the greedy rules miss.
#include <continuum/packing/detail/vector_local_search.hpp>
#include <continuum/packing/exact.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace continuum::packing;
using namespace continuum::packing::detail;

namespace {
void check_packing(const DenseItems& items, const std::vector<std::int64_t>& capacity, const std::vector<std::vector<std::size_t>>& bins) {
    std::vector<int> seen(items.n, 0);
    for (const auto& bin : bins) {
        REQUIRE(!bin.empty());
        std::vector<std::int64_t> load(items.d, 0);
        for (const auto i : bin) {
            ++seen[i];
            for (std::size_t k = 0; k < items.d; ++k) load[k] += items.row(i)[k];
        }
        for (std::size_t k = 0; k < items.d; ++k) REQUIRE(load[k] <= capacity[k]);
    }
    REQUIRE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
}
}  // namespace

TEST_CASE("vector local search: complementary pairs from one item per bin down to the perfect packing") {
    // A_i = (30 + i, 70 - i) and B_i = (70 - i, 30 + i) fill a (100, 100) bin exactly, and only together.
    DenseItems items;
    items.d = 2;
    for (std::int64_t i = 0; i < 8; ++i) {
        items.sizes.insert(items.sizes.end(), {30 + 3 * i, 70 - 3 * i});
        items.sizes.insert(items.sizes.end(), {70 - 3 * i, 30 + 3 * i});
    }
    items.n = items.sizes.size() / 2;
    const std::vector<std::int64_t> capacity{100, 100};
    std::vector<std::vector<std::size_t>> bins;
    for (std::size_t i = 0; i < items.n; ++i) bins.push_back({i});
    continuum::BudgetTracker share(continuum::Budget{1'000'000, std::nullopt});
    continuum::BudgetTracker whole(continuum::Budget{1'000'000, std::nullopt});
    VectorNeighbourhoodSearch search(items, capacity);
    CHECK(search.improve(bins, 8, share, whole));
    check_packing(items, capacity, bins);
    CHECK(bins.size() == 8);
}

TEST_CASE("vector local search: random 3-D instances stay valid and never get worse") {
    std::mt19937_64 rng(33);
    int improvements = 0;
    for (int trial = 0; trial < 20; ++trial) {
        CAPTURE(trial);
        DenseItems items;
        items.d = 3;
        items.n = 40;
        for (std::size_t i = 0; i < items.n * items.d; ++i) items.sizes.push_back(std::uniform_int_distribution<std::int64_t>(100, 400)(rng));
        const std::vector<std::int64_t> capacity{1000, 1000, 1000};
        auto bins = vector_ffd(items, capacity, VectorOrder::sum_normalized).bins;
        const auto before = bins.size();
        continuum::BudgetTracker share(continuum::Budget{20'000, std::nullopt});
        continuum::BudgetTracker whole(continuum::Budget{20'000, std::nullopt});
        VectorNeighbourhoodSearch search(items, capacity);
        const bool improved = search.improve(bins, 1, share, whole);
        check_packing(items, capacity, bins);
        CHECK(bins.size() <= before);
        CHECK(improved == (bins.size() < before));
        improvements += improved ? 1 : 0;
    }
    CHECK(improvements >= 5);  // FFD leaves a bin to save on many of them (sizes 100..400 of 1000)
}
