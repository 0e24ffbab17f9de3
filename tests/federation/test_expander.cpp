// The Cluster Autoscaler's expanders against upstream's own tests (kubernetes/autoscaler
// cluster-autoscaler/expander/*/_test.go, ported case by case and named in each test), plus
// hand-computed scores from the formulas (waste.go, price.go, proposals/pricing.md).
#include <continuum/federation/expander_chain.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <limits>
#include <map>

using namespace continuum;
using namespace continuum::federation;

namespace {
ExpansionOption option(std::string group, std::int64_t nodes, std::string cpu, std::string memory, std::vector<ExpansionPod> pods) {
    ExpansionOption o;
    o.node_group = std::move(group);
    o.node_count = nodes;
    o.node_capacity = Resources{{"cpu", cpu}, {"memory", memory}};
    o.pods = std::move(pods);
    return o;
}
Resources pod(std::string cpu, std::string memory) { return Resources{{"cpu", cpu}, {"memory", memory}}; }
using Indices = std::vector<std::size_t>;

/// Upstream's testPricingModel: prices by node-group template (CA: node name) and by pod name;
/// a name without a price is an error (nullopt here).
PricingModel table_pricing(std::map<std::string, double> nodes, std::map<std::string, double> pods) {
    PricingModel p;
    p.node_price = [nodes](const ExpansionOption& o) -> std::optional<double> {
        const auto it = nodes.find(o.node_group);
        return it == nodes.end() ? std::nullopt : std::optional<double>(it->second);
    };
    p.pod_price = [pods](const ExpansionPod& pod) -> std::optional<double> {
        const auto it = pods.find(pod.name);
        return it == pods.end() ? std::nullopt : std::optional<double>(it->second);
    };
    return p;
}
}  // namespace

TEST_CASE("least-waste: upstream waste_test.go TestLeastWaste") {
    // cpuPerPod 500m, memoryPerPod 1000 MiB; balanced 16x both, highmem 32x memory, lowcpu 8x cpu.
    const std::int64_t cpu = 500;
    const std::int64_t memory = 1000LL * 1024 * 1024;
    const auto node = [&](std::string group, std::int64_t c, std::int64_t m, std::vector<ExpansionPod> pods) {
        ExpansionOption o;
        o.node_group = std::move(group);
        o.node_capacity = Resources::from_units({{"cpu", c * cpu}, {"memory", m * memory}, {"pods", 100}});
        o.pods = std::move(pods);
        return o;
    };
    const ExpansionPod p(Resources::from_units({{"cpu", cpu}, {"memory", memory}}));
    // Without pods, one option: it is returned.
    CHECK(least_waste(std::vector{node("balanced", 16, 16, {})}) == Indices{0});
    const auto balanced = node("balanced", 16, 16, {p});
    CHECK(least_waste(std::vector{balanced}) == Indices{0});
    const auto highmem = node("highmem", 16, 32, {p});
    CHECK(least_waste(std::vector{balanced, highmem}) == Indices{0});  // upstream: balancedOption
    const auto lowcpu = node("lowcpu", 8, 16, {p});
    CHECK(least_waste(std::vector{balanced, highmem, lowcpu}) == Indices{2});  // upstream: lowcpuOption
    CHECK(*least_waste_score(balanced) == 15.0 / 16 + 15.0 / 16);
    CHECK(*least_waste_score(highmem) == 15.0 / 16 + 31.0 / 32);
    CHECK(*least_waste_score(lowcpu) == 7.0 / 8 + 15.0 / 16);
}

