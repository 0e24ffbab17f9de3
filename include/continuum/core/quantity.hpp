// Kubernetes resource quantities ("250m", "1.5Gi", "2e3") with the semantics of apimachinery's
// resource.Quantity (k8s.io/apimachinery/pkg/api/resource): the same grammar and suffixes, the same
// rounding (away from zero, to whole nano units when parsed), the same String() and JSON text, and
// the same Cmp, Add, Sub, Neg, Mul, RoundUp, AsInt64 and AsApproximateFloat64. Values are exact: an
// int64 mantissa times a power of ten; a value that needs more digits is an error, never rounded.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>

#include <array>
#include <compare>
#include <cstdint>
#include <limits>
#include <optional>
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
inline std::int64_t divide_by_power_of_ten_away_from_zero(std::int64_t value, std::int64_t digits) {
    if (value == 0 || digits == 0) return value;
    if (digits > 18) return value > 0 ? 1 : -1;  // |value| <= 2^63 < 10^19 <= 10^digits
    const std::int64_t divisor = powers_of_ten[static_cast<std::size_t>(digits)];
    std::int64_t quotient = value / divisor;
    if (value % divisor != 0) quotient += value > 0 ? 1 : -1;
    return quotient;
}

/// value * 10^digits, or false when that leaves int64; digits >= 0.
inline bool multiply_by_power_of_ten(std::int64_t value, std::int64_t digits, std::int64_t& out) {
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

/// |value| without overflow (|INT64_MIN| is 2^63).
inline std::uint64_t magnitude(std::int64_t value) {
    return value < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
}

inline int decimal_digit_count(std::uint64_t value) {
    int count = 1;
    while (value >= 10) {
        value /= 10;
        ++count;
    }
    return count;
}

/// Go's math.Pow10, bit for bit (apimachinery's AsApproximateFloat64 multiplies by it).
inline double go_pow10(std::int64_t n) {
    static constexpr std::array<double, 32> small = {1e00, 1e01, 1e02, 1e03, 1e04, 1e05, 1e06, 1e07, 1e08, 1e09, 1e10,
                                                     1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
                                                     1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31};
    static constexpr std::array<double, 10> big = {1e00, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288};
    static constexpr std::array<double, 11> tiny = {1e-00, 1e-32,  1e-64,  1e-96,  1e-128, 1e-160,
                                                    1e-192, 1e-224, 1e-256, 1e-288, 1e-320};
    if (n >= 0 && n <= 308) return big[static_cast<std::size_t>(n / 32)] * small[static_cast<std::size_t>(n % 32)];
    if (n < 0 && n >= -323) return tiny[static_cast<std::size_t>(-n / 32)] / small[static_cast<std::size_t>(-n % 32)];
    return n > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}

/// The nearest double to mantissa x 10^exponent (correctly rounded; +-inf beyond the range).
inline double nearest_double(std::int64_t mantissa, std::int64_t exponent);

}  // namespace detail

/// An exact Kubernetes resource quantity: mantissa x 10^exponent, plus the format it prints in.
///
/// Parsing follows apimachinery: every value is rounded away from zero to a whole number of nano
/// units ("3.001n" is 4n) and a binary quantity below one unit becomes decimal SI. Where
/// apimachinery would keep a value that has no int64 mantissa (more than 19 significant digits,
/// e.g. "999999999999999999.1") or silently cap it (a binary quantity above 2^63-1, "8Ei"), and
/// where it would wrap an exponent beyond int32 ("1e4294967296"), parse throws ParseError; the
/// arithmetic throws InvalidArgument when a result has no int64 mantissa. Nothing is rounded
/// without being asked for.
class Quantity {
public:
    /// Zero, decimal SI.
    Quantity() = default;

    /// Parses a quantity with apimachinery's grammar (its parseQuantityString scanner):
    ///   [+-] [digits] [. [digits]] [suffix],  suffix = n u m "" k M G T P E | Ki Mi Gi Ti Pi Ei | (e|E)[+-]digits
    /// Missing digits mean zero, as upstream: ".", "-.", "-", "Ki" and "e3" are all 0.
    /// \throws ParseError naming the text when it does not follow the grammar or has no exact value.
    static Quantity parse(std::string_view text);

