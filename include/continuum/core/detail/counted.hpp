// Internal: a count in words for reason sentences ("1 pod", "3 pods"), so that no reason writes
// "pod(s)". Used by drain, scale-in and the simulator's scalers; not API.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace continuum::detail {

/// "1 pod", "0 pods", "3 pods": `n` and `noun`, plural (noun + "s") unless n is 1.
[[nodiscard]] inline std::string counted(std::int64_t n, std::string_view noun) {
    std::string out = std::to_string(n);
    out += ' ';
    out += noun;
    if (n != 1) out += 's';
    return out;
}

}  // namespace continuum::detail
