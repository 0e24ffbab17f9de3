// Forecasting benchmarks: fit + 48-step forecast of ~700 hourly points (m = 24, additive damped
// trend, additive season; the input of benchmarks/holt_winters_peer.py, which times statsmodels on
// it and prints the ratio), the cost of one update(), the SSE-evaluation kernel at m = 1440, the
// portfolio by validation scheme, and 1,000 series fitted by fit_many vs one by one.
//   cmake --build build --target bench_forecast && ./build/benchmarks/bench_forecast
#include <continuum/forecast.hpp>

#include <benchmark/benchmark.h>

#include "trace_columns.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace fc = continuum::forecast;

namespace {

/// NAB cpu_utilization_asg_misconfiguration, 5-minute CPU %.
std::vector<double> asg_trace() {
    return continuum::benchmarks::read_column(std::string(CONTINUUM_SOURCE_DIR) + "/data/traces/nab/cpu_utilization_asg_misconfiguration.csv", 1);
}

/// NAB cpu_utilization_asg_misconfiguration, averaged to hourly values, first 700 hours.
const std::vector<double>& hourly_input() {
    static const std::vector<double> values = [] {
        const auto raw = asg_trace();
        std::vector<double> out;
        for (std::size_t i = 0; i + 12 <= raw.size() && out.size() < 700; i += 12) {
            double s = 0;
            for (std::size_t k = 0; k < 12; ++k) s += raw[i + k];
            out.push_back(s / 12);
        }
        return out;
    }();
    return values;
}

const fc::HoltWintersSpec damped_additive{fc::Trend::additive, true, fc::Seasonality::additive, 24};

void BM_HoltWintersFitForecast(benchmark::State& state) {
    const auto& y = hourly_input();
    fc::HoltWintersOptions options;
    options.initialization = state.range(0) ? fc::Initialization::estimated : fc::Initialization::heuristic;
    double sse = 0;
    for (auto _ : state) {
        fc::HoltWinters<double> model(damped_additive, options);
        model.fit(continuum::SeriesView(y));
        auto f = model.forecast(48);
        benchmark::DoNotOptimize(f.mean.data());
        sse = model.sse();
        state.counters["evaluations"] = static_cast<double>(model.evaluations());
    }
    state.counters["sse"] = sse;
    state.counters["n"] = static_cast<double>(y.size());
}
BENCHMARK(BM_HoltWintersFitForecast)->Arg(1)->Arg(0)->ArgName("estimated")->Unit(benchmark::kMillisecond);

void BM_HoltWintersFitForecastFloat(benchmark::State& state) {
    const auto& y = hourly_input();
    for (auto _ : state) {
        fc::HoltWinters<float> model(damped_additive);
        model.fit(continuum::SeriesView(y));
        auto f = model.forecast(48);
        benchmark::DoNotOptimize(f.mean.data());
        state.counters["sse"] = static_cast<double>(model.sse());
    }
}
BENCHMARK(BM_HoltWintersFitForecastFloat)->Unit(benchmark::kMillisecond);

void BM_HoltWintersUpdate(benchmark::State& state) {
    const auto& y = hourly_input();
    fc::HoltWinters<double> model(damped_additive);
    model.fit(continuum::SeriesView(y));
    std::size_t i = 0;
    for (auto _ : state) {
        model.update(y[i]);
        i = i + 1 == y.size() ? 0 : i + 1;
    }
    benchmark::DoNotOptimize(model.level());
}
BENCHMARK(BM_HoltWintersUpdate);

void BM_HoltWintersSseEvaluation(benchmark::State& state) {
    // One O(n) SSE evaluation (the optimiser's inner loop) at m = 1440, n = 4 days of minutes.
    const auto m = static_cast<std::size_t>(state.range(0));
    std::vector<double> y(4 * 1440);
    for (std::size_t t = 0; t < y.size(); ++t) y[t] = 50 + 10 * std::sin(2 * M_PI * double(t) / double(m)) + 0.001 * double(t % 97);
    fc::HoltWintersSpec spec{fc::Trend::additive, true, fc::Seasonality::additive, static_cast<int>(m)};
    fc::HoltWintersParameters<double> p{0.2, 0.05, 0.1, 0.98, 50, 0, std::vector<double>(m, 0.0)};
    fc::HoltWinters<double> model(spec);
    for (auto _ : state) benchmark::DoNotOptimize(model.sse_at(y, p));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * y.size()));
}
BENCHMARK(BM_HoltWintersSseEvaluation)->Arg(24)->Arg(1440);

