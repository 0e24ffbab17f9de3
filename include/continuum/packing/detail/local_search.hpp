// Internal: a consistent-neighbourhood local search for 1-D bin packing, after Buljubasic &
// Vasquez, "Consistent neighborhood search for one-dimensional bin packing and two-dimensional
// vector packing" (2016). To go from k to k − 1 bins it keeps k − 2 feasible bins plus a set U of
// unassigned items (the contents of the two emptiest bins), and moves items between U and the bins
// with swaps (up to two items out of a bin for up to two items of U) so that U gets lighter; the
// attempt succeeds when U fits one bin. Tabu (item, bin) pairs forbid undoing a swap for a while;
// a run that stalls restarts from the best packing with another pair of removed bins. Seeded, so
// deterministic for a node budget; every scanned bin counts one node on the tracker.
#pragma once

#include <continuum/core/budget.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

/// The two bins an attempt empties into U: the two least filled on the first attempt, then two
/// random ones among the 2 + attempt least filled (ties: lower index first).
template <typename Fill>
std::pair<std::size_t, std::size_t> bins_to_empty(const std::vector<Fill>& fills, int attempt, std::mt19937_64& rng) {
    std::vector<std::size_t> order(fills.size());
    for (std::size_t b = 0; b < order.size(); ++b) order[b] = b;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t c) { return fills[a] < fills[c]; });
    std::size_t first = order[0], second = order[1];
    if (attempt > 0) {
        const std::size_t pool = std::min<std::size_t>(order.size(), 2 + static_cast<std::size_t>(attempt));
        std::uniform_int_distribution<std::size_t> pick(0, pool - 1);
        first = order[pick(rng)];
        do {
            second = order[pick(rng)];
        } while (second == first);
    }
    return {first, second};
}

/// The two trackers of a local search (its window and the whole budget): each scanned bin counts
/// on both.
struct WindowAndWhole {
    BudgetTracker* share = nullptr;
    BudgetTracker* whole = nullptr;
    bool count() const {
        const bool in_share = share->count();
        return whole->count() && in_share;
    }
    bool exhausted() const { return share->exhausted() || whole->exhausted(); }
};

/// Repeats `attempt(bins, attempt_number, next)` (true when `next` has fewer bins) while `bins` has
/// more than `target` bins and the trackers allow; the attempt number restarts at 0 after each
/// success. True when `bins` improved.
template <typename Attempt>
bool improve_by_attempts(std::vector<std::vector<std::size_t>>& bins, std::int64_t target, WindowAndWhole trackers, bool once, int& attempt_number, Attempt attempt) {
    bool improved = false;
    while (static_cast<std::int64_t>(bins.size()) > target && bins.size() >= 2 && !trackers.exhausted()) {
        std::vector<std::vector<std::size_t>> next;
        if (attempt(bins, attempt_number++, next)) {
            bins = std::move(next);
            improved = true;
            attempt_number = 0;
            if (once) break;
        }
    }
    return improved;
}

/// Tabu (item, bin) pairs with an expiry iteration: an item swapped out of a bin may not return soon.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicTabuPairs {
public:
    void reset(std::size_t items) { list_.assign(items, {}); }
    [[nodiscard]] bool contains(std::size_t item, std::size_t bin, std::int64_t iteration) {
        auto& list = list_[item];
        std::erase_if(list, [&](const auto& entry) { return entry.second < iteration; });
        return std::any_of(list.begin(), list.end(), [&](const auto& entry) { return entry.first == bin; });
    }
    void add(std::size_t item, std::size_t bin, std::int64_t until) { list_[item].emplace_back(bin, until); }

private:
    std::vector<std::vector<std::pair<std::size_t, std::int64_t>>> list_;
};
using TabuPairs = BasicTabuPairs<>;

