// Exact bin packing within a budget: the minimum number of identical bins for 1-D or vector items.
// The model is seed 004's assignment ILP (min Σ_j y_j s.t. Σ_j x_ij = 1, Σ_i w_i x_ij <= c·y_j,
// x, y binary); continuum solves it without an external solver: FFD/BFD upper bounds, L2 and the
// Gilmore–Gomory column generation LP bound (Eigen simplex, knapsack pricing), MBS', SVC, a
// consistent neighbourhood search (1-D and vector, Buljubasic & Vasquez) and LP-guided diving (in
// 1-D with limited discrepancy search) for primal solutions, bin completion (alone, and bounded by
// the LP of the residual), a proof by reduced-cost enumeration and a Ryan–Foster branch-and-price
// (1-D), and a complete branch and bound for what remains. Always returns a valid packing no worse
// than FFD, with a proved lower bound, `optimal` and the gap.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/packing/detail/assignment_search.hpp>
#include <continuum/packing/detail/bin_completion.hpp>
#include <continuum/packing/detail/column_generation.hpp>
#include <continuum/packing/detail/completion_search.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/lds_dive.hpp>
#include <continuum/packing/detail/local_search.hpp>
#include <continuum/packing/detail/low_cost_cover.hpp>
#include <continuum/packing/detail/multi_dual_cover.hpp>
#include <continuum/packing/detail/reduced_cost_proof.hpp>
#include <continuum/packing/detail/ryan_foster.hpp>
#include <continuum/packing/detail/vector_local_search.hpp>
#include <continuum/packing/detail/vector_phase.hpp>
#include <continuum/packing/lower_bounds.hpp>
#include <continuum/packing/model.hpp>
#include <continuum/packing/one_dimensional.hpp>
#include <continuum/packing/vector_heuristics.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace continuum::packing {

/// Result of solve_exact: the best packing found, a proved lower bound on the optimum (over the
/// items that fit an empty bin), whether the packing is proved optimal, the relative gap
/// (num_bins − lower_bound) / num_bins (0 when optimal or empty) and the search nodes used.
struct ExactPacking {
    std::vector<std::vector<std::size_t>> bins;  ///< item indices per bin
    std::vector<std::size_t> unplaced;           ///< items larger than an empty bin
    std::int64_t lower_bound = 0;
    bool optimal = false;
    double gap = 0;
    std::int64_t nodes = 0;  ///< explored nodes: simplex pricing rounds, dives and search nodes
    [[nodiscard]] std::size_t num_bins() const { return bins.size(); }
};

namespace detail {

/// `share` (in (0, 1]) of `budget`: its node limit (at least 1) and time limit scaled, for one step
/// of the pipeline (the step's sub-budget; the whole call's tracker still bounds it too).
inline Budget budget_share(const Budget& budget, double share) {
    Budget part;
    part.node_limit = std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<double>(budget.node_limit) * share));
    if (budget.time_limit) part.time_limit = std::chrono::duration_cast<Duration>(*budget.time_limit * share);
    return part;
}

inline void finish(ExactPacking& out) {
    const auto n = static_cast<std::int64_t>(out.bins.size());
    out.lower_bound = std::min(out.lower_bound, n);
    out.optimal = out.lower_bound >= n;
    out.gap = n > 0 ? static_cast<double>(n - out.lower_bound) / static_cast<double>(n) : 0.0;
}

/// A packing found by a cover of whole bins (the reduced-cost proof, the multi-dual and low-cost covers):
/// its bins recorded in the master's pool, and the master's incumbent taken when it has fewer bins.
template <typename Master, typename Patterns>
void adopt_packing(Master& master, const Patterns& packing, ExactPacking& out) {
    master.record_patterns(packing);
    auto bins = master.incumbent();
    if (!bins.empty() && bins.size() < out.bins.size()) out.bins = std::move(bins);
}

/// `budget` with its node limit (at least 1) and time limit scaled by `scale` (in (0, 1]): the budget a
/// pipeline step's shares are taken of when the steps before it left less than they were meant to.
inline Budget scaled_budget(const Budget& budget, double scale) {
    return scale >= 1 ? budget : budget_share(budget, scale);
}

/// Bin completion under a waste budget (1-D): looks for a packing into `out.lower_bound` bins
/// with the given share of the budget (nodes and time); a complete failed run raises the lower bound by one
/// and the search continues with the next target.
template <typename Defer = void>  // compiled only where called, as the classes it uses
void complete_bins(const DenseItems& items, std::int64_t capacity, const std::vector<std::size_t>& placeable, ExactPacking& out, const Budget& budget,
                          BudgetTracker& tracker, double time_share, std::int64_t first_cap, int restarts) {
    std::vector<std::size_t> by_size = placeable;
    std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t a, std::size_t b) { return items.sizes[a] > items.sizes[b]; });
    std::vector<std::int64_t> weight, demand;
    std::vector<std::vector<std::size_t>> members;
    for (const auto i : by_size) {
        if (weight.empty() || weight.back() != items.sizes[i]) {
            weight.push_back(items.sizes[i]);
            demand.push_back(0);
            members.emplace_back();
        }
        ++demand.back();
        members.back().push_back(i);
    }
    BudgetTracker inner(budget_share(budget, time_share));
    continuum::detail::deferred_t<BinCompletion, Defer> search(weight, demand, capacity);
    while (!out.optimal && !tracker.exhausted() && !inner.exhausted()) {
        const auto outcome = search.run(out.lower_bound, first_cap, restarts, tracker, inner);
        if (outcome == BinCompletion::Outcome::found) {
            std::vector<std::size_t> next(members.size(), 0);
            std::vector<std::vector<std::size_t>> bins;
            for (const auto& types : search.bins()) {
                bins.emplace_back();
                for (const auto t : types) bins.back().push_back(members[t][next[t]++]);
            }
            if (bins.size() < out.bins.size()) out.bins = std::move(bins);
        } else if (outcome == BinCompletion::Outcome::infeasible) {
            ++out.lower_bound;
        } else {
            break;
        }
        finish(out);
        if (outcome == BinCompletion::Outcome::found) break;
    }
}

