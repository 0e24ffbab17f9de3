// Packing onto existing nodes first: vector FFD/BFD (*_onto_existing) and cheapest_node_mix_onto_existing.
#include <continuum/packing/node_types.hpp>
#include <continuum/packing/vector_heuristics.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using namespace continuum::packing;
using continuum::Resources;

namespace {
using Bins = std::vector<std::vector<std::size_t>>;

Resources cpu(std::int64_t millis) { return Resources::from_units({{"cpu", millis}}); }
Resources pod(std::int64_t cpu_millis, std::int64_t memory_mib) { return Resources::from_units({{"cpu", cpu_millis}, {"memory", memory_mib << 20}}); }

Resources residual(const ExistingNode& node) { return node.capacity - node.allocated; }

Resources load_of(const std::vector<std::size_t>& bin, const std::vector<Resources>& items) {
    Resources load;
    for (const auto i : bin) load += items[i];
    return load;
}

/// Every item exactly once; no node over capacity; an item on a new node (or unplaced) fits no
/// existing node's final residual (residuals only shrink, so it fitted none when it was placed).
void check_onto_existing(const PackingOntoExisting& r, const std::vector<Resources>& items, const std::vector<ExistingNode>& existing,
                         const Resources& capacity) {
    std::vector<int> seen(items.size(), 0);
    REQUIRE(r.existing.size() == existing.size());
    std::vector<Resources> left;
    for (std::size_t e = 0; e < existing.size(); ++e) {
        for (const auto i : r.existing[e]) ++seen[i];
        const auto room = residual(existing[e]);
        REQUIRE((r.existing[e].empty() || load_of(r.existing[e], items).fits_in(room)));
        left.push_back(room - load_of(r.existing[e], items));
    }
    for (const auto& bin : r.new_nodes) {
        REQUIRE(!bin.empty());
        for (const auto i : bin) ++seen[i];
        REQUIRE(load_of(bin, items).fits_in(capacity));
        for (const auto i : bin) {
            for (const auto& room : left) REQUIRE_FALSE(items[i].fits_in(room));
        }
    }
    for (const auto i : r.unplaced) {
        ++seen[i];
        REQUIRE_FALSE(items[i].fits_in(capacity));
        for (const auto& room : left) REQUIRE_FALSE(items[i].fits_in(room));
    }
    REQUIRE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
}
}  // namespace

TEST_CASE("onto existing: FFD and BFD fill existing residuals first (hand-computed)") {
    // Residuals: a = 4 - 3 = 1 cpu, b = 4 - 1 = 3 cpu; new nodes 4 cpu. Items 2, 1, 3, 1 cpu.
    // Decreasing: 3 (item 2) -> b (a has 1); 2 (item 0) -> no existing room -> new node 0;
    // 1 (item 1) -> a; 1 (item 3) -> a and b are full -> new node 0.
    const std::vector<ExistingNode> existing{{"a", cpu(4000), cpu(3000)}, {"b", cpu(4000), cpu(1000)}};
    const std::vector<Resources> items{cpu(2000), cpu(1000), cpu(3000), cpu(1000)};
    for (const auto order : {VectorOrder::sum_normalized, VectorOrder::max_normalized, VectorOrder::lexicographic}) {
        const auto ffd = first_fit_decreasing_onto_existing(items, existing, cpu(4000), order);
        CHECK(ffd.existing == Bins{{1}, {2}});
        CHECK(ffd.new_nodes == Bins{{0, 3}});
        CHECK(ffd.unplaced.empty());
        CHECK(ffd.num_new_nodes() == 1);
        const auto bfd = best_fit_decreasing_onto_existing(items, existing, cpu(4000), order);
        CHECK(bfd.existing == Bins{{1}, {2}});
        CHECK(bfd.new_nodes == Bins{{0, 3}});
    }
    // Without existing nodes the same items need 2 nodes: {3, 1}, {2, 1}.
    const auto plain = first_fit_decreasing_onto_existing(items, std::vector<ExistingNode>{}, cpu(4000));
    CHECK(plain.existing.empty());
    CHECK(plain.new_nodes == Bins{{2, 1}, {0, 3}});
}

