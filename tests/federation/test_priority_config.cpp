// The priority expander and its ConfigMap against upstream's priority/priority_test.go (every test,
// with its configs and expected events verbatim), plus YAML as yaml.v2 reads it and regexes as RE2
// (Go's regexp syntax) reads them. Needs yaml-cpp and RE2 (continuum::priority_config).
#include <doctest/doctest.h>

#if defined(CONTINUUM_HAVE_PRIORITY_CONFIG)

#include <continuum/federation/expander_chain.hpp>
#include <continuum/federation/priority_config.hpp>

#include <string>

using namespace continuum;
using namespace continuum::federation;

namespace {
using Indices = std::vector<std::size_t>;

// Upstream's configs (Go raw strings: YAML double-quoted strings whose "\\." is the regex "\.").
constexpr const char* config = R"(
5:
  - ".*t2\\.micro.*"
10: 
  - ".*t2\\.large.*"
  - ".*t3\\.large.*"
50: 
  - ".*m4\\.4xlarge.*"
)";
constexpr const char* one_entry_config = R"(
10: 
  - ".*t2\\.large.*"
)";
constexpr const char* not_matching_config = R"(
5:
  - ".*t\\.micro.*"
10: 
  - ".*t\\.large.*"
)";
constexpr const char* wildcard_match_config = R"(
5:
  - ".*"
10:
  - ".t2\\.large.*"
)";
constexpr const char* config_warn_config_map_empty =
    "Warning PriorityConfigMapInvalid Wrong configuration for priority expander: priority configuration in cluster-autoscaler-priority-expander "
    "configmap is empty; please provide valid configuration. Ignoring update.";
std::string config_warn_group_not_found(const std::string& group) {
    return "Warning PriorityConfigMapNotMatchedGroup Priority expander: node group " + group +
           " not found in priority expander configuration. The group won't be used.";
}

ExpansionOption group(std::string id) {
    ExpansionOption o;
    o.node_group = std::move(id);
    o.node_capacity = Resources{{"cpu", "2"}, {"memory", "4Gi"}};
    return o;
}
const ExpansionOption t2_micro = group("my-asg.t2.micro");
const ExpansionOption t2_large = group("my-asg.t2.large");
const ExpansionOption t3_large = group("my-asg.t3.large");
const ExpansionOption m4_4xlarge = group("my-asg.m4.4xlarge");

Indices best_options(const char* yaml, std::vector<ExpansionOption> options) { return priority(options, PriorityTiers::parse(yaml)).kept; }
}  // namespace

static_assert(OptionFilter<PriorityTiers>);

TEST_CASE("priority: upstream priority_test.go, test by test") {
    // TestPriorityExpanderCorrecltyFiltersSingleMatchingOptionOutOfOne
    CHECK(best_options(config, {t2_large}) == Indices{0});
    // TestPriorityExpanderCorrecltyFiltersSingleMatchingOptionOutOfMany
    CHECK(best_options(config, {t2_large, m4_4xlarge}) == Indices{1});
    // TestPriorityExpanderFiltersToHigherPriorityMatch
    CHECK(best_options(wildcard_match_config, {t2_large, t2_micro}) == Indices{0});
    // TestPriorityExpanderCorrecltyFiltersTwoMatchingOptionsOutOfMany
    CHECK(best_options(config, {t2_large, t3_large, t2_micro}) == Indices{0, 1});
    // TestPriorityExpanderCorrecltyFallsBackToAllWhenNoMatches (upstream's options both match
    // priority 10; notMatchingConfig is the case where nothing matches)
    CHECK(best_options(config, {t2_large, t3_large}) == Indices{0, 1});
    const auto nothing = priority(std::vector{t2_large, t3_large}, PriorityTiers::parse(not_matching_config));
    CHECK(nothing.kept == Indices{0, 1});
    REQUIRE(nothing.warnings.size() == 3);
    CHECK(nothing.warnings[0] == config_warn_group_not_found("my-asg.t2.large"));
    CHECK(nothing.warnings[2] == "Warning PriorityConfigMapNoGroupMatched Priority expander: no priorities info found for any of the expansion options. "
                                 "No options filtered.");
    // TestPriorityExpanderCorrecltyHandlesConfigUpdate: one entry, then the full config.
    const std::vector<ExpansionOption> three = {t2_large, t3_large, m4_4xlarge};
    const auto first = priority(three, PriorityTiers::parse(one_entry_config));
    CHECK(first.kept == Indices{0});
    CHECK(first.warnings == std::vector<std::string>{config_warn_group_not_found("my-asg.t3.large"), config_warn_group_not_found("my-asg.m4.4xlarge")});
    CHECK(priority(three, PriorityTiers::parse(config)).kept == Indices{2});
    // TestPriorityExpanderCorrecltySkipsBadChangeConfig: an empty ConfigMap value filters nothing.
    const auto empty = priority(three, PriorityTiers::parse(""));
    CHECK(empty.kept == Indices{0, 1, 2});
    CHECK(empty.warnings == std::vector<std::string>{config_warn_config_map_empty});
    CHECK_FALSE(PriorityTiers::parse("").configured());
    CHECK(priority(three, PriorityTiers{}).warnings == std::vector<std::string>{config_warn_config_map_empty});
}

