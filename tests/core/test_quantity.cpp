// Kubernetes quantity parsing and canonical printing, table-driven from apimachinery's behaviour
// (k8s.io/apimachinery/pkg/api/resource quantity_test.go and the documented rounding rules).
#include <continuum/core/quantity.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

using continuum::Quantity;
using continuum::QuantityFormat;
namespace scale = continuum::scale;

namespace {
struct Case {
    const char* text;
    const char* canonical;
    std::int64_t milli;
    std::int64_t units;
};
}  // namespace

TEST_CASE("quantities parse and print canonically as apimachinery does") {
    const std::vector<Case> cases = {
        {"0", "0", 0, 0},
        {"0n", "0", 0, 0},
        {"0Ki", "0", 0, 0},
        {"0.0", "0", 0, 0},
        {"1", "1", 1000, 1},
        {"250m", "250m", 250, 1},
        {"1500m", "1500m", 1500, 2},
        {"1.5", "1500m", 1500, 2},
        {"0.5", "500m", 500, 1},
        {".5", "500m", 500, 1},
        {"5.", "5", 5000, 5},
        {"+1", "1", 1000, 1},
        {"-1", "-1", -1000, -1},
        {"-0.5", "-500m", -500, -1},
        {"1000m", "1", 1000, 1},
        {"1000000m", "1k", 1000000, 1000},
        {"2000", "2k", 2000000, 2000},
        {"1500", "1500", 1500000, 1500},
        {"1.5k", "1500", 1500000, 1500},
        {"5n", "5n", 1, 1},
        {"4u", "4u", 1, 1},
        {"3m", "3m", 3, 1},
        {"8k", "8k", 8000000, 8000},
        {"50k", "50k", 50000000, 50000},
        {"7M", "7M", 7000000000, 7000000},
        {"6G", "6G", 6000000000000, 6000000000},
        {"5T", "5T", 5000000000000000, 5000000000000},
        {"2P", "2P", 2000000000000000000, 2000000000000000},
        {"1Ki", "1Ki", 1024000, 1024},
        {"8Ki", "8Ki", 8192000, 8192},
        {"7Mi", "7Mi", 7340032000, 7340032},
        {"6Gi", "6Gi", 6442450944000, 6442450944},
        {"1.5Gi", "1536Mi", 1610612736000, 1610612736},
        {"0.5Ki", "512", 512000, 512},
        {"0.1Ki", "102400m", 102400, 103},
        {"1024Mi", "1Gi", 1073741824000, 1073741824},
        {"1025", "1025", 1025000, 1025},
        {"1e3", "1e3", 1000000, 1000},
        {"1E3", "1e3", 1000000, 1000},
        {"1e-3", "1e-3", 1, 1},
        {"1E-9", "1e-9", 1, 1},
        {"1e0", "1", 1000, 1},
        {"1.5e3", "1500", 1500000, 1500},
        {"12e6", "12e6", 12000000000, 12000000},
        {"0.0001", "100u", 1, 1},
        {"0.0005", "500u", 1, 1},
        {"0.0000000001", "1n", 1, 1},
        {"-0.0001", "-100u", -1, -1},
        {"100m", "100m", 100, 1},
        {"0.001", "1m", 1, 1},
        // apimachinery's TestQuantityParse / TestQuantityParseEmit rows
        {"100.035k", "100035", 100035000, 100035},
        {"0.0005k", "500m", 500, 1},
        {"10.035M", "10035k", 10035000000, 10035000},
        {"1.3E+6", "1300e3", 1300000000, 1300000},
        {"8.1k", "8100", 8100000, 8100},
        {"1.01P", "1010T", 1010000000000000000, 1010000000000000},
        {"3.001n", "4n", 1, 1},
        {"1.1E-9", "2e-9", 1, 1},
        {"0.00000012345", "124n", 1, 1},
        {".001Ki", "1024m", 1024, 2},
        {".000001Ki", "1024u", 2, 1},
        {".000000001Ki", "1024n", 1, 1},
        {".000000000001Ki", "2n", 1, 1},
        {"1.G", "1G", 1000000000000, 1000000000},
        {".0001k", "100m", 100, 1},
        {"100.035Ki", "102435840m", 102435840, 102436},
        {"0.5Mi", "512Ki", 524288000, 524288},
    };
    CHECK(cases.size() >= 40);
    for (const auto& c : cases) {
        CAPTURE(c.text);
        const Quantity q = Quantity::parse(c.text);
        CHECK(q.to_string() == c.canonical);
        CHECK(q.milli_value() == c.milli);
        CHECK(q.value() == c.units);
    }
}

TEST_CASE("formats follow the suffix written") {
    CHECK(Quantity::parse("1Ki").format() == QuantityFormat::binary_si);
    CHECK(Quantity::parse("1k").format() == QuantityFormat::decimal_si);
    CHECK(Quantity::parse("1e3").format() == QuantityFormat::decimal_exponent);
    CHECK(Quantity::parse("1E").format() == QuantityFormat::decimal_si);  // exa, not an exponent
    CHECK(Quantity::parse("1E").value() == 1000000000000000000LL);
    CHECK(Quantity::parse("7Ei").value() == 7LL * (1LL << 60));
    CHECK(Quantity::parse("7Ei").to_string() == "7Ei");
}

