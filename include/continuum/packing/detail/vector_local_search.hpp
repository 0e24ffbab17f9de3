// Internal: the consistent-neighbourhood local search for vector bin packing (Buljubasic & Vasquez
// 2016 treat the 2-D vector case the same way). To go from k to k − 1 bins it keeps k − 2 feasible
// bins plus a set U of unassigned items (two emptied bins), swaps up to two items of a bin for up to
// two of U when the bin stays within capacity in every dimension and U gets lighter (weight = sum of
// the sizes normalised by the capacity), with tabu (item, bin) pairs, a descent on Σ (load/capacity)²
// when no swap helps, and random kicks; it succeeds when U fits one bin. Seeded; one node per bin scanned.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/local_search.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
class BasicVectorNeighbourhoodSearch {
public:
    BasicVectorNeighbourhoodSearch(const DenseItems& items, std::span<const std::int64_t> capacity) : items_(items), capacity_(capacity.begin(), capacity.end()) {
        weight_.assign(items.n, 0.0);
        for (std::size_t i = 0; i < items.n; ++i) {
            for (std::size_t k = 0; k < items.d; ++k) weight_[i] += static_cast<double>(items.row(i)[k]) / static_cast<double>(capacity_[k]);
        }
    }

    /// As ConsistentNeighbourhoodSearch::improve: towards `target` bins within both trackers; true
    /// when `bins` (a valid packing) now has fewer bins.
    bool improve(std::vector<std::vector<std::size_t>>& bins, std::int64_t target, BudgetTracker& share, BudgetTracker& whole, bool once = false) {
        trackers_ = WindowAndWhole{&share, &whole};
        return improve_by_attempts(bins, target, trackers_, once, attempt_, [&](const auto& start, int attempt, auto& next) { return reduce_once(start, attempt, next); });
    }

private:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    bool count() { return trackers_.count(); }
    bool exhausted() { return trackers_.exhausted(); }

    [[nodiscard]] const std::int64_t* row(std::size_t i) const { return items_.row(i); }
    std::int64_t* load(std::size_t b) { return load_.data() + b * items_.d; }

    void add(std::int64_t* target, std::size_t i, std::int64_t sign) const {
        for (std::size_t k = 0; k < items_.d; ++k) target[k] += sign * row(i)[k];
    }

    /// Does load − out + in fit the capacity in every dimension? (out/in: up to two items, npos = none)
    [[nodiscard]] bool fits_after(const std::int64_t* l, std::size_t o0, std::size_t o1, std::size_t i0, std::size_t i1) const {
        for (std::size_t k = 0; k < items_.d; ++k) {
            std::int64_t v = l[k];
            if (o0 != npos) v -= row(o0)[k];
            if (o1 != npos) v -= row(o1)[k];
            if (i0 != npos) v += row(i0)[k];
            if (i1 != npos) v += row(i1)[k];
            if (v > capacity_[k]) return false;
        }
        return true;
    }

    [[nodiscard]] bool fits_one_bin(const std::vector<std::size_t>& items) const {
        for (std::size_t k = 0; k < items_.d; ++k) {
            std::int64_t v = 0;
            for (const auto i : items) v += row(i)[k];
            if (v > capacity_[k]) return false;
        }
        return true;
    }

    [[nodiscard]] double weight_of(const std::vector<std::size_t>& items) const {
        double w = 0;
        for (const auto i : items) w += weight_[i];
        return w;
    }

