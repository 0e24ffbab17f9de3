// HoltWinters::fit_many: every series fitted in lanes gets the fit it gets alone (SSE to 1e-9,
// same parameters and forecasts), for several model shapes, a batch that does not fill the last
// lanes, known models, and bad input naming the series; on every lane instruction path this machine
// runs (portable, AVX2, AVX-512), bit for bit unless the build itself fuses multiply-adds.
#include <continuum/forecast/holt_winters_batch.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace fc = continuum::forecast;

namespace {
/// `series` rows of `length` points: daily cycles (m = 24) with per-series level, amplitude, trend
/// and a deterministic wobble, all positive.
std::vector<double> panel(std::size_t series, std::size_t length) {
    std::vector<double> out;
    for (std::size_t i = 0; i < series; ++i) {
        const double level = 30.0 + 7.0 * static_cast<double>(i % 5), amplitude = 2.0 + static_cast<double>(i % 7);
        const double trend = 0.01 * (static_cast<double>(i % 3) - 1.0);
        for (std::size_t t = 0; t < length; ++t) {
            const double x = static_cast<double>(t);
            out.push_back(level + trend * x + amplitude * std::sin(2 * M_PI * x / 24.0 + 0.3 * static_cast<double>(i)) +
                          1.5 * std::sin(1.7 * x + static_cast<double>(i)) + 0.8 * std::cos(0.37 * x * static_cast<double>(i + 1)));
        }
    }
    return out;
}

/// The lane paths this build and CPU run (portable always).
std::vector<fc::LaneInstructions> runnable_lane_paths() {
    std::vector<fc::LaneInstructions> out;
    for (auto path : {fc::LaneInstructions::portable, fc::LaneInstructions::avx2, fc::LaneInstructions::avx512}) {
        if (fc::detail::lane_instructions_supported(path)) out.push_back(path);
    }
    return out;
}

/// Checks every row of fit_many against fit() alone; returns the batch's pruned grid evaluations.
std::int64_t check_same_as_alone_on(const fc::HoltWinters<double>& prototype, std::size_t series, std::size_t length, fc::LaneInstructions path) {
    const auto values = panel(series, length);
    const auto batch = prototype.fit_many(values, series, path);
    CHECK(batch.instructions() == path);
    REQUIRE(batch.size() == series);
    CHECK(batch.length() == length);
    const auto forecasts = batch.forecast(30);
    REQUIRE(forecasts.size() == series * 30);
    for (std::size_t i = 0; i < series; ++i) {
        auto alone = prototype;
        alone.fit(continuum::SeriesView(std::span<const double>(values).subspan(i * length, length)));
        CAPTURE(i);
        CHECK(batch[i].sse() == doctest::Approx(alone.sse()).epsilon(1e-9));
#if !defined(__FMA__)
        // No fused multiply-add anywhere: the same bits, so the same search. (A build that fuses
        // them itself, -march=native with g++, contracts fit()'s scalar code and the lanes
        // differently: the SSE agrees to 1e-9, the searches may end at other points of a flat optimum.)
        CHECK(batch[i].sse() == alone.sse());
        CHECK(batch[i].params().alpha == alone.params().alpha);
        CHECK(batch[i].evaluations() == alone.evaluations());
        const auto f = alone.forecast(30).mean;
        for (std::size_t h = 0; h < 30; ++h) CHECK(forecasts[i * 30 + h] == f[h]);
#endif
    }
    return batch.pruned_evaluations();
}

/// check_same_as_alone_on for every path; returns the pruned grid evaluations (the same on every path).
std::int64_t check_same_as_alone(const fc::HoltWinters<double>& prototype, std::size_t series, std::size_t length) {
    std::vector<std::int64_t> pruned;
    for (const auto path : runnable_lane_paths()) {
        CAPTURE(fc::lane_instructions_name(path));
        pruned.push_back(check_same_as_alone_on(prototype, series, length, path));
#if !defined(__FMA__)
        CHECK(pruned.back() == pruned.front());
#endif
    }
    return pruned.front();
}
}  // namespace

