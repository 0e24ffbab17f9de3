// Internal: the parts of continuum::Quantity that follow apimachinery's code line by line: the
// parseQuantityString scanner, the suffix table, exact decimal digits for parsing, the canonical
// printer (CanonicalizeBytes), the exact arithmetic and the float conversions. Included by
// core/quantity.hpp; not API.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/quantity.hpp>

#include <cstdlib>

namespace continuum::detail {

__extension__ using QuantityWide = __int128;

/// Little-endian decimal digits of a non-negative integer of any length.
struct DecimalDigits {
    std::vector<std::uint8_t> digits;  // least significant first

    void multiply(std::uint64_t factor) {  // factor <= 2^20
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
    }
    void multiply_by_power_of_two(std::int64_t power) {
        for (; power > 0; power -= 20) multiply(std::uint64_t{1} << (power > 20 ? 20 : power));
    }
    void strip_leading_zeros() {
        while (!digits.empty() && digits.back() == 0) digits.pop_back();
    }
    [[nodiscard]] std::string text() const {
        std::string out;
        out.reserve(digits.size());
        for (auto it = digits.rbegin(); it != digits.rend(); ++it) out += static_cast<char>('0' + *it);
        return out.empty() ? "0" : out;
    }
};

[[noreturn]] inline void throw_quantity_parse_error(std::string_view text, std::string_view why) {
    throw ParseError(continuum::detail::message("quantity {} is not a Kubernetes quantity: {}", quoted(text), why));
}

inline bool is_decimal_digit(char c) { return c >= '0' && c <= '9'; }

/// apimachinery's parseQuantityString: sign, number (leading zeros dropped, "0" when no digits
/// are left), fraction, and a suffix of [eEinumkKMGTP]* [+-]? [0-9]*.
struct ScannedQuantity {
    bool ok = false;
    bool positive = true;
    std::string_view num, denom, suffix;
};

inline ScannedQuantity scan_quantity(std::string_view str) {
    ScannedQuantity out;
    const std::size_t end = str.size();
    std::size_t pos = 0;
    if (pos < end && (str[0] == '-' || str[0] == '+')) {
        out.positive = str[0] == '+';
        ++pos;
    }
    out.ok = true;
    while (pos < end && str[pos] == '0') ++pos;
    if (pos >= end) {
        out.num = "0";
        return out;
    }
    std::size_t i = pos;
    while (i < end && is_decimal_digit(str[i])) ++i;
    out.num = str.substr(pos, i - pos);
    if (i >= end) return out;
    pos = i;
    if (out.num.empty()) out.num = "0";
    if (str[pos] == '.') {
        ++pos;
        i = pos;
        while (i < end && is_decimal_digit(str[i])) ++i;
        out.denom = str.substr(pos, i - pos);
        if (i >= end) return out;
        pos = i;
    }
    const std::size_t suffix_start = pos;
    static constexpr std::string_view suffix_letters = "eEinumkKMGTP";
    while (pos < end && suffix_letters.find(str[pos]) != std::string_view::npos) ++pos;
    if (pos < end && (str[pos] == '-' || str[pos] == '+')) ++pos;
    while (pos < end && is_decimal_digit(str[pos])) ++pos;
    out.suffix = str.substr(suffix_start);
    out.ok = pos >= end;
    return out;
}

struct QuantitySuffix {
    int base = 10;
    std::int64_t exponent = 0;
    QuantityFormat format = QuantityFormat::decimal_si;
};

/// apimachinery's suffixer.interpret. Unlike upstream, an exponent outside int32 is an error
/// (upstream truncates it to int32: "1e4294967296" would be 1).
inline QuantitySuffix interpret_quantity_suffix(std::string_view text, std::string_view suffix) {
    struct Entry {
        std::string_view text;
        int base;
        int exponent;
    };
    static constexpr std::array<Entry, 16> table = {{
        {"", 10, 0},   {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"k", 10, 3},  {"M", 10, 6},
        {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18}, {"Ki", 2, 10}, {"Mi", 2, 20},
        {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50}, {"Ei", 2, 60},
    }};
    for (const auto& entry : table) {
        if (entry.text == suffix) {
            return {entry.base, entry.exponent, entry.base == 2 ? QuantityFormat::binary_si : QuantityFormat::decimal_si};
        }
    }
    if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
        std::string_view digits = suffix.substr(1);  // strconv.ParseInt(digits, 10, 64)
        const bool negative = digits[0] == '-';
        if (digits[0] == '+' || digits[0] == '-') digits.remove_prefix(1);
        if (digits.empty()) throw_quantity_parse_error(text, continuum::detail::message("exponent \"{}\" has no digits", suffix));
        std::int64_t exponent = 0;
        for (const char c : digits) {
            if (!is_decimal_digit(c)) throw_quantity_parse_error(text, continuum::detail::message("unknown suffix \"{}\"", suffix));
            exponent = exponent * 10 + (c - '0');
            if (exponent > std::int64_t{1} << 31) {
                throw_quantity_parse_error(text, "exponent outside int32 (apimachinery truncates it to int32, changing the value)");
            }
        }
        exponent = negative ? -exponent : exponent;
        if (exponent > std::numeric_limits<std::int32_t>::max()) {
            throw_quantity_parse_error(text, "exponent outside int32 (apimachinery truncates it to int32, changing the value)");
        }
        return {10, exponent, QuantityFormat::decimal_exponent};
    }
    throw_quantity_parse_error(text, continuum::detail::message("unknown suffix \"{}\"", suffix));
}

