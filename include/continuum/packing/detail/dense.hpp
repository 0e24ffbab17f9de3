// Internal: items and capacities as a dense row-major int64 matrix (one column per resource), so
// the packing loops never touch strings. Dimension order: cpu, memory, then the other names sorted.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace continuum::packing::detail {

/// n items of d dimensions, row-major, plus the names of the dimensions.
struct DenseItems {
    std::size_t n = 0;
    std::size_t d = 0;
    std::vector<std::int64_t> sizes;  // n * d
    std::vector<std::string> names;   // d
    [[nodiscard]] const std::int64_t* row(std::size_t i) const { return sizes.data() + i * d; }
};

/// Dimension order: cpu, then memory, then every other name alphabetically.
inline bool dimension_less(const std::string& a, const std::string& b) {
    const auto rank = [](const std::string& s) { return s == resource_names::cpu ? 0 : s == resource_names::memory ? 1 : 2; };
    return rank(a) != rank(b) ? rank(a) < rank(b) : a < b;
}

/// Dimension names of every resource named in `a` or `b`, in dimension_less order.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
std::vector<std::string> dimension_names(std::span<const Resources> a, std::span<const Resources> b) {
    continuum::detail::deferred_t<std::vector<std::string>, Defer> names;  // dependent: clang sorts strings only where called
    const auto collect = [&](std::span<const Resources> list) {
        for (const auto& r : list) {
            for (const auto& [name, value] : r) names.push_back(name);
        }
    };
    collect(a);
    collect(b);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::sort(names.begin(), names.end(), dimension_less);
    return names;
}

/// Items as dense rows over `names`. \throws InvalidArgument on a negative amount or an all-zero item.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
DenseItems dense_items(std::span<const Resources> items, const std::vector<std::string>& names, const char* argument = "items") {
    DenseItems out;
    out.n = items.size();
    out.d = names.size();
    out.names = names;
    out.sizes.assign(out.n * out.d, 0);
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].empty()) throw InvalidArgument(continuum::detail::message("{}[{}] requests nothing (all resources zero); every item must have a positive size", argument, i));
        for (const auto& [name, value] : items[i]) {
            if (value < 0) throw InvalidArgument(continuum::detail::message("{}[{}] has negative {} = {}", argument, i, name, value));
            const auto it = std::lower_bound(names.begin(), names.end(), name, dimension_less);
            if (it == names.end() || *it != name) throw InvalidArgument(continuum::detail::message("{}[{}] names resource {} outside the known dimensions", argument, i, name));
            out.sizes[i * out.d + static_cast<std::size_t>(it - names.begin())] = value;
        }
    }
    return out;
}

/// One capacity as a dense vector over `names`.
/// \throws InvalidArgument on a negative amount or an empty (all-zero) capacity.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
std::vector<std::int64_t> dense_capacity(const Resources& capacity, const std::vector<std::string>& names, const std::string& argument = "capacity") {
    if (capacity.empty()) throw InvalidArgument(continuum::detail::message("{} is empty (all resources zero); a bin must have a positive capacity", argument));
    std::vector<std::int64_t> out(names.size(), 0);
    for (std::size_t k = 0; k < names.size(); ++k) {
        const auto value = capacity.get(names[k]);
        if (value < 0) throw InvalidArgument(continuum::detail::message("{} has negative {} = {}", argument, names[k], value));
        out[k] = value;
    }
    for (const auto& [name, value] : capacity) {
        if (value < 0) throw InvalidArgument(continuum::detail::message("{} has negative {} = {}", argument, name, value));
    }
    return out;
}

/// Validates 1-D sizes. \throws InvalidArgument naming the first size <= 0 or a capacity <= 0.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
void validate_one_dimensional(std::span<const std::int64_t> sizes, std::int64_t capacity) {
    if (capacity <= 0) throw InvalidArgument(continuum::detail::message("capacity must be > 0, got {}", capacity));
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] <= 0) throw InvalidArgument(continuum::detail::message("sizes[{}] must be > 0, got {}", i, sizes[i]));
    }
}

/// Validates dense vector items. \throws InvalidArgument on a negative amount, an all-zero item,
/// a dimension mismatch, or a capacity with a negative amount or no positive amount.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
void validate_dense(const DenseItems& items, std::span<const std::int64_t> capacity) {
    if (capacity.size() != items.d) {
        throw InvalidArgument(continuum::detail::message("capacity has {} dimensions but the items have {}", capacity.size(), items.d));
    }
    bool any_positive = false;
    for (std::size_t k = 0; k < capacity.size(); ++k) {
        if (capacity[k] < 0) throw InvalidArgument(continuum::detail::message("capacity[{}] must be >= 0, got {}", k, capacity[k]));
        any_positive = any_positive || capacity[k] > 0;
    }
    if (!any_positive && items.d > 0) throw InvalidArgument("capacity must have at least one positive dimension, got all zero");
    if (items.d == 0 && items.n > 0) throw InvalidArgument("items have zero dimensions");
    for (std::size_t i = 0; i < items.n; ++i) {
        bool positive = false;
        for (std::size_t k = 0; k < items.d; ++k) {
            const auto v = items.sizes[i * items.d + k];
            if (v < 0) throw InvalidArgument(continuum::detail::message("items[{}][{}] must be >= 0, got {}", i, k, v));
            positive = positive || v > 0;
        }
        if (!positive) throw InvalidArgument(continuum::detail::message("items[{}] is zero in every dimension; every item must have a positive size", i));
    }
}

/// 0, 1, ..., n-1.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
std::vector<std::size_t> identity_order(std::size_t n) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    return order;
}

/// True when row `item` fits in `residual` in every dimension.
inline bool fits(const std::int64_t* item, const std::int64_t* residual, std::size_t d) {
    for (std::size_t k = 0; k < d; ++k) {
        if (item[k] > residual[k]) return false;
    }
    return true;
}

}  // namespace continuum::packing::detail
