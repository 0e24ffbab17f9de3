// Hand-computed scores from the Cluster Autoscaler's formulas (expander/waste, expander/price,
// expander/priority, proposals/pricing.md) and the worked anchors of reference §1, §11 and §12.
#include <continuum/federation/expander_chain.hpp>

#include <doctest/doctest.h>

#include <limits>

#include <cmath>

using namespace continuum;
using namespace continuum::federation;

namespace {
ExpansionOption option(std::string group, std::int64_t nodes, std::string cpu, std::string memory, std::vector<Resources> pods) {
    ExpansionOption o;
    o.node_group = std::move(group);
    o.node_count = nodes;
    o.node_capacity = Resources{{"cpu", cpu}, {"memory", memory}};
    o.pods = std::move(pods);
    return o;
}
Resources pod(std::string cpu, std::string memory) { return Resources{{"cpu", cpu}, {"memory", memory}}; }
using Indices = std::vector<std::size_t>;
}  // namespace

TEST_CASE("least-waste: CA's formula on Capacity, lowest wins") {
    // Reference §12: 2 nodes of 4 CPU / 16 GiB, pods total 6 CPU / 16 GiB -> (8-6)/8 + (32-16)/32 = 0.75.
    const auto a = option("a", 2, "4", "16Gi", {pod("3", "8Gi"), pod("3", "8Gi")});
    CHECK(*least_waste_score(a) == doctest::Approx(0.75).epsilon(1e-15));
    // One 8 CPU / 32 GiB node: (8-6)/8 + (32-16)/32 = 0.75 as well: a tie.
    const auto b = option("b", 1, "8", "32Gi", {pod("3", "8Gi"), pod("3", "8Gi")});
    // One 16 CPU / 16 GiB node: (16-6)/16 + 0 = 0.625: the winner.
    const auto c = option("c", 1, "16", "16Gi", {pod("3", "8Gi"), pod("3", "8Gi")});
    auto g = option("g", 1, "8", "32Gi", {pod("3", "8Gi"), pod("3", "8Gi")});
    g.node_capacity.set("nvidia.com/gpu", 4);  // GPUs are ignored by least-waste
    const std::vector<ExpansionOption> options = {a, b, c, g};
    CHECK(*least_waste_score(c) == 0.625);
    CHECK(least_waste(options) == Indices{2});
    CHECK(least_waste(std::span(options).first(2)) == Indices{0, 1});
    CHECK(least_waste(options, Indices{0, 1, 3}) == Indices{0, 1, 3});
    // node_count 0 has no score and drops out (CA would divide by zero).
    const std::vector<ExpansionOption> zero = {option("z", 0, "4", "4Gi", {}), a};
    CHECK(least_waste(zero) == Indices{1});
}

TEST_CASE("most-pods and least-nodes") {
    const std::vector<ExpansionOption> options = {
        option("a", 3, "2", "4Gi", {pod("1", "1Gi"), pod("1", "1Gi"), pod("1", "1Gi")}),
        option("b", 1, "8", "16Gi", {pod("1", "1Gi"), pod("1", "1Gi"), pod("1", "1Gi")}),
        option("c", 1, "4", "8Gi", {pod("1", "1Gi")}),
        option("d", 0, "4", "8Gi", {}),
    };
    CHECK(most_pods(options) == Indices{0, 1});
    CHECK(least_nodes(options) == Indices{1, 2});
    CHECK(most_pods(options, Indices{2, 3}) == Indices{2});
}

