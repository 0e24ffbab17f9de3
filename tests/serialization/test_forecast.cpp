// State of the forecasters: for each type, random series, fit, updates up to a random tick, save
// (through JSON text), restore into a copy of the configured model and go on: every later forecast
// (mean and interval) is bit-identical to the model that never stopped. Bad states and documents
// are rejected naming the field.
#include "state_testing.hpp"

// g++ 12 at -O2 reports copying HoltWinters<float>'s disengaged std::optional<HoltWintersParameters>
// (known_) as "may be used uninitialized" (GCC bug 80635); clang and the -O0 header check do not.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <continuum/forecast/lstm_loader.hpp>
#include <continuum/serialization/forecast.hpp>

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <cmath>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using namespace continuum;
namespace fc = continuum::forecast;

namespace {

std::vector<double> seasonal_series(std::uint64_t seed, std::size_t n, int m = 12) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.5);
    std::vector<double> y;
    for (std::size_t t = 0; t < n; ++t) {
        y.push_back(50.0 + 0.05 * static_cast<double>(t) + 12.0 * std::sin(2.0 * M_PI * static_cast<double>(t) / m) + noise(rng));
    }
    return y;
}

void check_same(const fc::Forecast& a, const fc::Forecast& b) {
    CHECK(a.mean == b.mean);  // bit-identical: operator== on doubles, no tolerance
    CHECK(a.lower == b.lower);
    CHECK(a.upper == b.upper);
    CHECK(a.level == b.level);
}

/// Fits two copies of `prototype`, updates both to a random stop, saves the second through JSON,
/// restores it into a fresh copy of `prototype`, and compares every later forecast. `restore`
/// turns (prototype, state) into a model.
template <typename F, typename Restore>
void check_resumes(const F& prototype, std::size_t fit_points, Restore restore, std::uint64_t seeds = 6) {
    for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
        const auto y = seasonal_series(seed, fit_points + 40);
        F uninterrupted = prototype;
        F first_half = prototype;
        const SeriesView history(std::span<const double>(y).first(fit_points));
        uninterrupted.fit(history);
        first_half.fit(history);
        const std::size_t stop = fit_points + static_cast<std::size_t>(seed * 7 % 40);
        for (std::size_t t = fit_points; t < stop; ++t) {
            uninterrupted.update(y[t]);
            first_half.update(y[t]);
        }
        const auto saved = testing::through_json(first_half.state());
        F restored = restore(prototype, saved);
        CHECK(restored.state() == saved);
        check_same(uninterrupted.forecast(13, 0.9), restored.forecast(13, 0.9));
        for (std::size_t t = stop; t < y.size(); ++t) {
            uninterrupted.update(y[t]);
            restored.update(y[t]);
            check_same(uninterrupted.forecast(13, 0.8), restored.forecast(13, 0.8));
        }
        CHECK(restored.state() == uninterrupted.state());
        CHECK(restored.name() == uninterrupted.name());
    }
}

const auto by_with_state = [](const auto& prototype, const auto& state) { return prototype.with_state(state); };

}  // namespace

TEST_CASE("forecaster state: the baselines continue bit-identically after a restore") {
    check_resumes(fc::Naive{}, 30, [](const fc::Naive&, const fc::NaiveState& s) { return fc::Naive::restore(s); });
    check_resumes(fc::Drift{}, 30, [](const fc::Drift&, const fc::DriftState& s) { return fc::Drift::restore(s); });
    check_resumes(fc::SimpleExponentialSmoothing{}, 30, by_with_state);
    check_resumes(fc::SimpleExponentialSmoothing{0.3}, 30,
                  [](const auto&, const fc::SimpleExponentialSmoothingState& s) { return fc::SimpleExponentialSmoothing::restore(s); });
    check_resumes(fc::SeasonalNaive{12}, 30, [](const auto&, const fc::SeasonalNaiveState& s) { return fc::SeasonalNaive::restore(12, s); });
    check_resumes(fc::SeasonalMedian{12, 3}, 50, by_with_state);
    check_resumes(fc::MovingAverage{5}, 30, [](const auto&, const fc::MovingAverageState& s) { return fc::MovingAverage::restore(5, s); });
    check_resumes(fc::MovingMedian{5}, 30, [](const auto&, const fc::MovingMedianState& s) { return fc::MovingMedian::restore(5, s); });
    check_resumes(fc::LinearRegression{8}, 30, [](const auto&, const fc::LinearRegressionState& s) { return fc::LinearRegression::restore(8, s); });
}

