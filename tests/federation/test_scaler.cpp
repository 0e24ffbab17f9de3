// Scale-out and scale-in of virtual nodes on seed 000's testbed (Table 1: three low-cost providers
// with 2 cores / 4 GB at 1 $/min, one high-cost provider with 4 cores / 4 GB at 5 $/min).
#include <continuum/federation/federated_cluster_scaler.hpp>

#include <doctest/doctest.h>

#include <map>
#include <set>

using namespace continuum;
using namespace continuum::federation;
using namespace std::chrono_literals;

namespace {
Offer testbed_offer(std::string id, std::string cpu, double price, std::string provider) {
    Offer o;
    o.cluster_id = std::move(id);
    o.provider = provider;
    o.labels = {{"provider", provider}, {"kubernetes.io/arch", "amd64"}};
    o.capacity = Resources{{"cpu", cpu}, {"memory", "4Gi"}};
    o.node_price = price;
    return o;
}
std::vector<Offer> table1() {
    return {testbed_offer("high-1", "4", 5.0, "pr2"), testbed_offer("low-1", "2", 1.0, "pr1"), testbed_offer("low-2", "2", 1.0, "pr1"),
            testbed_offer("low-3", "2", 1.0, "pr1")};
}
std::vector<PendingPod> pods(int n, std::string cpu = "1", std::string memory = "512Mi", std::string selector = "") {
    std::vector<PendingPod> out;
    for (int i = 0; i < n; ++i) out.push_back({fmt::format("pod-{}", i), Resources{{"cpu", cpu}, {"memory", memory}}, parse_label_selector(selector)});
    return out;
}
std::map<std::string, std::size_t> nodes_per_offer(const ScaleOutDecision& d) {
    std::map<std::string, std::size_t> out;
    for (const auto& p : d.peerings) out[p.cluster_id] = p.nodes.size();
    return out;
}
}  // namespace

TEST_CASE("scale-out: the testbed prefers the cheap providers") {
    const auto offers = table1();
    // 3 pods of 1 CPU: two low-cost nodes ($2) beat the high-cost one ($5).
    const auto d3 = plan_scale_out(pods(3), {}, offers);
    CHECK(nodes_per_offer(d3) == std::map<std::string, std::size_t>{{"low-1", 1}, {"low-2", 1}});
    CHECK(d3.cost == 2.0);
    CHECK(d3.optimal);
    CHECK(d3.unschedulable.empty());
    CHECK(d3.peerings[0].nodes[0].reserved == offers[1].capacity);  // flat price: the whole node

    // 7 pods: high (4 pods) + two low ($7) beats three low + high ($8).
    const auto d7 = plan_scale_out(pods(7), {}, offers);
    CHECK(d7.cost == 7.0);
    CHECK(nodes_per_offer(d7) == std::map<std::string, std::size_t>{{"high-1", 1}, {"low-1", 1}, {"low-2", 1}});
    CHECK(d7.new_node_count() == 3);

    // 11 pods of 1 CPU: 10 cores in the federation, one pod is reported.
    const auto d11 = plan_scale_out(pods(11), {}, offers);
    CHECK(d11.cost == 8.0);
    REQUIRE(d11.unschedulable.size() == 1);
    CHECK(d11.unschedulable[0].reason == "every offer that could host request {cpu: 1, memory: 512Mi} has reached its max_nodes");
    CHECK(d11.reason == "11 pending pods: 0 on existing nodes, 10 on 4 new nodes [high-1 x1, low-1 x1, low-2 x1, low-3 x1] costing 8 per unit of time, 1 unschedulable");
}

