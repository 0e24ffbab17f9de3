#include <continuum/packing/detail/column_generation.hpp>
#include <continuum/packing/detail/lds_dive.hpp>

#include "bin_checks.hpp"
#include "lds_root.hpp"

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using continuum::packing::detail::ColumnGeneration;
using continuum::packing::detail::LdsDive;

namespace {
using Dive = LdsDive<ColumnGeneration<double>>;
using continuum::packing::testing::LdsRoot;
}  // namespace

TEST_CASE("LDS dive: finds perfect packings (random triplets) that first fit decreasing misses") {
    // Falkenauer's construction: each bin one item in [380, 490] and two that fill it exactly, so the
    // LP bound is the number of bins and the only packing that reaches it wastes nothing.
    std::mt19937_64 rng(29);
    int ffd_above = 0;
    for (int trial = 0; trial < 8; ++trial) {
        const int bins = std::uniform_int_distribution<int>(8, 25)(rng);
        const auto sizes = continuum::packing::testing::triplet_sizes(rng, bins);
        CAPTURE(trial);
        LdsRoot root(sizes, 1000, 10'000'000);
        REQUIRE(root.lower_bound == bins);
        ffd_above += root.ffd_bins > bins ? 1 : 0;
        Dive dive(root.cg, root.tracker, 8);
        REQUIRE(dive.run(bins, 2'000'000) == Dive::Outcome::found);
        const auto found = root.cg.incumbent();
        if (root.ffd_bins > bins) CHECK(dive.lps() >= 1);  // found by the dive, not handed in
        if (found.empty()) continue;  // the root's MBS' / SVC packing already reached the bound
        continuum::packing::testing::check_bins(found, sizes, 1000, static_cast<std::size_t>(bins));
        for (const auto& bin : found) {
            std::int64_t load = 0;
            for (const auto i : bin) load += sizes[i];
            CHECK(load == 1000);
        }
    }
    CHECK(ffd_above >= 4);
}

TEST_CASE("LDS dive: Waescher TEST0014 reaches its optimum L1 = 23 (FFD 24) within its allowance") {
    const auto [sizes, capacity] = continuum::packing::testing::read_bpp_instance(continuum_test::source_dir() + "/data/bpp/waescher/TEST0014.txt");
    LdsRoot root(sizes, capacity, 10'000'000);
    REQUIRE(root.ffd_bins == 24);
    REQUIRE(root.lower_bound == 23);
    const auto before = root.tracker.nodes();
    Dive dive(root.cg, root.tracker, 8);
    REQUIRE(dive.run(23, 100'000) == Dive::Outcome::found);
    CHECK(root.tracker.nodes() - before <= 100'000 + 20'000);  // the allowance, plus the LP it was in
    CHECK(dive.lps() >= 1);
    continuum::packing::testing::check_bins(root.cg.incumbent(), sizes, capacity, 23);
    CHECK(root.cg.incumbent().size() == 23);
    // No allowance: nothing found, nothing claimed.
    LdsRoot again(sizes, capacity, 10'000'000);
    Dive starved(again.cg, again.tracker, 8);
    CHECK(starved.run(23, 0) == Dive::Outcome::unknown);
    CHECK(again.cg.incumbent_bins() == 24);
}