TEST_CASE("price: suppression matches proposals/pricing.md") {
    CHECK(suppress_unfitness(4, 1) == 4.0);
    CHECK(suppress_unfitness(4, 2) == doctest::Approx(3.800296).epsilon(1e-6));
    CHECK(suppress_unfitness(4, 3) == doctest::Approx(3.602354).epsilon(1e-6));
    CHECK(suppress_unfitness(4, 5) == doctest::Approx(3.218439).epsilon(1e-6));
    CHECK(suppress_unfitness(4, 10) == doctest::Approx(2.388851).epsilon(1e-6));
    CHECK(suppress_unfitness(4, 16) == doctest::Approx(3.0 * (1.0 - std::tanh(1.0)) + 1.0).epsilon(1e-15));
    CHECK(suppress_unfitness(4, 16) == doctest::Approx(1.715).epsilon(1e-3));  // reference §12
    CHECK(suppress_unfitness(4, 20) == doctest::Approx(1.441325).epsilon(1e-6));
    CHECK(suppress_unfitness(4, 50) == doctest::Approx(1.008712).epsilon(1e-6));
    CHECK(node_unfitness(8000, 2000) == 4.0);
    CHECK(node_unfitness(2000, 8000) == 4.0);
    CHECK(preferred_node(0) == Resources::from_units({{"cpu", 1000}, {"memory", 3750LL << 20}}));
    CHECK(preferred_node(2).cpu_millis() == 1000);
    CHECK(preferred_node(3).cpu_millis() == 2000);
    CHECK(preferred_node(6).memory_bytes() == 7500LL << 20);
    CHECK(preferred_node(20).cpu_millis() == 4000);
    CHECK(preferred_node(21).cpu_millis() == 8000);
    CHECK(preferred_node(60).cpu_millis() == 8000);
    CHECK(preferred_node(200).cpu_millis() == 16000);
    CHECK(preferred_node(201) == Resources::from_units({{"cpu", 32000}, {"memory", 120000LL << 20}}));
    CHECK_THROWS_AS(preferred_node(-1), InvalidArgument);
}

TEST_CASE("price: the pricing.md table (0.1-CPU pod, X = 0.016, preferred n1-standard-8)") {
    // Prices of the proposal's table: n1-standard-2 0.095, n1-standard-8 0.380, n1-standard-2+GPU 0.795;
    // the stabilisation pod (500m) costs 0.016 and the pending 0.1-CPU pod 0.003.
    PricingModel pricing;
    pricing.node_price = [](const ExpansionOption& o) { return o.node_group == "n1-standard-2" ? 0.095 : o.node_group == "n1-standard-8" ? 0.380 : 0.795; };
    pricing.pod_price = [](const Resources& r) { return r.cpu_millis() == 500 ? 0.016 : 0.003; };
    auto s2 = option("n1-standard-2", 1, "2", "7680Mi", {pod("100m", "100Mi")});
    auto s8 = option("n1-standard-8", 1, "8", "30Gi", {pod("100m", "100Mi")});
    auto gpu = option("n1-standard-2-gpu", 1, "2", "7680Mi", {pod("100m", "100Mi")});
    gpu.node_capacity.set("nvidia.com/gpu", 1);
    const std::int64_t cluster = 30;  // preferred node: 8 CPU

    const auto p2 = price_score(s2, pricing, cluster);
    CHECK(p2.price_sub_score == doctest::Approx((0.095 + 0.016) / (0.003 + 0.016)));  // 5.84
    CHECK(p2.price_sub_score == doctest::Approx(5.84).epsilon(1e-3));
    CHECK(p2.unfitness == 4.0);
    CHECK(p2.score == doctest::Approx(4 * 5.842105).epsilon(1e-6));  // the table's 23.36
    const auto p8 = price_score(s8, pricing, cluster);
    CHECK(p8.unfitness == 1.0);
    CHECK(p8.score == doctest::Approx(20.84).epsilon(1e-3));
    const auto pg = price_score(gpu, pricing, cluster);
    CHECK(pg.suppressed_unfitness == 1000.0);  // gpuUnfitnessOverride (the code, not the older table)
    CHECK(pg.score == doctest::Approx(1000.0 * (0.795 + 0.016) / 0.019));
    const std::vector<ExpansionOption> options = {s2, s8, gpu};
    CHECK(price(options, pricing, cluster) == Indices{1});
    // On a 5-node cluster the preferred node is 2 CPU: n1-standard-2 (5.84) beats n1-standard-8 (4 x 20.84).
    CHECK(price(options, pricing, 5) == Indices{0});
    CHECK(p2.to_string() == "all_nodes_price=0.095000 pods_price=0.003000 stabilized_ratio=5.842105 unfitness=4.000000 suppressed=4.000000 final_score=23.368421");
}

