// Internal: item indices ordered by an unsigned 64-bit key, largest first, ties by index. An LSD
// radix sort (six 11-bit digits, digits equal for every key skipped): O(n) per digit, no comparisons,
// so it beats std::sort on the hundreds of thousands of items the decreasing heuristics sort.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace continuum::packing::detail {

/// Indices 0..keys.size()-1 by key, largest first; equal keys keep index order (stable). On
/// return `keys` holds the keys in that order.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
std::vector<std::size_t> sort_by_key_descending(std::vector<std::uint64_t>& keys) {
    const std::size_t n = keys.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (n < 2) return order;
    for (auto& k : keys) k = ~k;  // ascending complement = descending key
    constexpr std::size_t digits = 6;
    constexpr unsigned bits = 11;
    constexpr std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    std::vector<std::array<std::size_t, std::size_t{1} << bits>> count(digits);
    for (auto& c : count) c.fill(0);
    for (const auto k : keys) {
        for (std::size_t p = 0; p < digits; ++p) ++count[p][(k >> (bits * p)) & mask];
    }
    std::vector<std::uint64_t> keys_next(n);
    std::vector<std::size_t> order_next(n);
    for (std::size_t p = 0; p < digits; ++p) {
        const unsigned shift = static_cast<unsigned>(bits * p);
        auto& c = count[p];
        if (c[(keys[0] >> shift) & mask] == n) continue;  // every key has this digit
        std::size_t sum = 0;
        for (auto& slot : c) {
            const std::size_t here = slot;
            slot = sum;
            sum += here;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t at = c[(keys[i] >> shift) & mask]++;
            keys_next[at] = keys[i];
            order_next[at] = order[i];
        }
        keys.swap(keys_next);
        order.swap(order_next);
    }
    for (auto& k : keys) k = ~k;
    return order;
}

/// Indices 0..keys.size()-1 by key, largest first; equal keys keep index order (stable).
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
std::vector<std::size_t> order_by_key_descending(std::vector<std::uint64_t> keys) { return sort_by_key_descending<Defer>(keys); }

/// The bits of a finite double >= 0 as an unsigned key with the same order (IEEE 754: for
/// non-negative values the bit pattern grows with the value; -0.0 maps to 0 like +0.0).
inline std::uint64_t nonnegative_double_key(double x) {
    if (x == 0.0) return 0;
    std::uint64_t bits = 0;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
}

}  // namespace continuum::packing::detail
