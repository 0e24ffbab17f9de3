// Kubernetes quantities against apimachinery's own tables (k8s.io/apimachinery/pkg/api/resource,
// quantity_test.go): each TEST_CASE names the upstream test it ports and asserts upstream's values.
// Where continuum deliberately differs (a value with no int64 mantissa, a silently capped binary
// quantity), the case says so and asserts the error instead.
#include <continuum/core/quantity.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using continuum::InvalidArgument;
using continuum::ParseError;
using continuum::Quantity;
using continuum::QuantityFormat;
namespace scale = continuum::scale;

namespace {

constexpr QuantityFormat decimal_si = QuantityFormat::decimal_si;
constexpr QuantityFormat binary_si = QuantityFormat::binary_si;
constexpr QuantityFormat decimal_exponent = QuantityFormat::decimal_exponent;
constexpr std::int64_t most_positive = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t most_negative = std::numeric_limits<std::int64_t>::min();

/// upstream's decQuantity / intQuantity: value x 10^exponent in a format.
Quantity q(std::int64_t value, int exponent, QuantityFormat format = decimal_si) { return Quantity::from_scaled(value, exponent, format); }

struct ParseCase {
    const char* input;
    std::int64_t value;
    int exponent;
    QuantityFormat format;
};

}  // namespace

// upstream TestQuantityParse (all rows but "9Ei" and "9223372036854775807Ki": see below), with its
// negative and explicit-plus variants and its AsInt64 cross-check.
TEST_CASE("TestQuantityParse: values and formats as apimachinery") {
    const std::vector<ParseCase> table = {
        {"0", 0, 0, decimal_si},
        {"0n", 0, 0, decimal_si},
        {"0u", 0, 0, decimal_si},
        {"0m", 0, 0, decimal_si},
        {"0Ki", 0, 0, binary_si},
        {"0k", 0, 0, decimal_si},
        {"0Mi", 0, 0, binary_si},
        {"0M", 0, 0, decimal_si},
        {"0Gi", 0, 0, binary_si},
        {"0G", 0, 0, decimal_si},
        {"0Ti", 0, 0, binary_si},
        {"0T", 0, 0, decimal_si},
        {"1", 1, 0, decimal_si},
        {"1Ki", 1024, 0, binary_si},
        {"8Ki", 8 * 1024, 0, binary_si},
        {"7Mi", 7 * 1024 * 1024, 0, binary_si},
        {"6Gi", 6LL * 1024 * 1024 * 1024, 0, binary_si},
        {"5Ti", 5LL * 1024 * 1024 * 1024 * 1024, 0, binary_si},
        {"4Pi", 4LL * 1024 * 1024 * 1024 * 1024 * 1024, 0, binary_si},
        {"3Ei", 3LL * 1024 * 1024 * 1024 * 1024 * 1024 * 1024, 0, binary_si},
        {"10Ti", 10LL * 1024 * 1024 * 1024 * 1024, 0, binary_si},
        {"100Ti", 100LL * 1024 * 1024 * 1024 * 1024, 0, binary_si},
        {"5n", 5, -9, decimal_si},
        {"4u", 4, -6, decimal_si},
        {"3m", 3, -3, decimal_si},
        {"9", 9, 0, decimal_si},
        {"8k", 8, 3, decimal_si},
        {"50k", 5, 4, decimal_si},
        {"7M", 7, 6, decimal_si},
        {"6G", 6, 9, decimal_si},
        {"5T", 5, 12, decimal_si},
        {"40T", 4, 13, decimal_si},
        {"300T", 3, 14, decimal_si},
        {"2P", 2, 15, decimal_si},
        {"1E", 1, 18, decimal_si},
        {"1E-3", 1, -3, decimal_exponent},
        {"1e3", 1, 3, decimal_exponent},
        {"1E6", 1, 6, decimal_exponent},
        {"1e9", 1, 9, decimal_exponent},
        {"1E12", 1, 12, decimal_exponent},
        {"1e15", 1, 15, decimal_exponent},
        {"1E18", 1, 18, decimal_exponent},
        {"1e14", 1, 14, decimal_exponent},
        {"1e13", 1, 13, decimal_exponent},
        {"100.035k", 100035, 0, decimal_si},
        {"0.001", 1, -3, decimal_si},
        {"0.0005k", 5, -1, decimal_si},
        {"0.005", 5, -3, decimal_si},
        {"0.05", 5, -2, decimal_si},
        {"0.5", 5, -1, decimal_si},
        {"0.00050k", 5, -1, decimal_si},
        {"0.00500", 5, -3, decimal_si},
        {"0.05000", 5, -2, decimal_si},
        {"0.50000", 5, -1, decimal_si},
        {"0.5e0", 5, -1, decimal_exponent},
        {"0.5e-1", 5, -2, decimal_exponent},
        {"0.5e-2", 5, -3, decimal_exponent},
        {"10.035M", 10035, 3, decimal_si},
        {"1.2e3", 12, 2, decimal_exponent},
        {"1.3E+6", 13, 5, decimal_exponent},
        {"1.40e9", 14, 8, decimal_exponent},
        {"1.53E12", 153, 10, decimal_exponent},
        {"1.6e15", 16, 14, decimal_exponent},
        {"1.7E18", 17, 17, decimal_exponent},
        {"9.01", 901, -2, decimal_si},
        {"8.1k", 81, 2, decimal_si},
        {"7.123456M", 7123456, 0, decimal_si},
        {"6.987654321G", 6987654321, 0, decimal_si},
        {"5.444T", 5444, 9, decimal_si},
        {"40.1T", 401, 11, decimal_si},
        {"300.2T", 3002, 11, decimal_si},
        {"2.5P", 25, 14, decimal_si},
        {"1.01E", 101, 16, decimal_si},
        {"3.001n", 4, -9, decimal_si},
        {"1.1E-9", 2, -9, decimal_exponent},
        {"0.0000000001", 1, -9, decimal_si},
        {"0.0000000005", 1, -9, decimal_si},
        {"0.00000000050", 1, -9, decimal_si},
        {"0.5e-9", 1, -9, decimal_exponent},
        {"0.9n", 1, -9, decimal_si},
        {"0.00000012345", 124, -9, decimal_si},
        {"0.00000012354", 124, -9, decimal_si},
        {"12E", 12, 18, decimal_si},
        {"100.035Ki", 10243584, -2, binary_si},
        {"0.5Mi", 512 * 1024, 0, binary_si},
        {"0.05Gi", 536870912, -1, binary_si},
        {"0.025Ti", 274877906944, -1, binary_si},
        {"0.000000000001Ki", 2, -9, decimal_si},  // rounds up, changes format
        {".001", 1, -3, decimal_si},
        {".0001k", 100, -3, decimal_si},
        {"1.", 1, 0, decimal_si},
        {"1.G", 1, 9, decimal_si},
    };
    CHECK(table.size() == 92);  // upstream lists "1e3" and "0.5e0" twice
    for (const auto& item : table) {
        CAPTURE(item.input);
        const Quantity expect = q(item.value, item.exponent, item.format);
        const Quantity got = Quantity::parse(item.input);
        CHECK(got.cmp(expect) == 0);
        CHECK(got.format() == item.format);
        if (const auto i = expect.as_int64()) CHECK(got.as_int64() == i);
        // the string form parses back to the same value (upstream's decompose-and-rebuild check)
        CHECK(Quantity::parse(got.to_string()).cmp(got) == 0);
        const Quantity negative = Quantity::parse(std::string("-") + item.input);
        CHECK(negative.cmp(-expect) == 0);
        CHECK(negative.format() == item.format);
        const Quantity plus = Quantity::parse(std::string("+") + item.input);
        CHECK(plus.cmp(expect) == 0);
        CHECK(plus.format() == item.format);
    }
    // upstream's invalid list, and the empty string
    for (const char* text : {"", "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 "}) {
        CAPTURE(text);
        CHECK_THROWS_AS((void)Quantity::parse(text), ParseError);
    }
}

