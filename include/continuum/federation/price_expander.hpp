// The Cluster Autoscaler's price expander (cluster-autoscaler/expander/price/price.go, preferred.go;
// design in proposals/pricing.md): score = suppress(unfitness, NodeCount) x (node price x NodeCount
// + X) / (sum of pod prices + X), X the price of a 500m / 500Mi stabilisation pod, unfitness the CPU
// ratio to a preferred node sized by cluster size, 1000 for GPU nodes, x2 for a group not yet created.
// As in CA, an option whose node or pod price cannot be computed is skipped, with a warning.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/expander.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

/// CA's cloudprovider.PricingModel: prices over the window [now, now + 1 hour]. In an externalgrpc
/// provider these are the answers to PricingNodePrice and PricingPodPrice. Return nullopt where
/// CA's model returns an error (no price known): the price expander then skips that option, or
/// drops the stabilisation term when the stabilisation pod has no price.
struct PricingModel {
    /// Price of ONE node of the option's node group (its template: labels, taints, capacity, allocatable).
    std::function<std::optional<double>(const ExpansionOption&)> node_price;
    /// Price of running one pod (namespace/name, labels, requests).
    std::function<std::optional<double>(const ExpansionPod&)> pod_price;

    /// Both prices from per-resource rates (per core, per GiB, per GPU, per hour), as proposals/pricing.md
    /// prices GCE: node = rates x template capacity, pod = rates x requests.
    /// \throws InvalidArgument on a negative or non-finite rate.
    static PricingModel linear(double per_core, double per_gib, double per_gpu = 0.0) {
        for (const double rate : {per_core, per_gib, per_gpu}) {
            if (!std::isfinite(rate) || rate < 0.0) throw InvalidArgument(continuum::detail::message("pricing model: rates must be finite and >= 0, got {}", rate));
        }
        auto price = [per_core, per_gib, per_gpu](const Resources& r) {
            return per_core * static_cast<double>(r.cpu_millis()) / 1000.0 + per_gib * static_cast<double>(r.memory_bytes()) / static_cast<double>(std::int64_t{1} << 30) +
                   per_gpu * static_cast<double>(r.gpus());
        };
        return {[price](const ExpansionOption& option) -> std::optional<double> { return price(option.node_capacity); },
                [price](const ExpansionPod& pod) -> std::optional<double> { return price(pod.requests); }};
    }
};

namespace price_expander {
/// Penalty for node groups that do not exist yet (notExistCoeficient).
inline constexpr double not_exist_coefficient = 2.0;
/// Unfitness forced on GPU node groups (gpuUnfitnessOverride).
inline constexpr double gpu_unfitness_override = 1000.0;
/// The stabilisation pod default/stabilize: 500 millicores, 500 MiB (priceStabilizationPod).
inline ExpansionPod stabilization_pod() { return {"stabilize", Resources::from_units({{"cpu", 500}, {"memory", 500LL * 1024 * 1024}})}; }
}  // namespace price_expander

/// CA's SimplePreferredNodeProvider: the preferred node for a cluster of `cluster_node_count` nodes
/// (1 CPU / 3750 MiB up to 2 nodes, 2 / 7500 up to 6, 4 / 15000 to 20, 8 / 30000 to 60,
/// 16 / 60000 to 200, 32 / 120000 beyond). \throws InvalidArgument on a negative count.
inline Resources preferred_node(std::int64_t cluster_node_count) {
    if (cluster_node_count < 0) throw InvalidArgument(continuum::detail::message("preferred node: cluster_node_count must be >= 0, got {}", cluster_node_count));
    const std::int64_t mib = 1024 * 1024;
    std::int64_t cores = 32;
    std::int64_t memory_mib = 120000;
    if (cluster_node_count <= 2) {
        cores = 1, memory_mib = 3750;
    } else if (cluster_node_count <= 6) {
        cores = 2, memory_mib = 7500;
    } else if (cluster_node_count <= 20) {
        cores = 4, memory_mib = 15000;
    } else if (cluster_node_count <= 60) {
        cores = 8, memory_mib = 30000;
    } else if (cluster_node_count <= 200) {
        cores = 16, memory_mib = 60000;
    }
    return Resources::from_units({{"cpu", cores * 1000}, {"memory", memory_mib * mib}});
}

