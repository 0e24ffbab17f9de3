// Holt-Winters: parity with statsmodels 0.13.5 (fixtures from tests/fixtures/gen_holt_winters.py),
// exact gradients, hand-checked recursions and bad input.
#include <continuum/forecast/holt_winters.hpp>

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace fc = continuum::forecast;

namespace {

struct Case {
    std::string name;
    std::map<std::string, std::vector<double>> numbers;
    std::map<std::string, std::string> words;
    [[nodiscard]] const std::vector<double>& operator[](const std::string& key) const { return numbers.at(key); }
    [[nodiscard]] double value(const std::string& key) const { return numbers.at(key).at(0); }
    [[nodiscard]] bool has(const std::string& key) const { return numbers.count(key) > 0; }
    [[nodiscard]] fc::HoltWintersSpec spec() const {
        fc::HoltWintersSpec spec;
        spec.trend = words.at("trend") == "add" ? fc::Trend::additive : fc::Trend::none;
        spec.damped = words.at("damped") == "1";
        const auto& s = words.at("seasonal");
        spec.seasonal = s == "add" ? fc::Seasonality::additive : s == "mul" ? fc::Seasonality::multiplicative : fc::Seasonality::none;
        spec.season_length = std::stoi(words.at("m"));
        if (spec.season_length == 0) spec.season_length = 2;
        return spec;
    }
};

std::vector<Case> read_fixture(const std::string& file) {
    std::ifstream in(continuum_test::fixtures_dir() + "/forecast/" + file);
    REQUIRE(in.good());
    std::vector<Case> cases;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream tokens(line);
        std::string key;
        tokens >> key;
        if (key == "case") {
            cases.emplace_back();
            tokens >> cases.back().name;
        } else if (key == "end") {
            continue;
        } else if (key == "trend" || key == "damped" || key == "seasonal" || key == "m") {
            tokens >> cases.back().words[key];
        } else {
            std::vector<double> values;
            std::string token;
            while (tokens >> token) values.push_back(std::stod(token));
            cases.back().numbers[key] = std::move(values);
        }
    }
    REQUIRE(!cases.empty());
    return cases;
}

double relative_error(double actual, double expected) {
    return std::fabs(actual - expected) / std::max(1.0, std::fabs(expected));
}

}  // namespace

TEST_CASE("holt_winters known mode matches statsmodels fitted values, states and forecasts to 1e-9") {
    for (const auto& c : read_fixture("hw_known.txt")) {
        CAPTURE(c.name);
        const auto spec = c.spec();
        fc::HoltWintersParameters<double> p{c.value("alpha"), c.value("beta"), c.value("gamma"), c.value("phi"),
                                            c.value("initial_level"), c.value("initial_trend"),
                                            c.has("initial_seasons") ? c["initial_seasons"] : std::vector<double>{}};
        for (const bool quirk : {false, true}) {
            fc::HoltWintersOptions options;
            options.statsmodels_season_quirk = quirk;
            auto model = fc::HoltWinters<double>::known(spec, p, options);
            model.fit(continuum::SeriesView(c["y"]));
            const auto fitted = model.fitted_values();
            REQUIRE(fitted.size() == c["fitted"].size());
            double worst = 0.0;
            for (std::size_t i = 0; i < fitted.size(); ++i) worst = std::max(worst, relative_error(fitted[i], c["fitted"][i]));
            CHECK(worst < 1e-9);
            CHECK(relative_error(model.sse(), c.value("sse")) < 1e-9);
            CHECK(relative_error(model.aicc(), c.value("aicc")) < 1e-9);
            CHECK(relative_error(model.level(), c.value("final_level")) < 1e-9);
            CHECK(relative_error(model.trend(), c.value("final_trend")) < 1e-9);
            if (spec.has_season()) {
                const auto seasons = model.seasons();
                for (std::size_t j = 0; j < seasons.size(); ++j) CHECK(relative_error(seasons[j], c["final_seasons"][j]) < 1e-9);
            }
            const auto& expected = c["forecast"];
            const auto forecast = model.forecast(static_cast<int>(expected.size()));
            const auto m = static_cast<std::size_t>(spec.period());
            for (std::size_t h = 1; h <= expected.size(); ++h) {
                CAPTURE(h);
                if (quirk || m == 0 || h % m != 0) {
                    CHECK(relative_error(forecast.mean[h - 1], expected[h - 1]) < 1e-9);
                } else {
                    // statsmodels issue #9538: at h = k·m it uses the season before the last update;
                    // the correct forecast uses the final season (model.seasons()).
                    const double trended = forecast.mean[h - 1] - (spec.seasonal == fc::Seasonality::additive ? model.seasons()[m - 1] : 0.0);
                    (void)trended;
                    const double season = model.seasons()[m - 1];
                    const double phi_h = [&] {
                        double s = 0.0, power = 1.0;
                        for (std::size_t i = 0; i < h; ++i) s += (power *= p.phi);
                        return spec.has_trend() ? s : 0.0;
                    }();
                    const double base = model.level() + phi_h * model.trend();
                    const double correct = spec.seasonal == fc::Seasonality::additive ? base + season : base * season;
                    CHECK(relative_error(forecast.mean[h - 1], correct) < 1e-9);
                }
            }
        }
    }
}

