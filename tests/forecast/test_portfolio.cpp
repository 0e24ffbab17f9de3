// Portfolio: rolling-origin selection/combination, on synthetic series and a real trace.
#include <continuum/forecast/moving_average.hpp>
#include <continuum/forecast/naive.hpp>
#include <continuum/forecast/portfolio.hpp>

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace fc = continuum::forecast;

namespace {
std::vector<double> hourly_trace(const std::string& file) {
    std::ifstream in(continuum_test::fixtures_dir() + "/forecast/traces/" + file);
    REQUIRE(in.good());
    std::string line;
    std::getline(in, line);
    std::vector<double> raw, out;
    while (std::getline(in, line)) raw.push_back(std::stod(line.substr(line.find(',') + 1)));
    for (std::size_t i = 0; i + 12 <= raw.size(); i += 12) {
        double s = 0;
        for (std::size_t k = 0; k < 12; ++k) s += raw[i + k];
        out.push_back(s / 12);
    }
    return out;
}

// 168 hourly points of a Gaussian random walk from 50 (unit steps), seeded.
std::vector<double> gaussian_walk_168(unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> step(0.0, 1.0);
    std::vector<double> walk{50.0};
    for (int t = 1; t < 168; ++t) walk.push_back(walk.back() + step(rng));
    return walk;
}

// A Portfolio on hourly `y` (season 24) validated one step ahead, with `set` applied to its options.
template <typename Set>
fc::Portfolio one_step_portfolio(const std::vector<double>& y, Set set) {
    fc::PortfolioOptions options;
    options.season_lengths = {24};
    options.horizon = 1;
    set(options);
    fc::Portfolio p(options);
    p.fit(continuum::SeriesView(y, std::chrono::hours(1), "y"));
    return p;
}
}  // namespace

TEST_CASE("the portfolio scores every candidate and selects by validation") {
    std::mt19937_64 rng(3);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<double> y;
    for (int t = 0; t < 24 * 12; ++t) y.push_back(40.0 + 10.0 * std::sin(2 * M_PI * t / 24.0) + noise(rng));
    fc::PortfolioOptions options;
    options.season_lengths = {24};
    options.origins = 3;
    fc::Portfolio portfolio(options);
    portfolio.fit(continuum::SeriesView(y));
    CHECK(portfolio.reference_season() == 24);
    int selected = 0;
    for (const auto& s : portfolio.scores()) {
        CHECK(std::isfinite(s.owa));
        selected += s.selected;
    }
    CHECK(selected == static_cast<int>(portfolio.members().size()));
    // On a clean seasonal series the non-seasonal candidates must not be chosen.
    CHECK(portfolio.name().find("naive,") == std::string::npos);
    CHECK(portfolio.name().find("m=24") != std::string::npos);
    CHECK(portfolio.validation_owa() < 1.0);
    const auto f = portfolio.forecast(24, 0.9);
    for (std::size_t h = 0; h < 24; ++h) {
        CHECK(f.lower[h] <= f.mean[h]);
        CHECK(f.mean[h] <= f.upper[h]);
        CHECK(std::fabs(f.mean[h] - (40.0 + 10.0 * std::sin(2 * M_PI * double(h) / 24.0))) < 3.0);
    }
    portfolio.update(40.0);
    CHECK(portfolio.forecast(1).horizon() == 1);
}

TEST_CASE("extra candidates join the portfolio, bad options and short series are refused") {
    std::vector<double> y;
    for (int t = 0; t < 100; ++t) y.push_back(double(t));
    fc::PortfolioOptions options;
    options.season_lengths = {};
    options.horizon = 5;
    options.combine = 1;
    fc::Portfolio portfolio(options, {fc::AnyForecaster(fc::Naive())});
    portfolio.fit(continuum::SeriesView(y));
    CHECK(portfolio.scores().back().name == "naive");
    CHECK(portfolio.name() == "portfolio(drift)");  // a straight line: drift is exact
    CHECK(portfolio.forecast(2).mean[1] == doctest::Approx(101.0));
    CHECK_THROWS_AS(fc::Portfolio(fc::PortfolioOptions{{1}}), continuum::InvalidArgument);
    options.combine = 0;
    CHECK_THROWS_AS(fc::Portfolio{options}, continuum::InvalidArgument);
    options.combine = 1;
    options.horizon = 24;
    fc::Portfolio daily(options);
    CHECK_THROWS_WITH_AS(daily.fit(continuum::SeriesView(std::vector<double>(20, 1.0))), doctest::Contains("needs at least 26"),
                         continuum::InvalidArgument);
}

TEST_CASE("on a real hourly CPU trace the portfolio beats seasonal naive out of sample") {
    // NAB ec2_cpu_utilization_5f5533: 336 hourly points; the last 3 days are forecast day by day.
    const auto y = hourly_trace("ec2_cpu_utilization_5f5533.csv");
    double portfolio_mase = 0.0, naive_mase = 0.0, portfolio_smape = 0.0, naive_smape = 0.0;
    for (std::size_t k = 3; k >= 1; --k) {
        const std::size_t origin = y.size() - 24 * k;
        const std::span<const double> train(y.data(), origin), actual(y.data() + origin, 24);
        auto portfolio = fc::auto_forecaster(continuum::SeriesView(train), {24, 168});
        fc::SeasonalNaive naive(24);
        naive.fit(continuum::SeriesView(train));
        const auto a = portfolio.forecast(24).mean, b = naive.forecast(24).mean;
        portfolio_mase += fc::mase(train, actual, a, 24);
        naive_mase += fc::mase(train, actual, b, 24);
        portfolio_smape += fc::smape(actual, a);
        naive_smape += fc::smape(actual, b);
    }
    CHECK(portfolio_mase < naive_mase);
    CHECK(portfolio_smape < naive_smape);
}

namespace {
// Hourly daily cycle around `level`, a ±1.5 wobble and a +25 spike every 13th hour (so robust
// candidates such as the seasonal median validate well); the level is 40 until `shift_at`, 60 after.
std::vector<double> shifted_series(int length, int shift_at) {
    std::vector<double> y;
    for (int t = 0; t < length; ++t) {
        const double level = t >= shift_at ? 60.0 : 40.0;
        y.push_back(level + 5.0 * std::sin(2.0 * M_PI * (t % 24) / 24.0) + 1.5 * std::sin(1.7 * t) + ((t * 7919) % 13 == 0 ? 25.0 : 0.0));
    }
    return y;
}
}  // namespace

