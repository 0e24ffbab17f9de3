// Accuracy metrics: hand-computed values and bad input.
#include <continuum/forecast/metrics.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

namespace fc = continuum::forecast;

TEST_CASE("metrics on a hand-computed case") {
    const std::vector<double> actual{1, 2, 4}, predicted{2, 2, 2}, training{1, 3, 2, 4};
    CHECK(fc::mae(actual, predicted) == doctest::Approx(1.0));
    CHECK(fc::rmse(actual, predicted) == doctest::Approx(std::sqrt(5.0 / 3.0)));
    CHECK(fc::mape(actual, predicted) == doctest::Approx(50.0));
    CHECK(fc::smape(actual, predicted) == doctest::Approx(100.0 / 3.0 * (2.0 / 3.0 + 2.0 * 2.0 / 6.0)));
    CHECK(fc::mase(training, actual, predicted, 1) == doctest::Approx(0.6));  // naive scale 5/3
    CHECK(fc::mase(training, actual, predicted, 2) == doctest::Approx(1.0));  // seasonal scale 1
    CHECK(fc::owa(10.0, 0.5, 20.0, 1.0) == doctest::Approx(0.5));
    const std::vector<double> reference{1, 1, 1};  // sMAPE 100/3·(0 + 2/3 + 6/5), MAE 4/3
    const double expected = 0.5 * (fc::smape(actual, predicted) / fc::smape(actual, reference) + 1.0 / (4.0 / 3.0));
    CHECK(fc::owa(training, actual, predicted, reference, 2) == doctest::Approx(expected));
}

TEST_CASE("smape counts 0/0 as a perfect forecast and stays within [0, 200]") {
    const std::vector<double> zeros{0, 0}, other{0, 5};
    CHECK(fc::smape(zeros, zeros) == 0.0);
    CHECK(fc::smape(zeros, other) == doctest::Approx(100.0));
}

TEST_CASE("metrics reject bad input, naming it") {
    const std::vector<double> a{1, 2}, b{1}, zero{0, 1}, flat{3, 3, 3};
    CHECK_THROWS_WITH_AS(fc::mae(a, b), doctest::Contains("actual has 2 values but forecast has 1"), continuum::InvalidArgument);
    CHECK_THROWS_AS(fc::rmse({}, {}), continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS(fc::mape(zero, a), doctest::Contains("actual[0] = 0"), continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS(fc::mase(flat, a, a, 1), doctest::Contains("is 0"), continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS(fc::mase(a, a, a, 2), doctest::Contains("needs at least 3"), continuum::InvalidArgument);
    CHECK_THROWS_AS(fc::owa(1.0, 1.0, 0.0, 1.0), continuum::InvalidArgument);
    const std::vector<double> nan{std::nan(""), 1};
    CHECK_THROWS_WITH_AS(fc::smape(nan, a), doctest::Contains("actual[0]"), continuum::InvalidArgument);
}