TEST_CASE("fit_many gives every series the fit it gets alone") {
    SUBCASE("additive damped trend, additive season, estimated states; 19 series (lanes not filled)") {
        // The grid pruning is exercised (19 rows x 96 grid points; the fits above are unchanged by it).
        const auto pruned = check_same_as_alone(fc::HoltWinters<double>({fc::Trend::additive, true, fc::Seasonality::additive, 24}), 19, 240);
        CHECK(pruned > 19 * 10);
        CHECK(pruned < 19 * 96);
    }
    SUBCASE("no trend, multiplicative season, heuristic states") {
        fc::HoltWintersOptions options;
        options.initialization = fc::Initialization::heuristic;
        check_same_as_alone(fc::HoltWinters<double>({fc::Trend::none, false, fc::Seasonality::multiplicative, 24}, options), 9, 200);
    }
    SUBCASE("additive trend, no season; new-level season form with an additive season") {
        check_same_as_alone(fc::HoltWinters<double>({fc::Trend::additive, false, fc::Seasonality::none, 2}), 5, 100);
        fc::HoltWintersSpec spec{fc::Trend::none, false, fc::Seasonality::additive, 24};
        spec.season_update = fc::SeasonUpdate::new_level;
        check_same_as_alone(fc::HoltWinters<double>(spec), 3, 150);
    }
}