TEST_CASE("a level shift inside the last validation block triggers the partial origins") {
    // 20 days of history, the level jumps 40 -> 60 twelve hours before its end; the next day stays
    // at 60. Validated on whole days only (shift_factor = 0, the previous behaviour), the median of
    // the old seasons keeps a vote and the forecast stays near the old level, worse than seasonal
    // naive; the partial origins inside the last day show which candidates follow the new level.
    const auto y = shifted_series(21 * 24, 20 * 24 - 12);
    const std::span<const double> train(y.data(), 20 * 24), actual(y.data() + 20 * 24, 24);
    fc::PortfolioOptions options;
    options.season_lengths = {24};
    fc::Portfolio shift_aware(options);
    shift_aware.fit(continuum::SeriesView(train));
    options.shift_factor = 0.0;
    fc::Portfolio whole_days(options);
    whole_days.fit(continuum::SeriesView(train));
    fc::SeasonalNaive naive(24);
    naive.fit(continuum::SeriesView(train));

    CHECK(shift_aware.shift_detected());
    CHECK_FALSE(whole_days.shift_detected());
    const double aware = fc::mae(actual, shift_aware.forecast(24).mean);
    const double days_only = fc::mae(actual, whole_days.forecast(24).mean);
    const double reference = fc::mae(actual, naive.forecast(24).mean);
    CHECK(days_only > reference);  // the old portfolio loses to seasonal naive here
    CHECK(aware < 0.6 * reference);
    CHECK(aware < 0.6 * days_only);
    for (const auto& member : shift_aware.members()) CHECK(member.name().find("seasonal_median") == std::string::npos);

    // Without a shift the same series validates on whole days only.
    const auto stable = shifted_series(20 * 24, 1 << 20);
    fc::Portfolio quiet(fc::PortfolioOptions{{24}});
    quiet.fit(continuum::SeriesView(stable));
    CHECK_FALSE(quiet.shift_detected());

    fc::PortfolioOptions bad;
    bad.shift_factor = -1.0;
    CHECK_THROWS_WITH_AS(fc::Portfolio{bad}, doctest::Contains("shift_factor"), continuum::InvalidArgument);
    bad.shift_factor = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(fc::Portfolio{bad}, continuum::InvalidArgument);
    bad.shift_factor = 2.0;
    bad.partial_origins = -1;
    CHECK_THROWS_WITH_AS(fc::Portfolio{bad}, doctest::Contains("partial_origins"), continuum::InvalidArgument);
}

TEST_CASE("a horizon below the season validates walk-forward: every recent point is an origin") {
    // y = t, n = 100, season 24, horizon 2: the last max(7·2, 24, min(96, 100 / 2)) = 50 points
    // would be origins, but three seasons stay for the first fit, so the last 28 are, from one fit
    // on the first 72 then update()s; each forecasts min(2, points left) steps.
    std::vector<double> y(100);
    for (std::size_t t = 0; t < y.size(); ++t) y[t] = static_cast<double>(t);
    fc::PortfolioOptions options;
    options.season_lengths = {24};
    options.horizon = 2;
    fc::Portfolio portfolio(options);
    portfolio.fit(continuum::SeriesView(y));
    CHECK(portfolio.walk_forward());
    CHECK(portfolio.validation_horizon() == 2);
    CHECK_FALSE(portfolio.shift_detected());
    // Naive misses by 1 and 2 (MAE 1.5) at 27 full origins and by 1 at the last, half-weight one;
    // the MASE scale is |y_t - y_{t-24}| = 24 everywhere.
    const double naive_mase = (27.0 * 1.5 / 24.0 + 0.5 * 1.0 / 24.0) / 27.5;
    bool seen = false;
    for (const auto& s : portfolio.scores()) {
        if (s.name != "naive") continue;
        seen = true;
        CHECK(s.mase == doctest::Approx(naive_mase).epsilon(1e-12));
    }
    CHECK(seen);
    CHECK(portfolio.name() == "portfolio(drift)");  // exact on a line
    CHECK(portfolio.forecast(2).mean[1] == doctest::Approx(101.0));
    // One season ahead keeps whole-block validation with refits.
    options.horizon = 24;
    fc::Portfolio daily(options);
    daily.fit(continuum::SeriesView(y));
    CHECK_FALSE(daily.walk_forward());
    CHECK(daily.validation_horizon() == 24);
    // Either scheme on request: walk-forward at one season (7·24 = 168 origins), blocks at 2 steps.
    options.validation = fc::PortfolioValidation::walk_forward;
    fc::Portfolio forced(options);
    forced.fit(continuum::SeriesView(y));
    CHECK(forced.walk_forward());
    CHECK(forced.name() == "portfolio(drift)");
    options.validation = fc::PortfolioValidation::blocks;
    options.horizon = 2;
    fc::Portfolio blocks(options);
    blocks.fit(continuum::SeriesView(y));
    CHECK_FALSE(blocks.walk_forward());
    options.walk_forward_points = -1;
    CHECK_THROWS_WITH_AS(fc::Portfolio{options}, doctest::Contains("walk_forward_points must be >= 0, got -1"), continuum::InvalidArgument);
}

namespace {
/// Naive's validation MASE on y = t (n points, season 24, horizon 2): with k walk-forward origins
/// it misses by 1 and 2 at k - 1 of them and by 1 at the last, half-weight one; the scale is 24.
double naive_mase_on_line(std::size_t n, int min_walk_forward_origins, bool& corrected) {
    std::vector<double> y(n);
    for (std::size_t t = 0; t < n; ++t) y[t] = static_cast<double>(t);
    fc::PortfolioOptions options;
    options.season_lengths = {24};
    options.horizon = 2;
    options.min_walk_forward_origins = min_walk_forward_origins;
    fc::Portfolio portfolio(options);
    portfolio.fit(continuum::SeriesView(y));
    corrected = !portfolio.state().error_correction.empty();
    for (const auto& s : portfolio.scores()) {
        if (s.name == "naive") return s.mase;
    }
    return -1.0;
}
double naive_mase_with_origins(double k) { return ((k - 1.0) * 1.5 / 24.0 + 0.5 / 24.0) / (k - 0.5); }
}  // namespace