/// 1-D under a deadline: a neighbourhood search window's node limit, per second of the deadline and per
/// unit of the window's share (so 150,000 nodes for a 10 % window of a 1 s deadline). The windows'
/// nodes (one scanned bin) are ~50x cheaper than the LP steps' (Hard28: ~4.5 million a second against
/// ~70,000 to 400,000; Scholl 2 and 3: ~1.5 million), so a window limited by its share of the time alone
/// took what node budgets give the proof and the dive: 100 ms of 1 s (450,000 nodes on BPP359, where
/// 200,000 nodes give it 20,000 and prove the instance in 0.47 s), and the proof then ran out 20 ms short
/// (session 19). 1.5 million keeps the windows that close Scholl 3 HARD2 and HARD9 (50,000-70,000 nodes)
/// and Scholl 2 N4W1B3R8 (118,301 nodes in its first window; 1 million lost it at 1 s), all more than a
/// 200,000-node budget's windows get.
inline constexpr double window_nodes_per_second = 1.5e6;
/// ... but never fewer than the window's share of this many (the node budget the 1-D shares were tuned
/// at): on short deadlines the windows keep their share of the time (Scholl 2 at 30 ms: 10 instances
/// that a window closes within its 3 ms needed more than 3,000 nodes).
inline constexpr double window_nodes_floor = 200'000;

/// The budget of one neighbourhood search window: `share` of `budget` (nodes and time), and in 1-D with
/// a deadline at most the share of window_nodes_per_second nodes per second of it (or of
/// window_nodes_floor, when more).
inline Budget window_budget(const Budget& budget, double share, std::size_t dimensions) {
    Budget part = budget_share(budget, share);
    if (dimensions == 1 && budget.time_limit) {
        const double cap = std::max(window_nodes_per_second * std::chrono::duration<double>(*budget.time_limit).count(), window_nodes_floor) * share;
        part.node_limit = std::clamp<std::int64_t>(static_cast<std::int64_t>(cap), 1, part.node_limit);
    }
    return part;
}

/// 1-D under a deadline: the node budget the steps' shares are planned in, per second of the deadline.
inline constexpr double planned_nodes_per_second = 200'000;

/// The budget the 1-D steps' shares are taken of: `budget` itself without a deadline; with one, nodes
/// only: planned_nodes_per_second per second of it (at most the node limit), the deadline then
/// bounding the call as a whole.
inline Budget planning_budget(const Budget& budget) {
    if (!budget.time_limit) return budget;
    Budget plan;
    const double nodes = planned_nodes_per_second * std::chrono::duration<double>(*budget.time_limit).count();
    plan.node_limit = std::clamp<std::int64_t>(static_cast<std::int64_t>(nodes), 1, budget.node_limit);
    return plan;
}

/// Consistent neighbourhood search (1-D or vector) from `out.bins` towards `out.lower_bound` bins: windows
/// of `part` (window_budget; also bounded by `tracker`), a new window after each bin saved, at most
/// `windows`. True when it improved.
template <typename Search>
bool local_search(Search& search, ExactPacking& out, const Budget& part, BudgetTracker& tracker, int windows) {
    bool improved = false;
    for (int window = 0; window < windows && !out.optimal && !tracker.exhausted(); ++window) {
        BudgetTracker inner(part);
        auto bins = out.bins;
        if (!search.improve(bins, out.lower_bound, inner, tracker, true) || bins.size() >= out.bins.size()) break;
        out.bins = std::move(bins);
        improved = true;
        finish(out);
    }
    return improved;
}

/// Share of the budget (nodes and time) for the LP-bounded bin completion after the dive.
inline constexpr double completion_search_share = 0.4;
/// Share of the budget for the LP diving (1-D), which would otherwise take all that is left: 0.3 of
/// 200,000 nodes closed 31 of the 45 held-out instances, unbounded 29, 0.15 30.
inline constexpr double dive_share = 0.3;
/// ... but never fewer nodes than this (nor less time than this share of the deadline at the node
/// rate measured so far): with small budgets the dive is what finds the packings, and the 30 %
/// cap had halved the Hard28 instances proved at 60,000 nodes.
inline constexpr std::int64_t dive_floor_nodes = 60'000;
/// Whether a step on `share` of the budget's nodes still leaves the dive's floor beside it (the 1-D
/// steps after the root LP run only then, so that small budgets keep the dive's results).
inline bool leaves_dive_floor(const Budget& budget, double share) {
    return static_cast<double>(budget.node_limit) * (1 - share) >= static_cast<double>(dive_floor_nodes);
}
/// Vectors: the share of the budget the root LP may take; when it cannot finish within it, the
/// neighbourhood search gets the rest (a root LP of 120 item types in 5-10 dimensions can take
/// seconds, and had left the search 4 % of the second).
inline constexpr double vector_root_share = 0.4;
/// ... and the share the neighbourhood search then gets before the LP resumes.
inline constexpr double vector_search_share = 0.3;
/// Vectors: the share of the budget for MBS' (one exact knapsack fill per bin: with 15 items per
/// bin in 10 dimensions, class5 of the shared set, it took the whole second and left the search,
/// which then needs milliseconds, nothing).
inline constexpr double vector_start_share = 0.1;
/// Vectors whose root LP ran out of its share: when the LP resumes after the search, it leaves this
/// share of the budget to the dive (it had taken all, and a 1 s deadline then left the dive nothing:
/// on the shared classes the dive's packings were worth more than the LP's last Farley bounds).
inline constexpr double vector_dive_reserve = 0.2;

/// Runs CompletionSearch for one bin fewer than `out.bins` until it proves the incumbent optimal, the
/// share of the budget (also bounded by `tracker`) runs out, or a run ends without an answer.
template <typename Master>
void close_gap(Master& master, std::int64_t capacity, ExactPacking& out, const Budget& budget, BudgetTracker& tracker, double share) {
    const Budget part = budget_share(budget, share);
    BudgetTracker inner(part);
    CompletionSearch<Master> search(master, capacity, tracker, inner);
    while (!out.optimal && !tracker.exhausted() && !inner.exhausted()) {
        const auto outcome = search.run(static_cast<std::int64_t>(out.bins.size()) - 1);
        if (outcome == CompletionSearch<Master>::Outcome::found) {
            auto bins = master.incumbent();
            if (bins.size() < out.bins.size()) out.bins = std::move(bins);
        } else if (outcome == CompletionSearch<Master>::Outcome::infeasible) {
            out.lower_bound = std::max(out.lower_bound, static_cast<std::int64_t>(out.bins.size()));
        } else {
            break;
        }
        finish(out);
    }
}