/// CA's SimpleNodeUnfitness: max(preferred cpu / node cpu, node cpu / preferred cpu), CPU only.
/// \throws InvalidArgument when either cpu is not positive.
inline double node_unfitness(std::int64_t preferred_cpu_millis, std::int64_t node_cpu_millis) {
    if (preferred_cpu_millis <= 0 || node_cpu_millis <= 0) {
        throw InvalidArgument(continuum::detail::message("node unfitness: cpu must be > 0, got preferred {}m and node {}m", preferred_cpu_millis, node_cpu_millis));
    }
    const double p = static_cast<double>(preferred_cpu_millis);
    const double n = static_cast<double>(node_cpu_millis);
    return std::max(p / n, n / p);
}

/// proposals/pricing.md's suppress(u, n) = (u - 1) x (1 - tanh((n - 1) / 15)) + 1.
inline double suppress_unfitness(double unfitness, std::int64_t node_count) {
    return (unfitness - 1.0) * (1.0 - std::tanh((static_cast<double>(node_count) - 1.0) / 15.0)) + 1.0;
}

/// What the price expander reads besides the options: CA's pricing model, the preferred node (by
/// default SimplePreferredNodeProvider's, from the cluster's node count) and the provider's GPU label.
struct PriceContext {
    PricingModel pricing;
    std::int64_t cluster_node_count = 0;      ///< nodes in the cluster now (sizes the preferred node)
    std::optional<Resources> preferred_node;  ///< set to override the cluster-size table (a custom PreferredNodeProvider)
    std::string gpu_label;                    ///< the cloud provider's GPULabel(), "" for none

    /// The preferred node's capacity: `preferred_node` when set, else preferred_node(cluster_node_count).
    [[nodiscard]] Resources preferred() const { return preferred_node ? *preferred_node : federation::preferred_node(cluster_node_count); }
};

/// Every term of one option's price score, as CA logs them. `scored` is false when CA would skip the
/// option (no node price, or a pod without a price, or a 0/0 ratio); `warnings` holds CA's log lines.
struct PriceScore {
    bool scored = false;
    double total_node_price = 0;     ///< node price x NodeCount
    double total_pod_price = 0;      ///< sum of pod prices
    double stabilization_price = 0;  ///< X, the stabilisation pod's price (0 when it has none)
    double price_sub_score = 0;      ///< (total_node_price + X) / (total_pod_price + X); +inf when only the node has a price
    double unfitness = 0;            ///< vs the preferred node
    double suppressed_unfitness = 0; ///< after tanh suppression, or 1000 for GPU groups
    double score = 0;                ///< suppressed x sub-score, x2 when the group does not exist
    std::vector<std::string> warnings;

    /// CA's debug line (price.go), or the reason the option was skipped.
    [[nodiscard]] std::string to_string() const {
        if (!scored) return continuum::detail::message("skipped: {}", warnings.empty() ? std::string("no score") : warnings.back());
        return continuum::detail::message("all_nodes_price={:.6f} pods_price={:.6f} stabilized_ratio={:.6f} unfitness={:.6f} suppressed={:.6f} final_score={:.6f}",
                                          total_node_price, total_pod_price, price_sub_score, unfitness, suppressed_unfitness, score);
    }
};

