// Resources: an exact vector of named Kubernetes resources in canonical integer units (cpu in
// millicores, memory and storage in bytes, pods and GPUs as counts, extended resources by name).
// Every decision in continuum is computed on these integers; doubles (forecasts) enter only
// through Resources::from_forecast / from_cores, which round up. Arithmetic is overflow-checked.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/quantity.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum {

/// Well-known resource names (Kubernetes core/v1 and the NVIDIA device plugin).
namespace resource_names {
inline constexpr std::string_view cpu = "cpu";
inline constexpr std::string_view memory = "memory";
inline constexpr std::string_view ephemeral_storage = "ephemeral-storage";
inline constexpr std::string_view pods = "pods";
inline constexpr std::string_view gpu = "nvidia.com/gpu";
}  // namespace resource_names

/// Power of ten of a resource's canonical unit: -3 (millicores) for "cpu" and any quota-style
/// "<prefix>.cpu" ("requests.cpu", "limits.cpu"); 0 (bytes or counts) for everything else.
inline int canonical_scale(std::string_view name) {
    const auto ends_with_cpu = name.size() > 4 && name.substr(name.size() - 4) == ".cpu";
    return (name == resource_names::cpu || ends_with_cpu) ? scale::milli : scale::unit;
}

/// True for resources measured in bytes (they print with binary suffixes: "4Gi").
inline bool is_byte_resource(std::string_view name) {
    const auto has = [&](std::string_view part) { return name.find(part) != std::string_view::npos; };
    return has("memory") || has("storage") || name.substr(0, 10) == "hugepages-";
}

/// A resource amount in canonical units, printed the Kubernetes way ("1500m", "4Gi", "3").
inline std::string format_resource(std::string_view name, std::int64_t canonical_value) {
    return format_quantity(canonical_value, canonical_scale(name),
                           is_byte_resource(name) ? QuantityFormat::binary_si : QuantityFormat::decimal_si);
}

/// An exact, sparse vector of named resources. Absent names are zero; zero entries are not stored,
/// so two Resources are equal exactly when every resource amount is equal.
class Resources {
public:
    using Entry = std::pair<std::string, std::int64_t>;

    Resources() = default;

    /// From Kubernetes quantities: `Resources{{"cpu", "250m"}, {"memory", "1.5Gi"}}`.
    /// Quantities round up to the canonical unit (cpu "0.0001" -> 1m).
    /// \throws ParseError naming the resource and text; InvalidArgument on an empty name or duplicate.
    Resources(std::initializer_list<std::pair<std::string_view, std::string_view>> quantities) {
        for (const auto& [name, text] : quantities) add_parsed(name, text);
    }

    /// From any range of (name, quantity text) pairs, e.g. a std::map<std::string, std::string>.
    template <typename Range>
    static Resources from_quantities(const Range& quantities) {
        Resources out;
        for (const auto& [name, text] : quantities) out.add_parsed(name, text);
        return out;
    }

    /// From canonical integer units: `Resources::from_units({{"cpu", 2500}, {"memory", 1 << 30}})`.
    /// \throws InvalidArgument on an empty name or a duplicate name.
    static Resources from_units(std::initializer_list<std::pair<std::string_view, std::int64_t>> units) {
        Resources out;
        for (const auto& [name, value] : units) {
            if (out.contains(name)) throw InvalidArgument(continuum::detail::message("resources: duplicate resource name \"{}\"", name));
            out.set(name, value);
        }
        return out;
    }

    /// The one door from floating point into Resources: `value` in the resource's natural unit
    /// (cores for cpu, bytes for memory, counts otherwise), rounded *up* to the canonical unit.
    /// The double is read as its shortest round-trip decimal, so from_cores(2.31) is exactly 2310m.
    /// \throws InvalidArgument for NaN, infinity, a negative value or one beyond int64.
    static Resources from_forecast(std::string_view name, double value) {
        Resources out;
        out.set(name, round_up_to_canonical(name, value));
        return out;
    }
    /// Shorthand for from_forecast("cpu", cores).
    static Resources from_cores(double cores) { return from_forecast(resource_names::cpu, cores); }

    /// `value` in natural units (cores, bytes, counts) rounded up to the canonical integer unit.
    /// \throws InvalidArgument for NaN, infinity, negative or out-of-range values.
    static std::int64_t round_up_to_canonical(std::string_view name, double value) {
        if (!std::isfinite(value) || value < 0.0) {
            throw InvalidArgument(continuum::detail::message("forecast for resource \"{}\" must be finite and >= 0, got {}", name, value));
        }
        try {
            return Quantity::parse(continuum::detail::message("{}", value)).scaled_value(canonical_scale(name));
        } catch (const InvalidArgument&) {
            throw InvalidArgument(continuum::detail::message("forecast for resource \"{}\" = {} does not fit in int64 canonical units", name, value));
        }
    }