TEST_CASE("forecaster state: Holt-Winters (double and float, additive and multiplicative) continues bit-identically") {
    fc::HoltWintersSpec additive;
    additive.season_length = 12;
    check_resumes(fc::HoltWinters<double>(additive), 48, [](const auto&, const fc::HoltWintersState<double>& s) { return fc::HoltWinters<double>::restore(s); }, 3);
    fc::HoltWintersSpec multiplicative = additive;
    multiplicative.seasonal = fc::Seasonality::multiplicative;
    multiplicative.damped = true;
    fc::HoltWintersOptions options;
    options.simulation_paths = 200;
    options.statsmodels_season_quirk = true;
    check_resumes(fc::HoltWinters<double>(multiplicative, options), 48, by_with_state, 2);
    const fc::HoltWinters<float> single_precision(additive);
    check_resumes(single_precision, 48, by_with_state, 2);
}

TEST_CASE("forecaster state: a Portfolio and an AnyForecaster continue bit-identically") {
    fc::PortfolioOptions options;
    options.season_lengths = {12};
    options.origins = 3;
    check_resumes(fc::Portfolio(options), 72, [&](const auto&, const fc::PortfolioState& s) { return fc::Portfolio::restore(options, s); }, 2);
    options.horizon = 3;  // walk-forward validation: the level guard's scale and recent errors are state too
    check_resumes(fc::Portfolio(options), 72, [&](const auto&, const fc::PortfolioState& s) { return fc::Portfolio::restore(options, s); }, 2);
    CHECK_FALSE(fc::Portfolio(options).state().fitted);

    // Horizon buckets (session 16): each bucket's members are state, so a restored portfolio forecasts
    // every step as the running one does (step 1 from its own bucket's members).
    options.horizon_buckets = {1};
    std::size_t bucketed = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const auto y = seasonal_series(seed, 240);
        fc::Portfolio p(options);
        p.fit(SeriesView(y));
        if (!p.state().bucket_ends.empty()) ++bucketed;
    }
    CHECK(bucketed >= 1);  // the round trips below carry buckets, not only empty lists
    check_resumes(fc::Portfolio(options), 240, [&](const auto&, const fc::PortfolioState& s) { return fc::Portfolio::restore(options, s); }, 6);

    // AnyForecaster: through ForecasterState (state_of / with_state).
    const fc::AnyForecaster any = fc::SeasonalNaive(12);
    const auto y = seasonal_series(9, 60);
    fc::AnyForecaster a = any, b = any;
    a.fit(SeriesView(std::span<const double>(y).first(30)));
    b.fit(SeriesView(std::span<const double>(y).first(30)));
    const auto saved = testing::through_json(fc::state_of(b));
    CHECK(fc::kind_of(saved) == "seasonal_naive");
    fc::AnyForecaster restored = fc::with_state(any, saved);
    for (std::size_t t = 30; t < y.size(); ++t) {
        a.update(y[t]);
        restored.update(y[t]);
        check_same(a.forecast(5, 0.9), restored.forecast(5, 0.9));
    }
    CHECK(fc::state_of(fc::with_state(fc::AnyForecaster{}, saved)) == saved);  // an empty prototype: the state's own model
}

// The AnyForecaster overloads are templates (so including forecast.hpp does not instantiate every
// model's state code): a concrete model still gets its own State, an AnyForecaster the variant, and a
// bare model state still converts to a ForecasterState in restore_forecaster.
static_assert(std::is_same_v<decltype(fc::state_of(std::declval<const fc::Naive&>())), fc::NaiveState>);
static_assert(std::is_same_v<decltype(fc::state_of(std::declval<const fc::HoltWinters<double>&>())), fc::HoltWintersState<double>>);
static_assert(std::is_same_v<decltype(fc::state_of(std::declval<const fc::AnyForecaster&>())), fc::ForecasterState>);
static_assert(std::is_same_v<fc::StateOf<fc::AnyForecaster>, fc::ForecasterState>);
static_assert(std::is_same_v<decltype(fc::with_state(std::declval<const fc::Drift&>(), fc::DriftState{})), fc::Drift>);
static_assert(std::is_same_v<decltype(fc::with_state(std::declval<const fc::AnyForecaster&>(), fc::ForecasterState{})), fc::AnyForecaster>);

