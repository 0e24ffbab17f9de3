#include <continuum/packing/detail/column_generation.hpp>
#include <continuum/packing/detail/multi_dual_cover.hpp>
#include <continuum/packing/detail/reduced_cost_proof.hpp>
#include <continuum/packing/one_dimensional.hpp>

#include "bin_checks.hpp"
#include "lds_root.hpp"

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using continuum::Budget;
using continuum::BudgetTracker;
using continuum::packing::detail::DualVector;
using continuum::packing::detail::MultiDualCover;
using continuum::packing::detail::SparsePattern;

namespace {
/// Item indices per bin for a packing given as copies per type (types' members in `members`).
std::vector<std::vector<std::size_t>> multi_dual_items(const std::vector<std::vector<std::int64_t>>& patterns, const std::vector<std::vector<std::size_t>>& members) {
    std::vector<std::size_t> next(members.size(), 0);
    std::vector<std::vector<std::size_t>> bins;
    for (const auto& pattern : patterns) {
        bins.emplace_back();
        for (std::size_t t = 0; t < pattern.size(); ++t) {
            for (std::int64_t c = 0; c < pattern[t]; ++c) {
                REQUIRE(next[t] < members[t].size());
                bins.back().push_back(members[t][next[t]++]);
            }
        }
    }
    return bins;
}
}  // namespace

TEST_CASE("Multi-dual cover: a packing into 2 bins where first fit decreasing needs 3") {
    // Capacity 10, items 5, 4, 3, 3, 3, 2 (sum 20). FFD: {5, 4}, {3, 3, 3}, {2}: 3 bins. Types (5, 4, 3, 2)
    // with demands (1, 1, 3, 1). Under the duals p = sizes (K = 10: a full bin) the gap for 2 bins is
    // 2 * 10 - 20 = 0, so only full bins pass; under p' = one per item (K' = 3 items at most in a bin
    // within the demand: {5, 4} and a third item would exceed 10, {3, 3, 3} is 9) the gap is 2 * 3 - 6 = 0,
    // so only bins of exactly 3 items pass.
    const std::vector<std::int64_t> sizes = {5, 4, 3, 3, 3, 2};
    CHECK(continuum::packing::first_fit_decreasing(sizes, 10).num_bins() == 3);
    const std::vector<std::int64_t> weight = {5, 4, 3, 2}, demand = {1, 1, 3, 1};
    const std::vector<std::vector<std::size_t>> members = {{0}, {1}, {2, 3, 4}, {5}};
    // Candidates: {5, 4} (waste 1), {3, 3, 3} (waste 1, 3 items), {5, 3} (waste 2), {4, 3, 2} (waste 1,
    // 3 items), and the two full bins of 3 items {5, 3, 2} and {4, 3, 3}.
    const std::vector<SparsePattern> bins = {{{0, 1}, {1, 1}}, {{2, 3}}, {{0, 1}, {2, 1}}, {{1, 1}, {2, 1}, {3, 1}}, {{0, 1}, {2, 1}, {3, 1}}, {{1, 1}, {2, 2}}};
    const std::vector<DualVector> duals = {{{5, 4, 3, 2}, 10}, {{1, 1, 1, 1}, 3}};
    Budget budget;
    budget.node_limit = 1'000;
    BudgetTracker tracker(budget), share(budget);
    MultiDualCover two(weight, demand, 10, bins, duals, tracker, share);
    REQUIRE(two.run(2) == MultiDualCover::Outcome::found);
    CHECK(two.bins() == 2);  // only the two full bins of 3 items pass both gaps
    // Types 5, 4 and 2 each have one usable bin: the heaviest, 5, is branched on ({5, 3, 2}), then 4
    // ({4, 3, 3}); the third call finds the demand covered before it counts.
    CHECK(two.cover_nodes() == 2);
    auto packing = two.packing();
    std::sort(packing.begin(), packing.end());
    CHECK(packing == std::vector<std::vector<std::int64_t>>{{0, 1, 2, 0}, {1, 0, 1, 1}});
    continuum::packing::testing::check_bins(multi_dual_items(two.packing(), members), sizes, 10, 2);
    // Without {4, 3, 3} no 2 bins cover the items: the search sees the whole tree and says so.
    const std::vector<SparsePattern> fewer = {bins[0], bins[1], bins[2], bins[3], bins[4]};
    MultiDualCover none(weight, demand, 10, fewer, duals, tracker, share);
    CHECK(none.run(2) == MultiDualCover::Outcome::infeasible);
    // The second vector alone: 3 bins leave a gap of 3 * 3 - 6 = 3 items; every candidate passes, and
    // a cover by at most 3 bins exists.
    MultiDualCover three(weight, demand, 10, bins, {duals[1]}, tracker, share);
    REQUIRE(three.run(3) == MultiDualCover::Outcome::found);
    CHECK(three.packing().size() <= 3);
    continuum::packing::testing::check_bins(multi_dual_items(three.packing(), members), sizes, 10, 3);
    // 1 bin cannot hold 20 units (and the first vector's gap 10 - 20 is negative): infeasible at once.
    MultiDualCover one(weight, demand, 10, bins, duals, tracker, share);
    CHECK(one.run(1) == MultiDualCover::Outcome::infeasible);
}

