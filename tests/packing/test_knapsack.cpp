// The pricing knapsack of the exact solver (packing/detail/knapsack.hpp): the few-items
// enumeration against the dynamic programme, branch and bound and brute force.
#include <continuum/packing/detail/few_items_knapsack.hpp>
#include <continuum/packing/detail/knapsack.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

using continuum::Budget;
using continuum::BudgetTracker;
using continuum::packing::detail::FewItemsKnapsack;
using continuum::packing::detail::Knapsack;
using continuum::packing::detail::KnapsackMethod;
using continuum::packing::detail::KnapsackResult;

namespace {

struct Instance {
    std::vector<std::int64_t> weight, profit, demand;
    std::int64_t capacity = 0;
};

/// Best value over every count vector (0 <= a_j <= b_j, Σ w_j a_j <= c), and the most items in a feasible one.
std::pair<std::int64_t, std::int64_t> brute_force(const Instance& in, std::size_t j = 0, std::int64_t room = -1, std::int64_t value = 0, std::int64_t items = 0) {
    if (room < 0) room = in.capacity;
    if (j == in.weight.size()) return {value, items};
    std::pair<std::int64_t, std::int64_t> best{0, 0};
    for (std::int64_t a = 0; a <= in.demand[j] && a * in.weight[j] <= room; ++a) {
        const auto sub = brute_force(in, j + 1, room - a * in.weight[j], value + a * in.profit[j], items + (in.profit[j] > 0 ? a : 0));
        best.first = std::max(best.first, sub.first);
        best.second = std::max(best.second, sub.second);
    }
    return best;
}

void check_counts(const Instance& in, const KnapsackResult& r) {
    REQUIRE(r.counts.size() == in.weight.size());
    std::int64_t weight = 0, value = 0;
    for (std::size_t j = 0; j < in.weight.size(); ++j) {
        REQUIRE(r.counts[j] >= 0);
        REQUIRE(r.counts[j] <= in.demand[j]);
        weight += r.counts[j] * in.weight[j];
        value += r.counts[j] * in.profit[j];
    }
    CHECK(weight <= in.capacity);
    CHECK(value == r.value);
}

Instance random_instance(std::mt19937_64& rng, std::int64_t profit_scale) {
    const auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
    Instance in;
    in.capacity = pick(1, 60);
    const auto m = static_cast<std::size_t>(pick(1, 8));
    const std::int64_t lightest = pick(1, in.capacity);  // large: k = 1 or 2; small: many items per bin
    for (std::size_t j = 0; j < m; ++j) {
        in.weight.push_back(pick(lightest, in.capacity + 10));  // some do not fit
        in.demand.push_back(pick(0, 3));
        // Few distinct profits, so ties are common; some zero.
        in.profit.push_back(pick(0, 5) * profit_scale + (profit_scale > 1 ? pick(0, 3) : 0));
    }
    return in;
}

}  // namespace

TEST_CASE("few-items knapsack: same optimum as the DP, branch and bound and brute force on random instances") {
    std::mt19937_64 rng(2024);
    int compared = 0, up_to_five = 0, single = 0;
    for (int trial = 0; trial < 800; ++trial) {
        // Small profits (many ties) and profits of the size the pricing uses (duals × 2^24).
        const auto in = random_instance(rng, trial % 2 == 0 ? 1 : (std::int64_t{1} << 40));
        CAPTURE(trial);
        const auto [best, most_items] = brute_force(in);
        CHECK(FewItemsKnapsack::max_items(in.weight, in.profit, in.demand, in.capacity, 1000) == most_items);
        Budget budget;
        BudgetTracker tracker(budget);
        Knapsack knapsack(in.weight, 1, {in.capacity});
        for (const auto method : {KnapsackMethod::few_items, KnapsackMethod::dynamic_programming, KnapsackMethod::branch_and_bound, KnapsackMethod::automatic}) {
            const auto r = knapsack.solve(in.profit, in.demand, 1'000'000, tracker, method);
            CAPTURE(static_cast<int>(method));
            CHECK(r.exact);
            CHECK(r.value == best);
            check_counts(in, r);
        }
        ++compared;
        up_to_five += most_items <= 5 ? 1 : 0;
        single += most_items == 1 ? 1 : 0;
    }
    CHECK(compared == 800);
    CHECK(up_to_five > 400);  // the cases the solver uses it for are well represented
    CHECK(single > 50);
}

TEST_CASE("few-items knapsack: large multiplicities, heavy-tailed profits and a Scholl 3 sized capacity") {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        Instance in;
        in.capacity = 100'000;
        const auto m = std::uniform_int_distribution<std::size_t>(1, 7)(rng);
        for (std::size_t j = 0; j < m; ++j) {
            in.weight.push_back(std::uniform_int_distribution<std::int64_t>(15'000, 60'000)(rng));
            in.demand.push_back(std::uniform_int_distribution<std::int64_t>(1, 6)(rng));
            // Profits roughly proportional to the weight, as LP duals are, so many patterns tie or nearly do.
            in.profit.push_back(in.weight.back() / 1000 * std::uniform_int_distribution<std::int64_t>(9, 11)(rng));
        }
        CAPTURE(trial);
        Budget budget;
        BudgetTracker tracker(budget);
        Knapsack knapsack(in.weight, 1, {in.capacity});
        const auto few = knapsack.solve(in.profit, in.demand, 1'000'000, tracker, KnapsackMethod::few_items);
        const auto bb = knapsack.solve(in.profit, in.demand, 1'000'000, tracker, KnapsackMethod::branch_and_bound);
        CHECK(few.exact);
        CHECK(few.value == brute_force(in).first);
        CHECK(few.value == bb.value);
        check_counts(in, few);
    }
}

