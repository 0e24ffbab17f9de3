// Internal: column-generation diving with limited discrepancy search (1-D), after Sadykov, Vanderbeck,
// Pessoa, Tahiri & Uchoa, "Primal heuristics for branch and price: the assets of diving methods"
// (INFORMS J. Computing 2019), used for bin packing by Wei, Luo, Baldacci & Lim (2020): fix a column
// of the residual LP's solution (the closest to a non-zero integer, at that integer), re-solve the LP
// of the residual demand (its simplex pricing the parent's columns first), prune on its Farley bound;
// siblings try the next columns (tabu below them).
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/packing/detail/reduced_cost_proof.hpp>
#include <continuum/packing/detail/sparse_pattern.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

/// `Master` is ColumnGeneration<Real> (type_demands, residual_lp, round_residual, record_patterns,
/// incumbent_bins, prefer).
template <typename Master>
class LdsDive {
public:
    using Pattern = std::vector<std::int64_t>;
    enum class Outcome { found, unknown };

    /// Iterations with 1, 2, ... up to `max_discrepancy` discrepancies (the k-th candidate of a
    /// node costs k), at any depth: depth first, so the deepest choices are revised first.
    LdsDive(Master& master, BudgetTracker& tracker, int max_discrepancy) : master_(master), tracker_(tracker), max_discrepancy_(max_discrepancy) {}

    /// Looks for a packing into at most `target` bins within `node_allowance` more nodes of the
    /// tracker (the LPs' pivots and pricings count there) and before `deadline`. found: the master
    /// holds it as its incumbent. Proves nothing when it fails.
    Outcome run(std::int64_t target, std::int64_t node_allowance, std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt) {
        target_ = target;
        node_end_ = tracker_.nodes() > std::numeric_limits<std::int64_t>::max() - node_allowance ? std::numeric_limits<std::int64_t>::max() : tracker_.nodes() + node_allowance;
        deadline_ = deadline;
        aborted_ = false;
        lps_ = 0;
        covers_closed_ = 0;
        memo_.clear();
        if (master_.incumbent_bins() <= target) return Outcome::found;
        const auto demand = master_.type_demands();
        bool found = false;
        for (int limit = 1; limit <= max_discrepancy_ && !found && !aborted_; ++limit) {
            cut_ = false;
            fixed_.clear();
            tabu_.clear();
            auto b = demand;
            found = dive(b, limit, nullptr);
            if (!cut_) break;  // the whole tree was seen: more discrepancies change nothing
        }
        master_.prefer({});  // the later steps' LPs price as before
        if (!found) return Outcome::unknown;
        if (master_.incumbent_bins() > target) master_.record_patterns(fixed_);
        return Outcome::found;
    }

    /// Opt-in (session 16): at every node whose LP is solved (not answered by the memo), the exact
    /// cover of the residual demand by the bins left among those whose reduced cost under the node's
    /// integer duals fits its gap (ReducedCostProof, with at most `max_bins` bins and `cover_nodes`
    /// cover nodes): deep in the dive the residual LP is within a few hundredths of a bin of the bins
    /// left, few bins pass, and the cover either finds the residual's packing (which the rounding
    /// misses) or proves there is none, and the node is pruned. Item types' `weight` and the bin
    /// `capacity` as the master's.
    void cover_residuals(std::vector<std::int64_t> weight, std::int64_t capacity, std::size_t max_bins, std::int64_t cover_nodes) {
        weight_ = std::move(weight);
        capacity_ = capacity;
        cover_max_bins_ = max_bins;
        cover_nodes_ = cover_nodes;
    }

    /// Residual LPs solved by the last run (not counting those the memo answered).
    [[nodiscard]] std::int64_t lps() const { return lps_; }
    /// Nodes of the last run whose residual cover found a packing or proved there is none.
    [[nodiscard]] std::int64_t covers_closed() const { return covers_closed_; }

private:
    /// Columns closer than this to a non-zero integer are fixed together on a node's first branch
    /// (fewer LPs per dive: from the root LP alone it found 4 of Hard28's 7 open IRUP packings within
    /// 300,000 nodes, 3 without, and BPP561 in 32,000 nodes instead of 118,000).
    static constexpr double bundle = 0.1;