TEST_CASE("scale-out: big pods, selectors, NAT and unschedulable reasons") {
    auto offers = table1();
    std::vector<PendingPod> p = {
        {"big", Resources{{"cpu", "3"}, {"memory", "1Gi"}}, {}},
        {"huge", Resources{{"cpu", "8"}, {"memory", "1Gi"}}, {}},
        {"gpu", Resources{{"cpu", "1"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "1"}}, {}},
        {"pinned", Resources{{"cpu", "1"}, {"memory", "1Gi"}}, parse_label_selector("provider=pr1")},
        {"nowhere", Resources{{"cpu", "1"}, {"memory", "1Gi"}}, parse_label_selector("region in (mars)")},
    };
    const auto d = plan_scale_out(p, {}, offers);
    CHECK(nodes_per_offer(d) == std::map<std::string, std::size_t>{{"high-1", 1}, {"low-1", 1}});
    REQUIRE(d.unschedulable.size() == 3);
    CHECK(d.unschedulable[0].pod == "huge");
    CHECK(d.unschedulable[0].reason == "request {cpu: 8, memory: 1Gi} exceeds every offer (largest: high-1 {cpu: 4, memory: 4Gi})");
    CHECK(d.unschedulable[1].pod == "gpu");
    CHECK(d.unschedulable[2].reason == "no offer matches node selector \"region=mars\"");
    // A pod alone that nothing hosts: one pod, no new node.
    const std::vector<PendingPod> alone = {p[1]};
    CHECK(plan_scale_out(alone, {}, offers).reason == "1 pending pod: 0 on existing nodes, no new node, 1 unschedulable");
    for (const auto& peering : d.peerings) {
        if (peering.cluster_id == "low-1") CHECK(peering.nodes[0].pods == std::vector<std::string>{"pinned"});
        if (peering.cluster_id == "high-1") CHECK(peering.nodes[0].pods == std::vector<std::string>{"big"});
    }

    offers[0].reachability = Reachability::nat;
    ScaleOutOptions no_nat;
    no_nat.allow_nat = false;
    const std::vector<PendingPod> high_only = {{"h", Resources{{"cpu", "1"}, {"memory", "1Gi"}}, parse_label_selector("provider=pr2")}};
    const auto d2 = plan_scale_out(high_only, {}, offers, no_nat);
    REQUIRE(d2.unschedulable.size() == 1);
    CHECK(d2.unschedulable[0].reason == "only offers behind a NAT match node selector \"provider=pr2\" and NAT is not allowed");
    CHECK(plan_scale_out(high_only, {}, offers).new_node_count() == 1);
}

TEST_CASE("scale-out: existing virtual nodes first, and they use up their offer") {
    const auto offers = table1();
    VirtualNode low1{"vn-low-1", "low-1", {{"provider", "pr1"}}, Resources{{"cpu", "2"}, {"memory", "4Gi"}}, 1.0, {{"running", Resources{{"cpu", "1"}, {"memory", "1Gi"}}, true}}};
    const std::vector<VirtualNode> nodes = {low1};
    const auto d = plan_scale_out(pods(3), nodes, offers);
    REQUIRE(d.existing_node_placements.size() == 1);
    CHECK(d.existing_node_placements[0].node == "vn-low-1");
    CHECK(nodes_per_offer(d) == std::map<std::string, std::size_t>{{"low-2", 1}});  // low-1 is already peered
    CHECK(d.cost == 1.0);
    ScaleOutOptions fresh;
    fresh.use_existing_nodes = false;
    CHECK(plan_scale_out(pods(3), nodes, offers, fresh).cost == 2.0);
}

