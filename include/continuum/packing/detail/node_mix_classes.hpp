// Internal: the exact node-mix search over item classes with multiplicities (replicas of one
// Deployment are one class). Items with equal requests form a class; every node is a pattern (type,
// copies per class) that is maximal; a solution is a multiset of patterns covering the demand, searched
// depth first in one canonical order (no symmetric duplicates), pruned by the LP dual bound of the
// covering relaxation (count limits included) and by the per-dimension fractional bound. With too
// many patterns to list, column generation gives the bound and the search over its columns a packing.
// With every pattern listed, the bound from integer node counts (type_count_bound) and a search for
// a packing with those counts (pack_counts) close most of the LP's gap at the root.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/packing/detail/covering_lp.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/node_mix.hpp>
#include <continuum/packing/detail/node_mix_type_counts.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <unordered_map>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

/// At most this many maximal patterns (over all types) for the class search to run.
inline constexpr std::size_t node_mix_class_patterns = 4000;
/// The search remembers at most this many states (demand left, limited types used).
inline constexpr std::size_t node_mix_class_memo = 1'000'000;
/// The bound from integer node counts per type explores at most this many count vectors.
inline constexpr std::size_t node_mix_type_count_nodes = 20'000;
/// ... and adds at most this many infeasibility cuts (each one more count search).
inline constexpr std::size_t node_mix_type_count_rounds = 8;
/// Pattern enumeration visits at most this many partial patterns before giving up.
inline constexpr std::size_t node_mix_class_enumeration = 200'000;

/// Smallest u such that every cost is an integer multiple of u (u = cheapest positive cost / k for
/// k <= 64), or 0 when there is none. Solution costs are then multiples of u, so bounds round up.
template <typename Defer = void>
double cost_unit(const std::vector<double>& costs) {
    double cheapest = 0;
    for (const double c : costs) {
        if (c > 0 && (cheapest == 0 || c < cheapest)) cheapest = c;
    }
    if (cheapest == 0) return 0;
    for (int k = 1; k <= 64; ++k) {
        const double unit = cheapest / k;
        const bool all = std::all_of(costs.begin(), costs.end(), [&](double c) {
            const double q = c / unit;
            return std::abs(q - std::round(q)) <= 1e-9 * std::max(1.0, q);
        });
        if (all) return unit;
    }
    return 0;
}

template <typename Defer = void>
class NodeMixClassSearch {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    NodeMixClassSearch(const NodeMixProblem& p, BudgetTracker& tracker) : p_(p), tracker_(tracker) {}

    /// Groups the items into classes, enumerates the maximal patterns and solves the covering LP.
    /// Returns false (and the search must not run) when there are too many patterns.
    bool build() {
        const std::size_t d = p_.items.d;
        Dep<std::map<std::vector<std::int64_t>, std::size_t>> index;
        for (const auto i : p_.placeable) {
            Dep<std::vector<std::int64_t>> row(p_.items.row(i), p_.items.row(i) + d);
            auto [it, inserted] = index.emplace(std::move(row), members_.size());
            if (inserted) members_.emplace_back();
            members_[it->second].push_back(i);
        }
        m_ = members_.size();
        for (const auto& members : members_) {
            demand_.push_back(static_cast<std::int64_t>(members.size()));
            rows_.push_back(p_.items.row(members.front()));
        }
        for (std::size_t t = 0; t < p_.types(); ++t) {
            if (usable(t)) usable_.push_back(t);
        }
        unit_ = cost_unit<Defer>(p_.cost);
        for (const auto t : usable_) {
            if (enumerate(t)) continue;
            exhaustive_ = false;  // too many patterns: generate the useful ones instead
            columns_.clear();
            break;
        }
        if (exhaustive_) {
            solve_duals();
        } else {
            generate_columns();
        }
        order_columns();
        return !columns_.empty();
    }

    /// A lower bound on the cost of every packing of all the placeable items (rounded up to the
    /// cost unit when there is one).
    [[nodiscard]] double root_bound() const {
        Dep<std::vector<std::int64_t>> used(p_.types(), 0);
        return round_up(bound(demand_, used));
    }