TEST_CASE("price: seed 000 reference implementation anchor (reference §11)") {
    // STANDARD (2 CPU, flat cost 1) vs GPU (3.5 CPU, 1 GPU, cost 25); PricingPodPrice always 1; one-node cluster.
    PricingModel pricing;
    pricing.node_price = [](const ExpansionOption& o) { return o.node_group == "gpu" ? 25.0 : 1.0; };
    pricing.pod_price = [](const Resources&) { return 1.0; };
    const auto standard = option("standard", 1, "2", "2Gi", {pod("1", "1Gi")});
    auto gpu = option("gpu", 1, "3500m", "4Gi", {pod("1", "1Gi")});
    gpu.node_capacity.set("nvidia.com/gpu", 1);
    CHECK(price_score(standard, pricing, 1).score == 2.0);   // (1+1)/(1+1) x unfitness 2
    CHECK(price_score(gpu, pricing, 1).score == 13000.0);    // (25+1)/(1+1) x 1000
    auto missing = standard;
    missing.node_group_exists = false;
    CHECK(price_score(missing, pricing, 1).score == 4.0);   // notExistCoeficient
    const std::vector<ExpansionOption> options = {gpu, standard};
    CHECK(price(options, pricing, 1) == Indices{1});

    // Linear pricing: rates x capacity / request.
    const auto linear = PricingModel::linear(0.5, 0.25, 10);
    CHECK(linear.node_price(gpu) == doctest::Approx(0.5 * 3.5 + 0.25 * 4 + 10));
    CHECK(linear.pod_price(price_expander::stabilization_pod()) == doctest::Approx(0.25 + 0.25 * 500.0 / 1024.0));

    PricingModel broken;
    CHECK_THROWS_AS(price_score(standard, broken, 1), InvalidArgument);
    broken.node_price = [](const ExpansionOption&) { return -1.0; };
    broken.pod_price = [](const Resources&) { return 1.0; };
    CHECK_THROWS_AS(price_score(standard, broken, 1), InvalidArgument);
    CHECK_THROWS_AS(PricingModel::linear(-1, 0), InvalidArgument);

    // A negative node count (fuzzer crasher: INT64_MIN) is rejected before any arithmetic.
    auto negative = standard;
    negative.node_count = std::numeric_limits<std::int64_t>::min();
    CHECK_THROWS_WITH_AS(price_score(negative, pricing, 1), doctest::Contains("node_count must be >= 0"), InvalidArgument);
    CHECK(suppress_unfitness(2.0, std::numeric_limits<std::int64_t>::min()) == doctest::Approx(3.0));
}

TEST_CASE("priority: regex tiers, highest matching tier wins, unmatched pass through") {
    const auto tiers = PriorityTiers::parse(R"(# cluster-autoscaler-priority-expander
10:
  - .*
50:
  - .*-spot-.*
  - "^liqo-low"
-5:
  - never
)");
    CHECK(tiers.tiers().size() == 3);
    CHECK(tiers.highest_match("liqo-low-1") == 50);
    CHECK(tiers.highest_match("pool-spot-a") == 50);
    CHECK(tiers.highest_match("pool-ondemand") == 10);
    std::vector<ExpansionOption> options = {option("pool-ondemand", 1, "2", "4Gi", {}), option("pool-spot-a", 1, "2", "4Gi", {}),
                                            option("liqo-low-1", 1, "2", "4Gi", {}), option("x-liqo-low", 1, "2", "4Gi", {})};
    CHECK(priority(options, tiers) == Indices{1, 2});  // "^liqo-low" is anchored, ".*-spot-.*" unanchored
    // Nothing matches: every option passes through.
    const PriorityTiers only_gpu({{100, {"^gpu$"}}});
    CHECK(priority(options, only_gpu) == Indices{0, 1, 2, 3});
    CHECK(priority(options, PriorityTiers{}) == Indices{0, 1, 2, 3});
    // Priorities below -1 never select (CA starts the running maximum at -1).
    const PriorityTiers negative({{-5, {"spot"}}, {-1, {"ondemand"}}});
    CHECK(priority(options, negative) == Indices{0});
    const PriorityTiers only_negative({{-5, {"spot"}}});
    CHECK(priority(options, only_negative) == Indices{0, 1, 2, 3});

    CHECK_THROWS_AS(PriorityTiers({{1, {"(unclosed"}}}), ParseError);
    // RE2's repetition limit (fuzzer crasher: a{4444444444444444444} overflowed inside std::regex).
    CHECK_THROWS_WITH_AS(PriorityTiers({{1, {"g.3{4444444444444444444444}"}}}), doctest::Contains("exceeds 1000"), ParseError);
    CHECK_THROWS_AS(PriorityTiers({{1, {"g.3{4444444444444444444444"}}}), ParseError);  // unclosed, as the crasher
    CHECK_THROWS_AS(PriorityTiers({{1, {"(a{100}){11}"}}}), ParseError);       // nested: 1100
    CHECK_THROWS_AS(PriorityTiers({{1, {"((x{10}y){10}){11}"}}}), ParseError);  // nested: 1100
    CHECK(PriorityTiers({{1, {"a{1000}"}}}).highest_match("b") == std::nullopt);
    CHECK(PriorityTiers({{1, {"^n{2,3}$"}}}).highest_match("nnn") == 1);
    CHECK(PriorityTiers({{1, {"[{]9999}"}}}).highest_match("{9999}") == 1);  // a bracket, then literals
    CHECK(PriorityTiers({{1, {R"(\{99999})"}}}).highest_match("{99999}") == 1);  // escaped brace
    CHECK_THROWS_AS(PriorityTiers::parse("ten:\n  - a\n"), ParseError);
    CHECK_THROWS_AS(PriorityTiers::parse("  - a\n"), ParseError);
    CHECK_THROWS_AS(PriorityTiers::parse(""), ParseError);
    CHECK_THROWS_AS(PriorityTiers::parse("10:\n  foo\n"), ParseError);
}