/// Share of the budget for the column-generation dive with limited discrepancy search (1-D), which
/// takes the LP dive's place when the budget leaves room for it: it finds the near-perfect packings of
/// IRUP instances that the LP dive ended one bin above. At 200,000 nodes on data/bpp 0.45 proved 37 of
/// 45 (0.35 proved 36 and 0.3 35, both losing BPP60; 0.55 37, trading BPP13 for BPP144; the LP
/// dive 34).
inline constexpr double lds_dive_share = 0.45;
/// When the reduced-cost proof runs before the dive (session 15), a probe of the dive on this share of the
/// budget runs first (then the proof, then the dive on its own share): without it Scholl 1 instances the
/// dive closes within 1,000 nodes took the proof's 20,000-50,000 first (N3C3W4_F 0.02 -> 0.26 s of CPU);
/// 0.01 and 0.02 kept Hard28's 23 and Wäscher's 17 at 200,000 nodes, 0.05 lost BPP485 and BPP781.
inline constexpr double lds_probe_share = 0.01;
/// ... with at most this many discrepancies (its iterations run 1, 2, ... up to it).
inline constexpr int lds_dive_discrepancies = 8;

/// At each node of the LDS dive whose LP it solves, the exact cover of the residual demand among the
/// bins within the node's reduced-cost gap (LdsDive::cover_residuals; session 16): at most this many
/// bins (beyond, the enumeration gives up) and this many cover nodes. It found BPP709's packing, which
/// the dive's rounding misses, and prunes the nodes whose residual it proves infeasible. Not in the
/// probe (lds_probe_share): there the first covers took the 2,000 nodes in which the dive alone closes
/// Scholl 1 instances (N4C3W4_O 0.04 -> 0.59 s of CPU, the proof's share then spent first).
inline constexpr std::size_t lds_cover_max_bins = 5'000;
inline constexpr std::int64_t lds_cover_nodes = 2'000;

/// Runs LdsDive (detail/lds_dive.hpp) for a packing into `out.lower_bound` bins on `share` of the
/// budget (nodes and time, also bounded by `tracker`, on which the master's LPs count), with the
/// residual covers when `covers`.
template <typename Master>
void lds_dive(Master& master, ExactPacking& out, const Budget& budget, BudgetTracker& tracker, double share, bool covers) {
    const auto nodes = budget_share(budget, share).node_limit;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (budget.time_limit) deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(*budget.time_limit * share);
    master.adopt(out.bins);
    LdsDive<Master> dive(master, tracker, lds_dive_discrepancies);
    if (covers) dive.cover_residuals(master.type_weights(), master.bin_capacity(), lds_cover_max_bins, lds_cover_nodes);
    if (dive.run(out.lower_bound, nodes, deadline) == LdsDive<Master>::Outcome::found) {
        auto bins = master.incumbent();
        if (!bins.empty() && bins.size() < out.bins.size()) out.bins = std::move(bins);
    }
    finish(out);
}

/// Share of the budget for the proof by reduced-cost enumeration (1-D), and the most bins it
/// enumerates before it gives up.
inline constexpr double reduced_cost_share = 0.1;
inline constexpr std::size_t reduced_cost_max_patterns = 20'000;
/// Further dual vectors it filters the bins with: the LPs of the demand with one more item of a type.
/// Session 15: 64 (12 before), now that each LP starts from the optimal basis (about 150 nodes instead
/// of 2,000) and the proof runs before the LDS dive: with the proof first, 12 proved 21 Hard28 at
/// 200,000 nodes, 32 and 40 23, 48 and 56 22, 64 23, 80 22, 96 23 (BPP14 and BPP485 or BPP419;
/// Wäscher 17 throughout).
inline constexpr int reduced_cost_extra_duals = 64;
/// When at most this many bins pass under the first duals, the step takes this larger share, the
/// part above `reduced_cost_share` from the branch-and-price's.
inline constexpr std::size_t reduced_cost_few_patterns = 2'000;
inline constexpr double reduced_cost_promising_share = 0.25;

/// When more than reduced_cost_max_patterns bins pass under the first duals, the enumeration is redone
/// under this many further vectors (within an eighth of the step's share), and given up unless at most
/// reduced_cost_filtered_patterns pass (then the step goes on with the larger share). From BPP175's
/// root (non-IRUP) 1 leaves over 20,000 bins, 2 leave 509, 3 477, 8 485; on the IRUP instances that get
/// here each LP costs 400-1,400 nodes. 1,000 and not reduced_cost_few_patterns: with 2,000 the
/// generated G161_0357 (IRUP, 1,993 bins pass) spent the larger share and lost the LDS dive's packing.
inline constexpr int reduced_cost_filter_first = 3;
inline constexpr std::size_t reduced_cost_filtered_patterns = 1'000;

