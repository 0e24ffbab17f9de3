// Workload planning of the MAS-H² Workload Planning Agent (seed 004, §3.2, eq. 3): replicas =
// ceil(peak / (cpu request × target utilisation)), bounded by the policy, and the noise filter that
// keeps chatter from flapping the plan: a trailing median over the demand history, a scale-down
// window (plan = max of the recent plans, as the HPA's stabilisation) and a relative dead band.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::scalers {

/// ceil(peak / (request × target)) computed exactly: the peak enters as whole millicores (rounded
/// up, Resources::round_up_to_canonical) and the target as parts per million, so 2.31 cores at
/// 500m and 0.7 is ceil(2310 / 350) = 7 with no floating-point surprise.
/// \throws InvalidArgument when peak is negative or not finite, request_millicores <= 0, or
///         target_utilization is outside (0, 1].
[[nodiscard]] inline std::int64_t replicas_for_peak(double peak_cores, std::int64_t request_millicores, double target_utilization) {
    if (request_millicores <= 0) throw InvalidArgument(continuum::detail::message("replicas_for_peak: cpu request must be > 0 millicores, got {}", request_millicores));
    if (!(target_utilization > 0.0 && target_utilization <= 1.0)) {
        throw InvalidArgument(continuum::detail::message("replicas_for_peak: target_utilization must be in (0, 1], got {}", target_utilization));
    }
    const std::int64_t peak_millis = Resources::round_up_to_canonical("cpu", peak_cores);
    const auto target_ppm = static_cast<std::int64_t>(std::llround(target_utilization * 1e6));
    __extension__ using int128 = __int128;
    const int128 numerator = static_cast<int128>(peak_millis) * 1'000'000;
    const int128 denominator = static_cast<int128>(request_millicores) * (target_ppm > 0 ? target_ppm : 1);
    const int128 replicas = numerator / denominator + (numerator % denominator != 0 ? 1 : 0);
    if (replicas > std::numeric_limits<std::int64_t>::max()) {
        throw InvalidArgument(continuum::detail::message("replicas_for_peak: {} cores at {}m x {} needs more than int64 replicas", peak_cores, request_millicores, target_utilization));
    }
    return static_cast<std::int64_t>(replicas);
}

/// The noise filter's parameters.
struct NoiseFilter {
    /// Width of the trailing median applied to the demand history before forecasting; 1 = off.
    /// With 3, a single-sample spike (chatter) never reaches the forecaster, while a step that
    /// lasts two samples does.
    std::size_t median_window = 3;
    /// A scale-down plans the maximum of the raw plans of this window (0 = immediate).
    Duration scale_down_window = std::chrono::seconds(60);
    /// Changes of at most dead_band × current replicas are ignored (0 = off).
    double dead_band = 0.1;

    /// \throws InvalidArgument when median_window is 0, the window is negative or dead_band is
    ///         outside [0, 1).
    void validate() const {
        if (median_window == 0) throw InvalidArgument("noise filter: median_window must be >= 1");
        if (scale_down_window < Duration{0}) throw InvalidArgument(continuum::detail::message("noise filter: scale_down_window must be >= 0, got {} ms", scale_down_window.count()));
        if (!(dead_band >= 0.0 && dead_band < 1.0)) throw InvalidArgument(continuum::detail::message("noise filter: dead_band must be in [0, 1), got {}", dead_band));
    }
};

/// Trailing median of width `window` (out[i] = median of values[max(0, i-window+1) .. i]; the lower
/// median for even counts). window 1 returns the values unchanged.
template <typename Defer = void>
[[nodiscard]] std::vector<double> trailing_median(std::span<const double> values, std::size_t window) {
    std::vector<double> out(values.begin(), values.end());
    if (window <= 1) return out;
    std::vector<double> scratch;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::size_t first = i + 1 >= window ? i + 1 - window : 0;
        scratch.assign(values.begin() + static_cast<std::ptrdiff_t>(first), values.begin() + static_cast<std::ptrdiff_t>(i + 1));
        const auto mid = scratch.begin() + static_cast<std::ptrdiff_t>((scratch.size() - 1) / 2);
        std::nth_element(scratch.begin(), mid, scratch.end());
        out[i] = *mid;
    }
    return out;
}

/// One application's plan memory for the scale-down window and dead band.
template <typename Defer = void>
class BasicReplicaStabilizer {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    /// One recorded plan: its state (the samples still inside the scale-down window).
    struct Sample {
        std::int64_t replicas;
        Time time;

        friend bool operator==(const Sample&, const Sample&) = default;
    };

    BasicReplicaStabilizer() = default;
    /// A filter that remembers `samples` (its state). \throws InvalidArgument on a negative replica count.
    explicit BasicReplicaStabilizer(std::vector<Sample> samples) : samples_(std::move(samples)) {
        for (std::size_t i = 0; i < samples_.size(); ++i) {
            if (samples_[i].replicas < 0) throw InvalidArgument(continuum::detail::message("replica stabilizer: samples[{}].replicas = {} must be >= 0", i, samples_[i].replicas));
        }
    }
    [[nodiscard]] const std::vector<Sample>& samples() const { return samples_; }

    /// The filtered plan for `raw` given the current replica count; records `raw` at `now`.
    /// `why` receives a short explanation when the filter changed the plan.
    std::int64_t apply(std::int64_t raw, std::int64_t current, Time now, const NoiseFilter& filter, std::string& why) {
        std::erase_if(samples_, [&](const Sample& s) { return s.time <= now - filter.scale_down_window; });
        samples_.push_back({raw, now});
        std::int64_t plan = raw;
        if (raw < current) {
            std::int64_t highest = raw;
            for (const auto& s : samples_) highest = std::max(highest, s.replicas);
            plan = std::min(current, highest);
            if (plan != raw) why = continuum::detail::message("scale-down held at {} (highest plan in the last {} s)", plan, to_seconds(filter.scale_down_window));
        }
        if (plan != current && current > 0 &&
            static_cast<double>(plan > current ? plan - current : current - plan) <= filter.dead_band * static_cast<double>(current)) {
            why = continuum::detail::message("change {} -> {} within the {:g} dead band: keep {}", current, plan, filter.dead_band, current);
            plan = current;
        }
        return plan;
    }

private:
    Dep<std::vector<Sample>> samples_;
};

/// `ReplicaStabilizer` is `BasicReplicaStabilizer<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using ReplicaStabilizer = BasicReplicaStabilizer<>;

}  // namespace continuum::scalers
