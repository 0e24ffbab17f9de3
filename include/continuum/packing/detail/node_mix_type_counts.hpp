// Internal: a lower bound on the node-mix cost from integer node counts per type. Every packing
// opens x_t nodes of type t; for any weighting π >= 0 of the item classes, one node of type t covers
// at most v_t = max over its patterns of π · (copies per class), so Σ_t v_t x_t >= π · demand (a
// cover inequality; π = the covering LP's duals, the requests in one dimension, one class). The
// cheapest integer x meeting every inequality and the count limits is a bound at least as strong
// as the LP's and often a node stronger (node counts are integers; the LP's are not).
#pragma once

#include <continuum/core/detail/deferred.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace continuum::packing::detail {

/// Σ_t value_per_node[t] · x_t >= need holds for the node counts x of every packing.
struct CoverInequality {
    std::vector<double> value_per_node;  // per type
    double need = 0;
};

/// Depth-first search over node counts per type for the cheapest x meeting every inequality, with
/// 0 <= x_t <= upper[t] (-1 = unlimited; a type no inequality values may still be counted but never
/// helps). `incumbent` is the cost of a known packing: the search looks only below it, so the result
/// is min(incumbent, cheapest x) and a lower bound on every packing's cost whenever `complete`.
/// Costs that are multiples of `unit` (> 0) prune at half a unit; else at a relative 1e-9.
template <typename Defer = void>
class TypeCountBound {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    /// `most_nodes`: no packing needs more nodes of one type (e.g. the number of items: a node
    /// holds at least one, empty ones can be dropped), so x_t <= most_nodes keeps the bound valid.
    TypeCountBound(const std::vector<double>& cost, const std::vector<std::int64_t>& upper, const std::vector<CoverInequality>& cuts, double unit, std::size_t node_limit,
                   std::int64_t most_nodes)
            : cost_(cost), upper_(upper), cuts_(cuts), unit_(unit), node_limit_(node_limit), most_nodes_(std::max<std::int64_t>(most_nodes, 0)) {}

    /// The bound (min(incumbent, cheapest x)); `complete` is false when the node limit stopped the
    /// search (the result is then not a bound).
    double run(double incumbent, bool& complete) {
        best_ = incumbent;
        x_.assign(cost_.size(), 0);
        best_x_.clear();
        order_.clear();
        nodes_ = 0;
        const std::size_t types = cost_.size();
        limit_ = upper_;
        dominate();
        // Useful types only (some inequality values them), most valuable per unit of cost first
        // under the first inequality (the LP duals: the LP's own choice is tried first).
        for (std::size_t t = 0; t < types; ++t) {
            if (limit_[t] == 0) continue;
            if (cost_[t] <= 0 && limit_[t] > 0) {  // free and limited (an existing node): take them all,
                x_[t] = limit_[t];                 // more nodes never break an inequality
                continue;
            }
            const bool useful = std::any_of(cuts_.begin(), cuts_.end(), [&](const CoverInequality& cut) { return cut.value_per_node[t] > 0; });
            if (useful) order_.push_back(t);
        }
        const auto key = [&](std::size_t t) {
            const double v = cuts_.empty() ? 0.0 : cuts_.front().value_per_node[t];
            return cost_[t] > 0 ? v / cost_[t] : std::numeric_limits<double>::infinity();
        };
        std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return key(a) > key(b); });
        // Cheapest cost per unit of each inequality over the types from position i on.
        const std::size_t k = cuts_.size();
        ratio_.assign((order_.size() + 1) * k, std::numeric_limits<double>::infinity());
        for (std::size_t i = order_.size(); i-- > 0;) {
            const std::size_t t = order_[i];
            for (std::size_t c = 0; c < k; ++c) {
                double r = ratio_[(i + 1) * k + c];
                if (cuts_[c].value_per_node[t] > 0) r = std::min(r, cost_[t] / cuts_[c].value_per_node[t]);
                ratio_[i * k + c] = r;
            }
        }
        need_.assign((order_.size() + 1) * k, 0.0);  // per depth: what each inequality still needs
        for (std::size_t c = 0; c < k; ++c) {
            need_[c] = cuts_[c].need - tolerance(cuts_[c].need);
            for (std::size_t t = 0; t < types; ++t) need_[c] -= static_cast<double>(x_[t]) * cuts_[c].value_per_node[t];
        }
        complete_ = true;
        descend(0, 0.0);
        complete = complete_;
        return best_;
    }
    [[nodiscard]] std::size_t nodes() const { return nodes_; }
    /// The cheapest count vector found (empty when none was cheaper than the incumbent).
    [[nodiscard]] const std::vector<std::int64_t>& best_counts() const { return best_x_; }

