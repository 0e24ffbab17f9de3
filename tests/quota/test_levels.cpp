// Tests for quota/levels.hpp: the paper's GetNearestQuotaLevel examples (77 -> 80, 42 -> 60,
// 19 -> 20), snap_down / snap_nearest, above-top reporting, per-resource levels, bad levels.
#include <continuum/quota/levels.hpp>

#include <doctest/doctest.h>

#include <random>

using namespace continuum;
using quota::QuotaLevels;
using quota::ResourceQuotaLevels;
using quota::SnapOutcome;

TEST_CASE("snap_up is the paper's GetNearestQuotaLevel: 77 -> 80, 42 -> 60, 19 -> 20") {
    const QuotaLevels levels{20, 40, 60, 80, 100};
    CHECK(levels.snap_up(77) == 80);
    CHECK(levels.snap_up(42) == 60);
    CHECK(levels.snap_up(19) == 20);
    CHECK(levels.snap_up(20) == 20);
    CHECK(levels.snap_up(0) == 20);
    CHECK(levels.snap_up(100) == 100);
}

TEST_CASE("snap_down and snap_nearest") {
    const QuotaLevels levels{20, 40, 60, 80, 100};
    CHECK(levels.snap_down(77) == 60);
    CHECK(levels.snap_down(40) == 40);
    CHECK(levels.snap_down(100) == 100);
    CHECK(levels.snap_nearest(77) == 80);
    CHECK(levels.snap_nearest(42) == 40);
    CHECK(levels.snap_nearest(50) == 60);  // a tie goes up
    CHECK(levels.snap_nearest(5) == 20);
    CHECK_THROWS_AS((void)levels.snap_down(19), Infeasible);
    CHECK(levels.try_snap_down(19) == quota::Snap{19, SnapOutcome::below_bottom});
}

TEST_CASE("a value above the top level is reported, never capped") {
    const QuotaLevels levels{20, 40, 60, 80, 100};
    CHECK_THROWS_WITH_AS((void)levels.snap_up(101), doctest::Contains("101 is above the top quota level 100"), Infeasible);
    CHECK_THROWS_AS((void)levels.snap_nearest(150), Infeasible);
    CHECK_THROWS_AS((void)levels.snap_down(150), Infeasible);
    CHECK(levels.try_snap_up(101) == quota::Snap{101, SnapOutcome::above_top});
    CHECK(levels.try_snap_nearest(150) == quota::Snap{150, SnapOutcome::above_top});
    CHECK(levels.try_snap_down(150) == quota::Snap{150, SnapOutcome::above_top});
    CHECK(levels.try_snap_up(42) == quota::Snap{60, SnapOutcome::on_level});
    CHECK(levels.try_snap_up(42).on_level());
}

TEST_CASE("messages show the amounts as quantities of the resource when the caller names it") {
    const QuotaLevels cores{2000, 4000, 8000};
    CHECK_THROWS_WITH_AS((void)cores.snap_up(14500, "cpu"), "snap_up: cpu 14500m is above the top quota level 8 (levels [2, 4, 8])", Infeasible);
    CHECK_THROWS_WITH_AS((void)cores.snap_nearest(9000, "cpu"), "snap_nearest: cpu 9 is above the top quota level 8 (levels [2, 4, 8])", Infeasible);
    CHECK_THROWS_WITH_AS((void)cores.snap_down(1500, "cpu"), "snap_down: 1500m is below the lowest quota level 2", Infeasible);
    CHECK_THROWS_WITH_AS((void)cores.try_snap_up(-500, "cpu"), "try_snap_up: value must be >= 0, got -500m", InvalidArgument);
    const QuotaLevels memory = QuotaLevels::parse("memory", {"1Gi", "2Gi"});
    CHECK_THROWS_WITH_AS((void)memory.snap_up(3 * (std::int64_t{1} << 30), "memory"),
                         "snap_up: memory 3Gi is above the top quota level 2Gi (levels [1Gi, 2Gi])", Infeasible);
    CHECK_THROWS_WITH_AS(QuotaLevels({4000, 2500}, "cpu"), "quota levels must be sorted and unique: level [1] = 2500m follows 4", InvalidArgument);
    CHECK_THROWS_WITH_AS(QuotaLevels({-1000}, "cpu"), "quota levels: level [0] = -1 must be > 0", InvalidArgument);
    // Without a resource name the canonical integers the caller passed are shown.
    CHECK_THROWS_WITH_AS((void)cores.snap_up(14500), "snap_up: 14500 is above the top quota level 8000 (levels [2000, 4000, 8000])", Infeasible);
}