TEST_CASE("forecaster state: restore_forecaster takes a bare model state") {
    const std::vector<double> history{1.0, 2.0, 7.0};
    fc::Naive naive;
    naive.fit(SeriesView(history));
    const fc::AnyForecaster restored = fc::restore_forecaster(naive.state());  // NaiveState -> ForecasterState
    CHECK(fc::kind_of(fc::state_of(restored)) == "naive");
    CHECK(restored.forecast(1, 0.9).mean.at(0) == 7.0);
}

TEST_CASE("forecaster state: an LSTM (weights and scaling in a document, window in the state) continues bit-identically") {
    const auto model = fc::load_lstm<double>(continuum_test::fixtures_dir() + "/lstm/h16_l2_f1_f64.safetensors");
    const auto parameters_text = serialization::dump(model.parameters());
    const auto parameters = serialization::parse<fc::LstmParameters<double>>(parameters_text);
    CHECK(serialization::dump(parameters) == parameters_text);
    const fc::Lstm<double> rebuilt(parameters);
    check_resumes(rebuilt, 30, [&](const auto&, const fc::LstmState<double>& s) { return fc::Lstm<double>::restore(parameters, s); }, 2);
    // The rebuilt model predicts exactly as the loaded one.
    auto a = model;
    auto b = rebuilt;
    const auto y = seasonal_series(4, 40);
    a.fit(SeriesView(y));
    b.fit(SeriesView(y));
    check_same(a.forecast(6), b.forecast(6));
}

TEST_CASE("forecaster state: unfitted models round-trip and stay unfitted") {
    const auto s = testing::through_json(fc::HoltWinters<double>().state());
    CHECK_FALSE(fc::HoltWinters<double>::restore(s).is_fitted());
    CHECK_THROWS_AS(fc::Naive::restore(testing::through_json(fc::Naive{}.state())).forecast(1), InvalidArgument);
    (void)testing::through_json(fc::Portfolio{}.state());
}

TEST_CASE("forecaster state: a state that does not match the configuration is rejected naming the field") {
    const auto y = seasonal_series(1, 60);
    fc::SeasonalNaive twelve(12);
    twelve.fit(SeriesView(y));
    CHECK_THROWS_WITH_AS(fc::SeasonalNaive(24).with_state(twelve.state()), "seasonal_naive restore: state.season_length = 12 but the configuration has 24",
                         InvalidArgument);
    auto bad = twelve.state();
    bad.last_season.pop_back();
    CHECK_THROWS_WITH_AS(twelve.with_state(bad), "seasonal_naive restore: state.last_season has 11 values, expected 12", InvalidArgument);
    bad = twelve.state();
    bad.next = 12;
    CHECK_THROWS_WITH_AS(twelve.with_state(bad), "seasonal_naive restore: state.next = 12 is not below 12", InvalidArgument);
    bad = twelve.state();
    bad.last_season[3] = std::nan("");
    CHECK_THROWS_WITH_AS(twelve.with_state(bad), "seasonal_naive restore: state.last_season[3] = nan is not a finite value within ±1.3e+150", InvalidArgument);

    fc::MovingAverage five(5);
    five.fit(SeriesView(y));
    CHECK_THROWS_WITH_AS(fc::MovingAverage(6).with_state(five.state()), "moving_average restore: state.window = 5 but the configuration has 6", InvalidArgument);
    CHECK_THROWS_WITH_AS((void)fc::SimpleExponentialSmoothing(0.5).with_state(fc::SimpleExponentialSmoothing().state()),
                         "simple_exponential_smoothing restore: state.fixed_alpha = none but the configuration has 0.5", InvalidArgument);

    fc::HoltWintersSpec spec;
    spec.season_length = 12;
    fc::HoltWinters<double> hw(spec);
    hw.fit(SeriesView(y));
    fc::HoltWintersSpec weekly = spec;
    weekly.season_length = 24;
    CHECK_THROWS_WITH_AS(fc::HoltWinters<double>(weekly).with_state(hw.state()), "holt_winters restore: state.spec.season_length = 12 but the configuration has 24",
                         InvalidArgument);
    fc::HoltWintersSpec no_trend = spec;
    no_trend.trend = fc::Trend::none;
    CHECK_THROWS_WITH_AS(fc::HoltWinters<double>(no_trend).with_state(hw.state()), "holt_winters restore: state.spec = A,A,A but the configuration has A,N,A",
                         InvalidArgument);
    auto hw_bad = hw.state();
    hw_bad.params.alpha = 1.5;
    CHECK_THROWS_WITH_AS(hw.with_state(hw_bad), "holt_winters restore: state.params: holt_winters: alpha must be in [0, 1], got 1.5", InvalidArgument);

    const fc::AnyForecaster naive = fc::Naive();
    CHECK_THROWS_WITH_AS(fc::with_state(naive, fc::ForecasterState(twelve.state())),
                         "forecaster restore: the state is of a seasonal_naive model but the configured forecaster is naive", InvalidArgument);
    CHECK_THROWS_WITH_AS(fc::state_of(fc::AnyForecaster{}), doctest::Contains("empty is not a built-in forecaster"), InvalidArgument);

    fc::PortfolioState portfolio;
    portfolio.fitted = true;
    CHECK_THROWS_WITH_AS(fc::Portfolio{}.with_state(portfolio), "portfolio restore: state.members has 0 models, expected at least one once fitted",
                         InvalidArgument);
    portfolio.members.push_back(bad);
    CHECK_THROWS_WITH_AS(fc::Portfolio{}.with_state(portfolio), "portfolio restore: state.members[0]: seasonal_naive restore: state.last_season[3] = nan is not a finite value within ±1.3e+150",
                         InvalidArgument);
}