// upstream TestQuantityParse rows continuum refuses: apimachinery silently caps a binary
// quantity at 2^63-1 ("9Ei" is 10376293541461622784), a different number.
TEST_CASE("TestQuantityParse (capped rows): binary quantities above 2^63-1 throw instead of capping") {
    for (const char* text : {"9Ei", "9223372036854775807Ki", "8Ei", "-8Ei", "-9Ei"}) {
        CAPTURE(text);
        CHECK_THROWS_WITH_AS((void)Quantity::parse(text), doctest::Contains("caps"), ParseError);
    }
    CHECK(Quantity::parse("7Ei").as_int64() == 7LL << 60);
    CHECK(Quantity::parse("7.5Ei").cmp(q(864691128455135232, 1)) == 0);  // 7.5 x 2^60 < 2^63-1
}

// upstream TestParseQuantityString: "." and "-." are zero; the scanner gives zero to any number
// without digits ("-", "Ki", "e3"), as apimachinery does.
TEST_CASE("TestParseQuantityString: numbers without digits are zero") {
    for (const char* text : {".", "-.", "+.", "-", "+", "Ki", "e3", "m", "-0", "000", "-0.0Gi"}) {
        CAPTURE(text);
        const Quantity zero = Quantity::parse(text);
        CHECK(zero.is_zero());
        CHECK(zero.to_string() == "0");
    }
    CHECK(Quantity::parse("Ki").format() == binary_si);
    CHECK(Quantity::parse("0.025Ti").cmp(q(274877906944, -1)) == 0);
    CHECK(Quantity::parse("-1.025Ti").cmp(q(-11269994184704, -1)) == 0);
    CHECK(Quantity::parse("1E-3").format() == decimal_exponent);
}

// issue 16: the smallest int64 is in range; values are exact wherever an int64 mantissa holds them.
TEST_CASE("exactness: INT64_MIN parses, longer values throw instead of rounding") {
    for (const char* text : {"-9223372036854775808", "-9223372036854775808.0", "-9223372036854775808000m"}) {
        CAPTURE(text);
        const Quantity min = Quantity::parse(text);
        CHECK(min.mantissa() == most_negative);
        CHECK(min.exponent() == 0);
        CHECK(min.as_int64() == most_negative);
        CHECK(min.to_string() == "-9223372036854775808");
    }
    CHECK(Quantity::parse("9223372036854775807").as_int64() == most_positive);
    CHECK(Quantity::parse("-9223372036854775807e5").cmp(q(-most_positive, 5)) == 0);
    CHECK(Quantity::parse("1e19").cmp(q(1, 19)) == 0);  // exact at scale 19
    CHECK(Quantity::parse("10E").to_string() == "10E");
    CHECK(Quantity::parse("1000E").to_string() == "1e21");
    CHECK(Quantity::parse("1234567890123456789000e-3").cmp(q(1234567890123456789, 0)) == 0);
    for (const char* text : {"999999999999999999.1", "1000000000000000000.1", "9223372036854775808", "99999999999999999999",
                             "-9223372036854775809", "12345678901234567.891", "1.1Ei"}) {
        CAPTURE(text);
        CHECK_THROWS_WITH_AS((void)Quantity::parse(text), doctest::Contains("int64 mantissa"), ParseError);
    }
    // rounding to whole nano units is upstream's, not a loss of digits
    CHECK(Quantity::parse("1.0000000000000000001").to_string() == "1000000001n");
    // exponents upstream would truncate to int32
    CHECK_THROWS_AS((void)Quantity::parse("1e4294967296"), ParseError);
    CHECK_THROWS_AS((void)Quantity::parse("1e2147483648"), ParseError);
    CHECK(Quantity::parse("1e2147483647").exponent() == 2147483647);
    CHECK(Quantity::parse("1e-2147483648").cmp(q(1, -9)) == 0);  // rounded up to 1n
}

