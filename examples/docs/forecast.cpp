// docs/forecast.md: fit Holt-Winters on 13 days of hourly CPU, forecast the 14th, compare with the
// seasonal naive baseline, then let auto_ets and the portfolio choose a model.
#include <continuum/forecast.hpp>

#include <cmath>
#include <numbers>
#include <vector>

#include <fmt/core.h>

#include "check.hpp"

int main() {
    namespace fc = continuum::forecast;
    // Hourly CPU %: a daily cycle, a slow upward trend and some deterministic noise.
    std::vector<double> cpu;
    for (int t = 0; t < 14 * 24; ++t)
        cpu.push_back(40.0 + 10.0 * std::sin(2.0 * std::numbers::pi * t / 24.0) + 0.05 * t + 1.5 * std::sin(2.3 * t));
    const std::vector<double> history(cpu.begin(), cpu.end() - 24), next_day(cpu.end() - 24, cpu.end());

    fc::HoltWinters<double> hw({.trend = fc::Trend::additive, .damped = true,
                                .seasonal = fc::Seasonality::additive, .season_length = 24});
    hw.fit(continuum::SeriesView(history, std::chrono::hours(1)));
    const fc::Forecast f = hw.forecast(24, 0.95);  // mean, lower, upper
    fc::SeasonalNaive baseline(24);
    baseline.fit(continuum::SeriesView(history, std::chrono::hours(1)));
    const double smape_hw = fc::smape(next_day, f.mean);
    const double smape_naive = fc::smape(next_day, baseline.forecast(24).mean);
    fmt::print("{}: next-day peak {:.1f} in [{:.1f}, {:.1f}], sMAPE {:.2f} % (seasonal naive {:.2f} %)\n",
               hw.name(), f.peak(), f.lower[6], f.upper[6], smape_hw, smape_naive);
    CHECK(f.has_interval() && f.lower[6] < f.mean[6] && f.mean[6] < f.upper[6]);
    CHECK(std::abs(f.peak() - 67.1) < 2.0);  // the true mean peaks at 40 + 10 + 0.05 * 342
    CHECK(smape_hw < smape_naive);           // the trend makes seasonal naive lag

    hw.update(next_day.front());  // O(1): absorbs one observation without refitting

    auto best = fc::auto_ets(continuum::SeriesView(history, std::chrono::hours(1)), 24);  // AICc choice
    auto portfolio = fc::auto_forecaster(continuum::SeriesView(history, std::chrono::hours(1)), std::vector<int>{24});
    fc::AnyForecaster chosen = portfolio;  // runtime-typed, copyable
    const double smape_auto = fc::smape(next_day, chosen.forecast(24).mean);
    fmt::print("auto_ets: {}; portfolio: {}, sMAPE {:.2f} %\n", best.name(), portfolio.name(), smape_auto);
    CHECK(best.spec().has_season());
    CHECK(smape_auto < smape_naive);
}