    /// Amount of `name` in canonical units; 0 when absent.
    [[nodiscard]] std::int64_t get(std::string_view name) const {
        const auto it = find(name);
        return it != entries_.end() && it->first == name ? it->second : 0;
    }
    [[nodiscard]] std::int64_t operator[](std::string_view name) const { return get(name); }
    [[nodiscard]] bool contains(std::string_view name) const { return get(name) != 0; }

    [[nodiscard]] std::int64_t cpu_millis() const { return get(resource_names::cpu); }
    [[nodiscard]] std::int64_t memory_bytes() const { return get(resource_names::memory); }
    [[nodiscard]] std::int64_t pods() const { return get(resource_names::pods); }
    [[nodiscard]] std::int64_t gpus() const { return get(resource_names::gpu); }

    /// Sets `name` to `value` canonical units (0 removes it).
    /// \throws InvalidArgument on an empty name.
    Resources& set(std::string_view name, std::int64_t value) {
        if (name.empty()) throw InvalidArgument("resources: resource name must not be empty");
        auto it = find(name);
        if (it != entries_.end() && it->first == name) {
            if (value == 0) {
                entries_.erase(it);
            } else {
                it->second = value;
            }
        } else if (value != 0) {
            entries_.emplace(it, std::string(name), value);
        }
        return *this;
    }

    /// Adds `value` to `name`. \throws InvalidArgument on int64 overflow.
    Resources& add(std::string_view name, std::int64_t value) { return set(name, checked_add(name, get(name), value)); }

    /// True when every amount is zero.
    [[nodiscard]] bool empty() const { return entries_.empty(); }
    /// Number of non-zero resources.
    [[nodiscard]] std::size_t size() const { return entries_.size(); }
    /// Non-zero entries, sorted by name.
    [[nodiscard]] const std::vector<Entry>& entries() const { return entries_; }
    [[nodiscard]] auto begin() const { return entries_.begin(); }
    [[nodiscard]] auto end() const { return entries_.end(); }
    /// Names of the non-zero resources, sorted.
    [[nodiscard]] std::vector<std::string> names() const {
        std::vector<std::string> out;
        out.reserve(entries_.size());
        for (const auto& entry : entries_) out.push_back(entry.first);
        return out;
    }

    Resources& operator+=(const Resources& other) {
        for (const auto& [name, value] : other.entries_) add(name, value);
        return *this;
    }
    Resources& operator-=(const Resources& other) {
        for (const auto& [name, value] : other.entries_) {
            if (value == std::numeric_limits<std::int64_t>::min()) throw overflow_error(name);
            add(name, -value);
        }
        return *this;
    }
    friend Resources operator+(Resources a, const Resources& b) { return a += b; }
    friend Resources operator-(Resources a, const Resources& b) { return a -= b; }
    /// Every amount multiplied by `factor`. \throws InvalidArgument on overflow.
    friend Resources operator*(Resources a, std::int64_t factor) {
        for (auto& [name, value] : a.entries_) {
            if (__builtin_mul_overflow(value, factor, &value)) throw overflow_error(name);
        }
        a.entries_.erase(std::remove_if(a.entries_.begin(), a.entries_.end(), [](const Entry& e) { return e.second == 0; }), a.entries_.end());
        return a;
    }
    friend Resources operator*(std::int64_t factor, Resources a) { return std::move(a) * factor; }
    friend bool operator==(const Resources& a, const Resources& b) { return a.entries_ == b.entries_; }

    /// True when every amount here is <= the same amount in `capacity` (absent = 0).
    [[nodiscard]] bool fits_in(const Resources& capacity) const {
        for (const auto& [name, value] : entries_) {
            if (value > capacity.get(name)) return false;
        }
        for (const auto& [name, value] : capacity.entries_) {
            if (value < 0 && get(name) > value) return false;
        }
        return true;
    }

    /// True when any amount is negative.
    [[nodiscard]] bool any_negative() const {
        return std::any_of(entries_.begin(), entries_.end(), [](const Entry& e) { return e.second < 0; });
    }

