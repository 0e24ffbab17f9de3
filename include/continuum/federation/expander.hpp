// The Cluster Autoscaler's expanders (kubernetes/autoscaler cluster-autoscaler/expander/): how CA
// chooses among node groups that could each host the pending pods. Here: the option (expander.Option
// with its template NodeInfo), the filter / strategy concepts, and the random, most-pods, least-nodes
// and least-waste filters. Price: price_expander.hpp; priority (ConfigMap, YAML + RE2):
// priority_config.hpp; chains: expander_chain.hpp. Filters return the kept indices in input order.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/detail/labels.hpp>
#include <continuum/federation/selector.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

/// A node taint (core/v1 Taint): key, optional value and effect NoSchedule, PreferNoSchedule or NoExecute.
struct Taint {
    std::string key;
    std::string value;
    std::string effect;

    friend bool operator==(const Taint&, const Taint&) = default;
};

/// A pod that the new nodes would host, as the expanders and CA's PricingModel.PodPrice see it:
/// namespace/name, labels and the summed container requests (cpu, memory, ephemeral-storage,
/// GPUs and extended resources). Built implicitly from a bare request for convenience.
struct ExpansionPod {
    std::string name;
    std::string namespace_name = "default";
    Labels labels;
    Resources requests;

    ExpansionPod() = default;
    ExpansionPod(Resources requests_) : requests(std::move(requests_)) {}  // NOLINT: implicit on purpose
    ExpansionPod(std::string name_, Resources requests_, Labels labels_ = {}, std::string namespace_ = "default")
        : name(std::move(name_)), namespace_name(std::move(namespace_)), labels(std::move(labels_)), requests(std::move(requests_)) {}

    friend bool operator==(const ExpansionPod&, const ExpansionPod&) = default;
};

/// One way to scale up (CA's expander.Option plus the node group's template NodeInfo): add
/// `node_count` nodes of `node_group` so that `pods` can run. The template node carries labels,
/// taints, Capacity and Allocatable; an empty `node_allocatable` means "equal to capacity", as the
/// Kubernetes API defaults it.
struct ExpansionOption {
    std::string node_group;
    std::int64_t node_count = 1;
    std::vector<ExpansionPod> pods;   ///< the pods that would land on the new nodes
    Resources node_capacity;          ///< the template node's Status.Capacity (least-waste, price)
    Resources node_allocatable;       ///< the template node's Status.Allocatable (empty: = capacity)
    Labels node_labels;               ///< the template node's labels
    std::vector<Taint> node_taints;   ///< the template node's taints
    bool node_group_exists = true;    ///< false for a group CA would have to create (price: x2)

    /// Allocatable, defaulting to Capacity when unset.
    [[nodiscard]] const Resources& allocatable() const { return node_allocatable.empty() ? node_capacity : node_allocatable; }

    /// CA's gpu.NodeHasGpu: the provider's GPU label (`gpu_label`, e.g. "cloud.google.com/gke-accelerator";
    /// "" for none) is set on the template, or its Allocatable has nvidia.com/gpu > 0.
    [[nodiscard]] bool has_gpu(std::string_view gpu_label = {}) const {
        return (!gpu_label.empty() && node_labels.find(gpu_label) != node_labels.end()) || allocatable().gpus() > 0;
    }

    /// \throws InvalidArgument naming the group and the field: an empty node_group, node_count < 0,
    ///         negative amounts, an invalid label, a taint without key or with an unknown effect.
    /// (A template on a defaulted parameter, called as `validate()`, so that its body compiles only
    /// where an option is validated, issue 21; its address is `&ExpansionOption::validate<>`.)
    template <typename Defer = void>
    void validate() const {
        if (node_group.empty()) throw InvalidArgument("expansion option: node_group must not be empty");
        if (node_count < 0) throw InvalidArgument(continuum::detail::message("expansion option {}: node_count must be >= 0, got {}", node_group, node_count));
        if (node_capacity.any_negative()) throw InvalidArgument(continuum::detail::message("expansion option {}: negative node capacity {}", node_group, node_capacity));
        if (node_allocatable.any_negative()) throw InvalidArgument(continuum::detail::message("expansion option {}: negative node allocatable {}", node_group, node_allocatable));
        for (const auto& [key, value] : node_labels) {
            if (!detail::is_label_key(key)) throw InvalidArgument(continuum::detail::message("expansion option {}: invalid node label key \"{}\"", node_group, key));
            if (!detail::is_label_value(value)) throw InvalidArgument(continuum::detail::message("expansion option {}: invalid value \"{}\" for node label {}", node_group, value, key));
        }
        for (std::size_t i = 0; i < node_taints.size(); ++i) {
            const auto& taint = node_taints[i];
            if (!detail::is_label_key(taint.key)) throw InvalidArgument(continuum::detail::message("expansion option {}: node_taints[{}] has an invalid key \"{}\"", node_group, i, taint.key));
            if (taint.effect != "NoSchedule" && taint.effect != "PreferNoSchedule" && taint.effect != "NoExecute") {
                throw InvalidArgument(continuum::detail::message("expansion option {}: node_taints[{}] effect must be NoSchedule, PreferNoSchedule or NoExecute, got \"{}\"",
                                                                 node_group, i, taint.effect));
            }
        }
        for (std::size_t i = 0; i < pods.size(); ++i) {
            if (pods[i].requests.any_negative()) throw InvalidArgument(continuum::detail::message("expansion option {}: pods[{}] has a negative request {}", node_group, i, pods[i].requests));
        }
    }
};

