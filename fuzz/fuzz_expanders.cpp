// Fuzzes the Cluster Autoscaler expanders with expansion options decoded from arbitrary bytes
// (node counts, pod requests and template capacities near int64 limits, GPU labels, missing
// groups, prices that cannot be computed): most-pods, least-nodes, least-waste, price, priority,
// random and a user filter, alone and chained. Every result is a subset of the candidates, in
// range; scores are finite; invalid options are rejected with InvalidArgument and nothing else.
#include "fuzz_target.hpp"
#include "fuzz_support.hpp"

#include <continuum/federation/expander_chain.hpp>
#if CONTINUUM_HAVE_PRIORITY_CONFIG
#include <continuum/federation/priority_config.hpp>
#endif

#include <algorithm>
#include <string>

namespace {

using continuum::federation::ExpansionOption;

void check_subset(const std::vector<std::size_t>& kept, std::size_t n) {
    CONTINUUM_FUZZ_CHECK(kept.size() <= n);
    for (std::size_t k = 0; k < kept.size(); ++k) {
        CONTINUUM_FUZZ_CHECK(kept[k] < n);
        if (k > 0) CONTINUUM_FUZZ_CHECK(kept[k - 1] < kept[k]);  // input order, no duplicates
    }
}

}  // namespace

CONTINUUM_FUZZ_TARGET(expanders) {
    namespace federation = continuum::federation;
    namespace fz = continuum::fuzz;
    FuzzedDataProvider in(data, size);
    static const char* const groups[] = {"pool-spot-a", "gpu-large", "default", "eu-west-1", "new-group", ""};
    std::vector<ExpansionOption> options(in.ConsumeIntegralInRange<std::size_t>(0, 8));
    for (auto& o : options) {
        o.node_group = groups[in.ConsumeIntegralInRange<std::size_t>(0, std::size(groups) - 1)];
        o.node_count = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(0, 5) : fz::amount(in, true);
        o.node_group_exists = in.ConsumeBool();
        if (in.ConsumeIntegralInRange<int>(0, 7) == 0) o.node_labels["gpu"] = "t4";
        o.node_capacity.set("cpu", fz::amount(in, in.ConsumeIntegralInRange<int>(0, 15) == 0));
        o.node_capacity.set("memory", fz::amount(in));
        if (in.ConsumeIntegralInRange<int>(0, 7) == 0) o.node_capacity.set("nvidia.com/gpu", fz::amount(in));
        const auto pods = in.ConsumeIntegralInRange<std::size_t>(0, 4);
        for (std::size_t p = 0; p < pods; ++p) {
            continuum::Resources r;
            r.set("cpu", fz::amount(in));
            r.set("memory", fz::amount(in));
            o.pods.emplace_back(fmt::format("p{}", p), std::move(r));
        }
    }
    const std::uint64_t seed = in.ConsumeIntegral<std::uint64_t>();
    federation::ExpanderContext context;
    const auto linear = federation::PricingModel::linear(in.ConsumeFloatingPointInRange<double>(0.0, 10.0),
                                                         in.ConsumeFloatingPointInRange<double>(0.0, 10.0), 2.5);
    // Some groups and pods have no price (CA's PricingModel errors): the price expander skips them.
    const int unpriced_group = in.ConsumeIntegralInRange<int>(0, 8);
    const int unpriced_pod = in.ConsumeIntegralInRange<int>(0, 6);
    context.pricing.node_price = [linear, unpriced_group](const ExpansionOption& o) -> std::optional<double> {
        if (unpriced_group < static_cast<int>(std::size(groups)) && o.node_group == groups[unpriced_group]) return std::nullopt;
        return linear.node_price(o);
    };
    context.pricing.pod_price = [linear, unpriced_pod](const continuum::federation::ExpansionPod& p) -> std::optional<double> {
        if (p.name == fmt::format("p{}", unpriced_pod) || (unpriced_pod == 5 && p.name == "stabilize")) return std::nullopt;
        return linear.pod_price(p);
    };
    context.gpu_label = "gpu";
    context.cluster_node_count = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(0, 1000) : fz::amount(in, true);
    if (in.ConsumeBool()) context.preferred_node = continuum::Resources::from_units({{"cpu", in.ConsumeIntegralInRange<std::int64_t>(1, 64000)}});
#if CONTINUUM_HAVE_PRIORITY_CONFIG
    const federation::PriorityTiers tiers({{10, {".*-spot-.*"}}, {50, {"^gpu-.*"}}, {-5, {"default"}}});
    context.priority = tiers;
#else
    context.priority = [](std::span<const ExpansionOption> opts, std::span<const std::size_t> among) {
        std::vector<std::size_t> kept;
        for (const auto i : among) {
            if (opts[i].node_group.find("spot") != std::string::npos) kept.push_back(i);
        }
        return continuum::federation::FilterResult{kept.empty() ? std::vector<std::size_t>(among.begin(), among.end()) : kept, {}};
    };
#endif
    static const char* const chains[] = {"least-waste", "price", "priority,least-waste", "most-pods,least-nodes,random",
                                         "least-nodes,price,priority,most-pods,least-waste", "random"};
    const auto chain = federation::ExpanderChain::parse(chains[in.ConsumeIntegralInRange<std::size_t>(0, std::size(chains) - 1)]);
    // A user filter (largest node group first) and a user fallback (the last candidate).
    const federation::ExpanderChain user({federation::ExpanderStage("most-nodes", [](std::span<const ExpansionOption> opts, std::span<const std::size_t> among) {
                                              std::vector<std::size_t> kept;
                                              std::int64_t most = -1;
                                              for (const auto i : among) {
                                                  if (opts[i].node_count > most) kept.clear(), most = opts[i].node_count;
                                                  if (opts[i].node_count == most) kept.push_back(i);
                                              }
                                              return kept;
                                          }),
                                          federation::ExpanderKind::least_waste},
                                         federation::ExpanderStrategy("last", [](std::span<const ExpansionOption>, std::span<const std::size_t> among) {
                                             return among.empty() ? std::nullopt : std::optional<std::size_t>(among.back());
                                         }));
    bool valid = true;
    try {
        for (const auto& o : options) o.validate();
    } catch (const continuum::InvalidArgument&) {
        valid = false;
    }
    try {
        const auto n = options.size();
        check_subset(federation::most_pods(options), n);
        check_subset(federation::least_nodes(options), n);
        check_subset(federation::least_waste(options), n);
#if CONTINUUM_HAVE_PRIORITY_CONFIG
        check_subset(federation::priority(options, tiers).kept, n);
#endif
        check_subset(federation::random_option(options, seed), n);
        for (const auto& o : options) {
            const auto score = federation::least_waste_score(o);
            if (score) CONTINUUM_FUZZ_CHECK(std::isfinite(*score));
        }
        check_subset(federation::price(options, context.price_context()).kept, n);
        for (const auto& o : options) {
            const auto s = federation::price_score(o, context.price_context());
            if (s.scored) CONTINUUM_FUZZ_CHECK(!std::isnan(s.score) && s.score >= 0.0);
        }
        const auto choice = chain.choose(options, context, seed);
        CONTINUUM_FUZZ_CHECK(valid);  // choose() validates: invalid options must have thrown
        if (choice.best) CONTINUUM_FUZZ_CHECK(*choice.best < n);
        CONTINUUM_FUZZ_CHECK(!choice.reason.empty());
        for (const auto& stage : choice.stages) check_subset(stage, n);
        CONTINUUM_FUZZ_CHECK(choice.best.has_value() || options.empty() || !choice.stages.empty());
        const auto by_user = user.choose(options, context, seed);
        if (by_user.best) CONTINUUM_FUZZ_CHECK(*by_user.best < n);
        for (const auto& stage : by_user.stages) check_subset(stage, n);
    } catch (const continuum::InvalidArgument&) {
    }
    return 0;
}