private:
    /// Dominance: when one node of an unlimited type t is worth k nodes of type u under every
    /// inequality (k·v_u <= v_t, or v_t alone meets it) for no more than k times u's cost, some
    /// cheapest x has at most k - 1 nodes of u (trade k of them for one t while there are k: each
    /// trade keeps every inequality met, costs nothing more, and lowers the node count, or for
    /// k = 1 moves a node to a lower-numbered type, so the trades end).
    void dominate() {
        const std::size_t types = cost_.size();
        for (std::size_t u = 0; u < types; ++u) {
            for (std::size_t t = 0; t < types; ++t) {
                if (t == u || upper_[t] != -1 || limit_[u] == 0) continue;
                for (std::int64_t k = 1; k <= 8; ++k) {
                    if (k == 1 && t > u) continue;
                    if (cost_[t] > static_cast<double>(k) * cost_[u] * (1.0 + 1e-12)) continue;
                    const bool worth = std::all_of(cuts_.begin(), cuts_.end(), [&](const CoverInequality& cut) {
                        const double vt = cut.value_per_node[t];
                        return static_cast<double>(k) * cut.value_per_node[u] <= vt * (1.0 + 1e-12) || vt >= cut.need;
                    });
                    if (!worth) continue;
                    if (limit_[u] == -1 || limit_[u] > k - 1) limit_[u] = k - 1;
                    break;
                }
            }
        }
    }

    [[nodiscard]] static double tolerance(double need) { return 1e-9 * std::max(1.0, std::abs(need)); }
    [[nodiscard]] bool cannot_improve(double lower) const {
        const double slack = unit_ > 0 ? unit_ / 2 : 1e-9 * std::max(1.0, best_);
        return lower >= best_ - slack;
    }

    void descend(std::size_t i, double cost) {
        if (!complete_) return;
        if (++nodes_ > node_limit_) {
            complete_ = false;
            return;
        }
        const std::size_t k = cuts_.size();
        const double* need = need_.data() + i * k;
        double lower = cost;
        bool met = true;
        for (std::size_t c = 0; c < k; ++c) {
            if (need[c] <= 0) continue;
            met = false;
            lower = std::max(lower, cost + need[c] * ratio_[i * k + c]);  // infinity: no type left values it
        }
        if (met) {
            if (cost < best_) {
                best_ = cost;
                best_x_ = x_;
            }
            return;
        }
        if (i == order_.size() || cannot_improve(lower)) return;
        const std::size_t t = order_[i];
        // Beyond the count that meets every inequality on its own, more nodes of t only add cost.
        // (In doubles, capped by most_nodes before the conversion: a tiny value must not overflow.)
        double most_value = 0;
        for (std::size_t c = 0; c < k; ++c) {
            if (need[c] <= 0) continue;
            const double v = cuts_[c].value_per_node[t];
            if (v > 0) most_value = std::max(most_value, std::ceil(need[c] / v));
        }
        if (cost_[t] > 0) most_value = std::min(most_value, std::ceil((best_ - cost) / cost_[t]));
        auto most = static_cast<std::int64_t>(std::min(most_value, static_cast<double>(most_nodes_)));
        if (limit_[t] >= 0) most = std::min(most, limit_[t]);
        for (std::int64_t x = most; x >= 0 && complete_; --x) {
            if (cannot_improve(cost + static_cast<double>(x) * cost_[t])) continue;
            double* next = need_.data() + (i + 1) * k;
            for (std::size_t c = 0; c < k; ++c) next[c] = need_[i * k + c] - static_cast<double>(x) * cuts_[c].value_per_node[t];
            x_[t] = x;
            descend(i + 1, cost + static_cast<double>(x) * cost_[t]);
            x_[t] = 0;
        }
    }

    const std::vector<double>& cost_;
    const std::vector<std::int64_t>& upper_;
    Dep<std::vector<std::int64_t>> limit_;  // upper_ and what dominance adds
    const std::vector<CoverInequality>& cuts_;
    Dep<std::vector<std::int64_t>> x_;
    Dep<std::vector<std::int64_t>> best_x_;
    double unit_;
    std::size_t node_limit_;
    std::int64_t most_nodes_;
    Dep<std::vector<std::size_t>> order_;
    Dep<std::vector<double>> ratio_;
    Dep<std::vector<double>> need_;
    double best_ = 0;
    std::size_t nodes_ = 0;
    bool complete_ = true;
};

}  // namespace continuum::packing::detail
