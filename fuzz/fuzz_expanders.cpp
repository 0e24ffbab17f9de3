// Fuzzes the Cluster Autoscaler expanders with expansion options decoded from arbitrary bytes
// (node counts, pod requests and template capacities near int64 limits, GPU labels, missing
// groups): most-pods, least-nodes, least-waste, price, priority and random, alone and chained.
// Every result is a subset of the candidates, in range; scores are finite; invalid options are
// rejected with InvalidArgument and nothing else.
#include "fuzz_support.hpp"

#include <continuum/federation/expander_chain.hpp>

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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace federation = continuum::federation;
    namespace fz = continuum::fuzz;
    FuzzedDataProvider in(data, size);
    static const char* const groups[] = {"pool-spot-a", "gpu-large", "default", "eu-west-1", "new-group", ""};
    std::vector<ExpansionOption> options(in.ConsumeIntegralInRange<std::size_t>(0, 8));
    for (auto& o : options) {
        o.node_group = groups[in.ConsumeIntegralInRange<std::size_t>(0, std::size(groups) - 1)];
        o.node_count = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(0, 5) : fz::amount(in, true);
        o.node_group_exists = in.ConsumeBool();
        o.gpu_label = in.ConsumeIntegralInRange<int>(0, 7) == 0;
        o.node_capacity.set("cpu", fz::amount(in, in.ConsumeIntegralInRange<int>(0, 15) == 0));
        o.node_capacity.set("memory", fz::amount(in));
        if (in.ConsumeIntegralInRange<int>(0, 7) == 0) o.node_capacity.set("nvidia.com/gpu", fz::amount(in));
        const auto pods = in.ConsumeIntegralInRange<std::size_t>(0, 4);
        for (std::size_t p = 0; p < pods; ++p) {
            continuum::Resources r;
            r.set("cpu", fz::amount(in));
            r.set("memory", fz::amount(in));
            o.pods.push_back(std::move(r));
        }
    }
    const std::uint64_t seed = in.ConsumeIntegral<std::uint64_t>();
    federation::ExpanderContext context;
    context.pricing = federation::PricingModel::linear(in.ConsumeFloatingPointInRange<double>(0.0, 10.0),
                                                      in.ConsumeFloatingPointInRange<double>(0.0, 10.0), 2.5);
    context.cluster_node_count = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(0, 1000) : fz::amount(in, true);
    context.priorities = federation::PriorityTiers({{10, {".*-spot-.*"}}, {50, {"^gpu-.*"}}, {-5, {"default"}}});
    static const char* const chains[] = {"least-waste", "price", "priority,least-waste", "most-pods,least-nodes,random",
                                         "least-nodes,price,priority,most-pods,least-waste", "random"};
    const auto chain = federation::ExpanderChain::parse(chains[in.ConsumeIntegralInRange<std::size_t>(0, std::size(chains) - 1)]);
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
        check_subset(federation::priority(options, context.priorities), n);
        check_subset(federation::random_option(options, seed), n);
        for (const auto& o : options) {
            const auto score = federation::least_waste_score(o);
            if (score) CONTINUUM_FUZZ_CHECK(std::isfinite(*score));
        }
        check_subset(federation::price(options, context.pricing, context.cluster_node_count), n);
        const auto choice = chain.choose(options, context, seed);
        CONTINUUM_FUZZ_CHECK(valid);  // choose() validates: invalid options must have thrown
        if (choice.best) CONTINUUM_FUZZ_CHECK(*choice.best < n);
        CONTINUUM_FUZZ_CHECK(!choice.reason.empty());
        for (const auto& stage : choice.stages) check_subset(stage, n);
        CONTINUUM_FUZZ_CHECK(choice.best.has_value() || options.empty() || !choice.stages.empty());
    } catch (const continuum::InvalidArgument&) {
    }
    return 0;
}
