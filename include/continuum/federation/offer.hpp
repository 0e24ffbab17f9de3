// Offers: what a remote cluster advertises to the federation (seed 000, "Federation Enrollment":
// capacity, price per unit, labels such as region / provider type / arch, and whether it is
// reachable directly or behind a NAT), plus optional latency, bandwidth and energy / carbon
// figures (seed 003 measures energy per site). Prices are per unit of time of the host's choosing.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/selector.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <functional>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

/// How the local cluster reaches the provider (Liqo peers across a NAT too, but hosts may forbid it).
enum class Reachability { direct, nat };

inline std::string_view to_string(Reachability r) { return r == Reachability::direct ? "direct" : "nat"; }

/// Well-known label keys (Kubernetes) that offers usually carry.
namespace label_keys {
inline constexpr std::string_view arch = "kubernetes.io/arch";
inline constexpr std::string_view region = "topology.kubernetes.io/region";
inline constexpr std::string_view zone = "topology.kubernetes.io/zone";
}  // namespace label_keys

/// The natural unit a price refers to, in canonical units: a core (1000 millicores) for cpu, a GiB
/// (2^30 bytes) for memory, storage and hugepages, one unit for counts (GPUs, pods, extended resources).
inline std::int64_t price_unit_size(std::string_view resource) {
    if (canonical_scale(resource) == scale::milli) return 1000;
    if (is_byte_resource(resource)) return std::int64_t{1} << 30;
    return 1;
}

/// One remote cluster's advertisement.
///
/// `capacity` is what ONE virtual node of this offer holds; `max_nodes` how many such nodes the
/// provider will peer (Liqo ResourceSlices; default one, as in seed 000's testbed). The price of a
/// node reserving `r` is `node_price + sum over r of unit_prices[name] * r[name] / unit`, with the
/// unit of price_unit_size (so unit_prices {"cpu": 0.5, "memory": 0.1} is $0.5/core and $0.1/GiB
/// per unit of time). A flat-priced node sets only node_price and is always reserved whole; an
/// offer with unit prices can be reserved to the size of what is placed on it.
struct Offer {
    std::string cluster_id;                 ///< unique within a federation
    std::string provider;                   ///< organisation selling the resources
    Labels labels;                          ///< region, zone, provider type, kubernetes.io/arch, ...
    Resources capacity;                     ///< of one virtual node (cpu and memory > 0; GPUs as nvidia.com/gpu)
    std::int64_t max_nodes = 1;             ///< virtual nodes this offer can provide (>= 1)
    double node_price = 0.0;                ///< flat price per node per unit of time (>= 0)
    std::map<std::string, double, std::less<>> unit_prices;  ///< per natural unit per unit of time (>= 0)
    Reachability reachability = Reachability::direct;
    std::optional<double> latency_ms;        ///< round-trip latency from the local cluster
    std::optional<double> bandwidth_mbps;    ///< available bandwidth
    std::optional<double> power_watts;       ///< electrical power of one fully used node
    std::optional<double> carbon_intensity;  ///< grams of CO2 per kWh at the site

    /// True when the offer sells by the unit (a node may be reserved smaller than `capacity`).
    [[nodiscard]] bool priced_per_unit() const {
        for (const auto& [name, price] : unit_prices) {
            if (price > 0.0) return true;
        }
        return false;
    }

    /// Price per unit of time of one node reserving `reserved` (node_price plus unit prices).
    [[nodiscard]] double price_of(const Resources& reserved) const {
        double price = node_price;
        for (const auto& [name, unit_price] : unit_prices) {
            const std::int64_t amount = reserved.get(name);
            if (amount > 0 && unit_price > 0.0) price += unit_price * static_cast<double>(amount) / static_cast<double>(price_unit_size(name));
        }
        return price;
    }

    /// Price per unit of time of one whole node (reserving all of `capacity`).
    [[nodiscard]] double node_cost() const { return price_of(capacity); }

    /// The value of label `key`, or "" when absent.
    [[nodiscard]] std::string_view label(std::string_view key) const {
        const auto it = labels.find(key);
        return it == labels.end() ? std::string_view{} : std::string_view(it->second);
    }