TEST_CASE("few-items knapsack: automatic choice, and its work counted on the budget") {
    // 60 types of 20,000-35,000 at capacity 100,000: at most 4 items a bin, the DP table would
    // have 6 million cells, so the enumeration is chosen.
    std::mt19937_64 rng(3);
    Instance in;
    in.capacity = 100'000;
    for (int j = 0; j < 60; ++j) {
        in.weight.push_back(std::uniform_int_distribution<std::int64_t>(20'000, 35'000)(rng));
        in.demand.push_back(1);
        in.profit.push_back(in.weight.back() * 168 + std::uniform_int_distribution<std::int64_t>(-20'000, 20'000)(rng));
    }
    CHECK(FewItemsKnapsack::max_items(in.weight, in.profit, in.demand, in.capacity, 10) == 4);
    Budget budget;
    BudgetTracker tracker(budget);
    Knapsack knapsack(in.weight, 1, {in.capacity});
    const auto automatic = knapsack.solve(in.profit, in.demand, 1'000'000, tracker);
    const auto bb = knapsack.solve(in.profit, in.demand, 100'000'000, tracker, KnapsackMethod::branch_and_bound);
    CHECK(automatic.exact);
    CHECK(bb.exact);
    CHECK(automatic.value == bb.value);
    check_counts(in, automatic);

    FewItemsKnapsack few;
    std::vector<std::int64_t> counts;
    bool exact = false;
    Budget counted;
    BudgetTracker counter(counted);
    CHECK(few.solve(in.weight, in.profit, in.demand, in.capacity, 1'000'000, counter, counts, exact) == bb.value);
    CHECK(exact);
    CHECK(few.steps() > 256);
    CHECK(counter.nodes() == few.steps() / 256);  // one budget node per 256 steps

    // A step limit or an exhausted budget stops it: a feasible incumbent, not claimed exact.
    CHECK(few.solve(in.weight, in.profit, in.demand, in.capacity, 10, counter, counts, exact) <= bb.value);
    CHECK_FALSE(exact);
    Budget tiny;
    tiny.node_limit = 2;
    BudgetTracker short_tracker(tiny);
    const auto cut = few.solve(in.weight, in.profit, in.demand, in.capacity, 1'000'000, short_tracker, counts, exact);
    CHECK_FALSE(exact);
    CHECK(short_tracker.exhausted());
    CHECK(cut <= bb.value);
    std::int64_t weight = 0;
    for (std::size_t j = 0; j < counts.size(); ++j) weight += counts[j] * in.weight[j];
    CHECK(weight <= in.capacity);
}

TEST_CASE("knapsack DP: profits past 2^52 (not exact in doubles) take the integer table, with the same optimum") {
    // The DP keeps its table in doubles only while every sum of profits is below 2^52; profits of
    // 2^52 and more, with small offsets a double cannot hold, must give the brute-force optimum too.
    std::mt19937_64 rng(11);
    int profitable = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const auto in = random_instance(rng, std::int64_t{1} << 52);
        CAPTURE(trial);
        const auto best = brute_force(in).first;
        Budget budget;
        BudgetTracker tracker(budget);
        Knapsack knapsack(in.weight, 1, {in.capacity});
        const auto r = knapsack.solve(in.profit, in.demand, 1'000'000, tracker, KnapsackMethod::dynamic_programming);
        CHECK(r.exact);
        CHECK(r.value == best);
        check_counts(in, r);
        profitable += best > 0 ? 1 : 0;
    }
    CHECK(profitable > 150);
}

TEST_CASE("knapsack DP: capacities of a few hundred cells, odd and even, against brute force") {
    std::mt19937_64 rng(23);
    const auto pick = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
    for (int trial = 0; trial < 200; ++trial) {
        Instance in;
        in.capacity = pick(120, 400);  // odd and even (the SSE2 blocks of eight cells, the pairs and the last cell)
        const auto m = static_cast<std::size_t>(pick(1, 8));
        for (std::size_t j = 0; j < m; ++j) {
            in.weight.push_back(pick(1, in.capacity / 2));  // odd and even split weights
            in.demand.push_back(pick(0, 3));
            in.profit.push_back(pick(0, 1 << 24));
        }
        CAPTURE(trial);
        Budget budget;
        BudgetTracker tracker(budget);
        Knapsack knapsack(in.weight, 1, {in.capacity});
        const auto r = knapsack.solve(in.profit, in.demand, 1'000'000, tracker, KnapsackMethod::dynamic_programming);
        CHECK(r.exact);
        CHECK(r.value == brute_force(in).first);
        check_counts(in, r);
    }
}
