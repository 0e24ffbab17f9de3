// auto_ets: AICc model choice over the Holt-Winters family.
#include <continuum/forecast/auto_ets.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

namespace fc = continuum::forecast;

TEST_CASE("auto_ets picks the lowest AICc and finds the structure of synthetic series") {
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(0.0, 0.5);
    std::vector<double> seasonal, flat;
    for (int t = 0; t < 240; ++t) {
        seasonal.push_back(50.0 + 8.0 * std::sin(2 * M_PI * t / 12.0) + noise(rng));
        flat.push_back(50.0 + noise(rng));
    }
    std::vector<fc::EtsCandidate> candidates;
    const auto model = fc::auto_ets(continuum::SeriesView(seasonal), 12, {}, &candidates);
    CHECK(candidates.size() == 9);  // 3 trends × (none, add, mul)
    for (const auto& c : candidates) CHECK(model.aicc() <= c.aicc);
    CHECK(model.spec().has_season());
    const auto plain = fc::auto_ets(continuum::SeriesView(flat), 12);
    CHECK(!plain.spec().has_season());
    CHECK(!plain.spec().has_trend());
}

TEST_CASE("auto_ets skips multiplicative seasons on non-positive data and refuses short series") {
    std::vector<double> y;
    for (int t = 0; t < 48; ++t) y.push_back(std::sin(t * 0.5));
    std::vector<fc::EtsCandidate> candidates;
    (void)fc::auto_ets(continuum::SeriesView(y), 4, {}, &candidates);
    CHECK(candidates.size() == 6);
    CHECK_THROWS_WITH_AS(fc::auto_ets(continuum::SeriesView(y), 30), doctest::Contains("needs at least 2*season_length = 60"),
                         continuum::InvalidArgument);
}
