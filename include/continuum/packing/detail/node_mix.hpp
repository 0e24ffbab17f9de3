// Internal: the heterogeneous (node types with cost) packing engine behind cheapest_node_mix:
// dense problem, heuristics (cost-efficiency greedy, typed first fit, downsizing), a fractional
// lower bound and a depth-first branch and bound over single items for small instances of many
// distinct requests (node_mix_solve.hpp combines them). Existing nodes are extra "types" of cost 0
// and count 1 (capacity = their residual), always tried before new nodes.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/residual_tree.hpp>
#include <continuum/packing/model.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::packing::detail {

/// Placeable items up to this count get the exact branch and bound after the heuristics.
inline constexpr std::size_t node_mix_exact_items = 40;
/// The exact branch and bound branches over every existing node too: it runs only up to this many.
inline constexpr std::size_t node_mix_exact_existing = 16;
/// Up to this many placeable items the O(bins · types · n) cost-efficiency greedy runs too.
inline constexpr std::size_t node_mix_greedy_items = 4000;

struct NodeMixProblem {
    DenseItems items;
    std::vector<std::vector<std::int64_t>> capacity;  // per type
    std::vector<double> cost;
    std::vector<std::int64_t> max_count;  // unlimited = -1
    std::vector<double> scale;            // 1 / (largest capacity over types) per dimension
    std::vector<std::size_t> placeable;   // items that fit at least one type, largest first
    std::vector<std::pair<std::size_t, std::string>> unplaceable;
    std::size_t new_types = 0;  // types [0, new_types) may be opened; [new_types, types()) are existing nodes
    [[nodiscard]] std::size_t types() const { return cost.size(); }
    [[nodiscard]] bool is_existing(std::size_t t) const { return t >= new_types; }
    [[nodiscard]] std::size_t existing() const { return types() - new_types; }
    [[nodiscard]] double normalised_size(const std::int64_t* row) const {
        double s = 0;
        for (std::size_t k = 0; k < items.d; ++k) s += static_cast<double>(row[k]) * scale[k];
        return s;
    }
};

struct MixBin {
    std::size_t type = 0;
    std::vector<std::size_t> items;
    std::vector<std::int64_t> residual;
};

struct MixSolution {
    std::vector<MixBin> bins;
    double cost = 0;
    double lower_bound = 0;
    bool optimal = false;
    std::vector<std::pair<std::size_t, std::string>> unplaceable;
};

template <typename Defer = void>  // compiled only where called (the chain from cheapest_node_mix down)
NodeMixProblem node_mix_problem(std::span<const Resources> items, std::span<const NodeType> types, std::span<const ExistingNode> existing = {}) {
    if (types.empty() && existing.empty()) throw InvalidArgument("types is empty; at least one node type is needed");
    std::vector<Resources> capacities;
    for (std::size_t t = 0; t < types.size(); ++t) {
        const auto& type = types[t];
        if (!std::isfinite(type.cost) || type.cost < 0) throw InvalidArgument(continuum::detail::message("types[{}] ({}) cost must be finite and >= 0, got {}", t, type.name, type.cost));
        if (type.max_count < unlimited) throw InvalidArgument(continuum::detail::message("types[{}] ({}) max_count must be >= 0 or unlimited (-1), got {}", t, type.name, type.max_count));
        capacities.push_back(type.capacity);
    }
    for (const auto& node : existing) {
        capacities.push_back(node.capacity);
        capacities.push_back(node.allocated);
    }
    NodeMixProblem p;
    const auto names = dimension_names(items, continuum::detail::span_of(capacities));
    p.items = dense_items(items, names);
    for (std::size_t t = 0; t < types.size(); ++t) {
        p.capacity.push_back(dense_capacity(types[t].capacity, names, continuum::detail::message("types[{}] ({}) capacity", t, types[t].name)));
        p.cost.push_back(types[t].cost);
        p.max_count.push_back(types[t].max_count);
    }
    p.new_types = types.size();
    for (std::size_t e = 0; e < existing.size(); ++e) {
        auto residual = dense_capacity(existing[e].capacity, names, continuum::detail::message("existing_nodes[{}] ({}) capacity", e, existing[e].name));
        for (std::size_t k = 0; k < names.size(); ++k) {
            const auto allocated = existing[e].allocated.get(names[k]);
            if (allocated < 0) throw InvalidArgument(continuum::detail::message("existing_nodes[{}] ({}) allocated has negative {} = {}", e, existing[e].name, names[k], allocated));
            residual[k] -= allocated;  // negative: over-committed, receives nothing
        }
        p.capacity.push_back(std::move(residual));
        p.cost.push_back(0.0);
        p.max_count.push_back(1);
    }
    p.scale.assign(p.items.d, 0.0);
    for (std::size_t k = 0; k < p.items.d; ++k) {
        std::int64_t largest = 0;
        for (const auto& cap : p.capacity) largest = std::max(largest, cap[k]);
        p.scale[k] = largest > 0 ? 1.0 / static_cast<double>(largest) : 0.0;
    }
    std::vector<std::pair<double, std::size_t>> keyed;
    for (std::size_t i = 0; i < p.items.n; ++i) {
        const auto* row = p.items.row(i);
        bool any = false;
        for (const auto& cap : p.capacity) any = any || fits(row, cap.data(), p.items.d);
        if (any) {
            keyed.emplace_back(p.normalised_size(row), i);
            continue;
        }
        std::string why;
        const char* where = existing.empty() ? "" : "fits no existing node's residual and ";
        for (std::size_t k = 0; k < p.items.d && why.empty() && p.new_types > 0; ++k) {
            std::int64_t largest = 0;
            for (std::size_t t = 0; t < p.new_types; ++t) largest = std::max(largest, p.capacity[t][k]);
            if (row[k] > largest) {
                why = continuum::detail::message("{}needs {} {} but the largest node type offers {}", where, format_resource(names[k], row[k]), names[k], format_resource(names[k], largest));
            }
        }
        if (why.empty() && p.new_types == 0) why = "fits no existing node's residual and no node type may be opened";
        if (why.empty()) why = continuum::detail::message("{}no single node type offers all of its resources at once", where);
        p.unplaceable.emplace_back(i, why);
    }
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    for (const auto& [key, i] : keyed) p.placeable.push_back(i);
    return p;
}

