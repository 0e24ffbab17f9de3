// Shared check of a NodeMix answer for the packing tests: every item placed exactly once (on a new
// node, an existing node or reported unplaceable), no node over capacity, counts within max_count,
// the cost equal to the nodes' costs, and an honest bound (0 <= lower_bound <= cost; = cost when optimal).
#pragma once

#include <continuum/packing/node_types.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace continuum::packing::testing {

inline void check_node_mix(const NodeMix& mix, const std::vector<Resources>& items, const std::vector<NodeType>& types, const std::vector<ExistingNode>& existing = {}) {
    std::vector<int> seen(items.size(), 0);
    double cost = 0;
    std::vector<std::int64_t> count(types.size(), 0);
    for (const auto& node : mix.nodes) {
        Resources load;
        for (const auto i : node.items) {
            ++seen[i];
            load += items[i];
        }
        REQUIRE(!node.items.empty());
        REQUIRE(load.fits_in(types[node.type].capacity));
        cost += types[node.type].cost;
        ++count[node.type];
    }
    REQUIRE(mix.existing_items.size() == existing.size());
    for (std::size_t e = 0; e < existing.size(); ++e) {
        Resources load = existing[e].allocated;
        for (const auto i : mix.existing_items[e]) {
            ++seen[i];
            load += items[i];
        }
        if (!mix.existing_items[e].empty()) REQUIRE(load.fits_in(existing[e].capacity));
    }
    for (const auto& u : mix.unplaceable) ++seen[u.item];
    REQUIRE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
    REQUIRE(count == mix.count_per_type);
    for (std::size_t t = 0; t < types.size(); ++t) {
        if (types[t].max_count != unlimited) REQUIRE(count[t] <= types[t].max_count);
    }
    REQUIRE(cost == doctest::Approx(mix.cost));
    REQUIRE(mix.lower_bound <= mix.cost + 1e-9);
    REQUIRE(mix.lower_bound >= 0.0);
    if (mix.optimal) REQUIRE(mix.lower_bound == doctest::Approx(mix.cost));
}

}  // namespace continuum::packing::testing