struct StringCase {
    std::int64_t value;
    int exponent;
    QuantityFormat format;
    const char* expect;
    const char* alternate;
};

// upstream TestQuantityString: String() of a value, canonical text parses back verbatim, an
// alternate spelling prints canonically, and the negation prints with "-".
TEST_CASE("TestQuantityString: canonical text as apimachinery") {
    const std::vector<StringCase> table = {
        {1024 * 1024 * 1024, 0, binary_si, "1Gi", "1024Mi"},
        {300 * 1024 * 1024, 0, binary_si, "300Mi", "307200Ki"},
        {6 * 1024, 0, binary_si, "6Ki", ""},
        {1001LL * 1024 * 1024 * 1024, 0, binary_si, "1001Gi", "1025024Mi"},
        {1024LL * 1024 * 1024 * 1024, 0, binary_si, "1Ti", "1024Gi"},
        {5, 0, binary_si, "5", "5000m"},
        {500, -3, binary_si, "500m", "0.5"},
        {1, 9, decimal_si, "1G", "1000M"},
        {1000, 6, decimal_si, "1G", "0.001T"},
        {1000000, 3, decimal_si, "1G", ""},
        {1000000000, 0, decimal_si, "1G", ""},
        {1, -3, decimal_si, "1m", "1000u"},
        {80, -3, decimal_si, "80m", ""},
        {1080, -3, decimal_si, "1080m", "1.08"},
        {108, -2, decimal_si, "1080m", "1080000000n"},
        {10800, -4, decimal_si, "1080m", ""},
        {300, 6, decimal_si, "300M", ""},
        {1, 12, decimal_si, "1T", ""},
        {1, 18, decimal_si, "1E", ""},
        {1, 21, decimal_si, "1e21", "1000E"},
        {5, 21, decimal_si, "5e21", "5000E"},
        {1, 24, decimal_si, "1e24", "1000000E"},
        {1234567, 6, decimal_si, "1234567M", ""},
        {1234567, -3, binary_si, "1234567m", ""},
        {3, 3, decimal_si, "3k", ""},
        {1025, 0, binary_si, "1025", ""},
        {0, 0, decimal_si, "0", ""},
        {0, 0, binary_si, "0", ""},
        {1, 9, decimal_exponent, "1e9", ".001e12"},
        {1, -3, decimal_exponent, "1e-3", "0.001e0"},
        {1, -9, decimal_exponent, "1e-9", "1000e-12"},
        {80, -3, decimal_exponent, "80e-3", ""},
        {300, 6, decimal_exponent, "300e6", ""},
        {1, 12, decimal_exponent, "1e12", ""},
        {1, 3, decimal_exponent, "1e3", ""},
        {3, 3, decimal_exponent, "3e3", ""},
        {3, 3, decimal_si, "3k", ""},
        {0, 0, decimal_exponent, "0", "00"},
        {1, -9, decimal_si, "1n", ""},
        {80, -9, decimal_si, "80n", ""},
        {1080, -9, decimal_si, "1080n", ""},
        {108, -8, decimal_si, "1080n", ""},
        {10800, -10, decimal_si, "1080n", ""},
        {1, -6, decimal_si, "1u", ""},
        {80, -6, decimal_si, "80u", ""},
        {1080, -6, decimal_si, "1080u", ""},
    };
    for (const auto& item : table) {
        CAPTURE(item.expect);
        const Quantity in = q(item.value, item.exponent, item.format);
        CHECK(in.to_string() == item.expect);
        CHECK(Quantity::parse(item.expect).to_string() == item.expect);
        if (std::string(item.alternate).empty()) continue;
        const Quantity alternate = Quantity::parse(item.alternate);
        CHECK(alternate.to_string() == item.expect);
        CHECK(alternate.canonical_string() == item.expect);
    }
    for (const auto& item : table) {
        if (item.value == 0) continue;  // never "-0"
        CAPTURE(item.expect);
        CHECK((-q(item.value, item.exponent, item.format)).to_string() == std::string("-") + item.expect);
    }
}

// upstream TestQuantityParseEmit (and its negated half).
TEST_CASE("TestQuantityParseEmit: parse then print") {
    const std::vector<std::pair<const char*, const char*>> table = {
        {"1Ki", "1Ki"},   {"1Mi", "1Mi"},         {"1Gi", "1Gi"},          {"1024Mi", "1Gi"},           {"1000M", "1G"},
        {".001Ki", "1024m"}, {".000001Ki", "1024u"}, {".000000001Ki", "1024n"}, {".000000000001Ki", "2n"},
    };
    for (const auto& [in, expect] : table) {
        const auto in_copy = in;  // clang 14 cannot capture structured bindings
        CAPTURE(in_copy);
        CHECK(Quantity::parse(in).to_string() == expect);
        CHECK(Quantity::parse(std::string("-") + in).to_string() == std::string("-") + expect);
    }
    CHECK(Quantity::parse("1.5Gi").to_string() == "1536Mi");
    CHECK(Quantity::parse("0.1Ki").to_string() == "102400m");
    CHECK(Quantity::parse("100.035Ki").to_string() == "102435840m");
}