TEST_CASE("forecaster state: documents are checked field by field") {
    const auto y = seasonal_series(1, 60);
    fc::PortfolioOptions options;
    options.season_lengths = {12};
    fc::Portfolio portfolio(options);
    portfolio.fit(SeriesView(y));
    const auto doc = serialization::to_json(portfolio.state());
    CHECK(doc["schema"] == "continuum.Portfolio");
    CHECK(doc["version"] == 1);
    using serialization::from_json;
    auto bad = doc;
    bad["members"][0]["schema"] = "continuum.Ledger";
    CHECK_THROWS_WITH_AS(from_json<fc::PortfolioState>(bad), "state document: $.members[0].schema: \"continuum.Ledger\" is not a forecaster state schema", ParseError);
    bad = doc;
    bad["members"][0]["version"] = 7;
    CHECK_THROWS_WITH_AS(from_json<fc::PortfolioState>(bad), doctest::Contains("$.members[0].version: unsupported version 7"), ParseError);
    bad = doc;
    bad["reference_season"] = 1.5;
    CHECK_THROWS_WITH_AS(from_json<fc::PortfolioState>(bad), "state document: $.reference_season: expected an integer, got number", ParseError);
    bad = doc;
    bad["validation_owa"] = -1.0;
    CHECK_THROWS_WITH_AS(from_json<fc::PortfolioState>(bad), doctest::Contains("$.validation_owa: -1 is outside [0, "), ParseError);
    bad = doc;
    bad.erase("fitted");
    CHECK_THROWS_WITH_AS(from_json<fc::PortfolioState>(bad), "state document: $.fitted: missing field", ParseError);

    fc::HoltWintersSpec spec;
    spec.season_length = 12;
    fc::HoltWinters<double> hw(spec);
    hw.fit(SeriesView(y));
    auto hw_doc = serialization::to_json(hw.state());
    hw_doc["seasons"][2] = "x";
    CHECK_THROWS_WITH_AS(from_json<fc::HoltWintersState<double>>(hw_doc), "state document: $.seasons[2]: expected a number, got string", ParseError);
    hw_doc = serialization::to_json(hw.state());
    hw_doc["spec"]["seasonal"] = "cubic";
    CHECK_THROWS_WITH_AS(from_json<fc::HoltWintersState<double>>(hw_doc), "state document: $.spec.seasonal: unknown value \"cubic\"", ParseError);
    hw_doc = serialization::to_json(hw.state());
    hw_doc["spec"]["season_length"] = 1;
    CHECK_THROWS_WITH_AS(from_json<fc::HoltWintersState<double>>(hw_doc), doctest::Contains("$.spec: holt_winters: season_length must be >= 2"), ParseError);
    CHECK_THROWS_WITH_AS((void)serialization::parse<fc::NaiveState>("{\"schema\":\"continuum.Naive\",\"version\":1,\"last\":1e999}"),
                         doctest::Contains("not valid JSON"), ParseError);
}
