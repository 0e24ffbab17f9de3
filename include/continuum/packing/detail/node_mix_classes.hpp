// Internal: the exact node-mix search over item classes with multiplicities (replicas of one
// Deployment are one class). Items with equal requests form a class; every node is a pattern (type,
// copies per class) that is maximal; a solution is a multiset of patterns covering the demand, searched
// depth first in one canonical order (no symmetric duplicates), pruned by the LP dual bound of the
// covering relaxation (count limits included) and by the per-dimension fractional bound.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/covering_lp.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/node_mix.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

/// At most this many maximal patterns (over all types) for the class search to run.
inline constexpr std::size_t node_mix_class_patterns = 4000;
/// Pattern enumeration visits at most this many partial patterns before giving up.
inline constexpr std::size_t node_mix_class_enumeration = 200'000;

/// Smallest u such that every cost is an integer multiple of u (u = cheapest positive cost / k for
/// k <= 64), or 0 when there is none. Solution costs are then multiples of u, so bounds round up.
inline double cost_unit(const std::vector<double>& costs) {
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

class NodeMixClassSearch {
public:
    NodeMixClassSearch(const NodeMixProblem& p, BudgetTracker& tracker) : p_(p), tracker_(tracker) {}

    /// Groups the items into classes, enumerates the maximal patterns and solves the covering LP.
    /// Returns false (and the search must not run) when there are too many patterns.
    bool build() {
        const std::size_t d = p_.items.d;
        std::map<std::vector<std::int64_t>, std::size_t> index;
        for (const auto i : p_.placeable) {
            std::vector<std::int64_t> row(p_.items.row(i), p_.items.row(i) + d);
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
            if (p_.max_count[t] == 0) continue;
            if (std::any_of(p_.capacity[t].begin(), p_.capacity[t].end(), [](std::int64_t r) { return r < 0; })) continue;
            if (!enumerate(t)) return false;
        }
        unit_ = cost_unit(p_.cost);
        solve_duals();
        order_columns();
        return true;
    }

    /// A lower bound on the cost of every packing of all the placeable items (rounded up to the
    /// cost unit when there is one).
    [[nodiscard]] double root_bound() const {
        std::vector<std::int64_t> used(p_.types(), 0);
        return round_up(bound(demand_, used));
    }

    /// Searches for a packing cheaper than `incumbent`; true when the search completed (then the
    /// best packing found, or the incumbent when none was cheaper, is optimal).
    bool run(double incumbent) {
        best_cost_ = incumbent;
        remaining_ = demand_;
        used_.assign(p_.types(), 0);
        left_ = std::accumulate(demand_.begin(), demand_.end(), std::int64_t{0});
        complete_ = true;
        descend(0, 0.0);
        return complete_;
    }

    [[nodiscard]] bool found() const { return !best_choice_.empty(); }
    [[nodiscard]] double best_cost() const { return best_cost_; }

    /// The best packing found as bins of item indices (valid only when found()).
    [[nodiscard]] std::vector<MixBin> best_bins() const {
        const std::size_t d = p_.items.d;
        std::vector<MixBin> bins;
        std::vector<std::size_t> next(m_, 0);
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
    struct Column {
        std::size_t type = 0;
        std::vector<std::int64_t> count;  // copies per class
        double cost = 0;
    };

    [[nodiscard]] bool limited(std::size_t t) const { return p_.max_count[t] != unlimited; }

    bool enumerate(std::size_t t) {
        std::vector<std::int64_t> count(m_, 0);
        std::vector<std::int64_t> residual = p_.capacity[t];
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
        std::vector<std::size_t> group_of_type(p_.types(), CoveringLp::no_group);
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
        dual_ = covering_lp_duals(lp, tracker_);
        dual_.resize(m_, 0.0);
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
        std::vector<std::pair<double, std::size_t>> keyed;
        for (std::size_t j = 0; j < columns_.size(); ++j) {
            const double v = value(columns_[j]);
            const double key = columns_[j].cost > 0 ? v / columns_[j].cost : std::numeric_limits<double>::infinity();
            keyed.emplace_back(-key, j);
        }
        std::stable_sort(keyed.begin(), keyed.end());
        std::vector<Column> sorted;
        for (const auto& [key, j] : keyed) sorted.push_back(std::move(columns_[j]));
        columns_ = std::move(sorted);
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
        std::vector<WideAmount> demand(d, 0), free_capacity(d, 0);
        for (std::size_t c = 0; c < m_; ++c) {
            for (std::size_t x = 0; x < d; ++x) demand[x] += static_cast<WideAmount>(remaining[c]) * rows_[c][x];
        }
        for (std::size_t t = p_.new_types; t < p_.types(); ++t) {
            if (used[t] > 0 || std::any_of(p_.capacity[t].begin(), p_.capacity[t].end(), [](std::int64_t r) { return r < 0; })) continue;
            for (std::size_t x = 0; x < d; ++x) free_capacity[x] += p_.capacity[t][x];
        }
        return std::max(dual_bound, fractional_cost_bound(p_, demand, free_capacity) * (1.0 - 1e-12));
    }

    [[nodiscard]] bool cannot_improve(double lower) const {
        const double slack = unit_ > 0 ? unit_ / 2 : 1e-9 * std::max(1.0, best_cost_);
        return lower >= best_cost_ - slack;
    }

    void descend(std::size_t first, double cost) {
        if (!complete_) return;
        if (!tracker_.count()) {
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
        std::vector<std::int64_t> take(m_);
        for (std::size_t j = first; j < columns_.size() && complete_; ++j) {
            const auto& column = columns_[j];
            if (limited(column.type) && used_[column.type] >= p_.max_count[column.type]) continue;
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
    std::vector<std::vector<std::size_t>> members_;  // item indices per class
    std::vector<std::int64_t> demand_;               // copies per class
    std::vector<const std::int64_t*> rows_;          // request per class
    std::vector<Column> columns_;
    std::vector<double> dual_;     // per class
    std::vector<double> penalty_;  // per type: what one more node of a limited type is worth to the bound
    double unit_ = 0;
    double best_cost_ = 0;
    std::vector<std::int64_t> remaining_;
    std::vector<std::int64_t> used_;
    std::int64_t left_ = 0;
    std::vector<std::size_t> choice_;
    std::vector<std::size_t> best_choice_;
    bool complete_ = true;
};

}  // namespace continuum::packing::detail
