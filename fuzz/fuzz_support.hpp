// Shared helpers for the libFuzzer targets in fuzz/: a failure macro that names the violated
// invariant (so a crash report says what broke, not only where), and decoders turning fuzzer bytes
// into bounded numeric inputs (interesting magnitudes, int64 edges, small counts).
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

/// Aborts (libFuzzer records the input) with the invariant's text when `condition` is false.
#define CONTINUUM_FUZZ_CHECK(condition)                                                            \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            std::fprintf(stderr, "invariant violated at %s:%d: %s\n", __FILE__, __LINE__, #condition); \
            std::abort();                                                                          \
        }                                                                                          \
    } while (0)

namespace continuum::fuzz {

/// An int64 amount biased towards the values that break arithmetic: 0, 1, small, powers of two,
/// near int64 max, negative. `allow_negative` = false folds negatives to their magnitude.
inline std::int64_t amount(FuzzedDataProvider& in, bool allow_negative = false) {
    std::int64_t v = 0;
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
        case 0: v = 0; break;
        case 1: v = in.ConsumeIntegralInRange<std::int64_t>(1, 16); break;
        case 2: v = in.ConsumeIntegralInRange<std::int64_t>(1, 4000); break;
        case 3: v = in.ConsumeIntegralInRange<std::int64_t>(1, std::int64_t{1} << 40); break;
        case 4: v = std::int64_t{1} << in.ConsumeIntegralInRange<int>(0, 62); break;
        case 5: v = std::numeric_limits<std::int64_t>::max() - in.ConsumeIntegralInRange<std::int64_t>(0, 3); break;
        case 6: v = in.ConsumeIntegral<std::int64_t>(); break;
        default: v = in.ConsumeIntegralInRange<std::int64_t>(1, 1'000'000); break;
    }
    if (!allow_negative && v < 0) v = v == std::numeric_limits<std::int64_t>::min() ? 0 : -v;
    return v;
}

/// A finite double biased towards extreme magnitudes (1e-12, 1e12, subnormals, 0, negatives).
inline double finite_double(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: return 0.0;
        case 1: return in.ConsumeFloatingPointInRange<double>(-1e12, 1e12);
        case 2: return in.ConsumeFloatingPointInRange<double>(0.0, 1e-12);
        case 3: return in.ConsumeFloatingPointInRange<double>(0.0, 1000.0);
        case 4: return std::ldexp(1.0, in.ConsumeIntegralInRange<int>(-1074, 1000));
        default: {
            const double v = in.ConsumeFloatingPoint<double>();
            return std::isfinite(v) ? v : 1.0;
        }
    }
}

/// Every double in `values` is finite.
inline bool all_finite(const std::vector<double>& values) {
    for (const double v : values) {
        if (!std::isfinite(v)) return false;
    }
    return true;
}

}  // namespace continuum::fuzz