TEST_CASE("few origins: the walk-forward window has min(96, n/2) points at least and the correction needs 96") {
    bool corrected = false;
    // n = 168 (a week of hourly data): max(7·2, 24, min(96, 84)) = 84 origins (the first fit keeps
    // 84 >= 3 seasons); 84 < 96, so no error correction.
    CHECK(naive_mase_on_line(168, 96, corrected) == doctest::Approx(naive_mase_with_origins(84.0)).epsilon(1e-12));
    CHECK_FALSE(corrected);
    // n = 300: min(96, 150) = 96 origins, and the correction is fitted on them.
    CHECK(naive_mase_on_line(300, 96, corrected) == doctest::Approx(naive_mase_with_origins(96.0)).epsilon(1e-12));
    CHECK(corrected);
    // 0 = the rule off (before session 9): max(7·2, 24) = 24 origins, corrected whatever their number.
    CHECK(naive_mase_on_line(168, 0, corrected) == doctest::Approx(naive_mase_with_origins(24.0)).epsilon(1e-12));
    CHECK(corrected);
    // A smaller minimum: min(30, 84) = 30 origins, enough for the correction.
    CHECK(naive_mase_on_line(168, 30, corrected) == doctest::Approx(naive_mase_with_origins(30.0)).epsilon(1e-12));
    CHECK(corrected);
    fc::PortfolioOptions options;
    options.min_walk_forward_origins = -1;
    CHECK_THROWS_WITH_AS(fc::Portfolio{options}, doctest::Contains("min_walk_forward_origins must be >= 0, got -1"), continuum::InvalidArgument);
}

TEST_CASE("an extra candidate trained on the validation window sits the fit out") {
    // y = t, n = 100, season 24, horizon 2: the walk-forward origins are the last 28 points (72..99).
    // The extra moving average of 2 forecasts t - 1.5 from origin t: it misses by 1.5 and 2.5 (MAE 2)
    // at 27 origins and by 1.5 at the last, half-weight one; MASE scale 24.
    std::vector<double> y(100);
    for (std::size_t t = 0; t < y.size(); ++t) y[t] = static_cast<double>(t);
    const auto extra_score = [&](int seen) {
        fc::PortfolioOptions options;
        options.season_lengths = {24};
        options.horizon = 2;
        options.extra_seen_points = seen;
        fc::Portfolio portfolio(options, {fc::AnyForecaster(fc::MovingAverage(2))});
        portfolio.fit(continuum::SeriesView(y));
        CHECK(portfolio.name() == "portfolio(drift)");
        for (const auto& s : portfolio.scores()) {
            if (s.name == "moving_average(window=2)") return s;
        }
        return fc::PortfolioScore{};
    };
    // Trained on points before the first origin (72): validated as usual.
    const auto unseen = extra_score(72);
    CHECK(unseen.mase == doctest::Approx((27.0 * 2.0 / 24.0 + 0.5 * 1.5 / 24.0) / 27.5).epsilon(1e-12));
    CHECK(std::isfinite(unseen.owa));
    CHECK(extra_score(0).mase == unseen.mase);  // 0: nothing seen (the default)
    // Trained on point 72 too: in-sample there, so not scored and never selected.
    const auto seen = extra_score(73);
    CHECK(seen.owa == std::numeric_limits<double>::infinity());
    CHECK_FALSE(seen.selected);
    fc::PortfolioOptions options;
    options.extra_seen_points = -1;
    CHECK_THROWS_WITH_AS(fc::Portfolio{options}, doctest::Contains("extra_seen_points must be >= 0, got -1"), continuum::InvalidArgument);
}

TEST_CASE("plan_for_horizon sets an unset validation horizon and keeps an explicit one") {
    std::vector<double> y(120);
    for (std::size_t t = 0; t < y.size(); ++t) y[t] = 50.0 + 10.0 * std::sin(2 * M_PI * double(t) / 24.0) + 0.1 * double(t);
    fc::Portfolio unset(fc::PortfolioOptions{{24}});
    unset.plan_for_horizon(3);
    CHECK(unset.options().horizon == 3);
    unset.fit(continuum::SeriesView(y));
    CHECK(unset.validation_horizon() == 3);
    fc::PortfolioOptions explicit_options{{24}};
    explicit_options.horizon = 12;
    fc::Portfolio kept(explicit_options);
    kept.plan_for_horizon(3);
    CHECK(kept.options().horizon == 12);
    CHECK_THROWS_WITH_AS(kept.plan_for_horizon(0), doctest::Contains("horizon must be >= 1, got 0"), continuum::InvalidArgument);
    const auto fitted = fc::auto_forecaster(continuum::SeriesView(y), 5, {24});
    CHECK(fitted.validation_horizon() == 5);
    CHECK(fitted.walk_forward());
    CHECK(fc::auto_forecaster(continuum::SeriesView(y), std::vector<int>{24}).validation_horizon() == 24);
}

TEST_CASE("block validation warm-starts Holt-Winters and scores it as refits from scratch would") {
    // NAB ec2_cpu_utilization_5f5533, 336 hourly points, validated one season ahead on 7 blocks:
    // each Holt-Winters refit after the first starts from the previous origin's fit. Its validation
    // MASE must match the one of cold fits at every origin (computed here by hand).
    const auto y = hourly_trace("ec2_cpu_utilization_5f5533.csv");
    fc::PortfolioOptions options;
    options.season_lengths = {24};
    options.shift_factor = 0.0;  // whole blocks only
    fc::Portfolio portfolio(options);
    portfolio.fit(continuum::SeriesView(y));
    REQUIRE_FALSE(portfolio.walk_forward());
    for (const bool trend : {false, true}) {
        const fc::HoltWintersSpec spec{trend ? fc::Trend::additive : fc::Trend::none, trend, fc::Seasonality::additive, 24};
        const fc::HoltWinters<double> prototype(spec);
        double cold_mase = 0.0;
        for (std::size_t k = 7; k >= 1; --k) {
            const std::size_t origin = y.size() - 24 * k;
            const std::span<const double> train(y.data(), origin), actual(y.data() + origin, 24);
            auto model = prototype;
            model.fit(continuum::SeriesView(train));
            cold_mase += fc::mase(train, actual, model.forecast(24).mean, 24) / 7.0;
        }
        const auto score = std::find_if(portfolio.scores().begin(), portfolio.scores().end(), [&](const fc::PortfolioScore& s) { return s.name == prototype.name(); });
        REQUIRE(score != portfolio.scores().end());
        CAPTURE(score->name);
        CHECK(score->mase == doctest::Approx(cold_mase).epsilon(0.01));
    }
}