namespace detail {
inline std::optional<double> checked_price(std::optional<double> value, std::string_view what, std::string_view group) {
    if (value && (!std::isfinite(*value) || *value < 0.0)) {
        throw InvalidArgument(continuum::detail::message("price expander: {} for {} must be finite and >= 0, got {}", what, group, *value));
    }
    return value;
}

/// The stabilisation price, or 0 with CA's log line when the pod has no price ("continuing without stabilization").
inline double stabilization_price(const PricingModel& pricing, std::vector<std::string>& warnings) {
    const auto price = checked_price(pricing.pod_price(price_expander::stabilization_pod()), "stabilisation pod price", "default/stabilize");
    if (!price) {
        warnings.emplace_back("Failed to get price for stabilization pod: continuing without stabilization");
        return 0.0;
    }
    return *price;
}

template <typename Defer = void>
PriceScore price_score_with(const ExpansionOption& option, const PriceContext& context, double stabilization, std::int64_t preferred_cpu) {
    option.template validate<Defer>();
    PriceScore s;
    s.stabilization_price = stabilization;
    const auto node_price = checked_price(context.pricing.node_price(option), "node price", option.node_group);
    if (!node_price) {
        s.warnings.push_back(continuum::detail::message("Failed to calculate node price for {}", option.node_group));
        return s;
    }
    s.total_node_price = *node_price * static_cast<double>(option.node_count);
    for (const auto& pod : option.pods) {
        const auto pod_price = checked_price(context.pricing.pod_price(pod), "pod price", option.node_group);
        if (!pod_price) {
            s.warnings.push_back(continuum::detail::message("Failed to calculate pod price for {}/{}", pod.namespace_name, pod.name));
            return s;
        }
        s.total_pod_price += *pod_price;
    }
    // Go divides floats without a check: x/0 is +inf (kept: such an option only wins when all are
    // +inf), 0/0 is NaN, which CA compares order-dependently; continuum skips it with a warning.
    s.price_sub_score = (s.total_node_price + s.stabilization_price) / (s.total_pod_price + s.stabilization_price);
    if (std::isnan(s.price_sub_score)) {
        s.warnings.push_back(continuum::detail::message("Price of {} is 0/0 (no node, pod or stabilisation price): skipped", option.node_group));
        return s;
    }
    s.unfitness = node_unfitness(preferred_cpu, option.node_capacity.cpu_millis());
    s.suppressed_unfitness = option.has_gpu(context.gpu_label) ? price_expander::gpu_unfitness_override : suppress_unfitness(s.unfitness, option.node_count);
    s.score = s.suppressed_unfitness * s.price_sub_score;
    if (!option.node_group_exists) s.score *= price_expander::not_exist_coefficient;
    s.scored = true;
    return s;
}
}  // namespace detail

/// CA's price score of one option.
/// \throws InvalidArgument when the option is invalid (ExpansionOption::validate), the pricing model is incomplete
///         or returns a negative or non-finite price, or when the template or the preferred node has no cpu.
/// (The price functions are templates on a defaulted parameter, called as before: compiled only where
/// called, issue 21.)
template <typename Defer = void>
PriceScore price_score(const ExpansionOption& option, const PriceContext& context) {
    if (!context.pricing.node_price || !context.pricing.pod_price) throw InvalidArgument("price expander: the pricing model needs both node_price and pod_price");
    std::vector<std::string> warnings;
    const double stabilization = detail::stabilization_price(context.pricing, warnings);
    auto s = detail::price_score_with<Defer>(option, context, stabilization, context.preferred().cpu_millis());
    s.warnings.insert(s.warnings.begin(), warnings.begin(), warnings.end());
    return s;
}
template <typename Defer = void>
PriceScore price_score(const ExpansionOption& option, const PricingModel& pricing, std::int64_t cluster_node_count) {
    return price_score<Defer>(option, PriceContext{pricing, cluster_node_count, std::nullopt, {}});
}

/// `price` (CA's price Filter): the options with the minimum score, ties kept; options CA would skip
/// drop out, and CA's log lines come back as warnings. Empty when no option can be priced.
/// \throws InvalidArgument as price_score does.
template <typename Defer = void>
FilterResult price(std::span<const ExpansionOption> options, std::span<const std::size_t> among, const PriceContext& context) {
    if (!context.pricing.node_price || !context.pricing.pod_price) throw InvalidArgument("price expander: the pricing model needs both node_price and pod_price");
    FilterResult out;
    const double stabilization = detail::stabilization_price(context.pricing, out.warnings);
    const std::int64_t preferred_cpu = context.preferred().cpu_millis();
    std::vector<std::optional<double>> keys;
    keys.reserve(among.size());
    for (const auto i : among) {
        auto s = detail::price_score_with<Defer>(options[i], context, stabilization, preferred_cpu);
        out.warnings.insert(out.warnings.end(), s.warnings.begin(), s.warnings.end());
        keys.push_back(s.scored ? std::optional<double>(s.score) : std::nullopt);
    }
    out.kept = detail::keep_minimum(among, keys);
    return out;
}
template <typename Defer = void>
FilterResult price(std::span<const ExpansionOption> options, const PriceContext& context) {
    return price<Defer>(options, detail::all_indices(options.size()), context);
}
template <typename Defer = void>
FilterResult price(std::span<const ExpansionOption> options, const PricingModel& pricing, std::int64_t cluster_node_count) {
    return price<Defer>(options, PriceContext{pricing, cluster_node_count, std::nullopt, {}});
}

}  // namespace continuum::federation