    /// \throws InvalidArgument naming the cluster and the field: empty cluster_id, invalid label,
    ///         negative capacity, zero cpu or memory capacity, max_nodes < 1, a negative or
    ///         non-finite price, a negative or non-finite optional figure.
    /// (A template on a defaulted parameter, called as `validate()`, so that its body compiles only
    /// where an offer is validated, issue 21; its address is `&Offer::validate<>`.)
    template <typename Defer = void>
    void validate() const {
        if (cluster_id.empty()) throw InvalidArgument("offer: cluster_id must not be empty");
        for (const auto& [key, value] : labels) {
            if (!detail::is_label_key(key)) throw InvalidArgument(continuum::detail::message("offer {}: invalid label key \"{}\"", cluster_id, key));
            if (!detail::is_label_value(value)) throw InvalidArgument(continuum::detail::message("offer {}: invalid value \"{}\" for label {}", cluster_id, value, key));
        }
        if (capacity.any_negative()) throw InvalidArgument(continuum::detail::message("offer {}: capacity has a negative amount: {}", cluster_id, capacity));
        if (capacity.cpu_millis() <= 0 || capacity.memory_bytes() <= 0) {
            throw InvalidArgument(continuum::detail::message("offer {}: capacity must have cpu > 0 and memory > 0, got {}", cluster_id, capacity));
        }
        if (max_nodes < 1) throw InvalidArgument(continuum::detail::message("offer {}: max_nodes must be >= 1, got {}", cluster_id, max_nodes));
        if (!std::isfinite(node_price) || node_price < 0.0) throw InvalidArgument(continuum::detail::message("offer {}: node_price must be finite and >= 0, got {}", cluster_id, node_price));
        for (const auto& [name, price] : unit_prices) {
            if (name.empty()) throw InvalidArgument(continuum::detail::message("offer {}: unit price with an empty resource name", cluster_id));
            if (!std::isfinite(price) || price < 0.0) throw InvalidArgument(continuum::detail::message("offer {}: unit price of {} must be finite and >= 0, got {}", cluster_id, name, price));
        }
        const auto check = [&](const std::optional<double>& figure, std::string_view field) {
            if (figure && (!std::isfinite(*figure) || *figure < 0.0)) {
                throw InvalidArgument(continuum::detail::message("offer {}: {} must be finite and >= 0, got {}", cluster_id, field, *figure));
            }
        };
        check(latency_ms, "latency_ms");
        check(bandwidth_mbps, "bandwidth_mbps");
        check(power_watts, "power_watts");
        check(carbon_intensity, "carbon_intensity");
    }
};

namespace detail {
/// Index of the first offer whose cluster id appeared before, if any (open addressing, no allocation per id).
inline std::optional<std::size_t> first_duplicate_cluster_id(std::span<const Offer> offers) {
    std::size_t slots = 16;
    while (slots < 2 * offers.size()) slots <<= 1;
    std::vector<std::size_t> table(slots, 0);  // offer index + 1; 0 = empty
    const std::hash<std::string_view> hash;
    for (std::size_t i = 0; i < offers.size(); ++i) {
        const std::string_view id = offers[i].cluster_id;
        std::size_t pos = hash(id) & (slots - 1);
        while (table[pos] != 0) {
            if (offers[table[pos] - 1].cluster_id == id) return i;
            pos = (pos + 1) & (slots - 1);
        }
        table[pos] = i + 1;
    }
    return std::nullopt;
}
}  // namespace detail

/// Validates every offer and checks that cluster ids are unique.
/// \throws InvalidArgument naming the offending offer (index and cluster id).
/// (A template on a defaulted parameter, called as `validate_offers(offers)`: compiled only where
/// called, issue 21.)
template <typename Defer = void>
void validate_offers(std::span<const Offer> offers) {
    for (std::size_t i = 0; i < offers.size(); ++i) {
        try {
            offers[i].template validate<Defer>();
        } catch (const InvalidArgument& e) {
            throw InvalidArgument(continuum::detail::message("offers[{}]: {}", i, e.what()));
        }
    }
    if (const auto dup = detail::first_duplicate_cluster_id(offers)) {
        throw InvalidArgument(continuum::detail::message("offers[{}]: duplicate cluster_id \"{}\"", *dup, offers[*dup].cluster_id));
    }
}

}  // namespace continuum::federation