/// Runs ReducedCostProof (detail/reduced_cost_proof.hpp) for one bin fewer than `out.bins` when that
/// is the proved bound: the master's LP to its optimum (its integer duals), then the enumeration and
/// exact cover on `share` of the budget (also bounded by `tracker`).
template <typename Master>
std::int64_t reduced_cost_proof(Master& master, std::int64_t capacity, ExactPacking& out, const Budget& budget, BudgetTracker& tracker, double share,
                                const std::optional<typename Master::Basis>& optimal_basis, MultiDualCoverInput* unfinished = nullptr) {
    const auto target = static_cast<std::int64_t>(out.bins.size()) - 1;
    if (out.lower_bound != target) return 0;
    const auto start = tracker.nodes();
    auto nodes = budget_share(budget, share).node_limit;
    const auto started = std::chrono::steady_clock::now();
    // On a copy of the master, so that its pool (which steers the later steps) stays as it was.
    Master scratch = master;
    scratch.set_to_optimality(true);
    // From the optimal basis the low-cost cover found for the same demand, when it ran: the LP is then
    // optimal after one pricing (about 3,000 pivots from the homogeneous start on the open Hard28).
    if (optimal_basis) scratch.warm_start(*optimal_basis);
    const auto& demand = scratch.type_demands();
    auto lp = scratch.residual_lp(demand);
    if (lp.knapsack == 0 || tracker.exhausted()) return tracker.nodes() - start;
    BudgetTracker unlimited(Budget{});
    std::vector<DualVector> duals{{lp.profit, lp.knapsack}};  // all the vectors, for the multi-dual cover
    continuum::detail::deferred_t<ReducedCostProof, Master> proof(master.type_weights(), demand, capacity, std::move(lp.profit), lp.knapsack, tracker, unlimited, reduced_cost_max_patterns);
    const auto add_duals = [&](std::vector<DualVector> more) {
        for (auto& d : more) {
            proof.add_duals(d.profit, d.knapsack);
            duals.push_back(std::move(d));
        }
    };
    proof.remember_failures(true);
    // The LP is degenerate: its optimal duals are a face, and one vertex passes bins another excludes.
    // Other dual vectors, each a valid filter and budget: the LPs with one more item of a type.
    const auto keep_going = [&] { return tracker.nodes() - start < nodes / 2 && !tracker.exhausted(); };
    auto early = proof.prepare(target);
    std::vector<char> tried(demand.size(), 0);  // the types whose one-more-item LP was solved
    if (early && *early == ReducedCostProof::Outcome::unknown && proof.too_many() && !tracker.exhausted()) {
        // Too many bins under the first duals (over 2,000,000 on BPP175): the further vectors filter the
        // enumeration itself. A few first (types spread evenly); when few bins pass them, the step goes
        // on as below (the rest of the vectors, as filters of the cover), else it gives up.
        add_duals(one_more_item_duals(scratch, reduced_cost_filter_first, [&] { return tracker.nodes() - start < nodes / 8 && !tracker.exhausted(); }, &tried));
        early = proof.prepare(target);
        if (early ? *early == ReducedCostProof::Outcome::unknown : proof.patterns() > reduced_cost_filtered_patterns) return tracker.nodes() - start;
    }
    if (early) {
        if (*early == ReducedCostProof::Outcome::infeasible) out.lower_bound = std::max(out.lower_bound, target + 1);
        finish(out);
        return tracker.nodes() - start;
    }
    // Few bins: a proof (or packing) is likely within reach, so a larger share.
    const bool promising = proof.patterns() <= reduced_cost_few_patterns;
    if (promising) {
        share = reduced_cost_promising_share;
        nodes = budget_share(budget, share).node_limit;
    }
    add_duals(one_more_item_duals(scratch, reduced_cost_extra_duals, keep_going, &tried));
    Budget part;
    part.node_limit = std::max<std::int64_t>(1, nodes - (tracker.nodes() - start));
    if (budget.time_limit) part.time_limit = std::chrono::duration_cast<Duration>(*budget.time_limit * share - (std::chrono::steady_clock::now() - started));
    if (part.time_limit && part.time_limit->count() <= 0) return tracker.nodes() - start;
    BudgetTracker inner(part);
    proof.share(inner);
    const auto outcome = proof.run(target);
    if (outcome == ReducedCostProof::Outcome::found) {
        adopt_packing(master, proof.packing(), out);
    } else if (outcome == ReducedCostProof::Outcome::infeasible) {
        out.lower_bound = std::max(out.lower_bound, target + 1);
    } else if (unfinished != nullptr && promising) {
        // Its cover ran out of budget among few bins: the bins (every bin of any packing into `target`
        // bins passes all the vectors) and the vectors, for the multi-dual cover.
        unfinished->bins = proof.enumerated();
        unfinished->duals = std::move(duals);
    }
    finish(out);
    return tracker.nodes() - start;
}

/// The multi-dual cover (detail/multi_dual_cover.hpp, session 18), after a proof whose cover ran out of
/// budget among at most reduced_cost_few_patterns bins: its share of the budget (of what the root LP
/// left, as the LDS dive's after it). Not tuned: the first value tried. On data/bpp at 200,000 nodes it
/// runs on BPP40 (packing found in 13,843 nodes of its 36,402), BPP419 (found in 30,830 of 34,654; the
/// dive found it before, 400 nodes short of its end) and BPP709 (not found; the dive then finds it).
inline constexpr double multi_dual_cover_share = 0.2;

/// Runs MultiDualCover for a packing into `out.lower_bound` bins when that is one bin below the incumbent,
/// with the proof's bins and dual vectors, on `share` of the budget (also bounded by `tracker`). A run
/// that ends without a cover proves the incumbent optimal (the bins are all those within the vectors'
/// gaps).
template <typename Master>
void multi_dual_cover(Master& master, std::int64_t capacity, ExactPacking& out, const Budget& budget, BudgetTracker& tracker, double share, MultiDualCoverInput input) {
    const auto target = static_cast<std::int64_t>(out.bins.size()) - 1;
    if (out.lower_bound != target || input.duals.empty()) return;
    BudgetTracker inner(budget_share(budget, share));
    continuum::detail::deferred_t<MultiDualCover, Master> cover(master.type_weights(), master.type_demands(), capacity, std::move(input.bins), std::move(input.duals), tracker, inner);
    const auto outcome = cover.run(target);
    if (outcome == MultiDualCover::Outcome::found) {
        adopt_packing(master, cover.packing(), out);
    } else if (outcome == MultiDualCover::Outcome::infeasible) {
        out.lower_bound = std::max(out.lower_bound, target + 1);
    }
    finish(out);
}