TEST_CASE("rounding is away from zero at every scale") {
    CHECK(Quantity::parse("1m").value() == 1);
    CHECK(Quantity::parse("-1m").value() == -1);
    CHECK(Quantity::parse("1.0001").scaled_value(scale::milli) == 1001);
    CHECK(Quantity::parse("999999999n").milli_value() == 1000);
    CHECK(Quantity::parse("1Mi").scaled_value(scale::kilo) == 1049);  // 1048.576 -> 1049
    CHECK(Quantity::parse("1.5Gi").scaled_value(scale::giga) == 2);
    // More than 18 significant digits: the 19th and beyond round the kept digits up.
    CHECK(Quantity::parse("1.0000000000000000001").milli_value() == 1001);
    CHECK(Quantity::parse("0.1000000000000000000000001").milli_value() == 101);
    CHECK(Quantity::parse("0.0000000000001").scaled_value(-12) == 1000);  // parse rounded it to 1n
    CHECK(Quantity::parse("0.000000000001Ki").format() == QuantityFormat::decimal_si);
}

TEST_CASE("equality compares values, not spellings") {
    CHECK(Quantity::parse("1Ki") == Quantity::parse("1024"));
    CHECK(Quantity::parse("1.5") == Quantity::parse("1500m"));
    CHECK(Quantity::parse("0") == Quantity::parse("0Gi"));
    CHECK_FALSE(Quantity::parse("1") == Quantity::parse("1001m"));
}

TEST_CASE("malformed or overflowing text throws ParseError naming the text") {
    const std::vector<std::string> bad = {"",     " ",   "1.2.3", "5Zi", "1K",   "1e",    "1ee",  "Ki",   "-",  ".",
                                          "1 ",   " 1",  "1Ki ",  "1e3.5", "1i", "--1",   "1.5.", "e3",   "1mi", "1KiB",
                                          "10E",  "8Ei", "99999999999999999999", "1e19", "1e+", "0x10", "1,5",
                                          "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "-3.01i", "-3.01e-",
                                          "1ki", "1KI", "1Z", "1e1.5", "1e.5", "1e3k", "1E3Ki", "1e+-3", "1..5",
                                          "1-", "++1", "1_000", "1/2", "Inf", "NaN", std::string("1\0", 2)};
    for (const auto& text : bad) {
        CAPTURE(text);
        CHECK_THROWS_AS((void)Quantity::parse(text), continuum::ParseError);
        try {
            (void)Quantity::parse(text);
        } catch (const continuum::ParseError& e) {
            CHECK(std::string(e.what()).find(continuum::detail::quoted(text)) != std::string::npos);
        }
    }
    CHECK(continuum::detail::quoted(std::string("1\0\"", 3)) == "\"1\\x00\\x22\"");
    CHECK_NOTHROW((void)Quantity::parse("9E"));
    CHECK_NOTHROW((void)Quantity::parse("1e18"));
    CHECK_NOTHROW((void)Quantity::parse("1e-1000000"));
}

TEST_CASE("scaled values that leave int64 throw InvalidArgument") {
    CHECK_THROWS_AS((void)Quantity::parse("9E").milli_value(), continuum::InvalidArgument);
    CHECK(Quantity::parse("9E").value() == 9000000000000000000LL);
    CHECK(Quantity::parse("1e-1000000").milli_value() == 1);
}

TEST_CASE("format_quantity and from_scaled print canonical text") {
    CHECK(continuum::format_quantity(1500, scale::milli) == "1500m");
    CHECK(continuum::format_quantity(2000, scale::milli) == "2");
    CHECK(continuum::format_quantity(1610612736, scale::unit, QuantityFormat::binary_si) == "1536Mi");
    CHECK(continuum::format_quantity(1000, scale::unit, QuantityFormat::binary_si) == "1k");
    CHECK(continuum::format_quantity(4294967296, scale::unit, QuantityFormat::binary_si) == "4Gi");
    CHECK(continuum::format_quantity(0, scale::milli) == "0");
    CHECK(continuum::format_quantity(-2500, scale::milli) == "-2500m");
    CHECK_THROWS_AS((void)Quantity::from_scaled(1, 30), continuum::InvalidArgument);
    CHECK(fmt::format("{}", Quantity::parse("1.5Gi")) == "1536Mi");
}

TEST_CASE("parse_quantity returns canonical integers") {
    CHECK(continuum::parse_quantity("250m", scale::milli) == 250);
    CHECK(continuum::parse_quantity("2", scale::milli) == 2000);
    CHECK(continuum::parse_quantity("4Gi") == 4294967296LL);
    CHECK_THROWS_AS((void)continuum::parse_quantity("4GB"), continuum::ParseError);
}