TEST_CASE("onto existing: best fit picks the tightest existing node, never a new one while an existing node has room") {
    // Residuals a = 3, b = 2, c = 5 cpu. Best fit: 4 -> c (the only one), 3 -> a (exact fit; c has 1
    // left), 2 -> b, 1 -> c; no new node although each item would fit one.
    const std::vector<ExistingNode> existing{{"a", cpu(3000), {}}, {"b", cpu(2000), {}}, {"c", cpu(8000), cpu(3000)}};
    const std::vector<Resources> items{cpu(2000), cpu(3000), cpu(4000), cpu(1000)};
    const auto bfd = best_fit_decreasing_onto_existing(items, existing, cpu(8000));
    CHECK(bfd.existing == Bins{{1}, {0}, {2, 3}});
    CHECK(bfd.new_nodes.empty());
    const auto ffd = first_fit_decreasing_onto_existing(items, existing, cpu(8000));
    // First fit: 4 -> c (a: 3, b: 2 too small); 3 -> a; 2 -> b; 1 -> c.
    CHECK(ffd.existing == Bins{{1}, {0}, {2, 3}});
}

TEST_CASE("onto existing: over-committed nodes receive nothing, large items fit a large existing node") {
    // c is over-committed on memory (2Gi allocated on 1Gi): even a cpu-only pod does not go there.
    const std::vector<ExistingNode> existing{{"c", pod(4000, 1024), pod(1000, 2048)}, {"big", pod(16000, 65536), {}}};
    const std::vector<Resources> items{cpu(1000), cpu(8000), cpu(32000)};
    for (const auto order : {VectorOrder::sum_normalized, VectorOrder::dot_product, VectorOrder::l2_norm}) {
        const auto ffd = first_fit_decreasing_onto_existing(items, existing, pod(4000, 8192), order);
        CHECK(ffd.existing[0].empty());
        CHECK(ffd.existing[1] == std::vector<std::size_t>{1, 0});
        CHECK(ffd.new_nodes.empty());
        CHECK(ffd.unplaced == std::vector<std::size_t>{2});
        check_onto_existing(ffd, items, existing, pod(4000, 8192));
        const auto bfd = best_fit_decreasing_onto_existing(items, existing, pod(4000, 8192), order);
        CHECK(bfd.unplaced == std::vector<std::size_t>{2});
        check_onto_existing(bfd, items, existing, pod(4000, 8192));
    }
}

TEST_CASE("onto existing: bad input") {
    const std::vector<Resources> items{cpu(1000)};
    CHECK_THROWS_AS(first_fit_decreasing_onto_existing(items, std::vector<ExistingNode>{{"x", Resources{}, {}}}, cpu(1000)), continuum::InvalidArgument);
    CHECK_THROWS_AS(first_fit_decreasing_onto_existing(items, std::vector<ExistingNode>{{"x", cpu(1000), cpu(-1)}}, cpu(1000)), continuum::InvalidArgument);
    CHECK_THROWS_AS(best_fit_decreasing_onto_existing(items, std::vector<ExistingNode>{}, Resources{}), continuum::InvalidArgument);
    CHECK_THROWS_AS(first_fit_decreasing_onto_existing(std::vector<Resources>{cpu(-5)}, std::vector<ExistingNode>{}, cpu(1000)), continuum::InvalidArgument);
    const auto empty = first_fit_decreasing_onto_existing(std::vector<Resources>{}, std::vector<ExistingNode>{{"x", cpu(1000), {}}}, cpu(1000));
    CHECK(empty.existing == Bins{{}});
    CHECK(empty.new_nodes.empty());
}

TEST_CASE("property: onto existing places every item once, within capacity, existing nodes preferred") {
    std::mt19937_64 rng(606);
    std::uniform_int_distribution<std::int64_t> item_cpu(1, 3000), item_mem(0, 6000), node_count(0, 5), items_count(0, 40);
    std::uniform_int_distribution<std::int64_t> node_cpu(1000, 8000), node_mem(1000, 16000);
    const Resources capacity = pod(4000, 8000);
    for (int round = 0; round < 120; ++round) {
        std::vector<ExistingNode> existing;
        const auto e = node_count(rng);
        for (std::int64_t k = 0; k < e; ++k) {
            const auto cap_cpu = node_cpu(rng);
            const auto cap_mem = node_mem(rng);
            const auto used_cpu = std::uniform_int_distribution<std::int64_t>(0, cap_cpu + 500)(rng);  // sometimes over-committed
            const auto used_mem = std::uniform_int_distribution<std::int64_t>(0, cap_mem)(rng);
            existing.push_back(ExistingNode{"n" + std::to_string(k), pod(cap_cpu, cap_mem), pod(used_cpu, used_mem)});
        }
        std::vector<Resources> items;
        const auto n = items_count(rng);
        for (std::int64_t i = 0; i < n; ++i) {
            const auto c = item_cpu(rng);
            const auto m = item_mem(rng);
            items.push_back(pod(c + (i % 7 == 0 ? 2000 : 0), m));  // some items larger than a new node
        }
        for (const auto order : {VectorOrder::sum_normalized, VectorOrder::max_normalized, VectorOrder::lexicographic, VectorOrder::dot_product, VectorOrder::l2_norm}) {
            CAPTURE(round);
            CAPTURE(static_cast<int>(order));
            const auto ffd = first_fit_decreasing_onto_existing(items, existing, capacity, order);
            check_onto_existing(ffd, items, existing, capacity);
            const auto bfd = best_fit_decreasing_onto_existing(items, existing, capacity, order);
            check_onto_existing(bfd, items, existing, capacity);
            // No existing nodes: exactly the plain heuristics.
            const auto ffd0 = first_fit_decreasing_onto_existing(items, std::vector<ExistingNode>{}, capacity, order);
            const auto plain_ffd = first_fit_decreasing(items, capacity, order);
            CHECK(ffd0.new_nodes == plain_ffd.bins);
            CHECK(ffd0.unplaced == plain_ffd.unplaced);
            const auto bfd0 = best_fit_decreasing_onto_existing(items, std::vector<ExistingNode>{}, capacity, order);
            CHECK(bfd0.new_nodes == best_fit_decreasing(items, capacity, order).bins);
        }
    }
}