TEST_CASE("priority: a double-quoted YAML pattern is unescaped before RE2 reads it") {
    const auto tiers = PriorityTiers::parse(config);
    CHECK(tiers.tiers().at(5) == std::vector<std::string>{R"(.*t2\.micro.*)"});  // one backslash: the regex escape
    CHECK(tiers.highest_match("my-asg.t2.micro") == 5);
    CHECK_FALSE(tiers.highest_match("my-asg.t2xmicro"));  // "\." is a literal dot, not any character
    // Single-quoted and plain scalars keep backslashes (YAML has no escapes there).
    CHECK(PriorityTiers::parse("1:\n  - '^a\\.b$'\n").highest_match("a.b") == 1);
    CHECK(PriorityTiers::parse("1:\n  - ^a\\.b$\n").highest_match("axb") == std::nullopt);
    // yaml.v2 reading of map[int][]string: hex and octal keys, numbers as patterns, null tiers and
    // patterns, the last of a repeated key.
    const auto odd = PriorityTiers::parse("0x10:\n  - 5\n010:\n  - ~\n3:\n7: [a]\n7: [b]\n");
    CHECK(odd.tiers() == std::map<std::int64_t, std::vector<std::string>>{{3, {}}, {7, {"b"}}, {8, {""}}, {16, {"5"}}});
    CHECK(odd.highest_match("pool-5") == 16);
    CHECK(odd.highest_match("anything") == 8);  // "" (from ~) matches every id, as in Go
    CHECK(PriorityTiers::parse("9000000000:\n  - x\n").highest_match("x") == 9000000000);  // Go's int is 64-bit
    CHECK(PriorityTiers::parse("!!int 12: [x]\n").highest_match("x") == 12);
    // Comments only or null: no tiers, so nothing matches and every option is kept.
    const auto comments = PriorityTiers::parse("# nothing yet\n");
    CHECK(comments.configured());
    CHECK(comments.empty());
    CHECK(priority(std::vector{t2_large}, comments).kept == Indices{0});
}

TEST_CASE("priority: regex tiers, highest matching tier wins, unmatched pass through") {
    const auto tiers = PriorityTiers::parse(R"(# cluster-autoscaler-priority-expander
10:
  - .*
50:
  - .*-spot-.*
  - "^liqo-low"
-5:
  - never
)");
    CHECK(tiers.tiers().size() == 3);
    CHECK(tiers.highest_match("liqo-low-1") == 50);
    CHECK(tiers.highest_match("pool-ondemand") == 10);
    const std::vector<ExpansionOption> options = {group("pool-ondemand"), group("pool-spot-a"), group("liqo-low-1"), group("x-liqo-low")};
    CHECK(priority(options, tiers).kept == Indices{1, 2});  // "^liqo-low" is anchored, ".*-spot-.*" unanchored
    CHECK(priority(options, Indices{0, 3}, tiers).kept == Indices{0, 3});
    CHECK(priority(options, PriorityTiers({{100, {"^gpu$"}}})).kept == Indices{0, 1, 2, 3});
    // Priorities below -1 never select (CA starts the running maximum at -1), and are not "not found".
    const auto negative = priority(options, PriorityTiers({{-5, {"spot"}}, {-1, {"ondemand"}}}));
    CHECK(negative.kept == Indices{0});
    CHECK(negative.warnings.size() == 2);  // liqo-low-1 and x-liqo-low match nothing; pool-spot-a matched -5
    CHECK(priority(options, PriorityTiers({{-5, {"spot"}}})).kept == Indices{0, 1, 2, 3});

    // As a chain stage.
    ExpanderContext context;
    context.priority = tiers;
    const auto choice = ExpanderChain::parse("priority,least-waste").choose(options, context, 1);
    CHECK(choice.stages.front() == Indices{1, 2});
    CHECK(choice.warnings.empty());
}