    /// The bound from integer node counts (node_mix_type_counts.hpp) over the cover inequalities of
    /// the LP duals, of each dimension and of each class: `incumbent` when no count vector cheaper
    /// than it meets them all (then `incumbent` is optimal), else the cheapest one's cost. 0 when
    /// the patterns were not all listed or the count search hit its limit.
    [[nodiscard]] double type_count_bound(double incumbent) {
        type_counts_.clear();
        if (!exhaustive_ || m_ == 0) return 0;
        const std::size_t d = p_.items.d;
        Dep<std::vector<CoverInequality>> cuts;
        const auto add = [&](const std::vector<double>& weight) {
            auto cut = cover_inequality(weight);
            if (cut.need > 0) cuts.push_back(std::move(cut));
        };
        add(dual_);  // first: it orders the count search
        Dep<std::vector<double>> weight(m_);
        for (std::size_t k = 0; k < d; ++k) {
            for (std::size_t c = 0; c < m_; ++c) weight[c] = static_cast<double>(rows_[c][k]);
            add(weight);
        }
        for (std::size_t c = 0; c < m_; ++c) {
            std::fill(weight.begin(), weight.end(), 0.0);
            weight[c] = 1.0;
            add(weight);
        }
        Dep<std::vector<std::int64_t>> upper(p_.types(), 0);
        for (const auto t : usable_) upper[t] = p_.max_count[t];
        // Cutting planes: while the cheapest count vector x admits no fractional packing (the
        // covering LP with at most x_t nodes of each type t is infeasible), its phase-1 duals give
        // an inequality that x violates; add it and search again. Each round's result is a bound.
        const std::int64_t items = std::accumulate(demand_.begin(), demand_.end(), std::int64_t{0});
        double bound = 0;
        for (std::size_t round = 0; round < node_mix_type_count_rounds; ++round) {
            TypeCountBound<Defer> search(p_.cost, upper, cuts, unit_, node_mix_type_count_nodes, items);
            bool complete = false;
            const double found = search.run(incumbent, complete);
            if (!complete) break;
            bound = found >= incumbent || unit_ > 0 ? found : found * (1.0 - 1e-9);
            if (found >= incumbent || tracker_.exhausted()) break;
            auto cut = infeasibility_cut(search.best_counts());
            if (cut.need <= 0) {
                type_counts_ = search.best_counts();  // admits a fractional packing: worth a try
                break;
            }
            cuts.push_back(std::move(cut));
        }
        return bound;
    }

    /// The covering LP with zero costs and at most counts[t] nodes of each type t (feasible when
    /// the counts admit a fractional packing).
    [[nodiscard]] CoveringLp counted_lp(const std::vector<std::int64_t>& counts) const {
        CoveringLp lp;
        lp.classes = m_;
        for (const auto k : demand_) lp.demand.push_back(static_cast<double>(k));
        for (std::size_t t = 0; t < p_.types(); ++t) lp.limit.push_back(static_cast<double>(counts[t]));
        for (const auto& column : columns_) {
            for (std::size_t c = 0; c < m_; ++c) lp.a.push_back(static_cast<double>(column.count[c]));
            lp.cost.push_back(0.0);
            lp.group.push_back(column.type);
        }
        return lp;
    }

    /// Looks for a packing with at most counts[t] nodes of each type t cheaper than `incumbent`:
    /// the counted LP's patterns rounded down, the few items left searched exactly within the
    /// counts left (at most `visit_limit` search nodes). True when one was found (best_bins()).
    bool pack_counts(const std::vector<std::int64_t>& counts, double incumbent, std::uint64_t visit_limit) {
        const auto solution = solve_covering_lp<Defer>(counted_lp(counts), tracker_);
        start(incumbent, counts, visit_limit);
        double cost = 0;
        for (std::size_t j = 0; j < solution.primal.size(); ++j) {
            const auto& column = columns_[j];
            for (double x = std::floor(solution.primal[j] + 1e-9); x >= 1; x -= 1) {
                if (!has_room(column.type)) break;
                std::int64_t covered = 0;
                for (std::size_t c = 0; c < m_; ++c) {
                    const auto k = std::min(column.count[c], remaining_[c]);
                    remaining_[c] -= k;
                    covered += k;
                }
                if (covered == 0) break;
                left_ -= covered;
                ++used_[column.type];
                choice_.push_back(j);
                cost += column.cost;
            }
        }
        descend(0, cost);
        return found();
    }

