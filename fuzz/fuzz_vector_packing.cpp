// Fuzzes vector bin packing and the cheapest node mix with items decoded from arbitrary bytes
// (1-3 resources, amounts from 0 to near int64 max, all-equal and single-item instances arise
// naturally). Checks: every item exactly once (placed or reported unplaced, unplaced only when it
// does not fit an empty bin), no bin over capacity in any resource, lower_bound <= exact lower
// bound <= exact bins <= every FFD/BFD variant; node mixes respect capacities and max_count and
// report, never drop, what they cannot place. Exact search runs with a small node budget.
#include "fuzz_target.hpp"
#include "fuzz_support.hpp"

#include <continuum/packing/exact.hpp>
#include <continuum/packing/lower_bounds.hpp>
#include <continuum/packing/node_types.hpp>
#include <continuum/packing/vector_heuristics.hpp>

#include <string>

namespace {

using continuum::Resources;

bool fits(const std::vector<Resources>& items, const std::vector<std::size_t>& bin, const Resources& capacity) {
    for (const auto& [name, cap] : capacity) {
        __int128 load = 0;
        for (const auto i : bin) load += items[i].get(name);
        if (load > cap) return false;
    }
    for (const auto i : bin) {
        for (const auto& [name, value] : items[i]) {
            if (value > 0 && capacity.get(name) == 0) return false;
        }
    }
    return true;
}

void check_valid(const std::vector<std::vector<std::size_t>>& bins, const std::vector<std::size_t>& unplaced, const std::vector<Resources>& items,
                 const Resources& capacity) {
    std::vector<int> seen(items.size(), 0);
    for (const auto& bin : bins) {
        CONTINUUM_FUZZ_CHECK(!bin.empty());
        for (const auto i : bin) {
            CONTINUUM_FUZZ_CHECK(i < items.size());
            ++seen[i];
        }
        CONTINUUM_FUZZ_CHECK(fits(items, bin, capacity));
    }
    for (const auto i : unplaced) {
        CONTINUUM_FUZZ_CHECK(i < items.size());
        CONTINUUM_FUZZ_CHECK(!items[i].fits_in(capacity));
        ++seen[i];
    }
    for (const int s : seen) CONTINUUM_FUZZ_CHECK(s == 1);
}

}  // namespace