TEST_CASE("least-waste: CA's formula on Capacity, lowest wins") {
    // 2 nodes of 4 CPU / 16 GiB, pods total 6 CPU / 16 GiB -> (8-6)/8 + (32-16)/32 = 0.75.
    const auto a = option("a", 2, "4", "16Gi", {pod("3", "8Gi"), pod("3", "8Gi")});
    CHECK(*least_waste_score(a) == doctest::Approx(0.75).epsilon(1e-15));
    const auto b = option("b", 1, "8", "32Gi", {pod("3", "8Gi"), pod("3", "8Gi")});  // 0.75 as well: a tie
    const auto c = option("c", 1, "16", "16Gi", {pod("3", "8Gi"), pod("3", "8Gi")});  // (16-6)/16 + 0 = 0.625
    auto g = option("g", 1, "8", "32Gi", {pod("3", "8Gi"), pod("3", "8Gi")});
    g.node_capacity.set("nvidia.com/gpu", 4);  // GPUs are ignored by least-waste
    g.node_allocatable = Resources{{"cpu", "1"}, {"memory", "1Gi"}};  // and so is Allocatable (waste.go reads Capacity)
    const std::vector<ExpansionOption> options = {a, b, c, g};
    CHECK(*least_waste_score(c) == 0.625);
    CHECK(least_waste(options) == Indices{2});
    CHECK(least_waste(std::span(options).first(2)) == Indices{0, 1});
    CHECK(least_waste(options, Indices{0, 1, 3}) == Indices{0, 1, 3});
    const std::vector<ExpansionOption> zero = {option("z", 0, "4", "4Gi", {}), a};
    CHECK(least_waste(zero) == Indices{1});  // node_count 0 has no score (CA would divide by zero)
}

TEST_CASE("most-pods: upstream mostpods_test.go TestMostPods") {
    const auto eo0 = option("EO0", 1, "1", "1Gi", {});
    const auto eo1 = option("EO1", 1, "1", "1Gi", {ExpansionPod{}});
    const auto eo1b = option("EO1b", 1, "1", "1Gi", {ExpansionPod{}});
    CHECK(most_pods(std::vector{eo0}) == Indices{0});
    CHECK(most_pods(std::vector{eo0, eo1}) == Indices{1});
    CHECK(most_pods(std::vector{eo0, eo1, eo1b}) == Indices{1, 2});
}

TEST_CASE("least-nodes: upstream leastnodes_test.go TestLeastNodes table") {
    const auto run = [](std::vector<std::int64_t> counts) {
        std::vector<ExpansionOption> options;
        for (std::size_t i = 0; i < counts.size(); ++i) options.push_back(option(fmt::format("EO{}", i), counts[i], "1", "1Gi", {}));
        return least_nodes(options);
    };
    CHECK(run({}).empty());                                           // no options
    CHECK(run({0}).empty());                                          // no valid options
    CHECK(run({2}) == Indices{0});                                    // 1 valid option
    CHECK(run({2, 1}) == Indices{1});                                 // 2 valid options, not equal
    CHECK(run({6, 2, 2}) == Indices{1, 2});                           // 3 valid options, 2 equal
    CHECK(run({8, 8, 8}) == Indices{0, 1, 2});                        // 3 valid options, all equal
    CHECK(run({23, 0, 5, 8, 5, 5, 22}) == Indices{2, 4, 5});          // 6 valid options, 1 invalid option, 3 equal
}

TEST_CASE("price: upstream preferred_test.go TestPreferred and the preferred-node table") {
    CHECK(preferred_node(3).cpu_millis() == 2000);  // three nodes in the cluster: 2 CPU
    CHECK(node_unfitness(1000, 2000) == 2.0);
    CHECK(node_unfitness(2000, 1000) == 2.0);
    CHECK(node_unfitness(1000, 1000) == 1.0);
    CHECK(preferred_node(0) == Resources::from_units({{"cpu", 1000}, {"memory", 3750LL << 20}}));
    CHECK(preferred_node(2).cpu_millis() == 1000);
    CHECK(preferred_node(6).memory_bytes() == 7500LL << 20);
    CHECK(preferred_node(20).cpu_millis() == 4000);
    CHECK(preferred_node(21).cpu_millis() == 8000);
    CHECK(preferred_node(60).cpu_millis() == 8000);
    CHECK(preferred_node(200).cpu_millis() == 16000);
    CHECK(preferred_node(201) == Resources::from_units({{"cpu", 32000}, {"memory", 120000LL << 20}}));
    CHECK_THROWS_AS(preferred_node(-1), InvalidArgument);
}