// upstream ParseQuantity keeps the text as written when its int64 fast path finds it canonical
// (scale % 3 == 0, no "000" ending, no leading zero; binary: value & 7 != 0), and String() and
// MarshalJSON return that text: "+1" stays "+1", "1E3" stays "1E3".
TEST_CASE("ParseQuantity's cached text: String() returns the text upstream keeps") {
    const std::vector<std::pair<const char*, const char*>> kept = {
        {"+1", "1"}, {"1E3", "1e3"}, {"1e0", "1"}, {"5.", "5"}, {"1.G", "1G"}, {"001", "1"}, {"+3Ki", "3Ki"}, {"1E-9", "1e-9"}, {"-07m", "-7m"},
    };
    for (const auto& [text, canonical] : kept) {
        const auto text_copy = text;
        CAPTURE(text_copy);
        const Quantity parsed = Quantity::parse(text);
        CHECK(parsed.to_string() == text);
        CHECK(parsed.to_json() == std::string("\"") + text + "\"");
        CHECK(parsed.canonical_string() == canonical);
        CHECK((parsed + Quantity{}).to_string() == canonical);  // Add clears the cache
    }
    // not kept: the fast path rejects them, so String() is canonical
    for (const char* text : {"1000", "8Ki", "1.5", "1.0", "+1000m", "0.5", "1Pi", "1.3E+6"}) {
        const auto text_copy = text;
        CAPTURE(text_copy);
        CHECK(Quantity::parse(text).to_string() == Quantity::parse(text).canonical_string());
    }
    CHECK(Quantity::parse("1000").to_string() == "1k");
    // RoundUp keeps the text when the scale is already fine enough (q.i.scale >= scale)
    CHECK(Quantity::parse("+1").round_up(scale::milli).quantity.to_string() == "+1");
    CHECK(Quantity::parse("+1").round_up(1).quantity.to_string() == "10");
}

// upstream TestQuantityCmp and TestQuantityCmpInt64AndDec (both directions).
TEST_CASE("TestQuantityCmp / TestQuantityCmpInt64AndDec: exact ordering") {
    const std::vector<std::tuple<const char*, const char*, int>> strings = {
        {"0", "0", 0}, {"100m", "50m", 1}, {"50m", "100m", -1}, {"10000T", "100Gi", 1}};
    for (const auto& [x, y, expect] : strings) {
        const auto x_copy = x;
        CAPTURE(x_copy);
        CHECK(Quantity::parse(x).cmp(Quantity::parse(y)) == expect);
    }
    struct CmpCase {
        Quantity a, b;
        int cmp;
    };
    const std::int64_t e18 = 1000000LL * 1000000 * 1000000;
    const std::vector<CmpCase> table = {
        {q(901, -2), q(901, -2), 0},
        {q(90, -1), q(901, -2), -1},
        {q(901, -2), q(900, -2), 1},
        {q(0, 0), q(0, 0), 0},
        {q(0, 1), q(0, -1), 0},
        {q(0, -1), q(0, 1), 0},
        {q(800, -3), q(1, 0), -1},
        {q(800, -3), q(79, -2), 1},
        {q(most_positive, 0), q(1, -1), 1},
        {q(most_positive, 1), q(1, 0), 1},
        {q(most_positive, 1), q(1, 1), 1},
        {q(most_positive, 1), q(0, 1), 1},
        {q(most_positive, -16), q(1, 3), -1},
        {q(most_negative, 0), q(0, 0), -1},
        {q(most_negative, -18), q(-1, 0), -1},
        {q(most_negative, -19), q(-1, 0), 1},
        {q(e18, -17), q(1, 1), 0},
        {q(e18, -17), q(-10, 0), 1},
        {q(-e18, -17), q(-10, 0), 0},
        {q(e18, -17), q(1, 0), 1},
        {q(e18 + 1, -17), q(1, 1), 1},
        {q(e18 - 1, -17), q(1, 1), -1},
        {q(10, 0), q(10, 0), 0},
        {q(-10, 0), q(10, 0), -1},
    };
    for (std::size_t i = 0; i < table.size(); ++i) {
        CAPTURE(i);
        CHECK(table[i].a.cmp(table[i].b) == table[i].cmp);
        CHECK(table[i].b.cmp(table[i].a) == -table[i].cmp);
        CHECK(((table[i].a < table[i].b) == (table[i].cmp < 0)));
        CHECK(((table[i].a == table[i].b) == (table[i].cmp == 0)));
    }
}

// upstream TestQuantityRoundUp.
TEST_CASE("TestQuantityRoundUp: away from zero, with exactness") {
    struct RoundCase {
        const char* in;
        int scale;
        Quantity expect;
        bool ok;
    };
    const std::vector<RoundCase> table = {
        {"9.01", -3, q(901, -2), true},   {"9.01", -2, q(901, -2), true},   {"9.01", -1, q(91, -1), false},
        {"9.01", 0, q(10, 0), false},     {"9.01", 1, q(10, 0), false},     {"9.01", 2, q(100, 0), false},
        {"-9.01", -3, q(-901, -2), true}, {"-9.01", -2, q(-901, -2), true}, {"-9.01", -1, q(-91, -1), false},
        {"-9.01", 0, q(-10, 0), false},   {"-9.01", 1, q(-10, 0), false},   {"-9.01", 2, q(-100, 0), false},
    };
    for (const auto& item : table) {
        CAPTURE(item.in);
        CAPTURE(item.scale);
        const auto rounded = Quantity::parse(item.in).round_up(item.scale);
        CHECK(rounded.exact == item.ok);
        CHECK(rounded.quantity.cmp(item.expect) == 0);
    }
    CHECK(Quantity{}.round_up(3).exact);
    CHECK(Quantity::parse("1n").round_up(30).quantity.cmp(q(1, 30)) == 0);
}