/// The search of a packing among the bins of low reduced cost (1-D): it runs when at most this many
/// bins pass (beyond, a cover node costs too much: BPP645 and BPP900 have 8,338 and 11,073), with
/// restarts from this many nodes and this noise in the bins' order (chosen on BPP60, BPP144, BPP709,
/// BPP40, BPP645 and BPP900 from the root LP: caps of 3,000 and 20,000, noise 0.1 and 0.3).
inline constexpr std::size_t low_cost_cover_max_bins = 5'000;
/// Its share of the budget (nodes and time). The neighbourhood search window after the root LP (10 %)
/// gets what the step leaves of that window, so the step's first 10 % come from the window and the
/// rest from the later steps. Session 13, on the current arithmetic (detail/basis_inverse.hpp), chosen
/// on the tuning half (the 14 Hard28 instances at even positions, by number): 0.1 proved 10, 0.15,
/// 0.2 and 0.25 proved 11 (+BPP60, found by the step in about 26,000 cover nodes), 0.3 10 (+BPP60,
/// −BPP716: its proof's nodes); the held-out half (the other 14 Hard28, Wäscher) and the shared sets
/// end as with 0.1.
inline constexpr double low_cost_cover_share = 0.2;
/// The first run (bins by reduced cost, no noise) is capped at 4,000 nodes (session 14; 3,000 before):
/// BPP144's packing lies between 3,000 and 3,500 nodes into that run (its restarts never found it), and
/// 4,000 (and 3,500, on Hard28 and Wäscher only) kept every other Hard28, Wäscher and shared-set
/// result at 200,000 nodes.
inline constexpr std::int64_t low_cost_cover_first_cap = 4'000;
inline constexpr double low_cost_cover_noise = 0.3;

/// Runs LowCostCover (detail/low_cost_cover.hpp) for a packing into `out.lower_bound` bins when that
/// is one bin below the incumbent: the master's LP to its optimum on a copy (its integer duals), the
/// bins whose reduced cost fits the gap (ReducedCostProof's enumeration), then the restarted cover, all
/// on `share` of the budget (also bounded by `tracker`). Returns the share of the budget it used (the
/// larger of its nodes' and its time's). Finds packings; a first run that ends within its cap
/// without one proves the incumbent optimal (the non-IRUP TEST0022, TEST0065 and BPP119 within 300
/// cover nodes).
template <typename Master>
double low_cost_cover(Master& master, std::int64_t capacity, ExactPacking& out, const Budget& budget, BudgetTracker& tracker, double share,
                      std::optional<typename Master::Basis>& optimal_basis) {
    const auto target = static_cast<std::int64_t>(out.bins.size()) - 1;
    if (out.lower_bound != target) return 0;
    const auto start = tracker.nodes();
    const auto started = std::chrono::steady_clock::now();
    const auto used = [&] {
        double part = static_cast<double>(tracker.nodes() - start) / static_cast<double>(budget.node_limit);
        if (budget.time_limit) part = std::max(part, std::chrono::duration<double>(std::chrono::steady_clock::now() - started) / std::chrono::duration<double>(*budget.time_limit));
        return part;
    };
    BudgetTracker inner(budget_share(budget, share));
    Master scratch = master;  // the pool the later steps read stays as it was
    scratch.set_to_optimality(true);
    const auto& demand = scratch.type_demands();
    auto lp = scratch.residual_lp(demand);
    optimal_basis = scratch.last_optimal_basis();
    if (lp.knapsack == 0 || tracker.exhausted()) return used();
    continuum::detail::deferred_t<ReducedCostProof, Master> bins(master.type_weights(), demand, capacity, std::move(lp.profit), lp.knapsack, tracker, inner, low_cost_cover_max_bins);
    if (const auto early = bins.prepare(target)) {
        if (*early == ReducedCostProof::Outcome::infeasible) out.lower_bound = std::max(out.lower_bound, target + 1);
        finish(out);
        return used();
    }
    continuum::detail::deferred_t<LowCostCover, Master> cover(master.type_weights(), demand, capacity, bins.enumerated(), bins.reduced_costs(), bins.gap(), tracker, inner);
    const auto outcome = cover.run(target, low_cost_cover_first_cap, low_cost_cover_noise, 1);
    if (outcome == LowCostCover::Outcome::found) {
        adopt_packing(master, cover.packing(), out);
    } else if (outcome == LowCostCover::Outcome::infeasible) {
        out.lower_bound = std::max(out.lower_bound, target + 1);  // its first run saw the whole tree
    }
    finish(out);
    return used();
}

/// Share of the budget for the Ryan–Foster branch-and-price (1-D), after the dive and before the
/// LP-bounded completion.
inline constexpr double branch_and_price_share = 0.3;
/// ... on at most this many items: its master has a row per item and a pivot costs O(n²) (a node
/// per pivot), so 1,000 items (Falkenauer U) took 18 s of CPU for 200,000 nodes.
inline constexpr std::size_t branch_and_price_max_items = 300;

/// Runs the Ryan–Foster branch-and-price (detail/ryan_foster.hpp) for one bin fewer than `out.bins`,
/// seeded with its bins, until it proves the incumbent optimal, its share of the budget (also bounded
/// by `tracker`) runs out, or a run ends without an answer.
template <typename Real>
void branch_and_price(const DenseItems& items, std::int64_t capacity, const std::vector<std::size_t>& placeable, ExactPacking& out, const Budget& budget,
                      BudgetTracker& tracker, double share) {
    const Budget part = budget_share(budget, share);
    BudgetTracker inner(part);
    std::vector<std::int64_t> sizes;
    std::vector<std::size_t> position(items.n, 0);
    for (std::size_t k = 0; k < placeable.size(); ++k) {
        position[placeable[k]] = k;
        sizes.push_back(items.sizes[placeable[k]]);
    }
    RyanFosterSearch<Real> search(std::move(sizes), capacity, tracker, inner);
    const auto seed = [&] {
        auto bins = out.bins;
        for (auto& bin : bins) {
            for (auto& i : bin) i = position[i];
        }
        search.seed(bins);
    };
    seed();
    while (!out.optimal && !tracker.exhausted() && !inner.exhausted()) {
        const auto outcome = search.run(static_cast<std::int64_t>(out.bins.size()) - 1);
        if (outcome == RyanFosterSearch<Real>::Outcome::found) {
            auto bins = search.bins();
            for (auto& bin : bins) {
                for (auto& k : bin) k = placeable[k];
            }
            if (bins.size() >= out.bins.size()) break;
            out.bins = std::move(bins);
            seed();
        } else if (outcome == RyanFosterSearch<Real>::Outcome::infeasible) {
            out.lower_bound = std::max(out.lower_bound, static_cast<std::int64_t>(out.bins.size()));
        } else {
            break;
        }
        finish(out);
    }
}

