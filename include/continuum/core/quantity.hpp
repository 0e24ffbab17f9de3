// Kubernetes resource quantities ("250m", "1.5Gi", "2e3"), parsed and printed exactly as
// k8s.io/apimachinery/pkg/api/resource does: the same grammar, the same suffixes, values rounded
// *away from zero* when asked for at a coarser scale (0.0001 CPU -> 1m), and the same canonical
// form when printed (largest suffix that keeps the number an integer; "1536Mi", "1500m", "2").
#pragma once

#include <continuum/core/error.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace continuum {

/// How a quantity was written, and so how it prints (apimachinery's resource.Format).
enum class QuantityFormat {
    decimal_si,        ///< n u m "" k M G T P E
    binary_si,         ///< Ki Mi Gi Ti Pi Ei
    decimal_exponent,  ///< 1e3, 1E-3
};

/// Powers of ten used with Quantity::scaled_value (apimachinery's resource.Scale).
namespace scale {
inline constexpr int nano = -9;
inline constexpr int micro = -6;
inline constexpr int milli = -3;
inline constexpr int unit = 0;
inline constexpr int kilo = 3;
inline constexpr int mega = 6;
inline constexpr int giga = 9;
inline constexpr int tera = 12;
inline constexpr int peta = 15;
inline constexpr int exa = 18;
}  // namespace scale

namespace detail {

inline constexpr std::array<std::int64_t, 19> powers_of_ten = {
    1LL,
    10LL,
    100LL,
    1000LL,
    10000LL,
    100000LL,
    1000000LL,
    10000000LL,
    100000000LL,
    1000000000LL,
    10000000000LL,
    100000000000LL,
    1000000000000LL,
    10000000000000LL,
    100000000000000LL,
    1000000000000000LL,
    10000000000000000LL,
    100000000000000000LL,
    1000000000000000000LL,
};

/// value / 10^digits, rounded away from zero; digits >= 0.
inline std::int64_t divide_by_power_of_ten_away_from_zero(std::int64_t value, int digits) {
    if (value == 0 || digits == 0) return value;
    if (digits > 18) return value > 0 ? 1 : -1;  // |value| < 10^19 <= 10^digits
    const std::int64_t divisor = powers_of_ten[static_cast<std::size_t>(digits)];
    std::int64_t quotient = value / divisor;
    if (value % divisor != 0) quotient += value > 0 ? 1 : -1;
    return quotient;
}

/// value * 10^digits, or false when that leaves int64; digits >= 0.
inline bool multiply_by_power_of_ten(std::int64_t value, int digits, std::int64_t& out) {
    if (value == 0) {
        out = 0;
        return true;
    }
    if (digits > 18) return false;
    std::int64_t result = 0;
    if (__builtin_mul_overflow(value, powers_of_ten[static_cast<std::size_t>(digits)], &result)) return false;
    out = result;
    return true;
}

}  // namespace detail

/// An exact Kubernetes resource quantity: mantissa x 10^exponent, plus the format it prints in.
///
/// Like apimachinery, parsing rounds every value away from zero to a whole number of nano units
/// ("3.001n" is 4n) and a binary quantity below one unit becomes decimal SI. continuum then holds
/// up to 18 significant digits (19 when they fit in int64) exactly; longer inputs round away from
/// zero at the 18th digit (apimachinery keeps arbitrary precision there).
/// Magnitudes above INT64_MAX base units ("10E", "8Ei") are rejected at parse time.
class Quantity {
public:
    /// Zero, decimal SI.
    constexpr Quantity() = default;

    /// Parses a quantity with apimachinery's grammar:
    ///   [+-] digits [. digits] suffix,  suffix = "" | n u m k M G T P E | Ki Mi Gi Ti Pi Ei | (e|E)[+-]digits
    /// \throws ParseError naming the text when it does not follow the grammar or overflows int64.
    static Quantity parse(std::string_view text);

    /// The quantity value x 10^exponent_of_ten, i.e. `value x 10^-exponent` in units of 10^exponent.
    /// Example: from_scaled(250, scale::milli) is "250m".
    static Quantity from_scaled(std::int64_t value, int exponent, QuantityFormat format = QuantityFormat::decimal_si) {
        Quantity q;
        q.mantissa_ = value;
        q.exponent_ = exponent;
        q.format_ = format;
        q.normalise();
        if (q.exponent_ > 0) {
            std::int64_t whole = 0;
            if (!detail::multiply_by_power_of_ten(q.mantissa_, q.exponent_, whole)) {
                throw InvalidArgument(fmt::format("quantity {}e{} does not fit in int64 whole units", value, exponent));
            }
        }
        return q;
    }

