// Internal: bin completion under a waste budget (Korf, "A new algorithm for optimal bin packing",
// AAAI-02; Schreiber & Korf, IJCAI-13) for 1-D items: is there a packing into `target` bins? The
// total waste allowed is W = target × capacity − Σ sizes. Depth first, each level takes the largest
// remaining item and tries the maximal completions of its bin (subsets of the remaining items that
// leave no room for another remaining item) whose waste fits what is left of W, least waste first.
// It is the primal heuristic for perfect or near-perfect packings (Falkenauer's triplets, where
// W = 0 and every bin is an exact triple), where FFD, MBS' and LP diving end one bin above the
// optimum. Branches on the item with the fewest completions among the largest remaining sizes
// (fail first; none means a dead end). Restarts with slowly growing node caps and shuffled ties
// (the search time is heavy-tailed); a run that finishes within its caps
// without truncating any completion list proves that `target` bins are not enough.
#pragma once

#include <continuum/core/budget.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <random>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicBinCompletion {
public:
    /// Item types: `weight` strictly decreasing, `demand` >= 1 copies each, all weights <= capacity.
    BasicBinCompletion(std::vector<std::int64_t> weight, std::vector<std::int64_t> demand, std::int64_t capacity)
        : weight_(std::move(weight)), demand_(std::move(demand)), capacity_(capacity) {}

    enum class Outcome { found, infeasible, unknown };

    /// Searches for a packing into at most `target` bins, with `restarts` runs of growing node caps
    /// starting at `first_cap`; every node is counted on `outer` and `inner` (the caller's budget
    /// and a sub-budget). `found`: bins() holds the packing as type lists; `infeasible`: a complete
    /// run proved that `target` bins do not suffice.
    Outcome run(std::int64_t target, std::int64_t first_cap, int restarts, BudgetTracker& outer, BudgetTracker& inner) {
        outer_ = &outer;
        inner_ = &inner;
        std::int64_t total = 0;
        for (std::size_t t = 0; t < weight_.size(); ++t) total += weight_[t] * demand_[t];
        if (target <= 0) return total == 0 ? Outcome::found : Outcome::infeasible;
        __extension__ using Wide = __int128;
        const Wide room = static_cast<Wide>(target) * capacity_ - total;
        if (room < 0) return Outcome::infeasible;
        std::int64_t cap = first_cap;
        for (int attempt = 0; attempt < restarts; ++attempt) {
            left_ = demand_;
            bins_.clear();
            truncated_ = false;
            aborted_ = false;
            nodes_ = 0;
            cap_ = cap;
            rng_.seed(0x5eed + static_cast<std::uint64_t>(attempt));
            shuffle_ = attempt > 0;
            const bool ok = descend(static_cast<std::int64_t>(room), target);
            if (ok) return Outcome::found;
            if (!aborted_ && !truncated_) return Outcome::infeasible;
            if (outer.exhausted() || inner.exhausted()) break;
            cap = cap > (std::int64_t{1} << 40) ? cap : cap + std::max<std::int64_t>(1, cap / 20);  // many short runs: the search time is heavy-tailed
        }
        return Outcome::unknown;
    }

    /// The packing found: one list of item types per bin.
    [[nodiscard]] const std::vector<std::vector<std::size_t>>& bins() const { return bins_; }