    /// apimachinery's UnmarshalJSON: `null` is zero, one pair of surrounding double quotes is
    /// removed, surrounding (Unicode) white space is trimmed, the rest is parsed.
    /// \throws ParseError naming the JSON text.
    static Quantity from_json(std::string_view json);

    /// value x 10^exponent (NewScaledQuantity / SetScaled; any format).
    /// Example: from_scaled(250, scale::milli) is "250m".
    static Quantity from_scaled(std::int64_t value, int exponent, QuantityFormat format = QuantityFormat::decimal_si) {
        Quantity q;
        q.mantissa_ = value;
        q.exponent_ = exponent;
        q.upstream_scale_ = exponent;
        q.format_ = format;
        q.normalise();
        return q;
    }
    /// value whole units (NewQuantity).
    static Quantity from_value(std::int64_t value, QuantityFormat format = QuantityFormat::decimal_si) {
        return from_scaled(value, scale::unit, format);
    }
    /// value thousandths (NewMilliQuantity).
    static Quantity from_milli(std::int64_t value, QuantityFormat format = QuantityFormat::decimal_si) {
        return from_scaled(value, scale::milli, format);
    }

    /// The value expressed in units of 10^scale_exponent, rounded away from zero when not exact
    /// (apimachinery's ScaledValue: "0.0001" at scale::milli is 1).
    /// \throws InvalidArgument when the result does not fit in int64 (upstream overflows silently).
    [[nodiscard]] std::int64_t scaled_value(int scale_exponent) const {
        const std::int64_t shift = exponent_ - scale_exponent;
        if (shift >= 0) {
            std::int64_t out = 0;
            if (!detail::multiply_by_power_of_ten(mantissa_, shift, out)) {
                throw InvalidArgument(continuum::detail::message("quantity {} does not fit in int64 at scale 10^{}", to_string(), scale_exponent));
            }
            return out;
        }
        return detail::divide_by_power_of_ten_away_from_zero(mantissa_, -shift);
    }

    /// Whole units, rounded away from zero ("1500m" -> 2).
    [[nodiscard]] std::int64_t value() const { return scaled_value(scale::unit); }
    /// Thousandths of a unit, rounded away from zero ("0.0001" -> 1).
    [[nodiscard]] std::int64_t milli_value() const { return scaled_value(scale::milli); }

    /// The value when it is an integer that fits int64, else nullopt (AsInt64; upstream also says
    /// "no" for some integers, depending on how it stores them: "1000m", anything parsed via inf.Dec).
    [[nodiscard]] std::optional<std::int64_t> as_int64() const {
        std::int64_t out = 0;
        if (exponent_ < 0 || !detail::multiply_by_power_of_ten(mantissa_, exponent_, out)) return std::nullopt;
        return out;
    }

    /// apimachinery's AsApproximateFloat64, bit for bit: float64(unscaled) * math.Pow10(scale) on
    /// the (unscaled, scale) pair upstream would hold, so "0.3" gives 0.30000000000000004 as upstream.
    [[nodiscard]] double as_approximate_float64() const;
    /// The double nearest to the exact value (what AsFloat64Slow's table expects); +-inf beyond range.
    [[nodiscard]] double as_float64() const { return is_zero() ? 0.0 : detail::nearest_double(mantissa_, exponent_); }

    /// RoundUp(scale): the value rounded away from zero to a multiple of 10^scale, and whether
    /// that lost nothing. Like upstream, a quantity already at a finer upstream scale than asked
    /// for is returned unchanged (exact).
    struct Rounded;
    [[nodiscard]] Rounded round_up(int scale_exponent) const;

    [[nodiscard]] QuantityFormat format() const { return format_; }
    [[nodiscard]] bool is_zero() const { return mantissa_ == 0; }
    [[nodiscard]] int sign() const { return (mantissa_ > 0) - (mantissa_ < 0); }
    /// The exact value is mantissa() x 10^exponent(), with no trailing zeros in the mantissa.
    [[nodiscard]] std::int64_t mantissa() const { return mantissa_; }
    [[nodiscard]] std::int64_t exponent() const { return exponent_; }

