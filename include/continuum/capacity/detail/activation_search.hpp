// Internals of choose_nodes_to_activate: a dense view of the pool restricted to the resources of
// the shortfall, identical nodes merged into kinds, a greedy cover (the heuristic beyond the exact
// limit, and the first incumbent) and a depth-first branch and bound over counts per kind.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/detail/deferred.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace continuum::capacity::detail {

/// a + b, saturating at INT64_MAX (both operands >= 0).
inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
    return a > std::numeric_limits<std::int64_t>::max() - b ? std::numeric_limits<std::int64_t>::max() : a + b;
}

/// max(residual - k * unit, 0) without overflow (residual, unit, k >= 0).
inline std::int64_t remaining_after(std::int64_t residual, std::int64_t k, std::int64_t unit) {
    if (residual <= 0 || k == 0 || unit == 0) return residual > 0 ? residual : 0;
    if (k >= residual / unit + (residual % unit != 0 ? 1 : 0)) return 0;
    return residual - k * unit;  // k * unit < residual
}

/// Lexicographic score of a set of nodes (smaller is better): the objective's criteria in order.
struct ActivationScore {
    double first = std::numeric_limits<double>::infinity();
    double second = std::numeric_limits<double>::infinity();
    double third = std::numeric_limits<double>::infinity();
    friend bool operator<(const ActivationScore& a, const ActivationScore& b) {
        if (a.first != b.first) return a.first < b.first;
        if (a.second != b.second) return a.second < b.second;
        return a.third < b.third;
    }
};

/// Which criterion comes first, second and third.
enum class Criterion { count, cost, latency };

struct ActivationProblem {
    std::size_t dims = 0;                    ///< resources in the shortfall
    std::vector<std::int64_t> need;          ///< shortfall per dim (> 0)
    std::vector<std::size_t> node;           ///< pool index per candidate node
    std::vector<std::int64_t> capacity;      ///< candidate x dims, capped at need
    std::vector<double> cost;                ///< per candidate
    std::vector<std::int64_t> latency;       ///< per candidate, ms
    Criterion order[3] = {Criterion::count, Criterion::cost, Criterion::latency};

    [[nodiscard]] std::size_t size() const { return node.size(); }
    [[nodiscard]] const std::int64_t* cap(std::size_t i) const { return capacity.data() + i * dims; }

    [[nodiscard]] ActivationScore score(double count, double total_cost, double max_latency) const {
        const auto pick = [&](Criterion c) {
            switch (c) {
                case Criterion::count: return count;
                case Criterion::cost: return total_cost;
                case Criterion::latency: return max_latency;
            }
            return count;
        };
        return {pick(order[0]), pick(order[1]), pick(order[2])};
    }
};

/// Greedy cover: repeatedly take the candidate with the best covered-fraction-per-weight (weight =
/// cost when cost comes first, 1 otherwise), then drop candidates that became redundant (latest
/// first). Returns candidate positions; empty when the candidates cannot cover `need`.
template <typename Defer = void>
std::vector<std::size_t> greedy_cover(const ActivationProblem& p) {
    std::vector<std::int64_t> residual = p.need;
    std::vector<bool> taken(p.size(), false);
    std::vector<std::size_t> chosen;
    const bool cost_first = p.order[0] == Criterion::cost;
    const auto covered = [&] { return std::all_of(residual.begin(), residual.end(), [](std::int64_t v) { return v <= 0; }); };
    while (!covered()) {
        std::size_t best = p.size();
        bool best_free = false;  // a zero-cost node beats any paid one when cost comes first
        double best_value = -1.0;
        for (std::size_t i = 0; i < p.size(); ++i) {
            if (taken[i]) continue;
            double gain = 0.0;
            for (std::size_t r = 0; r < p.dims; ++r) {
                if (residual[r] > 0) {
                    gain += static_cast<double>(std::min(p.cap(i)[r], residual[r])) / static_cast<double>(p.need[r]);
                }
            }
            if (gain <= 0.0) continue;
            const bool free = cost_first && p.cost[i] <= 0.0;
            const double value = cost_first && !free ? gain / p.cost[i] : gain;
            if ((free && !best_free) || (free == best_free && value > best_value)) {
                best_free = free;
                best_value = value;
                best = i;
            }
        }
        if (best == p.size()) return {};
        taken[best] = true;
        chosen.push_back(best);
        for (std::size_t r = 0; r < p.dims; ++r) residual[r] = remaining_after(residual[r], 1, p.cap(best)[r]);
    }
    // Redundancy elimination: try dropping each chosen node, the latest picked first.
    std::vector<std::int64_t> total(p.dims, 0);
    for (std::size_t i : chosen) {
        for (std::size_t r = 0; r < p.dims; ++r) total[r] = saturating_add(total[r], p.cap(i)[r]);
    }
    for (std::size_t k = chosen.size(); k-- > 0;) {
        const std::size_t i = chosen[k];
        bool still_covers = true;
        for (std::size_t r = 0; r < p.dims; ++r) {
            // total is saturated at INT64_MAX only when far above need, so subtracting stays >= need
            still_covers = still_covers && total[r] - p.cap(i)[r] >= p.need[r];
        }
        if (still_covers) {
            for (std::size_t r = 0; r < p.dims; ++r) total[r] -= p.cap(i)[r];
            chosen.erase(chosen.begin() + static_cast<std::ptrdiff_t>(k));
        }
    }
    return chosen;
}