TEST_CASE("price: upstream price_test.go TestPriceExpander, case by case") {
    // n1: 1000m, n2 and n3: 4000m (1000 bytes of memory each); p1 1000m, p2 500m; stabilize costs 10.
    const auto group = [](std::string name, std::int64_t count, std::int64_t millicpu, std::vector<ExpansionPod> pods) {
        ExpansionOption o;
        o.node_group = std::move(name);
        o.node_count = count;
        o.node_capacity = Resources::from_units({{"cpu", millicpu}, {"memory", 1000}, {"pods", 100}});
        o.pods = std::move(pods);
        return o;
    };
    const ExpansionPod p1("p1", Resources::from_units({{"cpu", 1000}}));
    const ExpansionPod p2("p2", Resources::from_units({{"cpu", 500}}));
    const std::map<std::string, double> pod_prices = {{"p1", 20.0}, {"p2", 10.0}, {"stabilize", 10.0}};
    const auto context = [&](std::map<std::string, double> node_prices, std::int64_t preferred_millicpu) {
        PriceContext c;
        c.pricing = table_pricing(std::move(node_prices), pod_prices);
        c.preferred_node = Resources::from_units({{"cpu", preferred_millicpu}, {"memory", 1LL << 30}});
        return c;
    };
    const std::vector<ExpansionOption> options = {group("ng1", 2, 1000, {p1, p2}), group("ng2", 1, 4000, {p1, p2})};
    const double tanh_1 = 1.0 - std::tanh(1.0 / 15.0);  // suppression at NodeCount 2

    // "First node group is cheaper."
    auto c = context({{"ng1", 20.0}, {"ng2", 200.0}}, 2000);
    CHECK(price(options, c).kept == Indices{0});
    CHECK(price_score(options[0], c).score == doctest::Approx((40.0 + 10) / (30 + 10) * (1.0 * tanh_1 + 1)).epsilon(1e-15));
    CHECK(price_score(options[1], c).score == doctest::Approx((200.0 + 10) / 40 * 2.0).epsilon(1e-15));  // 10.5
    // "First node group is cheaper, however, the second one is preferred."
    c = context({{"ng1", 50.0}, {"ng2", 200.0}}, 4000);
    CHECK(price(options, c).kept == Indices{1});
    CHECK(price_score(options[0], c).score == doctest::Approx((100.0 + 10) / 40 * (3.0 * tanh_1 + 1)).epsilon(1e-15));
    CHECK(price_score(options[1], c).score == doctest::Approx(210.0 / 40).epsilon(1e-15));
    // "First node group is cheaper, the second is preferred but there is lots of nodes to be created."
    const std::vector<ExpansionOption> options1b = {group("ng1", 80, 1000, {p1, p2}), group("ng2", 40, 4000, {p1, p2})};
    CHECK(price(options1b, context({{"ng1", 20.0}, {"ng2", 200.0}}, 4000)).kept == Indices{0});
    // "Second node group is cheaper."
    CHECK(price(options, context({{"ng1", 200.0}, {"ng2", 100.0}}, 2000)).kept == Indices{1});
    // "Both node groups are equally expensive. However 2 accept two pods."
    const std::vector<ExpansionOption> options2 = {group("ng1", 2, 1000, {p1}), group("ng2", 1, 4000, {p1, p2})};
    CHECK(price(options2, context({{"ng1", 200.0}, {"ng2", 200.0}}, 2000)).kept == Indices{1});
    // "Errors are expected": no price for anything -> no option (CA returns nil), with CA's log lines.
    PriceContext none;
    none.pricing = table_pricing({}, {});
    none.preferred_node = Resources::from_units({{"cpu", 2000}});
    const auto nothing = price(options2, none);
    CHECK(nothing.kept.empty());
    CHECK(nothing.warnings == std::vector<std::string>{"Failed to get price for stabilization pod: continuing without stabilization",
                                                       "Failed to calculate node price for ng1", "Failed to calculate node price for ng2"});
    // A third, not yet existing group (autoprovisioned MT1, 4000m): "Choose existing group when
    // non-existing has the same price", then "Choose non-existing group when non-existing is cheaper".
    auto options3 = options2;
    options3.push_back(group("autoprovisioned-MT1", 1, 4000, {p1, p2}));
    options3.back().node_group_exists = false;
    CHECK(price(options3, context({{"ng1", 200.0}, {"ng2", 200.0}, {"autoprovisioned-MT1", 200.0}}, 2000)).kept == Indices{1});
    const auto cheaper = context({{"ng1", 200.0}, {"ng2", 200.0}, {"autoprovisioned-MT1", 90.0}}, 2000);
    CHECK(price(options3, cheaper).kept == Indices{2});
    CHECK(price_score(options3[2], cheaper).score == doctest::Approx((90.0 + 10) / 40 * 2.0 * 2.0).epsilon(1e-15));  // 10 < 10.5
}