TEST_CASE("random: seeded, reproducible, uniform over the tie set") {
    const std::vector<ExpansionOption> options = {option("a", 1, "2", "4Gi", {}), option("b", 1, "2", "4Gi", {}), option("c", 1, "2", "4Gi", {})};
    CHECK(random_option(options, 42) == random_option(options, 42));
    std::array<int, 3> counts{};
    for (std::uint64_t seed = 0; seed < 3000; ++seed) ++counts.at(random_option(options, seed).at(0));
    for (const int c : counts) {
        CHECK(c > 900);
        CHECK(c < 1100);
    }
    CHECK(random_option(std::span<const ExpansionOption>{}, 1).empty());
    CHECK_THROWS_AS(random_option(options, Indices{5}, 1), InvalidArgument);
}

TEST_CASE("chain: least-waste,price narrows, random breaks the last tie") {
    PricingModel pricing;
    pricing.node_price = [](const ExpansionOption& o) { return o.node_group == "b" ? 2.0 : 1.0; };
    pricing.pod_price = [](const Resources&) { return 1.0; };
    ExpanderContext context;
    context.pricing = pricing;
    context.cluster_node_count = 5;  // preferred 2 CPU
    // a and b tie on waste (0.75); c wastes more. price then prefers a (node price 1 < 2).
    const std::vector<ExpansionOption> options = {
        option("a", 2, "4", "16Gi", {pod("3", "8Gi"), pod("3", "8Gi")}),
        option("b", 2, "4", "16Gi", {pod("3", "8Gi"), pod("3", "8Gi")}),
        option("c", 1, "8", "64Gi", {pod("3", "8Gi"), pod("3", "8Gi")}),
    };
    const auto chain = ExpanderChain::parse("least-waste, price");
    CHECK(chain.to_string() == "least-waste,price");
    const auto choice = chain.choose(options, context, 7);
    REQUIRE(choice.best);
    CHECK(*choice.best == 0);
    CHECK(choice.stages == std::vector<Indices>{{0, 1}, {0}});
    CHECK_FALSE(choice.random_tie_break);
    CHECK(choice.reason == "a: least-waste kept [a, b]; price kept [a]");

    // least-waste alone leaves a tie: random decides, reproducibly.
    const auto waste_only = ExpanderChain::parse("least-waste").choose(options, context, 7);
    CHECK(waste_only.random_tie_break);
    CHECK(waste_only.best == ExpanderChain::parse("least-waste").choose(options, context, 7).best);
    CHECK((*waste_only.best == 0 || *waste_only.best == 1));
    // most-pods keeps all three; a single-element stage stops the chain early.
    const auto early = ExpanderChain::parse("least-nodes,least-waste,price").choose(options, context, 0);
    CHECK(early.best == std::optional<std::size_t>(2));
    CHECK(early.stages.size() == 1);

    CHECK_FALSE(ExpanderChain::parse("random").choose(std::span<const ExpansionOption>{}, context).best);
    CHECK_THROWS_AS(ExpanderChain::parse("least-waste,least-waste"), InvalidArgument);
    CHECK_THROWS_AS(ExpanderChain::parse("random,price"), InvalidArgument);
    CHECK_THROWS_AS(ExpanderChain::parse("cheapest"), ParseError);
    CHECK_THROWS_AS(ExpanderChain::parse(""), ParseError);
    CHECK_THROWS_AS((void)ExpanderChain::parse("price").choose(options, ExpanderContext{}), InvalidArgument);  // no pricing model
    auto bad = options;
    bad[0].node_count = -1;
    CHECK_THROWS_AS((void)ExpanderChain::parse("most-pods").choose(bad, context), InvalidArgument);
}
