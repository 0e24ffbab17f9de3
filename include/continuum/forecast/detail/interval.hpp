// Turns a mean forecast and per-step forecast standard deviations into a Forecast with a
// Gaussian prediction interval (mean ± z·sd), the form every analytic interval here takes.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/detail/normal.hpp>
#include <continuum/forecast/forecaster.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace continuum::forecast::detail {

/// `mean` with an interval at `level` (none when level == 0). `sd[i]` is the standard deviation
/// of the (i+1)-step forecast error; it must have the same size as `mean`.
inline Forecast gaussian_forecast(std::vector<double> mean, const std::vector<double>& sd, double level) {
    Forecast out;
    out.mean = std::move(mean);
    if (level > 0.0) {
        const double z = normal_critical_value(level);
        out.lower.resize(out.mean.size());
        out.upper.resize(out.mean.size());
        for (std::size_t i = 0; i < out.mean.size(); ++i) {
            out.lower[i] = out.mean[i] - z * sd[i];
            out.upper[i] = out.mean[i] + z * sd[i];
        }
        out.level = level;
    }
    return out;
}

/// \throws InvalidArgument when the model has not been fitted yet.
inline void require_fitted(bool fitted, const char* who) {
    if (!fitted) throw InvalidArgument(continuum::detail::message("{}: call fit() before forecast() or update()", who));
}

}  // namespace continuum::forecast::detail
