// Internal: proof by reduced-cost enumeration (1-D; issue 20, after Baldacci et al. and Pessoa et
// al.'s route enumeration). Under integer duals p ≥ 0 whose exact knapsack optimum is K, the bins of
// any packing into m bins have reduced costs K − p·a that sum to exactly G = m·K − p·b, so each of them
// has K − p·a ≤ G. When the LP's value is within a small fraction of m, few bins pass: they are
// enumerated (further dual vectors added before prune the enumeration too), and an exact cover of the
// demand by m of them is searched for (optionally remembering the states it proved infeasible). None
// proves that m bins do not suffice (what non-IRUP instances need); one is a packing into m bins.
// The search is cover_search.hpp's; this file gives it the enumerated bins, the memo and the order of
// the children (the bins' order, ascending).
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/cover_search.hpp>
#include <continuum/packing/detail/sparse_pattern.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <unordered_set>
#include <optional>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicReducedCostProof : private CoverSearch<BasicReducedCostProof<Defer>> {
    using Base = CoverSearch<BasicReducedCostProof<Defer>>;
    friend Base;

public:
    using Pattern = std::vector<std::int64_t>;  // copies per item type
    enum class Outcome { found, infeasible, unknown };

    /// Item types (`weight`, `demand`), the bin `capacity`, integer duals `profit` (≥ 0, one per type)
    /// and `knapsack`, the exact maximum of Σ profit_j a_j over the bins within `demand`. Search nodes
    /// count on `tracker` and on `share` (a sub-budget); the enumeration gives up beyond
    /// `max_patterns` bins.
    BasicReducedCostProof(std::vector<std::int64_t> weight, std::vector<std::int64_t> demand, std::int64_t capacity, std::vector<std::int64_t> profit, std::int64_t knapsack,
                     BudgetTracker& tracker, BudgetTracker& share, std::size_t max_patterns)
        : Base(std::move(weight), std::move(demand), capacity), profit_(std::move(profit)), knapsack_(knapsack), tracker_(tracker), share_(&share),
          max_patterns_(max_patterns) {}

    /// Whether the cover remembers the states (bins left, residual demand) it proved infeasible whatever
    /// the bans, and prunes them when met again (off by default; the memo's keys take at most 32 MiB,
    /// and it is not used when a type's demand reaches 65,536).
    void remember_failures(bool on) { remember_ = on; }

    /// Counts the search's nodes on `share` from now on (instead of the one given at construction).
    void share(BudgetTracker& share) { share_ = &share; }

    /// Further integer duals (≥ 0, one per type) with the exact knapsack maximum over bins within a
    /// demand ≥ `demand`: each is a filter and a budget of its own (any dual-feasible vector is valid).
    /// Added before prepare(), they also prune the enumeration (a bin is listed only when it passes all).
    void add_duals(std::vector<std::int64_t> profit, std::int64_t knapsack) {
        extra_profit_.push_back(std::move(profit));
        extra_knapsack_.push_back(knapsack);
    }

    /// Looks for a packing into `bins` bins. found: packing() holds it; infeasible: proved impossible;
    /// unknown: the budget ran out, too many bins passed, or the duals leave too much room (G ≥ K).
    Outcome run(std::int64_t bins) {
        if (prepared_ != bins) {
            const auto early = prepare(bins);
            if (early) return *early;
        }
        prepared_ = 0;
        if (!extra_gaps(bins)) return Outcome::infeasible;
        filter();
        this->start_search(load_of_demand_);
        ban_depth_.assign(bins_.size(), 0);
        hit_depth_ = no_hit;
        nogoods_.clear();
        nogood_bytes_ = 0;
        memo_hits_ = 0;
        bool small = true;
        for (const auto d : demand_) small = small && d < 65'536;
        memo_on_ = small && remember_;
        const bool found = this->cover(bins, gap_, 0, bins_.size());
        if (found) return Outcome::found;
        return stopped_ ? Outcome::unknown : Outcome::infeasible;
    }

    /// The Farley and L1 tests and the enumeration for `bins` bins (run() does them when not done):
    /// nothing when the bins are ready for run(), else run()'s answer (infeasible or unknown).
    std::optional<Outcome> prepare(std::int64_t bins) {
        prepared_ = 0;
        if (bins <= 0 || knapsack_ <= 0) return Outcome::unknown;
        Wide pb = 0;
        std::int64_t load = 0;
        for (std::size_t j = 0; j < demand_.size(); ++j) {
            pb += static_cast<Wide>(profit_[j]) * demand_[j];
            load += weight_[j] * demand_[j];
        }
        const Wide gap = static_cast<Wide>(bins) * knapsack_ - pb;
        if (gap < 0 || static_cast<Wide>(bins) * capacity_ < load) return Outcome::infeasible;  // Farley, L1
        if (gap >= knapsack_) return Outcome::unknown;  // the Farley bound is below `bins`: no filter
        gap_ = gap;
        if (!extra_gaps(bins)) return Outcome::infeasible;
        if (!enumerate(gap)) return Outcome::unknown;
        load_of_demand_ = load;
        prepared_ = bins;
        return std::nullopt;
    }

    /// The packing found (patterns), after run() returned found.
    [[nodiscard]] std::vector<Pattern> packing() const { return this->template chosen_packing<Defer>(); }
    /// Bins enumerated (reduced cost within the gap) and exact-cover nodes of the last run.
    [[nodiscard]] std::size_t patterns() const { return bins_.size(); }
    [[nodiscard]] std::int64_t cover_nodes() const { return this->cover_nodes_; }
    [[nodiscard]] std::int64_t memo_hits() const { return memo_hits_; }
    /// Whether the last enumeration gave up because more than `max_patterns` bins passed (further
    /// duals added before the next prepare() filter the enumeration itself).
    [[nodiscard]] bool too_many() const { return too_many_; }
    /// After prepare(): the enumerated bins, their reduced costs K − p·a and the gap G they share
    /// (low_cost_cover.hpp searches them for a packing).
    [[nodiscard]] const std::vector<SparsePattern>& enumerated() const { return bins_; }
    __extension__ [[nodiscard]] const std::vector<__int128>& reduced_costs() const { return reduced_; }
    __extension__ [[nodiscard]] __int128 gap() const { return gap_; }

