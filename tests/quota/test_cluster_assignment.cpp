// Tests for quota/cluster_assignment.hpp: the Karmada docs' FRQ example (overall cpu 100 ->
// 20 / 50 / 30), exact sums with remainders, bad input.
#include <continuum/quota/cluster_assignment.hpp>

#include <doctest/doctest.h>

#include <random>

using namespace continuum;
using quota::MemberCluster;
using quota::split_across_clusters;

TEST_CASE("the Karmada docs' example: overall cpu 100 over capacities 2:5:3 -> 20 / 50 / 30") {
    const std::vector<MemberCluster> clusters{{"member1", Resources{{"cpu", "20"}}}, {"member2", Resources{{"cpu", "50"}}}, {"member3", Resources{{"cpu", "30"}}}};
    const auto split = split_across_clusters(Resources{{"cpu", "100"}}, clusters);
    REQUIRE(split.size() == 3);
    CHECK(split[0].cluster_name == "member1");
    CHECK(split[0].hard == Resources{{"cpu", "20"}});
    CHECK(split[1].hard == Resources{{"cpu", "50"}});
    CHECK(split[2].hard == Resources{{"cpu", "30"}});
    // Twice the capacity gives the same proportions.
    const std::vector<MemberCluster> big{{"member1", Resources{{"cpu", "2"}}}, {"member2", Resources{{"cpu", "5"}}}, {"member3", Resources{{"cpu", "3"}}}};
    CHECK(split_across_clusters(Resources{{"cpu", "100"}}, big)[1].hard == Resources{{"cpu", "50"}});
}

TEST_CASE("remainders go to the largest fractional parts, shares add up exactly") {
    const std::vector<MemberCluster> clusters{{"a", Resources{{"cpu", "1"}}}, {"b", Resources{{"cpu", "1"}}}, {"c", Resources{{"cpu", "1"}}}};
    const auto split = split_across_clusters(Resources::from_units({{"cpu", 100}}), clusters);  // 100m over 3
    CHECK(split[0].hard.cpu_millis() == 34);
    CHECK(split[1].hard.cpu_millis() == 33);
    CHECK(split[2].hard.cpu_millis() == 33);
    std::mt19937_64 rng(3);
    std::uniform_int_distribution<std::int64_t> dist(0, 1'000'000);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<MemberCluster> random;
        for (int i = 0; i < 1 + trial % 6; ++i) random.push_back({fmt::format("m{}", i), Resources::from_units({{"cpu", dist(rng) + 1}, {"memory", dist(rng) << 20}})});
        const Resources overall = Resources::from_units({{"cpu", dist(rng)}, {"memory", (dist(rng) + 1) << 20}});
        Resources sum;
        for (const auto& a : split_across_clusters(overall, random)) sum += a.hard;
        CHECK(sum == overall);
    }
}

TEST_CASE("bad input") {
    const std::vector<MemberCluster> none;
    CHECK_THROWS_AS((void)split_across_clusters(Resources{{"cpu", "1"}}, none), InvalidArgument);
    const std::vector<MemberCluster> twice{{"a", Resources{{"cpu", "1"}}}, {"a", Resources{{"cpu", "1"}}}};
    CHECK_THROWS_WITH_AS((void)split_across_clusters(Resources{{"cpu", "1"}}, twice), doctest::Contains("\"a\" appears twice"), InvalidArgument);
    const std::vector<MemberCluster> cpu_only{{"a", Resources{{"cpu", "1"}}}};
    CHECK_THROWS_WITH_AS((void)split_across_clusters(Resources{{"nvidia.com/gpu", "1"}}, cpu_only), doctest::Contains("nvidia.com/gpu"), Infeasible);
}