TEST_CASE("fit_many: known models smooth only, bad input names the series") {
    fc::HoltWintersParameters<double> p;
    p.alpha = 0.3;
    p.initial_level = 40.0;
    const auto known = fc::HoltWinters<double>::known({fc::Trend::none, false, fc::Seasonality::none, 2}, p);
    const std::vector<double> rows{40, 42, 41, 43, 10, 10, 10, 10};
    const auto batch = known.fit_many(rows, 2);
    // Level after 40, 42, 41, 43 with α = 0.3 from 40: 40, 40.6, 40.72, 41.404.
    CHECK(batch.forecast(1)[0] == doctest::Approx(41.404));
    CHECK(batch[1].forecast(1).mean[0] == doctest::Approx(40.0 * std::pow(0.7, 4) + 10.0 * (1 - std::pow(0.7, 4))));
    CHECK_THROWS_WITH_AS((void)batch[2], doctest::Contains("index 2 out of range for 2 series"), continuum::InvalidArgument);
    const fc::HoltWinters<double> model({fc::Trend::none, false, fc::Seasonality::none, 2});
    CHECK_THROWS_WITH_AS((void)model.fit_many(rows, 0), doctest::Contains("series must be >= 1, got 0"), continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS((void)model.fit_many(rows, 3), doctest::Contains("8 values are not 3 series"), continuum::InvalidArgument);
    auto broken = rows;
    broken[6] = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS((void)model.fit_many(broken, 2), doctest::Contains("series 1: holt_winters: series[2] = nan is not finite"),
                         continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS((void)batch.forecast(0), doctest::Contains("horizon must be >= 1"), continuum::InvalidArgument);
}

namespace {
/// Runs one lane evaluation (forward + backward) of `Season` on panel rows through the portable
/// kernel and through `path`; both must agree bit for bit (no fused multiply-add may creep into the
/// AVX2 or AVX-512 bodies).
template <fc::Seasonality Season>
void check_lane_path_bit_identical(fc::LaneInstructions path) {
    constexpr std::size_t lanes = 8, n = 120, m = 24;
    const auto values = panel(lanes, n);
    std::vector<double> y(n * lanes);
    for (std::size_t l = 0; l < lanes; ++l) {
        for (std::size_t t = 0; t < n; ++t) y[t * lanes + l] = values[l * n + t];
    }
    fc::detail::HoltWintersLanes<double, lanes> portable;
    portable.seasons.resize(m * lanes);
    for (std::size_t l = 0; l < lanes; ++l) {
        const double k = static_cast<double>(l);
        portable.alpha[l] = 0.1 + 0.1 * k;
        portable.beta[l] = 0.01 + 0.02 * k;
        portable.gamma[l] = 0.05 + 0.05 * k;
        portable.phi[l] = 0.9 + 0.01 * k;
        portable.level[l] = 35.0 + k;
        portable.trend[l] = 0.1 - 0.02 * k;
        for (std::size_t j = 0; j < m; ++j) {
            portable.seasons[j * lanes + l] = Season == fc::Seasonality::multiplicative ? 1.0 + 0.01 * std::sin(static_cast<double>(j))
                                                                                         : 3.0 * std::sin(static_cast<double>(j + l));
        }
    }
    auto dispatched = portable;
    std::vector<double> trace_portable(3 * n * lanes), trace_dispatched(3 * n * lanes);
    fc::detail::holt_winters_evaluate_lanes<double, lanes, Season, true, false>(y, n, m, portable, trace_portable, true);
    fc::detail::holt_winters_evaluate_lanes_with<double, lanes, Season, true, false>(path, y, n, m, dispatched, trace_dispatched, true);
    for (std::size_t l = 0; l < lanes; ++l) {
        CAPTURE(l);
        CHECK(std::isfinite(portable.sse[l]));
        CHECK(portable.sse[l] > 0.0);
        CHECK(dispatched.sse[l] == doctest::Approx(portable.sse[l]).epsilon(1e-12));
    }
#if !defined(__FMA__)  // a build that fuses multiply-adds itself contracts the portable kernels, not the others
    CHECK(trace_dispatched == trace_portable);
    CHECK(dispatched.seasons == portable.seasons);
    CHECK(dispatched.g_seasons == portable.g_seasons);
    for (std::size_t l = 0; l < lanes; ++l) {
        CAPTURE(l);
        CHECK(dispatched.sse[l] == portable.sse[l]);
        CHECK(dispatched.level[l] == portable.level[l]);
        CHECK(dispatched.trend[l] == portable.trend[l]);
        CHECK(dispatched.g_alpha[l] == portable.g_alpha[l]);
        CHECK(dispatched.g_beta[l] == portable.g_beta[l]);
        CHECK(dispatched.g_gamma[l] == portable.g_gamma[l]);
        CHECK(dispatched.g_phi[l] == portable.g_phi[l]);
        CHECK(dispatched.g_level[l] == portable.g_level[l]);
        CHECK(dispatched.g_trend[l] == portable.g_trend[l]);
    }
#endif
}
}  // namespace

TEST_CASE("fit_many lane kernels: every path this CPU runs equals the portable one bit for bit") {
    const auto paths = runnable_lane_paths();
    CHECK(paths.front() == fc::LaneInstructions::portable);
    for (const auto path : paths) {
        CAPTURE(fc::lane_instructions_name(path));
        check_lane_path_bit_identical<fc::Seasonality::additive>(path);
        check_lane_path_bit_identical<fc::Seasonality::multiplicative>(path);
    }
}

TEST_CASE("fit_many lane instructions: automatic picks a runnable path, an unsupported one is refused") {
    const fc::HoltWinters<double> model({fc::Trend::additive, false, fc::Seasonality::none, 2});
    const auto values = panel(3, 60);
    const auto chosen = model.fit_many(values, 3).instructions();
    CHECK(chosen != fc::LaneInstructions::automatic);
    CHECK(fc::detail::lane_instructions_supported(chosen));
    for (auto path : {fc::LaneInstructions::avx2, fc::LaneInstructions::avx512}) {
        if (fc::detail::lane_instructions_supported(path)) continue;
        const std::string expected = fmt::format("instructions = {}: not supported", fc::lane_instructions_name(path));
        CHECK_THROWS_WITH_AS((void)model.fit_many(values, 3, path), doctest::Contains(expected.c_str()), continuum::InvalidArgument);
    }
    CHECK(fc::lane_instructions_name(fc::LaneInstructions::avx512) == "avx512");
}
