// Internal: the pricing problem of Gilmore–Gomory column generation, a bounded (multi-dimensional)
// knapsack with integer profits: max Σ p_j a_j s.t. Σ w_jk a_j <= c_k, 0 <= a_j <= b_j. 1-D: an
// enumeration of the few-item multisets when a bin holds at most 5 items and that is cheaper
// (few_items_knapsack.hpp), else dynamic programming over small capacities; otherwise depth-first
// branch and bound with the Dantzig bound (per dimension). Integer profits keep the Farley bound exact.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/few_items_knapsack.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace continuum::packing::detail {

struct KnapsackResult {
    std::int64_t value = 0;
    std::vector<std::int64_t> counts;  // per type
    bool exact = true;                 // false when the search was cut by its node limit
};

/// Which algorithm Knapsack::solve uses: chosen by estimated cost, or forced (tests compare them).
enum class KnapsackMethod { automatic, few_items, dynamic_programming, branch_and_bound };

/// Types: `weight` (m × d, row-major), `demand` (m), `profit` (m, >= 0), capacity (d).
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicKnapsack {
public:
    BasicKnapsack(const std::vector<std::int64_t>& weight, std::size_t d, std::vector<std::int64_t> capacity)
        : weight_(weight), d_(d), capacity_(std::move(capacity)) {}

    /// Exact unless `tracker` runs out (or `node_limit` nodes are explored): then `exact` is false.
    /// A forced few_items or dynamic_programming `method` needs d == 1 (and the latter a capacity
    /// small enough for a table of capacity + 1 cells).
    KnapsackResult solve(const std::vector<std::int64_t>& profit, const std::vector<std::int64_t>& demand, std::int64_t node_limit, BudgetTracker& tracker,
                         KnapsackMethod method = KnapsackMethod::automatic) {
        tracker_ = &tracker;
        const std::size_t m = demand.size();
        KnapsackResult out;
        out.counts.assign(m, 0);
        if (d_ == 1 && method == KnapsackMethod::few_items) {
            out.value = few_items_.solve(weight_, profit, demand, capacity_[0], node_limit, tracker, out.counts, out.exact);
            return out;
        }
        if (d_ == 1 && method == KnapsackMethod::dynamic_programming) return dynamic_programming(profit, demand);
        if (d_ == 1 && method == KnapsackMethod::automatic) {
            std::size_t splits = 0;
            for (std::size_t j = 0; j < m; ++j) {
                if (profit[j] > 0 && demand[j] > 0) splits += static_cast<std::size_t>(64 - __builtin_clzll(static_cast<unsigned long long>(demand[j])));
            }
            // splits == 0 (nothing profitable fits) must not reach the DP: its table has capacity + 1 cells.
            const double cells = (static_cast<double>(capacity_[0]) + 1.0) * static_cast<double>(splits);
            if (splits > 0 && few_items_cost(profit, demand) <= few_items_factor * cells) {
                out.value = few_items_.solve(weight_, profit, demand, capacity_[0], node_limit, tracker, out.counts, out.exact);
                return out;
            }
            if (splits > 0 && cells <= 4e6) return dynamic_programming(profit, demand);
        }
        return branch_and_bound(profit, demand, node_limit);
    }

private:
    // When a bin holds at most few_items_max profitable items, the enumeration of FewItemsKnapsack
    // is used if its worst case is at most few_items_factor DP cells. Measured on the pricing
    // problems of the bpp benchmark: a step costs about 6-8 DP cells, but the search visits 0.2-5 %
    // of the worst case (k = 6 to 4), so at c = 1000 the DP wins (k = 5: equal; k = 6: 5x faster)
    // while at c = 100,000 (Scholl 3, k = 4) the enumeration takes 0.8 ms where branch and bound
    // takes 26 ms and the DP would fill 2·10⁷ cells.
    static constexpr std::int64_t few_items_max = 5;
    static constexpr double few_items_factor = 10.0;

    /// Worst-case steps of FewItemsKnapsack (multisets of k - 2 of the t types, times one pass
    /// over them for the last two), or infinity when a bin can hold more than few_items_max
    /// profitable items.
    [[nodiscard]] double few_items_cost(const std::vector<std::int64_t>& profit, const std::vector<std::int64_t>& demand) const {
        const auto k = BasicFewItemsKnapsack<Defer>::max_items(weight_, profit, demand, capacity_[0], few_items_max);
        if (k > few_items_max) return 1e300;
        double types = 0;
        for (std::size_t j = 0; j < demand.size(); ++j) types += profit[j] > 0 && demand[j] > 0 && weight_[j] <= capacity_[0] ? 1.0 : 0.0;
        double cost = types + 1.0;
        for (std::int64_t i = 0; i + 2 < k; ++i) cost = cost * (types + static_cast<double>(i)) / static_cast<double>(i + 1);
        return cost;
    }

    KnapsackResult dynamic_programming(const std::vector<std::int64_t>& profit, const std::vector<std::int64_t>& demand) {
        const std::size_t m = demand.size();
        const auto cap = static_cast<std::size_t>(capacity_[0]);
        struct Split {
            std::size_t type;
            std::int64_t copies;
        };
        std::vector<Split> splits;
        for (std::size_t j = 0; j < m; ++j) {
            if (profit[j] <= 0 || demand[j] <= 0) continue;
            std::int64_t left = demand[j];
            for (std::int64_t q = 1; left > 0; q *= 2) {
                const std::int64_t take = std::min(q, left);
                if (take * weight_[j] <= capacity_[0]) splits.push_back({j, take});
                left -= take;
            }
        }
        taken_.assign(splits.size() * (cap + 1), 0);
        // The optimum `value` and its counts, read back from the splits taken (either table below).
        const auto result = [&](std::int64_t value) {
            KnapsackResult out;
            out.counts.assign(m, 0);
            out.value = value;
            std::size_t c = cap;
            for (std::size_t s = splits.size(); s-- > 0;) {
                if (taken_[s * (cap + 1) + c]) {
                    out.counts[splits[s].type] += splits[s].copies;
                    c -= static_cast<std::size_t>(splits[s].copies * weight_[splits[s].type]);
                }
            }
            return out;
        };
        // Every value in the table is a sum of split profits, so below 2^53 the table can be kept in
        // doubles, exactly: the same values and the same comparisons, two cells at a time with SSE2
        // (which has no 64-bit integer compare) and no branch. Two rows, so each split reads the
        // previous row only (what the in-place downward loop below reads too).
        double most = 0;
        for (const auto& split : splits) most += static_cast<double>(split.copies) * static_cast<double>(profit[split.type]);
        if (most < 4503599627370496.0) {  // 2^52: a margin for the rounding of `most` itself
            dp_old_.assign(cap + 1, 0.0);
            dp_new_.resize(cap + 1);
            for (std::size_t s = 0; s < splits.size(); ++s) {
                const auto w = static_cast<std::size_t>(splits[s].copies * weight_[splits[s].type]);
                const auto p = static_cast<double>(splits[s].copies * profit[splits[s].type]);
                const double* __restrict old_row = dp_old_.data();
                double* __restrict new_row = dp_new_.data();
                std::uint16_t* __restrict taken = taken_.data() + s * (cap + 1);
                std::copy(old_row, old_row + w, new_row);
                std::size_t c = w;
#if defined(__SSE2__)
                // Eight cells at a time: the four pairs' comparison masks (all ones or zeros per cell)
                // packed with saturation to two bytes per cell, one 16-byte store for the eight flags
                // (instead of a mask moved to an integer register and two byte stores per pair).
                const __m128d p8 = _mm_set1_pd(p);
                for (; c + 7 <= cap; c += 8) {
                    const __m128d old0 = _mm_loadu_pd(old_row + c), old1 = _mm_loadu_pd(old_row + c + 2);
                    const __m128d old2 = _mm_loadu_pd(old_row + c + 4), old3 = _mm_loadu_pd(old_row + c + 6);
                    const __m128d cand0 = _mm_add_pd(_mm_loadu_pd(old_row + c - w), p8), cand1 = _mm_add_pd(_mm_loadu_pd(old_row + c + 2 - w), p8);
                    const __m128d cand2 = _mm_add_pd(_mm_loadu_pd(old_row + c + 4 - w), p8), cand3 = _mm_add_pd(_mm_loadu_pd(old_row + c + 6 - w), p8);
                    _mm_storeu_pd(new_row + c, _mm_max_pd(cand0, old0));
                    _mm_storeu_pd(new_row + c + 2, _mm_max_pd(cand1, old1));
                    _mm_storeu_pd(new_row + c + 4, _mm_max_pd(cand2, old2));
                    _mm_storeu_pd(new_row + c + 6, _mm_max_pd(cand3, old3));
                    const __m128i low = _mm_packs_epi32(_mm_castpd_si128(_mm_cmpgt_pd(cand0, old0)), _mm_castpd_si128(_mm_cmpgt_pd(cand1, old1)));
                    const __m128i high = _mm_packs_epi32(_mm_castpd_si128(_mm_cmpgt_pd(cand2, old2)), _mm_castpd_si128(_mm_cmpgt_pd(cand3, old3)));
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(taken + c), _mm_packs_epi16(low, high));
                }
                // Two cells at a time (SSE2 is part of x86-64): max(candidate, old) is candidate
                // exactly when candidate > old, as below.
                const __m128d p2 = _mm_set1_pd(p);
                for (; c + 1 <= cap; c += 2) {
                    const __m128d old_pair = _mm_loadu_pd(old_row + c);
                    const __m128d candidate = _mm_add_pd(_mm_loadu_pd(old_row + c - w), p2);
                    const int better = _mm_movemask_pd(_mm_cmpgt_pd(candidate, old_pair));
                    _mm_storeu_pd(new_row + c, _mm_max_pd(candidate, old_pair));
                    taken[c] = static_cast<std::uint16_t>(better & 1);
                    taken[c + 1] = static_cast<std::uint16_t>(better >> 1);
                }
#endif
                for (; c <= cap; ++c) {
                    const double candidate = old_row[c - w] + p;
                    const bool better = candidate > old_row[c];
                    new_row[c] = better ? candidate : old_row[c];
                    taken[c] = static_cast<std::uint16_t>(better);
                }
                dp_old_.swap(dp_new_);
            }
            return result(static_cast<std::int64_t>(dp_old_[cap]));
        }
        value_.assign(cap + 1, 0);
        for (std::size_t s = 0; s < splits.size(); ++s) {
            const auto w = static_cast<std::size_t>(splits[s].copies * weight_[splits[s].type]);
            const std::int64_t p = splits[s].copies * profit[splits[s].type];
            for (std::size_t c = cap; c >= w; --c) {
                const std::int64_t candidate = value_[c - w] + p;
                if (candidate > value_[c]) {
                    value_[c] = candidate;
                    taken_[s * (cap + 1) + c] = 1;
                }
                if (c == w) break;
            }
        }
        return result(value_[cap]);
    }

    KnapsackResult branch_and_bound(const std::vector<std::int64_t>& profit, const std::vector<std::int64_t>& demand, std::int64_t node_limit) {
        const std::size_t m = demand.size();
        // Branching order: profit per normalised weight, best first.
        order_.clear();
        for (std::size_t j = 0; j < m; ++j) {
            if (profit[j] > 0 && demand[j] > 0) order_.push_back(j);
        }
        normalised_.assign(m, 0.0);
        for (const auto j : order_) {
            for (std::size_t k = 0; k < d_; ++k) normalised_[j] += static_cast<double>(weight_[j * d_ + k]) / static_cast<double>(std::max<std::int64_t>(capacity_[k], 1));
            normalised_[j] = std::max(normalised_[j], 1e-300);
        }
        const auto density = [&](std::size_t j) { return static_cast<double>(profit[j]) / normalised_[j]; };
        std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return density(a) > density(b); });
        profit_ = &profit;
        demand_ = &demand;
        residual_ = capacity_;
        current_.assign(m, 0);
        best_.assign(m, 0);
        best_value_ = 0;
        nodes_ = 0;
        node_limit_ = node_limit;
        cut_ = false;
        // per-dimension orders for the Dantzig bound
        dim_order_.assign(d_, {});
        for (std::size_t k = 0; k < d_; ++k) {
            dim_order_[k] = order_;
            std::stable_sort(dim_order_[k].begin(), dim_order_[k].end(), [&](std::size_t a, std::size_t b) {
                // profit[a]/w[a] > profit[b]/w[b], zero weight first
                const auto wa = weight_[a * d_ + k], wb = weight_[b * d_ + k];
                return static_cast<double>(profit[a]) * static_cast<double>(wb) > static_cast<double>(profit[b]) * static_cast<double>(wa);
            });
        }
        position_.assign(m, 0);
        for (std::size_t pos = 0; pos < order_.size(); ++pos) position_[order_[pos]] = pos;
        descend(0, 0);
        KnapsackResult out;
        out.value = best_value_;
        out.counts = best_;
        out.exact = !cut_;
        return out;
    }

    // Upper bound on the value obtainable from order_[pos..] with residual_: min over dimensions
    // of the fractional knapsack in that dimension.
    [[nodiscard]] double bound(std::size_t pos) const {
        if (d_ == 1) {  // Dantzig bound: the branching order is the ratio order
            return fractional_fill(std::span(order_).subspan(pos), pos, static_cast<double>(residual_[0]), [&](std::size_t j) { return static_cast<double>(weight_[j]); });
        }
        double best = 1e300;
        for (std::size_t k = 0; k < d_; ++k) best = std::min(best, dimension_bound(k, pos));
        return best;
    }
    // Vectors: the fractional knapsack of order_[pos..] in dimension k alone.
    [[nodiscard]] double dimension_bound(std::size_t k, std::size_t pos) const {
        return fractional_fill(std::span(dim_order_[k]), pos, static_cast<double>(residual_[k]), [&](std::size_t j) { return static_cast<double>(weight_[j * d_ + k]); });
    }
    // Vectors: the fractional knapsack of order_[pos..] under the surrogate constraint Σ_k w_k / c_k
    // <= Σ_k residual_k / c_k (implied by the d constraints, so a valid bound), in the branching
    // order, which is this constraint's ratio order: one pass, no skipping.
    [[nodiscard]] double surrogate_bound(std::size_t pos) const {
        double room = 0;
        for (std::size_t k = 0; k < d_; ++k) room += static_cast<double>(residual_[k]) / static_cast<double>(std::max<std::int64_t>(capacity_[k], 1));
        return fractional_fill(std::span(order_).subspan(pos), pos, room, [&](std::size_t j) { return normalised_[j]; });
    }
    // The fractional knapsack of the types in `order` from branching position `pos` on (the others
    // skipped), taken in that order, into `room` with weights `weight_of(j)` (weight 0: taken whole).
    template <typename WeightOf>
    [[nodiscard]] double fractional_fill(std::span<const std::size_t> order, std::size_t pos, double room, WeightOf weight_of) const {
        double value = 0;
        for (const auto j : order) {
            if (position_[j] < pos) continue;
            const double w = weight_of(j);
            const double copies = static_cast<double>((*demand_)[j]);
            const double p = static_cast<double>((*profit_)[j]);
            if (w <= 0) {
                value += p * copies;
                continue;
            }
            if (w * copies <= room) {
                value += p * copies;
                room -= w * copies;
            } else {
                return value + p * room / w;
            }
        }
        return value;
    }
    // Vectors: prunes when the surrogate bound does, or when value + bound(pos) < threshold (the
    // minimum over dimensions), stopping at the first dimension that prunes, trying first the one
    // that pruned last: most nodes are pruned by one bound, and bound(pos) was 70 % of the vector
    // pricing time (d = 10).
    [[nodiscard]] bool pruned(std::size_t pos, double value, double threshold) {
        if (value + surrogate_bound(pos) < threshold) return true;
        for (std::size_t step = 0; step < d_; ++step) {
            const std::size_t k = (last_pruning_ + step) % d_;
            if (value + dimension_bound(k, pos) < threshold) {
                last_pruning_ = k;
                return true;
            }
        }
        return false;
    }

    void descend(std::size_t pos, std::int64_t value) {
        if (value > best_value_) {
            best_value_ = value;
            best_ = current_;
        }
        if (cut_) return;
        // Skip types that cannot fit any more (no branching there).
        while (pos < order_.size()) {
            const std::size_t t = order_[pos];
            bool fits_one = true;
            for (std::size_t k = 0; k < d_ && fits_one; ++k) fits_one = weight_[t * d_ + k] <= residual_[k];
            if (fits_one) break;
            ++pos;
        }
        if (pos == order_.size()) return;
        if (++nodes_ > node_limit_ || ((nodes_ & 15) == 0 && !tracker_->count())) {
            cut_ = true;
            return;
        }
        const double threshold = static_cast<double>(best_value_) + 1.0 - 1e-9 * static_cast<double>(best_value_ + 1);
        if (d_ == 1 ? static_cast<double>(value) + bound(pos) < threshold : pruned(pos, static_cast<double>(value), threshold)) return;
        const std::size_t j = order_[pos];
        std::int64_t copies = (*demand_)[j];
        for (std::size_t k = 0; k < d_; ++k) {
            const auto w = weight_[j * d_ + k];
            if (w > 0) copies = std::min(copies, residual_[k] / w);
        }
        for (std::int64_t q = copies; q >= 0; --q) {
            for (std::size_t k = 0; k < d_; ++k) residual_[k] -= q * weight_[j * d_ + k];
            current_[j] = q;
            descend(pos + 1, value + q * (*profit_)[j]);
            for (std::size_t k = 0; k < d_; ++k) residual_[k] += q * weight_[j * d_ + k];
            current_[j] = 0;
            if (cut_) return;
        }
    }

    const std::vector<std::int64_t>& weight_;
    BasicFewItemsKnapsack<Defer> few_items_;
    std::size_t d_;
    std::vector<std::int64_t> capacity_;
    std::vector<std::int64_t> value_;
    std::vector<std::uint16_t> taken_;  // per split and cell, not 0 when the split improved the cell
    std::vector<double> dp_old_, dp_new_;  // the table in doubles (exact below 2^53), two rows
    std::vector<std::size_t> order_;
    std::vector<std::vector<std::size_t>> dim_order_;
    std::vector<std::size_t> position_;
    const std::vector<std::int64_t>* profit_ = nullptr;
    const std::vector<std::int64_t>* demand_ = nullptr;
    std::vector<std::int64_t> residual_;
    std::vector<std::int64_t> current_;
    std::vector<std::int64_t> best_;
    std::int64_t best_value_ = 0;
    std::int64_t nodes_ = 0;
    std::int64_t node_limit_ = 0;
    bool cut_ = false;
    std::size_t last_pruning_ = 0;
    std::vector<double> normalised_;  // per type: Σ_k w_k / c_k (at least 1e-300)
    BudgetTracker* tracker_ = nullptr;
};
using Knapsack = BasicKnapsack<>;

}  // namespace continuum::packing::detail