namespace {
void check_mix(const NodeMix& mix, const std::vector<Resources>& items, const std::vector<ExistingNode>& existing, const std::vector<NodeType>& types) {
    std::vector<int> seen(items.size(), 0);
    REQUIRE(mix.existing_items.size() == existing.size());
    for (std::size_t e = 0; e < existing.size(); ++e) {
        for (const auto i : mix.existing_items[e]) ++seen[i];
        REQUIRE((mix.existing_items[e].empty() || load_of(mix.existing_items[e], items).fits_in(residual(existing[e]))));
    }
    double cost = 0;
    std::vector<std::int64_t> count(types.size(), 0);
    for (const auto& node : mix.nodes) {
        REQUIRE(node.type < types.size());
        for (const auto i : node.items) ++seen[i];
        REQUIRE(load_of(node.items, items).fits_in(types[node.type].capacity));
        cost += types[node.type].cost;
        ++count[node.type];
    }
    for (const auto& u : mix.unplaceable) ++seen[u.item];
    REQUIRE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
    REQUIRE(count == mix.count_per_type);
    for (std::size_t t = 0; t < types.size(); ++t) {
        if (types[t].max_count != unlimited) REQUIRE(count[t] <= types[t].max_count);
    }
    REQUIRE(cost == doctest::Approx(mix.cost));
    REQUIRE(mix.lower_bound <= mix.cost + 1e-9);
}
}  // namespace

TEST_CASE("node mix onto existing: free residual first, then the cheapest new nodes (hand-computed)") {
    // 6 pods of 1 cpu; existing node with 2 cpu free; small (2 cpu, 1.0) and large (4 cpu, 1.5).
    // Two pods go on the existing node, the other four on one large node: cost 1.5, which the
    // fractional bound proves: (6 - 2) cpu x 1.5 / 4 = 1.5.
    const std::vector<Resources> items(6, cpu(1000));
    const std::vector<ExistingNode> existing{{"old", cpu(4000), cpu(2000)}};
    const std::vector<NodeType> types{{"small", cpu(2000), 1.0}, {"large", cpu(4000), 1.5}};
    const auto mix = cheapest_node_mix_onto_existing(items, existing, types);
    check_mix(mix, items, existing, types);
    CHECK(mix.existing_items[0].size() == 2);
    REQUIRE(mix.nodes.size() == 1);
    CHECK(mix.nodes[0].type == 1);
    CHECK(mix.cost == doctest::Approx(1.5));
    CHECK(mix.lower_bound == doctest::Approx(1.5));
    CHECK(mix.optimal);
    CHECK(mix.count_per_type == std::vector<std::int64_t>{0, 1});
    // Without the existing node: 6 cpu -> large + small = 2.5.
    CHECK(cheapest_node_mix(items, types).cost == doctest::Approx(2.5));

    // Everything fits on existing nodes: nothing to buy.
    const std::vector<ExistingNode> roomy{{"a", cpu(8000), {}}};
    const auto free_mix = cheapest_node_mix_onto_existing(items, roomy, types);
    CHECK(free_mix.nodes.empty());
    CHECK(free_mix.cost == 0.0);
    CHECK(free_mix.optimal);
    CHECK(free_mix.existing_items[0].size() == 6);
}