/// What a filter returns (CA's Filter.BestOptions): the indices kept, in input order, and the
/// warnings CA would log or record as events meanwhile (e.g. a node group with no priority).
struct FilterResult {
    std::vector<std::size_t> kept;
    std::vector<std::string> warnings;

    friend bool operator==(const FilterResult&, const FilterResult&) = default;
};

/// A filter (CA's expander.Filter): given the options and the indices still tied (`among`), the
/// indices of the best ones, as a std::vector<std::size_t> or a FilterResult.
template <typename F>
concept OptionFilter = std::invocable<const F&, std::span<const ExpansionOption>, std::span<const std::size_t>> &&
                       (std::convertible_to<std::invoke_result_t<const F&, std::span<const ExpansionOption>, std::span<const std::size_t>>, std::vector<std::size_t>> ||
                        std::convertible_to<std::invoke_result_t<const F&, std::span<const ExpansionOption>, std::span<const std::size_t>>, FilterResult>);

/// A strategy (CA's expander.Strategy): the one index it picks among `among`, or nullopt for none.
template <typename S>
concept OptionStrategy = std::invocable<const S&, std::span<const ExpansionOption>, std::span<const std::size_t>> &&
                         std::convertible_to<std::invoke_result_t<const S&, std::span<const ExpansionOption>, std::span<const std::size_t>>, std::optional<std::size_t>>;

