#include <continuum/packing/detail/column_generation.hpp>
#include <continuum/packing/detail/reduced_cost_proof.hpp>
#include <continuum/packing/exact.hpp>

#include "bin_checks.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

using continuum::Budget;
using continuum::BudgetTracker;
using continuum::packing::detail::ReducedCostProof;

namespace {

/// Items of a packing given as patterns (copies per type) back to item sizes, one bin per pattern.
std::vector<std::vector<std::int64_t>> reduced_cost_loads(const std::vector<ReducedCostProof::Pattern>& packing, const std::vector<std::int64_t>& weight) {
    std::vector<std::vector<std::int64_t>> bins;
    for (const auto& p : packing) {
        std::vector<std::int64_t> bin;
        for (std::size_t j = 0; j < p.size(); ++j) bin.insert(bin.end(), static_cast<std::size_t>(p[j]), weight[j]);
        bins.push_back(std::move(bin));
    }
    return bins;
}

struct ReducedCostRun {
    ReducedCostProof::Outcome outcome;
    std::size_t patterns;
    std::int64_t cover_nodes;
    std::vector<std::vector<std::int64_t>> loads;  // item sizes per bin when found
    std::vector<std::int64_t> weight, demand;
};

/// The root LP of a BPPLIB instance solved to its optimum (as solve_exact's step does), then the
/// proof for `target` bins, with `extra` further dual vectors (the LPs with one more item of a type).
ReducedCostRun reduced_cost_run(const std::string& file, std::int64_t target, int extra = 0) {
    const auto instance = continuum::packing::testing::read_bpp_instance(std::string(CONTINUUM_SOURCE_DIR) + "/data/bpp/" + file);
    const std::int64_t capacity[1] = {instance.capacity};
    const auto items = continuum::packing::detail::dense_view(instance.sizes, 1, capacity);
    const auto placeable = continuum::packing::detail::decreasing_order(instance.sizes);
    Budget budget;
    budget.node_limit = 2'000'000;
    BudgetTracker tracker(budget), share(budget);
    continuum::packing::detail::ColumnGeneration<double> cg(items, capacity, placeable, tracker);
    (void)cg.root(static_cast<std::int64_t>(items.n));
    cg.set_to_optimality(true);
    auto lp = cg.residual_lp(cg.type_demands());
    REQUIRE(lp.knapsack > 0);
    CHECK(lp.lower_bound == target);  // the LP's Farley bound is the target: the proof is the step above it
    ReducedCostProof proof(cg.type_weights(), cg.type_demands(), instance.capacity, lp.profit, lp.knapsack, tracker, share, 20'000);
    continuum::packing::detail::add_one_more_item_duals(cg, proof, extra, [] { return true; });
    ReducedCostRun run{proof.run(target), proof.patterns(), proof.cover_nodes(), {}, cg.type_weights(), cg.type_demands()};
    if (run.outcome == ReducedCostProof::Outcome::found) run.loads = reduced_cost_loads(proof.packing(), run.weight);
    return run;
}

}  // namespace

TEST_CASE("Reduced-cost proof: hand-computed duals, Farley and exact cover") {
    // Capacity 10, sizes 6 ×3 (type 0) and 4 ×3 (type 1); duals p = (2, 1): the best bin is {6, 4}
    // (p·a = 3; {4, 4} is 2, {6} 2), so K = 3 and p·b = 9.
    Budget budget;
    budget.node_limit = 10'000;
    BudgetTracker tracker(budget), share(budget);
    const auto make = [&] { return ReducedCostProof({6, 4}, {3, 3}, 10, {2, 1}, 3, tracker, share, 100); };
    // 2 bins: G = 2·3 − 9 < 0, the Farley bound alone.
    CHECK(make().run(2) == ReducedCostProof::Outcome::infeasible);
    // 3 bins: G = 0, only bins of reduced cost 0 pass: {6, 4} alone (load 10), three of them.
    auto three = make();
    REQUIRE(three.run(3) == ReducedCostProof::Outcome::found);
    CHECK(three.patterns() == 1);
    const auto packing = three.packing();
    REQUIRE(packing.size() == 3);
    for (const auto& p : packing) CHECK(p == ReducedCostProof::Pattern{1, 1});
    // 4 bins: G = 3 = K, no filter (the Farley bound is below 4): unknown, never a wrong answer.
    CHECK(make().run(4) == ReducedCostProof::Outcome::unknown);
    // Duals p = (1, 1), K = 2 ({6, 4} or {4, 4}), p·b = 6: 3 bins leave G = 0, so every bin holds two
    // items; {6, 4} ×3 is such a packing.
    auto pairs = ReducedCostProof({6, 4}, {3, 3}, 10, {1, 1}, 2, tracker, share, 100);
    CHECK(pairs.run(3) == ReducedCostProof::Outcome::found);
    CHECK(pairs.patterns() == 2);
    // A second dual vector p = (2, 1), K = 3 ({6, 4}), G = 9 − 9 = 0 excludes {4, 4} (3 − 2 = 1 > 0).
    auto filtered = ReducedCostProof({6, 4}, {3, 3}, 10, {1, 1}, 2, tracker, share, 100);
    filtered.add_duals({2, 1}, 3);
    CHECK(filtered.run(3) == ReducedCostProof::Outcome::found);
    CHECK(filtered.patterns() == 1);
    // Sizes 6 ×3 and 3 ×4 fill 3 bins exactly (30), but no bin of them is full (6 + 3 = 9, 3 ×3 = 9):
    // with p = (1, 1) and K = 3 ({3, 3, 3}), G = 9 − 7 = 2 passes every non-empty bin (5 of them),
    // and the exact cover fails on the waste (0 left, each bin wastes at least 1): optimum 4.
    auto full = ReducedCostProof({6, 3}, {3, 4}, 10, {1, 1}, 3, tracker, share, 100);
    CHECK(full.run(3) == ReducedCostProof::Outcome::infeasible);
    CHECK(full.patterns() == 5);
}

TEST_CASE("Reduced-cost proof: a spent budget or too many bins answer unknown") {
    Budget none;
    none.node_limit = 1;
    BudgetTracker spent(none), spent_share(none);
    (void)spent.count();
    // The enumeration's first counted step (every 256) or the cover's first node hits the spent budget.
    ReducedCostProof starved({6, 4}, {3, 3}, 10, {1, 1}, 2, spent, spent_share, 100);
    CHECK(starved.run(3) == ReducedCostProof::Outcome::unknown);
    Budget budget;
    budget.node_limit = 10'000;
    BudgetTracker tracker(budget), share(budget);
    ReducedCostProof capped({6, 4}, {3, 3}, 10, {1, 1}, 2, tracker, share, 1);  // 2 bins pass, at most 1
    CHECK(capped.run(3) == ReducedCostProof::Outcome::unknown);
}

TEST_CASE("Reduced-cost proof proves non-IRUP Hard28 and Waescher instances from the root LP") {
    // Optimum = ⌈LP⌉ + 1 (data/bpp/optima.csv): BPP119 77, TEST0022 15, TEST0065 16. Under the root
    // LP's integer duals few bins have reduced cost within ⌈LP⌉·K − p·b, and no ⌈LP⌉ of them cover
    // the items exactly.
    struct Case {
        std::string file;
        std::int64_t target;
    };
    for (const auto& c : {Case{"hard28/BPP119.txt", 76}, Case{"waescher/TEST0022.txt", 14}, Case{"waescher/TEST0065.txt", 15}}) {
        CAPTURE(c.file);
        const auto run = reduced_cost_run(c.file, c.target);
        CHECK(run.outcome == ReducedCostProof::Outcome::infeasible);
        CHECK(run.patterns > 0);
        CHECK(run.patterns < 2'000);
    }
}

TEST_CASE("Reduced-cost proof with further dual vectors proves BPP716 (LP = 75.000, optimum 76)") {
    // Under the first optimal duals 940 bins pass and the cover is open after 3 million nodes; twelve
    // more dual vectors (each a filter and a budget) leave fewer bins and close it.
    const auto run = reduced_cost_run("hard28/BPP716.txt", 75, 12);
    CHECK(run.outcome == ReducedCostProof::Outcome::infeasible);
    CHECK(run.patterns < 940);
}

TEST_CASE("Reduced-cost proof finds the packing into the LP bound on an IRUP instance") {
    // TEST0014 (Waescher): optimum 23 = ⌈LP⌉; the exact cover is a packing into 23 bins.
    const auto run = reduced_cost_run("waescher/TEST0014.txt", 23);
    REQUIRE(run.outcome == ReducedCostProof::Outcome::found);
    REQUIRE(run.loads.size() == 23);
    const auto instance = continuum::packing::testing::read_bpp_instance(std::string(CONTINUUM_SOURCE_DIR) + "/data/bpp/waescher/TEST0014.txt");
    // Same multiset of sizes, every bin within capacity.
    std::vector<std::int64_t> packed;
    for (const auto& bin : run.loads) {
        CHECK(std::accumulate(bin.begin(), bin.end(), std::int64_t{0}) <= instance.capacity);
        packed.insert(packed.end(), bin.begin(), bin.end());
    }
    auto sizes = instance.sizes;
    std::sort(sizes.begin(), sizes.end());
    std::sort(packed.begin(), packed.end());
    CHECK(packed == sizes);
}