private:
    static constexpr std::size_t max_completions = 4096;  // per node; more means the run is incomplete
    static constexpr std::int64_t max_enumeration = 50000;  // enumeration steps per list
    static constexpr std::size_t candidates = 32;             // sizes considered for branching
    static constexpr std::size_t few = 64;                    // fail first only among short lists

    struct Completion {
        std::int64_t waste;
        std::uint64_t tie;
        std::size_t begin, end;  // its item types: pool[begin, end)
    };
    /// Completions of one bin, their types stored contiguously (no allocation per completion).
    struct List {
        std::vector<Completion> items;
        std::vector<std::size_t> pool;
        [[nodiscard]] std::size_t size() const { return items.size(); }
    };

    bool descend(std::int64_t waste_left, std::int64_t bins_left) {
        std::size_t first = 0;
        while (first < weight_.size() && left_[first] == 0) ++first;
        if (first == weight_.size()) return true;
        if (bins_left <= 0) return false;
        if (++nodes_ > cap_ || !outer_->count() || !inner_->count()) {
            aborted_ = true;
            return false;
        }
        prepare(first);
        // Per-depth buffers (a deque keeps references valid while deeper levels add theirs).
        const std::size_t depth = bins_.size();
        while (lists_.size() < 2 * depth + 2) lists_.emplace_back();
        List* best = &lists_[2 * depth];
        List* scratch = &lists_[2 * depth + 1];
        // Fail first: of the few largest remaining sizes, branch on the one with the fewest
        // completions (none: dead end). Any item's bin may be branched on; the largest ones have
        // the fewest completions.
        std::size_t j = weight_.size();
        std::size_t tried = 0;
        for (std::size_t t = first; t < weight_.size() && tried < candidates && (tried == 0 || best->size() < few); ++t) {
            if (left_[t] == 0) continue;
            ++tried;
            --left_[t];
            enumerate(first, capacity_ - weight_[t], waste_left, j == weight_.size() ? max_completions : best->size(), *scratch);
            ++left_[t];
            if (j == weight_.size() || scratch->size() < best->size()) {
                j = t;
                std::swap(best, scratch);
            }
            if (aborted_) return false;
            if (best->size() == 0) return false;
        }
        const auto& pool = best->pool;
        std::sort(best->items.begin(), best->items.end(), [&pool](const Completion& a, const Completion& b) {
            if (a.waste != b.waste) return a.waste < b.waste;
            if (a.tie != b.tie) return a.tie < b.tie;
            // larger items (smaller type index) first
            return std::lexicographical_compare(pool.begin() + static_cast<std::ptrdiff_t>(a.begin), pool.begin() + static_cast<std::ptrdiff_t>(a.end),
                                                pool.begin() + static_cast<std::ptrdiff_t>(b.begin), pool.begin() + static_cast<std::ptrdiff_t>(b.end));
        });
        --left_[j];
        for (std::size_t k = 0; k < best->size(); ++k) {
            const Completion c = best->items[k];
            std::vector<std::size_t> bin(best->pool.begin() + static_cast<std::ptrdiff_t>(c.begin), best->pool.begin() + static_cast<std::ptrdiff_t>(c.end));
            for (const auto t : bin) --left_[t];
            bin.push_back(j);
            bins_.push_back(std::move(bin));
            if (descend(waste_left - c.waste, bins_left - 1)) return true;
            bins_.pop_back();
            for (std::size_t q = c.begin; q < c.end; ++q) ++left_[best->pool[q]];
            if (aborted_) break;
        }
        ++left_[j];
        return false;
    }

    /// Per node: suffix_[t] = Σ_{u >= t} left_u × w_u (what the remaining items could add at most)
    /// and the smallest remaining size. The branching item's own copy is still counted, which only
    /// weakens the pruning.
    void prepare(std::size_t from) {
        const std::size_t m = weight_.size();
        suffix_.assign(m + 1, 0);
        for (std::size_t t = m; t-- > from;) suffix_[t] = suffix_[t + 1] + left_[t] * weight_[t];
        smallest_ = m;
        for (std::size_t t = m; t-- > from;) {
            if (left_[t] > 0) {
                smallest_ = t;
                break;
            }
        }
    }

    /// Maximal completions of a bin with `room` left by types >= `from`, waste <= `waste_left`,
    /// into `out` (unsorted). Stops quietly at `limit` completions (a list that long will not be
    /// used) below max_completions.
    void enumerate(std::size_t from, std::int64_t room, std::int64_t waste_left, std::size_t limit, List& out) {
        out.items.clear();
        out.pool.clear();
        current_.clear();
        steps_ = 0;
        limit_ = limit;
        collect(from, room, waste_left, out);
    }

    void collect(std::size_t t, std::int64_t room, std::int64_t waste_left, List& out) {
        if (out.size() >= limit_ && limit_ < max_completions) return;
        if (aborted_) return;
        if (out.size() >= max_completions || ++steps_ > max_enumeration) {
            truncated_ = true;
            return;
        }
        // Unreachable: even every remaining item from t on leaves too much waste.
        if (room - suffix_[t] > waste_left && room > waste_left) return;
        const std::size_t m = weight_.size();
        // The completion as it stands: maximal when no remaining unused item fits the room.
        if (room <= waste_left) {
            bool maximal = true;
            if (smallest_ < m) {
                const std::size_t s = smallest_;
                std::int64_t used = 0;
                for (const auto u : current_) used += u == s ? 1 : 0;
                if (left_[s] - used > 0 && weight_[s] <= room) maximal = false;
            }
            if (maximal) {
                const std::size_t begin = out.pool.size();
                out.pool.insert(out.pool.end(), current_.begin(), current_.end());
                out.items.push_back({room, shuffle_ ? rng_() : 0, begin, out.pool.size()});
                if (out.size() >= limit_ && limit_ < max_completions) return;
                if (out.size() >= max_completions) {
                    truncated_ = true;
                    return;
                }
            }
        }
        // Types are by decreasing weight: start at the first one that fits the room.
        const auto fitting = static_cast<std::size_t>(std::partition_point(weight_.begin() + static_cast<std::ptrdiff_t>(t), weight_.end(), [&](std::int64_t w) { return w > room; }) - weight_.begin());
        // At most `more` further items fit (each is at least the smallest remaining size), each no
        // larger than weight_[u]: once more × weight_[u] cannot reach the waste limit, stop.
        const std::int64_t more = smallest_ < m ? room / weight_[smallest_] : 0;
        __extension__ using Wide = __int128;
        for (std::size_t u = fitting; u < m; ++u) {
            if (static_cast<Wide>(more) * weight_[u] < room - waste_left) break;
            // Enumeration work counts on the budgets too (one node per 256 steps).
            if ((++steps_ & 255) == 0 && (!outer_->count() || !inner_->count())) {
                aborted_ = true;
                return;
            }
            if (steps_ > max_enumeration) {
                truncated_ = true;
                return;
            }
            if (left_[u] == 0) continue;
            std::int64_t used = 0;
            for (auto it = current_.rbegin(); it != current_.rend() && *it == u; ++it) ++used;
            if (used >= left_[u]) continue;
            current_.push_back(u);
            // Next items: the same type again (if copies remain) or smaller ones.
            collect(u, room - weight_[u], waste_left, out);
            current_.pop_back();
            if (out.size() >= std::min(limit_, max_completions)) return;
            if (steps_ > max_enumeration || aborted_) return;
        }
    }

    std::vector<std::int64_t> weight_;
    std::vector<std::int64_t> demand_;
    std::int64_t capacity_;
    std::vector<std::int64_t> left_;
    std::vector<std::vector<std::size_t>> bins_;
    std::vector<std::int64_t> suffix_;
    std::vector<std::size_t> current_;
    std::deque<List> lists_;
    std::size_t smallest_ = 0;
    std::int64_t steps_ = 0;
    std::size_t limit_ = 0;
    std::int64_t nodes_ = 0;
    std::int64_t cap_ = 0;
    bool truncated_ = false;
    bool aborted_ = false;
    bool shuffle_ = false;
    std::mt19937_64 rng_;
    BudgetTracker* outer_ = nullptr;
    BudgetTracker* inner_ = nullptr;
};
using BinCompletion = BasicBinCompletion<>;

}  // namespace continuum::packing::detail