TEST_CASE("holt_winters fitted SSE is no worse than statsmodels' by more than 0.1 %") {
    double worst_ratio = 0.0;
    for (const char* file : {"hw_fit.txt", "hw_fit_long.txt"}) {
        for (const auto& c : read_fixture(file)) {
            CAPTURE(c.name);
            const auto spec = c.spec();
            const continuum::SeriesView y(c["y"]);
            if (c.has("sse_estimated")) {
                fc::HoltWinters<double> model(spec);
                model.fit(y);
                CHECK(model.sse() <= c.value("sse_estimated") * 1.001);
                const auto& p = model.params();
                CHECK(p.beta <= p.alpha);
                CHECK(p.gamma <= 1.0 - p.alpha);
                worst_ratio = std::max(worst_ratio, model.sse() / c.value("sse_estimated"));
            }
            fc::HoltWintersOptions options;
            options.initialization = fc::Initialization::heuristic;
            fc::HoltWinters<double> model(spec, options);
            model.fit(y);
            CHECK(model.sse() <= c.value("sse_heuristic") * 1.001);
            worst_ratio = std::max(worst_ratio, model.sse() / c.value("sse_heuristic"));
            if (spec.damped) {
                CHECK(model.params().phi >= 0.8);
                CHECK(model.params().phi <= 0.995);
            }
        }
    }
    CHECK(worst_ratio <= 1.001);
    MESSAGE("worst SSE ratio continuum / statsmodels over all fixtures: ", worst_ratio);
}

TEST_CASE("holt_winters initial states match statsmodels' heuristic and simple rules") {
    for (const auto& c : read_fixture("hw_init.txt")) {
        CAPTURE(c.name);
        const auto spec = c.spec();
        const std::span<const double> y(c["y"]);
        for (const char* label : {"heuristic", "simple"}) {
            CAPTURE(label);
            if (std::string(label) == "heuristic" && y.size() < fc::heuristic_minimum_length(spec)) continue;
            const auto states = std::string(label) == "heuristic" ? fc::heuristic_initial_states(y, spec) : fc::simple_initial_states(y, spec);
            CHECK(relative_error(states.level, c.value(std::string(label) + "_level")) < 1e-12);
            CHECK(relative_error(states.trend, c.value(std::string(label) + "_trend")) < 1e-12);
            if (spec.has_season()) {
                const auto& expected = c[std::string(label) + "_seasons"];
                REQUIRE(states.seasons.size() == expected.size());
                for (std::size_t j = 0; j < expected.size(); ++j) CHECK(relative_error(states.seasons[j], expected[j]) < 1e-12);
            }
        }
    }
}

