#include <continuum/packing/detail/column_generation.hpp>
#include <continuum/packing/detail/multi_dual_cover.hpp>
#include <continuum/packing/detail/reduced_cost_proof.hpp>
#include <continuum/packing/exact.hpp>

#include "bin_checks.hpp"

#include <doctest/doctest.h>

#include "test_paths.hpp"

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
    bool too_many = false;             // the enumeration under the first duals gave up at its cap
    std::size_t first_patterns = 0;    // bins passing the enumeration (before the vectors added after it)
    std::int64_t memo_hits = 0;
};

/// How reduced_cost_run runs the proof: `extra` further dual vectors (the LPs with one more item of a
/// type), added before the enumeration (`before`: they prune it) or after it (as filters of the cover),
/// and whether the cover remembers its failed states.
struct ProofOptions {
    int extra = 0;
    bool before = false;
    bool remember = false;
    bool cover = true;  // false: the enumeration only (outcome unknown unless it answers)
};

/// The root LP of a BPPLIB instance solved to its optimum (as solve_exact's step does), then the
/// proof for `target` bins, with `extra` further dual vectors (the LPs with one more item of a type).
ReducedCostRun reduced_cost_run(const std::string& file, std::int64_t target, const ProofOptions& options);

ReducedCostRun reduced_cost_run(const std::string& file, std::int64_t target, int extra = 0) {
    ProofOptions options;
    options.extra = extra;
    return reduced_cost_run(file, target, options);
}

