#include <continuum/packing/detail/column_generation.hpp>
#include <continuum/packing/detail/lds_dive.hpp>

#include "bin_checks.hpp"
#include "lds_root.hpp"

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {
using continuum::packing::detail::ColumnGeneration;
using continuum::packing::detail::LdsDive;

/// The master as the dive sees it, with prefer(): records what the dive hands in and which residual
/// LPs it asks for, and passes everything on to the column generation.
struct PreferRecorder {
    using Pattern = ColumnGeneration<double>::Pattern;
    using ResidualLp = ColumnGeneration<double>::ResidualLp;

    ColumnGeneration<double>& cg;
    std::vector<std::vector<Pattern>> preferred;       // each prefer() call
    std::vector<std::vector<std::int64_t>> demands;    // each residual_lp() call ...
    std::vector<std::vector<Pattern>> handed_in;       // ... the columns preferred when it was made
    std::vector<std::vector<Pattern>> solution_columns;  // ... and the columns of its solution

    [[nodiscard]] const std::vector<std::int64_t>& type_demands() const { return cg.type_demands(); }
    [[nodiscard]] std::int64_t incumbent_bins() const { return cg.incumbent_bins(); }
    void round_residual(const std::vector<Pattern>& fixed, const std::vector<std::int64_t>& b, const ResidualLp& lp) { cg.round_residual(fixed, b, lp); }
    void record_patterns(const std::vector<Pattern>& patterns) { cg.record_patterns(patterns); }
    void prefer(const std::vector<Pattern>& columns) {
        preferred.push_back(columns);
        cg.prefer(columns);
    }
    ResidualLp residual_lp(const std::vector<std::int64_t>& b) {
        demands.push_back(b);
        handed_in.push_back(preferred.empty() ? std::vector<Pattern>{} : preferred.back());
        auto lp = cg.residual_lp(b);
        solution_columns.emplace_back();
        for (const auto& [pattern, value] : lp.solution) solution_columns.back().push_back(pattern);
        return lp;
    }
};
}  // namespace

TEST_CASE("LDS dive warm start: each residual LP gets its parent's solution first, and none is solved twice") {
    using Warm = LdsDive<PreferRecorder>;
    const auto [sizes, capacity] = continuum::packing::testing::read_bpp_instance(continuum_test::source_dir() + "/data/bpp/waescher/TEST0014.txt");
    continuum::packing::testing::LdsRoot root(sizes, capacity, 10'000'000);
    REQUIRE(root.ffd_bins == 24);
    REQUIRE(root.lower_bound == 23);
    PreferRecorder master{root.cg, {}, {}, {}, {}};
    Warm dive(master, root.tracker, 8);
    REQUIRE(dive.run(23, 200'000) == Warm::Outcome::found);
    continuum::packing::testing::check_bins(root.cg.incumbent(), sizes, capacity, 23);
    CHECK(root.cg.incumbent().size() == 23);

    const auto& demands = master.demands;
    REQUIRE(demands.size() >= 2);  // the root and at least one child
    CHECK(dive.lps() == static_cast<std::int64_t>(demands.size()));
    // The memo: no demand is solved twice.
    auto sorted = demands;
    std::sort(sorted.begin(), sorted.end());
    CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    // The root LP (the whole demand) gets no columns; every other LP the solution of an earlier LP whose
    // demand it is, less at least one fixed bin.
    CHECK(demands.front() == root.cg.type_demands());
    CHECK(master.handed_in.front().empty());
    for (std::size_t k = 1; k < demands.size(); ++k) {
        CAPTURE(k);
        REQUIRE_FALSE(master.handed_in[k].empty());
        bool parent_found = false;
        for (std::size_t q = 0; q < k && !parent_found; ++q) {
            if (master.solution_columns[q] != master.handed_in[k]) continue;
            bool below = demands[k] != demands[q];
            for (std::size_t j = 0; j < demands[k].size(); ++j) below = below && demands[k][j] <= demands[q][j];
            parent_found = below;
        }
        CHECK(parent_found);
    }
    // Cleared when the run ends, so the solver's later steps price as before.
    REQUIRE_FALSE(master.preferred.empty());
    CHECK(master.preferred.back().empty());
}

TEST_CASE("LDS dive warm start: perfect packings (random triplets) found with every residual LP solved once") {
    // Falkenauer's triplets (the LP bound is the number of bins, reached only by wasting nothing).
    std::mt19937_64 rng(41);
    for (int trial = 0; trial < 4; ++trial) {
        const auto sizes = continuum::packing::testing::triplet_sizes(rng, 12 + 3 * trial);
        CAPTURE(trial);
        continuum::packing::testing::LdsRoot root(sizes, 1000, 10'000'000);
        PreferRecorder master{root.cg, {}, {}, {}, {}};
        LdsDive<PreferRecorder> dive(master, root.tracker, 8);
        REQUIRE(dive.run(root.lower_bound, 2'000'000) == LdsDive<PreferRecorder>::Outcome::found);
        if (!root.cg.incumbent().empty()) continuum::packing::testing::check_bins(root.cg.incumbent(), sizes, 1000, static_cast<std::size_t>(root.lower_bound));
        auto sorted = master.demands;
        std::sort(sorted.begin(), sorted.end());
        CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    }
}
