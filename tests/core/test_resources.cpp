#include <continuum/core/resources.hpp>

#include <doctest/doctest.h>

#include <limits>
#include <map>
#include <string>

using continuum::Resources;

TEST_CASE("resources parse Kubernetes quantities into canonical units") {
    const Resources r{{"cpu", "250m"}, {"memory", "1.5Gi"}, {"pods", "110"}, {"nvidia.com/gpu", "2"}, {"example.com/fpga", "1"}};
    CHECK(r.cpu_millis() == 250);
    CHECK(r.memory_bytes() == 1610612736);
    CHECK(r.pods() == 110);
    CHECK(r.gpus() == 2);
    CHECK(r["example.com/fpga"] == 1);
    CHECK(r["ephemeral-storage"] == 0);
    CHECK(Resources{{"requests.cpu", "1.5"}}["requests.cpu"] == 1500);
    CHECK(Resources{{"cpu", "0.0001"}}.cpu_millis() == 1);  // rounds up to 1m
    CHECK(r.to_string() == "{cpu: 250m, example.com/fpga: 1, memory: 1536Mi, nvidia.com/gpu: 2, pods: 110}");
    CHECK(fmt::format("{}", Resources{{"cpu", "2"}, {"memory", "4Gi"}}) == "{cpu: 2, memory: 4Gi}");
    const std::map<std::string, std::string> from_map = {{"cpu", "1"}, {"memory", "1Gi"}};
    CHECK(Resources::from_quantities(from_map) == Resources{{"memory", "1024Mi"}, {"cpu", "1000m"}});
}

TEST_CASE("bad resource input names the resource") {
    CHECK_THROWS_AS((Resources{{"cpu", "2 cores"}}), continuum::ParseError);
    try {
        Resources bad{{"memory", "4GB"}};
        FAIL("no throw");
    } catch (const continuum::ParseError& e) {
        CHECK(std::string(e.what()).find("memory") != std::string::npos);
        CHECK(std::string(e.what()).find("4GB") != std::string::npos);
    }
    CHECK_THROWS_AS((Resources{{"", "1"}}), continuum::InvalidArgument);
    CHECK_THROWS_AS((Resources{{"cpu", "1"}, {"cpu", "2"}}), continuum::InvalidArgument);
    CHECK_THROWS_AS((Resources{{"cpu", "9E"}}), continuum::InvalidArgument);  // 9e21 millicores
}

TEST_CASE("arithmetic is exact and overflow-checked") {
    const Resources a{{"cpu", "1500m"}, {"memory", "1Gi"}};
    const Resources b{{"cpu", "500m"}, {"pods", "1"}};
    CHECK(a + b == Resources::from_units({{"cpu", 2000}, {"memory", 1073741824}, {"pods", 1}}));
    CHECK(a - b == Resources::from_units({{"cpu", 1000}, {"memory", 1073741824}, {"pods", -1}}));
    CHECK((a - a).empty());
    CHECK(a * 3 == Resources::from_units({{"cpu", 4500}, {"memory", 3221225472}}));
    CHECK((a * 0).empty());
    const auto huge = Resources::from_units({{"cpu", std::numeric_limits<std::int64_t>::max()}});
    CHECK_THROWS_AS(huge + Resources::from_units({{"cpu", 1}}), continuum::InvalidArgument);
    CHECK_THROWS_AS(huge * 2, continuum::InvalidArgument);
    CHECK_THROWS_AS(Resources{} - Resources::from_units({{"cpu", std::numeric_limits<std::int64_t>::min()}}), continuum::InvalidArgument);
    CHECK((a - b).any_negative());
    CHECK(positive_part(a - b) == Resources::from_units({{"cpu", 1000}, {"memory", 1073741824}}));
    CHECK(max(a, b) == Resources::from_units({{"cpu", 1500}, {"memory", 1073741824}, {"pods", 1}}));
    CHECK(min(a, b) == Resources::from_units({{"cpu", 500}}));
}

TEST_CASE("fits_in, ceil_div and dominant share") {
    const Resources node{{"cpu", "4"}, {"memory", "8Gi"}};
    const Resources pod{{"cpu", "1500m"}, {"memory", "1Gi"}};
    CHECK(pod.fits_in(node));
    CHECK_FALSE(node.fits_in(pod));
    CHECK(Resources{}.fits_in(node));
    CHECK_FALSE(Resources{{"nvidia.com/gpu", "1"}}.fits_in(node));
    // ceil(10 / 4) = 3 by cpu, ceil(9Gi / 8Gi) = 2 by memory -> 3
    CHECK(ceil_div(Resources{{"cpu", "10"}, {"memory", "9Gi"}}, node) == 3);
    CHECK(ceil_div(Resources{{"cpu", "8"}}, node) == 2);
    CHECK(ceil_div(Resources{}, node) == 0);
    CHECK_THROWS_AS((void)ceil_div(Resources{{"nvidia.com/gpu", "1"}}, node), continuum::Infeasible);
    CHECK(dominant_share(pod, node) == doctest::Approx(0.375));
    CHECK_THROWS_AS((void)dominant_share(Resources{{"nvidia.com/gpu", "1"}}, node), continuum::Infeasible);
}

TEST_CASE("forecasts enter through one rounding-up function") {
    CHECK(Resources::from_cores(2.31).cpu_millis() == 2310);
    CHECK(Resources::from_cores(2.3101).cpu_millis() == 2311);
    CHECK(Resources::from_cores(0.29).cpu_millis() == 290);
    CHECK(Resources::from_cores(0.0).empty());
    CHECK(Resources::from_cores(1e-7).cpu_millis() == 1);
    CHECK(Resources::from_forecast("memory", 1.5).memory_bytes() == 2);
    CHECK(Resources::from_forecast("memory", 1e12).memory_bytes() == 1000000000000LL);
    CHECK_THROWS_AS((void)Resources::from_cores(std::numeric_limits<double>::quiet_NaN()), continuum::InvalidArgument);
    CHECK_THROWS_AS((void)Resources::from_cores(-1.0), continuum::InvalidArgument);
    CHECK_THROWS_AS((void)Resources::from_cores(std::numeric_limits<double>::infinity()), continuum::InvalidArgument);
    CHECK_THROWS_AS((void)Resources::from_cores(1e30), continuum::InvalidArgument);
}