TEST_CASE("price: a pod without a price skips its option, no stabilisation price drops the term") {
    const ExpansionPod p1("p1", Resources::from_units({{"cpu", 1000}}));
    const ExpansionPod unknown("unpriced", Resources::from_units({{"cpu", 100}}), {{"app", "batch"}}, "jobs");
    std::vector<ExpansionOption> options = {option("a", 1, "2", "4Gi", {p1, unknown}), option("b", 1, "2", "4Gi", {p1})};
    PriceContext c;
    c.pricing = table_pricing({{"a", 1.0}, {"b", 5.0}}, {{"p1", 2.0}});  // nothing for "stabilize"
    c.cluster_node_count = 5;                                            // preferred: 2 CPU, unfitness 1
    const auto result = price(options, c);
    CHECK(result.kept == Indices{1});  // a is cheaper but one of its pods has no price: CA skips it
    CHECK(result.warnings == std::vector<std::string>{"Failed to get price for stabilization pod: continuing without stabilization",
                                                      "Failed to calculate pod price for jobs/unpriced"});
    const auto b = price_score(options[1], c);
    CHECK(b.scored);
    CHECK(b.stabilization_price == 0.0);
    CHECK(b.price_sub_score == 5.0 / 2.0);  // (5 + 0) / (2 + 0): no stabilisation term
    CHECK(b.score == 2.5);
    const auto a = price_score(options[0], c);
    CHECK_FALSE(a.scored);
    CHECK(a.to_string() == "skipped: Failed to calculate pod price for jobs/unpriced");
    // The pod price function sees the whole pod: labels, namespace and ephemeral-storage.
    PricingModel by_label;
    by_label.node_price = [](const ExpansionOption&) { return 1.0; };
    by_label.pod_price = [](const ExpansionPod& p) -> std::optional<double> {
        if (p.labels.count("app") && p.labels.at("app") == "batch") return 0.5 * static_cast<double>(p.requests.get("ephemeral-storage") >> 30);
        return 1.0;
    };
    ExpansionPod scratch("scratch", Resources{{"cpu", "100m"}, {"ephemeral-storage", "4Gi"}}, {{"app", "batch"}});
    CHECK(*by_label.pod_price(scratch) == 2.0);
    // Only the node has a price and the pods cost 0: the ratio is +inf, kept (Go's float division),
    // and such an option only wins when every option is +inf.
    PriceContext zero;
    zero.pricing = table_pricing({{"a", 1.0}, {"b", 1.0}}, {{"p1", 0.0}, {"unpriced", 0.0}});
    zero.cluster_node_count = 5;
    CHECK(std::isinf(price_score(options[0], zero).score));
    CHECK(price(options, zero).kept == Indices{0, 1});
    // 0/0 (node, pods and stabilisation all free): CA's comparison with NaN depends on the order; skipped here.
    zero.pricing = table_pricing({{"a", 0.0}, {"b", 1.0}}, {{"p1", 0.0}, {"unpriced", 0.0}});
    const auto nan_case = price(options, zero);
    CHECK(nan_case.kept == Indices{1});
    CHECK(nan_case.warnings.back() == "Price of a is 0/0 (no node, pod or stabilisation price): skipped");
}