    /// After type_count_bound: the cheapest node counts below its incumbent that admit a fractional
    /// packing (empty when none was found): a packing with exactly these counts would be optimal.
    [[nodiscard]] const std::vector<std::int64_t>& type_counts() const { return type_counts_; }

    /// A cover inequality that `counts` violates, from the duals of the covering LP with zero costs
    /// and at most counts[t] nodes of each type (need 0 when that LP is feasible).
    [[nodiscard]] CoverInequality infeasibility_cut(const std::vector<std::int64_t>& counts) const {
        CoverInequality cut{std::vector<double>(p_.types(), 0.0), 0.0};
        const auto solution = solve_covering_lp<Defer>(counted_lp(counts), tracker_);
        if (solution.duals.size() != m_) return cut;
        double largest = 0;
        for (const double v : solution.duals) largest = std::max(largest, v);
        if (largest <= 0) return cut;
        Dep<std::vector<double>> weight(m_);
        for (std::size_t c = 0; c < m_; ++c) weight[c] = solution.duals[c] / largest;
        cut = cover_inequality(weight);
        double covered = 0;
        for (std::size_t t = 0; t < p_.types(); ++t) covered += cut.value_per_node[t] * static_cast<double>(counts[t]);
        if (covered >= cut.need * (1.0 - 1e-9)) cut.need = 0;  // x meets it: no progress
        return cut;
    }

    /// Searches for a packing cheaper than `incumbent`; true when the search completed (then the
    /// best packing found, or the incumbent when none was cheaper, is optimal).
    /// With too many patterns to list, the search runs over the generated ones only: a heuristic,
    /// so it never claims completion (the bound stays the LP's).
    /// `caps` (per type, -1 = none) limits the node counts further for this run only: then
    /// completion proves only that no packing within them is cheaper than `incumbent`. The run
    /// stops (incomplete) after `visit_limit` search nodes.
    bool run(double incumbent, const std::vector<std::int64_t>& caps = {}, std::uint64_t visit_limit = std::numeric_limits<std::uint64_t>::max()) {
        start(incumbent, caps, visit_limit);
        round_lp();
        descend(0, 0.0);
        return complete_ && exhaustive_;
    }

    [[nodiscard]] bool found() const { return !best_choice_.empty(); }
    [[nodiscard]] double best_cost() const { return best_cost_; }
    /// The cost unit of the types (cost_unit), 0 when there is none.
    [[nodiscard]] double unit() const { return unit_; }

    /// The best packing found as bins of item indices (valid only when found()).
    [[nodiscard]] std::vector<MixBin> best_bins() const {
        const std::size_t d = p_.items.d;
        Dep<std::vector<MixBin>> bins;
        Dep<std::vector<std::size_t>> next(m_, 0);
        for (const auto j : best_choice_) {
            const auto& column = columns_[j];
            MixBin bin{column.type, {}, p_.capacity[column.type]};
            for (std::size_t c = 0; c < m_; ++c) {
                const auto take = std::min<std::int64_t>(column.count[c], static_cast<std::int64_t>(members_[c].size() - next[c]));
                for (std::int64_t k = 0; k < take; ++k) {
                    const auto item = members_[c][next[c]++];
                    bin.items.push_back(item);
                    for (std::size_t x = 0; x < d; ++x) bin.residual[x] -= p_.items.row(item)[x];
                }
            }
            if (!bin.items.empty()) bins.push_back(std::move(bin));
        }
        return bins;
    }

private:
    /// The cover inequality of a weighting of the classes: need = weight · demand, and one node of
    /// type t is worth the most any of its patterns holds, max over them of weight · copies.
    [[nodiscard]] CoverInequality cover_inequality(const std::vector<double>& weight) const {
        CoverInequality cut{std::vector<double>(p_.types(), 0.0), 0.0};
        for (std::size_t c = 0; c < m_; ++c) cut.need += weight[c] * static_cast<double>(demand_[c]);
        for (const auto& column : columns_) {
            double v = 0;
            for (std::size_t c = 0; c < m_; ++c) v += weight[c] * static_cast<double>(column.count[c]);
            cut.value_per_node[column.type] = std::max(cut.value_per_node[column.type], v);
        }
        return cut;
    }