    /// The value expressed in units of 10^scale_exponent, rounded away from zero when not exact
    /// (apimachinery's ScaledValue: "0.0001" at scale::milli is 1).
    /// \throws InvalidArgument when the result does not fit in int64.
    [[nodiscard]] std::int64_t scaled_value(int scale_exponent) const {
        const long long shift = static_cast<long long>(exponent_) - scale_exponent;
        if (shift >= 0) {
            std::int64_t out = 0;
            if (!detail::multiply_by_power_of_ten(mantissa_, shift > 18 ? 19 : static_cast<int>(shift), out)) {
                throw InvalidArgument(fmt::format("quantity {} does not fit in int64 at scale 10^{}", to_string(), scale_exponent));
            }
            return out;
        }
        return detail::divide_by_power_of_ten_away_from_zero(mantissa_, shift < -19 ? 19 : static_cast<int>(-shift));
    }

    /// Whole units, rounded away from zero ("1500m" -> 2).
    [[nodiscard]] std::int64_t value() const { return scaled_value(scale::unit); }
    /// Thousandths of a unit, rounded away from zero ("0.0001" -> 1).
    [[nodiscard]] std::int64_t milli_value() const { return scaled_value(scale::milli); }

    [[nodiscard]] QuantityFormat format() const { return format_; }
    [[nodiscard]] bool is_zero() const { return mantissa_ == 0; }
    [[nodiscard]] int sign() const { return (mantissa_ > 0) - (mantissa_ < 0); }
    /// The exact value is mantissa() x 10^exponent(), with no trailing zeros in the mantissa.
    [[nodiscard]] std::int64_t mantissa() const { return mantissa_; }
    [[nodiscard]] int exponent() const { return exponent_; }

    /// The canonical string, as apimachinery's Quantity.String(): binary quantities print with
    /// the largest Ki..Ei suffix that keeps an integer (falling back to decimal below 1024 or when
    /// fractional), decimal ones with the largest n..E suffix (or e<3k>) that keeps an integer.
    /// Values finer than 1n round away from zero to 1n.
    [[nodiscard]] std::string to_string() const;

    /// Equal values compare equal whatever their format ("1Ki" == "1024").
    friend bool operator==(const Quantity& a, const Quantity& b) {
        return a.mantissa_ == b.mantissa_ && (a.mantissa_ == 0 || a.exponent_ == b.exponent_);
    }

private:
    void normalise() {
        if (mantissa_ == 0) {
            exponent_ = 0;
            return;
        }
        while (mantissa_ % 10 == 0) {
            mantissa_ /= 10;
            ++exponent_;
        }
    }

    std::int64_t mantissa_ = 0;
    int exponent_ = 0;
    QuantityFormat format_ = QuantityFormat::decimal_si;
};

/// Shorthand for Quantity::parse(text).scaled_value(scale_exponent).
/// \throws ParseError for malformed text, InvalidArgument when the scaled value leaves int64.
inline std::int64_t parse_quantity(std::string_view text, int scale_exponent = scale::unit) {
    return Quantity::parse(text).scaled_value(scale_exponent);
}

/// Canonical Kubernetes text for `value x 10^scale_exponent` ("format_quantity(1500, scale::milli)"
/// is "1500m"; with QuantityFormat::binary_si, 1610612736 bytes is "1536Mi").
inline std::string format_quantity(std::int64_t value, int scale_exponent = scale::unit,
                                   QuantityFormat format = QuantityFormat::decimal_si) {
    return Quantity::from_scaled(value, scale_exponent, format).to_string();
}

// ------------------------------------------------------------------------------------------------

namespace detail {

/// Little-endian decimal digits of a non-negative integer of any length.
struct DecimalDigits {
    std::vector<std::uint8_t> digits;  // least significant first

    void multiply_by_power_of_two(int power) {
        while (power > 0) {
            const int step = power > 20 ? 20 : power;
            const std::uint64_t factor = std::uint64_t{1} << step;
            std::uint64_t carry = 0;
            for (auto& digit : digits) {
                const std::uint64_t product = digit * factor + carry;
                digit = static_cast<std::uint8_t>(product % 10);
                carry = product / 10;
            }
            while (carry > 0) {
                digits.push_back(static_cast<std::uint8_t>(carry % 10));
                carry /= 10;
            }
            power -= step;
        }
    }
    void strip_leading_zeros() {
        while (!digits.empty() && digits.back() == 0) digits.pop_back();
    }
};

[[noreturn]] inline void throw_quantity_parse_error(std::string_view text, std::string_view why) {
    throw ParseError(fmt::format("quantity {} is not a Kubernetes quantity: {}", quoted(text), why));
}

}  // namespace detail

