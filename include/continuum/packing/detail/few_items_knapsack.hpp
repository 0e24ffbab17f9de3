// Internal: an exact 1-D bounded knapsack (max Σ p_j a_j, Σ w_j a_j <= c, 0 <= a_j <= b_j) for
// bins that hold few items, whose cost does not depend on the capacity: a depth-first enumeration
// of the item multisets, heaviest type first, pruned by the s largest profits still available
// (s = items that still fit) and by the best profit/weight ratio times the room (exact integers);
// the last item is a suffix maximum, the last two one pass with a second pointer.
#pragma once

#include <continuum/core/budget.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicFewItemsKnapsack {
    __extension__ using Wide = __int128;

public:
    /// Most items any feasible multiset of profitable types can hold (the k smallest fit), or
    /// `cap` + 1 when it exceeds `cap`; 0 when no profitable item fits.
    static std::int64_t max_items(const std::vector<std::int64_t>& weight, const std::vector<std::int64_t>& profit, const std::vector<std::int64_t>& demand, std::int64_t capacity,
                                  std::int64_t cap) {
        std::vector<std::pair<std::int64_t, std::int64_t>> light;  // (weight, copies)
        for (std::size_t j = 0; j < demand.size(); ++j) {
            if (profit[j] > 0 && demand[j] > 0 && weight[j] <= capacity) light.emplace_back(weight[j], demand[j]);
        }
        std::sort(light.begin(), light.end());
        std::int64_t items = 0, room = capacity;
        for (const auto& [w, copies] : light) {
            const std::int64_t take = w > 0 ? std::min(copies, room / w) : copies;
            items += take;
            if (items > cap) return cap + 1;
            if (take < copies) break;
            room -= take * w;
        }
        return items;
    }

    /// Optimal counts per type in `counts` (size m) and their value; `exact` false when more than
    /// `step_limit` enumeration steps were needed or the tracker ran out (one tracker node per 256
    /// steps, as bin completion counts its enumeration). A step is a search node or one first item
    /// of the last-two pass.
    std::int64_t solve(const std::vector<std::int64_t>& weight, const std::vector<std::int64_t>& profit, const std::vector<std::int64_t>& demand, std::int64_t capacity,
                       std::int64_t step_limit, BudgetTracker& tracker, std::vector<std::int64_t>& counts, bool& exact) {
        tracker_ = &tracker;
        step_limit_ = step_limit;
        steps_ = 0;
        cut_ = false;
        prepare(weight, profit, demand, capacity);
        best_value_ = 0;
        best_path_.clear();
        path_.clear();
        if (m_ > 0) descend(0, demand_[0], capacity, 0);
        counts.assign(demand.size(), 0);
        for (const auto at : best_path_) ++counts[type_[at]];
        exact = !cut_;
        return best_value_;
    }

    /// Enumeration steps of the last solve().
    [[nodiscard]] std::int64_t steps() const { return steps_; }