/// Takes a random item out of a random bin (the kick when no swap helps); npos when the chosen bin
/// is empty. `bin` receives the bin drawn.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
std::size_t take_random_item(std::vector<std::vector<std::size_t>>& bins, std::mt19937_64& rng, std::size_t& bin) {
    std::uniform_int_distribution<std::size_t> pick_bin(0, bins.size() - 1);
    bin = pick_bin(rng);
    if (bins[bin].empty()) return static_cast<std::size_t>(-1);
    std::uniform_int_distribution<std::size_t> pick_item(0, bins[bin].size() - 1);
    const std::size_t pos = pick_item(rng);
    const std::size_t item = bins[bin][pos];
    bins[bin].erase(bins[bin].begin() + static_cast<std::ptrdiff_t>(pos));
    return item;
}

/// Exchanges items between a bin and U: positions a0 < a1 of `bin` (npos: none) leave it, positions
/// c0 < c1 of `unassigned` (c1 npos: one item) enter it. Returns {entering, leaving}; the caller
/// moves the leaving items to U and updates loads and weights.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
std::pair<std::vector<std::size_t>, std::vector<std::size_t>> exchange(std::vector<std::size_t>& bin, std::vector<std::size_t>& unassigned, std::size_t a0,
                                                                              std::size_t a1, std::size_t c0, std::size_t c1) {
    constexpr auto none = static_cast<std::size_t>(-1);
    std::vector<std::size_t> leaving, entering;
    if (a1 != none) leaving.push_back(bin[a1]);
    if (a0 != none) leaving.push_back(bin[a0]);
    if (c1 != none) entering.push_back(unassigned[c1]);
    entering.push_back(unassigned[c0]);
    if (a1 != none) bin.erase(bin.begin() + static_cast<std::ptrdiff_t>(a1));
    if (a0 != none) bin.erase(bin.begin() + static_cast<std::ptrdiff_t>(a0));
    if (c1 != none) unassigned.erase(unassigned.begin() + static_cast<std::ptrdiff_t>(c1));
    unassigned.erase(unassigned.begin() + static_cast<std::ptrdiff_t>(c0));
    bin.insert(bin.end(), entering.begin(), entering.end());
    return {std::move(entering), std::move(leaving)};
}