namespace {
/// 30 days of an hourly-like daily cycle (m = 24, amplitude 40) with small deterministic noise,
/// optionally shifted up by `shift` over its last `shifted` points.
std::vector<double> cycle_with_shift(double shift, std::size_t shifted) {
    std::vector<double> y(30 * 24);
    for (std::size_t t = 0; t < y.size(); ++t) {
        y[t] = 100.0 + 40.0 * std::sin(2 * M_PI * double(t) / 24.0) + 0.5 * std::sin(double(t * t % 97));
        if (t + shifted >= y.size()) y[t] += shift;
    }
    return y;
}

/// Daily season 24, validated 3 steps ahead (walk-forward), with the level guard (off by default)
/// and without the error correction, so the guard's own rule is what the tests see.
fc::PortfolioOptions three_steps_ahead() {
    fc::PortfolioOptions options;
    options.season_lengths = {24};
    options.horizon = 3;
    options.level_guard = 6.0;
    options.error_correction = false;
    return options;
}
}  // namespace

TEST_CASE("the level guard re-levels the forecast after a shift the members have not followed") {
    auto options = three_steps_ahead();
    // No shift: the guard stays off.
    fc::Portfolio calm(options);
    calm.fit(continuum::SeriesView(cycle_with_shift(0.0, 0)));
    CHECK(calm.walk_forward());
    CHECK(calm.level_offset() == 0.0);
    CHECK(calm.state().guard_scale > 0.0);
    CHECK(calm.state().guard_errors.size() == 3);
    // +30 over the last 4 points: every member is surprised 4 times in a row (seasonal models do not
    // follow a level change within hours), so the forecast moves up by the smallest of the last 3 errors.
    const auto shifted = cycle_with_shift(30.0, 4);
    fc::Portfolio guarded(options);
    guarded.fit(continuum::SeriesView(shifted));
    const auto s = guarded.state();
    REQUIRE(s.guard_errors.size() == 3);
    const double smallest = *std::min_element(s.guard_errors.begin(), s.guard_errors.end());
    CHECK(smallest > options.level_guard * s.guard_scale);
    CHECK(guarded.level_offset() == smallest);
    // The next point is 100 + 40·sin(2π·720/24) + 30 = 130 (plus at most 0.5 of noise): the members'
    // mean is still near the old level, the corrected forecast near the new one.
    const double corrected = guarded.forecast(1).mean[0];
    CHECK(std::fabs(corrected - smallest - 130.0) > 10.0);
    CHECK(std::fabs(corrected - 130.0) < 1.0);
    options.level_guard = 0.0;
    fc::Portfolio unguarded(options);
    unguarded.fit(continuum::SeriesView(shifted));
    CHECK(unguarded.level_offset() == 0.0);
    CHECK(unguarded.state().guard_errors.empty());
    CHECK(unguarded.name() == guarded.name());  // the guard does not change the selection
}

TEST_CASE("the level guard's rule by hand: same-sign errors above the threshold, the smallest one, kept through update") {
    auto options = three_steps_ahead();
    fc::Portfolio fitted(options);
    fitted.fit(continuum::SeriesView(cycle_with_shift(0.0, 0)));
    auto s = fitted.state();
    s.guard_scale = 1.0;  // threshold level_guard · scale = 6
    const auto with_errors = [&](std::vector<double> errors) {
        s.guard_errors = std::move(errors);
        return fitted.with_state(s);
    };
    CHECK(with_errors({7.0, 9.0, 8.0}).level_offset() == 7.0);
    CHECK(with_errors({-7.0, -9.0, -8.0}).level_offset() == -7.0);
    CHECK(with_errors({5.0, 9.0, 8.0}).level_offset() == 0.0);   // one below the threshold
    CHECK(with_errors({7.0, -9.0, 8.0}).level_offset() == 0.0);  // signs disagree
    CHECK(with_errors({9.0, 8.0}).level_offset() == 0.0);        // fewer than level_guard_points
    // update() appends the members' one-step error and drops the oldest.
    auto p = with_errors({7.0, 9.0, 8.0});
    const double members_mean = p.forecast(1).mean[0] - p.level_offset();
    p.update(members_mean + 20.0);
    CHECK(p.state().guard_errors == std::vector<double>{9.0, 8.0, 20.0});
    CHECK(p.level_offset() == 8.0);
    p.update(p.forecast(1).mean[0] - p.level_offset());  // an exact one-step forecast: the guard lets go
    CHECK(p.level_offset() == 0.0);
    // Bad state and options name the field.
    s.guard_errors = {std::numeric_limits<double>::quiet_NaN()};
    CHECK_THROWS_WITH_AS((void)fitted.with_state(s), doctest::Contains("guard_errors[0]"), continuum::InvalidArgument);
    s.guard_errors = {};
    s.guard_scale = -1.0;
    CHECK_THROWS_WITH_AS((void)fitted.with_state(s), doctest::Contains("guard_scale"), continuum::InvalidArgument);
    options.level_guard = -1.0;
    CHECK_THROWS_WITH_AS(fc::Portfolio{options}, doctest::Contains("level_guard must be finite and >= 0, got -1"), continuum::InvalidArgument);
    options.level_guard = 6.0;
    options.level_guard_points = 0;
    CHECK_THROWS_WITH_AS(fc::Portfolio{options}, doctest::Contains("level_guard_points must be >= 1, got 0"), continuum::InvalidArgument);
}