TEST_CASE("scale-out: unit-priced offers reserve what is placed, pod slots count") {
    Offer unit;
    unit.cluster_id = "unit";
    unit.capacity = Resources{{"cpu", "8"}, {"memory", "16Gi"}, {"pods", "3"}};
    unit.unit_prices = {{"cpu", 0.5}, {"memory", 0.125}};  // whole node 4 + 2 = 6
    unit.max_nodes = 4;
    const std::vector<Offer> offers = {unit};
    const auto d = plan_scale_out(pods(4, "1", "2Gi"), {}, offers);
    REQUIRE(d.peerings.size() == 1);
    REQUIRE(d.peerings[0].nodes.size() == 2);  // 3 pod slots per node
    CHECK(d.peerings[0].nodes[0].pods.size() == 3);
    CHECK(d.peerings[0].nodes[0].reserved == Resources{{"cpu", "3"}, {"memory", "6Gi"}});
    CHECK(d.peerings[0].nodes[0].cost == doctest::Approx(1.5 + 0.75));
    CHECK(d.cost == doctest::Approx(4 * (0.5 + 0.25)));
    // Zero-request pods still count a pod slot and are never dropped.
    std::vector<PendingPod> empty = {{"e1", {}, {}}, {"e2", {}, {}}, {"e3", {}, {}}, {"e4", {}, {}}};
    const auto de = plan_scale_out(empty, {}, offers);
    CHECK(de.new_node_count() == 2);
    CHECK(de.unschedulable.empty());
}

TEST_CASE("scale-out: bad input") {
    auto offers = table1();
    CHECK_THROWS_AS(plan_scale_out(pods(1), {}, std::vector<Offer>{offers[0], offers[0]}), InvalidArgument);
    auto dup = pods(2);
    dup[1].name = dup[0].name;
    CHECK_THROWS_AS(plan_scale_out(dup, {}, offers), InvalidArgument);
    auto negative = pods(1);
    negative[0].request.set("cpu", -1);
    CHECK_THROWS_AS(plan_scale_out(negative, {}, offers), InvalidArgument);
    offers[1].capacity = Resources{{"memory", "4Gi"}};
    CHECK_THROWS_AS(plan_scale_out(pods(1), {}, offers), InvalidArgument);
    CHECK(plan_scale_out(pods(2), {}, {}).unschedulable.size() == 2);
}

TEST_CASE("scale-out: property - every pod exactly once, nodes fit, counts respected") {
    std::uint64_t state = 99;
    const auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 33;
    };
    for (int round = 0; round < 20; ++round) {
        std::vector<Offer> offers;
        const int n_offers = 1 + static_cast<int>(next() % 8);
        for (int i = 0; i < n_offers; ++i) {
            Offer o = testbed_offer(fmt::format("o{}", i), std::to_string(1 + next() % 6), static_cast<double>(1 + next() % 9), next() % 2 ? "pr1" : "pr2");
            o.max_nodes = 1 + static_cast<std::int64_t>(next() % 3);
            if (next() % 3 == 0) o.unit_prices["cpu"] = 0.5;
            offers.push_back(o);
        }
        std::vector<PendingPod> p;
        const int n_pods = static_cast<int>(next() % 25);
        for (int i = 0; i < n_pods; ++i) {
            p.push_back({fmt::format("p{}", i), Resources::from_units({{"cpu", static_cast<std::int64_t>(100 + next() % 3000)}, {"memory", static_cast<std::int64_t>((1 + next() % 2048)) << 20}}),
                         parse_label_selector(next() % 4 == 0 ? "provider=pr2" : "")});
        }
        const auto d = plan_scale_out(p, {}, offers);
        std::multiset<std::string> seen;
        for (const auto& u : d.unschedulable) seen.insert(u.pod);
        double cost = 0;
        for (const auto& peering : d.peerings) {
            const Offer& offer = offers[peering.offer_index];
            CHECK(peering.cluster_id == offer.cluster_id);
            CHECK(static_cast<std::int64_t>(peering.nodes.size()) <= offer.max_nodes);
            for (const auto& node : peering.nodes) {
                CHECK(node.requested.fits_in(offer.capacity));
                CHECK(node.requested.fits_in(node.reserved));
                cost += node.cost;
                for (const auto& name : node.pods) seen.insert(name);
            }
        }
        CHECK(d.cost == doctest::Approx(cost));
        CHECK(seen.size() == p.size());
        for (const auto& pod : p) CHECK(seen.count(pod.name) == 1);
    }
}