    /// Cmp: -1, 0 or 1 as this is below, equal to or above other (exact, whatever the formats).
    [[nodiscard]] int cmp(const Quantity& other) const;

    /// apimachinery's String(): the canonical form (canonical_string()), except that, like
    /// upstream, a parsed text its fast path took for canonical is kept as written ("+1", "1E3").
    [[nodiscard]] std::string to_string() const { return text_.empty() ? canonical_string() : text_; }
    /// CanonicalizeBytes: binary quantities print with the largest Ki..Ei suffix that keeps an
    /// integer (decimal below 1024 or when fractional), decimal ones with the largest n..E suffix
    /// (or e<3k>) that keeps an integer; DecimalSI beyond n..E falls back to e<3k> as upstream.
    [[nodiscard]] std::string canonical_string() const;
    /// MarshalJSON: the String() text in double quotes.
    [[nodiscard]] std::string to_json() const { return "\"" + to_string() + "\""; }

    /// Equal values compare equal whatever their format or spelling ("1Ki" == "1024").
    friend bool operator==(const Quantity& a, const Quantity& b) {
        return a.mantissa_ == b.mantissa_ && (a.mantissa_ == 0 || a.exponent_ == b.exponent_);
    }
    friend std::weak_ordering operator<=>(const Quantity& a, const Quantity& b) {
        const int c = a.cmp(b);
        return c < 0 ? std::weak_ordering::less : c > 0 ? std::weak_ordering::greater : std::weak_ordering::equivalent;
    }

    /// Add / Sub: exact; a zero left operand takes the right one's format, as upstream.
    /// \throws InvalidArgument when the result has no int64 mantissa (upstream switches to inf.Dec).
    friend Quantity operator+(const Quantity& a, const Quantity& b) { return add(a, b, false); }
    friend Quantity operator-(const Quantity& a, const Quantity& b) { return add(a, b, true); }
    /// Neg. \throws InvalidArgument for a mantissa of INT64_MIN (2^63 has no int64 mantissa).
    friend Quantity operator-(const Quantity& a) {
        Quantity out = a.without_text();
        out.mantissa_ = negated(a.mantissa_, a);
        return out;
    }
    /// Mul(factor). \throws InvalidArgument when the product has no int64 mantissa.
    friend Quantity operator*(const Quantity& a, std::int64_t factor) { return multiply(a, factor); }
    friend Quantity operator*(std::int64_t factor, const Quantity& a) { return multiply(a, factor); }

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
    [[nodiscard]] Quantity without_text() const {
        Quantity out = *this;
        out.text_.clear();
        return out;
    }
    static std::int64_t negated(std::int64_t value, const Quantity& operand) {
        if (value == std::numeric_limits<std::int64_t>::min()) {
            throw InvalidArgument(continuum::detail::message("quantity -({}) = 2^63 x 10^{} has no int64 mantissa", operand.to_string(), operand.exponent_));
        }
        return -value;
    }
    static Quantity add(const Quantity& a, const Quantity& b, bool subtract);
    static Quantity multiply(const Quantity& a, std::int64_t factor);

    std::int64_t mantissa_ = 0;
    std::int64_t exponent_ = 0;
    /// The scale apimachinery would store (int64Amount.scale, or -inf.Dec.Scale()); only
    /// AsApproximateFloat64 and RoundUp's "already fine enough" shortcut observe it.
    std::int64_t upstream_scale_ = 0;
    QuantityFormat format_ = QuantityFormat::decimal_si;
    /// The parsed text when upstream's String() would return it verbatim; empty otherwise.
    std::string text_;
};

struct Quantity::Rounded {
    Quantity quantity;
    bool exact = true;
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

}  // namespace continuum

#include <continuum/core/detail/quantity_impl.hpp>

template <>
struct fmt::formatter<continuum::Quantity> : fmt::formatter<std::string_view> {
    template <typename FormatContext>
    auto format(const continuum::Quantity& quantity, FormatContext& ctx) const {
        return fmt::formatter<std::string_view>::format(quantity.to_string(), ctx);
    }
};