    /// True while the current run may open one more node of type t (its cap, see start).
    [[nodiscard]] bool has_room(std::size_t t) const { return cap_[t] == unlimited || used_[t] < cap_[t]; }

    /// Resets the search state for a run below `incumbent` within `caps` (see run).
    void start(double incumbent, const std::vector<std::int64_t>& caps, std::uint64_t visit_limit) {
        visits_ = 0;
        visit_limit_ = visit_limit;
        cap_ = caps.empty() ? p_.max_count : caps;
        for (std::size_t t = 0; t < cap_.size(); ++t) {
            if (p_.max_count[t] != unlimited && (cap_[t] == unlimited || cap_[t] > p_.max_count[t])) cap_[t] = p_.max_count[t];
        }
        memo_.clear();
        choice_.clear();
        best_choice_.clear();
        best_cost_ = incumbent;
        remaining_ = demand_;
        used_.assign(p_.types(), 0);
        left_ = std::accumulate(demand_.begin(), demand_.end(), std::int64_t{0});
        complete_ = true;
    }

    struct Column {
        std::size_t type = 0;
        Dep<std::vector<std::int64_t>> count;  // copies per class
        double cost = 0;
    };

    [[nodiscard]] bool limited(std::size_t t) const { return p_.max_count[t] != unlimited; }
    [[nodiscard]] bool usable(std::size_t t) const {
        return p_.max_count[t] != 0 && std::all_of(p_.capacity[t].begin(), p_.capacity[t].end(), [](std::int64_t r) { return r >= 0; });
    }

    /// Pricing: the pattern of type t of largest dual value (copies per class at most the demand),
    /// by depth-first search with a fractional bound; `upper` is a proved upper bound on that value
    /// (the value found when the search completed, else the root's bound).
    struct Priced {
        Dep<std::vector<std::int64_t>> count;
        double value = 0;
        double upper = 0;
    };
    Priced price(std::size_t t, const std::vector<double>& dual) {
        Priced out{std::vector<std::int64_t>(m_, 0), 0, 0};
        Dep<std::vector<std::int64_t>> count(m_, 0), residual = p_.capacity[t];
        std::size_t visited = 0;
        bool complete = true;
        out.upper = value_bound(dual, residual, 0);
        price_from(dual, 0, 0.0, count, residual, out, visited, complete);
        if (complete) out.upper = out.value;
        out.upper = std::max(out.upper, out.value);
        return out;
    }
    /// Upper bound on the dual value that classes [c, m) can add within `residual`.
    [[nodiscard]] double value_bound(const std::vector<double>& dual, const std::vector<std::int64_t>& residual, std::size_t c) const {
        const std::size_t d = p_.items.d;
        double by_copies = 0;
        for (std::size_t x = c; x < m_; ++x) {
            if (dual[x] <= 0) continue;
            std::int64_t most = demand_[x];
            for (std::size_t k = 0; k < d; ++k) {
                if (rows_[x][k] > 0) most = std::min(most, residual[k] / rows_[x][k]);
            }
            by_copies += dual[x] * static_cast<double>(most);
        }
        double best = by_copies;
        for (std::size_t k = 0; k < d; ++k) {
            double ratio = 0;
            bool all = true;
            for (std::size_t x = c; x < m_ && all; ++x) {
                if (dual[x] <= 0) continue;
                if (rows_[x][k] <= 0) all = false;
                else ratio = std::max(ratio, dual[x] / static_cast<double>(rows_[x][k]));
            }
            if (all) best = std::min(best, ratio * static_cast<double>(residual[k]));
        }
        return best * (1.0 + 1e-12);
    }
    void price_from(const std::vector<double>& dual, std::size_t c, double value, std::vector<std::int64_t>& count, std::vector<std::int64_t>& residual,
                    Priced& out, std::size_t& visited, bool& complete) {
        if (value > out.value) {
            out.value = value;
            out.count = count;
        }
        if (c == m_) return;
        if (++visited > node_mix_class_enumeration || !tracker_.count()) {
            complete = false;
            return;
        }
        if (value + value_bound(dual, residual, c) <= out.value) return;
        const std::size_t d = p_.items.d;
        std::int64_t most = dual[c] > 0 ? demand_[c] : 0;
        for (std::size_t x = 0; x < d; ++x) {
            if (rows_[c][x] > 0) most = std::min(most, residual[x] / rows_[c][x]);
        }
        for (std::int64_t k = most; k >= 0 && complete; --k) {
            count[c] = k;
            for (std::size_t x = 0; x < d; ++x) residual[x] -= k * rows_[c][x];
            price_from(dual, c + 1, value + dual[c] * static_cast<double>(k), count, residual, out, visited, complete);
            for (std::size_t x = 0; x < d; ++x) residual[x] += k * rows_[c][x];
        }
        count[c] = 0;
    }