CONTINUUM_FUZZ_TARGET(vector_packing) {
    namespace packing = continuum::packing;
    namespace fz = continuum::fuzz;
    FuzzedDataProvider in(data, size);
    static const char* const names[] = {"cpu", "memory", "pods"};
    const auto dims = in.ConsumeIntegralInRange<std::size_t>(1, 3);
    Resources capacity;
    for (std::size_t k = 0; k < dims; ++k) capacity.set(names[k], fz::amount(in));
    const bool all_equal = in.ConsumeIntegralInRange<int>(0, 7) == 0;
    std::vector<Resources> items(in.ConsumeIntegralInRange<std::size_t>(0, 18));
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (all_equal && i > 0) {
            items[i] = items[0];
            continue;
        }
        for (std::size_t k = 0; k < dims; ++k) {
            // mostly a fraction of the capacity, sometimes any amount
            const std::int64_t cap = capacity.get(names[k]);
            items[i].set(names[k], in.ConsumeBool() && cap > 0 ? in.ConsumeIntegralInRange<std::int64_t>(0, cap) : fz::amount(in));
        }
    }
    try {
        const std::int64_t bound = packing::lower_bound(items, capacity);
        std::size_t best_heuristic = std::numeric_limits<std::size_t>::max();
        for (const auto order : {packing::VectorOrder::sum_normalized, packing::VectorOrder::max_normalized, packing::VectorOrder::lexicographic,
                                 packing::VectorOrder::dot_product, packing::VectorOrder::l2_norm}) {
            const auto ffd = packing::first_fit_decreasing(items, capacity, order);
            check_valid(ffd.bins, ffd.unplaced, items, capacity);
            const auto bfd = packing::best_fit_decreasing(items, capacity, order);
            check_valid(bfd.bins, bfd.unplaced, items, capacity);
            CONTINUUM_FUZZ_CHECK(static_cast<std::int64_t>(ffd.num_bins()) >= bound && static_cast<std::int64_t>(bfd.num_bins()) >= bound);
            best_heuristic = std::min({best_heuristic, ffd.num_bins(), bfd.num_bins()});
        }
        for (const auto& p : {packing::first_fit(items, capacity), packing::best_fit(items, capacity), packing::next_fit(items, capacity)}) {
            check_valid(p.bins, p.unplaced, items, capacity);
        }
        continuum::Budget budget;
        budget.node_limit = 500;
        const auto exact = packing::solve_exact(items, capacity, budget);
        check_valid(exact.bins, exact.unplaced, items, capacity);
        CONTINUUM_FUZZ_CHECK(bound <= exact.lower_bound && exact.lower_bound <= static_cast<std::int64_t>(exact.num_bins()));
        CONTINUUM_FUZZ_CHECK(exact.num_bins() <= best_heuristic);
        CONTINUUM_FUZZ_CHECK(std::isfinite(exact.gap));
    } catch (const continuum::InvalidArgument&) {
    }
    // Heterogeneous node types with costs and max counts.
    std::vector<packing::NodeType> types(in.ConsumeIntegralInRange<std::size_t>(1, 3));
    for (std::size_t t = 0; t < types.size(); ++t) {
        types[t].name = "type-" + std::to_string(t);
        for (std::size_t k = 0; k < dims; ++k) types[t].capacity.set(names[k], fz::amount(in));
        types[t].cost = in.ConsumeFloatingPointInRange<double>(0.0, 100.0);
        types[t].max_count = in.ConsumeBool() ? packing::unlimited : in.ConsumeIntegralInRange<std::int64_t>(0, 6);
    }
    try {
        continuum::Budget budget;
        budget.node_limit = 500;
        const auto mix = packing::cheapest_node_mix(items, types, budget);
        std::vector<int> seen(items.size(), 0);
        std::vector<std::int64_t> count(types.size(), 0);
        double cost = 0.0;
        for (const auto& node : mix.nodes) {
            CONTINUUM_FUZZ_CHECK(node.type < types.size());
            ++count[node.type];
            cost += types[node.type].cost;
            for (const auto i : node.items) {
                CONTINUUM_FUZZ_CHECK(i < items.size());
                ++seen[i];
            }
            CONTINUUM_FUZZ_CHECK(fits(items, node.items, types[node.type].capacity));
        }
        for (const auto& u : mix.unplaceable) {
            CONTINUUM_FUZZ_CHECK(u.item < items.size());
            CONTINUUM_FUZZ_CHECK(!u.reason.empty());
            ++seen[u.item];
        }
        for (const int s : seen) CONTINUUM_FUZZ_CHECK(s == 1);
        CONTINUUM_FUZZ_CHECK(mix.count_per_type.size() == types.size());
        for (std::size_t t = 0; t < types.size(); ++t) {
            CONTINUUM_FUZZ_CHECK(mix.count_per_type[t] == count[t]);
            if (types[t].max_count != packing::unlimited) CONTINUUM_FUZZ_CHECK(count[t] <= types[t].max_count);
        }
        CONTINUUM_FUZZ_CHECK(std::isfinite(mix.cost) && std::isfinite(mix.lower_bound) && std::isfinite(mix.gap));
        CONTINUUM_FUZZ_CHECK(std::abs(mix.cost - cost) <= 1e-9 * std::max(1.0, cost));
        CONTINUUM_FUZZ_CHECK(mix.lower_bound <= mix.cost * (1 + 1e-9) + 1e-9);
    } catch (const continuum::InvalidArgument&) {
    }
    return 0;
}