TEST_CASE("priority: RE2 (Go regexp syntax) decides what compiles") {
    // Go and RE2: no back-references (\1 is an error), but \0 and \44 are octal escapes.
    CHECK_THROWS_WITH_AS(PriorityTiers({{1, {R"((a)\1)"}}}), doctest::Contains("invalid escape sequence: \\1"), ParseError);
    CHECK(PriorityTiers({{1, {R"(^x\44$)"}}}).highest_match("x$") == 1);
    CHECK(PriorityTiers({{1, {R"([a\0])"}}}).highest_match(std::string("\0", 1)) == 1);
    // Repetition limit 1000, also for nested repetitions.
    CHECK_THROWS_WITH_AS(PriorityTiers({{7, {"a{1001}"}}}), doctest::Contains("for priority 7 and rule \"a{1001}\": invalid repetition size"), ParseError);
    CHECK_THROWS_AS(PriorityTiers({{1, {"(a{100}){11}"}}}), ParseError);
    CHECK_THROWS_AS(PriorityTiers({{1, {"((x{10}y){10}){11}"}}}), ParseError);
    CHECK(PriorityTiers({{1, {"^n{2,3}$"}}}).highest_match("nnn") == 1);
    CHECK(PriorityTiers({{1, {"a{1000}"}}}).highest_match("b") == std::nullopt);
    CHECK_THROWS_AS(PriorityTiers({{1, {".**a"}}}), ParseError);  // Go: invalid nested repetition operator
    CHECK_THROWS_AS(PriorityTiers({{1, {"(unclosed"}}}), ParseError);
    CHECK(PriorityTiers({{1, {R"(\Qa.b\E)"}}}).highest_match("xa.by") == 1);
    // Linear-time matching: the textbook exponential case for backtracking engines.
    CHECK(PriorityTiers({{20, {"(a*)*b"}}}).highest_match(std::string(60, 'a') + "b") == 20);
    CHECK_FALSE(PriorityTiers({{20, {"(a*)*b"}}}).highest_match(std::string(60, 'a')));
}

TEST_CASE("priority: malformed ConfigMaps are a ParseError naming the line") {
    CHECK_THROWS_WITH_AS(PriorityTiers::parse("ten:\n  - a\n"), doctest::Contains("line 1: priority \"ten\" is not an integer"), ParseError);
    CHECK_THROWS_WITH_AS(PriorityTiers::parse("\"10\":\n  - a\n"), doctest::Contains("priority \"10\" is not an integer"), ParseError);  // yaml.v2: a string key
    CHECK_THROWS_WITH_AS(PriorityTiers::parse("10:\n  foo\n"), doctest::Contains("line 2: priority 10 must map to a list of patterns"), ParseError);
    CHECK_THROWS_WITH_AS(PriorityTiers::parse("10:\n  - [a, b]\n"), doctest::Contains("a pattern of priority 10 must be a string, got a list"), ParseError);
    CHECK_THROWS_AS(PriorityTiers::parse("  - a\n"), ParseError);  // a list, not a mapping
    CHECK_THROWS_WITH_AS(PriorityTiers::parse("10: [a\n"), doctest::Contains("can't parse YAML"), ParseError);
    CHECK_THROWS_AS(PriorityTiers::parse("10:\n  - [a-\n"), ParseError);
}

#else

TEST_CASE("priority ConfigMap: skipped, yaml-cpp or RE2 not found (install libyaml-cpp-dev libre2-dev)" * doctest::skip()) {}

#endif
