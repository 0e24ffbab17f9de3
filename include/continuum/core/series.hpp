// Time series: values at a fixed step. A SeriesView validates once (finite values, positive step)
// so every forecaster and metric downstream can trust it without re-checking; Series owns its data.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/time.hpp>

#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum {

namespace detail {
/// \throws InvalidArgument naming `argument` and the first non-finite value and its index.
inline void require_finite(std::span<const double> values, std::string_view argument) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i])) {
            throw InvalidArgument(continuum::detail::message("{}[{}] = {} is not finite", argument, i, values[i]));
        }
    }
}
}  // namespace detail

/// A non-owning, validated view of equally spaced observations (oldest first).
class SeriesView {
public:
    /// \throws InvalidArgument when a value is NaN or infinite (naming `argument` and the index)
    ///         or the step is not positive.
    explicit SeriesView(std::span<const double> values, Duration step = std::chrono::minutes(1),
                        std::string_view argument = "series")
        : values_(values), step_(step) {
        detail::require_finite(values, argument);
        if (step.count() <= 0) throw InvalidArgument(continuum::detail::message("{}: step must be positive, got {} ms", argument, step.count()));
    }

    [[nodiscard]] std::span<const double> values() const { return values_; }
    [[nodiscard]] Duration step() const { return step_; }
    [[nodiscard]] std::size_t size() const { return values_.size(); }
    [[nodiscard]] bool empty() const { return values_.empty(); }
    [[nodiscard]] double operator[](std::size_t i) const { return values_[i]; }
    [[nodiscard]] double back() const { return values_.back(); }
    [[nodiscard]] auto begin() const { return values_.begin(); }
    [[nodiscard]] auto end() const { return values_.end(); }
    /// The last `count` observations (all of them when count >= size()).
    [[nodiscard]] SeriesView tail(std::size_t count) const {
        const std::size_t n = count >= values_.size() ? values_.size() : count;
        return SeriesView(values_.subspan(values_.size() - n), step_, trusted{});
    }
    /// Observations [first, first + count).
    [[nodiscard]] SeriesView slice(std::size_t first, std::size_t count) const {
        if (first > values_.size() || count > values_.size() - first) {
            throw InvalidArgument(continuum::detail::message("series slice [{}, {}) out of range for {} values", first, first + count, values_.size()));
        }
        return SeriesView(values_.subspan(first, count), step_, trusted{});
    }

private:
    struct trusted {};
    SeriesView(std::span<const double> values, Duration step, trusted) : values_(values), step_(step) {}

    std::span<const double> values_;
    Duration step_;
};

/// An owning, validated time series.
class Series {
public:
    Series() = default;
    /// \throws InvalidArgument as SeriesView does.
    explicit Series(std::vector<double> values, Duration step = std::chrono::minutes(1), std::string_view argument = "series")
        : values_(std::move(values)), step_(step) {
        (void)SeriesView(detail::span_of(values_), step_, argument);
    }

    [[nodiscard]] SeriesView view() const { return SeriesView(detail::span_of(values_), step_); }
    operator SeriesView() const { return view(); }  // NOLINT(google-explicit-constructor): a view of owned data
    [[nodiscard]] const std::vector<double>& values() const { return values_; }
    [[nodiscard]] Duration step() const { return step_; }
    [[nodiscard]] std::size_t size() const { return values_.size(); }
    [[nodiscard]] bool empty() const { return values_.empty(); }
    [[nodiscard]] double operator[](std::size_t i) const { return values_[i]; }

    /// Appends one observation. \throws InvalidArgument when it is not finite.
    void push_back(double value) {
        if (!std::isfinite(value)) throw InvalidArgument(continuum::detail::message("series: appended value {} is not finite", value));
        values_.push_back(value);
    }

private:
    std::vector<double> values_;
    Duration step_ = std::chrono::minutes(1);
};

}  // namespace continuum

template <>
struct fmt::formatter<continuum::SeriesView> : fmt::formatter<std::string_view> {
    template <typename FormatContext>
    auto format(const continuum::SeriesView& series, FormatContext& ctx) const {
        return fmt::formatter<std::string_view>::format(
            continuum::detail::message("Series(n={}, step={}s)", series.size(), continuum::to_seconds(series.step())), ctx);
    }
};

template <>
struct fmt::formatter<continuum::Series> : fmt::formatter<continuum::SeriesView> {
    template <typename FormatContext>
    auto format(const continuum::Series& series, FormatContext& ctx) const {
        return fmt::formatter<continuum::SeriesView>::format(series.view(), ctx);
    }
};