TEST_CASE("Multi-dual cover: a spent budget answers unknown") {
    Budget one;
    one.node_limit = 1;
    BudgetTracker spent(one), share(one);
    (void)spent.count();
    const std::vector<SparsePattern> bins = {{{0, 1}, {2, 1}, {3, 1}}, {{1, 1}, {2, 2}}};
    MultiDualCover starved({5, 4, 3, 2}, {1, 1, 3, 1}, 10, bins, {{{5, 4, 3, 2}, 10}}, spent, share);
    CHECK(starved.run(2) == MultiDualCover::Outcome::unknown);
}

TEST_CASE("Multi-dual cover: BPP40's packing into 59 bins from the root LP and 64 further dual vectors") {
    // BPP40 (Hard28, IRUP: optimum 59 = the root LP's bound) is the instance solve_exact left one bin
    // above until session 18. From the root LP (as solve_exact runs it) solved to its optimum, the bins
    // within its gap (678) and the 64 one-more-item LPs' duals (the reduced-cost proof's), 502 bins pass
    // all 65 vectors; the most-constraining-first cover finds a packing into 59 bins in 11,444 cover
    // nodes (13,668 counted), where the proof's order needs 358,000.
    const auto instance = continuum::packing::testing::read_bpp_instance(continuum_test::source_dir() + "/data/bpp/hard28/BPP40.txt");
    continuum::packing::testing::LdsRoot root(instance.sizes, instance.capacity, 10'000'000);
    REQUIRE(root.lower_bound == 59);
    REQUIRE(root.ffd_bins == 60);
    auto scratch = root.cg;
    scratch.set_to_optimality(true);
    const auto demand = scratch.type_demands();
    auto lp = scratch.residual_lp(demand);
    REQUIRE(lp.knapsack > 0);
    BudgetTracker unlimited(Budget{});
    continuum::packing::detail::ReducedCostProof enumeration(root.cg.type_weights(), demand, instance.capacity, lp.profit, lp.knapsack, root.tracker, unlimited, 20'000);
    REQUIRE_FALSE(enumeration.prepare(59).has_value());
    std::vector<DualVector> duals = {{lp.profit, lp.knapsack}};
    for (auto& d : continuum::packing::detail::one_more_item_duals(scratch, 64, [] { return true; })) duals.push_back(std::move(d));
    CHECK(duals.size() == 65);
    Budget budget;
    budget.node_limit = 20'000;
    BudgetTracker share(budget);
    MultiDualCover cover(root.cg.type_weights(), demand, instance.capacity, enumeration.enumerated(), duals, root.tracker, share);
    REQUIRE(cover.run(59) == MultiDualCover::Outcome::found);
    CHECK(cover.bins() < enumeration.patterns());
    CHECK(share.nodes() < 20'000);
    // The patterns as items: every item once, no bin over capacity, 59 bins.
    root.cg.record_patterns(cover.packing());
    const auto bins = root.cg.incumbent();
    CHECK(bins.size() == 59);
    continuum::packing::testing::check_bins(bins, instance.sizes, instance.capacity, 59);
}
