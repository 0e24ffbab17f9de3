#include <continuum/federation/selector.hpp>

#include <doctest/doctest.h>

using namespace continuum;
using namespace continuum::federation;

TEST_CASE("selector: string form parses into Kubernetes requirements") {
    const auto s = parse_label_selector("a=b,c in (x,y),!d");
    REQUIRE(s.match_expressions.size() == 3);
    CHECK(s.match_expressions[0] == SelectorRequirement{"a", SelectorOperator::in, {"b"}});
    CHECK(s.match_expressions[1] == SelectorRequirement{"c", SelectorOperator::in, {"x", "y"}});
    CHECK(s.match_expressions[2] == SelectorRequirement{"d", SelectorOperator::does_not_exist, {}});
    CHECK(s.to_string() == "a=b,c in (x,y),!d");

    const auto t = parse_label_selector("  tier , env != prod, zone notin ( z1 , z2 ), k==v, topology.kubernetes.io/region=eu-west, size>4, n<10 ");
    REQUIRE(t.match_expressions.size() == 7);
    CHECK(t.match_expressions[0] == SelectorRequirement{"tier", SelectorOperator::exists, {}});
    CHECK(t.match_expressions[1] == SelectorRequirement{"env", SelectorOperator::not_in, {"prod"}});
    CHECK(t.match_expressions[2] == SelectorRequirement{"zone", SelectorOperator::not_in, {"z1", "z2"}});
    CHECK(t.match_expressions[3] == SelectorRequirement{"k", SelectorOperator::in, {"v"}});
    CHECK(t.match_expressions[4] == SelectorRequirement{"topology.kubernetes.io/region", SelectorOperator::in, {"eu-west"}});
    CHECK(t.match_expressions[5] == SelectorRequirement{"size", SelectorOperator::gt, {"4"}});
    CHECK(t.match_expressions[6] == SelectorRequirement{"n", SelectorOperator::lt, {"10"}});
    CHECK(parse_label_selector("").empty());
    CHECK(parse_label_selector("a=").match_expressions[0] == SelectorRequirement{"a", SelectorOperator::in, {""}});
}

TEST_CASE("selector: matching follows Kubernetes semantics") {
    const Labels labels{{"region", "eu"}, {"tier", "gold"}, {"cores", "8"}};
    CHECK(parse_label_selector("region=eu").matches(labels));
    CHECK_FALSE(parse_label_selector("region=us").matches(labels));
    CHECK(parse_label_selector("region in (us,eu)").matches(labels));
    CHECK(parse_label_selector("zone notin (z1)").matches(labels));  // absent key satisfies NotIn
    CHECK_FALSE(parse_label_selector("region notin (eu)").matches(labels));
    CHECK(parse_label_selector("tier").matches(labels));
    CHECK_FALSE(parse_label_selector("gpu").matches(labels));
    CHECK(parse_label_selector("!gpu").matches(labels));
    CHECK_FALSE(parse_label_selector("!tier").matches(labels));
    CHECK(parse_label_selector("region!=us").matches(labels));
    CHECK(parse_label_selector("cores>4,cores<9").matches(labels));
    CHECK_FALSE(parse_label_selector("cores>8").matches(labels));
    CHECK_FALSE(parse_label_selector("region>1").matches(labels));  // not an integer: no match
    CHECK(LabelSelector{}.matches(labels));

    LabelSelector both;
    both.match_labels = {{"region", "eu"}};
    both.match_expressions = {{"tier", SelectorOperator::in, {"gold", "silver"}}};
    CHECK(both.matches(labels));
    both.match_labels["region"] = "us";
    CHECK_FALSE(both.matches(labels));
    CHECK(both.explain_mismatch(labels) == "requirement region=us not met (region=eu)");
    CHECK(parse_label_selector("gpu=yes").explain_mismatch(labels) == "requirement gpu=yes not met (no label gpu)");
    CHECK(parse_label_selector("region=eu").explain_mismatch(labels).empty());
}

TEST_CASE("selector: malformed text raises ParseError with the position") {
    CHECK_THROWS_AS(parse_label_selector("a in ()"), ParseError);
    CHECK_THROWS_AS(parse_label_selector("a in (x"), ParseError);
    CHECK_THROWS_AS(parse_label_selector("a in x"), ParseError);
    CHECK_THROWS_AS(parse_label_selector("a b"), ParseError);
    CHECK_THROWS_AS(parse_label_selector(",a"), ParseError);
    CHECK_THROWS_AS(parse_label_selector("a,"), ParseError);
    CHECK_THROWS_AS(parse_label_selector("!"), ParseError);
    CHECK_THROWS_AS(parse_label_selector("a!b"), ParseError);
    CHECK_THROWS_AS(parse_label_selector("a>x"), ParseError);
    CHECK_THROWS_AS(parse_label_selector("-bad=x"), ParseError);
    CHECK_THROWS_AS(parse_label_selector("a=b c"), ParseError);
    CHECK_THROWS_AS(parse_label_selector("a=-x"), ParseError);
    try {
        (void)parse_label_selector("zone in (a,b");
        FAIL("expected ParseError");
    } catch (const ParseError& e) {
        CHECK(std::string(e.what()) == "label selector \"zone in (a,b\": expected ',' or ')' in the value set at position 12");
    }
}

TEST_CASE("selector: validate rejects bad structured selectors") {
    LabelSelector s;
    s.match_expressions = {{"a", SelectorOperator::in, {}}};
    CHECK_THROWS_AS(s.validate(), InvalidArgument);
    s.match_expressions = {{"a", SelectorOperator::exists, {"x"}}};
    CHECK_THROWS_AS(s.validate(), InvalidArgument);
    s.match_expressions = {{"a", SelectorOperator::gt, {"x"}}};
    CHECK_THROWS_AS(s.validate(), InvalidArgument);
    s.match_expressions = {{"Bad/Key", SelectorOperator::exists, {}}};
    CHECK_THROWS_AS(s.validate(), InvalidArgument);
    s.match_expressions = {{"ok", SelectorOperator::not_in, {"v1", "v2"}}};
    CHECK_NOTHROW(s.validate());
    // Property: to_string then parse round-trips.
    const auto parsed = parse_label_selector("a=b,c notin (x,y),!d,e,f>3");
    CHECK(parse_label_selector(parsed.to_string()) == parsed);
}
