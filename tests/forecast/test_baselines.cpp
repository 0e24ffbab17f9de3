// Baseline forecasters: hand-computed forecasts, interval widths and O(1) updates.
#include <continuum/forecast/drift.hpp>
#include <continuum/forecast/linear_regression.hpp>
#include <continuum/forecast/moving_average.hpp>
#include <continuum/forecast/moving_median.hpp>
#include <continuum/forecast/naive.hpp>
#include <continuum/forecast/seasonal_median.hpp>
#include <continuum/forecast/seasonal_naive.hpp>
#include <continuum/forecast/simple_exponential_smoothing.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace fc = continuum::forecast;
using continuum::SeriesView;

namespace {
constexpr double z95 = 1.959963984540054;
std::vector<double> series(std::initializer_list<double> values) { return values; }
}  // namespace

TEST_CASE("naive repeats the last value, interval grows with sqrt(h)") {
    const auto y = series({1, 3, 2, 5});
    fc::Naive model;
    model.fit(SeriesView(y));
    const auto f = model.forecast(2, 0.95);
    CHECK(f.mean == std::vector<double>{5, 5});
    const double sigma = std::sqrt(14.0 / 3.0);  // changes 2, -1, 3
    CHECK(model.sigma() == doctest::Approx(sigma));
    CHECK(f.upper[0] == doctest::Approx(5 + z95 * sigma));
    CHECK(f.lower[1] == doctest::Approx(5 - z95 * sigma * std::sqrt(2.0)));
    model.update(4);
    CHECK(model.forecast(1).mean[0] == 4);
    CHECK(model.sigma() == doctest::Approx(std::sqrt(15.0 / 4.0)));
}