namespace {
template <fc::Seasonality S, bool T, bool N>
void check_gradient(const std::vector<double>& y, std::size_t m) {
    CAPTURE(static_cast<int>(S));
    CAPTURE(T);
    CAPTURE(N);
    const fc::detail::HoltWintersCoefficients<double> c{0.3, 0.15, 0.25, 0.9};
    fc::detail::HoltWintersState<double> start;
    start.level = 10.0;
    start.trend = T ? 0.2 : 0.0;
    if (S != fc::Seasonality::none) {
        for (std::size_t j = 0; j < m; ++j) start.seasons.push_back(S == fc::Seasonality::multiplicative ? 1.0 + 0.1 * std::sin(double(j)) : std::sin(double(j)));
    }
    const auto sse = [&](fc::detail::HoltWintersCoefficients<double> cc, fc::detail::HoltWintersState<double> s) {
        return fc::detail::holt_winters_forward<double, S, T, N>(y, cc, s, {}, {});
    };
    std::vector<double> trace(3 * y.size());
    auto state = start;
    (void)fc::detail::holt_winters_forward<double, S, T, N>(y, c, state, {}, trace);
    fc::detail::HoltWintersGradient<double> g;
    fc::detail::holt_winters_backward<double, S, T, N>(y, c, trace, m, g);
    const double h = 1e-6;
    const auto central = [&](auto perturb) {
        auto cp = c, cm = c;
        auto sp = start, sm = start;
        perturb(cp, sp, h);
        perturb(cm, sm, -h);
        return (sse(cp, sp) - sse(cm, sm)) / (2 * h);
    };
    const auto close = [](double a, double b) { return std::fabs(a - b) <= 1e-5 * std::max(1.0, std::fabs(b)); };
    CHECK(close(g.alpha, central([](auto& cc, auto&, double d) { cc.alpha += d; })));
    CHECK(close(g.level, central([](auto&, auto& s, double d) { s.level += d; })));
    if (T) {
        CHECK(close(g.beta, central([](auto& cc, auto&, double d) { cc.beta += d; })));
        CHECK(close(g.phi, central([](auto& cc, auto&, double d) { cc.phi += d; })));
        CHECK(close(g.trend, central([](auto&, auto& s, double d) { s.trend += d; })));
    }
    if (S != fc::Seasonality::none) {
        CHECK(close(g.gamma, central([](auto& cc, auto&, double d) { cc.gamma += d; })));
        for (std::size_t j = 0; j < m; ++j) {
            CHECK(close(g.seasons[j], central([j](auto&, auto& s, double d) { s.seasons[j] += d; })));
        }
    }
}
}  // namespace

TEST_CASE("the adjoint gradient matches central differences for every smoother") {
    std::vector<double> y;
    for (int t = 0; t < 37; ++t) y.push_back(10.0 + 0.1 * t + 2.0 * std::sin(t * 1.3) + 0.5 * std::cos(t * 0.7));
    check_gradient<fc::Seasonality::none, false, false>(y, 0);
    check_gradient<fc::Seasonality::none, true, false>(y, 0);
    check_gradient<fc::Seasonality::additive, false, false>(y, 5);
    check_gradient<fc::Seasonality::additive, true, false>(y, 5);
    check_gradient<fc::Seasonality::additive, true, true>(y, 5);
    check_gradient<fc::Seasonality::multiplicative, false, false>(y, 4);
    check_gradient<fc::Seasonality::multiplicative, true, false>(y, 4);
    check_gradient<fc::Seasonality::multiplicative, true, true>(y, 4);
}