TEST_CASE("the error correction by hand: b_i times the latest one-step error, refreshed by update") {
    auto options = three_steps_ahead();
    options.level_guard = 0.0;
    options.error_correction = true;
    fc::Portfolio fitted(options);
    fitted.fit(continuum::SeriesView(cycle_with_shift(0.0, 0)));
    auto s = fitted.state();
    REQUIRE(s.error_correction.size() == 3);  // one coefficient per step of the validation horizon
    for (double b : s.error_correction) CHECK((b >= 0.0 && b <= 1.0));
    REQUIRE(s.guard_errors.size() == 1);  // the latest one-step error only: the guard is off
    // Coefficients set by hand: forecasts move by b_i · 4 over the members' mean, the last b beyond h.
    CHECK(s.error_correction_limit > 0.0);
    s.error_correction = {0.5, 0.25, 0.0};
    s.error_correction_limit = 100.0;
    s.guard_errors = {4.0};
    auto p = fitted.with_state(s);
    auto plain_state = s;
    plain_state.error_correction.clear();
    const auto plain = fitted.with_state(plain_state).forecast(5).mean;
    const auto corrected = p.forecast(5).mean;
    const std::vector<double> added{2.0, 1.0, 0.0, 0.0, 0.0};
    for (std::size_t i = 0; i < 5; ++i) CHECK(corrected[i] - plain[i] == doctest::Approx(added[i]).epsilon(1e-12));
    // update() records the members' new one-step error (the members' mean, without the correction).
    const double members_next = plain[0];
    p.update(members_next + 10.0);
    CHECK(p.state().guard_errors == std::vector<double>{10.0});
    const auto members_after = [&] {
        auto t = p.state();
        t.error_correction.clear();
        return fitted.with_state(t).forecast(2).mean;
    }();
    CHECK(p.forecast(2).mean[0] - members_after[0] == doctest::Approx(5.0).epsilon(1e-12));
    CHECK(p.forecast(2).mean[1] - members_after[1] == doctest::Approx(2.5).epsilon(1e-12));
    // An error beyond the limit counts as the limit: one spike moves the forecast by at most b_i · limit.
    auto clipped = p.state();
    clipped.error_correction_limit = 6.0;
    CHECK(fitted.with_state(clipped).forecast(1).mean[0] - members_after[0] == doctest::Approx(3.0).epsilon(1e-12));
    // Bad state names the field.
    s.error_correction = {1.5};
    CHECK_THROWS_WITH_AS((void)fitted.with_state(s), doctest::Contains("error_correction[0] = 1.5 must be in [0, 1]"), continuum::InvalidArgument);
    s.error_correction = {0.5};
    s.error_correction_limit = -1.0;
    CHECK_THROWS_WITH_AS((void)fitted.with_state(s), doctest::Contains("error_correction_limit"), continuum::InvalidArgument);
    s.error_correction_limit = 1.0;
    s.guard_errors.clear();
    CHECK_THROWS_WITH_AS((void)fitted.with_state(s), doctest::Contains("state.guard_errors, which is empty"), continuum::InvalidArgument);
}

TEST_CASE("the error correction follows errors that persist and leaves independent ones alone") {
    // A daily cycle plus a slowly decaying disturbance (AR(1), phi = 0.9, deterministic shocks every
    // 7 points): the members' one-step errors persist, so the coefficients are clearly positive.
    std::vector<double> y(30 * 24);
    double z = 0.0;
    for (std::size_t t = 0; t < y.size(); ++t) {
        z = 0.9 * z + (t % 7 == 0 ? 3.0 * std::sin(double(t)) : 0.0);
        y[t] = 100.0 + 40.0 * std::sin(2 * M_PI * double(t) / 24.0) + z;
    }
    auto options = three_steps_ahead();
    options.level_guard = 0.0;
    options.error_correction = true;
    options.min_walk_forward_origins = 0;  // one day of origins: what this test is about is the correction's fit
    fc::Portfolio persistent(options);
    persistent.fit(continuum::SeriesView(y));
    const auto b = persistent.state().error_correction;
    REQUIRE(b.size() == 3);
    CHECK(b[0] > 0.2);
    // Without persistence (the cycle alone, with its tiny deterministic noise) the correction is small.
    fc::Portfolio calm(options);
    calm.fit(continuum::SeriesView(cycle_with_shift(0.0, 0)));
    for (double c : calm.state().error_correction) CHECK(c < b[0]);
    // The defaults: error correction on, level guard off; nothing to correct with block validation.
    const fc::PortfolioOptions defaults;
    CHECK(defaults.error_correction);
    CHECK(defaults.level_guard == 0.0);
    CHECK(defaults.min_walk_forward_origins == 96);
    auto day_ahead = options;
    day_ahead.horizon = 0;  // one season: block validation
    for (const auto& o : {three_steps_ahead(), day_ahead}) {
        fc::Portfolio p(o);
        p.fit(continuum::SeriesView(y));
        CHECK(p.state().error_correction.empty());
    }
}

TEST_CASE("the Diebold-Mariano statistic by hand") {
    using continuum::forecast::detail::diebold_mariano;
    const std::vector<double> rising{1.0, 2.0, 3.0, 4.0};
    // mean 2.5; g0 = (2.25 + 0.25 + 0.25 + 2.25) / 4 = 1.25: 2.5 / sqrt(1.25 / 4) = 2 sqrt(5).
    CHECK(diebold_mariano(rising, 0) == doctest::Approx(2.0 * std::sqrt(5.0)).epsilon(1e-12));
    // g1 = (0.75 - 0.25 + 0.75) / 4 = 0.3125; LRV = 1.25 + 2 (1 - 1/2) 0.3125 = 1.5625: 2.5 / sqrt(1.5625 / 4) = 4.
    CHECK(diebold_mariano(rising, 1) == doctest::Approx(4.0).epsilon(1e-12));
    // Alternating: g0 = 1, g1 = -0.75; LRV = 1 - 0.75 = 0.25 with one lag: 1 / sqrt(0.25 / 4) = 4.
    const std::vector<double> alternating{2.0, 0.0, 2.0, 0.0};
    CHECK(diebold_mariano(alternating, 1) == doctest::Approx(4.0).epsilon(1e-12));
    CHECK(diebold_mariano(alternating, 9) == doctest::Approx(diebold_mariano(alternating, 3)).epsilon(1e-15));  // lags clamped to N - 1
    const std::vector<double> flat_up{0.5, 0.5, 0.5}, flat_down{-0.5, -0.5}, zero{0.0, 0.0}, one{3.0};
    CHECK(diebold_mariano(flat_up, 1) == std::numeric_limits<double>::infinity());
    CHECK(diebold_mariano(flat_down, 0) == -std::numeric_limits<double>::infinity());
    CHECK(diebold_mariano(zero, 0) == 0.0);
    CHECK(diebold_mariano(one, 0) == 0.0);
    CHECK(diebold_mariano(std::span<const double>(), 0) == 0.0);
}