private:
    void prepare(const std::vector<std::int64_t>& weight, const std::vector<std::int64_t>& profit, const std::vector<std::int64_t>& demand, std::int64_t capacity) {
        const auto k = max_items(weight, profit, demand, capacity, std::numeric_limits<std::int64_t>::max() - 1);  // exact: the bounds rely on it
        k_ = static_cast<std::size_t>(k);
        type_.clear();
        for (std::size_t j = 0; j < demand.size(); ++j) {
            if (profit[j] > 0 && demand[j] > 0 && weight[j] <= capacity) type_.push_back(j);
        }
        // Heaviest first, so "fits in the room left" is a suffix of the order.
        std::sort(type_.begin(), type_.end(), [&](std::size_t a, std::size_t b) { return weight[a] != weight[b] ? weight[a] > weight[b] : profit[a] != profit[b] ? profit[a] > profit[b] : a < b; });
        m_ = type_.size();
        weight_.resize(m_);
        profit_.resize(m_);
        demand_.resize(m_);
        for (std::size_t at = 0; at < m_; ++at) {
            weight_[at] = weight[type_[at]];
            profit_[at] = profit[type_[at]];
            demand_[at] = std::min<std::int64_t>(demand[type_[at]], k);
        }
        // Suffix tables over [at, m): best profit and its position, and copies (capped at k).
        best_profit_.assign(m_ + 1, 0);
        best_at_.assign(m_ + 1, m_);
        copies_.assign(m_ + 1, 0);
        for (std::size_t at = m_; at-- > 0;) {
            best_profit_[at] = best_profit_[at + 1];
            best_at_[at] = best_at_[at + 1];
            if (profit_[at] >= best_profit_[at]) {  // ties: the earlier (heavier) position, so the suffix maximum at `at` may be `at` itself
                best_profit_[at] = profit_[at];
                best_at_[at] = at;
            }
            copies_[at] = std::min<std::int64_t>(copies_[at + 1] + demand_[at], k);
        }
        // The best ratio p/w over the whole order, for the bound ratio × room (exact, 128 bits;
        // skipped if the products could overflow or an item weighs nothing).
        ratio_ = {0, 1};
        for (std::size_t at = 0; at < m_ && ratio_.second > 0; ++at) {
            if (weight_[at] <= 0) {
                ratio_ = {0, 0};
            } else if (static_cast<Wide>(profit_[at]) * ratio_.second > static_cast<Wide>(ratio_.first) * weight_[at]) {
                ratio_ = {profit_[at], weight_[at]};
            }
        }
        const auto headroom = static_cast<Wide>(1) << 120;
        if (static_cast<Wide>(capacity) * ratio_.first >= headroom || static_cast<Wide>(std::numeric_limits<std::int64_t>::max()) * ratio_.second >= headroom) ratio_ = {0, 0};
        // Sums of the t largest profits among the copies in [at, m), t <= k.
        const std::size_t width = k_ + 1;
        top_.assign((m_ + 1) * width, 0);
        std::vector<std::int64_t> largest, merged;  // descending
        for (std::size_t at = m_; at-- > 0;) {
            merged.clear();
            std::size_t from = 0;
            std::int64_t own = demand_[at];
            while (merged.size() < k_ && (own > 0 || from < largest.size())) {
                if (own > 0 && (from == largest.size() || profit_[at] >= largest[from])) {
                    merged.push_back(profit_[at]);
                    --own;
                } else {
                    merged.push_back(largest[from++]);
                }
            }
            largest.swap(merged);
            std::int64_t sum = 0;
            for (std::size_t t = 1; t < width; ++t) {
                if (t <= largest.size()) sum += largest[t - 1];
                top_[at * width + t] = sum;
            }
        }
        // Sums of the t lightest copies (the end of the order), t <= k + 1 (k + 1 never fits).
        lightest_.assign(k_ + 2, std::numeric_limits<std::int64_t>::max());
        lightest_[0] = 0;
        std::size_t t = 1;
        for (std::size_t at = m_; at-- > 0 && t <= k_;) {
            for (std::int64_t c = 0; c < demand_[at] && t <= k_; ++c, ++t) lightest_[t] = lightest_[t - 1] + weight_[at];
        }
    }

    /// True when no `slots` more items from [at, m) fitting in `room` can add more than `need`:
    /// the `slots` largest profits there, or the best ratio times the room, is at most `need`.
    [[nodiscard]] bool hopeless(std::size_t at, std::size_t slots, std::int64_t room, std::int64_t need) const {
        if (top_[at * (k_ + 1) + slots] <= need) return true;
        return ratio_.second > 0 && static_cast<Wide>(ratio_.first) * room < (static_cast<Wide>(need) + 1) * ratio_.second;
    }

    /// First position >= from whose weight fits in `room` (weights are non-increasing).
    [[nodiscard]] std::size_t first_fitting(std::size_t from, std::int64_t room) const {
        return static_cast<std::size_t>(std::partition_point(weight_.begin() + static_cast<std::ptrdiff_t>(from), weight_.end(), [&](std::int64_t w) { return w > room; }) - weight_.begin());
    }

    bool step() {
        if (++steps_ > step_limit_ || ((steps_ & 255) == 0 && !tracker_->count())) cut_ = true;
        return !cut_;
    }

    void improve(std::int64_t value, std::size_t first, std::size_t second) {
        best_value_ = value;
        best_path_ = path_;
        if (first < m_) best_path_.push_back(first);
        if (second < m_) best_path_.push_back(second);
    }

    /// Multisets that extend path_ with positions >= `from` (`left` copies of `from` still free).
    void descend(std::size_t from, std::int64_t left, std::int64_t room, std::int64_t value) {
        if (value > best_value_) improve(value, m_, m_);
        if (!step()) return;
        std::size_t at = first_fitting(from, room);
        if (at == from && left == 0) ++at;
        if (at >= m_) return;
        std::size_t slots = 0;  // items that can still be added
        while (slots < k_ && lightest_[slots + 1] <= room) ++slots;
        slots = std::min(slots, static_cast<std::size_t>(copies_[at]));
        if (hopeless(at, slots, room, best_value_ - value)) return;
        if (slots == 1) {
            if (value + best_profit_[at] > best_value_) improve(value + best_profit_[at], best_at_[at], m_);
            return;
        }
        if (slots == 2) {
            // fit: the first position whose weight fits beside `first`; it only moves left as
            // `first` gets lighter.
            std::size_t fit = first_fitting(0, room - weight_[at]);
            for (std::size_t first = at; first < m_; ++first) {
                if (value + top_[first * (k_ + 1) + 2] <= best_value_ || !step()) return;
                const std::int64_t free = first == from ? left : demand_[first];
                if (free == 0) continue;
                if (value + profit_[first] > best_value_) improve(value + profit_[first], first, m_);
                while (fit > 0 && weight_[fit - 1] <= room - weight_[first]) --fit;
                std::size_t second = std::max(fit, first);
                if (second == first && free < 2) ++second;
                if (second < m_ && value + profit_[first] + best_profit_[second] > best_value_) improve(value + profit_[first] + best_profit_[second], first, best_at_[second]);
            }
            return;
        }
        for (std::size_t next = at; next < m_; ++next) {
            if (value + top_[next * (k_ + 1) + slots] <= best_value_) return;  // later positions have no larger profits
            const std::int64_t free = next == from ? left : demand_[next];
            if (free == 0) continue;
            path_.push_back(next);
            descend(next, free - 1, room - weight_[next], value + profit_[next]);
            path_.pop_back();
            if (cut_) return;
        }
    }

    std::size_t k_ = 0;
    std::size_t m_ = 0;
    std::vector<std::size_t> type_;  // position -> type
    std::vector<std::int64_t> weight_, profit_, demand_;
    std::vector<std::int64_t> best_profit_;
    std::vector<std::size_t> best_at_;
    std::vector<std::int64_t> copies_;
    std::vector<std::int64_t> top_;  // (m + 1) x (k + 1)
    std::pair<std::int64_t, std::int64_t> ratio_;  // the best p / w as (p, w); w = 0: unused
    std::vector<std::int64_t> lightest_;
    std::vector<std::size_t> path_, best_path_;

    std::int64_t best_value_ = 0;
    std::int64_t steps_ = 0;
    std::int64_t step_limit_ = 0;
    bool cut_ = false;
    BudgetTracker* tracker_ = nullptr;
};
using FewItemsKnapsack = BasicFewItemsKnapsack<>;

}  // namespace continuum::packing::detail
