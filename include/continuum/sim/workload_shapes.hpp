// The workloads of the seed papers' experiments as load profiles: seed 004's Heartbeat and Chaotic
// Flash Sale k6 tables (virtual users) with a documented VU -> CPU model, seed 000's linearly rising
// and falling replica count, and seed 001's bursty CPU demand; all deterministic given a seed.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/series.hpp>
#include <continuum/core/time.hpp>
#include <continuum/sim/detail/random.hpp>
#include <continuum/sim/load_profile.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim {

using namespace std::chrono_literals;

/// Seed 004, Table 1: three heartbeats (30 s ramp to 400 VUs, 2 min hold, 30 s ramp to 10 VUs,
/// 1 min trough) and a 1 min cool-down to 0: 13 minutes of k6 stages.
inline std::vector<Stage> heartbeat_stages() {
    std::vector<Stage> stages;
    for (int beat = 0; beat < 3; ++beat) {
        stages.push_back({30s, 400});
        stages.push_back({2min, 400});
        stages.push_back({30s, 10});
        stages.push_back({1min, 10});
    }
    stages.push_back({1min, 0});
    return stages;
}

/// Seed 004, Table 2 (Chaotic Flash Sale): chatter (2 min 20, 1 min 50, 1 min 20 VUs), chaotic
/// ramp-up (30 s 200, 1 min 150, 30 s 400, 1 min 300), sustained peak (4 min 700, the policy switch
/// happens here), drop-off (1 min 50), cool-down (2 min 50, 1 min 0): 15 minutes.
inline std::vector<Stage> flash_sale_stages() {
    return {{2min, 20}, {1min, 50}, {1min, 20},  {30s, 200}, {1min, 150}, {30s, 400},
            {1min, 300}, {4min, 700}, {1min, 50}, {2min, 50}, {1min, 0}};
}

/// When the Flash Sale's COST_SAVING -> PERFORMANCE switch happens: "shortly before the sustained
/// peak load is reached" — we take 30 s into the 4-minute peak stage's ramp (t = 6 min 30 s).
inline constexpr Duration flash_sale_policy_switch_at{6 * 60'000 + 30'000};

/// The VU -> CPU model for seed 004's Nginx under k6 (the paper gives no figure): each virtual user
/// looping on a static page costs `millicores_per_vu` of Nginx CPU, plus an idle floor per deployment.
/// Defaults: 2 m/VU, 5 m idle, so 400 VUs need 0.805 cores: 4 pods of 250m at 80 % (the HPA target)
/// and 8 pods at 40 % (seed 004 reports HPA at >80 % and MAS-H² at 8 replicas below 40 %).
struct VuToCpu {
    double millicores_per_vu = 2.0;
    double idle_millicores = 5.0;

    /// CPU cores for `profile` in VUs. \throws InvalidArgument for negative or non-finite parameters.
    [[nodiscard]] LoadProfile cores(const LoadProfile& vus) const {
        if (!std::isfinite(millicores_per_vu) || millicores_per_vu < 0 || !std::isfinite(idle_millicores) || idle_millicores < 0) {
            throw InvalidArgument(continuum::detail::message("VuToCpu: millicores_per_vu ({}) and idle_millicores ({}) must be finite and >= 0", millicores_per_vu, idle_millicores));
        }
        return vus.scaled(millicores_per_vu / 1000.0, idle_millicores / 1000.0);
    }
};

/// `profile` sampled every `step` with multiplicative Gaussian noise of relative standard deviation
/// `relative_sigma` (values stay >= 0), held between samples: k6 traffic is never as smooth as its
/// stages. Deterministic given `seed`.
/// \throws InvalidArgument for step <= 0 or a negative or non-finite sigma.
inline LoadProfile with_noise(const LoadProfile& profile, Duration step, double relative_sigma, std::uint64_t seed) {
    if (!std::isfinite(relative_sigma) || relative_sigma < 0) throw InvalidArgument(continuum::detail::message("with_noise: relative_sigma must be finite and >= 0, got {}", relative_sigma));
    if (step.count() <= 0) throw InvalidArgument(continuum::detail::message("with_noise: step must be > 0, got {} ms", step.count()));
    detail::Random random(seed);
    std::vector<double> values;
    for (Duration t{0}; t < profile.duration(); t += step) values.push_back(std::max(0.0, profile.at(t) * (1.0 + relative_sigma * random.normal())));
    if (values.empty()) values.push_back(profile.at(Duration{0}));
    return LoadProfile::from_samples(values, step);
}

/// Seed 000's Figure 2 shape: the replica count of a stress-ng deployment, idle, then rising
/// linearly to `peak`, holding, falling linearly back, idle again. Read it with std::lround.
struct RisingFallingReplicas {
    double start = 0;
    double peak = 8;
    Duration idle_before = 10min;
    Duration rise = 25min;
    Duration hold = 10min;
    Duration fall = 25min;
    Duration idle_after = 20min;