TEST_CASE("naive_test: the last value stays unless a candidate validates significantly better") {
    const auto fit = [](const std::vector<double>& y, double z) { return one_step_portfolio(y, [z](fc::PortfolioOptions& o) { o.naive_test = z; }); };
    // A Gaussian random walk, where the last value is the optimal forecast: drift happens to validate
    // a little better over the 84 walk-forward origins and is picked without the test...
    const auto walk = gaussian_walk_168(5);
    const auto plain = fit(walk, 0.0);
    REQUIRE(plain.name() == "portfolio(drift)");
    const auto by_name = [](const fc::Portfolio& p, const std::string& name) {
        return std::find_if(p.scores().begin(), p.scores().end(), [&](const auto& s) { return s.name == name; })->mase;
    };
    CHECK(by_name(plain, "drift") < by_name(plain, "naive"));
    // ... but not significantly: with the test the portfolio is the last value, selected alone.
    const auto tested = fit(walk, 1.645);
    CHECK(tested.name() == "portfolio(naive)");
    CHECK(tested.forecast(3).mean == std::vector<double>(3, walk.back()));
    CHECK(std::count_if(tested.scores().begin(), tested.scores().end(), [](const auto& s) { return s.selected; }) == 1);
    // An exact daily pattern: the seasonal members beat the last value at every origin (d > 0, no
    // variance: an infinite statistic), so the choice is kept as without the test.
    std::vector<double> daily;
    for (int t = 0; t < 168; ++t) daily.push_back(40.0 + 10.0 * std::sin(2 * M_PI * t / 24.0));
    CHECK(fit(daily, 1.645).name() == fit(daily, 0.0).name());
    CHECK(fit(daily, 1.645).name() != "portfolio(naive)");
    // Block validation (horizons of a season or more) is not affected.
    fc::PortfolioOptions blocks;
    blocks.season_lengths = {24};
    blocks.naive_test = 1.645;
    fc::Portfolio day_ahead(blocks);
    day_ahead.fit(continuum::SeriesView(walk, std::chrono::hours(1), "y"));
    blocks.naive_test = 0.0;
    fc::Portfolio day_ahead_plain(blocks);
    day_ahead_plain.fit(continuum::SeriesView(walk, std::chrono::hours(1), "y"));
    CHECK(day_ahead.name() == day_ahead_plain.name());
    fc::PortfolioOptions bad;
    bad.naive_test = -1.0;
    CHECK_THROWS_WITH_AS(fc::Portfolio{bad}, doctest::Contains("naive_test must be finite and >= 0, got -1"), continuum::InvalidArgument);
    bad.naive_test = std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH_AS(fc::Portfolio{bad}, doctest::Contains("naive_test must be finite and >= 0, got inf"), continuum::InvalidArgument);
}

TEST_CASE("last_value_combination: the last value joins the mean when that validates better") {
    // The random walk of the naive_test case: drift validates best alone (owa below naive's). Walk-
    // forward at horizon 1 on 168 points with season 24: origins 84..167, each forecast one step
    // from everything before it; MASE scaled by the seasonal naive (m = 24) MAE before the origin,
    // OWA relative to seasonal naive's forecast y[t - 24].
    auto walk = gaussian_walk_168(5);
    const auto fit = [&walk](fc::LastValueCombination rule) {
        return one_step_portfolio(walk, [rule](fc::PortfolioOptions& o) { o.last_value_combination = rule; });
    };
    // The validation by hand: naive forecasts y[t-1], drift y[t-1] + (y[t-1] - y[0]) / (t - 1).
    const auto by_hand = [&](double naive_weight) {  // {sMAPE, MASE} of naive_weight * naive + (1 - naive_weight) * drift
        double smape_sum = 0.0, mase_sum = 0.0;
        for (std::size_t t = 84; t < 168; ++t) {
            const double last = walk[t - 1];
            const double drift = last + (last - walk[0]) / static_cast<double>(t - 1);
            const double f = naive_weight * last + (1.0 - naive_weight) * drift;
            double scale = 0.0;
            for (std::size_t i = 24; i < t; ++i) scale += std::fabs(walk[i] - walk[i - 24]);
            scale /= static_cast<double>(t - 24);
            smape_sum += 200.0 * std::fabs(walk[t] - f) / (std::fabs(walk[t]) + std::fabs(f));
            mase_sum += std::fabs(walk[t] - f) / scale;
        }
        return std::pair{smape_sum / 84.0, mase_sum / 84.0};
    };
    const auto off = fit(fc::LastValueCombination::off);
    REQUIRE(off.name() == "portfolio(drift)");
    const auto score_of = [](const fc::Portfolio& p, const std::string& name) {
        return *std::find_if(p.scores().begin(), p.scores().end(), [&](const auto& s) { return s.name == name; });
    };
    CHECK(score_of(off, "naive").mase == doctest::Approx(by_hand(1.0).second).epsilon(1e-12));
    CHECK(score_of(off, "drift").mase == doctest::Approx(by_hand(0.0).second).epsilon(1e-12));
    CHECK(score_of(off, "drift").smape == doctest::Approx(by_hand(0.0).first).epsilon(1e-12));
    // The OWA of the equal-weight mean of drift and naive, from the scores' own reference terms
    // (owa = (smape / ref_smape + mase / ref_mase) / 2 for naive and drift: two equations).
    const auto [naive_smape, naive_mase] = by_hand(1.0);
    const auto [drift_smape, drift_mase] = by_hand(0.0);
    const auto [mean_smape, mean_mase] = by_hand(0.5);
    // Solve for 1 / ref_smape (a) and 1 / ref_mase (b).
    const double owa_naive = score_of(off, "naive").owa, owa_drift = score_of(off, "drift").owa;
    const double det = naive_smape * drift_mase - naive_mase * drift_smape;
    const double a = 2.0 * (owa_naive * drift_mase - owa_drift * naive_mase) / det;
    const double b = 2.0 * (naive_smape * owa_drift - drift_smape * owa_naive) / det;
    const double owa_mean = 0.5 * (mean_smape * a + mean_mase * b);
    // On this walk the mean validates a little worse than drift alone: scored keeps drift...
    REQUIRE(owa_mean > owa_drift);
    CHECK(fit(fc::LastValueCombination::scored).name() == "portfolio(drift)");
    // ... and always adds the last value anyway, with the mean's validation OWA.
    const auto always = fit(fc::LastValueCombination::always);
    CHECK(always.name() == "portfolio(drift + naive)");
    CHECK(always.validation_owa() == doctest::Approx(owa_mean).epsilon(1e-9));
    CHECK(score_of(always, "naive").selected);
    CHECK(score_of(always, "drift").selected);
    // Its forecast: the mean of the last value and drift's line, i steps ahead last + i * slope / 2.
    const double slope = (walk.back() - walk.front()) / 167.0;
    const auto f = always.forecast(3).mean;
    for (std::size_t i = 0; i < 3; ++i) CHECK(f[i] == doctest::Approx(walk.back() + 0.5 * static_cast<double>(i + 1) * slope).epsilon(1e-12));
    // Another walk (seed 29), where SES validates best alone and the mean of the best three with the
    // last value validates better than every mean without it: scored takes that one.
    walk = gaussian_walk_168(29);
    const auto off29 = fit(fc::LastValueCombination::off);
    const auto scored29 = fit(fc::LastValueCombination::scored);
    CHECK(off29.members().size() == 1);
    CHECK(off29.name().starts_with("portfolio(ses("));
    REQUIRE(scored29.members().size() == 4);
    CHECK(scored29.name().starts_with("portfolio(ses("));
    CHECK(scored29.name().ends_with(" + naive)"));
    CHECK(scored29.validation_owa() < off29.validation_owa());
    double mean = 0.0;
    for (const auto& member : scored29.members()) mean += member.forecast(1).mean[0] / 4.0;
    CHECK(scored29.forecast(1).mean[0] == doctest::Approx(mean).epsilon(1e-12));
    // An exact daily pattern: the seasonal members are exact, adding the last value only costs, so
    // scored keeps the choice; always adds it anyway.
    std::vector<double> daily;
    for (int t = 0; t < 168; ++t) daily.push_back(40.0 + 10.0 * std::sin(2 * M_PI * t / 24.0));
    const auto on_daily = [&daily](fc::LastValueCombination rule) {
        return one_step_portfolio(daily, [rule](fc::PortfolioOptions& o) { o.last_value_combination = rule; }).name();
    };
    CHECK(on_daily(fc::LastValueCombination::scored) == on_daily(fc::LastValueCombination::off));
    CHECK_FALSE(on_daily(fc::LastValueCombination::scored).ends_with(" + naive)"));
    CHECK(on_daily(fc::LastValueCombination::always).ends_with(" + naive)"));
    // Block validation (a horizon of one season) is not affected.
    const auto day_ahead = [&walk](fc::LastValueCombination rule) {
        return one_step_portfolio(walk, [rule](fc::PortfolioOptions& o) {
                   o.horizon = 0;
                   o.last_value_combination = rule;
               }).name();
    };
    CHECK(day_ahead(fc::LastValueCombination::always) == day_ahead(fc::LastValueCombination::off));
}

