// Fuzzes the two texts a Cluster Autoscaler host passes through to the expanders: the --expander
// flag (first line: ExpanderChain::parse) and the priority expander's ConfigMap YAML (the rest:
// PriorityTiers::parse, yaml-cpp then RE2). Accepted configurations must print and re-parse to the
// same chain, and run the priority expander on a few node groups without crashing; rejected ones
// must throw ParseError / InvalidArgument, nothing else. Built only with yaml-cpp and RE2.
#include "fuzz_target.hpp"
#include "fuzz_support.hpp"

#include <continuum/federation/expander_chain.hpp>
#include <continuum/federation/priority_config.hpp>

#include <string>
#include <string_view>

CONTINUUM_FUZZ_TARGET(expander_config) {
    namespace federation = continuum::federation;
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = input.find('\n');
    const std::string_view flag = input.substr(0, newline);
    try {
        const auto chain = federation::ExpanderChain::parse(flag);
        const auto again = federation::ExpanderChain::parse(chain.to_string());
        CONTINUUM_FUZZ_CHECK(again.kinds() == chain.kinds());
    } catch (const continuum::InvalidArgument&) {
    }
    if (newline == std::string_view::npos) return 0;
    const std::string_view yaml = input.substr(newline + 1);
    if (yaml.size() > 4096) return 0;  // ConfigMaps are small; RE2 compiles in linear time
    try {
        const auto tiers = federation::PriorityTiers::parse(yaml);
        std::vector<federation::ExpansionOption> options(4);
        const char* groups[] = {"pool-spot-a", "gpu-large", "default", "eu-west-1-m5.large"};
        for (std::size_t i = 0; i < options.size(); ++i) {
            options[i].node_group = groups[i];
            options[i].node_capacity = continuum::Resources::from_units({{"cpu", 4000}, {"memory", std::int64_t{1} << 34}});
        }
        const auto kept = federation::priority(options, tiers).kept;
        CONTINUUM_FUZZ_CHECK(!kept.empty() && kept.size() <= options.size());
        for (const auto i : kept) CONTINUUM_FUZZ_CHECK(i < options.size());
    } catch (const continuum::ParseError&) {
    }
    return 0;
}
