// The 1-D exact solver's master after its root LP, as solve_exact runs it (FFD, MBS' / SVC, root column
// generation), for the tests of the dive with limited discrepancy search (test_lds_dive.cpp,
// test_lds_warm_start.cpp).
#pragma once

#include <continuum/packing/detail/column_generation.hpp>
#include <continuum/packing/one_dimensional.hpp>
#include <continuum/packing/vector_heuristics.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace continuum::packing::testing {

/// The master after its root LP (as solve_exact runs it), seeded with FFD's bin count.
struct LdsRoot {
    detail::DenseItems items;
    std::vector<std::size_t> placeable;
    Budget budget;
    BudgetTracker tracker;
    std::int64_t capacity[1];
    detail::ColumnGeneration<double> cg;
    std::int64_t ffd_bins = 0, lower_bound = 0;

    LdsRoot(const std::vector<std::int64_t>& sizes, std::int64_t cap, std::int64_t node_limit)
        : items(detail::dense_view(sizes, 1, std::span<const std::int64_t>(&cap, 1))), placeable(detail::decreasing_order(sizes)), budget(limit(node_limit)), tracker(budget), capacity{cap}, cg(items, capacity, placeable, tracker) {
        ffd_bins = static_cast<std::int64_t>(first_fit_decreasing(sizes, cap).num_bins());
        cg.start(ffd_bins);
        lower_bound = cg.root(ffd_bins).lower_bound;
    }
    static Budget limit(std::int64_t nodes) {
        Budget b;
        b.node_limit = nodes;
        return b;
    }
};

}  // namespace continuum::packing::testing
