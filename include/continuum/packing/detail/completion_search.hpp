// Internal: the exact search that closes the last bin of gap after column generation (1-D). Bin
// completion (Korf, AAAI-02: branch on the bin of the largest remaining item, maximal completions only,
// within the waste the target leaves) with the Gilmore–Gomory LP bound of the residual demand at every
// node, so a branch-and-price over whole bins, and completions tried in the order of the node's LP
// solution (a dive that can backtrack). A complete run proves that `target` bins are not enough, which
// is what non-IRUP instances (optimum = ⌈LP⌉ + 1) need; on the others it finds the optimal packing.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/sparse_pattern.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

/// `Master` is ColumnGeneration<Real> (type_weights, type_demands, residual_lp, record_patterns).
template <typename Master>
class CompletionSearch {
public:
    using Pattern = std::vector<std::int64_t>;
    enum class Outcome { found, infeasible, unknown };

    /// Search nodes count on `tracker` and on `share` (a sub-budget); the master's LPs on its own tracker.
    CompletionSearch(Master& master, std::int64_t capacity, BudgetTracker& tracker, BudgetTracker& share)
        : master_(master), capacity_(capacity), tracker_(tracker), share_(share) {
        weight_ = master.type_weights();
        order_.resize(weight_.size());
        std::iota(order_.begin(), order_.end(), std::size_t{0});
        std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return weight_[a] > weight_[b]; });
    }

    /// Looks for a packing into at most `target` bins. found: recorded on the master (its incumbent);
    /// infeasible: proved impossible; unknown: the budget ran out or a completion list was cut.
    Outcome run(std::int64_t target) {
        left_ = master_.type_demands();
        used_.assign(left_.size(), 0);
        bins_.clear();
        incomplete_ = false;
        aborted_ = false;
        std::int64_t total = 0;
        for (std::size_t t = 0; t < left_.size(); ++t) total += left_[t] * weight_[t];
        __extension__ using Wide = __int128;
        const Wide room = static_cast<Wide>(target) * capacity_ - total;
        if (target < 0 || room < 0) return Outcome::infeasible;
        target_ = target;
        found_by_rounding_ = false;
        if (descend(static_cast<std::int64_t>(room), target)) {
            if (!found_by_rounding_) master_.record_patterns(bins_);
            return Outcome::found;
        }
        return aborted_ || incomplete_ ? Outcome::unknown : Outcome::infeasible;
    }