TEST_CASE("moving_median_window: a robust level joins the short-horizon candidates") {
    // A slowly rising level with a burst of +30 every 7 hours (out of step with the 24-h season): the
    // last value repeats each burst once, the seasonal members see bursts in their lags, the median of
    // the last 5 points ignores them. Walk-forward at horizon 1 on 168 points with season 24: origins
    // 84..167, each forecast one step from everything before it.
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(0.0, 0.3);
    std::vector<double> y;
    for (int t = 0; t < 168; ++t) y.push_back(20.0 + 0.02 * t + (t % 7 == 3 ? 30.0 : 0.0) + noise(rng));
    const auto fit = [&y](int window, int horizon = 1) {
        return one_step_portfolio(y, [window, horizon](fc::PortfolioOptions& o) {
            o.moving_median_window = window;
            o.horizon = horizon;
        });
    };
    const auto find = [](const fc::Portfolio& p, const std::string& name) {
        return std::find_if(p.scores().begin(), p.scores().end(), [&](const auto& s) { return s.name == name; });
    };
    const auto p = fit(5);
    const auto median = find(p, "moving_median(window=5)");
    REQUIRE(median != p.scores().end());
    // Its validation by hand: the median of y[t-5..t-1], MASE scaled by the seasonal naive (m = 24)
    // MAE before the origin, sMAPE in percent.
    double smape_sum = 0.0, mase_sum = 0.0;
    for (std::size_t t = 84; t < 168; ++t) {
        std::vector<double> last(y.begin() + static_cast<std::ptrdiff_t>(t - 5), y.begin() + static_cast<std::ptrdiff_t>(t));
        std::sort(last.begin(), last.end());
        double scale = 0.0;
        for (std::size_t i = 24; i < t; ++i) scale += std::fabs(y[i] - y[i - 24]);
        scale /= static_cast<double>(t - 24);
        smape_sum += 200.0 * std::fabs(y[t] - last[2]) / (std::fabs(y[t]) + std::fabs(last[2]));
        mase_sum += std::fabs(y[t] - last[2]) / scale;
    }
    CHECK(median->mase == doctest::Approx(mase_sum / 84.0).epsilon(1e-12));
    CHECK(median->smape == doctest::Approx(smape_sum / 84.0).epsilon(1e-12));
    // It validates better than the last value, and is chosen.
    CHECK(median->owa < find(p, "naive")->owa);
    CHECK(median->selected);
    CHECK(p.name().find("moving_median(window=5)") != std::string::npos);
    // Its state is a built-in one: the portfolio restores and forecasts the same.
    const auto restored = fc::Portfolio::restore(p.options(), p.state());
    CHECK(restored.forecast(3, 0.9).mean == p.forecast(3, 0.9).mean);
    // 0 = no such candidate (the behaviour before session 12); block validation (a horizon of one
    // season) never has it.
    const auto without = fit(0);
    CHECK(find(without, "moving_median(window=5)") == without.scores().end());
    CHECK(without.scores().size() + 1 == p.scores().size());
    const auto day_ahead = fit(5, 0);
    CHECK_FALSE(day_ahead.walk_forward());
    CHECK(find(day_ahead, "moving_median(window=5)") == day_ahead.scores().end());
    fc::PortfolioOptions bad;
    bad.moving_median_window = -1;
    CHECK_THROWS_WITH_AS(fc::Portfolio{bad}, "portfolio: moving_median_window must be >= 0, got -1", continuum::InvalidArgument);
}