    /// Column generation over the covering LP when the patterns are too many to list: start from
    /// one greedy pattern per type and class, add the best-priced pattern of each type while it
    /// prices out, then make the duals feasible from the pricing's proved upper bounds.
    void generate_columns() {
        const std::size_t d = p_.items.d;
        for (const auto t : usable_) {
            for (std::size_t first = 0; first < m_; ++first) {
                Dep<std::vector<std::int64_t>> count(m_, 0), residual = p_.capacity[t];
                for (std::size_t step = 0; step < m_; ++step) {
                    const std::size_t c = (first + step) % m_;
                    std::int64_t most = demand_[c];
                    for (std::size_t x = 0; x < d; ++x) {
                        if (rows_[c][x] > 0) most = std::min(most, residual[x] / rows_[c][x]);
                    }
                    count[c] = most;
                    for (std::size_t x = 0; x < d; ++x) residual[x] -= most * rows_[c][x];
                }
                add_column(t, count);
            }
        }
        Dep<std::vector<Priced>> priced(p_.types());
        solve_duals();
        for (int round = 0; round < 100 && !tracker_.exhausted(); ++round) {
            if (round > 0) solve_duals();
            bool added = false;
            for (const auto t : usable_) {
                priced[t] = price(t, dual_);
                if (priced[t].value > p_.cost[t] * (1 + 1e-9) + 1e-12) added = add_column(t, priced[t].count) || added;
            }
            if (!added) break;
        }
        // Feasible duals from the last pricing (exact bounds even if the loop stopped early).
        double ratio = 1.0;
        for (const auto t : usable_) {
            priced[t] = price(t, dual_);
            if (limited(t)) continue;
            if (p_.cost[t] <= 0) {
                if (priced[t].upper > 0) ratio = std::numeric_limits<double>::infinity();
                continue;
            }
            ratio = std::max(ratio, priced[t].upper / p_.cost[t]);
        }
        if (!std::isfinite(ratio)) ratio = 0;
        for (auto& v : dual_) v = ratio > 0 ? v / ratio * (1.0 - 1e-12) : 0.0;
        penalty_.assign(p_.types(), 0.0);
        for (const auto t : usable_) {
            if (limited(t)) penalty_[t] = std::max(0.0, priced[t].upper / std::max(ratio, 1e-300) - p_.cost[t]);
        }
    }

    bool add_column(std::size_t t, const std::vector<std::int64_t>& count) {
        if (std::all_of(count.begin(), count.end(), [](std::int64_t k) { return k == 0; })) return false;
        for (const auto& column : columns_) {
            if (column.type == t && column.count == count) return false;
        }
        columns_.push_back(Column{t, count, p_.cost[t]});
        return true;
    }

    bool enumerate(std::size_t t) {
        Dep<std::vector<std::int64_t>> count(m_, 0);
        Dep<std::vector<std::int64_t>> residual = p_.capacity[t];
        std::size_t visited = 0;
        return enumerate_from(t, 0, count, residual, visited);
    }