namespace {
VirtualNode node(std::string name, std::string cpu_alloc, std::vector<std::pair<std::string, std::string>> pod_cpus, double cost = 1.0) {
    VirtualNode n{std::move(name), "c", {}, Resources{{"cpu", cpu_alloc}, {"memory", "4Gi"}}, cost, {}};
    for (auto& [pod, cpu] : pod_cpus) n.pods.push_back({pod, Resources{{"cpu", cpu}, {"memory", "256Mi"}}, true});
    return n;
}
}  // namespace

TEST_CASE("scale-in: utilisation, unneeded time, sequential drains") {
    const std::vector<VirtualNode> nodes = {node("a", "2", {{"a1", "500m"}}), node("b", "2", {{"b1", "1500m"}}), node("c", "2", {{"c1", "400m"}}, 2.0)};
    CHECK(node_utilization(nodes[0]) == 0.25);
    CHECK(node_utilization(nodes[1]) == 0.75);
    FederatedClusterScaler scaler;
    const auto t0 = scaler.scale_in(nodes, Time{0});
    CHECK(t0.nodes_to_release.empty());
    CHECK(t0.nodes[0].unneeded);
    CHECK_FALSE(t0.nodes[1].unneeded);
    CHECK(t0.nodes[1].reason == "utilization 0.750 >= threshold 0.5");
    CHECK(t0.nodes[2].reason == "unneeded for 0 s of the required 600 s");
    CHECK(scaler.scale_in(nodes, Time{5min}).nodes[0].unneeded_for == 5min);
    const auto t10 = scaler.scale_in(nodes, Time{10min});
    // c (0.2) goes first, onto a (first by name); a then receives pods and stays.
    CHECK(t10.nodes_to_release == std::vector<std::string>{"c"});
    REQUIRE(t10.moves.size() == 1);
    CHECK(t10.moves[0].pod == "c1");
    CHECK(t10.moves[0].from == "c");
    CHECK(t10.moves[0].to == "a");
    CHECK(t10.saved_cost == 2.0);
    CHECK(t10.nodes[0].reason == "unneeded, but it receives pods from a node released in this decision");
    CHECK(t10.nodes[2].reason == "released: utilization 0.200, unneeded for 600 s, 1 pod moved");
    CHECK(t10.reason == "release 1 of 3 nodes, move 1 pod, save 2 per unit of time");
    CHECK_THROWS_AS(scaler.scale_in(nodes, Time{9min}), InvalidArgument);
}

TEST_CASE("scale-in: delay after add, timers reset, unmovable pods, GPU nodes") {
    const std::vector<VirtualNode> nodes = {node("a", "2", {{"a1", "500m"}}), node("b", "2", {})};
    FederatedClusterScaler scaler;
    (void)scaler.scale_in(nodes, Time{0});
    scaler.observe_scale_out(Time{8min});
    const auto cooling = scaler.scale_in(nodes, Time{10min});
    CHECK(cooling.nodes_to_release.empty());
    CHECK(cooling.nodes[0].reason == "unneeded, but nodes were added 120 s ago (delay after add 600 s)");
    const auto later = scaler.scale_in(nodes, Time{18min});
    CHECK(later.nodes_to_release == std::vector<std::string>{"b"});  // empty node first (utilisation 0)
    CHECK(later.moves.empty());

    // A busy period resets the timer.
    FederatedClusterScaler s2;
    (void)s2.scale_in(nodes, Time{0});
    const std::vector<VirtualNode> busy = {node("a", "2", {{"a1", "1500m"}}), node("b", "2", {{"b1", "1500m"}})};
    (void)s2.scale_in(busy, Time{5min});
    CHECK(s2.scale_in(nodes, Time{10min}).nodes_to_release.empty());
    CHECK(s2.tracker().unneeded_since("a") == Time{10min});

    auto pinned = nodes;
    pinned[0].pods[0].movable = false;
    FederatedClusterScaler s3;
    const auto d = s3.scale_in(pinned, Time{0});
    CHECK(d.nodes[0].reason == "utilization 0.250 < 0.5 but pod a1 is not movable");

    VirtualNode gpu = node("g", "8", {{"g1", "7"}});
    gpu.allocatable.set("nvidia.com/gpu", 4);
    gpu.pods[0].request.set("nvidia.com/gpu", 1);
    CHECK(node_utilization(gpu) == 0.25);  // by GPU, although cpu is at 0.875

    ScaleInOptions bad;
    bad.utilization_threshold = 1.5;
    CHECK_THROWS_AS(FederatedClusterScaler({}, bad), InvalidArgument);
    const std::vector<VirtualNode> dup = {node("a", "2", {}), node("a", "2", {})};
    CHECK_THROWS_AS(FederatedClusterScaler{}.scale_in(dup, Time{0}), InvalidArgument);
}

