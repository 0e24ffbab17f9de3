// The value continuum-keda-scaler's GetMetrics must return, computed by calling the library directly
// on a CSV column (no Prometheus, no gRPC): fit on rows [first, first + count), update with the next
// `updates` rows, forecast `horizon` steps and print the peak of the mean (or of the upper bound at
// `level`) with 17 significant digits.
// usage: keda_forecast_reference CSV COLUMN FIRST COUNT UPDATES MODEL SEASON HORIZON LEVEL
#include <continuum/core/series.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/forecast/portfolio.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace {

std::vector<double> read_column(const std::string& path, const std::string& column) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> names;
    std::stringstream header(line);
    for (std::string name; std::getline(header, name, ',');) names.push_back(name);
    const auto index = static_cast<std::size_t>(std::find(names.begin(), names.end(), column) - names.begin());
    if (index == names.size()) throw std::invalid_argument(fmt::format("{}: no column {}", path, column));
    std::vector<double> out;
    while (std::getline(in, line)) {
        std::stringstream row(line);
        std::string cell;
        for (std::size_t i = 0; i <= index; ++i) std::getline(row, cell, ',');
        out.push_back(std::stod(cell));
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    namespace forecast = continuum::forecast;
    if (argc != 10) {
        std::fputs("usage: keda_forecast_reference CSV COLUMN FIRST COUNT UPDATES MODEL SEASON HORIZON LEVEL\n", stderr);
        return 2;
    }
    try {
        const auto values = read_column(argv[1], argv[2]);
        const auto first = std::stoul(argv[3]), count = std::stoul(argv[4]), updates = std::stoul(argv[5]);
        const std::string model = argv[6];
        const int season = std::stoi(argv[7]), horizon = std::stoi(argv[8]);
        const double level = std::stod(argv[9]);
        const continuum::SeriesView history(std::span<const double>(values).subspan(first, count), std::chrono::minutes(5));
        forecast::AnyForecaster f;
        if (model == "auto") {
            forecast::PortfolioOptions options;
            options.season_lengths = {season};
            options.horizon = horizon;
            f = forecast::Portfolio(options);
        } else {  // holt-winters: damped additive trend, additive season, fixed heuristic start for long seasons
            forecast::HoltWintersOptions options;
            if (season > 48) options.initialization = forecast::Initialization::heuristic;
            f = forecast::HoltWinters<double>({forecast::Trend::additive, true, forecast::Seasonality::additive, season}, options);
        }
        f.fit(history);
        for (std::size_t i = 0; i < updates; ++i) f.update(values[first + count + i]);
        const auto out = f.forecast(horizon, level);
        const auto& peak_of = level > 0.0 ? out.upper : out.mean;
        fmt::print("{:.17g}\n", *std::max_element(peak_of.begin(), peak_of.end()));
        return 0;
    } catch (const std::exception& e) {
        fmt::print(stderr, "keda_forecast_reference: {}\n", e.what());
        return 1;
    }
}