void BM_AutoForecaster(benchmark::State& state) {
    const auto& y = hourly_input();
    for (auto _ : state) {
        auto portfolio = fc::auto_forecaster(continuum::SeriesView(y), {24, 168});
        auto f = portfolio.forecast(48);
        benchmark::DoNotOptimize(f.mean.data());
    }
}
BENCHMARK(BM_AutoForecaster)->Unit(benchmark::kMillisecond);

/// The same portfolio with an explicit validation scheme and horizon (issue 19): arg 0 = blocks at
/// one season (the default above), 1 = walk-forward at one season, 2 = automatic at 12 steps
/// (walk-forward, a scaler's short look-ahead).
void BM_PortfolioValidation(benchmark::State& state) {
    const auto& y = hourly_input();
    fc::PortfolioOptions options;
    options.season_lengths = {24, 168};
    if (state.range(0) == 1) options.validation = fc::PortfolioValidation::walk_forward;
    if (state.range(0) == 2) options.horizon = 12;
    for (auto _ : state) {
        fc::Portfolio portfolio(options);
        portfolio.fit(continuum::SeriesView(y));
        auto f = portfolio.forecast(48);
        benchmark::DoNotOptimize(f.mean.data());
    }
}
BENCHMARK(BM_PortfolioValidation)->Arg(0)->Arg(1)->Arg(2)->ArgName("scheme")->Unit(benchmark::kMillisecond);

/// 1,000 hourly series of 720 points (windows of the asg trace at 12 averaging phases and growing
/// starts), fit + forecast(48) with (A,Ad,A) and estimated states: all at once with fit_many
/// (arg 1) or one by one with fit() (arg 0). Both give every series the same fit.
const std::vector<double>& many_series() {
    static const std::vector<double> values = [] {
        const auto raw = asg_trace();
        std::vector<double> out;
        for (std::size_t i = 0; i < 1000; ++i) {
            const std::size_t phase = i % 12, start = i / 12;
            for (std::size_t t = 0; t < 720; ++t) {
                double s = 0;
                for (std::size_t k = 0; k < 12; ++k) s += raw[phase + 12 * (start + t) + k];
                out.push_back(s / 12);
            }
        }
        return out;
    }();
    return values;
}

void BM_HoltWintersFitMany(benchmark::State& state) {
    const auto& values = many_series();
    const std::size_t series = values.size() / 720;
    const fc::HoltWinters<double> model(damped_additive);
    for (auto _ : state) {
        if (state.range(0) >= 1) {
            // 1: automatic; 2, 3, 4: the portable, AVX2 or AVX-512 lanes forced.
            const auto path = static_cast<fc::LaneInstructions>(state.range(0) - 1);
            if (!fc::detail::lane_instructions_supported(path)) {
                state.SkipWithError("this CPU does not run these instructions");
                break;
            }
            const auto batch = model.fit_many(values, series, path);
            auto f = batch.forecast(48);
            benchmark::DoNotOptimize(f.data());
            std::int64_t evaluations = 0;
            for (const auto& m : batch.models()) evaluations += m.evaluations();
            state.counters["evaluations"] = static_cast<double>(evaluations) / static_cast<double>(series);
            state.counters["pruned"] = static_cast<double>(batch.pruned_evaluations()) / static_cast<double>(series);
        } else {
            for (std::size_t i = 0; i < series; ++i) {
                auto alone = model;
                alone.fit(continuum::SeriesView(std::span<const double>(values).subspan(i * 720, 720)));
                auto f = alone.forecast(48);
                benchmark::DoNotOptimize(f.mean.data());
            }
        }
    }
    state.counters["series"] = static_cast<double>(series);
}
BENCHMARK(BM_HoltWintersFitMany)->DenseRange(0, 4)->ArgName("batched")->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
