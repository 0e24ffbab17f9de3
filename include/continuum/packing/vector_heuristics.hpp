// Vector (multi-resource) bin packing heuristics over identical bins: next fit, first fit, best fit
// and their decreasing variants, with the item orderings of the Kubernetes autoscalers (Cluster
// Autoscaler: cpu/alloc + mem/alloc; Karpenter: cpu then memory) and the bin-centric DotProduct and
// Norm-based rules of Panigrahy, Talwar, Uyeda, Wieder, "Heuristics for vector bin packing" (2011).
// First fit searches a per-dimension max tree over bin residuals instead of scanning every bin.
// The *_onto_existing variants fill existing nodes' residual capacity before opening new nodes.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/key_order.hpp>
#include <continuum/packing/detail/residual_tree.hpp>
#include <continuum/packing/model.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
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
template <typename Defer = void>
std::vector<double> inverse_capacity(std::span<const std::int64_t> capacity) {
    std::vector<double> inv(capacity.size(), 0.0);
    for (std::size_t k = 0; k < capacity.size(); ++k) inv[k] = capacity[k] > 0 ? 1.0 / static_cast<double>(capacity[k]) : 0.0;
    return inv;
}

/// Item order for `order` (dot_product and l2_norm sort by sum_normalized), largest first, ties by index.
template <typename Defer = void>
std::vector<std::size_t> vector_decreasing_order(const DenseItems& items, std::span<const std::int64_t> capacity, VectorOrder order) {
    if (order == VectorOrder::lexicographic) {
        std::vector<std::size_t> idx(items.n);
        std::iota(idx.begin(), idx.end(), std::size_t{0});
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
    std::vector<std::uint64_t> keys(items.n);
    for (std::size_t i = 0; i < items.n; ++i) {
        const auto* r = items.row(i);
        double key = 0.0;
        for (std::size_t k = 0; k < items.d; ++k) {
            if (capacity[k] <= 0) continue;
            const double s = static_cast<double>(r[k]) / static_cast<double>(capacity[k]);  // correctly rounded
            key = order == VectorOrder::max_normalized ? std::max(key, s) : key + s;
        }
        keys[i] = nonnegative_double_key(key);
    }
    return order_by_key_descending<Defer>(std::move(keys));
}

template <typename Defer = void>
VectorPacking vector_next_fit(const DenseItems& items, std::span<const std::int64_t> capacity, const std::vector<std::size_t>& order) {
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

/// First fit in `order`. `initial` holds the residuals (row-major, d per bin) of bins that are
/// already open (existing nodes); they come first, so they are filled before any new bin opens,
/// and they are the first bins of the result (possibly empty).
template <typename Defer = void>
VectorPacking vector_first_fit(const DenseItems& items, std::span<const std::int64_t> capacity, const std::vector<std::size_t>& order,
                                      std::span<const std::int64_t> initial = {}) {
    VectorPacking out;
    const std::size_t d = items.d;
    const std::size_t existing = d > 0 ? initial.size() / d : 0;
    // Starts small and doubles when every leaf is open: the tree stays as large as the bins used.
    BasicResidualTree<Defer> tree(existing + std::min<std::size_t>(std::max<std::size_t>(items.n, 1), 1024), capacity);
    for (std::size_t b = 0; b < existing; ++b) tree.set_leaf(b, initial.data() + b * d);
    std::size_t opened = existing;
    std::vector<std::size_t> placed;
    std::vector<std::size_t> bin_of;
    placed.reserve(order.size());
    bin_of.reserve(order.size());
    // The rows in `order` (read sequentially from here on, not gathered through the permutation),
    // and rest_min[q * d + k]: the least size in dimension k among the items order[q..].
    std::vector<std::int64_t> rows(order.size() * d);
    for (std::size_t q = 0; q < order.size(); ++q) std::copy(items.row(order[q]), items.row(order[q]) + d, rows.begin() + static_cast<std::ptrdiff_t>(q * d));
    std::vector<std::int64_t> rest_min((order.size() + 1) * d, std::numeric_limits<std::int64_t>::max());
    for (std::size_t q = order.size(); q-- > 0;) {
        for (std::size_t k = 0; k < d; ++k) rest_min[q * d + k] = std::min(rest_min[(q + 1) * d + k], rows[q * d + k]);
    }
    const std::vector<std::int64_t> closed(d, -1);
    for (std::size_t q = 0; q < order.size(); ++q) {
        const std::size_t i = order[q];
        const auto* row = rows.data() + q * d;
        std::size_t bin = tree.first_fit(row);
        if (bin == ResidualTree::npos) {
            if (!fits(row, capacity.data(), d)) {
                out.unplaced.push_back(i);
                continue;
            }
            tree.grow();  // every leaf was open: the first new one takes the item
            bin = tree.first_fit(row);
        }
        opened = std::max(opened, bin + 1);
        placed.push_back(i);
        bin_of.push_back(bin);
        // A bin left with less room in some dimension than every item still to come holds none
        // of them: it leaves the tree (all -1), so the search no longer descends towards it.
        const std::int64_t* residual = tree.leaf(bin);
        bool dead = false;
        for (std::size_t k = 0; k < d; ++k) dead |= residual[k] - row[k] < rest_min[(q + 1) * d + k];
        if (dead) {
            tree.set_leaf(bin, closed.data());
        } else {
            tree.subtract(bin, row);
        }
    }
    collect_bins(out.bins, opened, placed, bin_of);
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

/// Score of placing `item` in a bin with residual `r` (lower is better) for best fit.
template <typename Defer = void>
double best_fit_score(const std::int64_t* item, const std::int64_t* r, std::size_t d, const std::vector<double>& inv, VectorOrder rule) {
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

/// Best fit in `order` under `rule`. `initial` holds the residuals of already open bins (existing
/// nodes, d per bin): an item goes to the best existing bin that holds it, and only when none does
/// to the best new bin; existing bins are the first bins of the result (possibly empty).
template <typename Defer = void>
VectorPacking vector_best_fit(const DenseItems& items, std::span<const std::int64_t> capacity, const std::vector<std::size_t>& order, VectorOrder rule,
                                     std::span<const std::int64_t> initial = {}) {
    VectorPacking out;
    const std::size_t d = items.d;
    const std::size_t existing = d > 0 ? initial.size() / d : 0;
    const auto inv = inverse_capacity<Defer>(capacity);
    std::vector<std::int64_t> residuals(initial.begin(), initial.end());  // bins x d
    out.bins.resize(existing);
    for (const auto i : order) {
        const auto* item = items.row(i);
        std::size_t best = out.bins.size();
        double best_score = 0.0;
        const auto scan = [&](std::size_t from, std::size_t to) {
            for (std::size_t b = from; b < to; ++b) {
                const auto* r = residuals.data() + b * d;
                if (!fits(item, r, d)) continue;
                if (rule == VectorOrder::lexicographic) {
                    if (best == out.bins.size() || std::lexicographical_compare(r, r + d, residuals.data() + best * d, residuals.data() + best * d + d)) best = b;
                    continue;
                }
                const double score = best_fit_score<Defer>(item, r, d, inv, rule);
                if (best == out.bins.size() || score < best_score) {
                    best = b;
                    best_score = score;
                }
            }
        };
        scan(0, existing);
        if (best == out.bins.size()) scan(existing, out.bins.size());
        if (best == out.bins.size() && !fits(item, capacity.data(), d)) {
            out.unplaced.push_back(i);
            continue;
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

/// Adds to one bin of residual `residual`, one at a time, the remaining item that scores best under
/// Panigrahy's `rule` (dot_product or l2_norm), until none fits; placed items leave `remaining`.
template <typename Defer = void>
void fill_bin_centric(const DenseItems& items, std::vector<std::int64_t>& residual, const std::vector<double>& inv, VectorOrder rule,
                             std::vector<std::size_t>& remaining, std::vector<std::size_t>& bin) {
    const std::size_t d = items.d;
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
        if (best == remaining.size()) return;
        const std::size_t i = remaining[best];
        bin.push_back(i);
        for (std::size_t k = 0; k < d; ++k) residual[k] -= items.row(i)[k];
        remaining.erase(remaining.begin() + static_cast<std::ptrdiff_t>(best));
    }
}

/// Panigrahy's bin-centric rules: keep one bin open, add the best-scoring item that fits, open a
/// new bin when none does. O(n · bins · d). The bins of `initial` (existing nodes' residuals, d per
/// bin) are filled first, in order, and are the first bins of the result.
template <typename Defer = void>
VectorPacking vector_bin_centric(const DenseItems& items, std::span<const std::int64_t> capacity, VectorOrder rule, std::span<const std::int64_t> initial = {}) {
    VectorPacking out;
    const std::size_t d = items.d;
    const std::size_t existing = d > 0 ? initial.size() / d : 0;
    const auto inv = inverse_capacity<Defer>(capacity);
    std::vector<std::size_t> remaining = identity_order<Defer>(items.n);
    std::vector<std::int64_t> residual(d);
    for (std::size_t bin = 0; bin <= existing; ++bin) {
        if (bin == existing) {  // what is left goes to new bins: set aside what no new bin holds
            std::vector<std::size_t> placeable;
            for (const auto i : remaining) {
                if (fits(items.row(i), capacity.data(), d)) {
                    placeable.push_back(i);
                } else {
                    out.unplaced.push_back(i);
                }
            }
            remaining = std::move(placeable);
            break;
        }
        residual.assign(initial.begin() + static_cast<std::ptrdiff_t>(bin * d), initial.begin() + static_cast<std::ptrdiff_t>((bin + 1) * d));
        out.bins.emplace_back();
        fill_bin_centric<Defer>(items, residual, inv, rule, remaining, out.bins.back());
    }
    while (!remaining.empty()) {
        residual.assign(capacity.begin(), capacity.end());
        out.bins.emplace_back();
        fill_bin_centric<Defer>(items, residual, inv, rule, remaining, out.bins.back());
    }
    std::sort(out.unplaced.begin(), out.unplaced.end());
    return out;
}

struct DenseProblem {
    DenseItems items;
    std::vector<std::int64_t> capacity;
};

template <typename Defer = void>
DenseProblem dense_problem(std::span<const Resources> items, const Resources& capacity) {
    DenseProblem p;
    const auto names = dimension_names<Defer>(items, std::span<const Resources>(&capacity, 1));
    p.items = dense_items<Defer>(items, names);
    p.capacity = dense_capacity<Defer>(capacity, names);
    validate_dense<Defer>(p.items, p.capacity);
    return p;
}

template <typename Defer = void>
DenseItems dense_view(std::span<const std::int64_t> sizes, std::size_t dimensions, std::span<const std::int64_t> capacity) {
    if (dimensions == 0) throw InvalidArgument("dimensions must be >= 1, got 0");
    if (sizes.size() % dimensions != 0) {
        throw InvalidArgument(continuum::detail::message("sizes has {} values, not a multiple of dimensions = {}", sizes.size(), dimensions));
    }
    DenseItems items;
    items.n = sizes.size() / dimensions;
    items.d = dimensions;
    items.sizes.assign(sizes.begin(), sizes.end());
    validate_dense<Defer>(items, capacity);
    return items;
}

template <typename Defer = void>
VectorPacking vector_ffd(const DenseItems& items, std::span<const std::int64_t> capacity, VectorOrder order, std::span<const std::int64_t> initial = {}) {
    if (order == VectorOrder::dot_product || order == VectorOrder::l2_norm) return vector_bin_centric<Defer>(items, capacity, order, initial);
    return vector_first_fit<Defer>(items, capacity, vector_decreasing_order<Defer>(items, capacity, order), initial);
}

template <typename Defer = void>
VectorPacking vector_bfd(const DenseItems& items, std::span<const std::int64_t> capacity, VectorOrder order, std::span<const std::int64_t> initial = {}) {
    return vector_best_fit<Defer>(items, capacity, vector_decreasing_order<Defer>(items, capacity, order), order, initial);
}

/// Items, the new-node capacity and the existing nodes' residuals (capacity − allocated, row-major,
/// negative where a node is over-committed) over the union of every resource name.
struct DenseExistingProblem {
    DenseProblem base;
    std::vector<std::int64_t> residuals;  // existing nodes x d
};

template <typename Defer = void>
DenseExistingProblem dense_existing_problem(std::span<const Resources> items, std::span<const ExistingNode> existing, const Resources& new_node_capacity) {
    std::vector<Resources> others{new_node_capacity};
    for (const auto& node : existing) {
        others.push_back(node.capacity);
        others.push_back(node.allocated);
    }
    const auto names = dimension_names<Defer>(items, others);
    DenseExistingProblem p;
    p.base.items = dense_items<Defer>(items, names);
    p.base.capacity = dense_capacity<Defer>(new_node_capacity, names, "new_node_capacity");
    validate_dense<Defer>(p.base.items, p.base.capacity);
    p.residuals.reserve(existing.size() * names.size());
    for (std::size_t e = 0; e < existing.size(); ++e) {
        const auto capacity = dense_capacity<Defer>(existing[e].capacity, names, continuum::detail::message("existing_nodes[{}] ({}) capacity", e, existing[e].name));
        for (std::size_t k = 0; k < names.size(); ++k) {
            const auto allocated = existing[e].allocated.get(names[k]);
            if (allocated < 0) throw InvalidArgument(continuum::detail::message("existing_nodes[{}] ({}) allocated has negative {} = {}", e, existing[e].name, names[k], allocated));
            p.residuals.push_back(capacity[k] - allocated);
        }
    }
    return p;
}

/// Splits a packing whose first `existing` bins are the existing nodes.
template <typename Defer = void>
PackingOntoExisting split_existing(continuum::detail::deferred_t<VectorPacking, Defer> packing, std::size_t existing) {
    continuum::detail::deferred_t<PackingOntoExisting, Defer> out;
    out.existing.assign(std::make_move_iterator(packing.bins.begin()), std::make_move_iterator(packing.bins.begin() + static_cast<std::ptrdiff_t>(existing)));
    out.new_nodes.assign(std::make_move_iterator(packing.bins.begin() + static_cast<std::ptrdiff_t>(existing)), std::make_move_iterator(packing.bins.end()));
    out.unplaced = std::move(packing.unplaced);
    return out;
}

}  // namespace detail

/// First fit decreasing over identical bins of `capacity`. For sum_normalized, max_normalized and
/// lexicographic: sort by that size, largest first (ties by index), then first fit, O(n log n)
/// plus a pruned tree search per item. For dot_product and l2_norm: Panigrahy's bin-centric rule,
/// O(n · bins · d). Items that do not fit an empty bin are reported in `unplaced`.
/// \throws InvalidArgument on a negative amount, an all-zero item, or a capacity with a negative
///         amount or no positive amount.
template <typename Defer = void>
VectorPacking first_fit_decreasing(std::span<const Resources> items, const Resources& capacity, VectorOrder order = VectorOrder::sum_normalized) {
    const auto p = detail::dense_problem<Defer>(items, capacity);
    return detail::vector_ffd<Defer>(p.items, p.capacity, order);
}

/// Best fit decreasing: items sorted by `order` (dot_product and l2_norm sort by sum_normalized),
/// each placed in the feasible bin that scores best after placement: least normalised residual
/// (sum, max, or lexicographic residual), least Σ (residual − size)² for l2_norm, largest
/// Σ size·residual for dot_product; lowest index among ties. O(n · bins · d).
/// \throws InvalidArgument as first_fit_decreasing.
template <typename Defer = void>
VectorPacking best_fit_decreasing(std::span<const Resources> items, const Resources& capacity, VectorOrder order = VectorOrder::sum_normalized) {
    const auto p = detail::dense_problem<Defer>(items, capacity);
    return detail::vector_bfd<Defer>(p.items, p.capacity, order);
}

/// First fit in input order. \throws InvalidArgument as first_fit_decreasing.
template <typename Defer = void>
VectorPacking first_fit(std::span<const Resources> items, const Resources& capacity) {
    const auto p = detail::dense_problem<Defer>(items, capacity);
    return detail::vector_first_fit<Defer>(p.items, p.capacity, detail::identity_order<Defer>(p.items.n));
}

/// Best fit (least Σ normalised residual) in input order. \throws InvalidArgument as first_fit_decreasing.
template <typename Defer = void>
VectorPacking best_fit(std::span<const Resources> items, const Resources& capacity) {
    const auto p = detail::dense_problem<Defer>(items, capacity);
    return detail::vector_best_fit<Defer>(p.items, p.capacity, detail::identity_order<Defer>(p.items.n), VectorOrder::sum_normalized);
}

/// Next fit in input order. \throws InvalidArgument as first_fit_decreasing.
template <typename Defer = void>
VectorPacking next_fit(std::span<const Resources> items, const Resources& capacity) {
    const auto p = detail::dense_problem<Defer>(items, capacity);
    return detail::vector_next_fit<Defer>(p.items, p.capacity, detail::identity_order<Defer>(p.items.n));
}

/// First fit decreasing onto existing nodes first, then onto new nodes of `new_node_capacity`: the
/// items are ordered as first_fit_decreasing orders them (sizes normalised by `new_node_capacity`);
/// each goes to the first existing node (input order) whose residual capacity − allocated holds it,
/// and only when none does to the first new node with room (opening one if needed). dot_product and
/// l2_norm fill each existing node in turn with Panigrahy's bin-centric rule, then new nodes. With
/// no existing nodes the new nodes equal first_fit_decreasing(items, new_node_capacity, order).
/// Items that fit neither an existing node's residual nor an empty new node are in `unplaced`.
/// \throws InvalidArgument as first_fit_decreasing (for `new_node_capacity`), and on an existing
///         node's capacity that is empty or has a negative amount, or a negative allocated amount.
template <typename Defer = void>
PackingOntoExisting first_fit_decreasing_onto_existing(std::span<const Resources> items, std::span<const ExistingNode> existing_nodes,
                                                              const Resources& new_node_capacity, VectorOrder order = VectorOrder::sum_normalized) {
    const auto p = detail::dense_existing_problem<Defer>(items, existing_nodes, new_node_capacity);
    return detail::split_existing<Defer>(detail::vector_ffd<Defer>(p.base.items, p.base.capacity, order, p.residuals), existing_nodes.size());
}

/// Best fit decreasing onto existing nodes first: items in best_fit_decreasing's order, each to the
/// existing node that scores best under `order` among those whose residual holds it; only when no
/// existing node does, to the best-scoring new node of `new_node_capacity` (opening one if needed).
/// O(n · (existing + new nodes) · d). \throws InvalidArgument as first_fit_decreasing_onto_existing.
template <typename Defer = void>
PackingOntoExisting best_fit_decreasing_onto_existing(std::span<const Resources> items, std::span<const ExistingNode> existing_nodes,
                                                             const Resources& new_node_capacity, VectorOrder order = VectorOrder::sum_normalized) {
    const auto p = detail::dense_existing_problem<Defer>(items, existing_nodes, new_node_capacity);
    return detail::split_existing<Defer>(detail::vector_bfd<Defer>(p.base.items, p.base.capacity, order, p.residuals), existing_nodes.size());
}

/// First fit decreasing on a dense row-major matrix (`sizes` holds n × `dimensions` values) and a
/// capacity of `dimensions` values: the same algorithm as the Resources overload, without names.
/// \throws InvalidArgument on a size not a multiple of dimensions, a capacity of another length,
///         negative amounts, an all-zero item or capacity.
template <typename Defer = void>
VectorPacking first_fit_decreasing(std::span<const std::int64_t> sizes, std::size_t dimensions, std::span<const std::int64_t> capacity,
                                          VectorOrder order = VectorOrder::sum_normalized) {
    return detail::vector_ffd<Defer>(detail::dense_view<Defer>(sizes, dimensions, capacity), capacity, order);
}

/// Best fit decreasing on a dense row-major matrix. \throws InvalidArgument as above.
template <typename Defer = void>
VectorPacking best_fit_decreasing(std::span<const std::int64_t> sizes, std::size_t dimensions, std::span<const std::int64_t> capacity,
                                         VectorOrder order = VectorOrder::sum_normalized) {
    return detail::vector_bfd<Defer>(detail::dense_view<Defer>(sizes, dimensions, capacity), capacity, order);
}

}  // namespace continuum::packing