// upstream TestQuantityNeg and TestNeg.
TEST_CASE("TestQuantityNeg / TestNeg") {
    const Quantity a = q(901, -2);
    const Quantity negated = -a;
    CHECK(negated.cmp(a) != 0);
    CHECK(negated.to_string() == "-9010m");
    CHECK((-Quantity{}).cmp(Quantity{}) == 0);
    CHECK((-q(10, 0, binary_si)).cmp(q(-10, 0)) == 0);
    CHECK((-q(10, 0, binary_si)).format() == binary_si);
    CHECK((-q(-10, 0, binary_si)).cmp(q(10, 0)) == 0);
}

// upstream TestAdd, TestSub, TestQuantityAddZeroPreservesSuffix, TestQuantitySubZeroPreservesSuffix,
// TestQuantityCanocicalizeZero.
TEST_CASE("TestAdd / TestSub: exact sums, the zero operand's format rule") {
    struct AddCase {
        Quantity a, b, sum, difference;
    };
    const std::vector<AddCase> table = {
        {q(10, 0), q(1, 1), q(20, 0), q(0, 0)},
        {q(10, 0), q(1, 0, binary_si), q(11, 0), q(9, 0)},
        {q(10, 0, binary_si), q(1, 0), q(11, 0, binary_si), q(9, 0, binary_si)},
        {Quantity{}, q(50, 0), q(50, 0), q(-50, 0)},
        {q(50, 0), Quantity{}, q(50, 0), q(50, 0)},
        {Quantity{}, Quantity{}, q(0, 0), q(0, 0)},
    };
    for (std::size_t i = 0; i < table.size(); ++i) {
        CAPTURE(i);
        CHECK((table[i].a + table[i].b).cmp(table[i].sum) == 0);
        CHECK((table[i].a - table[i].b).cmp(table[i].difference) == 0);
        if (!table[i].a.is_zero()) CHECK((table[i].a + table[i].b).format() == table[i].a.format());
    }
    for (const char* text : {"100m", "1Gi"}) {
        CAPTURE(text);
        const Quantity value = Quantity::parse(text);
        const Quantity zero = Quantity::parse("0");
        CHECK((value + zero).to_string() == text);
        CHECK((zero + value).to_string() == text);
        CHECK((value - zero).to_string() == text);
        CHECK((zero - value).to_string() == (-value).to_string());
    }
    CHECK((Quantity::parse("1000m") - q(1, 0)).to_string() == "0");
    CHECK((Quantity::parse("1Ki") + Quantity::parse("1.5")).to_string() == "1025500m");
    CHECK((Quantity::parse("250m") + Quantity::parse("1.75")).to_string() == "2");
}

// upstream TestNegAndSubAtMostNegative / TestSubMostNegativeCrossScale: upstream moves 2^63 to
// inf.Dec; it has no int64 mantissa, so continuum throws. The neighbours stay exact.
TEST_CASE("TestNegAndSubAtMostNegative: 2^63 throws, its neighbours are exact") {
    CHECK_THROWS_AS((void)(-q(most_negative, 0)), InvalidArgument);
    CHECK_THROWS_AS((void)(Quantity{} - q(most_negative, 0)), InvalidArgument);
    CHECK_THROWS_AS((void)(q(1, 0) - q(most_negative, 0)), InvalidArgument);
    CHECK_THROWS_AS((void)(q(1, 1) - q(most_negative, 0)), InvalidArgument);
    CHECK_THROWS_AS((void)(q(1, -3) - q(most_negative, -3)), InvalidArgument);
    CHECK((-q(most_negative + 1, 0)).as_int64() == most_positive);
    CHECK((Quantity{} - q(most_negative + 1, 0)).as_int64() == most_positive);
    CHECK((q(-1, 0) - q(most_negative, 0)).as_int64() == most_positive);
    CHECK_THROWS_AS((void)(q(1, 0) + q(most_positive, 0)), InvalidArgument);  // 2^63: no int64 mantissa
}