TEST_CASE("both seasonal update forms, computed by hand") {
    // m = 2, no trend, y = 4 4 4 4, ℓ0 = 4, s0 = (−1, 1), α = γ = 0.5.
    const std::vector<double> y{4, 4, 4, 4};
    fc::HoltWintersSpec spec{fc::Trend::none, false, fc::Seasonality::additive, 2};
    const fc::HoltWintersParameters<double> p{0.5, 0.0, 0.5, 1.0, 4.0, 0.0, {-1.0, 1.0}};
    auto previous = fc::HoltWinters<double>::known(spec, p);
    previous.fit(continuum::SeriesView(y));
    CHECK(previous.sse() == doctest::Approx(3.953125));
    CHECK(previous.level() == doctest::Approx(3.9375));
    CHECK(previous.seasons() == std::vector<double>{-0.125, 0.0625});
    CHECK(previous.forecast(2).mean == std::vector<double>{3.8125, 4.0});
    spec.season_update = fc::SeasonUpdate::new_level;  // R stats::HoltWinters
    auto winters = fc::HoltWinters<double>::known(spec, p);
    winters.fit(continuum::SeriesView(y));
    CHECK(winters.sse() == doctest::Approx(5.015625));
    CHECK(winters.level() == doctest::Approx(3.8125));
    CHECK(winters.seasons() == std::vector<double>{-0.5, 0.40625});
    CHECK(winters.forecast(2).mean == std::vector<double>{3.3125, 4.21875});
}

TEST_CASE("update() absorbs observations exactly as a longer fit would") {
    const auto cases = read_fixture("hw_known.txt");
    for (const auto& c : cases) {
        if (c.name.rfind("synthetic_m7", 0) != 0) continue;
        CAPTURE(c.name);
        const fc::HoltWintersParameters<double> p{c.value("alpha"), c.value("beta"), c.value("gamma"), c.value("phi"), c.value("initial_level"),
                                                  c.value("initial_trend"), c.has("initial_seasons") ? c["initial_seasons"] : std::vector<double>{}};
        const auto& y = c["y"];
        auto full = fc::HoltWinters<double>::known(c.spec(), p);
        full.fit(continuum::SeriesView(y));
        auto partial = fc::HoltWinters<double>::known(c.spec(), p);
        partial.fit(continuum::SeriesView(std::span<const double>(y).first(y.size() - 9)));
        for (std::size_t i = y.size() - 9; i < y.size(); ++i) partial.update(y[i]);
        const auto a = full.forecast(10, 0.9), b = partial.forecast(10, 0.9);
        for (std::size_t h = 0; h < 10; ++h) {
            CHECK(b.mean[h] == doctest::Approx(a.mean[h]).epsilon(1e-12));
            CHECK(b.upper[h] == doctest::Approx(a.upper[h]).epsilon(1e-12));
        }
    }
}

TEST_CASE("holt_winters<float> follows the double smoother to single precision") {
    for (const auto& c : read_fixture("hw_known.txt")) {
        if (c.name.rfind("ec2_5f5533", 0) != 0) continue;
        CAPTURE(c.name);
        fc::HoltWintersParameters<float> p{float(c.value("alpha")), float(c.value("beta")), float(c.value("gamma")), float(c.value("phi")),
                                           float(c.value("initial_level")), float(c.value("initial_trend")), {}};
        if (c.has("initial_seasons")) {
            for (double s : c["initial_seasons"]) p.initial_seasons.push_back(float(s));
        }
        auto model = fc::HoltWinters<float>::known(c.spec(), p);
        model.fit(continuum::SeriesView(c["y"]));
        for (std::size_t i = 0; i < c["fitted"].size(); ++i) CHECK(relative_error(model.fitted_values()[i], c["fitted"][i]) < 1e-4);
    }
    // and fits: the optimiser runs in double on a float objective
    const auto c = read_fixture("hw_fit.txt").front();
    fc::HoltWinters<float> model(c.spec());
    model.fit(continuum::SeriesView(c["y"]));
    CHECK(model.sse() <= c.value("sse_estimated") * 1.001);
}

