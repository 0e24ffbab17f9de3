// Fuzzes the Kubernetes quantity parser and printer: no crash, no UB, and for every accepted text
// the String() and canonical forms re-parse to the same value (print/parse round trip), scaled
// values agree, and the exact arithmetic either throws InvalidArgument or is consistent.
#include "fuzz_target.hpp"

#include <continuum/core/quantity.hpp>

#include <cstdint>
#include <cstdlib>
#include <string_view>

CONTINUUM_FUZZ_TARGET(quantity) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    continuum::Quantity q;
    try {
        q = continuum::Quantity::parse(text);
    } catch (const continuum::ParseError&) {
        return 0;
    }
    const std::string canonical = q.to_string();
    const continuum::Quantity again = continuum::Quantity::parse(canonical);
    // Canonical printing rounds below 1n; everything at or above nano survives exactly.
    if (q.exponent() >= continuum::scale::nano && !(again == q)) std::abort();
    for (int scale : {continuum::scale::nano, continuum::scale::milli, continuum::scale::unit, continuum::scale::kilo}) {
        try {
            const auto a = q.scaled_value(scale);
            const auto b = again.scaled_value(scale);
            if (q.exponent() >= continuum::scale::nano && a != b) std::abort();
            if (q.sign() > 0 && a <= 0) std::abort();  // rounding away from zero never reaches 0
            if (q.sign() < 0 && a >= 0) std::abort();
        } catch (const continuum::InvalidArgument&) {
        }
    }
    if (!(continuum::Quantity::parse(q.canonical_string()) == q) || !(continuum::Quantity::from_json(q.to_json()) == q)) std::abort();
    try {
        const continuum::Quantity twice = q + q;
        if (!(twice - q == q) || !(twice == q * 2) || (q.sign() != 0 && twice.cmp(q) != q.sign())) std::abort();
        if (!(-(-q) == q)) std::abort();
    } catch (const continuum::InvalidArgument&) {
    }
    return 0;
}