TEST_CASE("price: suppression matches proposals/pricing.md") {
    CHECK(suppress_unfitness(4, 1) == 4.0);
    CHECK(suppress_unfitness(4, 2) == doctest::Approx(3.800296).epsilon(1e-6));
    CHECK(suppress_unfitness(4, 3) == doctest::Approx(3.602354).epsilon(1e-6));
    CHECK(suppress_unfitness(4, 5) == doctest::Approx(3.218439).epsilon(1e-6));
    CHECK(suppress_unfitness(4, 10) == doctest::Approx(2.388851).epsilon(1e-6));
    CHECK(suppress_unfitness(4, 16) == doctest::Approx(1.715).epsilon(1e-3));  // reference §12
    CHECK(suppress_unfitness(4, 20) == doctest::Approx(1.441325).epsilon(1e-6));
    CHECK(suppress_unfitness(4, 50) == doctest::Approx(1.008712).epsilon(1e-6));
    CHECK(suppress_unfitness(2.0, std::numeric_limits<std::int64_t>::min()) == doctest::Approx(3.0));
}

TEST_CASE("price: seed 000 reference implementation anchor (reference §11)") {
    // STANDARD (2 CPU, flat cost 1) vs GPU (3.5 CPU, 1 GPU, cost 25); PricingPodPrice always 1; one-node cluster.
    PricingModel pricing;
    pricing.node_price = [](const ExpansionOption& o) { return o.node_group == "gpu" ? 25.0 : 1.0; };
    pricing.pod_price = [](const ExpansionPod&) { return 1.0; };
    const auto standard = option("standard", 1, "2", "2Gi", {pod("1", "1Gi")});
    auto gpu = option("gpu", 1, "3500m", "4Gi", {pod("1", "1Gi")});
    gpu.node_capacity.set("nvidia.com/gpu", 1);
    CHECK(price_score(standard, pricing, 1).score == 2.0);  // (1+1)/(1+1) x unfitness 2
    CHECK(price_score(gpu, pricing, 1).score == 13000.0);   // (25+1)/(1+1) x 1000
    CHECK(price(std::vector{gpu, standard}, pricing, 1).kept == Indices{1});
}

TEST_CASE("price: the pricing.md table (0.1-CPU pod, X = 0.016, preferred n1-standard-8)") {
    PricingModel pricing;
    pricing.node_price = [](const ExpansionOption& o) { return o.node_group == "n1-standard-2" ? 0.095 : o.node_group == "n1-standard-8" ? 0.380 : 0.795; };
    pricing.pod_price = [](const ExpansionPod& p) { return p.requests.cpu_millis() == 500 ? 0.016 : 0.003; };
    auto s2 = option("n1-standard-2", 1, "2", "7680Mi", {pod("100m", "100Mi")});
    auto s8 = option("n1-standard-8", 1, "8", "30Gi", {pod("100m", "100Mi")});
    auto gpu = option("n1-standard-2-gpu", 1, "2", "7680Mi", {pod("100m", "100Mi")});
    gpu.node_capacity.set("nvidia.com/gpu", 1);
    const std::int64_t cluster = 30;  // preferred node: 8 CPU

    const auto p2 = price_score(s2, pricing, cluster);
    CHECK(p2.price_sub_score == doctest::Approx((0.095 + 0.016) / (0.003 + 0.016)));  // 5.84
    CHECK(p2.unfitness == 4.0);
    CHECK(p2.score == doctest::Approx(4 * 5.842105).epsilon(1e-6));  // the table's 23.36
    CHECK(price_score(s8, pricing, cluster).score == doctest::Approx(20.84).epsilon(1e-3));
    const auto pg = price_score(gpu, pricing, cluster);
    CHECK(pg.suppressed_unfitness == 1000.0);  // gpuUnfitnessOverride (NodeHasGpu: Allocatable defaults to Capacity)
    const std::vector<ExpansionOption> options = {s2, s8, gpu};
    CHECK(price(options, pricing, cluster).kept == Indices{1});
    CHECK(price(options, pricing, 5).kept == Indices{0});  // preferred 2 CPU on a 5-node cluster
    CHECK(p2.to_string() == "all_nodes_price=0.095000 pods_price=0.003000 stabilized_ratio=5.842105 unfitness=4.000000 suppressed=4.000000 final_score=23.368421");
    // A set preferred node (a custom PreferredNodeProvider) replaces the cluster-size table.
    PriceContext custom{pricing, cluster, Resources::from_units({{"cpu", 2000}}), {}};
    CHECK(price_score(s2, custom).unfitness == 1.0);
    CHECK(price(options, custom).kept == Indices{0});
    CHECK(suppress_unfitness(4, 16) == doctest::Approx(3.0 * (1.0 - std::tanh(1.0)) + 1.0).epsilon(1e-15));
}