    bool reduce_once(const std::vector<std::vector<std::size_t>>& start, int attempt, std::vector<std::vector<std::size_t>>& out) {
        if (!count()) return false;
        const std::size_t d = items_.d;
        std::vector<double> fills(start.size());
        for (std::size_t b = 0; b < start.size(); ++b) fills[b] = weight_of(start[b]);
        const auto [first, second] = bins_to_empty(fills, attempt, rng_);
        bins_.clear();
        load_.clear();
        unassigned_.clear();
        for (std::size_t b = 0; b < start.size(); ++b) {
            if (b == first || b == second) {
                unassigned_.insert(unassigned_.end(), start[b].begin(), start[b].end());
                continue;
            }
            bins_.push_back(start[b]);
            load_.resize(load_.size() + d, 0);
            for (const auto i : start[b]) add(load(bins_.size() - 1), i, +1);
        }
        tabu_.reset(items_.n);
        double u_weight = weight_of(unassigned_);
        double best_weight = u_weight;
        std::int64_t since_best = 0;
        constexpr std::int64_t stall_limit = 300;
        std::uniform_int_distribution<int> jitter(0, 9);
        for (std::int64_t iteration = 1;; ++iteration) {
            if (fits_one_bin(unassigned_)) {
                out.clear();
                for (auto& bin : bins_) {
                    if (!bin.empty()) out.push_back(std::move(bin));
                }
                if (!unassigned_.empty()) out.push_back(unassigned_);
                return true;
            }
            if (since_best > stall_limit || exhausted()) return false;
            struct Move {
                std::size_t bin = 0, a0 = npos, a1 = npos, c0 = npos, c1 = npos;  // a: positions in the bin, c: positions in U
                double gain = 0;
                std::int64_t items = 0;
                bool valid = false;
            } best;
            const std::size_t u = unassigned_.size();
            const bool pairs = u <= 16;
            for (std::size_t b = 0; b < bins_.size(); ++b) {
                if (!count()) return false;
                const auto& bin = bins_[b];
                const std::size_t k = bin.size();
                const std::int64_t* l = load(b);
                for (std::size_t x = 0; x <= k; ++x) {
                    for (std::size_t y = (x == k ? k : x + 1); y <= k; ++y) {
                        const std::size_t o0 = x < k ? bin[x] : npos, o1 = y < k ? bin[y] : npos;
                        const double out_w = (o0 != npos ? weight_[o0] : 0.0) + (o1 != npos ? weight_[o1] : 0.0);
                        const std::int64_t out_n = (o0 != npos ? 1 : 0) + (o1 != npos ? 1 : 0);
                        for (std::size_t p = 0; p < u; ++p) {
                            const std::size_t c0 = unassigned_[p];
                            if (tabu_.contains(c0, b, iteration)) continue;
                            for (std::size_t q = p; q <= (pairs ? u : p); ++q) {
                                std::size_t c1 = npos;
                                if (q > p) {
                                    if (q == u) continue;
                                    c1 = unassigned_[q];
                                    if (tabu_.contains(c1, b, iteration)) continue;
                                }
                                const double gain = weight_[c0] + (c1 != npos ? weight_[c1] : 0.0) - out_w;
                                if (gain < -1e-12 || (gain <= 1e-12 && out_n == 0)) continue;  // U must not get heavier
                                const std::int64_t items = out_n - (c1 != npos ? 2 : 1);
                                if (best.valid && (gain < best.gain || (gain == best.gain && items <= best.items))) continue;
                                if (!fits_after(l, o0, o1, c0, c1)) continue;
                                best = Move{b, x < k ? x : npos, y < k ? y : npos, p, c1 != npos ? q : npos, gain, items, true};
                            }
                        }
                    }
                }
            }
            if (!best.valid && rebalance()) {
                ++since_best;
                continue;
            }
            if (!best.valid) {
                if (bins_.empty()) return false;
                std::size_t b = 0;
                const std::size_t item = take_random_item<Defer>(bins_, rng_, b);
                if (item == npos) {
                    ++since_best;
                    continue;
                }
                add(load(b), item, -1);
                unassigned_.push_back(item);
                u_weight += weight_[item];
                tabu_.add(item, b, iteration + 10 + jitter(rng_));
                ++since_best;
                continue;
            }
            const auto [entering, leaving] = exchange<Defer>(bins_[best.bin], unassigned_, best.a0, best.a1, best.c0, best.c1);
            for (const auto i : entering) {
                add(load(best.bin), i, +1);
                u_weight -= weight_[i];
            }
            for (const auto i : leaving) {
                add(load(best.bin), i, -1);
                unassigned_.push_back(i);
                u_weight += weight_[i];
                tabu_.add(i, best.bin, iteration + 7 + jitter(rng_));
            }
            if (u_weight < best_weight - 1e-12) {
                best_weight = u_weight;
                since_best = 0;
            } else {
                ++since_best;
            }
        }
    }

    /// One best step of a descent on Σ_b Σ_k (load_bk / c_k)² over moves (one item) and one-for-one
    /// swaps between two bins, both staying within capacity: it concentrates the room left in fewer
    /// bins. True if it moved something.
    bool rebalance() {
        const std::size_t d = items_.d;
        double best_gain = 1e-12;
        std::size_t b1 = npos, b2 = npos, x1 = npos, x2 = npos;
        for (std::size_t p = 0; p < bins_.size(); ++p) {
            if (!count()) return false;
            for (std::size_t q = 0; q < bins_.size(); ++q) {
                if (p == q) continue;
                const std::int64_t* lp = load(p);
                const std::int64_t* lq = load(q);
                for (std::size_t x = 0; x < bins_[p].size(); ++x) {
                    const std::size_t ix = bins_[p][x];
                    for (std::size_t y = 0; y <= bins_[q].size(); ++y) {
                        const std::size_t iy = y < bins_[q].size() ? bins_[q][y] : npos;
                        double gain = 0;
                        bool ok = true;
                        for (std::size_t k = 0; k < d && ok; ++k) {
                            const std::int64_t delta = row(ix)[k] - (iy != npos ? row(iy)[k] : 0);  // moves from p to q
                            if (lq[k] + delta > capacity_[k] || lp[k] - delta > capacity_[k]) ok = false;
                            const double c = static_cast<double>(capacity_[k]);
                            gain += 2.0 * static_cast<double>(delta) * static_cast<double>(lq[k] - lp[k] + delta) / (c * c);
                        }
                        if (ok && gain > best_gain) {
                            best_gain = gain;
                            b1 = p;
                            b2 = q;
                            x1 = x;
                            x2 = iy != npos ? y : npos;
                        }
                    }
                }
            }
        }
        if (b1 == npos) return false;
        const std::size_t item = bins_[b1][x1];
        bins_[b1].erase(bins_[b1].begin() + static_cast<std::ptrdiff_t>(x1));
        add(load(b1), item, -1);
        if (x2 != npos) {
            const std::size_t other = bins_[b2][x2];
            bins_[b2].erase(bins_[b2].begin() + static_cast<std::ptrdiff_t>(x2));
            add(load(b2), other, -1);
            bins_[b1].push_back(other);
            add(load(b1), other, +1);
        }
        bins_[b2].push_back(item);
        add(load(b2), item, +1);
        return true;
    }

    const DenseItems& items_;
    std::vector<std::int64_t> capacity_;
    std::vector<double> weight_;  // per item: Σ_k size_k / capacity_k
    std::mt19937_64 rng_{0x5eedc0ffeeULL};
    int attempt_ = 0;
    WindowAndWhole trackers_;
    std::vector<std::vector<std::size_t>> bins_;
    std::vector<std::int64_t> load_;  // d per bin
    std::vector<std::size_t> unassigned_;
    BasicTabuPairs<Defer> tabu_;
};
using VectorNeighbourhoodSearch = BasicVectorNeighbourhoodSearch<>;

}  // namespace continuum::packing::detail