// upstream TestMul: exact products; rows whose product upstream moves to inf.Dec ("ok" false)
// are exact here when an int64 mantissa holds them, and throw otherwise.
TEST_CASE("TestMul") {
    struct MulCase {
        Quantity a;
        std::int64_t b;
        Quantity expect;
    };
    const std::vector<MulCase> exact = {
        {q(10, 0), 10, q(100, 0)},
        {q(10, 0), 1, q(10, 0)},
        {q(10, 0, binary_si), 1, q(10, 0, binary_si)},
        {Quantity{}, 50, q(0, 0)},
        {q(50, 0), 0, q(0, 0)},
        {Quantity{}, 0, q(0, 0)},
        {q(10, 0), -10, q(-100, 0)},
        {q(-10, 0), 1, q(-10, 0)},
        {q(10, 0, binary_si), -1, q(-10, 0, binary_si)},
        {q(-50, 0), 0, q(0, 0)},
        {q(-50, 0), -50, q(2500, 0)},
        {Quantity{}, -50, q(0, 0)},
        {q(most_positive, 0), 0, q(0, 1)},
        {q(most_positive, 0), 1, q(most_positive, 0)},
        {q(most_positive, 0), -1, q(-most_positive, 0)},
        {q(most_positive / 2, 0), 2, q((most_positive / 2) * 2, 0)},
        {q(most_positive / -2, 0), -2, q((most_positive / 2) * 2, 0)},
        {q(most_positive, 0), 10, q(most_positive, 1)},     // upstream ok=false (inf.Dec), exact here
        {q(most_positive, 0), -10, q(-most_positive, 1)},   // upstream ok=false, exact here
        {q(most_negative, 0), 0, q(0, 1)},
        {q(most_negative, 0), 1, q(most_negative, 0)},
        {q(most_negative / 2, 0), 2, q(most_negative, 0)},
        {q(most_negative / -2, 0), -2, q(most_negative, 0)},
        {q(most_negative, 0), 10, q(most_negative, 1)},     // upstream ok=false, exact here
    };
    for (std::size_t i = 0; i < exact.size(); ++i) {
        CAPTURE(i);
        CHECK((exact[i].a * exact[i].b).cmp(exact[i].expect) == 0);
        CHECK((exact[i].b * exact[i].a).cmp(exact[i].expect) == 0);
    }
    CHECK((q(10, 0, binary_si) * 3).format() == binary_si);
    // upstream ok=false rows without an int64 mantissa: 2(2^63-1), -2^63 x -1, 2 x -2^63, -10 x -2^63
    CHECK_THROWS_AS((void)(q(most_positive, 0) * 2), InvalidArgument);
    CHECK_THROWS_AS((void)(q(most_negative, 0) * -1), InvalidArgument);
    CHECK_THROWS_AS((void)(q(most_negative, 0) * 2), InvalidArgument);
    CHECK_THROWS_AS((void)(q(most_negative, 0) * -10), InvalidArgument);
}

// upstream TestAddSubRoundTrip / TestAddSubRoundTripAcrossScales / TestNegateRoundTrip, seeded.
// Upstream adds 100 values near 2^63 (so its sums need inf.Dec); here the values are bounded so
// that every partial sum has an int64 mantissa, and a sum that does not is checked to throw.
TEST_CASE("TestAddSubRoundTrip / TestNegateRoundTrip (seeded)") {
    std::mt19937_64 random(16);
    for (int k = -10; k <= 10; ++k) {
        Quantity sum;
        std::vector<std::int64_t> order;
        for (int i = 0; i < 100; ++i) {
            const auto j = static_cast<std::int64_t>(random() >> 8);  // < 2^56: 100 of them stay below 2^63
            order.push_back(j);
            sum = sum + Quantity::from_scaled(j, k);
        }
        for (const auto j : order) sum = sum - Quantity::from_scaled(j, k);
        CHECK(sum.is_zero());
        for (int i = 0; i < 100; ++i) {
            const Quantity value = Quantity::from_scaled(static_cast<std::int64_t>(random() >> 1), k);
            CHECK((-(-value)).cmp(value) == 0);
        }
    }
    Quantity across;
    for (int i = 0; i < 50; ++i) across = across + Quantity::from_scaled(static_cast<std::int64_t>(random() >> 16), i % 3 - 1);
    CHECK_FALSE(across.is_zero());
    CHECK_THROWS_AS((void)(q(most_positive, 0) + q(most_positive, 0)), InvalidArgument);
    CHECK_THROWS_AS((void)(q(1, 40) + q(1, 0)), InvalidArgument);
    CHECK((q(1, 19) + q(-9000000000000000001, 0)).cmp(q(999999999999999999, 0)) == 0);  // exponents 19 apart, exact
}

// upstream TestQuantityAsApproximateFloat64 and TestStringQuantityAsApproximateFloat64.
TEST_CASE("TestQuantityAsApproximateFloat64: float64(unscaled) * math.Pow10(scale), bit for bit") {
    const std::int64_t seven_mi = 7 * 1024 * 1024;
    for (const auto format : {decimal_si, binary_si, decimal_exponent}) {
        CAPTURE(static_cast<int>(format));
        CHECK(q(0, 0, format).as_approximate_float64() == 0.0);
        CHECK(q(1, 0, format).as_approximate_float64() == 1.0);
        CHECK(q(1024, 0, format).as_approximate_float64() == 1024.0);
        CHECK(q(8 * 1024, 0, format).as_approximate_float64() == 8192.0);
        CHECK(q(seven_mi, 0, format).as_approximate_float64() == 7340032.0);
        CHECK(q(seven_mi, 1, format).as_approximate_float64() == 73400320.0);
        CHECK(q(seven_mi, 4, format).as_approximate_float64() == 73400320000.0);
        CHECK(q(seven_mi, 8, format).as_approximate_float64() == 734003200000000.0);
        CHECK(q(seven_mi, -1, format).as_approximate_float64() == 734003.2000000001);  // '* Pow10' is not '/ 10'
        CHECK(q(seven_mi, -8, format).as_approximate_float64() == 0.07340032);
        CHECK(q(seven_mi, -1, format).as_float64() == 734003.2);  // TestQuantityAsFloat64Slow: '/ 10'
        CHECK(q(seven_mi, -8, format).as_float64() == 0.07340032);
    }
    CHECK(q(most_positive, 0).as_approximate_float64() == 9223372036854775807.0);
    CHECK(q(most_positive, 0, binary_si).as_approximate_float64() == 9223372036854775807.0);
    CHECK(q(12, 18).as_approximate_float64() == 1.2e19);
    CHECK(q(12, 500).as_approximate_float64() == std::numeric_limits<double>::infinity());
    CHECK(q(-12, 500).as_approximate_float64() == -std::numeric_limits<double>::infinity());
    CHECK(q(12, 500).as_float64() == std::numeric_limits<double>::infinity());
    CHECK(q(-12, 500).as_float64() == -std::numeric_limits<double>::infinity());
    CHECK(Quantity::parse("2Ki").as_approximate_float64() == 2048.0);
    CHECK(Quantity::parse("1.1Ki").as_approximate_float64() == 1126.4);
    CHECK(Quantity::parse("1Mi").as_approximate_float64() == 1.048576e+06);
    CHECK(Quantity::parse("2Gi").as_approximate_float64() == 2.147483648e+09);
    CHECK(Quantity::parse("1.1Ki").as_float64() == 1126.4);
    // upstream's formula runs on the (unscaled, scale) it stored: "0.3" is 3 x 10^-1, "300m" 300 x 10^-3
    CHECK(Quantity::parse("0.3").as_approximate_float64() == 0.30000000000000004);
    CHECK(Quantity::parse("300m").as_approximate_float64() == 0.3);
    CHECK(Quantity::parse("0.3").as_float64() == 0.3);
    CHECK(Quantity::parse("1.5Gi").as_approximate_float64() == 1610612736.0);
}

