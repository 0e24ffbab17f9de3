// Allocation-free reads and writes of continuum::Resources for the hybrid tick's hot loop: a tick
// over thousands of namespaces reads a handful of named amounts per namespace and writes a few
// small Resources into reused decision buffers. Resources holds a sorted vector of
// (std::string, int64), so Resources::get pays a binary search of three-way string compares and a
// copy assignment re-copies every name. These helpers compare names for equality only (length
// first), and skip a write whose result the destination already holds.
#pragma once

#include <continuum/core/resources.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

namespace continuum::quota::detail {

/// a == b, inline and word by word (std::string_view's == calls memcmp whenever the lengths agree,
/// which for names of a few bytes costs more than the compare itself).
[[nodiscard, gnu::always_inline]] inline bool same_name(std::string_view a, std::string_view b) noexcept {
    const std::size_t n = a.size();
    if (n != b.size()) return false;
    const char* x = a.data();
    const char* y = b.data();
    const auto word = [](const char* p) {
        std::uint64_t w = 0;
        std::memcpy(&w, p, sizeof w);
        return w;
    };
    const auto half = [](const char* p) {
        std::uint32_t w = 0;
        std::memcpy(&w, p, sizeof w);
        return w;
    };
    if (n >= 8) {  // 8-byte words, the last one overlapping its predecessor
        for (std::size_t i = 0; i + 8 < n; i += 8) {
            if (word(x + i) != word(y + i)) return false;
        }
        return word(x + n - 8) == word(y + n - 8);
    }
    if (n >= 4) return half(x) == half(y) && half(x + n - 4) == half(y + n - 4);
    if (n == 0) return true;
    return x[0] == y[0] && x[n / 2] == y[n / 2] && x[n - 1] == y[n - 1];  // every byte of 1 to 3
}

/// r.get(name) by a linear scan with equality compares (a Resources has a few entries).
template <typename Defer = void>  // compiled only where called (issue 21)
[[nodiscard]] std::int64_t amount(const Resources& r, std::string_view name) noexcept {
    for (const auto& [key, value] : r.entries()) {
        if (same_name(key, name)) return value;
    }
    return 0;
}

/// a == b, comparing amounts before names.
template <typename Defer = void>  // compiled only where called (issue 21)
[[nodiscard]] bool same(const Resources& a, const Resources& b) noexcept {
    const auto& x = a.entries();
    const auto& y = b.entries();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i].second != y[i].second || !same_name(x[i].first, y[i].first)) return false;
    }
    return true;
}

/// dst = src, without touching dst when it already holds src.
inline void assign(Resources& dst, const Resources& src) {
    if (!same(dst, src)) dst = src;
}

/// dst = empty, without touching dst when it already is.
inline void clear(Resources& dst) {
    if (!dst.empty()) dst = Resources{};
}

/// dst = `base` with names[k] set to values[k] for every k with values[k] >= 0 (0 removes it;
/// values[k] < 0 keeps base's amount). `names` must be unique. dst is left untouched when it
/// already holds that result, so a reused buffer costs no allocation and no string copy.
template <typename Defer = void>  // compiled only where called (issue 21)
void write_overlay(Resources& dst, const Resources& base, std::span<const std::string> names, std::span<const std::int64_t> values) {
    // Size of the result: base's entries, minus the overridden ones base has, plus the non-zero overrides.
    std::size_t size = base.size();
    for (std::size_t k = 0; k < names.size(); ++k) {
        if (values[k] < 0) continue;
        if (amount(base, names[k]) != 0) --size;
        if (values[k] != 0) ++size;
    }
    bool equal = dst.size() == size;
    for (auto it = dst.begin(); equal && it != dst.end(); ++it) {
        std::int64_t expected = -1;
        for (std::size_t k = 0; k < names.size() && expected < 0; ++k) {
            if (values[k] >= 0 && same_name(names[k], it->first)) expected = values[k];
        }
        if (expected < 0) expected = amount(base, it->first);
        equal = expected == it->second;
    }
    // Every entry of dst (unique, non-zero) is an entry of the result and the sizes agree: equal.
    if (equal) return;
    dst = base;
    for (std::size_t k = 0; k < names.size(); ++k) {
        if (values[k] >= 0) dst.set(names[k], values[k]);
    }
}

}  // namespace continuum::quota::detail