/// The exact pipeline over dense items (any dimension). A template for the reason ColumnGeneration is.
template <typename Real = double>
ExactPacking solve_exact_dense(const DenseItems& items, std::span<const std::int64_t> capacity, const Budget& budget) {
    using D = continuum::detail::deferred_t<void, Real>;  // the callees' <void> specialisations, named dependently (clang)
    budget.validate();
    const auto started = budget.time_limit ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};  // read only for a deadline
    BudgetTracker tracker(budget);
    const Budget plan = items.d == 1 ? planning_budget(budget) : budget;  // what the 1-D steps' shares are taken of
    std::int64_t unplanned_nodes = 0;  // the windows' nodes beyond their share of `plan`
    ExactPacking out;
    // Upper bounds: the best of the first fit / best fit decreasing variants.
    VectorPacking best;
    if (items.d == 1) {
        const std::span<const std::int64_t> sizes(items.sizes);
        const auto order = decreasing_order<D>(sizes);
        auto ffd = first_fit_in_order<D>(sizes, capacity[0], order);
        auto bfd = best_fit_in_order<D>(sizes, capacity[0], order);
        auto& chosen = bfd.num_bins() < ffd.num_bins() ? bfd : ffd;
        best.bins = std::move(chosen.bins);
        best.unplaced = std::move(chosen.unplaced);
    } else {
        bool first = true;
        for (const auto order : {VectorOrder::sum_normalized, VectorOrder::max_normalized, VectorOrder::lexicographic}) {
            for (int rule = 0; rule < 2; ++rule) {
                auto candidate = rule == 0 ? vector_ffd<D>(items, capacity, order) : vector_bfd<D>(items, capacity, order);
                if (first || candidate.num_bins() < best.num_bins()) best = std::move(candidate);
                first = false;
            }
        }
        if (items.n <= 2000) {
            for (const auto order : {VectorOrder::dot_product, VectorOrder::l2_norm}) {
                auto candidate = vector_bin_centric<D>(items, capacity, order);
                if (candidate.num_bins() < best.num_bins()) best = std::move(candidate);
            }
        }
    }
    out.bins = std::move(best.bins);
    out.unplaced = std::move(best.unplaced);
    out.lower_bound = vector_l2_unchecked<D>(items, capacity);
    finish(out);
    if (out.optimal) {
        out.nodes = tracker.nodes();
        return out;
    }
    // Items that fit, largest first.
    std::vector<std::size_t> placeable;
    {
        std::vector<char> unplaced(items.n, 0);
        for (const auto i : out.unplaced) unplaced[i] = 1;
        std::vector<std::pair<double, std::size_t>> keyed;
        for (std::size_t i = 0; i < items.n; ++i) {
            if (unplaced[i]) continue;
            double key = 0;
            for (std::size_t k = 0; k < items.d; ++k) key += capacity[k] > 0 ? static_cast<double>(items.row(i)[k]) / static_cast<double>(capacity[k]) : 0.0;
            keyed.emplace_back(-key, i);
        }
        std::sort(keyed.begin(), keyed.end());
        for (const auto& [key, i] : keyed) placeable.push_back(i);
    }
    // Perfect and near-perfect packings (1-D): bin completion within the waste the bound leaves.
    if (items.d == 1) {
        // Most of the budget when the bound leaves no waste at all (every bin must be exactly full:
        // completions are exact subset sums, few and strongly constrained, which is where bin
        // completion shines and LP diving does not); otherwise it runs after the LP bound.
        std::int64_t total = 0;
        for (const auto i : placeable) total += items.sizes[i];
        __extension__ using Wide = __int128;
        const bool tight = static_cast<Wide>(out.lower_bound) * capacity[0] == total;
        if (tight) complete_bins<Real>(items, capacity[0], placeable, out, plan, tracker, 0.9, 300, 5000);
        if (out.optimal) {
            out.nodes = tracker.nodes();
            return out;
        }
    }
    // Column generation: LP lower bound and LP-guided diving. First its MBS' packing, then (1-D)
    // a short consistent neighbourhood search towards the combinatorial bound: it often reaches
    // the optimum when bins hold few items, before the LP costs anything.
    {
        // Vectors: the LP runs in phases (a share of the budget each), so that a root LP that
        // cannot finish in time leaves the rest to the neighbourhood search.
        continuum::detail::deferred_t<VectorPhase, Real> phase(budget, started);
        ColumnGeneration<Real> cg(items, capacity, placeable, items.d == 1 ? tracker : phase.tracker());
        continuum::detail::deferred_t<ConsistentNeighbourhoodSearch, Real> cns(items.sizes, capacity[0]);
        continuum::detail::deferred_t<VectorNeighbourhoodSearch, Real> vns(items, capacity);
        {
            if (items.d > 1) phase.begin(vector_start_share, tracker);
            auto mbs = cg.start(static_cast<std::int64_t>(out.bins.size()));
            if (items.d > 1) phase.end(tracker);
            if (!mbs.empty() && mbs.size() < out.bins.size()) out.bins = std::move(mbs);
            finish(out);
        }
        if (!out.optimal && !tracker.exhausted()) {
            // Vectors: a shorter first window (the root LP is dearer there, and the L2 bound weaker).
            const double share = items.d == 1 ? 0.1 : 0.04;
            const Budget window = window_budget(budget, share, items.d);
            const auto before = tracker.nodes();
            if (items.d == 1 ? local_search(cns, out, window, tracker, 6) : local_search(vns, out, window, tracker, 6)) cg.adopt(out.bins);
            if (items.d == 1) unplanned_nodes += std::max<std::int64_t>(0, tracker.nodes() - before - budget_share(plan, share).node_limit);
        }
        if (out.optimal) {
            out.nodes = tracker.nodes();
            return out;
        }
        if (items.d > 1) phase.begin(vector_root_share, tracker);
        auto root = cg.root(static_cast<std::int64_t>(out.bins.size()));
        const bool root_cut = items.d > 1 && phase.end(tracker);
        out.lower_bound = std::max(out.lower_bound, root.lower_bound);
        if (!root.bins.empty() && root.bins.size() < out.bins.size()) out.bins = root.bins;
        finish(out);
        if (root_cut && !out.optimal && !tracker.exhausted()) {
            // Vectors whose root LP ran out of its share: the neighbourhood search gets its own
            // share, then the LP resumes (from its column pool, so faster) with what is left.
            phase.begin(vector_search_share, tracker);
            const bool improved = local_search(vns, out, window_budget(budget, 1.0, items.d), phase.tracker(), std::numeric_limits<int>::max());
            phase.end(tracker);
            if (improved) cg.adopt(out.bins);
            if (!out.optimal && !tracker.exhausted()) {
                phase.begin_leaving(vector_dive_reserve, tracker);
                root = cg.root(static_cast<std::int64_t>(out.bins.size()));
                phase.end(tracker);
                out.lower_bound = std::max(out.lower_bound, root.lower_bound);
                if (!root.bins.empty() && root.bins.size() < out.bins.size()) out.bins = root.bins;
                finish(out);
            }
        }
        if (out.optimal) {
            out.nodes = tracker.nodes();
            return out;
        }
        // 1-D, on budgets that leave room for the LDS dive: a packing into the bound among the bins of
        // low reduced cost when the bound is one bin below the incumbent, on low_cost_cover_share of the
        // budget. The search window below gets what the step leaves of the window's 10 % (none when the
        // step used more than 8 %).
        double search_share = 0.1;
        std::optional<typename ColumnGeneration<Real>::Basis> optimal_basis;  // the root LP's, once solved to its optimum
        // Session 17: the shares of the steps after the root LP (the low-cost cover, the LDS probe, the
        // proof at its larger share, the LDS dive: 0.91 of the budget) are taken of what the root LP left
        // when that is less, so that they keep their proportions: the dive comes last and took what the
        // others left (BPP419: the root LP and the first search window used 42,000 nodes, the dive got
        // 60,000 of its nominal 90,000 and needs 72,000).
        const double scale = [&] {
            const double planned = low_cost_cover_share + lds_probe_share + reduced_cost_promising_share + lds_dive_share;
            const auto spent_nodes = tracker.nodes() - unplanned_nodes;
            double left = static_cast<double>(plan.node_limit - std::min(plan.node_limit, spent_nodes)) / static_cast<double>(plan.node_limit);
            if (budget.time_limit && budget.time_limit->count() > 0) {
                const auto spent = std::chrono::steady_clock::now() - started;
                left = std::min(left, std::max(0.0, 1.0 - std::chrono::duration<double>(spent) / std::chrono::duration<double>(*budget.time_limit)));
            }
            return std::max(0.01, std::min(1.0, left / planned));
        }();
        const Budget later = scaled_budget(plan, scale);
        if (items.d == 1 && leaves_dive_floor(budget, lds_dive_share) && !tracker.exhausted()) {
            // (It returns the share of `later` it used: of the whole budget, that times the scale.)
            search_share -= scale * low_cost_cover(cg, capacity[0], out, later, tracker, low_cost_cover_share, optimal_basis);
            if (out.optimal) {
                out.nodes = tracker.nodes();
                return out;
            }
        }
        // Consistent neighbourhood search towards the LP bound on a share of the budget (not on less
        // than 2 % of it).
        if (!tracker.exhausted() && search_share >= 0.02) {
            const Budget window = window_budget(budget, search_share, items.d);
            if (items.d == 1 ? local_search(cns, out, window, tracker, 4) : local_search(vns, out, window, tracker, 4)) cg.adopt(out.bins);
            if (out.optimal) {
                out.nodes = tracker.nodes();
                return out;
            }
        }
        // 1-D with a deadline: the time dive_floor_nodes take at the node rate measured so far.
        const auto now = std::chrono::steady_clock::now();
        const double deadline = budget.time_limit ? std::chrono::duration<double>(*budget.time_limit).count() : 0.0;
        const double floor = items.d == 1 && budget.time_limit && tracker.nodes() > 0
                                 ? std::chrono::duration<double>(now - started).count() / static_cast<double>(tracker.nodes()) * static_cast<double>(dive_floor_nodes)
                                 : 0.0;
        // 1-D, when the budget leaves the dive's floor beside its share (in nodes, and with a deadline
        // in time): the dive with limited discrepancy search in the LP dive's place (it found the
        // near-perfect packings the LP dive ended one bin above: BPP832, BPP561, TEST0014 at 200,000
        // nodes, and loses none).
        const bool lds = items.d == 1 && leaves_dive_floor(budget, lds_dive_share) &&
                         (!budget.time_limit || deadline * (1 - lds_dive_share) >= floor);
        // 1-D: the proof by reduced-cost enumeration (one bin fewer than the incumbent, when that is
        // the bound): proves ⌈LP⌉ + 1 when the LP is close to ⌈LP⌉, or finds the packing into ⌈LP⌉ bins.
        // Before the LDS dive when that runs (session 15: its LPs now cost little, and the dive's
        // 90,000 nodes cannot help the non-IRUP instances), otherwise after the dive.
        double proof_share = 0;
        bool proof_done = false;
        const auto proof_step = [&] {
            proof_done = true;
            if (items.d == 1 && leaves_dive_floor(budget, reduced_cost_share) && !tracker.exhausted()) {
                // (Of what the root LP left only on the LDS dive's path, whose shares `later` plans for.)
                MultiDualCoverInput unfinished;
                proof_share = static_cast<double>(reduced_cost_proof(cg, capacity[0], out, lds ? later : plan, tracker, reduced_cost_share, optimal_basis, lds ? &unfinished : nullptr)) / static_cast<double>(plan.node_limit);
                // On the LDS dive's path, when the proof's cover ran out among few bins: the same cover,
                // most constraining bin first, for a packing (session 18: BPP40), before the dive.
                if (!out.optimal && !unfinished.duals.empty() && !tracker.exhausted()) multi_dual_cover(cg, capacity[0], out, later, tracker, multi_dual_cover_share, std::move(unfinished));
            }
            return out.optimal;
        };
        if (lds && static_cast<std::int64_t>(out.bins.size()) == out.lower_bound + 1 && !tracker.exhausted()) {
            // A short LDS dive first: on IRUP instances it often finds the packing within a few hundred
            // nodes (Scholl 1 N3C3W4_F: 600), where the proof before it would spend its whole share.
            lds_dive(cg, out, later, tracker, lds_probe_share, false);
            if (out.optimal || proof_step()) {
                out.nodes = tracker.nodes();
                return out;
            }
        }
        if (lds && !tracker.exhausted()) lds_dive(cg, out, later, tracker, lds_dive_share, true);
        ColumnGenerationResult result;
        if (!lds) {
            // The LP dive; in 1-D on a share of the budget, so that the LP-bounded bin completion
            // below gets its turn.
            auto dive_nodes = std::numeric_limits<std::int64_t>::max();
            std::optional<std::chrono::steady_clock::time_point> dive_deadline;
            if (items.d == 1) {
                dive_nodes = std::max(static_cast<std::int64_t>(static_cast<double>(plan.node_limit) * dive_share), dive_floor_nodes);
                // The deadline's share, raised to the floor's time.
                if (budget.time_limit) dive_deadline = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(std::min(deadline, std::max(deadline * dive_share, floor))));
            }
            if (items.d > 1) phase.begin(1.0, tracker);
            result = cg.dive_from_root(dive_nodes, dive_deadline);
            if (items.d > 1) phase.end(tracker);
        }
        out.lower_bound = std::max(out.lower_bound, result.lower_bound);
        if (!result.bins.empty() && result.bins.size() < out.bins.size()) out.bins = result.bins;
        finish(out);
        if (out.optimal) {
            out.nodes = tracker.nodes();
            return out;
        }
        if (!proof_done && proof_step()) {
            out.nodes = tracker.nodes();
            return out;
        }
        // 1-D: Ryan–Foster branch-and-price on a share of the budget, after the dive (which closes most
        // instances sooner): proves ⌈LP⌉ + 1 where the LP's optimal face holds no packing, and its own
        // dive finds near-perfect packings. Not on budgets whose share would eat into the dive's floor
        // (60,000 nodes, where the remaining steps keep what they had).
        const bool room_for_both = leaves_dive_floor(budget, branch_and_price_share);
        if (items.d == 1 && room_for_both && placeable.size() <= branch_and_price_max_items && !tracker.exhausted()) {
            branch_and_price<Real>(items, capacity[0], placeable, out, plan, tracker, std::max(0.01, branch_and_price_share - std::max(0.0, proof_share - reduced_cost_share)));
            if (out.optimal) {
                out.nodes = tracker.nodes();
                return out;
            }
        }
        // 1-D: bin completion bounded by the LP of the residual (branch-and-price over whole bins) on a
        // share of the budget: finds the packing the dive missed, or proves that one bin fewer is
        // impossible (instances whose optimum is ⌈LP⌉ + 1).
        if (items.d == 1 && !tracker.exhausted()) {
            cg.adopt(out.bins);
            close_gap(cg, capacity[0], out, plan, tracker, completion_search_share);
            if (out.optimal) {
                out.nodes = tracker.nodes();
                return out;
            }
        }
    }
    if (items.d == 1 && !tracker.exhausted()) {
        complete_bins<Real>(items, capacity[0], placeable, out, plan, tracker, 0.6, 300, 1000);
        if (out.optimal) {
            out.nodes = tracker.nodes();
            return out;
        }
    }
    // Complete branch and bound on what is left of the budget.
    if (!tracker.exhausted()) {
        continuum::detail::deferred_t<AssignmentSearch, Real> search(items, capacity, placeable, tracker);
        const bool complete = search.run(out.bins.size(), static_cast<std::size_t>(out.lower_bound));
        if (search.improved()) out.bins = search.best();
        if (complete) out.lower_bound = static_cast<std::int64_t>(out.bins.size());
    }
    finish(out);
    out.nodes = tracker.nodes();
    return out;
}

}  // namespace detail