    /// Residual LPs kept per run (their columns sparse: about 5 kB each on Hard28). The memo answers
    /// the nodes that an iteration with k discrepancies revisits from the one with k - 1 (and the same
    /// demand reached by different fixings). Only with the warm start: alone it found as many of the
    /// 23 IRUP Hard28 packings from the root LP (17 in 300,000 nodes) and in solve_exact at 200,000
    /// nodes lost BPP60 for none gained; with the warm start, solve_exact gains BPP144 and BPP419 and
    /// keeps BPP181, which the warm start without the memo lost (docs/packing.md, session 11).
    static constexpr std::size_t memo_limit = 4096;
    struct Memo {
        std::int64_t lower_bound;
        std::vector<std::pair<SparsePattern, double>> solution;
        bool infeasible = false;  // its residual cover proved no packing of it into the bins left
    };

    struct Candidate {
        double distance, value;
        std::size_t index;
    };

    [[nodiscard]] bool out_of_budget() {
        if (tracker_.exhausted() || tracker_.nodes() >= node_end_) return true;
        return deadline_ && std::chrono::steady_clock::now() >= *deadline_;
    }

    /// Fixes up to `copies` copies of `pattern` (as many as the residual demand `b` and the target
    /// allow); returns how many.
    std::int64_t take(const Pattern& pattern, std::int64_t copies, std::vector<std::int64_t>& b) {
        for (std::size_t j = 0; j < b.size(); ++j) {
            if (pattern[j] > 0) copies = std::min(copies, b[j] / pattern[j]);
        }
        copies = std::min(copies, target_ - static_cast<std::int64_t>(fixed_.size()));
        if (copies <= 0) return 0;
        for (std::size_t j = 0; j < b.size(); ++j) b[j] -= copies * pattern[j];
        for (std::int64_t c = 0; c < copies; ++c) fixed_.push_back(pattern);
        return copies;
    }

    static std::int64_t nearest(double value) { return static_cast<std::int64_t>(std::max(1.0, std::round(value))); }

    /// The residual LP of demand `b` (the bound and the solution: all the dive reads), from the memo
    /// or solved with the columns of `parent` (the parent node's solution; none at the root) priced first.
    typename Master::ResidualLp residual_lp(const std::vector<std::int64_t>& b, const std::vector<std::pair<Pattern, double>>* parent) {
        typename Master::ResidualLp lp;
        if (const auto it = memo_.find(b); it != memo_.end()) {
            lp.lower_bound = it->second.lower_bound;
            for (const auto& [column, value] : it->second.solution) lp.solution.emplace_back(dense_pattern(column, b.size()), value);
            return lp;
        }
        std::vector<Pattern> columns;
        if (parent) {
            for (const auto& [pattern, value] : *parent) columns.push_back(pattern);
        }
        master_.prefer(columns);
        lp = master_.residual_lp(b);
        ++lps_;
        if (memo_.size() < memo_limit && lp.lower_bound > 0) {
            Memo memo{lp.lower_bound, {}};
            for (const auto& [pattern, value] : lp.solution) memo.solution.emplace_back(sparse_pattern(pattern), value);
            memo_.emplace(b, std::move(memo));
        }
        return lp;
    }