// upstream TestMilliNewSet, TestNewSet, TestNewScaledSet, TestScaledValue.
TEST_CASE("TestNewSet / TestMilliNewSet / TestNewScaledSet / TestScaledValue") {
    const std::vector<std::tuple<std::int64_t, QuantityFormat, const char*>> milli = {
        {1, decimal_si, "1m"},         {1000, decimal_si, "1"},          {1234000, decimal_si, "1234"},
        {1024, binary_si, "1024m"},    {1000000, decimal_exponent, "1e3"}, {1024 * 1024, binary_si, "1048576m"},
    };
    for (const auto& [value, format, expect] : milli) {
        const auto expect_copy = expect;
        CAPTURE(expect_copy);
        CHECK(Quantity::from_milli(value, format).to_string() == expect);
        if (format != binary_si) CHECK(Quantity::parse(expect).milli_value() == value);
    }
    const std::vector<std::tuple<std::int64_t, QuantityFormat, const char*>> whole = {
        {1, decimal_si, "1"},     {1000, decimal_si, "1k"},           {1234000, decimal_si, "1234k"},
        {1024, binary_si, "1Ki"}, {1000000, decimal_exponent, "1e6"}, {1024 * 1024, binary_si, "1Mi"},
    };
    for (const auto& [value, format, expect] : whole) {
        const auto expect_copy = expect;
        CAPTURE(expect_copy);
        CHECK(Quantity::from_value(value, format).to_string() == expect);
        CHECK(Quantity::parse(expect).value() == value);
    }
    const std::vector<std::tuple<std::int64_t, int, const char*>> scaled = {
        {1, scale::nano, "1n"},  {1000, scale::nano, "1u"},  {1, scale::micro, "1u"}, {1000, scale::micro, "1m"},
        {1, scale::milli, "1m"}, {1000, scale::milli, "1"},  {1, 0, "1"},             {0, scale::nano, "0"},
        {0, scale::micro, "0"},  {0, scale::milli, "0"},     {0, 0, "0"},
    };
    for (const auto& [value, exponent, expect] : scaled) {
        const auto expect_copy = expect;
        CAPTURE(expect_copy);
        const Quantity made = Quantity::from_scaled(value, exponent);
        CHECK(made.to_string() == expect);
        CHECK(Quantity::parse(made.to_string()).scaled_value(exponent) == value);
    }
    const std::vector<std::tuple<int, int, std::int64_t>> values = {
        {scale::nano, scale::nano, 1},      {scale::nano, scale::micro, 1},    {scale::nano, scale::milli, 1},   {scale::nano, 0, 1},
        {scale::micro, scale::nano, 1000},  {scale::micro, scale::micro, 1},   {scale::micro, scale::milli, 1},  {scale::micro, 0, 1},
        {scale::milli, scale::nano, 1000000}, {scale::milli, scale::micro, 1000}, {scale::milli, scale::milli, 1}, {scale::milli, 0, 1},
        {0, scale::nano, 1000000000},       {0, scale::micro, 1000000},        {0, scale::milli, 1000},          {0, 0, 1},
        {2, -2, 10000},
    };
    for (const auto& [from, to, expect] : values) {
        const auto from_copy = from;
        CAPTURE(from_copy);
        const auto to_copy = to;
        CAPTURE(to_copy);
        CHECK(Quantity::from_scaled(1, from).scaled_value(to) == expect);
    }
}

// upstream TestJSON (its fuzzer's value shapes, seeded), TestJSONWhitespace, TestQuantityValueSet.
TEST_CASE("TestJSON / TestJSONWhitespace: JSON is the String() text in quotes") {
    std::mt19937_64 random(500);
    const auto int63 = [&] { return static_cast<std::int64_t>(random() >> 1); };
    const auto below = [&](std::int64_t n) { return static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(n)); };
    for (int i = 0; i < 500; ++i) {
        Quantity original;
        if (below(2) == 0) {
            original = below(2) == 0 ? Quantity::from_value(int63(), binary_si)
                                     : Quantity::from_value(below(1024) << (10 * below(5)), binary_si);
        } else {
            const QuantityFormat format = below(2) == 0 ? decimal_si : decimal_exponent;
            original = below(2) == 0 ? Quantity::from_scaled(int63(), -static_cast<int>(below(4)), format)
                                     : Quantity::from_scaled(below(1000), -static_cast<int>(3 - below(15)), format);
        }
        const std::string json = original.to_json();
        CAPTURE(json);
        CHECK(Quantity::from_json(json).cmp(original) == 0);
    }
    const std::vector<std::pair<const char*, const char*>> whitespace = {
        {"\" 1\"", "1"}, {"\"1 \"", "1"}, {"1", "1"}, {" 1", "1"}, {"1 ", "1"}, {"10", "10"}, {"-1", "-1"}, {" -1", "-1"},
    };
    for (const auto& [in, expect] : whitespace) {
        const auto in_copy = in;
        CAPTURE(in_copy);
        CHECK(Quantity::from_json(in).to_string() == expect);
    }
    CHECK(Quantity::from_json("\"\xC2\xA0" "2Gi\xE3\x80\x80\"").to_string() == "2Gi");  // Unicode spaces, as Go's TrimSpace
    CHECK(Quantity::from_json("null").is_zero());
    CHECK(Quantity::parse("1Mi").to_json() == "\"1Mi\"");
    CHECK(Quantity::parse("1.5Gi").to_json() == "\"1536Mi\"");
    CHECK_THROWS_WITH_AS((void)Quantity::from_json("\"invalid\""), doctest::Contains("\"\\x22invalid\\x22\""), ParseError);
    CHECK_THROWS_AS((void)Quantity::from_json("\"\""), ParseError);
}