    bool enumerate_from(std::size_t t, std::size_t c, std::vector<std::int64_t>& count, std::vector<std::int64_t>& residual, std::size_t& visited) {
        if (++visited > node_mix_class_enumeration || !tracker_.count()) return false;
        const std::size_t d = p_.items.d;
        if (c == m_) {
            bool maximal = std::any_of(count.begin(), count.end(), [](std::int64_t k) { return k > 0; });
            for (std::size_t x = 0; x < m_ && maximal; ++x) maximal = count[x] == demand_[x] || !fits(rows_[x], residual.data(), d);
            if (!maximal) return true;
            if (columns_.size() >= node_mix_class_patterns) return false;
            columns_.push_back(Column{t, count, p_.cost[t]});
            return true;
        }
        std::int64_t most = demand_[c];
        for (std::size_t x = 0; x < d; ++x) {
            if (rows_[c][x] > 0) most = std::min(most, residual[x] / rows_[c][x]);
        }
        for (std::int64_t k = most; k >= 0; --k) {
            count[c] = k;
            for (std::size_t x = 0; x < d; ++x) residual[x] -= k * rows_[c][x];
            const bool ok = enumerate_from(t, c + 1, count, residual, visited);
            for (std::size_t x = 0; x < d; ++x) residual[x] += k * rows_[c][x];
            if (!ok) return false;
        }
        count[c] = 0;
        return true;
    }

    /// Duals of the covering LP made feasible for every pattern of an unlimited type (so the bound
    /// is rigorous whatever the simplex's rounding), and the matching penalty per limited type.
    void solve_duals() {
        CoveringLp lp;
        lp.classes = m_;
        for (const auto k : demand_) lp.demand.push_back(static_cast<double>(k));
        Dep<std::vector<std::size_t>> group_of_type(p_.types(), CoveringLp::no_group);
        for (std::size_t t = 0; t < p_.types(); ++t) {
            if (!limited(t)) continue;
            group_of_type[t] = lp.limit.size();
            lp.limit.push_back(static_cast<double>(p_.max_count[t]));
        }
        for (const auto& column : columns_) {
            for (std::size_t c = 0; c < m_; ++c) lp.a.push_back(static_cast<double>(column.count[c]));
            lp.cost.push_back(column.cost);
            lp.group.push_back(group_of_type[column.type]);
        }
        auto solution = solve_covering_lp<Defer>(lp, tracker_);
        dual_ = std::move(solution.duals);
        dual_.resize(m_, 0.0);
        primal_ = std::move(solution.primal);
        primal_.resize(columns_.size(), 0.0);
        if (!exhaustive_) return;  // generate_columns repairs feasibility from its pricing
        for (const auto& column : columns_) {  // a free unlimited type covers its classes for nothing
            if (limited(column.type) || column.cost > 0) continue;
            for (std::size_t c = 0; c < m_; ++c) {
                if (column.count[c] > 0) dual_[c] = 0;
            }
        }
        double ratio = 1.0;
        for (const auto& column : columns_) {
            if (limited(column.type) || column.cost <= 0) continue;
            ratio = std::max(ratio, value(column) / column.cost);
        }
        for (auto& v : dual_) v = v / ratio * (1.0 - 1e-12);
        penalty_.assign(p_.types(), 0.0);
        for (const auto& column : columns_) {
            if (limited(column.type)) penalty_[column.type] = std::max(penalty_[column.type], value(column) - column.cost);
        }
    }

    [[nodiscard]] double value(const Column& column) const {
        double v = 0;
        for (std::size_t c = 0; c < m_; ++c) v += dual_[c] * static_cast<double>(column.count[c]);
        return v;
    }

    /// Most valuable per unit of cost first (free existing nodes before all): the first dive is
    /// the LP-guided greedy, and the canonical order tries good nodes early.
    void order_columns() {
        Dep<std::vector<std::pair<double, std::size_t>>> keyed;
        for (std::size_t j = 0; j < columns_.size(); ++j) {
            const double v = value(columns_[j]);
            const double key = columns_[j].cost > 0 ? v / columns_[j].cost : std::numeric_limits<double>::infinity();
            keyed.emplace_back(-key, j);
        }
        std::stable_sort(keyed.begin(), keyed.end());
        Dep<std::vector<Column>> sorted;
        Dep<std::vector<double>> primal;
        for (const auto& [key, j] : keyed) {
            sorted.push_back(std::move(columns_[j]));
            primal.push_back(j < primal_.size() ? primal_[j] : 0.0);
        }
        columns_ = std::move(sorted);
        primal_ = std::move(primal);
    }