private:
    static constexpr std::size_t max_completions = 20000;  // per node; more and the run proves nothing

    struct Completion {
        double priority;  // the pattern's value in the node's LP solution (0 if absent)
        std::int64_t waste;
        std::size_t begin, end;  // its types in pool: [begin, end), the branching item's type included
    };

    /// ⌈(Σ_t profit_t left_t − minus) / knapsack⌉: the Farley bound of the residual demand after
    /// removing items whose profits sum to `minus`.
    [[nodiscard]] std::int64_t farley(const std::vector<std::int64_t>& profit, std::int64_t knapsack, std::int64_t minus) const {
        __extension__ using Wide = __int128;
        Wide total = -static_cast<Wide>(minus);
        for (std::size_t t = 0; t < left_.size(); ++t) total += static_cast<Wide>(profit[t]) * left_[t];
        if (total <= 0) return 0;
        return static_cast<std::int64_t>((total + knapsack - 1) / knapsack);
    }

    bool descend(std::int64_t waste_left, std::int64_t bins_left) {
        std::size_t first = 0;
        while (first < order_.size() && left_[order_[first]] == 0) ++first;
        if (first == order_.size()) return true;
        if (bins_left <= 0) return false;
        if (!tracker_.count() || !share_.count()) {
            aborted_ = true;
            return false;
        }
        // The LP of the residual at every node (fewer LPs, with the ancestors' duals in between,
        // explored many times more nodes and closed less on Wäscher): bound, rounding, order.
        const auto lp = master_.residual_lp(left_);
        if (tracker_.exhausted() || share_.exhausted()) {
            aborted_ = true;
            return false;
        }
        if (lp.lower_bound > bins_left) return false;
        master_.round_residual(bins_, left_, lp);
        if (master_.incumbent_bins() <= target_) {
            found_by_rounding_ = true;
            return true;
        }
        const std::size_t j = order_[first];
        std::map<SparsePattern, double> in_lp;  // the LP solution's patterns that hold type j
        for (const auto& [pattern, value] : lp.solution) {
            if (pattern[j] == 0) continue;
            in_lp[sparse_pattern(pattern)] += value;
        }
        // Completions of the bin that holds one copy of type j.
        --left_[j];
        std::vector<Completion> list;
        std::vector<std::size_t> pool;
        suffix_.assign(order_.size() + 1, 0);
        for (std::size_t q = order_.size(); q-- > first;) suffix_[q] = suffix_[q + 1] + left_[order_[q]] * weight_[order_[q]];
        current_.assign(1, j);
        steps_ = 0;
        collect(first, capacity_ - weight_[j], waste_left, list, pool, in_lp);
        ++left_[j];
        if (aborted_) return false;
        std::stable_sort(list.begin(), list.end(), [](const Completion& a, const Completion& b) { return a.priority != b.priority ? a.priority > b.priority : a.waste < b.waste; });
        Pattern bin(left_.size(), 0);
        for (const auto& c : list) {
            std::fill(bin.begin(), bin.end(), 0);
            std::int64_t removed = 0;
            for (std::size_t q = c.begin; q < c.end; ++q) {
                ++bin[pool[q]];
                removed += lp.knapsack > 0 ? lp.profit[pool[q]] : 0;
            }
            // Reduced-cost test: the child's Farley bound with this node's duals.
            if (lp.knapsack > 0 && farley(lp.profit, lp.knapsack, removed) > bins_left - 1) continue;
            for (std::size_t t = 0; t < bin.size(); ++t) left_[t] -= bin[t];
            bins_.push_back(bin);
            if (descend(waste_left - c.waste, bins_left - 1)) return true;
            bins_.pop_back();
            for (std::size_t t = 0; t < bin.size(); ++t) left_[t] += bin[t];
            if (aborted_) return false;
        }
        return false;
    }

    /// Maximal completions (no remaining item fits what is left) whose waste is within `waste_left`,
    /// adding items of the types at positions >= q of order_ (non-increasing weights).
    void collect(std::size_t q, std::int64_t room, std::int64_t waste_left, std::vector<Completion>& list, std::vector<std::size_t>& pool, const std::map<SparsePattern, double>& in_lp) {
        if (aborted_ || list.size() >= max_completions) return;
        if ((++steps_ & 255) == 0 && (!tracker_.count() || !share_.count())) {
            aborted_ = true;
            return;
        }
        if (room <= waste_left) {
            std::size_t smallest = order_.size();
            for (std::size_t r = order_.size(); r-- > 0;) {
                if (left_[order_[r]] > used_[order_[r]]) {
                    smallest = r;
                    break;
                }
            }
            if (smallest == order_.size() || weight_[order_[smallest]] > room) {
                SparsePattern key;
                for (const auto t : current_) key.emplace_back(t, 0);
                std::sort(key.begin(), key.end());
                SparsePattern merged;
                for (const auto& [t, zero] : key) {
                    if (!merged.empty() && merged.back().first == t) {
                        ++merged.back().second;
                    } else {
                        merged.emplace_back(t, 1);
                    }
                }
                const auto it = in_lp.find(merged);
                const std::size_t begin = pool.size();
                pool.insert(pool.end(), current_.begin(), current_.end());
                list.push_back({it == in_lp.end() ? 0.0 : it->second, room, begin, pool.size()});
                if (list.size() >= max_completions) incomplete_ = true;
                return;  // maximal: nothing more fits
            }
        }
        if (room - suffix_[q] > waste_left) return;  // even every remaining item leaves too much waste
        for (std::size_t r = q; r < order_.size(); ++r) {
            const std::size_t t = order_[r];
            if (weight_[t] > room || used_[t] >= left_[t]) continue;
            ++used_[t];
            current_.push_back(t);
            collect(r, room - weight_[t], waste_left, list, pool, in_lp);
            current_.pop_back();
            --used_[t];
            if (aborted_ || list.size() >= max_completions) return;
        }
    }

    Master& master_;
    std::int64_t capacity_;
    BudgetTracker& tracker_;
    BudgetTracker& share_;
    std::vector<std::int64_t> weight_;
    std::vector<std::size_t> order_;  // types by non-increasing weight
    std::vector<std::int64_t> left_, used_, suffix_;
    std::vector<std::size_t> current_;
    std::vector<Pattern> bins_;
    std::int64_t steps_ = 0;
    std::int64_t target_ = 0;
    bool found_by_rounding_ = false;
    bool incomplete_ = false;
    bool aborted_ = false;
};

}  // namespace continuum::packing::detail
