// Vector (multi-resource) bin packing heuristics over identical bins: next fit, first fit, best fit
// and their decreasing variants, with the item orderings of the Kubernetes autoscalers (Cluster
// Autoscaler: cpu/alloc + mem/alloc; Karpenter: cpu then memory) and the bin-centric DotProduct and
// Norm-based rules of Panigrahy, Talwar, Uyeda, Wieder, "Heuristics for vector bin packing" (2011).
// First fit searches a per-dimension max tree over bin residuals instead of scanning every bin.
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/residual_tree.hpp>
#include <continuum/packing/model.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::packing {

/// How items are ordered (and, for best fit, how bins are scored). Sizes are normalised per
/// dimension by the bin capacity (size_k / capacity_k) except for `lexicographic`.
enum class VectorOrder {
    sum_normalized,  ///< Σ_k size_k / capacity_k, largest first (Cluster Autoscaler's cpu/alloc + mem/alloc)
    max_normalized,  ///< max_k size_k / capacity_k, largest first
    lexicographic,   ///< cpu, then memory, then the other dimensions by name, largest first (Karpenter)
    dot_product,     ///< Panigrahy's bin-centric DotProduct rule: fill one bin at a time with the item maximising Σ_k size_k·residual_k
    l2_norm,         ///< Panigrahy's bin-centric Norm-based greedy: fill one bin at a time with the item minimising Σ_k (residual_k − size_k)²
};

namespace detail {

/// Normalised scale of each dimension (1 / capacity_k; 0 for a zero-capacity dimension).
inline std::vector<double> inverse_capacity(std::span<const std::int64_t> capacity) {
    std::vector<double> inv(capacity.size(), 0.0);
    for (std::size_t k = 0; k < capacity.size(); ++k) inv[k] = capacity[k] > 0 ? 1.0 / static_cast<double>(capacity[k]) : 0.0;
    return inv;
}

/// Item order for `order` (dot_product and l2_norm sort by sum_normalized), largest first, ties by index.
inline std::vector<std::size_t> vector_decreasing_order(const DenseItems& items, std::span<const std::int64_t> capacity, VectorOrder order) {
    std::vector<std::size_t> idx(items.n);
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    if (order == VectorOrder::lexicographic) {
        std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
            const auto* ra = items.row(a);
            const auto* rb = items.row(b);
            for (std::size_t k = 0; k < items.d; ++k) {
                if (ra[k] != rb[k]) return ra[k] > rb[k];
            }
            return a < b;
        });
        return idx;
    }
    std::vector<std::pair<double, std::size_t>> keyed(items.n);
    for (std::size_t i = 0; i < items.n; ++i) {
        const auto* r = items.row(i);
        double key = 0.0;
        for (std::size_t k = 0; k < items.d; ++k) {
            if (capacity[k] <= 0) continue;
            const double s = static_cast<double>(r[k]) / static_cast<double>(capacity[k]);  // correctly rounded
            key = order == VectorOrder::max_normalized ? std::max(key, s) : key + s;
        }
        keyed[i] = {key, i};
    }
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    for (std::size_t i = 0; i < items.n; ++i) idx[i] = keyed[i].second;
    return idx;
}

