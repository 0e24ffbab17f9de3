// Expander chains: upstream's factory/chain_test.go TestChainStrategy_BestOption table with user
// filters and fallbacks, the factory's rules (expander_factory.go), and built-in chains.
#include <continuum/federation/expander_chain.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>

using namespace continuum;
using namespace continuum::federation;

namespace {
using Indices = std::vector<std::size_t>;

ExpansionOption named(std::string group) {
    ExpansionOption o;
    o.node_group = std::move(group);
    o.node_capacity = Resources{{"cpu", "2"}, {"memory", "4Gi"}};
    return o;
}

/// Upstream's substringTestFilterStrategy (on Debug; here the node group): as a filter it keeps the
/// options containing the substring, as a strategy it picks the first of them.
struct Substring {
    std::string substring;
    Indices operator()(std::span<const ExpansionOption> options, std::span<const std::size_t> among) const {
        Indices kept;
        for (const auto i : among) {
            if (options[i].node_group.find(substring) != std::string::npos) kept.push_back(i);
        }
        return kept;
    }
};
ExpanderStage filter(std::string s) { return ExpanderStage("substring-" + s, Substring{s}); }
ExpanderStrategy strategy(std::string s) {
    return ExpanderStrategy("first-with-" + s, [f = Substring{s}](std::span<const ExpansionOption> options, std::span<const std::size_t> among) {
        const auto kept = f(options, among);
        return kept.empty() ? std::nullopt : std::optional<std::size_t>(kept.front());
    });
}
std::optional<std::string> best(const ExpanderChain& chain, const std::vector<std::string>& groups) {
    std::vector<ExpansionOption> options;
    for (const auto& g : groups) options.push_back(named(g));
    const auto choice = chain.choose(options, ExpanderContext{});
    if (!choice.best) return std::nullopt;
    return options[*choice.best].node_group;
}
}  // namespace

static_assert(OptionFilter<Substring>);
static_assert(!OptionStrategy<Substring>);

TEST_CASE("chain: upstream chain_test.go TestChainStrategy_BestOption table") {
    // "selects with no filters"
    CHECK(best(ExpanderChain({}, strategy("a")), {"b", "a"}) == "a");
    // "filters with one filter"
    CHECK(best(ExpanderChain({filter("a")}, strategy("b")), {"ab", "b"}) == "ab");
    // "filters with multiple filters"
    CHECK(best(ExpanderChain({filter("a"), filter("b")}, strategy("x")), {"xab", "xa", "x"}) == "xab");
    // "selects from multiple after filters"
    CHECK(best(ExpanderChain({filter("x")}, strategy("a")), {"xc", "xaa", "xab"}) == "xaa");
    // "short circuits": one option left after the first filter; the fallback ("x") is never asked.
    const ExpanderChain short_circuit({filter("a"), filter("b")}, strategy("x"));
    CHECK(best(short_circuit, {"a"}) == "a");
    const auto choice = short_circuit.choose(std::vector{named("a")}, ExpanderContext{});
    CHECK(choice.stages == std::vector<Indices>{{0}});
    CHECK_FALSE(choice.fallback_used);
    CHECK(choice.reason == "a: substring-a kept [a]");
}

TEST_CASE("chain: user filters mix with built-ins, the fallback can return nothing") {
    PricingModel pricing;
    pricing.node_price = [](const ExpansionOption& o) { return o.node_group == "b" ? 2.0 : 1.0; };
    pricing.pod_price = [](const ExpansionPod&) { return 1.0; };
    ExpanderContext context;
    context.pricing = pricing;
    context.cluster_node_count = 5;
    std::vector<ExpansionOption> options = {named("a-arm"), named("b"), named("c-arm")};
    for (auto& o : options) o.pods = {Resources{{"cpu", "1"}, {"memory", "1Gi"}}};
    options[0].node_labels = {{"kubernetes.io/arch", "arm64"}};
    options[2].node_labels = {{"kubernetes.io/arch", "arm64"}};
    options[2].node_taints = {{"spot", "true", "NoSchedule"}};
    // A user filter reading the template: arm64 nodes without taints.
    const auto untainted_arm = [](std::span<const ExpansionOption> opts, std::span<const std::size_t> among) {
        FilterResult out;
        for (const auto i : among) {
            const auto it = opts[i].node_labels.find("kubernetes.io/arch");
            if (it != opts[i].node_labels.end() && it->second == "arm64" && opts[i].node_taints.empty()) {
                out.kept.push_back(i);
            } else {
                out.warnings.push_back(fmt::format("{} is not an untainted arm64 group", opts[i].node_group));
            }
        }
        return out;
    };
    const ExpanderChain chain({ExpanderStage("untainted-arm", untainted_arm), ExpanderKind::price});
    CHECK(chain.to_string() == "untainted-arm,price");
    CHECK(chain.kinds() == std::vector<ExpanderKind>{ExpanderKind::price});
    const auto choice = chain.choose(options, context, 3);
    CHECK(choice.best == std::optional<std::size_t>(0));
    CHECK(choice.stages == std::vector<Indices>{{0}});
    CHECK(choice.warnings == std::vector<std::string>{"b is not an untainted arm64 group", "c-arm is not an untainted arm64 group"});

    // A fallback that declines: no option is chosen (CA's chain returns nil).
    const ExpanderChain declining({ExpanderKind::least_waste}, ExpanderStrategy("never", [](std::span<const ExpansionOption>, std::span<const std::size_t>) {
                                      return std::optional<std::size_t>();
                                  }));
    const auto none = declining.choose(options, context);
    CHECK_FALSE(none.best);
    CHECK(none.fallback_used);
    CHECK_FALSE(none.random_tie_break);
    CHECK(none.reason == "no option qualifies: least-waste kept [a-arm, b, c-arm]; fallback never chose nothing");

    // Filters and strategies must stay within what they were offered.
    const ExpanderChain rogue({ExpanderStage("rogue", [](std::span<const ExpansionOption>, std::span<const std::size_t>) { return Indices{7}; })});
    CHECK_THROWS_WITH_AS((void)rogue.choose(options, context), doctest::Contains("rogue returned option index 7"), InvalidArgument);
    const ExpanderChain rogue_pick({ExpanderKind::most_pods}, ExpanderStrategy("rogue", [](std::span<const ExpansionOption>, std::span<const std::size_t>) {
                                       return std::optional<std::size_t>(9);
                                   }));
    CHECK_THROWS_WITH_AS((void)rogue_pick.choose(options, context), doctest::Contains("rogue chose option index 9"), InvalidArgument);
    CHECK_THROWS_AS(ExpanderStage("", Substring{"a"}), InvalidArgument);
    CHECK_THROWS_AS(ExpanderChain({filter("a"), filter("a")}), InvalidArgument);
}