TEST_CASE("price: GPU detection as CA's NodeHasGpu (provider label or Allocatable nvidia.com/gpu)") {
    PricingModel pricing;
    pricing.node_price = [](const ExpansionOption&) { return 1.0; };
    pricing.pod_price = [](const ExpansionPod&) { return 1.0; };
    auto labelled = option("labelled", 1, "2", "2Gi", {pod("1", "1Gi")});
    labelled.node_labels = {{"cloud.google.com/gke-accelerator", "nvidia-tesla-t4"}};
    CHECK_FALSE(labelled.has_gpu());
    CHECK(labelled.has_gpu("cloud.google.com/gke-accelerator"));
    PriceContext context{pricing, 1, std::nullopt, "cloud.google.com/gke-accelerator"};
    CHECK(price_score(labelled, context).score == 1000.0);  // (1+1)/(1+1) x 1000
    auto capacity_only = option("capacity-only", 1, "2", "2Gi", {pod("1", "1Gi")});
    capacity_only.node_capacity.set("nvidia.com/gpu", 1);
    capacity_only.node_allocatable = Resources{{"cpu", "2"}, {"memory", "2Gi"}};  // allocatable without the GPU
    CHECK_FALSE(capacity_only.has_gpu());
    CHECK(price_score(capacity_only, context).score == 2.0);  // unfitness 2 vs the 1-CPU preferred node
    auto missing = capacity_only;
    missing.node_group_exists = false;
    CHECK(price_score(missing, context).score == 4.0);  // notExistCoeficient

    PricingModel broken;
    CHECK_THROWS_AS(price_score(labelled, broken, 1), InvalidArgument);
    broken.node_price = [](const ExpansionOption&) { return -1.0; };
    broken.pod_price = [](const ExpansionPod&) { return 1.0; };
    CHECK_THROWS_WITH_AS(price_score(labelled, broken, 1), doctest::Contains("node price for labelled must be finite and >= 0, got -1"), InvalidArgument);
    CHECK_THROWS_AS(PricingModel::linear(-1, 0), InvalidArgument);
    const auto linear = PricingModel::linear(0.5, 0.25, 10);
    CHECK(*linear.pod_price(price_expander::stabilization_pod()) == doctest::Approx(0.25 + 0.25 * 500.0 / 1024.0));
    auto negative = labelled;
    negative.node_count = std::numeric_limits<std::int64_t>::min();
    CHECK_THROWS_WITH_AS(price_score(negative, pricing, 1), doctest::Contains("node_count must be >= 0"), InvalidArgument);
}

TEST_CASE("expansion option: template labels, taints and allocatable are validated") {
    auto o = option("g", 1, "4", "8Gi", {});
    o.node_taints = {{"dedicated", "gpu", "NoSchedule"}};
    o.node_labels = {{"kubernetes.io/arch", "arm64"}};
    CHECK_NOTHROW(o.validate());
    CHECK(o.allocatable() == o.node_capacity);
    o.node_allocatable = Resources{{"cpu", "3800m"}, {"memory", "7Gi"}};
    CHECK(o.allocatable().cpu_millis() == 3800);
    o.node_taints.push_back({"spot", "", "Evict"});
    CHECK_THROWS_WITH_AS(o.validate(), doctest::Contains("node_taints[1] effect must be NoSchedule, PreferNoSchedule or NoExecute, got \"Evict\""), InvalidArgument);
    o.node_taints.pop_back();
    o.node_labels["bad key!"] = "x";
    CHECK_THROWS_WITH_AS(o.validate(), doctest::Contains("invalid node label key \"bad key!\""), InvalidArgument);
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