    /// The Kubernetes form: {cpu: 1500m, memory: 4Gi}.
    [[nodiscard]] std::string to_string() const {
        std::string out = "{";
        for (std::size_t i = 0; i < entries_.size(); ++i) {
            if (i > 0) out += ", ";
            out += entries_[i].first;
            out += ": ";
            out += format_resource(entries_[i].first, entries_[i].second);
        }
        return out + "}";
    }

private:
    void add_parsed(std::string_view name, std::string_view text) {
        if (name.empty()) throw InvalidArgument(continuum::detail::message("resources: empty resource name for quantity \"{}\"", text));
        if (contains(name)) throw InvalidArgument(continuum::detail::message("resources: duplicate resource name \"{}\"", name));
        std::int64_t value = 0;
        try {
            value = Quantity::parse(text).scaled_value(canonical_scale(name));
        } catch (const ParseError& e) {
            throw ParseError(continuum::detail::message("resource \"{}\": {}", name, e.what()));
        } catch (const InvalidArgument& e) {
            throw InvalidArgument(continuum::detail::message("resource \"{}\": {}", name, e.what()));
        }
        set(name, value);
    }
    [[nodiscard]] std::vector<Entry>::iterator find(std::string_view name) {
        return std::lower_bound(entries_.begin(), entries_.end(), name, [](const Entry& e, std::string_view n) { return e.first < n; });
    }
    [[nodiscard]] std::vector<Entry>::const_iterator find(std::string_view name) const {
        return std::lower_bound(entries_.begin(), entries_.end(), name, [](const Entry& e, std::string_view n) { return e.first < n; });
    }
    static InvalidArgument overflow_error(std::string_view name) {
        return InvalidArgument(continuum::detail::message("resources: arithmetic on \"{}\" overflows int64", name));
    }
    static std::int64_t checked_add(std::string_view name, std::int64_t a, std::int64_t b) {
        std::int64_t out = 0;
        if (__builtin_add_overflow(a, b, &out)) throw overflow_error(name);
        return out;
    }

    std::vector<Entry> entries_;  // sorted by name, no zero values
};

/// Per-resource maximum of a and b (absent = 0).
inline Resources max(const Resources& a, const Resources& b) {
    Resources out = a;
    for (const auto& [name, value] : b) out.set(name, std::max(value, a.get(name)));
    for (const auto& [name, value] : a) out.set(name, std::max(value, b.get(name)));
    return out;
}

/// Per-resource minimum of a and b (absent = 0).
inline Resources min(const Resources& a, const Resources& b) {
    Resources out;
    for (const auto& [name, value] : a) out.set(name, std::min(value, b.get(name)));
    for (const auto& [name, value] : b) out.set(name, std::min(value, a.get(name)));
    return out;
}

/// The positive part of every amount (negative amounts become zero).
inline Resources positive_part(const Resources& r) {
    Resources out;
    for (const auto& [name, value] : r) {
        if (value > 0) out.set(name, value);
    }
    return out;
}

/// How many copies of `unit` cover `demand` in every resource: max over resources with positive
/// demand of ceil(demand / unit). Zero when nothing is demanded.
/// \throws Infeasible naming the resource when demand > 0 and unit provides none of it;
///         InvalidArgument when unit has a negative amount.
inline std::int64_t ceil_div(const Resources& demand, const Resources& unit) {
    std::int64_t count = 0;
    for (const auto& [name, value] : demand) {
        if (value <= 0) continue;
        const std::int64_t per_unit = unit.get(name);
        if (per_unit < 0) throw InvalidArgument(continuum::detail::message("ceil_div: unit has negative {} = {}", name, per_unit));
        if (per_unit == 0) {
            throw Infeasible(continuum::detail::message("ceil_div: demand needs {} {} but the unit provides none", format_resource(name, value), name));
        }
        count = std::max(count, value / per_unit + (value % per_unit != 0 ? 1 : 0));
    }
    return count;
}

/// The dominant share of `demand` in `capacity`: max over resources of demand / capacity
/// (Ghodsi et al.'s DRF share). 0 for empty demand.
/// \throws Infeasible naming the resource when demand > 0 and capacity has none of it.
inline double dominant_share(const Resources& demand, const Resources& capacity) {
    double share = 0.0;
    for (const auto& [name, value] : demand) {
        if (value <= 0) continue;
        const std::int64_t cap = capacity.get(name);
        if (cap <= 0) throw Infeasible(continuum::detail::message("dominant_share: demand has {} {} but capacity has none", format_resource(name, value), name));
        share = std::max(share, static_cast<double>(value) / static_cast<double>(cap));
    }
    return share;
}

}  // namespace continuum

template <>
struct fmt::formatter<continuum::Resources> : fmt::formatter<std::string_view> {
    template <typename FormatContext>
    auto format(const continuum::Resources& resources, FormatContext& ctx) const {
        return fmt::formatter<std::string_view>::format(resources.to_string(), ctx);
    }
};