TEST_CASE("node mix onto existing: existing nodes only, unplaceable reasons, bad input") {
    const std::vector<Resources> items{cpu(3000), cpu(1000), cpu(9000)};
    const std::vector<ExistingNode> existing{{"a", cpu(4000), cpu(1000)}, {"b", cpu(2000), {}}};
    const auto mix = cheapest_node_mix_onto_existing(items, existing, std::vector<NodeType>{});
    check_mix(mix, items, existing, {});
    CHECK(mix.existing_items == Bins{{0}, {1}});
    REQUIRE(mix.unplaceable.size() == 1);
    CHECK(mix.unplaceable[0].item == 2);
    CHECK(mix.unplaceable[0].reason == "fits no existing node's residual and no node type may be opened");
    CHECK(mix.cost == 0.0);
    const std::vector<NodeType> small{{"small", cpu(4000), 1.0}};
    const auto with_type = cheapest_node_mix_onto_existing(items, existing, small);
    REQUIRE(with_type.unplaceable.size() == 1);
    CHECK(with_type.unplaceable[0].reason == "fits no existing node's residual and needs 9 cpu but the largest node type offers 4");
    CHECK_THROWS_AS(cheapest_node_mix_onto_existing(items, std::vector<ExistingNode>{}, std::vector<NodeType>{}), continuum::InvalidArgument);
    CHECK_THROWS_AS(cheapest_node_mix_onto_existing(items, std::vector<ExistingNode>{{"x", cpu(1000), cpu(-1)}}, small), continuum::InvalidArgument);
}

TEST_CASE("property: node mix onto existing is valid and never costs more than without the existing nodes") {
    std::mt19937_64 rng(607);
    std::uniform_int_distribution<std::int64_t> item_cpu(100, 3000), item_mem(0, 4000), node_count(0, 3), items_count(0, 10);
    const std::vector<NodeType> types{{"s", pod(2000, 4000), 1.0}, {"m", pod(4000, 8000), 1.8}, {"l", pod(8000, 16000), 3.0, 2}};
    for (int round = 0; round < 60; ++round) {
        CAPTURE(round);
        std::vector<ExistingNode> existing;
        const auto e = node_count(rng);
        for (std::int64_t k = 0; k < e; ++k) {
            const auto used = std::uniform_int_distribution<std::int64_t>(0, 4500)(rng);
            existing.push_back(ExistingNode{"n" + std::to_string(k), pod(4000, 8000), pod(used, used)});
        }
        std::vector<Resources> items;
        const auto n = items_count(rng);
        for (std::int64_t i = 0; i < n; ++i) {
            const auto c = item_cpu(rng);
            const auto m = item_mem(rng);
            items.push_back(pod(c, m));
        }
        continuum::Budget budget;
        budget.node_limit = 200000;
        const auto with = cheapest_node_mix_onto_existing(items, existing, types, budget);
        check_mix(with, items, existing, types);
        const auto without = cheapest_node_mix(items, types, budget);
        if (with.optimal && without.optimal && with.unplaceable.empty() && without.unplaceable.empty()) CHECK(with.cost <= without.cost + 1e-9);
        if (existing.empty()) CHECK(with.cost == doctest::Approx(without.cost));
    }
}

TEST_CASE("node mix onto many existing nodes: heuristics only, still valid and existing capacity used") {
    // 200 existing nodes with 1 cpu free each, 30 pods of 1.5 cpu: none fits an existing node, so
    // all go to new nodes (4 cpu, cost 1: two pods each -> 15 nodes); 20 pods of 1 cpu fill
    // existing nodes. More existing nodes than the search over single items takes, but only two
    // classes of pods: the class search proves 15 (the 1.5-cpu pods fit only new nodes, two each).
    std::vector<ExistingNode> existing;
    for (int e = 0; e < 200; ++e) existing.push_back(ExistingNode{"n" + std::to_string(e), cpu(4000), cpu(3000)});
    std::vector<Resources> items(30, cpu(1500));
    items.insert(items.end(), 20, cpu(1000));
    const std::vector<NodeType> types{{"m", cpu(4000), 1.0}};
    const auto mix = cheapest_node_mix_onto_existing(items, existing, types);
    check_mix(mix, items, existing, types);
    CHECK(mix.nodes.size() == 15);
    CHECK(mix.cost == doctest::Approx(15.0));
    CHECK(mix.lower_bound == doctest::Approx(15.0));  // the fractional bound alone says 45 cpu x 1/4 = 11.25
    CHECK(mix.optimal);
    std::size_t on_existing = 0;
    for (const auto& bin : mix.existing_items) on_existing += bin.size();
    CHECK(on_existing == 20);
}