inline VectorPacking vector_next_fit(const DenseItems& items, std::span<const std::int64_t> capacity, const std::vector<std::size_t>& order) {
    VectorPacking out;
    std::vector<std::int64_t> residual(capacity.begin(), capacity.end());
    for (const auto i : order) {
        if (!fits(items.row(i), capacity.data(), items.d)) {
            out.unplaced.push_back(i);
            continue;
        }
        if (out.bins.empty() || !fits(items.row(i), residual.data(), items.d)) {
            out.bins.emplace_back();
            residual.assign(capacity.begin(), capacity.end());
        }
        out.bins.back().push_back(i);
        for (std::size_t k = 0; k < items.d; ++k) residual[k] -= items.row(i)[k];
    }
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

inline VectorPacking vector_first_fit(const DenseItems& items, std::span<const std::int64_t> capacity, const std::vector<std::size_t>& order) {
    VectorPacking out;
    ResidualTree tree(std::max<std::size_t>(items.n, 1), capacity);
    for (const auto i : order) {
        if (!fits(items.row(i), capacity.data(), items.d)) {
            out.unplaced.push_back(i);
            continue;
        }
        const std::size_t bin = tree.first_fit(items.row(i));
        if (bin == out.bins.size()) out.bins.emplace_back();
        out.bins[bin].push_back(i);
        tree.subtract(bin, items.row(i));
    }
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

/// Score of placing `item` in a bin with residual `r` (lower is better) for best fit.
inline double best_fit_score(const std::int64_t* item, const std::int64_t* r, std::size_t d, const std::vector<double>& inv, VectorOrder rule) {
    double score = 0.0;
    for (std::size_t k = 0; k < d; ++k) {
        const double left = static_cast<double>(r[k] - item[k]) * inv[k];
        switch (rule) {
            case VectorOrder::max_normalized: score = std::max(score, left); break;
            case VectorOrder::l2_norm: score += left * left; break;
            case VectorOrder::dot_product: score -= static_cast<double>(item[k]) * inv[k] * static_cast<double>(r[k]) * inv[k]; break;
            default: score += left; break;
        }
    }
    return score;
}

inline VectorPacking vector_best_fit(const DenseItems& items, std::span<const std::int64_t> capacity, const std::vector<std::size_t>& order, VectorOrder rule) {
    VectorPacking out;
    const std::size_t d = items.d;
    const auto inv = inverse_capacity(capacity);
    std::vector<std::int64_t> residuals;  // bins x d
    for (const auto i : order) {
        const auto* item = items.row(i);
        if (!fits(item, capacity.data(), d)) {
            out.unplaced.push_back(i);
            continue;
        }
        std::size_t best = out.bins.size();
        double best_score = 0.0;
        for (std::size_t b = 0; b < out.bins.size(); ++b) {
            const auto* r = residuals.data() + b * d;
            if (!fits(item, r, d)) continue;
            if (rule == VectorOrder::lexicographic) {
                if (best == out.bins.size() || std::lexicographical_compare(r, r + d, residuals.data() + best * d, residuals.data() + best * d + d)) best = b;
                continue;
            }
            const double score = best_fit_score(item, r, d, inv, rule);
            if (best == out.bins.size() || score < best_score) {
                best = b;
                best_score = score;
            }
        }
        if (best == out.bins.size()) {
            out.bins.emplace_back();
            residuals.insert(residuals.end(), capacity.begin(), capacity.end());
        }
        out.bins[best].push_back(i);
        for (std::size_t k = 0; k < d; ++k) residuals[best * d + k] -= item[k];
    }
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

/// Panigrahy's bin-centric rules: keep one bin open, add the best-scoring item that fits, open a
/// new bin when none does. O(n · bins · d).
inline VectorPacking vector_bin_centric(const DenseItems& items, std::span<const std::int64_t> capacity, VectorOrder rule) {
    VectorPacking out;
    const std::size_t d = items.d;
    const auto inv = inverse_capacity(capacity);
    std::vector<std::size_t> remaining;
    for (std::size_t i = 0; i < items.n; ++i) {
        if (fits(items.row(i), capacity.data(), d)) {
            remaining.push_back(i);
        } else {
            out.unplaced.push_back(i);
        }
    }
    std::vector<std::int64_t> residual(d);
    while (!remaining.empty()) {
        residual.assign(capacity.begin(), capacity.end());
        out.bins.emplace_back();
        while (true) {
            std::size_t best = remaining.size();
            double best_score = 0.0;
            for (std::size_t p = 0; p < remaining.size(); ++p) {
                const auto* item = items.row(remaining[p]);
                if (!fits(item, residual.data(), d)) continue;
                double score = 0.0;  // higher is better
                for (std::size_t k = 0; k < d; ++k) {
                    const double s = static_cast<double>(item[k]) * inv[k];
                    const double r = static_cast<double>(residual[k]) * inv[k];
                    score += rule == VectorOrder::dot_product ? s * r : -(r - s) * (r - s);
                }
                if (best == remaining.size() || score > best_score || (score == best_score && remaining[p] < remaining[best])) {
                    best = p;
                    best_score = score;
                }
            }
            if (best == remaining.size()) break;
            const std::size_t i = remaining[best];
            out.bins.back().push_back(i);
            for (std::size_t k = 0; k < d; ++k) residual[k] -= items.row(i)[k];
            remaining.erase(remaining.begin() + static_cast<std::ptrdiff_t>(best));
        }
    }
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

struct DenseProblem {
    DenseItems items;
    std::vector<std::int64_t> capacity;
};

inline DenseProblem dense_problem(std::span<const Resources> items, const Resources& capacity) {
    DenseProblem p;
    const auto names = dimension_names(items, std::span<const Resources>(&capacity, 1));
    p.items = dense_items(items, names);
    p.capacity = dense_capacity(capacity, names);
    validate_dense(p.items, p.capacity);
    return p;
}

inline DenseItems dense_view(std::span<const std::int64_t> sizes, std::size_t dimensions, std::span<const std::int64_t> capacity) {
    if (dimensions == 0) throw InvalidArgument("dimensions must be >= 1, got 0");
    if (sizes.size() % dimensions != 0) {
        throw InvalidArgument(fmt::format("sizes has {} values, not a multiple of dimensions = {}", sizes.size(), dimensions));
    }
    DenseItems items;
    items.n = sizes.size() / dimensions;
    items.d = dimensions;
    items.sizes.assign(sizes.begin(), sizes.end());
    validate_dense(items, capacity);
    return items;
}

inline VectorPacking vector_ffd(const DenseItems& items, std::span<const std::int64_t> capacity, VectorOrder order) {
    if (order == VectorOrder::dot_product || order == VectorOrder::l2_norm) return vector_bin_centric(items, capacity, order);
    return vector_first_fit(items, capacity, vector_decreasing_order(items, capacity, order));
}

inline VectorPacking vector_bfd(const DenseItems& items, std::span<const std::int64_t> capacity, VectorOrder order) {
    return vector_best_fit(items, capacity, vector_decreasing_order(items, capacity, order), order);
}

}  // namespace detail

/// First fit decreasing over identical bins of `capacity`. For sum_normalized, max_normalized and
/// lexicographic: sort by that size, largest first (ties by index), then first fit, O(n log n)
/// plus a pruned tree search per item. For dot_product and l2_norm: Panigrahy's bin-centric rule,
/// O(n · bins · d). Items that do not fit an empty bin are reported in `unplaced`.
/// \throws InvalidArgument on a negative amount, an all-zero item, or a capacity with a negative
///         amount or no positive amount.
inline VectorPacking first_fit_decreasing(std::span<const Resources> items, const Resources& capacity, VectorOrder order = VectorOrder::sum_normalized) {
    const auto p = detail::dense_problem(items, capacity);
    return detail::vector_ffd(p.items, p.capacity, order);
}

/// Best fit decreasing: items sorted by `order` (dot_product and l2_norm sort by sum_normalized),
/// each placed in the feasible bin that scores best after placement: least normalised residual
/// (sum, max, or lexicographic residual), least Σ (residual − size)² for l2_norm, largest
/// Σ size·residual for dot_product; lowest index among ties. O(n · bins · d).
/// \throws InvalidArgument as first_fit_decreasing.
inline VectorPacking best_fit_decreasing(std::span<const Resources> items, const Resources& capacity, VectorOrder order = VectorOrder::sum_normalized) {
    const auto p = detail::dense_problem(items, capacity);
    return detail::vector_bfd(p.items, p.capacity, order);
}

/// First fit in input order. \throws InvalidArgument as first_fit_decreasing.
inline VectorPacking first_fit(std::span<const Resources> items, const Resources& capacity) {
    const auto p = detail::dense_problem(items, capacity);
    return detail::vector_first_fit(p.items, p.capacity, detail::identity_order(p.items.n));
}

/// Best fit (least Σ normalised residual) in input order. \throws InvalidArgument as first_fit_decreasing.
inline VectorPacking best_fit(std::span<const Resources> items, const Resources& capacity) {
    const auto p = detail::dense_problem(items, capacity);
    return detail::vector_best_fit(p.items, p.capacity, detail::identity_order(p.items.n), VectorOrder::sum_normalized);
}

/// Next fit in input order. \throws InvalidArgument as first_fit_decreasing.
inline VectorPacking next_fit(std::span<const Resources> items, const Resources& capacity) {
    const auto p = detail::dense_problem(items, capacity);
    return detail::vector_next_fit(p.items, p.capacity, detail::identity_order(p.items.n));
}

/// First fit decreasing on a dense row-major matrix (`sizes` holds n × `dimensions` values) and a
/// capacity of `dimensions` values: the same algorithm as the Resources overload, without names.
/// \throws InvalidArgument on a size not a multiple of dimensions, a capacity of another length,
///         negative amounts, an all-zero item or capacity.
inline VectorPacking first_fit_decreasing(std::span<const std::int64_t> sizes, std::size_t dimensions, std::span<const std::int64_t> capacity,
                                          VectorOrder order = VectorOrder::sum_normalized) {
    return detail::vector_ffd(detail::dense_view(sizes, dimensions, capacity), capacity, order);
}

/// Best fit decreasing on a dense row-major matrix. \throws InvalidArgument as above.
inline VectorPacking best_fit_decreasing(std::span<const std::int64_t> sizes, std::size_t dimensions, std::span<const std::int64_t> capacity,
                                         VectorOrder order = VectorOrder::sum_normalized) {
    return detail::vector_bfd(detail::dense_view(sizes, dimensions, capacity), capacity, order);
}

}  // namespace continuum::packing