TEST_CASE("seasonal naive repeats the last season") {
    const auto y = series({1, 2, 3, 4, 6, 8});
    fc::SeasonalNaive model(3);
    model.fit(SeriesView(y));
    const auto f = model.forecast(4, 0.8);
    CHECK(f.mean == std::vector<double>{4, 6, 8, 4});
    const double sigma = std::sqrt(50.0 / 3.0);  // seasonal differences 3, 4, 5
    const double z80 = 1.2815515655446004;
    CHECK(f.upper[2] - f.mean[2] == doctest::Approx(z80 * sigma));
    CHECK(f.upper[3] - f.mean[3] == doctest::Approx(z80 * sigma * std::sqrt(2.0)));
    model.update(10);
    CHECK(model.forecast(3).mean == std::vector<double>{6, 8, 10});
    CHECK_THROWS_AS(fc::SeasonalNaive(1), continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS(model.fit(SeriesView(series({1, 2}))), doctest::Contains("needs at least 3"), continuum::InvalidArgument);
}

TEST_CASE("drift extends the first-to-last line") {
    const auto y = series({1, 2, 4, 7});
    fc::Drift model;
    model.fit(SeriesView(y));
    const auto f = model.forecast(2, 0.95);
    CHECK(f.mean[0] == doctest::Approx(9));
    CHECK(f.mean[1] == doctest::Approx(11));
    const double sigma = std::sqrt(2.0 / 3.0);  // changes 1, 2, 3 around the drift 2
    CHECK(f.upper[1] - f.mean[1] == doctest::Approx(z95 * sigma * std::sqrt(2.0 * (1.0 + 2.0 / 4.0))));
    model.update(9);
    CHECK(model.slope() == doctest::Approx(2.0));
    CHECK_THROWS_AS(model.fit(SeriesView(series({1}))), continuum::InvalidArgument);
}

TEST_CASE("moving average forecasts the window mean") {
    const auto y = series({1, 2, 3, 4});
    fc::MovingAverage model(2);
    model.fit(SeriesView(y));
    CHECK(model.forecast(3).mean == std::vector<double>{3.5, 3.5, 3.5});
    CHECK(model.sigma() == doctest::Approx(1.5));  // errors 3 − 1.5 and 4 − 2.5
    model.update(6);
    CHECK(model.forecast(1).mean[0] == doctest::Approx(5));
    CHECK(model.sigma() == doctest::Approx(std::sqrt(10.75 / 3.0)));
    CHECK_THROWS_AS(fc::MovingAverage(0), continuum::InvalidArgument);
}

TEST_CASE("moving median forecasts the window median: a burst of fewer than half the window does not move it") {
    const auto y = series({1, 9, 2, 3});
    fc::MovingMedian model(3);
    model.fit(SeriesView(y));
    CHECK(model.forecast(2).mean == std::vector<double>{3, 3});  // median of 9, 2, 3
    CHECK(model.sigma() == doctest::Approx(1.0));               // one error: 3 - median(1, 9, 2) = 1
    model.update(100);                                           // a burst: window 2, 3, 100
    CHECK(model.median() == 3);
    CHECK(model.sigma() == doctest::Approx(std::sqrt((1.0 + 97.0 * 97.0) / 2.0)));
    model.update(100);  // two of three: the level has moved
    CHECK(model.median() == 100);
    const auto f = model.forecast(1, 0.95);
    CHECK(f.upper[0] - f.mean[0] == doctest::Approx(z95 * model.sigma()).epsilon(1e-9));
    fc::MovingMedian even(2);  // an even window: the mean of the two middle values
    even.fit(SeriesView(y));
    CHECK(even.median() == 2.5);
    CHECK(even.name() == "moving_median(window=2)");
    CHECK_THROWS_WITH_AS(fc::MovingMedian(0), "moving_median: window must be >= 1, got 0", continuum::InvalidArgument);
    CHECK_THROWS_AS(model.fit(SeriesView(series({1, 2}))), continuum::InvalidArgument);
    fc::MovingMedian restored = fc::MovingMedian::restore(3, model.state());
    restored.update(4);
    model.update(4);
    CHECK(restored.forecast(1, 0.9).upper == model.forecast(1, 0.9).upper);
    auto bad = model.state();
    bad.next = 3;
    CHECK_THROWS_WITH_AS((void)fc::MovingMedian(3).with_state(bad), doctest::Contains("next"), continuum::InvalidArgument);
}

TEST_CASE("linear regression over a trailing window (PHPA)") {
    const auto y = series({5, 1, 2, 3});
    fc::LinearRegression model(3);
    model.fit(SeriesView(y));
    const auto f = model.forecast(2, 0.9);
    CHECK(f.mean[0] == doctest::Approx(4));
    CHECK(f.mean[1] == doctest::Approx(5));
    CHECK(f.upper[1] == doctest::Approx(5));  // a perfect fit has zero residual variance
    model.update(5);  // window 2, 3, 5: slope 1.5, mean 10/3
    CHECK(model.slope() == doctest::Approx(1.5));
    CHECK(model.forecast(1).mean[0] == doctest::Approx(10.0 / 3.0 + 1.5 * 2));
    CHECK_THROWS_AS(fc::LinearRegression(1), continuum::InvalidArgument);
}

TEST_CASE("simple exponential smoothing: fixed alpha by hand, fitted alpha is SSE-optimal") {
    const auto y = series({2, 4, 6});
    fc::SimpleExponentialSmoothing fixed(0.5);
    fixed.fit(SeriesView(y));
    CHECK(fixed.level() == doctest::Approx(4.5));  // 2 → 3 → 4.5
    CHECK(fixed.sse() == doctest::Approx(13));     // (4 − 2)² + (6 − 3)²
    const auto f = fixed.forecast(3, 0.95);
    CHECK(f.mean[2] == doctest::Approx(4.5));
    CHECK(f.upper[2] - f.mean[2] == doctest::Approx(z95 * std::sqrt(13.0 / 3.0) * std::sqrt(1 + 0.25 * 2)));

    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<double> walk{10.0};
    for (int i = 0; i < 200; ++i) walk.push_back(walk.back() + noise(rng));
    fc::SimpleExponentialSmoothing fitted;
    fitted.fit(SeriesView(walk));
    for (double alpha = 0.0; alpha <= 1.0; alpha += 0.05) {
        fc::SimpleExponentialSmoothing probe(alpha);
        probe.fit(SeriesView(walk));
        CHECK(fitted.sse() <= probe.sse() * (1 + 1e-12));
    }
    CHECK(fitted.alpha() > 0.8);  // a random walk is best followed closely
    CHECK_THROWS_AS(fc::SimpleExponentialSmoothing(1.5), continuum::InvalidArgument);
}

TEST_CASE("seasonal median takes the median at each phase") {
    const auto y = series({1, 10, 2, 20, 9, 30});
    fc::SeasonalMedian model(2, 3);
    model.fit(SeriesView(y));
    CHECK(model.forecast(3).mean == std::vector<double>{2, 20, 2});
    model.update(3);  // phase 0 keeps 2, 9, 3
    CHECK(model.forecast(2).mean == std::vector<double>{20, 3});
    fc::SeasonalMedian one_season(2, 1);  // = seasonal naive
    one_season.fit(SeriesView(y));
    CHECK(one_season.forecast(2).mean == std::vector<double>{9, 30});
}

TEST_CASE("baselines refuse forecast before fit, bad horizons, levels and observations") {
    fc::Naive model;
    CHECK_THROWS_WITH_AS((void)model.forecast(1), doctest::Contains("fit()"), continuum::InvalidArgument);
    model.fit(SeriesView(series({1, 2})));
    CHECK_THROWS_WITH_AS((void)model.forecast(0), doctest::Contains("horizon must be >= 1, got 0"), continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS((void)model.forecast(-3), doctest::Contains("got -3"), continuum::InvalidArgument);
    CHECK_THROWS_AS((void)model.forecast(1, 1.0), continuum::InvalidArgument);
    CHECK_THROWS_AS(model.update(std::nan("")), continuum::InvalidArgument);
    const std::vector<double> bad{1.0, std::numeric_limits<double>::infinity()};
    CHECK_THROWS_WITH_AS(model.fit(SeriesView(bad)), doctest::Contains("series[1] = inf"), continuum::InvalidArgument);
}

namespace {
template <typename F>
void check_observation_range(F model, const char* who) {
    CAPTURE(who);
    std::vector<double> y;
    for (int i = 0; i < 40; ++i) y.push_back(i % 2 == 0 ? -fc::max_observation : fc::max_observation);
    // At the limit: alternating ±1.3e150 gives errors of 2.6e150 whose squares (6.8e300) still sum finitely.
    model.fit(SeriesView(y));
    model.update(fc::max_observation);
    const auto f = model.forecast(6, 0.95);
    for (std::size_t h = 0; h < f.mean.size(); ++h) {
        CHECK(std::isfinite(f.mean[h]));
        if (f.has_interval()) CHECK((std::isfinite(f.lower[h]) && std::isfinite(f.upper[h]) && f.lower[h] <= f.upper[h]));
    }
    CHECK_THROWS_WITH_AS(model.update(-2e150), doctest::Contains("observation -2e+150 is beyond ±1.3e+150"), continuum::InvalidArgument);
    y[7] = 1e200;
    const std::string expected = std::string(who) + ": series[7] = 1e+200 is beyond ±1.3e+150";
    CHECK_THROWS_WITH_AS(model.fit(SeriesView(y)), doctest::Contains(expected.c_str()), continuum::InvalidArgument);
}
}  // namespace

TEST_CASE("every baseline accepts |y| up to max_observation with finite intervals and names the first value beyond it") {
    CHECK(fc::max_observation == 1.3e150);
    check_observation_range(fc::Naive{}, "naive");
    check_observation_range(fc::SeasonalNaive{4}, "seasonal_naive");
    check_observation_range(fc::SeasonalMedian{4, 3}, "seasonal_median");
    check_observation_range(fc::Drift{}, "drift");
    check_observation_range(fc::MovingAverage{5}, "moving_average");
    check_observation_range(fc::MovingMedian{5}, "moving_median");
    check_observation_range(fc::LinearRegression{10}, "linear_regression");
    check_observation_range(fc::SimpleExponentialSmoothing{}, "simple_exponential_smoothing");
}