TEST_CASE("Sign, IsZero, AsInt64 and the accessors") {
    CHECK(Quantity::parse("-1m").sign() == -1);
    CHECK(Quantity::parse("0Gi").sign() == 0);
    CHECK(Quantity::parse("5n").sign() == 1);
    CHECK(Quantity::parse("0.000").is_zero());
    CHECK_FALSE(Quantity::parse("1n").is_zero());
    CHECK(Quantity::parse("1000m").as_int64() == 1);  // upstream: (0, false), its int64Amount has scale -3
    CHECK(Quantity::parse("1.5Gi").as_int64() == 1610612736);
    CHECK_FALSE(Quantity::parse("1500m").as_int64().has_value());
    CHECK_FALSE(Quantity::parse("10E").as_int64().has_value());
    CHECK(Quantity::parse("1500").mantissa() == 15);
    CHECK(Quantity::parse("1500").exponent() == 2);
}

TEST_CASE("rounding is away from zero at every scale (ScaledValue)") {
    CHECK(Quantity::parse("1m").value() == 1);
    CHECK(Quantity::parse("-1m").value() == -1);
    CHECK(Quantity::parse("1.0001").scaled_value(scale::milli) == 1001);
    CHECK(Quantity::parse("999999999n").milli_value() == 1000);
    CHECK(Quantity::parse("1Mi").scaled_value(scale::kilo) == 1049);  // 1048.576 -> 1049
    CHECK(Quantity::parse("1.5Gi").scaled_value(scale::giga) == 2);
    CHECK(Quantity::parse("0.0000000000001").scaled_value(-12) == 1000);  // parse rounded it to 1n
    CHECK(Quantity::parse("1e-1000000").milli_value() == 1);
    CHECK(Quantity::parse("9E").value() == 9000000000000000000LL);
    CHECK_THROWS_AS((void)Quantity::parse("9E").milli_value(), InvalidArgument);
    CHECK_THROWS_AS((void)Quantity::parse("1e19").value(), InvalidArgument);
}

TEST_CASE("malformed text throws ParseError naming the text") {
    const std::vector<std::string> bad = {" ",    "1.2.3", "5Zi",   "1K",    "1e",     "1ee",   "1Ki ", "1e3.5",  "1i",   "--1",
                                          "1.5.", "1mi",   "1KiB",  "1e+",   "0x10",   "1,5",   "1ki",  "1KI",    "1Z",   "1e1.5",
                                          "1e.5", "1e3k",  "1E3Ki", "1e+-3", "1..5",   "1-",    "++1",  "1_000",  "1/2",  "Inf",
                                          "NaN",  "1Ee3",  "1ie3",  "e",     std::string("1\0", 2)};
    for (const auto& text : bad) {
        CAPTURE(text);
        CHECK_THROWS_WITH_AS((void)Quantity::parse(text), doctest::Contains(continuum::detail::quoted(text).c_str()), ParseError);
    }
    CHECK(continuum::detail::quoted(std::string("1\0\"", 3)) == "\"1\\x00\\x22\"");
}

TEST_CASE("format_quantity, from_scaled and fmt print String()") {
    CHECK(continuum::format_quantity(1500, scale::milli) == "1500m");
    CHECK(continuum::format_quantity(2000, scale::milli) == "2");
    CHECK(continuum::format_quantity(1610612736, scale::unit, binary_si) == "1536Mi");
    CHECK(continuum::format_quantity(1000, scale::unit, binary_si) == "1k");  // below 1024: decimal
    CHECK(continuum::format_quantity(4294967296, scale::unit, binary_si) == "4Gi");
    CHECK(continuum::format_quantity(0, scale::milli) == "0");
    CHECK(continuum::format_quantity(-2500, scale::milli) == "-2500m");
    CHECK(Quantity::from_scaled(1, 30).to_string() == "1e30");
    CHECK(Quantity::from_scaled(1, -12).to_string() == "1e-12");  // DecimalSI has no suffix below n
    CHECK(Quantity::from_scaled(1, 30, binary_si).to_string() == "931322574615478515625Gi");
    CHECK(Quantity::from_scaled(most_negative, 0, binary_si).to_string() == "-8Ei");
    CHECK(fmt::format("{}", Quantity::parse("1.5Gi")) == "1536Mi");
    CHECK(continuum::parse_quantity("250m", scale::milli) == 250);
    CHECK(continuum::parse_quantity("4Gi") == 4294967296LL);
    CHECK_THROWS_AS((void)continuum::parse_quantity("4GB"), ParseError);
}