namespace {
// 14 days of hourly points: a daily cycle plus persistent AR(1) noise (phi = 0.9), seeded. One step
// ahead the last value holds the noise's level; hours ahead the noise has faded and the cycle counts.
std::vector<double> cycle_with_persistent_noise(unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> shock(0.0, 1.5);
    std::vector<double> y;
    double noise = 0.0;
    for (int t = 0; t < 336; ++t) {
        noise = 0.9 * noise + shock(rng);
        y.push_back(50.0 + 10.0 * std::sin(2 * M_PI * t / 24.0) + noise);
    }
    return y;
}
}  // namespace

TEST_CASE("horizon_buckets: each bucket of steps ahead forecasts with its own choice") {
    const auto y = cycle_with_persistent_noise(3);
    const continuum::SeriesView view(y, std::chrono::hours(1), "y");
    const auto fit = [&view](int horizon, std::vector<int> buckets, double margin = 0.0) {
        fc::PortfolioOptions options;
        options.season_lengths = {24};
        options.horizon = horizon;
        options.horizon_buckets = std::move(buckets);
        options.bucket_margin = margin;
        options.error_correction = false;  // the members' means alone, to compare them below
        fc::Portfolio p(options);
        p.fit(view);
        return p;
    };
    // 336 points: the walk-forward window has 96 origins, enough for buckets (min_walk_forward_origins).
    const auto whole = fit(6, {});
    const auto bucketed = fit(6, {1});
    const auto one_step = fit(1, {});
    INFO(whole.name(), " / ", bucketed.name(), " / ", one_step.name());
    REQUIRE(whole.state().bucket_ends.empty());
    // Step 1 is chosen on the step-1 errors of the same 96 origins a horizon-1 portfolio validates on
    // (same fits, same candidates): the same choice, so the same one-step forecast. Here it differs
    // from the whole horizon's choice, so there are two buckets: step 1 and steps 2-6.
    const auto s = bucketed.state();
    REQUIRE(s.bucket_ends == std::vector<int>{1, 6});
    REQUIRE(s.bucket_members.size() == 2);
    CHECK(one_step.name() != whole.name());
    const auto f = bucketed.forecast(8).mean;
    CHECK(f[0] == doctest::Approx(one_step.forecast(1).mean[0]).epsilon(1e-12));
    // Steps 2-6 (and 7, 8: past the horizon, the last bucket) are the whole horizon's choice.
    const auto g = whole.forecast(8).mean;
    for (std::size_t i = 1; i < 8; ++i) CHECK(f[i] == doctest::Approx(g[i]).epsilon(1e-12));
    // Each step is the mean of its bucket's members.
    for (std::size_t b = 0; b < 2; ++b) {
        const std::size_t step = b == 0 ? 0 : 3;
        double mean = 0.0;
        for (const int j : s.bucket_members[b]) mean += bucketed.members()[static_cast<std::size_t>(j)].forecast(8).mean[step];
        CHECK(f[step] == doctest::Approx(mean / static_cast<double>(s.bucket_members[b].size())).epsilon(1e-12));
    }
    CHECK(bucketed.name().starts_with("portfolio(step 1: "));
    CHECK(bucketed.name().find("; steps 2+: ") != std::string::npos);
    // The state carries the buckets: a restored portfolio forecasts the same, also after updates.
    auto restored = fc::Portfolio::restore(bucketed.options(), s);
    auto running = bucketed;
    for (const double v : {51.0, 55.0, 49.0}) {
        restored.update(v);
        running.update(v);
    }
    CHECK(restored.forecast(8, 0.9).mean == running.forecast(8, 0.9).mean);
    // A margin no bucket's own choice beats keeps the whole horizon's choice everywhere.
    const auto kept = fit(6, {1}, 0.99);
    CHECK(kept.state().bucket_ends.empty());
    CHECK(kept.forecast(6).mean == whole.forecast(6).mean);
    // Too few origins (168 points: 84), or block validation (a horizon of one season): no buckets.
    fc::PortfolioOptions short_options;
    short_options.season_lengths = {24};
    short_options.horizon = 6;
    short_options.horizon_buckets = {1};
    fc::Portfolio short_history(short_options);
    short_history.fit(continuum::SeriesView(std::span<const double>(y).first(168), std::chrono::hours(1), "y"));
    CHECK(short_history.state().bucket_ends.empty());
    CHECK(fit(0, {1, 3}).state().bucket_ends.empty());
    // Bad options and states name the value.
    fc::PortfolioOptions bad;
    bad.horizon_buckets = {1, 1};
    CHECK_THROWS_WITH_AS(fc::Portfolio{bad}, "portfolio: horizon_buckets must be >= 1 and increasing, got [1, 1]", continuum::InvalidArgument);
    bad.horizon_buckets = {0};
    CHECK_THROWS_WITH_AS(fc::Portfolio{bad}, "portfolio: horizon_buckets must be >= 1 and increasing, got [0]", continuum::InvalidArgument);
    bad = {};
    bad.bucket_margin = 1.0;
    CHECK_THROWS_WITH_AS(fc::Portfolio{bad}, "portfolio: bucket_margin must be in [0, 1), got 1", continuum::InvalidArgument);
    auto broken = s;
    broken.bucket_members.pop_back();
    CHECK_THROWS_WITH_AS((void)bucketed.with_state(broken), doctest::Contains("state.bucket_ends has 2 entries but state.bucket_members 1"), continuum::InvalidArgument);
    broken = s;
    broken.bucket_ends = {2, 2};
    CHECK_THROWS_WITH_AS((void)bucketed.with_state(broken), doctest::Contains("state.bucket_ends[1] = 2 must be >= 1"), continuum::InvalidArgument);
    broken = s;
    broken.bucket_members[1] = {static_cast<int>(s.members.size())};
    const std::string outside = "state.bucket_members[1][0] = " + std::to_string(s.members.size()) + " is not a member position";
    CHECK_THROWS_WITH_AS((void)bucketed.with_state(broken), doctest::Contains(outside.c_str()), continuum::InvalidArgument);
    broken.bucket_members[1] = {};
    CHECK_THROWS_WITH_AS((void)bucketed.with_state(broken), doctest::Contains("state.bucket_members[1] is empty"), continuum::InvalidArgument);
}