TEST_CASE("prediction intervals: analytic for additive models, seeded simulation for multiplicative") {
    // A (A,N,N) Holt-Winters is SES: σ_h = σ·sqrt(1 + α²(h − 1)).
    std::vector<double> y;
    for (int t = 0; t < 60; ++t) y.push_back(20.0 + 3.0 * std::sin(t * 0.9) + 0.05 * t);
    const fc::HoltWintersParameters<double> p{0.4, 0.0, 0.0, 1.0, y[0], 0.0, {}};
    auto hw = fc::HoltWinters<double>::known({fc::Trend::none, false, fc::Seasonality::none, 2}, p);
    hw.fit(continuum::SeriesView(y));
    const auto f = hw.forecast(5, 0.95);
    for (int h = 1; h <= 5; ++h) {
        CHECK(f.upper[h - 1] - f.mean[h - 1] == doctest::Approx(1.959963984540054 * hw.sigma() * std::sqrt(1 + 0.16 * (h - 1))));
    }
    // Multiplicative season: simulated quantiles, deterministic for a seed, bracketing the mean.
    const auto c = read_fixture("hw_fit.txt").front();
    fc::HoltWintersOptions options;
    options.simulation_seed = 42;
    fc::HoltWinters<double> mul({fc::Trend::additive, true, fc::Seasonality::multiplicative, 24}, options);
    mul.fit(continuum::SeriesView(c["y"]));
    const auto a = mul.forecast(30, 0.9), b = mul.forecast(30, 0.9);
    CHECK(a.lower == b.lower);
    CHECK(a.upper == b.upper);
    for (std::size_t h = 0; h < 30; ++h) {
        CHECK(a.lower[h] <= a.mean[h]);
        CHECK(a.mean[h] <= a.upper[h]);
        CHECK(std::isfinite(a.lower[h]));
    }
    CHECK(a.upper[29] - a.lower[29] > a.upper[0] - a.lower[0]);
    // the 1-step interval is the Gaussian one: ±1.645σ up to simulation error
    CHECK((a.upper[0] - a.lower[0]) / (2 * 1.6448536269514722 * mul.sigma()) == doctest::Approx(1.0).epsilon(0.08));
}