inline Quantity Quantity::parse(std::string_view text) {
    using detail::throw_quantity_parse_error;
    if (text.empty()) throw_quantity_parse_error(text, "empty string");
    std::size_t pos = 0;
    bool negative = false;
    if (text[pos] == '+' || text[pos] == '-') {
        negative = text[pos] == '-';
        ++pos;
    }
    const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
    const std::size_t integer_begin = pos;
    while (pos < text.size() && is_digit(text[pos])) ++pos;
    const std::string_view integer_digits = text.substr(integer_begin, pos - integer_begin);
    std::string_view fraction_digits;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        const std::size_t fraction_begin = pos;
        while (pos < text.size() && is_digit(text[pos])) ++pos;
        fraction_digits = text.substr(fraction_begin, pos - fraction_begin);
    }
    if (integer_digits.empty() && fraction_digits.empty()) throw_quantity_parse_error(text, "no digits before the suffix");

    // Suffix -> power of ten, power of two, format.
    const std::string_view suffix = text.substr(pos);
    long long exponent_of_ten = 0;
    int exponent_of_two = 0;
    QuantityFormat format = QuantityFormat::decimal_si;
    struct SuffixEntry {
        std::string_view text;
        int ten;
        int two;
    };
    static constexpr std::array<SuffixEntry, 16> table = {{
        {"", 0, 0},    {"n", -9, 0},  {"u", -6, 0},  {"m", -3, 0},  {"k", 3, 0},   {"M", 6, 0},
        {"G", 9, 0},   {"T", 12, 0},  {"P", 15, 0},  {"E", 18, 0},  {"Ki", 0, 10}, {"Mi", 0, 20},
        {"Gi", 0, 30}, {"Ti", 0, 40}, {"Pi", 0, 50}, {"Ei", 0, 60},
    }};
    bool known = false;
    for (const auto& entry : table) {
        if (entry.text == suffix) {
            exponent_of_ten = entry.ten;
            exponent_of_two = entry.two;
            format = entry.two != 0 ? QuantityFormat::binary_si : QuantityFormat::decimal_si;
            known = true;
            break;
        }
    }
    if (!known) {
        if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
            std::size_t p = 1;
            bool exponent_negative = false;
            if (suffix[p] == '+' || suffix[p] == '-') {
                exponent_negative = suffix[p] == '-';
                ++p;
            }
            if (p == suffix.size()) throw_quantity_parse_error(text, "exponent has no digits");
            long long exponent = 0;
            for (; p < suffix.size(); ++p) {
                if (!is_digit(suffix[p])) throw_quantity_parse_error(text, fmt::format("unknown suffix \"{}\"", suffix));
                exponent = exponent * 10 + (suffix[p] - '0');
                if (exponent > 1'000'000) throw_quantity_parse_error(text, "exponent out of range");
            }
            exponent_of_ten = exponent_negative ? -exponent : exponent;
            format = QuantityFormat::decimal_exponent;
        } else {
            throw_quantity_parse_error(text, fmt::format("unknown suffix \"{}\"", suffix));
        }
    }

    // Exact digits of integer.fraction x 2^exponent_of_two, as an integer times a power of ten.
    detail::DecimalDigits digits;
    digits.digits.reserve(integer_digits.size() + fraction_digits.size() + 20);
    for (auto it = fraction_digits.rbegin(); it != fraction_digits.rend(); ++it) digits.digits.push_back(static_cast<std::uint8_t>(*it - '0'));
    for (auto it = integer_digits.rbegin(); it != integer_digits.rend(); ++it) digits.digits.push_back(static_cast<std::uint8_t>(*it - '0'));
    digits.strip_leading_zeros();
    long long exponent = exponent_of_ten - static_cast<long long>(fraction_digits.size());
    Quantity result;
    result.format_ = format;
    if (digits.digits.empty()) return result;  // zero, whatever the suffix
    digits.multiply_by_power_of_two(exponent_of_two);
    // apimachinery rounds every non-zero value up (away from zero) to a whole number of nano units
    // at parse time: "if you want some resources, you should get some resources".
    if (exponent < scale::nano) {
        const long long drop = scale::nano - exponent;
        if (drop >= static_cast<long long>(digits.digits.size())) {
            digits.digits.assign(1, 1);
        } else {
            bool dropped_nonzero = false;
            for (long long i = 0; i < drop; ++i) dropped_nonzero = dropped_nonzero || digits.digits[static_cast<std::size_t>(i)] != 0;
            digits.digits.erase(digits.digits.begin(), digits.digits.begin() + drop);
            for (std::size_t i = 0; dropped_nonzero; ++i) {  // add one, carrying
                if (i == digits.digits.size()) digits.digits.push_back(0);
                dropped_nonzero = ++digits.digits[i] == 10;
                if (dropped_nonzero) digits.digits[i] = 0;
            }
        }
        exponent = scale::nano;
    }
    // A binary quantity below one unit prints (and is kept) as decimal SI, like apimachinery.
    if (format == QuantityFormat::binary_si) {
        const long long integer_digits_count = static_cast<long long>(digits.digits.size()) + exponent;
        if (integer_digits_count <= 0) format = QuantityFormat::decimal_si;
    }
    result.format_ = format;
    std::size_t first = 0;  // drop trailing decimal zeros into the exponent
    while (digits.digits[first] == 0) ++first;
    exponent += static_cast<long long>(first);
    // Keep the significant digits when they fit in int64 (up to 19), otherwise 18 of them,
    // rounding the rest away from zero.
    std::size_t keep_from = first;
    const std::size_t significant = digits.digits.size() - first;
    bool fits = significant <= 18;
    if (significant == 19) {
        std::uint64_t all = 0;
        for (std::size_t i = digits.digits.size(); i-- > first;) all = all * 10 + digits.digits[i];
        fits = all <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    }
    bool dropped_nonzero = false;
    if (!fits) {
        keep_from = digits.digits.size() - 18;
        for (std::size_t i = first; i < keep_from; ++i) dropped_nonzero = dropped_nonzero || digits.digits[i] != 0;
        exponent += static_cast<long long>(keep_from - first);
    }
    std::int64_t mantissa = 0;
    for (std::size_t i = digits.digits.size(); i-- > keep_from;) mantissa = mantissa * 10 + digits.digits[i];
    if (dropped_nonzero) ++mantissa;
    // Magnitude check: the value in whole units must fit in int64.
    const long long total_digits = static_cast<long long>(std::to_string(mantissa).size()) + exponent;
    if (total_digits > 19) throw_quantity_parse_error(text, "value overflows int64");
    result.mantissa_ = negative ? -mantissa : mantissa;
    if (exponent > 0) {
        std::int64_t whole = 0;
        if (!detail::multiply_by_power_of_ten(mantissa, static_cast<int>(exponent), whole)) throw_quantity_parse_error(text, "value overflows int64");
    }
    result.exponent_ = static_cast<int>(exponent);
    result.normalise();
    return result;
}