TEST_CASE("bad levels and values are rejected with the offending value") {
    CHECK_THROWS_WITH_AS(QuotaLevels(std::vector<std::int64_t>{}), doctest::Contains("empty"), InvalidArgument);
    CHECK_THROWS_WITH_AS(QuotaLevels({20, 10}), doctest::Contains("level [1] = 10 follows 20"), InvalidArgument);
    CHECK_THROWS_WITH_AS(QuotaLevels({20, 20}), doctest::Contains("sorted and unique"), InvalidArgument);
    CHECK_THROWS_WITH_AS(QuotaLevels({0, 20}), doctest::Contains("level [0] = 0 must be > 0"), InvalidArgument);
    CHECK_THROWS_AS(QuotaLevels({-5}), InvalidArgument);
    const QuotaLevels levels{20, 40};
    CHECK_THROWS_WITH_AS((void)levels.snap_up(-1), doctest::Contains("-1"), InvalidArgument);
    CHECK_THROWS_AS((void)levels.try_snap_nearest(-1), InvalidArgument);
}

TEST_CASE("levels from Kubernetes quantities are in canonical units") {
    const auto cpu = QuotaLevels::parse("cpu", {"500m", "1", "2.5", "4"});
    CHECK(cpu.levels() == std::vector<std::int64_t>{500, 1000, 2500, 4000});
    CHECK(cpu.snap_up(1001) == 2500);
    const auto memory = QuotaLevels::parse("memory", {"1Gi", "4Gi"});
    CHECK(memory.snap_up(1) == (1LL << 30));
    CHECK_THROWS_AS(QuotaLevels::parse("cpu", {"2", "1"}), InvalidArgument);
    CHECK_THROWS_AS(QuotaLevels::parse("cpu", {"lots"}), ParseError);
}

TEST_CASE("property: snap_up is the smallest level >= value, snap_down the largest <= value") {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<std::int64_t> dist(1, 1000);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::int64_t> raw(static_cast<std::size_t>(1 + trial % 9));
        for (auto& v : raw) v = dist(rng);
        std::sort(raw.begin(), raw.end());
        raw.erase(std::unique(raw.begin(), raw.end()), raw.end());
        const QuotaLevels levels(raw);
        for (std::int64_t x = 0; x <= 1001; x += 7) {
            const auto up = levels.try_snap_up(x);
            if (x > raw.back()) {
                CHECK(up.outcome == SnapOutcome::above_top);
                continue;
            }
            CHECK(up.value >= x);
            CHECK(std::none_of(raw.begin(), raw.end(), [&](std::int64_t l) { return l >= x && l < up.value; }));
            const auto near = levels.snap_nearest(x);
            for (std::int64_t l : raw) CHECK(std::abs(near - x) <= std::abs(l - x));
        }
    }
}

TEST_CASE("per-resource levels snap the resources that have levels and keep the others") {
    ResourceQuotaLevels levels;
    levels.set("cpu", QuotaLevels::parse("cpu", {"20", "40", "60", "80", "100"}));
    const Resources prediction{{"cpu", "77"}, {"memory", "3Gi"}};
    CHECK(levels.snap_up(prediction) == Resources{{"cpu", "80"}, {"memory", "3Gi"}});
    const auto report = levels.try_snap_up(Resources{{"cpu", "120"}});
    CHECK(report.above_top == std::vector<std::string>{"cpu"});
    CHECK(report.value == Resources{{"cpu", "120"}});
    CHECK_THROWS_WITH_AS((void)levels.snap_up(Resources{{"cpu", "120"}}), doctest::Contains("cpu 120 is above the top quota level 100"), Infeasible);
    CHECK(levels.find("memory") == nullptr);
    REQUIRE(levels.find("cpu") != nullptr);
    CHECK(levels.find("cpu")->top() == 100'000);
}
