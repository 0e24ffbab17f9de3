// Numeric robustness (docs/robustness.md): extreme magnitudes and degenerate inputs, each with the
// documented behaviour asserted: quantities at the int64 edge, series of 1e-12 and 1e12, a 100k-long
// series, a 1440-step season, constant series, a single item, all items equal.
#include <continuum/core/quantity.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/forecast/naive.hpp>
#include <continuum/forecast/simple_exponential_smoothing.hpp>
#include <continuum/packing/exact.hpp>
#include <continuum/packing/lower_bounds.hpp>
#include <continuum/packing/one_dimensional.hpp>
#include <continuum/quota/levels.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace continuum;

namespace {
constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

bool finite(const std::vector<double>& v) {
    for (const double x : v) {
        if (!std::isfinite(x)) return false;
    }
    return true;
}
}  // namespace

TEST_CASE("robustness: quantities at the int64 edge parse exactly or throw, never wrap") {
    CHECK(parse_quantity("9223372036854775807") == int64_max);
    CHECK_THROWS_AS((void)parse_quantity("9223372036854775808"), ParseError);
    CHECK(parse_quantity("-9223372036854775807") == -int64_max);
    CHECK(parse_quantity("7Ei") == std::int64_t{7} << 60);
    CHECK_THROWS_AS((void)parse_quantity("8Ei"), ParseError);  // 2^63
    CHECK(parse_quantity("9223372036854775807m", scale::milli) == int64_max);
    CHECK_THROWS_AS((void)parse_quantity("9223372036854775807", scale::milli), InvalidArgument);  // x1000 leaves int64
    // Resources arithmetic: overflow is an InvalidArgument naming the resource
    const Resources near = Resources::from_units({{"cpu", int64_max - 1}});
    CHECK((near + Resources::from_units({{"cpu", 1}})).cpu_millis() == int64_max);
    CHECK_THROWS_AS((void)(near + Resources::from_units({{"cpu", 2}})), InvalidArgument);
    CHECK_THROWS_AS((void)(near * 2), InvalidArgument);
    CHECK_THROWS_AS((void)Resources::from_cores(1e16), InvalidArgument);  // 1e19 millicores
    CHECK(Resources::from_cores(9.2e15).cpu_millis() == 9'200'000'000'000'000'000);
}

TEST_CASE("robustness: quota levels and packing at the int64 edge") {
    const quota::QuotaLevels levels(std::vector<std::int64_t>{1, int64_max});
    CHECK(levels.snap_up(2) == int64_max);
    CHECK(levels.snap_up(int64_max) == int64_max);
    const std::vector<std::int64_t> sizes{int64_max, int64_max};
    const auto p = packing::first_fit_decreasing(sizes, int64_max);
    CHECK(p.num_bins() == 2);
    CHECK_THROWS_AS((void)packing::l1_bound(sizes, int64_max), InvalidArgument);  // the sum leaves int64
}

TEST_CASE("robustness: series of 1e-12 and 1e12 forecast finite values on the same scale") {
    for (const double scale : {1e-12, 1e12}) {
        std::vector<double> y(72);
        for (std::size_t t = 0; t < y.size(); ++t) y[t] = scale * (10.0 + 3.0 * std::sin(2.0 * M_PI * static_cast<double>(t % 12) / 12.0));
        forecast::HoltWintersSpec spec;
        spec.season_length = 12;
        forecast::HoltWinters<double> model(spec);
        model.fit(Series(y));
        const auto f = model.forecast(12, 0.9);
        CAPTURE(scale);
        CHECK(finite(f.mean));
        CHECK(finite(f.lower));
        CHECK(finite(f.upper));
        // the seasonal pattern is reproduced: scale-invariant relative error below 1 %
        for (std::size_t h = 0; h < 12; ++h) CHECK(f.mean[h] == doctest::Approx(y[60 + h]).epsilon(0.01));
    }
}

TEST_CASE("robustness: a constant series forecasts the constant with a zero-width interval") {
    const Series y(std::vector<double>(50, 7.5));
    forecast::HoltWinters<double> model(forecast::HoltWintersSpec{forecast::Trend::additive, false, forecast::Seasonality::none, 24});
    model.fit(y);
    const auto f = model.forecast(5, 0.95);
    for (std::size_t h = 0; h < 5; ++h) {
        CHECK(f.mean[h] == doctest::Approx(7.5).epsilon(1e-9));
        CHECK(f.upper[h] - f.lower[h] == doctest::Approx(0.0).epsilon(1e-6));
    }
    forecast::SimpleExponentialSmoothing ses;
    ses.fit(y);
    CHECK(ses.forecast(3).mean == std::vector<double>(3, 7.5));
}

TEST_CASE("robustness: a 100k-long series and a 1440-step season fit within their budgets") {
    std::vector<double> y(100'000);
    for (std::size_t t = 0; t < y.size(); ++t) y[t] = 50.0 + 20.0 * std::sin(2.0 * M_PI * static_cast<double>(t % 1440) / 1440.0) + 0.001 * static_cast<double>(t % 97);
    forecast::HoltWintersSpec spec;
    spec.season_length = 1440;
    forecast::HoltWintersOptions options;
    options.initialization = forecast::Initialization::heuristic;  // the documented choice for m = 1440
    options.budget.node_limit = 200;                                // each evaluation is one O(n) pass
    options.starts = 1;
    forecast::HoltWinters<double> model(spec, options);
    model.fit(Series(y));
    CHECK(model.evaluations() <= 200);
    const auto f = model.forecast(1440);
    REQUIRE(f.mean.size() == 1440);
    CHECK(finite(f.mean));
    CHECK(f.mean[360] == doctest::Approx(y[100'000 - 1440 + 360]).epsilon(0.05));  // a quarter season ahead: the peak
    // shorter than two seasons: a clear error naming the length needed
    CHECK_THROWS_WITH_AS(model.fit(Series(std::vector<double>(2000, 1.0))), doctest::Contains("2880"), InvalidArgument);
}

TEST_CASE("robustness: single item and all items equal pack optimally") {
    const std::vector<std::int64_t> one{7};
    CHECK(packing::solve_exact(one, 7).num_bins() == 1);
    CHECK(packing::solve_exact(one, 7).optimal);
    CHECK(packing::solve_exact(one, 6).unplaced == std::vector<std::size_t>{0});
    const std::vector<std::int64_t> equal(1000, 3);
    const auto ffd = packing::first_fit_decreasing(equal, 10);  // three per bin
    CHECK(ffd.num_bins() == 334);
    CHECK(packing::l2_bound(equal, 10) == 300);  // = L1: the bounds are weak for equal items
    CHECK(packing::solve_exact(equal, 10).num_bins() == 334);
    CHECK(packing::solve_exact(equal, 10).optimal);
}
