// Tests for quota/reactive.hpp: Algorithm 2's three cases by hand, the infeasible decision, bad
// input, and the property "after a reactive step that is not infeasible, quota >= request in
// every resource" on seeded random snapshots.
#include <continuum/quota/reactive.hpp>

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

using namespace continuum;
using namespace std::chrono_literals;
using capacity::WaitingNode;
using quota::ReactiveCase;
using quota::ReactiveQuotaScaler;
using quota::ReactiveSnapshot;

namespace {
std::vector<WaitingNode> pool() {
    return {
        WaitingNode{"wwn-1", Resources{{"cpu", "8"}, {"memory", "32Gi"}}, 20s, 1.0},
        WaitingNode{"wwn-2", Resources{{"cpu", "8"}, {"memory", "32Gi"}}, 20s, 1.0},
        WaitingNode{"wwn-3", Resources{{"cpu", "16"}, {"memory", "64Gi"}}, 45s, 1.8},
    };
}
}  // namespace

TEST_CASE("case 1: the request fits in the quota, deploy as is") {
    const auto nodes = pool();
    const ReactiveQuotaScaler scaler;
    const auto d = scaler.decide(ReactiveSnapshot{Resources{{"cpu", "60"}}, Resources{{"cpu", "100"}}, Resources{{"cpu", "10"}}, nodes});
    CHECK(d.kind == ReactiveCase::sufficient_quota);
    CHECK(d.case_number() == 1);
    CHECK(d.deploy());
    CHECK(d.new_quota == Resources{{"cpu", "100"}});
    CHECK(d.quota_increase.empty());
    CHECK(d.nodes_to_activate().empty());
    CHECK(d.reason.find("case 1") != std::string::npos);
}

