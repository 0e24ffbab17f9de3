// A load profile: a value over simulated time (virtual users, CPU cores, replicas), either as k6-style
// stages that ramp linearly from one target to the next (seed 004's workload tables) or as a trace
// sampled at a fixed step and held between samples (real CPU traces, CSV files).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/series.hpp>
#include <continuum/core/time.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim {

/// One k6 stage: ramp linearly from the previous target to `target` over `duration`.
struct Stage {
    Duration duration{0};
    double target = 0.0;
};

/// How values between the profile's points are read.
enum class Interpolation {
    linear,  ///< straight line between points (k6 stages)
    hold,    ///< the last point's value until the next point (sampled traces)
};

/// A piecewise function of time starting at t = 0. Before the first point it has the first value;
/// after the last point it keeps the last value.
class LoadProfile {
public:
    LoadProfile() = default;

    /// Points (time, value) with strictly increasing times.
    /// \throws InvalidArgument when empty, a value is not finite or times do not increase.
    LoadProfile(std::vector<std::pair<Duration, double>> points, Interpolation interpolation)
        : points_(std::move(points)), interpolation_(interpolation) {
        if (points_.empty()) throw InvalidArgument("load profile: needs at least one point");
        for (std::size_t i = 0; i < points_.size(); ++i) {
            if (!std::isfinite(points_[i].second)) throw InvalidArgument(continuum::detail::message("load profile: value[{}] = {} is not finite", i, points_[i].second));
            if (i > 0 && points_[i].first <= points_[i - 1].first) {
                throw InvalidArgument(continuum::detail::message("load profile: time[{}] = {} ms does not follow time[{}] = {} ms", i, points_[i].first.count(), i - 1, points_[i - 1].first.count()));
            }
        }
    }

    /// k6 `stages`: starts at `start_value` at t = 0 and ramps linearly through each stage's target.
    /// \throws InvalidArgument for an empty list, a non-positive duration or a non-finite target.
    static LoadProfile from_stages(const std::vector<Stage>& stages, double start_value = 0.0) {
        if (stages.empty()) throw InvalidArgument("load profile: stages must not be empty");
        std::vector<std::pair<Duration, double>> points{{Duration{0}, start_value}};
        Duration t{0};
        for (std::size_t i = 0; i < stages.size(); ++i) {
            if (stages[i].duration.count() <= 0) throw InvalidArgument(continuum::detail::message("load profile: stage[{}].duration must be > 0, got {} ms", i, stages[i].duration.count()));
            t += stages[i].duration;
            points.emplace_back(t, stages[i].target);
        }
        return LoadProfile(std::move(points), Interpolation::linear);
    }

    /// Samples at a fixed `step`, held between samples (sample i covers [i*step, (i+1)*step)).
    /// \throws InvalidArgument when empty, a value is not finite or step <= 0.
    static LoadProfile from_samples(const std::vector<double>& values, Duration step) {
        if (step.count() <= 0) throw InvalidArgument(continuum::detail::message("load profile: step must be > 0, got {} ms", step.count()));
        if (values.empty()) throw InvalidArgument("load profile: samples must not be empty");
        std::vector<std::pair<Duration, double>> points;
        points.reserve(values.size() + 1);
        for (std::size_t i = 0; i < values.size(); ++i) points.emplace_back(step * static_cast<std::int64_t>(i), values[i]);
        points.emplace_back(step * static_cast<std::int64_t>(values.size()), values.back());
        return LoadProfile(std::move(points), Interpolation::hold);
    }

    /// The value at time `t` (relative to the profile's start).
    [[nodiscard]] double at(Duration t) const {
        if (points_.empty()) return 0.0;
        if (t <= points_.front().first) return points_.front().second;
        if (t >= points_.back().first) return points_.back().second;
        const auto next = std::upper_bound(points_.begin(), points_.end(), t, [](Duration x, const auto& point) { return x < point.first; });
        const auto i = static_cast<std::size_t>(next - points_.begin()) - 1;  // points_[i].first <= t < points_[i+1].first
        const auto& [t0, v0] = points_[i];
        if (interpolation_ == Interpolation::hold) return v0;
        const auto& [t1, v1] = points_[i + 1];
        const double fraction = static_cast<double>((t - t0).count()) / static_cast<double>((t1 - t0).count());
        return v0 + (v1 - v0) * fraction;
    }