private:
    using typename Base::Wide;
    using Base::alive_, Base::banned_, Base::bins_, Base::budget_, Base::capacity_, Base::chosen_, Base::containing_, Base::cost_, Base::demand_, Base::monotone_,
        Base::order_, Base::reduced_, Base::residual_, Base::stopped_, Base::usable_count_, Base::waste_, Base::weight_;
    static constexpr bool has_reduced = true;
    static constexpr bool keeps_banned = true;  // the memo sees the bans that excluded a fitting bin

    bool count() {
        const bool a = tracker_.count();
        const bool b = share_->count();
        return a && b;
    }

    /// The further vectors' gaps G' = m·K' − p'·b for m = `bins` (extra_rows_, budget_); false when
    /// one is negative (their Farley bound exceeds `bins`).
    bool extra_gaps(std::int64_t bins) {
        budget_.clear();
        extra_rows_.clear();
        for (std::size_t r = 0; r < extra_profit_.size(); ++r) {
            Wide total = 0;
            for (std::size_t j = 0; j < demand_.size(); ++j) total += static_cast<Wide>(extra_profit_[r][j]) * demand_[j];
            const Wide extra_gap = static_cast<Wide>(bins) * extra_knapsack_[r] - total;
            if (extra_gap < 0) return false;
            // A budget beyond 2^62 filters nothing a bin could use up: dropped (always valid), so that
            // the budgets and the reduced costs within them are 64-bit integers.
            if (extra_gap > (Wide{1} << 62)) continue;
            extra_rows_.push_back(r);
            budget_.push_back(static_cast<std::int64_t>(extra_gap));
        }
        return true;
    }

    /// Every bin a (a ≤ demand, weight within capacity) with K − p·a ≤ gap, by a depth-first search
    /// over the types heaviest first, pruned by p·a + room × (best profit/weight ratio still to come)
    /// in 128-bit integers. False when the budget or max_patterns ran out.
    bool enumerate(Wide gap) {
        bins_.clear();
        reduced_.clear();
        waste_.clear();
        order_.resize(weight_.size());
        std::iota(order_.begin(), order_.end(), std::size_t{0});
        std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return weight_[a] > weight_[b]; });
        // best_[k]: the type of the largest profit/weight ratio among order_[k..].
        best_.assign(order_.size() + 1, order_.size());
        for (std::size_t k = order_.size(); k-- > 0;) {
            const auto j = order_[k];
            const auto r = best_[k + 1];
            best_[k] = r == order_.size() || static_cast<Wide>(profit_[j]) * weight_[r] > static_cast<Wide>(profit_[r]) * weight_[j] ? j : r;
        }
        need_ = static_cast<Wide>(knapsack_) - gap;
        order_weight_.resize(order_.size());
        for (std::size_t t = 0; t < order_.size(); ++t) order_weight_[t] = weight_[order_[t]];
        // The further vectors (extra_gaps) prune the same search: a bin must reach K' − G' under each,
        // and the suffix bound under each is monotone like the first one's.
        const std::size_t rows = extra_rows_.size(), types = order_.size();
        extra_need_.assign(rows, 0);
        extra_now_.assign(rows, 0);
        extra_best_.assign(rows * (types + 1), types);
        extra_last_ = 0;
        for (std::size_t e = 0; e < rows; ++e) {
            const auto& p = extra_profit_[extra_rows_[e]];
            extra_need_[e] = static_cast<Wide>(extra_knapsack_[extra_rows_[e]]) - budget_[e];
            std::size_t* best = &extra_best_[e * (types + 1)];
            for (std::size_t k = types; k-- > 0;) {
                const auto j = order_[k];
                const auto r = best[k + 1];
                best[k] = r == types || static_cast<Wide>(p[j]) * weight_[r] > static_cast<Wide>(p[r]) * weight_[j] ? j : r;
            }
        }
        copies_.assign(weight_.size(), 0);
        path_.clear();
        steps_ = 0;
        overflow_ = false;
        too_many_ = false;
        descend(0, capacity_, 0);
        this->index_bins();
        return !overflow_;
    }

    void descend(std::size_t k, std::int64_t room, Wide profit) {
        if (overflow_) return;
        if ((++steps_ & 255) == 0 && !count()) {
            overflow_ = true;
            return;
        }
        if (profit >= need_ && extras_reached()) {
            if (bins_.size() >= max_patterns_) {
                overflow_ = true;
                too_many_ = true;
                return;
            }
            // The types with copies, in order_: the path's positions are non-decreasing, so each
            // type's run of positions on path_ is one entry (instead of a scan over every type).
            std::size_t runs = 0;
            for (std::size_t i = 0; i < path_.size(); ++i) runs += i == 0 || path_[i] != path_[i - 1] ? 1 : 0;
            SparsePattern sparse;
            sparse.reserve(runs);  // one allocation per bin (the growth of emplace_back took two or three)
            for (std::size_t i = 0; i < path_.size(); ++i) {
                if (i == 0 || path_[i] != path_[i - 1]) sparse.emplace_back(order_[path_[i]], copies_[order_[path_[i]]]);
            }
            bins_.push_back(std::move(sparse));
            reduced_.push_back(static_cast<Wide>(knapsack_) - profit);
            waste_.push_back(room);
        }
        std::size_t passed = std::numeric_limits<std::size_t>::max();  // the last type whose bound held at this node (same profit and room)
        // The types heavier than the room left come first in order_ (heaviest first) and cannot enter:
        // the loop starts after them. Their bounds need no test: best_ and extra_best_ are suffix
        // maxima of the profit/weight ratio, so a bound that fails at a skipped position fails at every
        // later one too, and the loop returns at the first type that fits, with the same outcome.
        const auto first_fit = std::partition_point(order_weight_.begin() + static_cast<std::ptrdiff_t>(k), order_weight_.end(), [room](std::int64_t w) { return w > room; });
        for (std::size_t t = static_cast<std::size_t>(first_fit - order_weight_.begin()); t < order_.size(); ++t) {
            const auto r = best_[t];
            if (r != passed) {  // best_ is constant over long runs of t: the same r passes again
                if (r == order_.size() || static_cast<Wide>(profit) * weight_[r] + static_cast<Wide>(room) * profit_[r] < need_ * weight_[r]) return;
                passed = r;
            }
            if (!extras_reachable(t, room)) return;
            const auto j = order_[t];
            if (weight_[j] > room || copies_[j] >= demand_[j]) continue;
            ++copies_[j];
            path_.push_back(t);
            for (std::size_t e = 0; e < extra_now_.size(); ++e) extra_now_[e] += extra_profit_[extra_rows_[e]][j];
            descend(copies_[j] < demand_[j] ? t : t + 1, room - weight_[j], profit + profit_[j]);
            for (std::size_t e = 0; e < extra_now_.size(); ++e) extra_now_[e] -= extra_profit_[extra_rows_[e]][j];
            path_.pop_back();
            --copies_[j];
        }
    }

    /// Whether the bin being built reaches K' − G' under every further vector.
    [[nodiscard]] bool extras_reached() const {
        for (std::size_t e = 0; e < extra_now_.size(); ++e) {
            if (extra_now_[e] < extra_need_[e]) return false;
        }
        return true;
    }
    /// Whether, with `room` left and the types from order_[t] on, it still can under every one (the one
    /// that failed last is tested first).
    [[nodiscard]] bool extras_reachable(std::size_t t, std::int64_t room) {
        const std::size_t rows = extra_now_.size(), types = order_.size();
        for (std::size_t i = 0; i < rows; ++i) {
            const std::size_t e = i == 0 ? extra_last_ : (i <= extra_last_ ? i - 1 : i);
            if (e >= rows) continue;
            const auto r = extra_best_[e * (types + 1) + t];
            if (r == types || extra_now_[e] * weight_[r] + static_cast<Wide>(room) * extra_profit_[extra_rows_[e]][r] < extra_need_[e] * weight_[r]) {
                extra_last_ = e;
                return false;
            }
        }
        return true;
    }

    /// Drops the bins another dual vector's gap excludes, and keeps their reduced costs under each.
    void filter() {
        const std::size_t rows = budget_.size();
        std::vector<SparsePattern> patterns;
        std::vector<Wide> reduced;
        std::vector<std::int64_t> waste;
        cost_.clear();
        std::vector<std::int64_t> costs(rows);
        monotone_ = true;
        for (std::size_t q = 0; q < bins_.size(); ++q) {
            bool keep = true;
            for (std::size_t r = 0; r < rows && keep; ++r) {
                const auto row = extra_rows_[r];
                Wide value = 0;
                for (const auto& [j, c] : bins_[q]) value += static_cast<Wide>(extra_profit_[row][j]) * c;
                const Wide cost = static_cast<Wide>(extra_knapsack_[row]) - value;  // ≥ 0: K' bounds the bin
                keep = cost <= budget_[r];
                costs[r] = keep ? static_cast<std::int64_t>(cost) : 0;
                if (cost < 0) monotone_ = false;  // (not expected; then every node tests every bin)
            }
            if (!keep) continue;
            if (reduced_[q] < 0) monotone_ = false;
            patterns.push_back(std::move(bins_[q]));
            reduced.push_back(reduced_[q]);
            waste.push_back(waste_[q]);
            cost_.insert(cost_.end(), costs.begin(), costs.end());
        }
        bins_ = std::move(patterns);
        reduced_ = std::move(reduced);
        waste_ = std::move(waste);
        this->index_bins();
        // Per bin, the first position in order_ of the types it holds: the branching's scan of the types
        // reaches the bin there.
        std::vector<std::size_t> position(weight_.size());
        for (std::size_t t = 0; t < order_.size(); ++t) position[order_[t]] = t;
        first_position_.assign(bins_.size(), order_.size());
        for (std::size_t q = 0; q < bins_.size(); ++q) {
            for (const auto& [j, c] : bins_[q]) first_position_[q] = std::min(first_position_[q], position[j]);
        }
    }

    /// A node past the budget tests, with the memo (remember_failures): a state that failed with no
    /// inherited ban mattering below it (hit_depth_: the least depth of a ban that excluded a bin
    /// otherwise usable) is recorded and pruned when met again: its budgets are left·K − p·residual
    /// under every vector, and its waste left·c − load, functions of (left, residual) alone.
    bool visit(std::int64_t left, Wide budget, std::int64_t waste, std::size_t from, std::size_t to) {
        // The key is built in one reused buffer (no allocation per node), and again after expand()
        // (which leaves the state as it found it when it fails) for the few states recorded.
        const bool memo = memo_on_;
        if (memo) {
            state_key(left, key_);
            if (nogoods_.count(key_) != 0) {
                ++memo_hits_;
                return false;
            }
        }
        const auto depth = static_cast<std::int64_t>(chosen_.size());
        const auto outer_hit = hit_depth_;
        hit_depth_ = no_hit;
        const bool found = this->expand(left, budget, waste, from, to);
        if (!found && !stopped_ && hit_depth_ >= depth && memo && nogood_bytes_ + key_bytes() <= max_nogood_bytes) {
            state_key(left, key_);
            nogood_bytes_ += key_.size();
            nogoods_.insert(key_);
        }
        hit_depth_ = std::min(outer_hit, hit_depth_);
        return found;
    }

    /// (left, residual) as bytes (left, then 16 bits per type).
    void state_key(std::int64_t left, std::string& key) const {
        key.resize(key_bytes());
        std::memcpy(key.data(), &left, sizeof(left));
        for (std::size_t j = 0; j < residual_.size(); ++j) {
            const auto v = static_cast<std::uint16_t>(residual_[j]);
            std::memcpy(key.data() + sizeof(left) + 2 * j, &v, 2);
        }
    }
    [[nodiscard]] std::size_t key_bytes() const { return sizeof(std::int64_t) + 2 * residual_.size(); }

    /// With the memo, a bin that fits but for its ban, among those the branching's scan reached (a bin
    /// holds only types with residual demand, so it is reached at its first type), makes the subtree's
    /// failure depend on the ban (hit_depth_).
    void on_banned_reached(std::size_t q, std::size_t reached) {
        if (memo_on_ && first_position_[q] <= reached) hit_depth_ = std::min(hit_depth_, ban_depth_[q]);
    }
    void on_ban(std::size_t q) { ban_depth_[q] = static_cast<std::int64_t>(chosen_.size()); }

    /// The children: the unbanned bins holding the branching type, in alive_'s order (ascending).
    void order_children(std::size_t branch, std::size_t, std::size_t begin, std::size_t end, std::vector<std::size_t>& out) const {
        for (std::size_t k = begin; k < end; ++k) {
            const auto q = alive_[k];
            if (banned_[q] == 0 && this->holds(q, branch)) out.push_back(q);
        }
    }

    std::vector<std::int64_t> profit_;
    std::int64_t knapsack_ = 0;
    BudgetTracker& tracker_;
    BudgetTracker* share_;
    std::size_t max_patterns_ = 0;
    // Enumeration.
    std::vector<std::size_t> best_;  // (order_, the types heaviest first, is also the branching's)
    std::vector<std::int64_t> order_weight_;  // the weights in order_ (non-increasing)
    std::vector<std::int64_t> copies_;
    std::vector<std::size_t> path_;  // positions in order_ of the items in the bin being built, in order
    Wide need_ = 0;
    std::int64_t steps_ = 0;
    bool overflow_ = false;
    bool too_many_ = false;  // the enumeration gave up at max_patterns
    std::int64_t prepared_ = 0;  // the bins the enumeration was made for (0: none)
    Wide gap_ = 0;
    std::int64_t load_of_demand_ = 0;
    // Further dual vectors: profits, knapsack maxima (budgets left and reduced costs: budget_, cost_).
    std::vector<std::vector<std::int64_t>> extra_profit_;
    std::vector<std::int64_t> extra_knapsack_;
    std::vector<std::size_t> extra_rows_;                 // the further vectors in use (budget within 2^62)
    std::vector<Wide> extra_need_, extra_now_;  // enumeration: K' − G' and p'·a so far, per vector in use
    std::vector<std::size_t> extra_best_;        // per vector in use, best_ under its profits
    std::size_t extra_last_ = 0;
    std::vector<std::size_t> first_position_;  // per bin, the first position in order_ of its types
    // The memo.
    std::vector<std::int64_t> ban_depth_;  // per banned bin, the depth (bins chosen) of the node that banned it
    static constexpr std::int64_t no_hit = std::numeric_limits<std::int64_t>::max();
    std::int64_t hit_depth_ = no_hit;       // the least ban depth a ban mattered at, in the current subtree
    static constexpr std::size_t max_nogood_bytes = std::size_t{32} << 20;  // keys' bytes (about 100,000 states of 160 types)
    std::size_t nogood_bytes_ = 0;
    std::unordered_set<std::string> nogoods_;
    std::string key_;  // state_key()'s buffer
    bool remember_ = false;  // remember_failures()
    bool memo_on_ = false;
    std::int64_t memo_hits_ = 0;
};
using ReducedCostProof = BasicReducedCostProof<>;

}  // namespace continuum::packing::detail