TEST_CASE("case 2: raise the quota by the shortfall when free resources cover it") {
    const auto nodes = pool();
    const auto d = quota::reactive_quota_step(
        ReactiveSnapshot{Resources{{"cpu", "110"}, {"memory", "10Gi"}}, Resources{{"cpu", "100"}, {"memory", "20Gi"}}, Resources{{"cpu", "12"}}, nodes});
    CHECK(d.kind == ReactiveCase::raise_quota);
    CHECK(d.case_number() == 2);
    CHECK(d.quota_increase == Resources{{"cpu", "10"}});
    CHECK(d.new_quota == Resources{{"cpu", "110"}, {"memory", "20Gi"}});  // memory is never lowered
    CHECK(d.nodes_to_activate().empty());
    CHECK(d.reason.find("case 2 (raise quota)") != std::string::npos);
    // Exact to the millicore.
    const auto m = quota::reactive_quota_step(ReactiveSnapshot{Resources{{"cpu", "100001m"}}, Resources{{"cpu", "100"}}, Resources{{"cpu", "1m"}}, nodes});
    CHECK(m.kind == ReactiveCase::raise_quota);
    CHECK(m.new_quota.cpu_millis() == 100'001);
}

TEST_CASE("case 3: activate waiting nodes for shortfall - available, then raise the quota") {
    const auto nodes = pool();
    // Shortfall 30 CPUs, 4 free: 26 CPUs must come from waiting nodes. Any two give at most
    // 16 + 8 = 24 < 26, so all three (32) are needed.
    const auto d = quota::reactive_quota_step(ReactiveSnapshot{Resources{{"cpu", "130"}}, Resources{{"cpu", "100"}}, Resources{{"cpu", "4"}}, nodes});
    CHECK(d.kind == ReactiveCase::activate_nodes);
    CHECK(d.case_number() == 3);
    CHECK(d.new_quota == Resources{{"cpu", "130"}});
    CHECK(d.quota_increase == Resources{{"cpu", "30"}});
    CHECK(d.nodes_to_activate() == std::vector<std::string>{"wwn-1", "wwn-2", "wwn-3"});
    // Shortfall 20, 4 free: 16 from nodes -> wwn-3 alone (fewest, and cheaper: 1.8 < 2 x 1.0);
    // under `fastest` the two 20 s nodes beat wwn-3's 45 s.
    const auto e = quota::reactive_quota_step(ReactiveSnapshot{Resources{{"cpu", "120"}}, Resources{{"cpu", "100"}}, Resources{{"cpu", "4"}}, nodes});
    CHECK(e.kind == ReactiveCase::activate_nodes);
    CHECK(e.nodes_to_activate() == std::vector<std::string>{"wwn-3"});
    const ReactiveQuotaScaler fastest(quota::ReactiveConfig{capacity::ActivationObjective::fastest, {}});
    const auto f = fastest.decide(ReactiveSnapshot{Resources{{"cpu", "120"}}, Resources{{"cpu", "100"}}, Resources{{"cpu", "4"}}, nodes});
    CHECK(f.nodes_to_activate() == std::vector<std::string>{"wwn-1", "wwn-2"});
    CHECK(f.activation.resume_latency == 20s);
    CHECK(f.reason.find("case 3 (activate nodes)") != std::string::npos);
}

TEST_CASE("infeasible: nothing changes and the missing amount is reported") {
    const auto nodes = pool();  // 32 CPUs waiting
    const auto d = quota::reactive_quota_step(ReactiveSnapshot{Resources{{"cpu", "140"}}, Resources{{"cpu", "100"}}, Resources{{"cpu", "4"}}, nodes});
    CHECK(d.kind == ReactiveCase::infeasible);
    CHECK_FALSE(d.deploy());
    CHECK(d.new_quota == Resources{{"cpu", "100"}});
    CHECK(d.nodes_to_activate().empty());
    CHECK(d.still_missing == Resources{{"cpu", "4"}});
    CHECK(d.reason.find("infeasible") != std::string::npos);
    // No pool at all.
    const auto e = quota::reactive_quota_step(ReactiveSnapshot{Resources{{"nvidia.com/gpu", "1"}}, Resources{}, Resources{}, {}});
    CHECK(e.kind == ReactiveCase::infeasible);
    CHECK(e.still_missing == Resources{{"nvidia.com/gpu", "1"}});
}

TEST_CASE("bad input names the argument") {
    const auto negative = Resources::from_units({{"cpu", -1}});
    CHECK_THROWS_WITH_AS((void)quota::reactive_quota_step(ReactiveSnapshot{negative, Resources{}, Resources{}, {}}), doctest::Contains("request"), InvalidArgument);
    CHECK_THROWS_WITH_AS((void)quota::reactive_quota_step(ReactiveSnapshot{Resources{}, negative, Resources{}, {}}), doctest::Contains("current_quota"),
                         InvalidArgument);
    CHECK_THROWS_WITH_AS((void)quota::reactive_quota_step(ReactiveSnapshot{Resources{}, Resources{}, negative, {}}), doctest::Contains("available"),
                         InvalidArgument);
    std::vector<WaitingNode> bad = pool();
    bad[0].capacity = Resources{};
    CHECK_THROWS_AS((void)quota::reactive_quota_step(ReactiveSnapshot{Resources{}, Resources{}, Resources{}, bad}), InvalidArgument);
}

TEST_CASE("property: after a reactive step that is not infeasible, quota >= request in every resource") {
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<std::int64_t> cpu(0, 40'000);
    std::uniform_int_distribution<std::int64_t> mem(0, 64);
    std::uniform_int_distribution<int> pool_size(0, 6);
    int by_case[4] = {0, 0, 0, 0};
    for (int trial = 0; trial < 2000; ++trial) {
        std::vector<WaitingNode> nodes;
        const int n = pool_size(rng);
        for (int i = 0; i < n; ++i) {
            nodes.push_back(WaitingNode{fmt::format("n{}", i), Resources::from_units({{"cpu", 1 + cpu(rng) / 4}, {"memory", (1 + mem(rng)) << 28}}),
                                        Duration(1000 * i), 0.5 * i});
        }
        const Resources request = Resources::from_units({{"cpu", cpu(rng)}, {"memory", mem(rng) << 30}});
        const Resources current = Resources::from_units({{"cpu", cpu(rng)}, {"memory", mem(rng) << 30}});
        const Resources available = Resources::from_units({{"cpu", cpu(rng) / 8}, {"memory", mem(rng) << 27}});
        const auto d = quota::reactive_quota_step(ReactiveSnapshot{request, current, available, nodes});
        ++by_case[d.case_number()];
        CAPTURE(d.reason);
        CHECK(current.fits_in(d.new_quota));  // never lowered
        if (d.kind == ReactiveCase::infeasible) {
            CHECK(d.new_quota == current);
            CHECK_FALSE(d.still_missing.empty());
            continue;
        }
        CHECK(request.fits_in(d.new_quota));
        CHECK(d.new_quota == max(current, request));
        // The quota increase is backed: free resources plus resumed nodes cover it.
        CHECK(d.quota_increase.fits_in(available + d.activation.activated_capacity));
        if (d.kind != ReactiveCase::activate_nodes) CHECK(d.activation.nodes.empty());
    }
    // Every case is exercised.
    CHECK(by_case[0] > 0);
    CHECK(by_case[1] > 0);
    CHECK(by_case[2] > 0);
    CHECK(by_case[3] > 0);
}
