// continuum-keda-scaler's ScaledObject model without a server: metadata parsing, first fit,
// incremental updates, refits, gaps, caching and state restore, each compared with the library
// called directly on the same values.
#include "scaled_object.hpp"

#include <continuum/core/error.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/forecast/lstm_loader.hpp>

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <cmath>
#include <string>
#include <vector>

using keda_scaler::ScaledObjectModel;
using keda_scaler::ScalerConfig;
namespace forecast = continuum::forecast;

namespace {

/// A daily-looking series of 24 steps per season with a little trend and a deterministic wiggle.
double series_value(std::int64_t i) {
    return 50.0 + 10.0 * std::sin(2.0 * M_PI * static_cast<double>(i) / 24.0) + 0.01 * static_cast<double>(i) +
           static_cast<double>((i * 7919) % 13) * 0.1;
}

constexpr std::int64_t step = 60;
constexpr std::int64_t origin = 1'700'000'040;  // a multiple of the step: sample i at origin + i * step

/// Prometheus stand-in: samples of series_value on the grid in [start, end], minus `missing` times;
/// records each call.
struct FakePrometheus {
    std::vector<std::int64_t> missing;
    std::vector<std::pair<std::int64_t, std::int64_t>> calls;
    keda_scaler::SampleReader reader() {
        return [this](std::int64_t start, std::int64_t end) {
            calls.emplace_back(start, end);
            std::vector<keda_scaler::Sample> out;
            for (std::int64_t t = start; t <= end; t += step) {
                if (std::find(missing.begin(), missing.end(), t) != missing.end()) continue;
                out.push_back({t, series_value((t - origin) / step)});
            }
            return out;
        };
    }
};

std::map<std::string, std::string> metadata(std::map<std::string, std::string> extra = {}) {
    std::map<std::string, std::string> m{{"query", "sum(rate(http_requests_total[2m]))"},
                                         {"queryStep", "1m"},
                                         {"threshold", "100"},
                                         {"predictHorizon", "10m"},
                                         {"historyTimeWindow", "4h"},
                                         {"seasons", "24"},
                                         {"model", "holt-winters"},
                                         {"refitInterval", "30m"}};
    for (auto& [k, v] : extra) m[k] = v;
    return m;
}

std::vector<double> values(std::int64_t first, std::int64_t count) {
    std::vector<double> out;
    for (std::int64_t i = first; i < first + count; ++i) out.push_back(series_value(i));
    return out;
}

/// Peak of the forecast of a damped additive-trend, additive-season model fitted on `fit` and updated with `updates`.
double expected_peak(const std::vector<double>& fit, const std::vector<double>& updates, int horizon, double level = 0.0) {
    forecast::HoltWinters<double> model({forecast::Trend::additive, true, forecast::Seasonality::additive, 24});
    model.fit(continuum::SeriesView(fit, std::chrono::minutes(1)));
    for (double v : updates) model.update(v);
    const auto f = model.forecast(horizon, level);
    const auto& v = level > 0.0 ? f.upper : f.mean;
    return *std::max_element(v.begin(), v.end());
}

template <typename F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const continuum::InvalidArgument& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("keda: durations as KEDA users write them") {
    CHECK(keda_scaler::parse_duration("queryStep", "30s") == 30);
    CHECK(keda_scaler::parse_duration("queryStep", "5m") == 300);
    CHECK(keda_scaler::parse_duration("predictHorizon", "1h30m") == 5400);
    CHECK(keda_scaler::parse_duration("historyTimeWindow", "7d") == 604800);
    CHECK(keda_scaler::parse_duration("historyTimeWindow", "2w") == 1209600);
    for (const char* bad : {"", "5", "m", "5x", "1.5h", "-5m", "0s"}) {
        const auto message = error_of([&] { keda_scaler::parse_duration("queryStep", bad); });
        CHECK_MESSAGE(message.find("queryStep") != std::string::npos, message);
        CHECK_MESSAGE(message.find(std::string("'") + bad + "'") != std::string::npos, message);
    }
}

TEST_CASE("keda: metadata parsing") {
    const auto c = ScalerConfig::parse(metadata({{"seasons", "1h, 2h"}, {"activationThreshold", "5.5"}, {"predictHorizon", "90s"}}), "http://prom:9090");
    CHECK(c.server_address == "http://prom:9090");
    CHECK(c.step_seconds == 60);
    CHECK(c.threshold == 100.0);
    CHECK(c.activation_threshold == 5.5);
    CHECK(c.horizon_steps == 2);  // 90 s of 60 s steps, rounded up
    CHECK(c.history_points == 240);
    CHECK(c.seasons == std::vector<int>{60, 120});
    CHECK(c.refit_seconds == 1800);
    CHECK(c.metric_name == "continuum-forecast");
    CHECK(ScalerConfig::parse(metadata({{"serverAddress", "http://other:9090"}}), "http://prom:9090").server_address == "http://other:9090");

    const auto rejects = [](std::map<std::string, std::string> m, std::initializer_list<const char*> words) {
        const auto message = error_of([&] { ScalerConfig::parse(m, "http://prom:9090"); });
        for (const char* w : words) CHECK_MESSAGE(message.find(w) != std::string::npos, message);
    };
    auto no_query = metadata();
    no_query.erase("query");
    rejects(no_query, {"query", "required"});
    auto no_threshold = metadata();
    no_threshold.erase("threshold");
    rejects(no_threshold, {"threshold", "required"});
    rejects(metadata({{"model", "prophet"}}), {"model", "prophet", "auto, holt-winters or lstm:PATH"});
    rejects(metadata({{"model", "lstm:"}}), {"model", "'lstm:'"});
    rejects(metadata({{"threshold", "lots"}}), {"threshold", "lots"});
    rejects(metadata({{"threshold", "-1"}}), {"threshold", "-1"});
    rejects(metadata({{"level", "95"}}), {"level", "95", "(0, 1)"});
    rejects(metadata({{"level", "0.9"}, {"model", "lstm:x.safetensors"}}), {"level", "lstm"});
    rejects(metadata({{"seasons", "90s"}}), {"seasons", "90 s", "multiple of queryStep"});
    rejects(metadata({{"seasons", "1"}}), {"seasons", "'1'"});
    rejects(metadata({{"historyTimeWindow", "1m"}}), {"historyTimeWindow", "fewer than 2 steps"});
    CHECK(error_of([] { ScalerConfig::parse(metadata(), ""); }).find("serverAddress") != std::string::npos);
}

TEST_CASE("keda: first fit, cached value, incremental updates, refit") {
    const auto config = ScalerConfig::parse(metadata(), "http://prom:9090");
    ScaledObjectModel model(config);
    FakePrometheus prometheus;
    // now is 20 s into step 300: the window ends at step 300 and holds steps 61..300 (240 points).
    const std::int64_t now = origin + 300 * step + 20;
    const auto first = model.evaluate(now, prometheus.reader());
    CHECK(first.refitted);
    CHECK(first.as_of == origin + 300 * step);
    REQUIRE(prometheus.calls.size() == 1);
    CHECK(prometheus.calls[0] == std::pair{origin + 61 * step, origin + 300 * step});
    CHECK(first.value == doctest::Approx(expected_peak(values(61, 240), {}, 10)).epsilon(1e-12));

    // Same step: no query, same value.
    const auto cached = model.evaluate(now + 30, prometheus.reader());
    CHECK(prometheus.calls.size() == 1);
    CHECK(cached.value == first.value);
    CHECK_FALSE(cached.refitted);

    // Three steps later: only the three new points are read and absorbed by update(), no refit.
    const auto later = model.evaluate(now + 3 * step, prometheus.reader());
    REQUIRE(prometheus.calls.size() == 2);
    CHECK(prometheus.calls[1] == std::pair{origin + 301 * step, origin + 303 * step});
    CHECK_FALSE(later.refitted);
    CHECK(later.value == doctest::Approx(expected_peak(values(61, 240), values(301, 3), 10)).epsilon(1e-12));

    // 30 minutes after the fit: refit on the last 240 points.
    const auto refit = model.evaluate(now + 30 * step, prometheus.reader());
    CHECK(refit.refitted);
    CHECK(refit.value == doctest::Approx(expected_peak(values(91, 240), {}, 10)).epsilon(1e-12));
}

TEST_CASE("keda: missing steps are interpolated so the season stays aligned") {
    const auto config = ScalerConfig::parse(metadata(), "http://prom:9090");
    ScaledObjectModel model(config);
    FakePrometheus prometheus;
    prometheus.missing = {origin + 150 * step, origin + 151 * step};
    const auto evaluation = model.evaluate(origin + 300 * step, prometheus.reader());
    auto expected = values(61, 240);
    const double before = series_value(149), after = series_value(152);
    expected[150 - 61] = before + (after - before) / 3.0;
    expected[151 - 61] = before + 2.0 * (after - before) / 3.0;
    CHECK(evaluation.value == doctest::Approx(expected_peak(expected, {}, 10)).epsilon(1e-12));
}

TEST_CASE("keda: upper bound at a level") {
    const auto config = ScalerConfig::parse(metadata({{"level", "0.9"}}), "http://prom:9090");
    ScaledObjectModel model(config);
    FakePrometheus prometheus;
    const auto evaluation = model.evaluate(origin + 300 * step, prometheus.reader());
    const double upper = expected_peak(values(61, 240), {}, 10, 0.9);
    CHECK(evaluation.value == doctest::Approx(upper).epsilon(1e-12));
    CHECK(evaluation.value > expected_peak(values(61, 240), {}, 10));
}

TEST_CASE("keda: a restored state evaluates as a run that never stopped") {
    const auto config = ScalerConfig::parse(metadata(), "http://prom:9090");
    ScaledObjectModel model(config);
    FakePrometheus prometheus;
    const std::int64_t now = origin + 300 * step;
    model.evaluate(now, prometheus.reader());
    model.evaluate(now + 5 * step, prometheus.reader());  // fitted at 300, updated to 305
    auto restored = ScaledObjectModel::restore(config, nlohmann::json::parse(model.state().dump()));
    for (const std::int64_t later : {now + 5 * step, now + 9 * step, now + 40 * step}) {
        const auto a = model.evaluate(later, prometheus.reader());
        const auto b = restored.evaluate(later, prometheus.reader());
        CHECK(a.value == b.value);  // bit for bit
        CHECK(a.as_of == b.as_of);
        CHECK(a.refitted == b.refitted);
    }
    const auto other = ScalerConfig::parse(metadata({{"seasons", "12"}}), "http://prom:9090");
    const auto message = error_of([&] { ScaledObjectModel::restore(other, model.state()); });
    CHECK(message.find("fingerprint") != std::string::npos);

    // The fitted forecaster travels as continuum's state document (no refit on restore): with the
    // history replaced, the restored model still forecasts from the saved fit.
    auto saved = model.state();
    CHECK(saved["version"] == 2);
    CHECK(saved["forecaster"]["schema"].get<std::string>().rfind("continuum.", 0) == 0);
    const double value = ScaledObjectModel::restore(config, saved).evaluate(now + 9 * step, prometheus.reader()).value;
    for (auto& v : saved["values"]) v = 0.0;
    CHECK(ScaledObjectModel::restore(config, saved).evaluate(now + 9 * step, prometheus.reader()).value == value);
    // A bad forecaster document names the field.
    saved = model.state();
    saved["forecaster"].erase("version");
    CHECK(error_of([&] { ScaledObjectModel::restore(config, saved); }) == "state.forecaster: state document: $.version: missing field");
    saved = model.state();
    saved["version"] = 1;
    CHECK(error_of([&] { ScaledObjectModel::restore(config, saved); }) == "state version 1 is not 2");

    // model "auto": the Portfolio's own state (members, scores, choices).
    const auto automatic = ScalerConfig::parse(metadata({{"model", "auto"}}), "http://prom:9090");
    ScaledObjectModel portfolio(automatic);
    portfolio.evaluate(now, prometheus.reader());
    portfolio.evaluate(now + 2 * step, prometheus.reader());
    CHECK(portfolio.state()["forecaster"]["schema"] == "continuum.Portfolio");
    auto resumed = ScaledObjectModel::restore(automatic, nlohmann::json::parse(portfolio.state().dump()));
    for (const std::int64_t later : {now + 4 * step, now + 7 * step}) {
        CHECK(portfolio.evaluate(later, prometheus.reader()).value == resumed.evaluate(later, prometheus.reader()).value);
    }
}

TEST_CASE("keda: reader errors propagate and leave the model usable") {
    const auto config = ScalerConfig::parse(metadata(), "http://prom:9090");
    ScaledObjectModel model(config);
    FakePrometheus prometheus;
    const keda_scaler::SampleReader down = [](std::int64_t, std::int64_t) -> std::vector<keda_scaler::Sample> {
        throw keda_scaler::PrometheusUnavailable("prometheus at http://prom:9090 is unavailable: refused");
    };
    CHECK_THROWS_AS(model.evaluate(origin + 300 * step, down), keda_scaler::PrometheusUnavailable);
    CHECK_FALSE(model.fitted());
    CHECK(model.evaluate(origin + 300 * step, prometheus.reader()).value == doctest::Approx(expected_peak(values(61, 240), {}, 10)).epsilon(1e-12));
    CHECK_THROWS_AS(model.evaluate(origin + 302 * step, down), keda_scaler::PrometheusUnavailable);
    CHECK(model.evaluate(origin + 302 * step, prometheus.reader()).value ==
          doctest::Approx(expected_peak(values(61, 240), values(301, 2), 10)).epsilon(1e-12));
}

TEST_CASE("keda: too little history is a FitFailed naming the model and the count") {
    const auto config = ScalerConfig::parse(metadata(), "http://prom:9090");
    ScaledObjectModel model(config);
    const keda_scaler::SampleReader short_history = [](std::int64_t, std::int64_t end) {
        return std::vector<keda_scaler::Sample>{{end - step, 1.0}, {end, 2.0}};
    };
    try {
        model.evaluate(origin + 300 * step, short_history);
        FAIL("expected FitFailed");
    } catch (const keda_scaler::FitFailed& e) {
        const std::string message = e.what();
        CHECK_MESSAGE(message.find("holt-winters on 2 points") != std::string::npos, message);
    }
}

TEST_CASE("keda: lstm:PATH loads the safetensors file and forecasts as the library does") {
    const std::string path = continuum_test::source_dir() + "/models/alibaba2018_cpu_lstm.safetensors";
    const auto config = ScalerConfig::parse(metadata({{"model", "lstm:" + path}, {"seasons", ""}}), "http://prom:9090");
    ScaledObjectModel model(config);
    FakePrometheus prometheus;
    const auto evaluation = model.evaluate(origin + 300 * step, prometheus.reader());
    auto lstm = forecast::load_lstm<float>(path);
    lstm.fit(continuum::SeriesView(values(61, 240), std::chrono::minutes(1)));
    const auto f = lstm.forecast(10);
    CHECK(evaluation.value == *std::max_element(f.mean.begin(), f.mean.end()));
    const auto message = error_of([] { ScaledObjectModel(ScalerConfig::parse(metadata({{"model", "lstm:/nonexistent/model.safetensors"}}), "x")); });
    CHECK_MESSAGE(message.find("/nonexistent/model.safetensors") != std::string::npos, message);
}
