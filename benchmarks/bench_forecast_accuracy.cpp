// Rolling-origin accuracy of the forecasting Portfolio against seasonal naive (and a plain fitted
// Holt-Winters) on every real trace in data/traces/. Not a timing benchmark: it prints one table.
//   cmake --build build --target bench_forecast_accuracy && ./build/benchmarks/bench_forecast_accuracy
// Protocol: each trace is averaged to hourly values (m = 24) and, separately, kept at 5 minutes
// (m = 288); for the last D days (D <= 7, leaving >= 5 days of history) the models are fitted on
// everything before the origin and forecast the next day; sMAPE and MASE (seasonal scale m on the
// training part) are averaged over the origins.
#include <continuum/forecast.hpp>

#include "trace_columns.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fc = continuum::forecast;

namespace {

using continuum::benchmarks::average;
using continuum::benchmarks::read_column;

struct Totals {
    double smape = 0.0, mase = 0.0;
    int count = 0;
};

template <typename MakeModel>
void evaluate(const std::vector<double>& y, int m, int days, MakeModel make, Totals& totals) {
    const auto day = static_cast<std::size_t>(m);
    for (int k = days; k >= 1; --k) {
        const std::size_t origin = y.size() - static_cast<std::size_t>(k) * day;
        const std::span<const double> train(y.data(), origin);
        const std::span<const double> actual(y.data() + origin, day);
        auto model = make();
        model.fit(continuum::SeriesView(train));
        const auto f = model.forecast(m);
        totals.smape += fc::smape(actual, f.mean);
        totals.mase += fc::mase(train, actual, f.mean, m);
        ++totals.count;
    }
}

}  // namespace

int main() {
    const std::string root = std::string(CONTINUUM_SOURCE_DIR) + "/data/traces/";
    struct Trace {
        const char* name;
        std::string path;
        int column;
        std::size_t per_hour;
    };
    const Trace traces[] = {
        {"nab/ec2_cpu_utilization_5f5533", root + "nab/ec2_cpu_utilization_5f5533.csv", 1, 12},
        {"nab/ec2_cpu_utilization_77c1ca", root + "nab/ec2_cpu_utilization_77c1ca.csv", 1, 12},
        {"nab/ec2_cpu_utilization_825cc2", root + "nab/ec2_cpu_utilization_825cc2.csv", 1, 12},
        {"nab/rds_cpu_utilization_cc0c53", root + "nab/rds_cpu_utilization_cc0c53.csv", 1, 12},
        {"nab/cpu_utilization_asg_misconfiguration", root + "nab/cpu_utilization_asg_misconfiguration.csv", 1, 12},
        {"alibaba2018/300s", root + "alibaba2018/machine_usage_days_1_to_8_grouped_300_seconds.csv", 0, 12},
        {"alibaba2018/30s", root + "alibaba2018/machine_usage_days_1_to_8_grouped_30_seconds.csv", 0, 120},
    };
    for (const bool hourly : {true, false}) {
        std::printf("\n%s data, next-day forecasts (m = %d), rolling origins over the last days\n", hourly ? "hourly" : "5-minute",
                    hourly ? 24 : 288);
        std::printf("%-42s %4s | %-17s | %-17s | %-17s | %s\n", "trace", "days", "seasonal naive", "holt-winters AAdA", "portfolio",
                    "portfolio better on both?");
        std::printf("%-42s %4s | %8s %8s | %8s %8s | %8s %8s |\n", "", "", "sMAPE", "MASE", "sMAPE", "MASE", "sMAPE", "MASE");
        for (const auto& t : traces) {
            const auto raw = read_column(t.path, t.column);
            const int m = hourly ? 24 : 288;
            const auto y = average(raw, hourly ? t.per_hour : t.per_hour / 12);
            const int days = std::min<int>(7, static_cast<int>(y.size() / static_cast<std::size_t>(m)) - 5);
            if (days < 1) continue;
            Totals naive, hw, portfolio;
            evaluate(y, m, days, [&] { return fc::SeasonalNaive(m); }, naive);
            evaluate(y, m, days, [&] {
                fc::HoltWintersSpec spec{fc::Trend::additive, true, fc::Seasonality::additive, m};
                fc::HoltWintersOptions options;
                if (m > 48) options.initialization = fc::Initialization::heuristic;
                return fc::HoltWinters<double>(spec, options);
            }, hw);
            evaluate(y, m, days, [&] {
                fc::PortfolioOptions options;
                options.season_lengths = hourly ? std::vector<int>{24, 168} : std::vector<int>{288};
                return fc::Portfolio(options);
            }, portfolio);
            const auto avg = [](const Totals& x, bool mase) { return (mase ? x.mase : x.smape) / x.count; };
            const bool better = avg(portfolio, false) < avg(naive, false) && avg(portfolio, true) < avg(naive, true);
            std::printf("%-42s %4d | %8.3f %8.4f | %8.3f %8.4f | %8.3f %8.4f | %s\n", t.name, days, avg(naive, false), avg(naive, true),
                        avg(hw, false), avg(hw, true), avg(portfolio, false), avg(portfolio, true), better ? "yes" : "NO");
        }
    }
    return 0;
}