    /// \throws InvalidArgument for a negative count or a non-positive phase duration.
    [[nodiscard]] LoadProfile profile() const {
        if (start < 0 || peak < 0) throw InvalidArgument(continuum::detail::message("RisingFallingReplicas: start ({}) and peak ({}) must be >= 0", start, peak));
        return LoadProfile::from_stages({{idle_before, start}, {rise, peak}, {hold, peak}, {fall, start}, {idle_after, start}}, start);
    }
};

/// Seed 001's workload: namespace CPU demand (cores) per minute with a base level, a slow wave,
/// noise, bursts that recur every `burst_period` (a forecaster can learn them) and `surprise_bursts`
/// at random times (it cannot). The paper gives no numbers beyond the fixed 100-CPU quota; the
/// defaults put the mean near 56 cores (so 100 CPUs is ~178 % of it) with bursts well above 100.
struct BurstyCpu {
    Duration duration = 6h;
    /// Samples generated before t = 0, handed to forecasters as training history.
    Duration history = 4h;
    Duration step = 1min;
    double base_cores = 48;
    double wave_amplitude = 8;
    Duration wave_period = 3h;
    double noise_cores = 2;
    Duration burst_period = 1h;
    Duration burst_offset = 35min;
    Duration burst_length = 6min;
    double burst_cores = 62;
    int surprise_bursts = 3;
    std::uint64_t seed = 1;

    struct Result {
        /// The demand before t = 0 (history / step samples).
        Series history;
        /// The demand from t = 0, held per step.
        LoadProfile load;
        /// Burst intervals [begin, end) in simulation time.
        std::vector<std::pair<Duration, Duration>> bursts;
    };

    /// \throws InvalidArgument for non-positive durations or step, or negative levels.
    [[nodiscard]] Result generate() const {
        if (step.count() <= 0 || duration < step || history.count() < 0 || burst_period.count() <= 0 || burst_length.count() <= 0 || wave_period.count() <= 0) {
            throw InvalidArgument("BurstyCpu: step, duration, burst_period, burst_length and wave_period must be > 0 (duration >= step), history >= 0");
        }
        if (base_cores < 0 || burst_cores < 0 || noise_cores < 0 || wave_amplitude < 0 || surprise_bursts < 0) {
            throw InvalidArgument(continuum::detail::message("BurstyCpu: levels must be >= 0 (base {}, burst {}, noise {}, wave {}, surprises {})", base_cores, burst_cores, noise_cores, wave_amplitude, surprise_bursts));
        }
        detail::Random random(seed);
        const auto history_steps = history / step;
        const auto run_steps = duration / step;
        // Surprise bursts: random start inside the run, away from the periodic ones.
        std::vector<std::pair<Duration, Duration>> bursts;
        for (Duration begin = burst_offset; begin < duration; begin += burst_period) bursts.emplace_back(begin, begin + burst_length);
        std::vector<std::pair<Duration, Duration>> surprises;
        for (int i = 0; i < surprise_bursts; ++i) {
            for (int attempt = 0; attempt < 100; ++attempt) {
                const auto begin = step * static_cast<std::int64_t>(random.below(static_cast<std::uint64_t>(std::max<std::int64_t>(1, run_steps - burst_length / step))));
                const auto end = begin + burst_length;
                const auto clear = [&](const auto& other) { return end + 10min <= other.first || other.second + 10min <= begin; };
                if (std::all_of(bursts.begin(), bursts.end(), clear) && std::all_of(surprises.begin(), surprises.end(), clear)) {
                    surprises.emplace_back(begin, end);
                    break;
                }
            }
        }
        const auto in_burst = [&](Duration t, const std::vector<std::pair<Duration, Duration>>& intervals) {
            return std::any_of(intervals.begin(), intervals.end(), [&](const auto& b) { return b.first <= t && t < b.second; });
        };
        const auto periodic_burst = [&](Duration t) {  // also before t = 0, so history shows the pattern
            auto phase = (t - burst_offset) % burst_period;
            if (phase.count() < 0) phase += burst_period;
            return phase < burst_length;
        };
        std::vector<double> past;
        std::vector<double> future;
        for (std::int64_t k = -history_steps; k < run_steps; ++k) {
            const Duration t = step * k;
            const double wave = wave_amplitude * std::sin(2.0 * std::numbers::pi * static_cast<double>(t.count()) / static_cast<double>(wave_period.count()));
            double value = base_cores + wave + noise_cores * random.normal();
            if (periodic_burst(t) || (k >= 0 && in_burst(t, surprises))) value += burst_cores * (0.9 + 0.2 * random.uniform());
            (k < 0 ? past : future).push_back(std::max(0.0, value));
        }
        bursts.insert(bursts.end(), surprises.begin(), surprises.end());
        std::sort(bursts.begin(), bursts.end());
        return Result{Series(std::move(past), step, "bursty history"), LoadProfile::from_samples(future, step), std::move(bursts)};
    }
};

}  // namespace continuum::sim