TEST_CASE("holt_winters bad input names the argument") {
    const fc::HoltWintersSpec seasonal{fc::Trend::additive, true, fc::Seasonality::additive, 24};
    fc::HoltWinters<double> model(seasonal);
    std::vector<double> short_series(47, 1.0);
    CHECK_THROWS_WITH_AS(model.fit(continuum::SeriesView(short_series)), doctest::Contains("needs at least 2*season_length = 48"),
                         continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS(fc::HoltWinters<double>({fc::Trend::none, false, fc::Seasonality::additive, 1}), doctest::Contains("season_length must be >= 2 for a seasonal model, got 1"),
                         continuum::InvalidArgument);
    CHECK_THROWS_AS(fc::HoltWinters<double>({fc::Trend::none, true, fc::Seasonality::none, 2}), continuum::InvalidArgument);
    std::vector<double> with_zero(60, 5.0);
    with_zero[13] = 0.0;
    fc::HoltWinters<double> mul({fc::Trend::none, false, fc::Seasonality::multiplicative, 4});
    CHECK_THROWS_WITH_AS(mul.fit(continuum::SeriesView(with_zero)), doctest::Contains("series[13] = 0"), continuum::InvalidArgument);
    std::vector<double> nan_series(60, 5.0);
    nan_series[7] = std::nan("");
    CHECK_THROWS_WITH_AS(model.fit_values(nan_series), doctest::Contains("series[7]"), continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS((void)model.forecast(3), doctest::Contains("fit()"), continuum::InvalidArgument);
    std::vector<double> y(60);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = double(i % 24);
    model.fit(continuum::SeriesView(y));
    CHECK_THROWS_WITH_AS((void)model.forecast(0), doctest::Contains("horizon must be >= 1"), continuum::InvalidArgument);
    CHECK_THROWS_AS(model.update(std::nan("")), continuum::InvalidArgument);
    CHECK_THROWS_AS(fc::HoltWinters<double>::known(seasonal, {1.5, 0, 0, 0.9, 0, 0, std::vector<double>(24)}), continuum::InvalidArgument);
    CHECK_THROWS_WITH_AS(fc::HoltWinters<double>::known(seasonal, {0.5, 0, 0, 0.9, 0, 0, std::vector<double>(3)}), doctest::Contains("24 values"),
                         continuum::InvalidArgument);
    fc::HoltWintersOptions heuristic;
    heuristic.initialization = fc::Initialization::heuristic;
    fc::HoltWinters<double> short_season({fc::Trend::none, false, fc::Seasonality::additive, 4}, heuristic);
    CHECK_THROWS_WITH_AS(short_season.fit(continuum::SeriesView(std::vector<double>(12, 1.0))), doctest::Contains("needs at least 14"),
                         continuum::InvalidArgument);
}

TEST_CASE("constant and all-zero series fit without NaN") {
    for (const double value : {0.0, 7.5}) {
        CAPTURE(value);
        const std::vector<double> y(100, value);
        for (const auto season : {fc::Seasonality::none, fc::Seasonality::additive, fc::Seasonality::multiplicative}) {
            if (season == fc::Seasonality::multiplicative && value == 0.0) continue;
            for (const bool damped : {false, true}) {
                fc::HoltWinters<double> model({damped ? fc::Trend::additive : fc::Trend::none, damped, season, 12});
                model.fit(continuum::SeriesView(y));
                const auto f = model.forecast(30, 0.95);
                for (std::size_t h = 0; h < 30; ++h) {
                    CHECK(f.mean[h] == doctest::Approx(value));
                    CHECK(std::isfinite(f.lower[h]));
                    CHECK(std::isfinite(f.upper[h]));
                }
                CHECK(std::isfinite(model.aic()));
                CHECK(!std::isnan(model.aicc()));
            }
        }
    }
}

TEST_CASE("a decaying damped trend reaches exactly zero instead of lingering as a subnormal") {
    const std::vector<double> y(48, 10.0);
    const fc::HoltWintersParameters<double> p{0.2, 0.0, 0.1, 0.8, 10.0, 1.0, std::vector<double>(4, 0.0)};
    auto model = fc::HoltWinters<double>::known({fc::Trend::additive, true, fc::Seasonality::additive, 4}, p);
    model.fit(continuum::SeriesView(y));
    for (int i = 0; i < 4000; ++i) model.update(10.0);
    CHECK(model.trend() == 0.0);  // 0.8^k·b rounds to 2 ulp forever without the flush
    CHECK(model.forecast(1).mean[0] == doctest::Approx(10.0));
}

TEST_CASE("refit warm-starts from the last fit and reaches statsmodels' SSE on the longer history") {
    int refitted = 0;
    std::int64_t warm_evaluations = 0, cold_evaluations = 0;
    for (const auto& c : read_fixture("hw_fit.txt")) {
        if (!c.has("sse_estimated")) continue;
        CAPTURE(c.name);
        const auto spec = c.spec();
        const auto& y = c["y"];
        const std::size_t prefix = y.size() * 4 / 5;
        fc::HoltWinters<double> model(spec);
        try {
            model.fit(continuum::SeriesView(std::span<const double>(y.data(), prefix)));
        } catch (const continuum::InvalidArgument&) {
            continue;  // the prefix is too short for this model
        }
        model.refit(continuum::SeriesView(y));
        fc::HoltWinters<double> cold(spec);
        cold.fit(continuum::SeriesView(y));
        CHECK(model.sse() <= c.value("sse_estimated") * 1.001);
        warm_evaluations += model.evaluations();
        cold_evaluations += cold.evaluations();
        CHECK(model.params().beta <= model.params().alpha);
        CHECK(model.params().gamma <= 1.0 - model.params().alpha);
        ++refitted;
    }
    CHECK(refitted >= 5);
    CHECK(2 * warm_evaluations < cold_evaluations);  // not every refit is cheaper, but together at least twice
    MESSAGE("evaluations over ", refitted, " refits: warm ", warm_evaluations, ", cold ", cold_evaluations);
    // Before any fit, refit is fit (same search, same result).
    const auto c = read_fixture("hw_fit.txt").front();
    fc::HoltWinters<double> fresh(c.spec()), reference(c.spec());
    fresh.refit(continuum::SeriesView(c["y"]));
    reference.fit(continuum::SeriesView(c["y"]));
    CHECK(fresh.sse() == reference.sse());
    CHECK(fresh.evaluations() == reference.evaluations());
}

TEST_CASE("refit_together gives every model the fit refit() alone gives it") {
    std::mt19937_64 rng(19);
    std::normal_distribution<double> noise(0.0, 1.5);
    std::vector<double> y;
    for (int t = 0; t < 300; ++t) y.push_back(50.0 + 10.0 * std::sin(2.0 * std::numbers::pi * t / 12.0) + 0.05 * t + noise(rng));
    const continuum::SeriesView prefix(std::span<const double>(y.data(), 240)), history(y);
    const auto spec = [](fc::Trend trend, fc::Seasonality season, int m) { return fc::HoltWintersSpec{trend, trend == fc::Trend::additive, season, m}; };
    fc::HoltWintersOptions heuristic;
    heuristic.initialization = fc::Initialization::heuristic;
    std::vector<fc::HoltWinters<double>> models{
        fc::HoltWinters<double>(spec(fc::Trend::none, fc::Seasonality::additive, 12)),                 // paired with the next ones (additive season)
        fc::HoltWinters<double>(spec(fc::Trend::additive, fc::Seasonality::additive, 12)),
        fc::HoltWinters<double>(spec(fc::Trend::none, fc::Seasonality::additive, 24), heuristic),
        fc::HoltWinters<double>(spec(fc::Trend::additive, fc::Seasonality::additive, 24), heuristic),
        fc::HoltWinters<double>(spec(fc::Trend::additive, fc::Seasonality::multiplicative, 12)),        // evaluated alone
        fc::HoltWinters<double>(spec(fc::Trend::none, fc::Seasonality::additive, 200)),                 // 300 points < two seasons: fails
        fc::HoltWinters<double>::known(spec(fc::Trend::none, fc::Seasonality::none, 2), {0.4, 0.0, 0.0, 1.0, 50.0, 0.0, {}}),
    };
    // Warm starts for some (refit from a fit on the first 240 points), cold fits for the others.
    models[1].fit(prefix);
    models[2].fit(prefix);
    models[4].fit(prefix);
    auto alone = models;
    std::vector<bool> expected;
    for (auto& model : alone) {
        try {
            model.refit(history);
            expected.push_back(true);
        } catch (const continuum::InvalidArgument&) {
            expected.push_back(false);
        }
    }
    std::vector<fc::HoltWinters<double>*> pointers;
    for (auto& model : models) pointers.push_back(&model);
    const auto fitted = fc::HoltWinters<double>::refit_together(pointers, history);
    CHECK(fitted == std::vector<bool>{true, true, true, true, true, false, true});
    CHECK(fitted == expected);
    for (std::size_t i = 0; i < models.size(); ++i) {
        CAPTURE(i);
        if (!fitted[i]) continue;
        CHECK(models[i].sse() == alone[i].sse());  // bit for bit
        CHECK(models[i].evaluations() == alone[i].evaluations());
        CHECK(models[i].converged() == alone[i].converged());
        CHECK(models[i].params() == alone[i].params());
        CHECK(models[i].forecast(30).mean == alone[i].forecast(30).mean);
    }
    CHECK(models[0].evaluations() > 32 + 2);  // a cold fit: the 32-point grid and two L-BFGS runs
    CHECK(models[1].evaluations() < 96);      // a warm refit: one L-BFGS run, no 96-point grid
    // A null entry is named, and no model is touched.
    const double sse_before = models[0].sse();
    std::vector<fc::HoltWinters<double>*> with_null{&models[0], nullptr};
    CHECK_THROWS_WITH_AS(static_cast<void>(fc::HoltWinters<double>::refit_together(with_null, history)),
                         "holt_winters refit_together: models[1] is null", continuum::InvalidArgument);
    CHECK(models[0].sse() == sse_before);
}
