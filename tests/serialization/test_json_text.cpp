// The JSON text layer of the state documents: the one-pass writer (std::to_chars doubles, escaped
// strings) and the tape reader (nlohmann_json's SAX parser, paths computed on error) keep every
// double bit-identical, refuse what JSON cannot hold and name the field of a bad document.
#include "state_testing.hpp"

#include <continuum/serialization/quota.hpp>

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

using namespace continuum;
namespace fc = continuum::forecast;

namespace {

using TextHybridState = quota::HybridQuotaScalerState<fc::SimpleExponentialSmoothingState>;

fc::SimpleExponentialSmoothingState text_ses(double level) {
    fc::SimpleExponentialSmoothingState s;
    s.alpha = 0.3;
    s.level = level;
    s.sse = 1.5;
    s.count = 7;
    s.fitted = true;
    return s;
}

TextHybridState text_hybrid(const std::string& name, double level) {
    TextHybridState s;
    quota::HybridNamespaceState<fc::SimpleExponentialSmoothingState> ns;
    ns.name = name;
    ns.priority = -3;
    ns.models = {text_ses(level)};
    ns.history = {{0.1, 2.0, 1e-7}};
    ns.since_fit = 2;
    ns.pending = quota::PendingDecrease{Resources{{"cpu", "2"}, {"memory", "1Gi"}}, Time{std::chrono::minutes(3)}, std::nullopt};
    s.namespaces = {ns};
    s.last_now = Time{std::chrono::minutes(4)};
    return s;
}

}  // namespace

TEST_CASE("state text: doubles read back bit-identically, including -0 and the extremes") {
    for (const double v : {-0.0, 0.0, 1.0, -2.0, 0.1, 1.0 / 3.0, 1e300, -1e-300, 5e-324, std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::min(), 1152921504606846976.0 /* 2^60 */, 18446744073709551616.0 /* 2^64 */, 123456789.125}) {
        CAPTURE(v);
        const auto back = testing::through_json(text_ses(v));
        CHECK(std::bit_cast<std::uint64_t>(back.level) == std::bit_cast<std::uint64_t>(v));
    }
    CHECK(serialization::dump(text_ses(-0.0)).find("\"level\":-0.0") != std::string::npos);
    CHECK(serialization::dump(text_ses(2.0)).find("\"level\":2.0,") != std::string::npos);
    CHECK(serialization::dump(text_ses(1e300)).find("\"level\":1e+300,") != std::string::npos);
    CHECK_THROWS_WITH_AS((void)serialization::dump(text_ses(std::nan(""))), "state document: field level = nan is not finite and cannot be written", InvalidArgument);
}

TEST_CASE("state text: the hybrid document in one pass, names escaped, invalid UTF-8 refused") {
    const auto plain = text_hybrid("team-a", 2.5);
    CHECK(serialization::dump(plain) ==
          R"({"schema":"continuum.HybridQuotaScaler","version":1,"namespaces":[{"name":"team-a","priority":-3,"models":[{"schema":"continuum.SimpleExponentialSmoothing","version":1,)"
          R"("fixed_alpha":null,"alpha":0.3,"level":2.5,"sse":1.5,"count":7,"fitted":true}],"history":[[0.1,2.0,1e-07]],"fitted":false,"since_fit":2,)"
          R"("pending":{"target":{"cpu":2000,"memory":1073741824},"since":180000,"condition_since":null}}],"last_now":240000})");
    (void)testing::through_json(plain);
    const auto odd = testing::through_json(text_hybrid("quote\" back\\slash tab\t é 名前", 1.0));
    CHECK(odd.namespaces[0].name == "quote\" back\\slash tab\t é 名前");
    CHECK_THROWS_WITH_AS((void)serialization::dump(text_hybrid("bad\xff", 1.0)), "state document: string \"bad\\xff\" is not valid UTF-8 and cannot be written",
                         InvalidArgument);
}

TEST_CASE("state text: malformed text and bad fields are ParseErrors naming the place") {
    using State = TextHybridState;
    const std::string good = serialization::dump(text_hybrid("team-a", 2.5));
    CHECK_THROWS_WITH_AS((void)serialization::parse<State>(good.substr(0, good.size() - 1)),
                         doctest::Contains("state document: not valid JSON: [json.exception.parse_error.101]"), ParseError);
    CHECK_THROWS_WITH_AS((void)serialization::parse<State>("[1, 2]"), "state document: $: expected an object, got array", ParseError);
    std::string text = good;
    text.replace(text.find("\"level\":2.5"), 11, "\"level\":1e999");
    CHECK_THROWS_WITH_AS((void)serialization::parse<State>(text), doctest::Contains("number overflow parsing '1e999'"), ParseError);
    text = good;
    text.replace(text.find("[[0.1,2.0"), 9, "[[0.1,true");
    CHECK_THROWS_WITH_AS((void)serialization::parse<State>(text), "state document: $.namespaces[0].history[0][1]: expected a number, got boolean", ParseError);
    text = good;
    text.replace(text.find("\"since\":180000"), 14, "\"since\":-1.5");
    CHECK_THROWS_WITH_AS((void)serialization::parse<State>(text), "state document: $.namespaces[0].pending.since: expected an integer, got number", ParseError);
    text = good;
    text.replace(text.find("\"count\":7"), 9, "\"count\":-7");
    CHECK_THROWS_WITH_AS((void)serialization::parse<State>(text), "state document: $.namespaces[0].models[0].count: -7 is negative", ParseError);
    // A repeated key: the last one counts (as in nlohmann_json's DOM).
    text = good;
    text.replace(text.find("\"priority\":-3"), 13, "\"priority\":-3,\"priority\":9");
    CHECK(serialization::parse<State>(text).namespaces[0].priority == 9);
}
