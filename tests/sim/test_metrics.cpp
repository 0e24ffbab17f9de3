// Tests of sim/metrics.hpp's PercentDistribution: weighted median, quantiles and cdf_at computed by
// hand, clamping, and the errors for NaN or bad weights.
#include <continuum/sim/metrics.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using continuum::InvalidArgument;
using continuum::sim::PercentDistribution;

TEST_CASE("PercentDistribution: weighted quantiles and cdf_at by hand") {
    PercentDistribution d;
    CHECK(d.empty());
    CHECK(d.cdf_at(50.0) == 0.0);
    CHECK(d.median() == 0.0);
    // 10 s at 20 %, 30 s at 50 %, 60 s at 100 % (e.g. idle released capacity).
    d.add(20.0, 10.0);
    d.add(50.0, 30.0);
    d.add(100.0, 60.0);
    CHECK(d.total_weight() == doctest::Approx(100.0));
    CHECK(d.mean() == doctest::Approx((20.0 * 10 + 50.0 * 30 + 100.0 * 60) / 100.0));
    // P(X <= 50) = 40 % < 50 %, so the median is 100.
    CHECK(d.median() == doctest::Approx(100.0));
    CHECK(d.quantile(0.4) == doctest::Approx(50.0));
    CHECK(d.quantile(0.1) == doctest::Approx(20.0));
    CHECK(d.cdf_at(19.99) == doctest::Approx(0.0));
    CHECK(d.cdf_at(20.0) == doctest::Approx(0.1));
    CHECK(d.cdf_at(49.99) == doctest::Approx(0.1));
    CHECK(d.cdf_at(50.0) == doctest::Approx(0.4));
    CHECK(d.cdf_at(99.99) == doctest::Approx(0.4));  // the share below full efficiency
    CHECK(d.cdf_at(100.0) == doctest::Approx(1.0));
    CHECK(d.cdf_at(250.0) == doctest::Approx(1.0));
    CHECK(d.cdf_at(-1.0) == 0.0);
    CHECK(d.cdf_at(-std::numeric_limits<double>::infinity()) == 0.0);
    CHECK(d.cdf_at(std::numeric_limits<double>::infinity()) == doctest::Approx(1.0));
    // Values outside [0, 100] are clamped.
    d.add(-5.0, 100.0);
    CHECK(d.cdf_at(0.0) == doctest::Approx(0.5));
    CHECK(d.median() == doctest::Approx(0.0));
}

TEST_CASE("PercentDistribution: NaN and bad weights are rejected, naming the argument") {
    PercentDistribution d;
    d.add(10.0);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS(static_cast<void>(d.cdf_at(nan)), doctest::Contains("percent is NaN"), InvalidArgument);
    CHECK_THROWS_WITH_AS(d.add(nan), doctest::Contains("percent is NaN"), InvalidArgument);
    CHECK_THROWS_WITH_AS(d.add(10.0, -1.0), doctest::Contains("weight"), InvalidArgument);
    CHECK_THROWS_WITH_AS(static_cast<void>(d.quantile(1.5)), doctest::Contains("quantile"), InvalidArgument);
    CHECK(d.total_weight() == doctest::Approx(1.0));
}
