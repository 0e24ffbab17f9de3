#include <continuum/core/series.hpp>

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

using namespace std::chrono_literals;

TEST_CASE("series validate once and expose views") {
    const continuum::Series s({1.0, 2.0, 3.0, 4.0}, 30s);
    CHECK(s.size() == 4);
    CHECK(s.step() == continuum::Duration(30000));
    const continuum::SeriesView v = s;
    CHECK(v.tail(2)[0] == 3.0);
    CHECK(v.tail(10).size() == 4);
    CHECK(v.slice(1, 2)[1] == 3.0);
    CHECK_THROWS_AS((void)v.slice(3, 2), continuum::InvalidArgument);
    CHECK(fmt::format("{}", s) == "Series(n=4, step=30s)");
}

TEST_CASE("non-finite values and bad steps are rejected with the index") {
    const std::vector<double> bad = {1.0, std::numeric_limits<double>::quiet_NaN()};
    try {
        continuum::SeriesView view(bad, 1min, "usage");
        FAIL("no throw");
    } catch (const continuum::InvalidArgument& e) {
        CHECK(std::string(e.what()).find("usage[1]") != std::string::npos);
    }
    const std::vector<double> ok = {1.0};
    CHECK_THROWS_AS(continuum::SeriesView(ok, 0s), continuum::InvalidArgument);
    continuum::Series s;
    CHECK_THROWS_AS(s.push_back(std::numeric_limits<double>::infinity()), continuum::InvalidArgument);
}