template <typename Defer = void>
double solution_cost(const NodeMixProblem& p, const std::vector<MixBin>& bins) {
    double cost = 0;
    for (const auto& b : bins) cost += p.cost[b.type];
    return cost;
}

/// Cost per unit of normalised capacity of each type (lower is more efficient).
template <typename Defer = void>
std::vector<std::size_t> types_by_efficiency(const NodeMixProblem& p) {
    std::vector<std::pair<double, std::size_t>> keyed;
    for (std::size_t t = 0; t < p.new_types; ++t) {
        if (p.max_count[t] == 0) continue;
        keyed.emplace_back(p.cost[t] / std::max(p.normalised_size(p.capacity[t].data()), 1e-300), t);
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<std::size_t> order;
    for (const auto& [ratio, t] : keyed) order.push_back(t);
    return order;
}

/// Moves every bin to the cheapest type that still holds its items (counts permitting).
template <typename Defer = void>
void downsize(const NodeMixProblem& p, std::vector<MixBin>& bins) {
    std::vector<std::int64_t> used(p.types(), 0);
    for (const auto& b : bins) ++used[b.type];
    const std::size_t d = p.items.d;
    std::vector<std::int64_t> load(d);
    for (auto& b : bins) {
        std::fill(load.begin(), load.end(), 0);
        for (const auto i : b.items) {
            for (std::size_t k = 0; k < d; ++k) load[k] += p.items.row(i)[k];
        }
        std::size_t best = b.type;
        for (std::size_t t = 0; t < p.types(); ++t) {
            if (p.cost[t] >= p.cost[best] || !fits(load.data(), p.capacity[t].data(), d)) continue;
            if (p.max_count[t] != unlimited && used[t] >= p.max_count[t]) continue;
            best = t;
        }
        if (best != b.type) {
            --used[b.type];
            ++used[best];
            b.type = best;
            for (std::size_t k = 0; k < d; ++k) b.residual[k] = p.capacity[best][k] - load[k];
        }
    }
}

/// First fit over a fixed sequence of bin types (each type in `order`, repeated up to its count).
template <typename Defer = void>
std::vector<MixBin> typed_first_fit(const NodeMixProblem& p, const std::vector<std::size_t>& type_order, std::vector<std::size_t>& left_out) {
    std::vector<std::size_t> leaf_type;
    for (std::size_t t = p.new_types; t < p.types(); ++t) leaf_type.push_back(t);  // existing nodes first
    const std::size_t n = p.placeable.size() + leaf_type.size();
    for (const auto t : type_order) {
        const auto count = p.max_count[t] == unlimited ? n : static_cast<std::size_t>(std::min<std::int64_t>(p.max_count[t], static_cast<std::int64_t>(n)));
        for (std::size_t c = 0; c < count && leaf_type.size() < n; ++c) leaf_type.push_back(t);
        if (leaf_type.size() >= n) break;
    }
    std::vector<MixBin> bins;
    if (leaf_type.empty()) {
        left_out = p.placeable;
        return bins;
    }
    const std::size_t d = p.items.d;
    ResidualTree tree(leaf_type.size(), p.capacity[leaf_type[0]]);
    for (std::size_t leaf = 0; leaf < leaf_type.size(); ++leaf) tree.set_leaf(leaf, p.capacity[leaf_type[leaf]].data());
    std::vector<std::ptrdiff_t> bin_of_leaf(leaf_type.size(), -1);
    for (const auto i : p.placeable) {
        const auto leaf = tree.first_fit(p.items.row(i));
        if (leaf == ResidualTree::npos || leaf >= leaf_type.size()) {
            left_out.push_back(i);
            continue;
        }
        if (bin_of_leaf[leaf] < 0) {
            bin_of_leaf[leaf] = static_cast<std::ptrdiff_t>(bins.size());
            bins.push_back(MixBin{leaf_type[leaf], {}, p.capacity[leaf_type[leaf]]});
        }
        auto& bin = bins[static_cast<std::size_t>(bin_of_leaf[leaf])];
        bin.items.push_back(i);
        for (std::size_t k = 0; k < d; ++k) bin.residual[k] -= p.items.row(i)[k];
        tree.subtract(leaf, p.items.row(i));
    }
    return bins;
}

/// Bin-centric greedy: open the type whose one-bin first fit of the remaining items has the lowest
/// cost per normalised size packed; repeat.
template <typename Defer = void>
std::vector<MixBin> efficiency_greedy(const NodeMixProblem& p, std::vector<std::size_t>& left_out) {
    const std::size_t d = p.items.d;
    std::vector<std::size_t> remaining = p.placeable;
    std::vector<std::int64_t> used(p.types(), 0);
    std::vector<MixBin> bins;
    std::vector<std::int64_t> residual(d);
    for (std::size_t t = p.new_types; t < p.types(); ++t) {  // existing nodes first, by first fit
        MixBin bin{t, {}, p.capacity[t]};
        std::vector<std::size_t> next;
        for (const auto i : remaining) {
            if (fits(p.items.row(i), bin.residual.data(), d)) {
                bin.items.push_back(i);
                for (std::size_t k = 0; k < d; ++k) bin.residual[k] -= p.items.row(i)[k];
            } else {
                next.push_back(i);
            }
        }
        if (!bin.items.empty()) bins.push_back(std::move(bin));
        remaining = std::move(next);
    }
    while (!remaining.empty()) {
        std::size_t best_type = p.types();
        double best_ratio = 0, best_value = 0;
        for (std::size_t t = 0; t < p.new_types; ++t) {
            if (p.max_count[t] != unlimited && used[t] >= p.max_count[t]) continue;
            residual = p.capacity[t];
            double value = 0;
            for (const auto i : remaining) {
                if (!fits(p.items.row(i), residual.data(), d)) continue;
                for (std::size_t k = 0; k < d; ++k) residual[k] -= p.items.row(i)[k];
                value += p.normalised_size(p.items.row(i));
            }
            if (value <= 0) continue;
            const double ratio = p.cost[t] / value;
            if (best_type == p.types() || ratio < best_ratio || (ratio == best_ratio && value > best_value)) {
                best_type = t;
                best_ratio = ratio;
                best_value = value;
            }
        }
        if (best_type == p.types()) break;
        MixBin bin{best_type, {}, p.capacity[best_type]};
        std::vector<std::size_t> next;
        next.reserve(remaining.size());
        for (const auto i : remaining) {
            if (fits(p.items.row(i), bin.residual.data(), d)) {
                bin.items.push_back(i);
                for (std::size_t k = 0; k < d; ++k) bin.residual[k] -= p.items.row(i)[k];
            } else {
                next.push_back(i);
            }
        }
        ++used[best_type];
        bins.push_back(std::move(bin));
        remaining = std::move(next);
    }
    left_out.insert(left_out.end(), remaining.begin(), remaining.end());
    return bins;
}

/// Fractional lower bound on the cost of packing `items_left` given open bins with `open_residual`
/// (per dimension, summed): max over dimensions of the uncovered demand times the cheapest cost per
/// unit of that dimension; and, for every single item, the cheapest type that holds it alone when
/// no open bin can.
/// Sums of many amounts near int64 max (remaining demand, open capacity) need 128 bits.
__extension__ using WideAmount = __int128;

template <typename Defer = void>
double fractional_cost_bound(const NodeMixProblem& p, std::span<const WideAmount> demand, std::span<const WideAmount> open_residual) {
    double bound = 0;
    for (std::size_t k = 0; k < p.items.d; ++k) {
        const WideAmount uncovered = demand[k] - open_residual[k];
        if (uncovered <= 0) continue;
        double cheapest = std::numeric_limits<double>::infinity();
        for (std::size_t t = 0; t < p.new_types; ++t) {
            if (p.capacity[t][k] > 0 && p.max_count[t] != 0) cheapest = std::min(cheapest, p.cost[t] / static_cast<double>(p.capacity[t][k]));
        }
        if (std::isfinite(cheapest)) bound = std::max(bound, cheapest * static_cast<double>(uncovered));
    }
    return bound;
}

/// Depth-first branch and bound over item-to-bin assignments (items largest first; symmetric
/// open bins tried once). Returns true when the search completed (the incumbent is optimal).
template <typename Defer = void>
class NodeMixSearch {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    NodeMixSearch(const NodeMixProblem& p, BudgetTracker& tracker, std::vector<MixBin> incumbent, double incumbent_cost)
        : p_(p), tracker_(tracker), best_(std::move(incumbent)), best_cost_(incumbent_cost), used_(p.types(), 0) {
        const std::size_t d = p.items.d;
        suffix_.assign((p.placeable.size() + 1) * d, 0);
        for (std::size_t pos = p.placeable.size(); pos-- > 0;) {
            for (std::size_t k = 0; k < d; ++k) suffix_[pos * d + k] = suffix_[(pos + 1) * d + k] + p.items.row(p.placeable[pos])[k];
        }
        open_residual_.assign(d, 0);
        for (std::size_t t = p.new_types; t < p.types(); ++t) {  // existing nodes are open from the start, at no cost
            bins_.push_back(MixBin{t, {}, p.capacity[t]});
            used_[t] = 1;
            if (std::all_of(p.capacity[t].begin(), p.capacity[t].end(), [](std::int64_t r) { return r >= 0; })) {
                for (std::size_t k = 0; k < d; ++k) open_residual_[k] += p.capacity[t][k];
            }
        }
    }
    bool run() {
        complete_ = true;
        descend(0, 0.0);
        return complete_;
    }
    [[nodiscard]] const std::vector<MixBin>& best() const { return best_; }
    [[nodiscard]] double best_cost() const { return best_cost_; }

private:
    void descend(std::size_t pos, double cost) {
        if (!complete_) return;
        if (!tracker_.count()) {
            complete_ = false;
            return;
        }
        const std::size_t d = p_.items.d;
        if (pos == p_.placeable.size()) {
            if (cost < best_cost_ - 1e-12 * std::max(1.0, best_cost_)) {
                best_cost_ = cost;
                best_ = bins_;
            }
            return;
        }
        const std::span<const WideAmount> demand(suffix_.data() + pos * d, d);
        if (cost + fractional_cost_bound<Defer>(p_, demand, open_residual_) >= best_cost_ - 1e-12 * std::max(1.0, best_cost_)) return;
        const std::size_t item = p_.placeable[pos];
        const auto* row = p_.items.row(item);
        for (std::size_t b = 0; b < bins_.size(); ++b) {
            if (!fits(row, bins_[b].residual.data(), d)) continue;
            bool duplicate = false;
            for (std::size_t a = 0; a < b && !duplicate; ++a) duplicate = bins_[a].type == bins_[b].type && bins_[a].residual == bins_[b].residual;
            if (duplicate) continue;
            place(bins_[b], item, row, +1);
            descend(pos + 1, cost);  // may grow bins_: index again afterwards
            place(bins_[b], item, row, -1);
        }
        for (std::size_t t = 0; t < p_.types(); ++t) {
            if (p_.max_count[t] != unlimited && used_[t] >= p_.max_count[t]) continue;
            if (!fits(row, p_.capacity[t].data(), d)) continue;
            bins_.push_back(MixBin{t, {}, p_.capacity[t]});
            ++used_[t];
            for (std::size_t k = 0; k < d; ++k) open_residual_[k] += p_.capacity[t][k];
            place(bins_.back(), item, row, +1);
            descend(pos + 1, cost + p_.cost[t]);
            place(bins_.back(), item, row, -1);
            for (std::size_t k = 0; k < d; ++k) open_residual_[k] -= p_.capacity[t][k];
            --used_[t];
            bins_.pop_back();
        }
    }
    void place(MixBin& bin, std::size_t item, const std::int64_t* row, int sign) {
        const std::size_t d = p_.items.d;
        for (std::size_t k = 0; k < d; ++k) {
            bin.residual[k] -= sign * row[k];
            open_residual_[k] -= sign * row[k];
        }
        if (sign > 0) {
            bin.items.push_back(item);
        } else {
            bin.items.pop_back();
        }
    }

    const NodeMixProblem& p_;
    BudgetTracker& tracker_;
    Dep<std::vector<MixBin>> best_;
    double best_cost_;
    Dep<std::vector<std::int64_t>> used_;
    Dep<std::vector<MixBin>> bins_;
    Dep<std::vector<WideAmount>> suffix_;
    Dep<std::vector<WideAmount>> open_residual_;
    bool complete_ = true;
};

}  // namespace continuum::packing::detail