namespace detail {

inline std::vector<std::size_t> all_indices(std::size_t n) {
    std::vector<std::size_t> out(n);
    std::iota(out.begin(), out.end(), std::size_t{0});
    return out;
}

template <typename Defer = void>
void validate_options(std::span<const ExpansionOption> options) {
    for (const auto& option : options) option.template validate<Defer>();
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator whose output is the same everywhere.
inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/// Uniform index in [0, n), n >= 1, by rejection (no modulo bias), reproducible from the seed.
inline std::size_t seeded_index(std::uint64_t seed, std::size_t n) {
    const std::uint64_t bound = static_cast<std::uint64_t>(n);
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
    std::uint64_t state = seed;
    while (true) {
        const std::uint64_t r = splitmix64(state);
        if (r < limit) return static_cast<std::size_t>(r % bound);
    }
}

/// Indices in `among` whose key is minimal (exact equality), in input order.
template <typename Key>
std::vector<std::size_t> keep_minimum(std::span<const std::size_t> among, const std::vector<std::optional<Key>>& keys) {
    std::vector<std::size_t> best;
    std::optional<Key> best_key;
    for (std::size_t k = 0; k < among.size(); ++k) {
        if (!keys[k]) continue;
        if (!best_key || *keys[k] < *best_key) {
            best_key = keys[k];
            best.assign(1, among[k]);
        } else if (*keys[k] == *best_key) {
            best.push_back(among[k]);
        }
    }
    return best;
}
}  // namespace detail

/// `random`: one option chosen uniformly with a seeded generator (CA uses rand.Int31n; continuum
/// takes the seed so decisions are reproducible). Empty input gives an empty result.
/// \throws InvalidArgument when an index in `among` is out of range.
template <typename Defer = void>  // compiled only where called (issue 21)
inline std::vector<std::size_t> random_option(std::span<const ExpansionOption> options, std::span<const std::size_t> among, std::uint64_t seed) {
    for (const auto i : among) {
        if (i >= options.size()) throw InvalidArgument(continuum::detail::message("expander: option index {} out of range for {} options", i, options.size()));
    }
    if (among.empty()) return {};
    return {among[detail::seeded_index(seed, among.size())]};
}
template <typename Defer = void>  // compiled only where called (issue 21)
inline std::vector<std::size_t> random_option(std::span<const ExpansionOption> options, std::uint64_t seed) {
    return random_option<Defer>(options, continuum::detail::span_of(detail::all_indices(options.size())), seed);
}

/// `most-pods`: the options that schedule the most pods (len(Pods) maximal).
template <typename Defer = void>  // compiled only where called (issue 21)
inline std::vector<std::size_t> most_pods(std::span<const ExpansionOption> options, std::span<const std::size_t> among) {
    continuum::detail::deferred_t<std::vector<std::optional<std::int64_t>>, Defer> keys;
    keys.reserve(among.size());
    for (const auto i : among) keys.emplace_back(-static_cast<std::int64_t>(options[i].pods.size()));
    return detail::keep_minimum(among, keys);
}
template <typename Defer = void>  // compiled only where called (issue 21)
inline std::vector<std::size_t> most_pods(std::span<const ExpansionOption> options) {
    return most_pods<Defer>(options, continuum::detail::span_of(detail::all_indices(options.size())));
}

/// `least-nodes` (leastnodes/leastnodes.go): the options adding the fewest nodes; options with node_count 0 are skipped.
template <typename Defer = void>  // compiled only where called (issue 21)
inline std::vector<std::size_t> least_nodes(std::span<const ExpansionOption> options, std::span<const std::size_t> among) {
    continuum::detail::deferred_t<std::vector<std::optional<std::int64_t>>, Defer> keys;
    keys.reserve(among.size());
    for (const auto i : among) keys.push_back(options[i].node_count > 0 ? std::optional<std::int64_t>(options[i].node_count) : std::nullopt);
    return detail::keep_minimum(among, keys);
}
template <typename Defer = void>  // compiled only where called (issue 21)
inline std::vector<std::size_t> least_nodes(std::span<const ExpansionOption> options) {
    return least_nodes<Defer>(options, continuum::detail::span_of(detail::all_indices(options.size())));
}

/// CA's least-waste score of one option (waste/waste.go):
///   (cap.cpu x n - sum cpu requests) / (cap.cpu x n) + (cap.mem x n - sum mem requests) / (cap.mem x n)
/// on the template's Capacity, CPU in millicores and memory in bytes; GPUs and other resources are ignored.
/// nullopt when node_count is 0 or the capacity has no cpu or no memory (CA would divide by zero).
inline std::optional<double> least_waste_score(const ExpansionOption& option) {
    const std::int64_t n = option.node_count;
    const std::int64_t cpu = option.node_capacity.cpu_millis();
    const std::int64_t memory = option.node_capacity.memory_bytes();
    if (n <= 0 || cpu <= 0 || memory <= 0) return std::nullopt;
    // 128-bit sums and products: capacity x node_count and the summed requests may leave int64.
    __extension__ using Wide = __int128;
    Wide requested_cpu = 0;
    Wide requested_memory = 0;
    for (const auto& pod : option.pods) {
        requested_cpu += pod.requests.cpu_millis();
        requested_memory += pod.requests.memory_bytes();
    }
    const Wide available_cpu = static_cast<Wide>(cpu) * n;
    const Wide available_memory = static_cast<Wide>(memory) * n;
    const double wasted_cpu = static_cast<double>(available_cpu - requested_cpu) / static_cast<double>(available_cpu);
    const double wasted_memory = static_cast<double>(available_memory - requested_memory) / static_cast<double>(available_memory);
    return wasted_cpu + wasted_memory;
}

/// `least-waste`: the options with the smallest least_waste_score (options without a score drop out).
template <typename Defer = void>  // compiled only where called (issue 21)
inline std::vector<std::size_t> least_waste(std::span<const ExpansionOption> options, std::span<const std::size_t> among) {
    continuum::detail::deferred_t<std::vector<std::optional<double>>, Defer> keys;
    keys.reserve(among.size());
    for (const auto i : among) keys.push_back(least_waste_score(options[i]));
    return detail::keep_minimum(among, keys);
}
template <typename Defer = void>  // compiled only where called (issue 21)
inline std::vector<std::size_t> least_waste(std::span<const ExpansionOption> options) {
    return least_waste<Defer>(options, continuum::detail::span_of(detail::all_indices(options.size())));
}

}  // namespace continuum::federation
