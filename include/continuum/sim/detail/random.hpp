// Portable seeded randomness for the simulator: std::mt19937_64 is specified bit for bit by the
// standard, but the std distributions are not, so uniform and normal draws are computed here.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace continuum::sim::detail {

class Random {
public:
    explicit Random(std::uint64_t seed) : engine_(seed) {}
    /// Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    /// Uniform in [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    /// Standard normal (Box-Muller; one draw per call, the second value is discarded for simplicity).
    double normal() {
        const double u1 = 1.0 - uniform();  // (0, 1]
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }
    /// Integer in [0, n), n >= 1.
    std::uint64_t below(std::uint64_t n) { return static_cast<std::uint64_t>(uniform() * static_cast<double>(n)); }

private:
    std::mt19937_64 engine_;
};

}  // namespace continuum::sim::detail