/// Minimum number of bins of `capacity` for 1-D `sizes`, within `budget` (explored nodes and/or a
/// deadline). Returns the best packing found (never worse than FFD or BFD), a proved lower bound,
/// `optimal` and the gap. Items larger than `capacity` are reported in `unplaced`.
/// \throws InvalidArgument when capacity <= 0, a size <= 0, the sum overflows, or the budget is invalid.
template <typename Real = double>  // compiled only where called (see detail::ColumnGeneration)
ExactPacking solve_exact(std::span<const std::int64_t> sizes, std::int64_t capacity, const Budget& budget = {}) {
    detail::validate_one_dimensional<continuum::detail::deferred_t<void, Real>>(sizes, capacity);
    detail::DenseItems items;
    items.n = sizes.size();
    items.d = 1;
    items.sizes.assign(sizes.begin(), sizes.end());
    const std::int64_t cap[1] = {capacity};
    return detail::solve_exact_dense<Real>(items, cap, budget);
}

/// Minimum number of identical bins of `capacity` for vector items, within `budget`.
/// \throws InvalidArgument on a negative amount, an all-zero item or capacity, or an invalid budget.
template <typename Real = double>  // compiled only where called (see detail::ColumnGeneration)
ExactPacking solve_exact(std::span<const Resources> items, const Resources& capacity, const Budget& budget = {}) {
    const auto p = detail::dense_problem<continuum::detail::deferred_t<void, Real>>(items, capacity);
    return detail::solve_exact_dense<Real>(p.items, p.capacity, budget);
}

/// Minimum number of identical bins for a dense row-major matrix of n × `dimensions` sizes.
/// \throws InvalidArgument as first_fit_decreasing on dense input, or on an invalid budget.
template <typename Real = double>  // compiled only where called (see detail::ColumnGeneration)
ExactPacking solve_exact(std::span<const std::int64_t> sizes, std::size_t dimensions, std::span<const std::int64_t> capacity, const Budget& budget = {}) {
    return detail::solve_exact_dense<Real>(detail::dense_view<continuum::detail::deferred_t<void, Real>>(sizes, dimensions, capacity), capacity, budget);
}

}  // namespace continuum::packing
