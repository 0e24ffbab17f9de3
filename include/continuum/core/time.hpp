// Time in continuum: decisions never read a clock. Hosts pass "now" as a Time (milliseconds since
// an epoch of the host's choosing: Unix time, simulation start, ...) and intervals as a Duration.
// Only budgets (deadlines on exact packing or fitting) read std::chrono::steady_clock.
#pragma once

#include <chrono>
#include <cstdint>

namespace continuum {

/// An interval, in milliseconds.
using Duration = std::chrono::milliseconds;
/// A point in time: milliseconds since the host's epoch.
using Time = std::chrono::milliseconds;

/// Seconds as a double, for reports and Python.
inline double to_seconds(Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace continuum