/// Length of the Unicode white-space rune (Go's unicode.IsSpace) at the start (or end) of text, or 0.
inline std::size_t go_space_length(std::string_view text, bool at_end) {
    static constexpr std::array<std::string_view, 25> spaces = {
        "\t",           "\n",           "\v",           "\f",           "\r",           " ",
        "\xC2\x85",     "\xC2\xA0",     "\xE1\x9A\x80", "\xE2\x80\x80", "\xE2\x80\x81", "\xE2\x80\x82",
        "\xE2\x80\x83", "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86", "\xE2\x80\x87", "\xE2\x80\x88",
        "\xE2\x80\x89", "\xE2\x80\x8A", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F",
        "\xE3\x80\x80",
    };
    for (const auto space : spaces) {
        if (at_end ? text.ends_with(space) : text.starts_with(space)) return space.size();
    }
    return 0;
}

/// Go's strings.TrimSpace.
inline std::string_view trim_go_space(std::string_view text) {
    while (const std::size_t n = go_space_length(text, false)) text.remove_prefix(n);
    while (const std::size_t n = go_space_length(text, true)) text.remove_suffix(n);
    return text;
}

/// strtod is correctly rounded (glibc) and, with no decimal point in the text, locale-independent.
inline double nearest_double(std::int64_t mantissa, std::int64_t exponent) {
    const std::string text = continuum::detail::message("{}e{}", mantissa, exponent);
    return std::strtod(text.c_str(), nullptr);  // +-HUGE_VAL (inf) beyond the range, +-0 below it
}

inline bool any_nonzero(const std::uint8_t* begin, const std::uint8_t* end) {
    for (; begin != end; ++begin) {
        if (*begin != 0) return true;
    }
    return false;
}

inline QuantityWide wide_power_of_ten(std::int64_t digits) {
    QuantityWide out = 1;
    for (std::int64_t i = 0; i < digits; ++i) out *= 10;
    return out;
}

/// value x 10^exponent with value reduced to an int64 mantissa, or false when it has none.
inline bool narrow_to_mantissa(QuantityWide value, std::int64_t& exponent, std::int64_t& mantissa) {
    if (value == 0) {
        mantissa = 0;
        exponent = 0;
        return true;
    }
    while (value % 10 == 0) {
        value /= 10;
        ++exponent;
    }
    if (value > std::numeric_limits<std::int64_t>::max() || value < std::numeric_limits<std::int64_t>::min()) return false;
    mantissa = static_cast<std::int64_t>(value);
    return true;
}

}  // namespace continuum::detail