TEST_CASE("scale-in: disruption budgets keep ready pods at the desired count, pods belong to the longest matching name") {
    using packing::CountOrPercent;
    using packing::WorkloadAvailability;
    // web-abc-1 is web's (2 desired, 2 ready, default budget: no eviction); web-api-1 is web-api's
    // (maxUnavailable 1), not web's; c is empty.
    const std::vector<VirtualNode> nodes = {node("a", "2", {{"web-abc-1", "500m"}}), node("b", "2", {{"web-api-1", "400m"}}), node("c", "2", {})};
    const std::vector<WorkloadAvailability> budgets = {{"web", 2, 2, {}}, {"web-api", 1, 1, {std::nullopt, CountOrPercent::count(1)}}};
    FederatedClusterScaler scaler;
    (void)scaler.scale_in(nodes, Time{0}, budgets);
    const auto d = scaler.scale_in(nodes, Time{10min}, budgets);
    CHECK(d.nodes[0].reason == "utilization 0.250 < 0.5 but evicting 1 pod of web exceeds its budget: 0 disruptions allowed by ready >= desired (2 desired, 2 ready)");
    CHECK(d.nodes_to_release == std::vector<std::string>{"c", "b"});  // lowest utilisation first; b's pod goes to a
    // Without budgets a is unneeded too (kept only because b's pod lands on it).
    FederatedClusterScaler free;
    (void)free.scale_in(nodes, Time{0});
    const auto f = free.scale_in(nodes, Time{10min});
    CHECK(f.nodes[0].unneeded);
    CHECK(f.nodes[0].reason == "unneeded, but it receives pods from a node released in this decision");

    // One budget shared by a decision's releases: maxUnavailable 1 lets x go, then not y.
    const std::vector<VirtualNode> pair = {node("a-big", "4", {{"other-1", "2"}}), node("x", "2", {{"db-1", "300m"}}), node("y", "2", {{"db-2", "300m"}})};
    const std::vector<WorkloadAvailability> db = {{"db", 2, 2, {std::nullopt, CountOrPercent::count(1)}}};
    FederatedClusterScaler shared;
    (void)shared.scale_in(pair, Time{0}, db);
    const auto s = shared.scale_in(pair, Time{10min}, db);
    CHECK(s.nodes_to_release == std::vector<std::string>{"x"});
    CHECK(s.nodes[2].reason == "unneeded, but after this decision's other releases evicting 1 pod of db exceeds its budget: 0 disruptions allowed by maxUnavailable 1 (2 desired, 2 ready)");
    const std::vector<WorkloadAvailability> twice = {{"db", 2, 2, {}}, {"db", 1, 1, {}}};
    CHECK_THROWS_WITH_AS(FederatedClusterScaler{}.scale_in(pair, Time{0}, twice), "scale-in: duplicate budget \"db\"", InvalidArgument);
}

TEST_CASE("scaler: scale_out starts the delay-after-add cool-down") {
    FederatedClusterScaler scaler;
    const auto offers = table1();
    const auto d = scaler.scale_out(pods(1), {}, offers, Time{3min});
    CHECK(d.new_node_count() == 1);
    CHECK(scaler.tracker().last_scale_out() == Time{3min});
}