    [[nodiscard]] double round_up(double bound) const {
        if (bound <= 0) return 0;
        if (unit_ <= 0) return bound * (1.0 - 1e-12);
        return std::ceil(bound / unit_ - 1e-7) * unit_;
    }

    /// Lower bound on the cost of covering `remaining` with the types' counts left after `used`.
    [[nodiscard]] double bound(const std::vector<std::int64_t>& remaining, const std::vector<std::int64_t>& used) const {
        double dual_bound = 0;
        for (std::size_t c = 0; c < m_; ++c) dual_bound += dual_[c] * static_cast<double>(remaining[c]);
        for (std::size_t t = 0; t < p_.types(); ++t) {
            if (penalty_[t] > 0) dual_bound -= penalty_[t] * static_cast<double>(p_.max_count[t] - used[t]);
        }
        const std::size_t d = p_.items.d;
        Dep<std::vector<WideAmount>> demand(d, 0), free_capacity(d, 0);
        for (std::size_t c = 0; c < m_; ++c) {
            for (std::size_t x = 0; x < d; ++x) demand[x] += static_cast<WideAmount>(remaining[c]) * rows_[c][x];
        }
        for (std::size_t t = p_.new_types; t < p_.types(); ++t) {
            if (used[t] > 0 || std::any_of(p_.capacity[t].begin(), p_.capacity[t].end(), [](std::int64_t r) { return r < 0; })) continue;
            for (std::size_t x = 0; x < d; ++x) free_capacity[x] += p_.capacity[t][x];
        }
        return std::max(dual_bound, fractional_cost_bound<Defer>(p_, demand, free_capacity) * (1.0 - 1e-12));
    }

    /// Primal heuristic: the LP's columns rounded down, the rest covered greedily (most dual value
    /// covered per unit of cost); becomes the incumbent when cheaper.
    void round_lp() {
        Dep<std::vector<std::size_t>> choice;
        double cost = 0;
        const auto take = [&](std::size_t j) {
            const auto& column = columns_[j];
            std::int64_t covered = 0;
            for (std::size_t c = 0; c < m_; ++c) {
                const auto k = std::min(column.count[c], remaining_[c]);
                remaining_[c] -= k;
                covered += k;
            }
            left_ -= covered;
            ++used_[column.type];
            cost += column.cost;
            choice.push_back(j);
        };
        const auto covers = [&](std::size_t j) {
            std::int64_t covered = 0;
            for (std::size_t c = 0; c < m_; ++c) covered += std::min(columns_[j].count[c], remaining_[c]);
            return covered;
        };
        for (std::size_t j = 0; j < columns_.size(); ++j) {
            for (double x = std::floor(primal_[j] + 1e-9); x >= 1 && has_room(columns_[j].type) && covers(j) > 0; x -= 1) take(j);
        }
        while (left_ > 0) {
            std::size_t best = columns_.size();
            double best_key = -1;
            for (std::size_t j = 0; j < columns_.size(); ++j) {
                if (!has_room(columns_[j].type) || covers(j) == 0) continue;
                double v = 0;
                for (std::size_t c = 0; c < m_; ++c) v += (dual_[c] + 1e-9) * static_cast<double>(std::min(columns_[j].count[c], remaining_[c]));
                const double key = columns_[j].cost > 0 ? v / columns_[j].cost : std::numeric_limits<double>::infinity();
                if (key > best_key) {
                    best_key = key;
                    best = j;
                }
            }
            if (best == columns_.size()) break;
            take(best);
        }
        if (left_ == 0 && !cannot_improve(cost)) {
            best_cost_ = cost;
            best_choice_ = choice;
        }
        remaining_ = demand_;
        used_.assign(p_.types(), 0);
        left_ = std::accumulate(demand_.begin(), demand_.end(), std::int64_t{0});
    }