    /// Time of the last point: how long the profile lasts.
    [[nodiscard]] Duration duration() const { return points_.empty() ? Duration{0} : points_.back().first; }
    [[nodiscard]] const std::vector<std::pair<Duration, double>>& points() const { return points_; }
    [[nodiscard]] Interpolation interpolation() const { return interpolation_; }

    /// Every value multiplied by `factor` and `offset` added (e.g. VUs to millicores).
    /// \throws InvalidArgument when factor or offset is not finite.
    [[nodiscard]] LoadProfile scaled(double factor, double offset = 0.0) const {
        if (!std::isfinite(factor) || !std::isfinite(offset)) throw InvalidArgument(continuum::detail::message("load profile: scale factor {} and offset {} must be finite", factor, offset));
        auto points = points_;
        for (auto& point : points) point.second = point.second * factor + offset;
        return LoadProfile(std::move(points), interpolation_);
    }

    /// Values sampled every `step` from 0 to duration() inclusive: a Series for forecasters.
    /// \throws InvalidArgument when step <= 0.
    [[nodiscard]] Series sample(Duration step) const {
        if (step.count() <= 0) throw InvalidArgument(continuum::detail::message("load profile: sample step must be > 0, got {} ms", step.count()));
        std::vector<double> out;
        for (Duration t{0}; t <= duration(); t += step) out.push_back(at(t));
        return Series(std::move(out), step, "load profile");
    }

private:
    std::vector<std::pair<Duration, double>> points_;
    Interpolation interpolation_ = Interpolation::hold;
};

/// Reads one numeric column of a CSV file with a header row (by name, or the first column when
/// `column` is empty) as samples `step` apart, e.g. the Alibaba 2018 trace in data/traces/.
/// Rows from `first_row` (0 = first data row), at most `max_rows` of them (0 = all).
/// \throws ParseError naming the file and line for a missing column or a non-numeric cell;
///         InvalidArgument when the file cannot be opened or selects no rows.
inline LoadProfile load_csv_column(const std::string& path, std::string_view column, Duration step, std::size_t first_row = 0,
                                   std::size_t max_rows = 0) {
    std::ifstream in(path);
    if (!in) throw InvalidArgument(continuum::detail::message("load_csv_column: cannot open \"{}\"", path));
    std::string line;
    if (!std::getline(in, line)) throw ParseError(continuum::detail::message("load_csv_column: \"{}\" is empty", path));
    const auto split = [](const std::string& text) {
        std::vector<std::string> cells;
        std::stringstream stream(text);
        std::string cell;
        while (std::getline(stream, cell, ',')) {
            while (!cell.empty() && (cell.back() == '\r' || cell.back() == ' ')) cell.pop_back();
            cells.push_back(cell);
        }
        return cells;
    };
    const auto header = split(line);
    std::size_t index = 0;
    if (!column.empty()) {
        const auto it = std::find(header.begin(), header.end(), column);
        if (it == header.end()) throw ParseError(continuum::detail::message("load_csv_column: \"{}\" has no column \"{}\"", path, column));
        index = static_cast<std::size_t>(it - header.begin());
    }
    std::vector<double> values;
    std::size_t row = 0;
    std::size_t line_number = 1;
    while (std::getline(in, line)) {
        ++line_number;
        if (line.empty() || line == "\r") continue;
        if (row++ < first_row) continue;
        const auto cells = split(line);
        if (index >= cells.size()) throw ParseError(continuum::detail::message("load_csv_column: \"{}\" line {} has no cell {}", path, line_number, index));
        double value = 0.0;
        try {
            std::size_t used = 0;
            value = std::stod(cells[index], &used);
            if (used != cells[index].size()) throw std::invalid_argument("trailing characters");
        } catch (const std::exception&) {
            throw ParseError(continuum::detail::message("load_csv_column: \"{}\" line {}: \"{}\" is not a number", path, line_number, cells[index]));
        }
        if (!std::isfinite(value)) throw ParseError(continuum::detail::message("load_csv_column: \"{}\" line {}: {} is not finite", path, line_number, cells[index]));
        values.push_back(value);
        if (max_rows != 0 && values.size() == max_rows) break;
    }
    if (values.empty()) throw InvalidArgument(continuum::detail::message("load_csv_column: \"{}\" has no data rows from row {}", path, first_row));
    return LoadProfile::from_samples(values, step);
}

}  // namespace continuum::sim