namespace continuum {

inline Quantity Quantity::parse(std::string_view text) {
    using detail::throw_quantity_parse_error;
    if (text.empty()) throw_quantity_parse_error(text, "empty string");
    const detail::ScannedQuantity scanned = detail::scan_quantity(text);
    if (!scanned.ok) throw_quantity_parse_error(text, "not [+-]digits[.digits] and a suffix (n u m k M G T P E, Ki Mi Gi Ti Pi Ei, e<int>)");
    const detail::QuantitySuffix suffix = detail::interpret_quantity_suffix(text, scanned.suffix);
    Quantity result;
    if (text == "0") return result;  // upstream's shortcut: DecimalSI
    result.format_ = suffix.format;
    const bool binary = suffix.base == 2;

    // Exact digits of num.denom x 2^exponent, as an integer times a power of ten.
    detail::DecimalDigits digits;
    digits.digits.reserve(scanned.num.size() + scanned.denom.size() + 20);
    for (auto it = scanned.denom.rbegin(); it != scanned.denom.rend(); ++it) digits.digits.push_back(static_cast<std::uint8_t>(*it - '0'));
    for (auto it = scanned.num.rbegin(); it != scanned.num.rend(); ++it) digits.digits.push_back(static_cast<std::uint8_t>(*it - '0'));
    digits.strip_leading_zeros();
    std::int64_t exponent = (binary ? 0 : suffix.exponent) - static_cast<std::int64_t>(scanned.denom.size());
    if (digits.digits.empty()) return result;  // zero keeps the suffix's format ("0Ki" is BinarySI)
    if (binary) digits.multiply_by_power_of_two(suffix.exponent);
    // Every non-zero value rounds up (away from zero) to a whole number of nano units: "if you
    // want some resources, you should get some resources".
    if (exponent < scale::nano) {
        const std::int64_t drop = scale::nano - exponent;
        if (drop >= static_cast<std::int64_t>(digits.digits.size())) {
            digits.digits.assign(1, 1);
        } else {
            bool carry = detail::any_nonzero(digits.digits.data(), digits.digits.data() + drop);
            digits.digits.erase(digits.digits.begin(), digits.digits.begin() + drop);
            for (std::size_t i = 0; carry; ++i) {  // add one, carrying
                if (i == digits.digits.size()) digits.digits.push_back(0);
                carry = ++digits.digits[i] == 10;
                if (carry) digits.digits[i] = 0;
            }
        }
        exponent = scale::nano;
    }
    // A binary quantity below one unit is kept (and printed) as decimal SI.
    if (binary && static_cast<std::int64_t>(digits.digits.size()) + exponent <= 0) result.format_ = QuantityFormat::decimal_si;
    if (binary) {  // upstream caps |value| at 2^63-1 silently: a different number, so refuse it
        const std::int64_t integer_digits = static_cast<std::int64_t>(digits.digits.size()) + exponent;
        bool above = integer_digits > 19;
        if (integer_digits == 19) {
            static constexpr std::string_view max_digits = "9223372036854775807";
            const std::string integer_part = digits.text().substr(0, 19);
            above = integer_part > max_digits ||
                    (integer_part == max_digits && detail::any_nonzero(digits.digits.data(), digits.digits.data() + digits.digits.size() - 19));
        }
        if (above) throw_quantity_parse_error(text, "binary quantity above 2^63-1 (apimachinery silently caps it at 9223372036854775807)");
    }
    std::size_t first = 0;  // trailing decimal zeros go into the exponent
    while (digits.digits[first] == 0) ++first;
    const std::size_t significant = digits.digits.size() - first;
    std::uint64_t magnitude = 0;
    if (significant <= 19) {
        for (std::size_t i = digits.digits.size(); i-- > first;) magnitude = magnitude * 10 + digits.digits[i];
    }
    const std::uint64_t limit = std::uint64_t{1} << 63;  // |INT64_MIN|
    if (significant > 19 || magnitude > limit || (scanned.positive && magnitude == limit)) {
        throw_quantity_parse_error(text, "needs more significant digits than an int64 mantissa holds (apimachinery keeps an inf.Dec)");
    }
    exponent += static_cast<std::int64_t>(first);
    result.mantissa_ = scanned.positive ? static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(std::uint64_t{0} - magnitude);
    result.exponent_ = exponent;

    // What apimachinery stores: its int64 fast path keeps (digits, scale) and, when the text
    // looks canonical, the text itself for String(); everything else goes through inf.Dec,
    // rounded to nano scale.
    const std::size_t digit_count = scanned.num.size() + scanned.denom.size();
    result.upstream_scale_ = scale::nano;
    if (!binary) {
        const std::int64_t fast_scale = suffix.exponent - static_cast<std::int64_t>(scanned.denom.size());
        if (digit_count <= 18 && fast_scale >= scale::nano) {
            result.upstream_scale_ = fast_scale;
            const std::string shifted = std::string(scanned.num) + std::string(scanned.denom);
            if (fast_scale % 3 == 0 && !shifted.ends_with("000") && shifted[0] != '0') result.text_ = std::string(text);
        }
    } else if (scanned.denom.empty() && 15 - static_cast<std::int64_t>(scanned.num.size()) - suffix.exponent * 3 / 10 - 1 >= 0) {
        result.upstream_scale_ = 0;
        const auto last_digits = scanned.num.substr(scanned.num.size() >= 3 ? scanned.num.size() - 3 : 0);
        int low = 0;
        for (const char c : last_digits) low = low * 10 + (c - '0');
        if ((low & 7) != 0) result.text_ = std::string(text);
    }
    return result;
}

inline Quantity Quantity::from_json(std::string_view json) {
    if (json == "null") return Quantity{};
    std::string_view value = json;
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    value = detail::trim_go_space(value);
    try {
        return parse(value);
    } catch (const ParseError& e) {
        throw ParseError(continuum::detail::message("quantity JSON {}: {}", detail::quoted(json), e.what()));
    }
}

inline int Quantity::cmp(const Quantity& other) const {
    if (sign() != other.sign()) return sign() < other.sign() ? -1 : 1;
    if (is_zero()) return 0;
    const std::uint64_t a = detail::magnitude(mantissa_);
    const std::uint64_t b = detail::magnitude(other.mantissa_);
    const std::int64_t order_a = detail::decimal_digit_count(a) + exponent_;  // |value| < 10^order
    const std::int64_t order_b = detail::decimal_digit_count(b) + other.exponent_;
    int magnitude_cmp = 0;
    if (order_a != order_b) {
        magnitude_cmp = order_a < order_b ? -1 : 1;
    } else {  // same order of magnitude: the exponents differ by at most 18
        __extension__ using Unsigned = unsigned __int128;
        Unsigned wide_a = a;
        Unsigned wide_b = b;
        if (exponent_ > other.exponent_) wide_a *= static_cast<Unsigned>(detail::powers_of_ten[static_cast<std::size_t>(exponent_ - other.exponent_)]);
        if (other.exponent_ > exponent_) wide_b *= static_cast<Unsigned>(detail::powers_of_ten[static_cast<std::size_t>(other.exponent_ - exponent_)]);
        magnitude_cmp = wide_a < wide_b ? -1 : wide_a > wide_b ? 1 : 0;
    }
    return sign() > 0 ? magnitude_cmp : -magnitude_cmp;
}

inline Quantity Quantity::add(const Quantity& a, const Quantity& b, bool subtract) {
    Quantity out;
    out.format_ = a.is_zero() ? b.format_ : a.format_;
    if (b.is_zero()) {
        out.mantissa_ = a.mantissa_;
        out.exponent_ = a.exponent_;
        out.upstream_scale_ = a.upstream_scale_;
        return out;
    }
    if (a.is_zero()) {  // 0 - y is -y, keeping y's scale, as upstream
        out.mantissa_ = subtract ? negated(b.mantissa_, b) : b.mantissa_;
        out.exponent_ = b.exponent_;
        out.upstream_scale_ = b.upstream_scale_;
        return out;
    }
    out.upstream_scale_ = a.upstream_scale_ < b.upstream_scale_ ? a.upstream_scale_ : b.upstream_scale_;
    const std::int64_t low = a.exponent_ < b.exponent_ ? a.exponent_ : b.exponent_;
    const std::int64_t spread = (a.exponent_ < b.exponent_ ? b.exponent_ : a.exponent_) - low;
    // With the exponents 20 or more apart the sum has >= 20 significant digits.
    bool ok = spread <= 19;
    if (ok) {
        const detail::QuantityWide x = detail::QuantityWide{a.mantissa_} * detail::wide_power_of_ten(a.exponent_ - low);
        const detail::QuantityWide y = detail::QuantityWide{b.mantissa_} * detail::wide_power_of_ten(b.exponent_ - low);
        out.exponent_ = low;
        ok = detail::narrow_to_mantissa(subtract ? x - y : x + y, out.exponent_, out.mantissa_);
    }
    if (!ok) {
        throw InvalidArgument(continuum::detail::message("quantity {} {} {} has no int64 mantissa (more than 19 significant digits)", a.to_string(),
                                                         subtract ? '-' : '+', b.to_string()));
    }
    return out;
}

inline Quantity Quantity::multiply(const Quantity& a, std::int64_t factor) {
    Quantity out = a.without_text();
    if (a.is_zero()) return out;
    if (factor == 0) {
        out.mantissa_ = 0;
        out.exponent_ = 0;
        out.upstream_scale_ = 0;
        return out;
    }
    if (!detail::narrow_to_mantissa(detail::QuantityWide{a.mantissa_} * factor, out.exponent_, out.mantissa_)) {
        throw InvalidArgument(continuum::detail::message("quantity {} * {} has no int64 mantissa (more than 19 significant digits)", a.to_string(), factor));
    }
    return out;
}

inline Quantity::Rounded Quantity::round_up(int scale_exponent) const {
    if (upstream_scale_ >= scale_exponent) return {*this, true};  // upstream keeps even its cached text
    Quantity out = without_text();
    out.upstream_scale_ = scale_exponent;
    if (is_zero() || exponent_ >= scale_exponent) return {out, true};
    // The mantissa has no trailing zeros, so dropping digits always loses something.
    out.mantissa_ = detail::divide_by_power_of_ten_away_from_zero(mantissa_, scale_exponent - exponent_);
    out.exponent_ = scale_exponent;
    out.normalise();
    return {out, false};
}

inline double Quantity::as_approximate_float64() const {
    if (is_zero()) return 0.0;
    const std::int64_t shift = exponent_ - upstream_scale_;
    if (shift < 0) return as_float64();  // not reachable: upstream's scale never exceeds the exponent
    // float64(unscaled) is exact rounding of the integer upstream holds (mantissa x 10^shift).
    const double base = shift == 0 ? static_cast<double>(mantissa_) : detail::nearest_double(mantissa_, shift);
    if (upstream_scale_ == 0) return base;
    const double out = base * detail::go_pow10(upstream_scale_);
    return out != out ? as_float64() : out;  // inf * 0 is NaN upstream; never NaN here
}

inline std::string Quantity::canonical_string() const {
    if (is_zero()) return "0";
    const std::string sign_text = mantissa_ < 0 ? "-" : "";
    const std::uint64_t magnitude = detail::magnitude(mantissa_);
    if (format_ == QuantityFormat::binary_si && exponent_ >= 0) {
        // Integers of magnitude >= 1024 print in base 1024 (upstream: AsScale(0) exact, |q| >= 1024).
        const bool below_1024 =
            exponent_ < 4 && magnitude < 1024 && magnitude * static_cast<std::uint64_t>(detail::powers_of_ten[static_cast<std::size_t>(exponent_)]) < 1024;
        // Bounded work: an integer of more than 4096 digits prints in decimal instead.
        if (!below_1024 && detail::decimal_digit_count(magnitude) + exponent_ <= 4096) {
            static constexpr std::array<std::string_view, 7> binary_suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
            const std::int64_t twos_in_mantissa = __builtin_ctzll(magnitude);
            const std::int64_t powers_of_1024 = (twos_in_mantissa + exponent_) / 10 < 6 ? (twos_in_mantissa + exponent_) / 10 : 6;
            const std::int64_t from_mantissa = twos_in_mantissa < 10 * powers_of_1024 ? twos_in_mantissa : 10 * powers_of_1024;
            const std::int64_t from_tens = 10 * powers_of_1024 - from_mantissa;  // 10^e / 2^r = 5^r x 10^(e-r)
            detail::DecimalDigits digits;
            for (std::uint64_t rest = magnitude >> from_mantissa; rest > 0; rest /= 10) digits.digits.push_back(static_cast<std::uint8_t>(rest % 10));
            for (std::int64_t i = 0; i < from_tens; ++i) digits.multiply(5);
            return sign_text + digits.text() + std::string(static_cast<std::size_t>(exponent_ - from_tens), '0') +
                   std::string(binary_suffixes[static_cast<std::size_t>(powers_of_1024)]);
        }
    }
    // Decimal: the exponent goes down to a multiple of three, the mantissa gains the zeros.
    const std::int64_t extra_zeros = ((exponent_ % 3) + 3) % 3;
    const std::int64_t exponent3 = exponent_ - extra_zeros;
    std::string number = sign_text + std::to_string(magnitude) + std::string(static_cast<std::size_t>(extra_zeros), '0');
    if (format_ != QuantityFormat::decimal_exponent && exponent3 >= scale::nano && exponent3 <= scale::exa) {
        static constexpr std::array<std::string_view, 10> decimal_suffixes = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
        return number + std::string(decimal_suffixes[static_cast<std::size_t>((exponent3 + 9) / 3)]);
    }
    return exponent3 == 0 ? number : continuum::detail::message("{}e{}", number, exponent3);
}

}  // namespace continuum
