// Reading the CSV traces of data/traces for the accuracy benchmarks (bench_forecast_accuracy,
// bench_forecast_horizons): one numeric column, and block means to coarser steps.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace continuum::benchmarks {

/// Column `column` (0-based) of a CSV file with one header line.
inline std::vector<double> read_column(const std::string& path, int column) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::string line;
    std::getline(in, line);  // header
    std::vector<double> out;
    while (std::getline(in, line)) {
        std::stringstream fields(line);
        std::string field;
        for (int i = 0; i <= column; ++i) std::getline(fields, field, ',');
        out.push_back(std::stod(field));
    }
    return out;
}

/// Means of consecutive blocks of `group` values (a trailing partial block is dropped).
inline std::vector<double> average(const std::vector<double>& v, std::size_t group) {
    std::vector<double> out;
    for (std::size_t i = 0; i + group <= v.size(); i += group) {
        double s = 0.0;
        for (std::size_t k = 0; k < group; ++k) s += v[i + k];
        out.push_back(s / static_cast<double>(group));
    }
    return out;
}

}  // namespace continuum::benchmarks