template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicConsistentNeighbourhoodSearch {
public:
    BasicConsistentNeighbourhoodSearch(const std::vector<std::int64_t>& sizes, std::int64_t capacity) : sizes_(sizes), capacity_(capacity) {}

    /// Improves `bins` (indices into sizes, a valid packing) towards `target` bins within both
    /// trackers (a share and the whole budget; each scanned bin counts a node on both), and stops
    /// after the first improvement when `once`. Returns true when it found a packing with fewer
    /// bins (then in `bins`).
    bool improve(std::vector<std::vector<std::size_t>>& bins, std::int64_t target, BudgetTracker& share, BudgetTracker& whole, bool once = false) {
        const WindowAndWhole tracker{&share, &whole};
        return improve_by_attempts(bins, target, tracker, once, attempt_, [&](const auto& start, int attempt, auto& next) { return reduce_once(start, rng_, attempt, tracker, next); });
    }

private:
    using Both = WindowAndWhole;

    [[nodiscard]] std::int64_t fill(const std::vector<std::size_t>& bin) const {
        std::int64_t s = 0;
        for (const auto i : bin) s += sizes_[i];
        return s;
    }

    /// One tabu search from `bins` with two bins emptied into U; true and `out` on success.
    bool reduce_once(const std::vector<std::vector<std::size_t>>& start, std::mt19937_64& rng, int attempt, Both tracker,
                     std::vector<std::vector<std::size_t>>& out) {
        if (!tracker.count()) return false;  // every attempt costs a node, even one with no bin left to scan
        std::vector<std::int64_t> fills(start.size());
        for (std::size_t b = 0; b < start.size(); ++b) fills[b] = fill(start[b]);
        const auto [first, second] = bins_to_empty(fills, attempt, rng);
        bins_.clear();
        load_.clear();
        unassigned_.clear();
        for (std::size_t b = 0; b < start.size(); ++b) {
            if (b == first || b == second) {
                unassigned_.insert(unassigned_.end(), start[b].begin(), start[b].end());
            } else {
                bins_.push_back(start[b]);
                load_.push_back(fills[b]);
            }
        }
        const std::size_t n = sizes_.size();
        tabu_.reset(n);
        std::int64_t u_weight = fill(unassigned_);
        std::int64_t best_weight = u_weight;
        std::int64_t since_best = 0;
        constexpr std::int64_t stall_limit = 300;  // swaps without a lighter U before a restart
        std::uniform_int_distribution<int> tenure_jitter(0, 9);
        for (std::int64_t iteration = 1;; ++iteration) {
            if (u_weight <= capacity_) {
                out.clear();
                for (auto& bin : bins_) {
                    if (!bin.empty()) out.push_back(std::move(bin));  // a descent step can empty a bin
                }
                out.push_back(unassigned_);
                return true;
            }
            if (since_best > stall_limit || tracker.exhausted()) return false;
            // Best swap: take A (|A| <= 2) out of bin b, put C (1 <= |C| <= 2) of U in, new load <= capacity.
            struct Move {
                std::size_t bin = 0;
                std::size_t a0 = npos, a1 = npos;  // positions in the bin
                std::size_t c0 = npos, c1 = npos;  // positions in U
                std::int64_t gain = 0;             // weight leaving U
                std::int64_t items = 0;            // change of |U|
                bool valid = false;
            } best;
            const auto better = [&](std::int64_t gain, std::int64_t items) {
                if (!best.valid) return true;
                if (gain != best.gain) return gain > best.gain;
                return items > best.items;
            };
            const std::size_t u = unassigned_.size();
            const bool pairs = u <= 16;  // pairs of U only while U is small (cost u² per bin)
            for (std::size_t b = 0; b < bins_.size(); ++b) {
                if (!tracker.count()) return false;
                const auto& bin = bins_[b];
                const std::size_t k = bin.size();
                const std::int64_t slack = capacity_ - load_[b];
                // Enumerate A: none, one, two items of the bin.
                for (std::size_t x = 0; x <= k; ++x) {
                    for (std::size_t y = (x == k ? k : x + 1); y <= k; ++y) {
                        if (x == k && y != k) continue;
                        const std::size_t a0 = x < k ? bin[x] : npos;
                        const std::size_t a1 = y < k ? bin[y] : npos;
                        const std::int64_t out_w = (a0 != npos ? sizes_[a0] : 0) + (a1 != npos ? sizes_[a1] : 0);
                        const std::int64_t room = slack + out_w;
                        const std::int64_t out_n = (a0 != npos ? 1 : 0) + (a1 != npos ? 1 : 0);
                        for (std::size_t p = 0; p < u; ++p) {
                            const std::size_t c0 = unassigned_[p];
                            if (sizes_[c0] > room || is_tabu(c0, b, iteration)) continue;
                            for (std::size_t q = p; q <= (pairs ? u : p); ++q) {
                                std::int64_t in_w = sizes_[c0];
                                std::size_t c1 = npos;
                                if (q > p) {
                                    if (q == u) continue;
                                    c1 = unassigned_[q];
                                    if (is_tabu(c1, b, iteration)) continue;
                                    in_w += sizes_[c1];
                                }
                                if (in_w > room) continue;
                                const std::int64_t gain = in_w - out_w;
                                if (gain < 0 || (gain == 0 && out_n == 0)) continue;
                                const std::int64_t items = out_n - (c1 != npos ? 2 : 1);
                                if (better(gain, items)) {
                                    best = Move{b, x < k ? x : npos, y < k ? y : npos, p, c1 != npos ? q : npos, gain, items, true};
                                }
                            }
                        }
                    }
                }
            }
            if (!best.valid && rebalance(tracker)) {
                ++since_best;
                continue;
            }
            if (!best.valid) {
                // Stuck: kick a random item of a random bin into U.
                if (bins_.empty()) return false;
                std::size_t b = 0;
                const std::size_t item = take_random_item<Defer>(bins_, rng, b);
                if (item == npos) {
                    ++since_best;
                    continue;
                }
                load_[b] -= sizes_[item];
                unassigned_.push_back(item);
                u_weight += sizes_[item];
                set_tabu(item, b, iteration + 10 + tenure_jitter(rng));
                ++since_best;
                continue;
            }
            // Apply the swap.
            const auto [entering, leaving] = exchange<Defer>(bins_[best.bin], unassigned_, best.a0, best.a1, best.c0, best.c1);
            for (const auto i : entering) {
                load_[best.bin] += sizes_[i];
                u_weight -= sizes_[i];
            }
            for (const auto i : leaving) {
                load_[best.bin] -= sizes_[i];
                unassigned_.push_back(i);
                u_weight += sizes_[i];
                set_tabu(i, best.bin, iteration + 7 + tenure_jitter(rng));
            }
            if (u_weight < best_weight) {
                best_weight = u_weight;
                since_best = 0;
            } else {
                ++since_best;
            }
        }
    }

    /// One best step of a descent on Σ load² over moves (one item) and swaps (one for one) between
    /// two bins: it concentrates the slack in fewer bins, which is where U's items then fit.
    /// Counts a node per bin scanned; true if it moved something.
    bool rebalance(Both tracker) {
        __extension__ using Wide = __int128;
        Wide best_gain = 0;
        std::size_t b1 = npos, b2 = npos, x1 = npos, x2 = npos;
        for (std::size_t p = 0; p < bins_.size(); ++p) {
            if (!tracker.count()) return false;
            for (std::size_t q = 0; q < bins_.size(); ++q) {
                if (p == q || load_[q] < load_[p]) continue;  // weight goes from p to the fuller q
                const std::int64_t room = capacity_ - load_[q];
                for (std::size_t x = 0; x < bins_[p].size(); ++x) {
                    const std::int64_t wx = sizes_[bins_[p][x]];
                    for (std::size_t y = 0; y <= bins_[q].size(); ++y) {
                        const std::int64_t wy = y < bins_[q].size() ? sizes_[bins_[q][y]] : 0;
                        const std::int64_t d = wx - wy;  // weight moving from p to q
                        if (d <= 0 || d > room) continue;
                        // Σ load² grows by 2·d·(load_q − load_p + d).
                        const Wide gain = static_cast<Wide>(d) * static_cast<Wide>(load_[q] - load_[p] + d);
                        if (gain > best_gain) {
                            best_gain = gain;
                            b1 = p;
                            b2 = q;
                            x1 = x;
                            x2 = y < bins_[q].size() ? y : npos;
                        }
                    }
                }
            }
        }
        if (b1 == npos) return false;
        const std::size_t item = bins_[b1][x1];
        bins_[b1].erase(bins_[b1].begin() + static_cast<std::ptrdiff_t>(x1));
        load_[b1] -= sizes_[item];
        if (x2 != npos) {
            const std::size_t other = bins_[b2][x2];
            bins_[b2].erase(bins_[b2].begin() + static_cast<std::ptrdiff_t>(x2));
            load_[b2] -= sizes_[other];
            bins_[b1].push_back(other);
            load_[b1] += sizes_[other];
        }
        bins_[b2].push_back(item);
        load_[b2] += sizes_[item];
        return true;
    }

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    [[nodiscard]] bool is_tabu(std::size_t item, std::size_t bin, std::int64_t iteration) { return tabu_.contains(item, bin, iteration); }
    void set_tabu(std::size_t item, std::size_t bin, std::int64_t until) { tabu_.add(item, bin, until); }

    const std::vector<std::int64_t>& sizes_;
    std::int64_t capacity_;
    std::mt19937_64 rng_{0x5eedc0ffeeULL};  // kept across calls: a second call goes on from the first
    int attempt_ = 0;
    std::vector<std::vector<std::size_t>> bins_;
    std::vector<std::int64_t> load_;
    std::vector<std::size_t> unassigned_;
    BasicTabuPairs<Defer> tabu_;
};
using ConsistentNeighbourhoodSearch = BasicConsistentNeighbourhoodSearch<>;

}  // namespace continuum::packing::detail