ReducedCostRun reduced_cost_run(const std::string& file, std::int64_t target, const ProofOptions& options) {
    const auto instance = continuum::packing::testing::read_bpp_instance(continuum_test::source_dir() + "/data/bpp/" + file);
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
    proof.remember_failures(options.remember);
    // Further dual vectors (the LPs with one more item of a type), before or after the enumeration.
    const auto add_extra_duals = [&] {
        for (auto& d : continuum::packing::detail::one_more_item_duals(cg, options.extra, [] { return true; })) proof.add_duals(std::move(d.profit), d.knapsack);
    };
    if (options.before) add_extra_duals();
    const auto early = proof.prepare(target);
    ReducedCostRun run{ReducedCostProof::Outcome::unknown, proof.patterns(), 0, {}, cg.type_weights(), cg.type_demands()};
    run.too_many = proof.too_many();
    run.first_patterns = proof.patterns();
    if (!options.before) add_extra_duals();
    run.outcome = early ? *early : options.cover ? proof.run(target) : ReducedCostProof::Outcome::unknown;
    run.patterns = proof.patterns();
    run.cover_nodes = proof.cover_nodes();
    run.memo_hits = proof.memo_hits();
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
    const auto instance = continuum::packing::testing::read_bpp_instance(continuum_test::source_dir() + "/data/bpp/waescher/TEST0014.txt");
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

TEST_CASE("Reduced-cost proof: further duals added before the enumeration prune it") {
    // Sizes 6 ×3 and 4 ×3, capacity 10, duals p = (1, 1), K = 2, 3 bins: G = 0 passes {6, 4} and {4, 4}.
    // With at most one bin enumerated, that gives up (too_many); a vector p' = (2, 1), K' = 3 (G' = 0)
    // added first excludes {4, 4} during the enumeration, which then keeps {6, 4} alone within the cap.
    Budget budget;
    budget.node_limit = 10'000;
    BudgetTracker tracker(budget), share(budget);
    ReducedCostProof capped({6, 4}, {3, 3}, 10, {1, 1}, 2, tracker, share, 1);
    CHECK(capped.prepare(3) == ReducedCostProof::Outcome::unknown);
    CHECK(capped.too_many());
    ReducedCostProof filtered({6, 4}, {3, 3}, 10, {1, 1}, 2, tracker, share, 1);
    filtered.add_duals({2, 1}, 3);
    CHECK_FALSE(filtered.prepare(3).has_value());
    CHECK_FALSE(filtered.too_many());
    CHECK(filtered.patterns() == 1);
    REQUIRE(filtered.run(3) == ReducedCostProof::Outcome::found);
    for (const auto& p : filtered.packing()) CHECK(p == ReducedCostProof::Pattern{1, 1});
    // A further vector whose own Farley bound exceeds the bins answers before any enumeration: sizes
    // 6 ×3 and 3 ×4 into 3 bins pass L1 (30) and p = (1, 1), K = 3 (G = 2), but p' = (2, 1) has K' = 3
    // ({6, 3} or {3, 3, 3}) and p'·b = 10 > 3·3.
    ReducedCostProof loose({6, 3}, {3, 4}, 10, {1, 1}, 3, tracker, share, 100);
    CHECK_FALSE(loose.prepare(3).has_value());
    ReducedCostProof farley({6, 3}, {3, 4}, 10, {1, 1}, 3, tracker, share, 100);
    farley.add_duals({2, 1}, 3);
    CHECK(farley.prepare(3) == ReducedCostProof::Outcome::infeasible);
    CHECK(farley.patterns() == 0);
}

TEST_CASE("Reduced-cost proof: remembering failed states prunes, with the same answers") {
    // TEST0065 (non-IRUP, 15 bins infeasible): 270 cover nodes without the memo, 229 with it (13 states
    // met again); TEST0014 (IRUP): the same packing into 23 bins either way (the memo prunes only
    // subtrees without a cover, so the depth-first search meets the same first cover).
    ProofOptions plain, remember;
    remember.remember = true;
    const auto without = reduced_cost_run("waescher/TEST0065.txt", 15, plain);
    const auto with = reduced_cost_run("waescher/TEST0065.txt", 15, remember);
    CHECK(without.outcome == ReducedCostProof::Outcome::infeasible);
    CHECK(with.outcome == ReducedCostProof::Outcome::infeasible);
    CHECK(without.memo_hits == 0);
    CHECK(with.memo_hits > 0);
    CHECK(with.cover_nodes < without.cover_nodes);
    const auto found_without = reduced_cost_run("waescher/TEST0014.txt", 23, plain);
    const auto found_with = reduced_cost_run("waescher/TEST0014.txt", 23, remember);
    REQUIRE(found_without.outcome == ReducedCostProof::Outcome::found);
    REQUIRE(found_with.outcome == ReducedCostProof::Outcome::found);
    CHECK(found_with.loads == found_without.loads);
    CHECK(found_with.cover_nodes < found_without.cover_nodes);
}

TEST_CASE("Reduced-cost proof proves BPP175 and BPP359 (optimum = LP bound + 1) with filtered enumeration and memo") {
    // BPP175 (optimum 84): under the root LP's optimal duals over 20,000 bins pass (over 2,000,000), so
    // the enumeration gives up; with 8 further vectors (types spread evenly) pruning it, under 2,000
    // pass, and with 64 and the memo the cover proves 83 bins infeasible (about 4,000 cover nodes;
    // without the memo 70,000). BPP359 (optimum 76): 64 vectors after the enumeration and the memo prove
    // 75 infeasible in about 14,000 cover nodes (without the memo over 350,000).
    const auto first = reduced_cost_run("hard28/BPP175.txt", 83, 0);
    CHECK(first.outcome == ReducedCostProof::Outcome::unknown);
    CHECK(first.too_many);
    ProofOptions few;
    few.extra = 8;
    few.before = true;
    few.cover = false;
    const auto eight = reduced_cost_run("hard28/BPP175.txt", 83, few);
    CHECK_FALSE(eight.too_many);
    CHECK(eight.first_patterns < 2'000);
    ProofOptions all;
    all.extra = 64;
    all.before = true;
    all.remember = true;
    const auto proved = reduced_cost_run("hard28/BPP175.txt", 83, all);
    CHECK(proved.outcome == ReducedCostProof::Outcome::infeasible);
    CHECK(proved.patterns <= eight.first_patterns);
    CHECK(proved.memo_hits > 0);
    ProofOptions after;
    after.extra = 64;
    after.remember = true;
    const auto bpp359 = reduced_cost_run("hard28/BPP359.txt", 75, after);
    CHECK(bpp359.outcome == ReducedCostProof::Outcome::infeasible);
    CHECK(bpp359.cover_nodes < 100'000);
}