    /// Memo of the states reached (demand left, nodes used of each limited type): a state reached
    /// before at no higher cost with no fewer columns allowed has been (or is being) searched.
    /// Different multisets reach the same state; without this the search repeats them all.
    bool seen_before(std::size_t first, double cost) {
        key_.assign(remaining_.begin(), remaining_.end());
        for (std::size_t t = 0; t < p_.types(); ++t) {
            if (cap_[t] != unlimited) key_.push_back(used_[t]);
        }
        const auto it = memo_.find(key_);
        if (it == memo_.end()) {
            if (memo_.size() < node_mix_class_memo) memo_.emplace(key_, Reached{cost, first});
            return false;
        }
        auto& reached = it->second;
        if (reached.cost <= cost && reached.first <= first) return true;
        if (cost < reached.cost || (cost == reached.cost && first < reached.first)) reached = Reached{cost, first};
        return false;
    }

    [[nodiscard]] bool cannot_improve(double lower) const {
        const double slack = unit_ > 0 ? unit_ / 2 : 1e-9 * std::max(1.0, best_cost_);
        return lower >= best_cost_ - slack;
    }

    void descend(std::size_t first, double cost) {
        if (!complete_) return;
        // A node may scan thousands of patterns: read the clock every 64 nodes, not every 1024.
        if (!tracker_.count() || ((++visits_ & 63) == 0 && tracker_.exhausted()) || visits_ > visit_limit_) {
            complete_ = false;
            return;
        }
        if (left_ == 0) {
            if (!cannot_improve(cost)) {
                best_cost_ = cost;
                best_choice_ = choice_;
            }
            return;
        }
        if (cannot_improve(round_up(cost + bound(remaining_, used_)))) return;
        if (seen_before(first, cost)) return;
        Dep<std::vector<std::int64_t>> take(m_);
        for (std::size_t j = first; j < columns_.size() && complete_; ++j) {
            const auto& column = columns_[j];
            if (!has_room(column.type)) continue;
            std::int64_t covered = 0;
            for (std::size_t c = 0; c < m_; ++c) {
                take[c] = std::min(column.count[c], remaining_[c]);
                covered += take[c];
            }
            if (covered == 0) continue;
            for (std::size_t c = 0; c < m_; ++c) remaining_[c] -= take[c];
            left_ -= covered;
            ++used_[column.type];
            choice_.push_back(j);
            descend(j, cost + column.cost);
            choice_.pop_back();
            --used_[column.type];
            left_ += covered;
            for (std::size_t c = 0; c < m_; ++c) remaining_[c] += take[c];
        }
    }

    const NodeMixProblem& p_;
    BudgetTracker& tracker_;
    std::size_t m_ = 0;
    Dep<std::vector<std::vector<std::size_t>>> members_;  // item indices per class
    Dep<std::vector<std::int64_t>> demand_;               // copies per class
    Dep<std::vector<const std::int64_t*>> rows_;          // request per class
    Dep<std::vector<Column>> columns_;
    Dep<std::vector<std::size_t>> usable_;  // types that may hold items
    bool exhaustive_ = true;           // columns_ lists every maximal pattern
    Dep<std::vector<double>> dual_;       // per class
    Dep<std::vector<double>> primal_;     // per column: its value in the LP's last basis
    Dep<std::vector<double>> penalty_;    // per type: what one more node of a limited type is worth to the bound
    Dep<std::vector<std::int64_t>> cap_;  // per type: the count limit of the current run (-1 = none)
    Dep<std::vector<std::int64_t>> type_counts_;
    std::uint64_t visit_limit_ = std::numeric_limits<std::uint64_t>::max();
    double unit_ = 0;
    double best_cost_ = 0;
    Dep<std::vector<std::int64_t>> remaining_;
    Dep<std::vector<std::int64_t>> used_;
    std::int64_t left_ = 0;
    Dep<std::vector<std::size_t>> choice_;
    Dep<std::vector<std::size_t>> best_choice_;
    bool complete_ = true;
    struct Reached {
        double cost = 0;
        std::size_t first = 0;
    };
    struct KeyHash {
        std::size_t operator()(const std::vector<std::int64_t>& key) const {
            std::uint64_t h = 1469598103934665603ULL;
            for (const auto v : key) h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ULL;
            return static_cast<std::size_t>(h);
        }
    };
    Dep<std::unordered_map<std::vector<std::int64_t>, Reached, KeyHash>> memo_;
    Dep<std::vector<std::int64_t>> key_;
    std::uint64_t visits_ = 0;
};

}  // namespace continuum::packing::detail