TEST_CASE("chain: built-ins as CA's --expander flag") {
    PricingModel pricing;
    pricing.node_price = [](const ExpansionOption& o) { return o.node_group == "b" ? 2.0 : 1.0; };
    pricing.pod_price = [](const ExpansionPod&) { return 1.0; };
    ExpanderContext context;
    context.pricing = pricing;
    context.cluster_node_count = 5;  // preferred 2 CPU
    const auto big = [](std::string g, std::int64_t n, std::string cpu, std::string mem) {
        auto o = named(std::move(g));
        o.node_count = n;
        o.node_capacity = Resources{{"cpu", cpu}, {"memory", mem}};
        o.pods = {Resources{{"cpu", "3"}, {"memory", "8Gi"}}, Resources{{"cpu", "3"}, {"memory", "8Gi"}}};
        return o;
    };
    // a and b tie on waste (0.75); c wastes more. price then prefers a (node price 1 < 2).
    const std::vector<ExpansionOption> options = {big("a", 2, "4", "16Gi"), big("b", 2, "4", "16Gi"), big("c", 1, "8", "64Gi")};
    const auto chain = ExpanderChain::parse("least-waste, price");
    CHECK(chain.to_string() == "least-waste,price");
    const auto choice = chain.choose(options, context, 7);
    CHECK(choice.best == std::optional<std::size_t>(0));
    CHECK(choice.stages == std::vector<Indices>{{0, 1}, {0}});
    CHECK_FALSE(choice.random_tie_break);
    CHECK(choice.reason == "a: least-waste kept [a, b]; price kept [a]");
    // least-waste alone leaves a tie: the seeded random fallback decides, reproducibly.
    const auto waste_only = ExpanderChain::parse("least-waste").choose(options, context, 7);
    CHECK(waste_only.random_tie_break);
    CHECK(waste_only.fallback_used);
    CHECK(waste_only.best == ExpanderChain::parse("least-waste").choose(options, context, 7).best);
    CHECK((*waste_only.best == 0 || *waste_only.best == 1));
    // A custom fallback instead of random: the last of the tie.
    const auto last = ExpanderChain::parse("least-waste", ExpanderStrategy("last", [](std::span<const ExpansionOption>, std::span<const std::size_t> among) {
                                                 return std::optional<std::size_t>(among.back());
                                             }));
    const auto by_last = last.choose(options, context, 7);
    CHECK(by_last.best == std::optional<std::size_t>(1));
    CHECK_FALSE(by_last.random_tie_break);
    CHECK(by_last.reason == "b: least-waste kept [a, b]; fallback last chose b");
    const auto early = ExpanderChain::parse("least-nodes,least-waste,price").choose(options, context, 0);
    CHECK(early.best == std::optional<std::size_t>(2));
    CHECK(early.stages.size() == 1);

    CHECK_FALSE(ExpanderChain::parse("random").choose(std::span<const ExpansionOption>{}, context).best);
    CHECK_THROWS_AS(ExpanderChain::parse("least-waste,least-waste"), InvalidArgument);
    CHECK_THROWS_AS(ExpanderChain::parse("random,price"), InvalidArgument);
    CHECK_THROWS_AS(ExpanderChain::parse("cheapest"), ParseError);
    CHECK_THROWS_AS(ExpanderChain::parse(""), ParseError);
    CHECK_THROWS_AS(ExpanderChain(std::vector<ExpanderKind>{}), InvalidArgument);
    CHECK_THROWS_AS((void)ExpanderChain::parse("price").choose(options, ExpanderContext{}), InvalidArgument);  // no pricing model
    CHECK_THROWS_WITH_AS((void)ExpanderChain::parse("priority").choose(options, context), doctest::Contains("needs ExpanderContext::priority"), InvalidArgument);
    auto bad = options;
    bad[0].node_count = -1;
    CHECK_THROWS_AS((void)ExpanderChain::parse("most-pods").choose(bad, context), InvalidArgument);
    // Any filter can serve as "priority" (here: prefer "b").
    context.priority = [](std::span<const ExpansionOption> opts, std::span<const std::size_t> among) {
        FilterResult out;
        for (const auto i : among) {
            if (opts[i].node_group == "b") out.kept.push_back(i);
        }
        return out;
    };
    CHECK(ExpanderChain::parse("priority,least-waste").choose(options, context).best == std::optional<std::size_t>(1));
}