    bool dive(std::vector<std::int64_t>& b, int discrepancies, const std::vector<std::pair<Pattern, double>>* parent) {
        if (std::all_of(b.begin(), b.end(), [](std::int64_t x) { return x == 0; })) return true;
        if (out_of_budget()) {
            aborted_ = true;
            return false;
        }
        if (const auto it = memo_.find(b); it != memo_.end() && it->second.infeasible) return false;
        const auto lp = residual_lp(b, parent);
        if (lp.lower_bound == 0) {  // no exact pricing round: the budget ran out
            aborted_ = true;
            return false;
        }
        const auto fixed = static_cast<std::int64_t>(fixed_.size());
        if (fixed + lp.lower_bound > target_) return false;
        master_.round_residual(fixed_, b, lp);
        if (master_.incumbent_bins() <= target_) return true;
        if (cover_nodes_ > 0 && lp.knapsack > 0 && lp.profit.size() == b.size()) {
            Budget part;
            part.node_limit = cover_nodes_;
            BudgetTracker share(part);
            continuum::detail::deferred_t<ReducedCostProof, Master> cover(weight_, b, capacity_, lp.profit, lp.knapsack, tracker_, share, cover_max_bins_);
            const auto outcome = cover.run(target_ - fixed);
            if (outcome == ReducedCostProof::Outcome::found) {
                ++covers_closed_;
                auto packing = fixed_;
                for (auto& p : cover.packing()) packing.push_back(std::move(p));
                master_.record_patterns(packing);
                if (master_.incumbent_bins() <= target_) return true;
            } else if (outcome == ReducedCostProof::Outcome::infeasible) {
                ++covers_closed_;
                if (const auto it = memo_.find(b); it != memo_.end()) it->second.infeasible = true;
                return false;
            }
        }
        // Candidates: the solution's columns, closest to a non-zero integer first, then larger
        // values; never one that an earlier sibling on the path tried (tabu).
        std::vector<Candidate> candidates;
        for (std::size_t k = 0; k < lp.solution.size(); ++k) {
            const auto& [pattern, value] = lp.solution[k];
            if (value <= 1e-9 || std::all_of(pattern.begin(), pattern.end(), [](std::int64_t x) { return x == 0; })) continue;
            if (std::find(tabu_.begin(), tabu_.end(), pattern) != tabu_.end()) continue;
            candidates.push_back({std::abs(value - static_cast<double>(nearest(value))), value, k});
        }
        std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
            if (x.distance != y.distance) return x.distance < y.distance;
            if (x.value != y.value) return x.value > y.value;
            return x.index < y.index;
        });
        const auto width = static_cast<std::size_t>(discrepancies) + 1;
        if (candidates.size() > width) cut_ = true;
        const std::size_t tabu_mark = tabu_.size();
        bool found = false;
        for (std::size_t k = 0; k < candidates.size() && k < width && !found; ++k) {
            std::vector<std::pair<std::size_t, std::int64_t>> taken;  // (candidate, copies)
            const auto& pattern = lp.solution[candidates[k].index].first;
            taken.emplace_back(k, take(pattern, nearest(candidates[k].value), b));
            for (std::size_t q = k + 1; k == 0 && q < candidates.size() && candidates[q].distance < bundle; ++q) {
                taken.emplace_back(q, take(lp.solution[candidates[q].index].first, nearest(candidates[q].value), b));
            }
            found = dive(b, discrepancies - static_cast<int>(k), &lp.solution);
            if (found) break;
            fixed_.resize(static_cast<std::size_t>(fixed));
            for (const auto& [q, copies] : taken) {
                const auto& p = lp.solution[candidates[q].index].first;
                for (std::size_t j = 0; j < b.size(); ++j) b[j] += copies * p[j];
            }
            tabu_.push_back(pattern);
            if (aborted_) break;
        }
        tabu_.resize(tabu_mark);
        return found;
    }

    Master& master_;
    BudgetTracker& tracker_;
    int max_discrepancy_;
    std::int64_t target_ = 0;
    std::int64_t node_end_ = 0;
    std::optional<std::chrono::steady_clock::time_point> deadline_;
    std::vector<Pattern> fixed_;
    std::vector<Pattern> tabu_;
    std::map<std::vector<std::int64_t>, Memo> memo_;
    std::int64_t lps_ = 0;
    std::int64_t covers_closed_ = 0;
    std::vector<std::int64_t> weight_;
    std::int64_t capacity_ = 0;
    std::size_t cover_max_bins_ = 0;
    std::int64_t cover_nodes_ = 0;  // 0: no residual covers
    bool aborted_ = false;
    bool cut_ = false;
};

}  // namespace continuum::packing::detail