/// Depth-first branch and bound over kinds of identical candidates (same capped capacity, cost,
/// latency): for each kind, how many to take. Exact when it finishes within the budget.
template <typename Defer = void>
class ActivationSearch {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    ActivationSearch(const ActivationProblem& problem, BudgetTracker& tracker) : p_(problem), tracker_(tracker) { build_kinds(); }

    /// Improves `best` / `best_set` (candidate positions); returns true when the search finished
    /// (so the result is optimal), false when the budget ran out.
    bool run(ActivationScore& best, std::vector<std::size_t>& best_set) {
        best_ = &best;
        best_set_ = &best_set;
        taken_.assign(kinds_.size(), 0);
        Dep<std::vector<std::int64_t>> residual = p_.need;
        search(0, residual, 0, 0.0, 0);
        return !stopped_;
    }

    /// A lower bound on the score of any cover (for proving a greedy result optimal).
    [[nodiscard]] ActivationScore root_bound() const { return bound(0, p_.need, 0, 0.0, 0); }

private:
    struct Kind {
        Dep<std::vector<std::size_t>> members;  // candidate positions, ascending
        std::size_t first = 0;              // representative candidate
    };

    void build_kinds() {
        Dep<std::vector<std::size_t>> order(p_.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        const auto same = [&](std::size_t a, std::size_t b) {
            return p_.cost[a] == p_.cost[b] && p_.latency[a] == p_.latency[b] && std::equal(p_.cap(a), p_.cap(a) + p_.dims, p_.cap(b));
        };
        // Value of a kind for ordering the search: covered fraction of the shortfall, per cost
        // when cost is the first criterion.
        const auto coverage = [&](std::size_t i) {
            double gain = 0.0;
            for (std::size_t r = 0; r < p_.dims; ++r) gain += static_cast<double>(p_.cap(i)[r]) / static_cast<double>(p_.need[r]);
            return gain;
        };
        const bool cost_first = p_.order[0] == Criterion::cost;
        const auto key = [&](std::size_t i) {
            const double gain = coverage(i);
            return cost_first ? (p_.cost[i] > 0 ? gain / p_.cost[i] : std::numeric_limits<double>::infinity()) : gain;
        };
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const double ka = key(a);
            const double kb = key(b);
            if (ka != kb) return ka > kb;
            if (p_.cost[a] != p_.cost[b]) return p_.cost[a] < p_.cost[b];
            if (p_.latency[a] != p_.latency[b]) return p_.latency[a] < p_.latency[b];
            return a < b;
        });
        for (std::size_t i : order) {
            bool merged = false;
            for (auto& kind : kinds_) {
                if (same(kind.first, i)) {
                    kind.members.push_back(i);
                    merged = true;
                    break;
                }
            }
            if (!merged) kinds_.push_back({{i}, i});
        }
        // Suffix aggregates per kind position: total capacity, max capacity, min cost ratio.
        const std::size_t k = kinds_.size();
        const std::size_t d = p_.dims;
        suffix_total_.assign((k + 1) * d, 0);
        suffix_max_.assign((k + 1) * d, 0);
        suffix_ratio_.assign((k + 1) * d, std::numeric_limits<double>::infinity());
        for (std::size_t g = k; g-- > 0;) {
            const std::int64_t* c = p_.cap(kinds_[g].first);
            const auto n = static_cast<std::int64_t>(kinds_[g].members.size());
            for (std::size_t r = 0; r < d; ++r) {
                // Saturate at need: the residual never exceeds it, and this keeps the sums in int64.
                const std::int64_t kind_total = remaining_after(p_.need[r], n, c[r]) == 0 ? p_.need[r] : n * c[r];
                suffix_total_[g * d + r] = std::min(p_.need[r], saturating_add(suffix_total_[(g + 1) * d + r], kind_total));
                suffix_max_[g * d + r] = std::max(suffix_max_[(g + 1) * d + r], c[r]);
                const double ratio = c[r] > 0 ? p_.cost[kinds_[g].first] / static_cast<double>(c[r]) : std::numeric_limits<double>::infinity();
                suffix_ratio_[g * d + r] = std::min(suffix_ratio_[(g + 1) * d + r], ratio);
            }
        }
    }

    [[nodiscard]] ActivationScore bound(std::size_t g, const std::vector<std::int64_t>& residual, std::int64_t count, double cost,
                                        std::int64_t latency) const {
        const std::size_t d = p_.dims;
        std::int64_t more_nodes = 0;
        double more_cost = 0.0;
        for (std::size_t r = 0; r < d; ++r) {
            if (residual[r] <= 0) continue;
            const std::int64_t largest = suffix_max_[g * d + r];
            if (largest > 0) more_nodes = std::max(more_nodes, residual[r] / largest + (residual[r] % largest != 0 ? 1 : 0));
            more_cost = std::max(more_cost, static_cast<double>(residual[r]) * suffix_ratio_[g * d + r]);
        }
        // Shave a relative 1e-9 off the cost bound so floating-point rounding never prunes a tie.
        return p_.score(static_cast<double>(count + more_nodes), (cost + more_cost) * (1.0 - 1e-9), static_cast<double>(latency));
    }

    void search(std::size_t g, std::vector<std::int64_t>& residual, std::int64_t count, double cost, std::int64_t latency) {
        if (stopped_) return;
        const std::size_t d = p_.dims;
        bool covered = true;
        for (std::size_t r = 0; r < d; ++r) covered = covered && residual[r] <= 0;
        if (covered) {
            const ActivationScore score = p_.score(static_cast<double>(count), cost, static_cast<double>(latency));
            if (score < *best_) {
                *best_ = score;
                best_set_->clear();
                for (std::size_t k = 0; k < kinds_.size(); ++k) {
                    for (std::int64_t j = 0; j < taken_[k]; ++j) best_set_->push_back(kinds_[k].members[static_cast<std::size_t>(j)]);
                }
            }
            return;
        }
        if (g == kinds_.size()) return;
        if (!tracker_.count()) {
            stopped_ = true;
            return;
        }
        for (std::size_t r = 0; r < d; ++r) {
            if (residual[r] > suffix_total_[g * d + r]) return;  // the rest cannot cover
        }
        if (!(bound(g, residual, count, cost, latency) < *best_)) return;
        const Kind& kind = kinds_[g];
        const std::int64_t* c = p_.cap(kind.first);
        // Taking more of this kind than covers the residual on its own never helps.
        std::int64_t useful = 0;
        bool contributes = false;
        for (std::size_t r = 0; r < d; ++r) {
            if (residual[r] <= 0) continue;
            if (c[r] > 0) {
                contributes = true;
                useful = std::max(useful, residual[r] / c[r] + (residual[r] % c[r] != 0 ? 1 : 0));
            }
        }
        const auto available = static_cast<std::int64_t>(kind.members.size());
        const std::int64_t most = contributes ? std::min(useful, available) : 0;
        Dep<std::vector<std::int64_t>> next(d);
        for (std::int64_t k = most; k >= 0; --k) {
            for (std::size_t r = 0; r < d; ++r) next[r] = remaining_after(residual[r], k, c[r]);
            taken_[g] = k;
            const std::int64_t new_latency = k > 0 ? std::max(latency, p_.latency[kind.first]) : latency;
            search(g + 1, next, count + k, cost + static_cast<double>(k) * p_.cost[kind.first], new_latency);
            if (stopped_) break;
        }
        taken_[g] = 0;
    }

    const ActivationProblem& p_;
    BudgetTracker& tracker_;
    Dep<std::vector<Kind>> kinds_;
    Dep<std::vector<std::int64_t>> suffix_total_;
    Dep<std::vector<std::int64_t>> suffix_max_;
    Dep<std::vector<double>> suffix_ratio_;
    Dep<std::vector<std::int64_t>> taken_;
    ActivationScore* best_ = nullptr;
    std::vector<std::size_t>* best_set_ = nullptr;
    bool stopped_ = false;
};

}  // namespace continuum::capacity::detail