inline std::string Quantity::to_string() const {
    if (mantissa_ == 0) return "0";
    if (format_ == QuantityFormat::binary_si && exponent_ >= 0) {
        const std::int64_t whole = value();  // exact: exponent >= 0
        if (whole >= 1024 || whole <= -1024) {
            static constexpr std::array<std::string_view, 7> binary_suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
            std::int64_t number = whole;
            std::size_t power = 0;
            while (power + 1 < binary_suffixes.size() && number % 1024 == 0) {
                number /= 1024;
                ++power;
            }
            return fmt::format("{}{}", number, binary_suffixes[power]);
        }
    }
    // Decimal: round to nano, then pick the exponent (a multiple of three) that keeps an integer.
    std::int64_t mantissa = mantissa_;
    int exponent = exponent_;
    if (exponent < scale::nano) {
        mantissa = detail::divide_by_power_of_ten_away_from_zero(mantissa, scale::nano - exponent > 19 ? 19 : scale::nano - exponent);
        exponent = scale::nano;
    }
    const int exponent3 = exponent >= 0 ? exponent / 3 * 3 : -((-exponent + 2) / 3 * 3);
    __extension__ using Wide = __int128;
    Wide number = mantissa;
    for (int i = exponent3; i < exponent; ++i) number *= 10;
    const bool negative = number < 0;
    if (negative) number = -number;
    std::string digits;
    while (number > 0) {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(number % 10)));
        number /= 10;
    }
    if (negative) digits.insert(digits.begin(), '-');
    if (format_ == QuantityFormat::decimal_exponent) {
        return exponent3 == 0 ? digits : fmt::format("{}e{}", digits, exponent3);
    }
    static constexpr std::array<std::string_view, 10> decimal_suffixes = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    return digits + std::string(decimal_suffixes[static_cast<std::size_t>((exponent3 + 9) / 3)]);
}

}  // namespace continuum

template <>
struct fmt::formatter<continuum::Quantity> : fmt::formatter<std::string_view> {
    template <typename FormatContext>
    auto format(const continuum::Quantity& quantity, FormatContext& ctx) const {
        return fmt::formatter<std::string_view>::format(quantity.to_string(), ctx);
    }
};
