// Internal: branch-and-price for 1-D bin packing with Ryan–Foster branching (Ryan & Foster 1981, as
// used for bin packing by Vance, Barnhart, Johnson & Nemhauser, Comput. Optim. Appl. 3, 1994). The
// master is the set-cover LP over single items (min Σ λ_p, Σ_{p ∋ i} λ_p >= 1), priced by a knapsack
// with conflicts; a node branches on the pair of items the LP packs together most fractionally:
// together (merged into one item) or apart (a conflict in the pricing). Depth-first, pruned by
// rigorous integer Farley bounds: a complete run proves that `target` bins do not suffice.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/basis_inverse.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

/// A template (Real is the LP's floating type) so that Eigen is compiled only where it is run.
template <typename Real = double>
class RyanFosterSearch {
public:
    enum class Outcome { found, infeasible, unknown };
    using Bins = std::vector<std::vector<std::size_t>>;

    /// `sizes` (each in (0, capacity]); nodes count on `tracker` and on `share` (a sub-budget).
    RyanFosterSearch(std::vector<std::int64_t> sizes, std::int64_t capacity, BudgetTracker& tracker, BudgetTracker& share)
        : size_(std::move(sizes)), capacity_(capacity), tracker_(tracker), share_(share) {}

    /// Adds the bins of a packing (positions in `sizes`) to the column pool: a warm start.
    /// The last packing seeded is also the first basis: each bin in the row of its first item, the
    /// surplus of every other item (feasible, and already at the packing's number of bins).
    void seed(const Bins& bins) {
        start_.clear();
        for (const auto& bin : bins) {
            if (!bin.empty()) start_.push_back(add_column(bin));
        }
    }

    /// Looks for a packing into at most `target` bins. found: bins() holds it; infeasible: proved
    /// impossible; unknown: the budget ran out or a node could not be branched on.
    Outcome run(std::int64_t target) {
        target_ = target;
        together_.clear();
        apart_.clear();
        incomplete_ = false;
        found_.clear();
        if (target < 0) return Outcome::infeasible;
        __extension__ using Wide = __int128;
        Wide total = 0;
        for (const auto s : size_) total += s;
        if (total > static_cast<Wide>(target) * capacity_) return Outcome::infeasible;
        if (size_.empty()) return Outcome::found;
        const auto outcome = descend(first_basis());
        if (outcome == Outcome::infeasible && incomplete_) return Outcome::unknown;
        return outcome;
    }

    [[nodiscard]] const Bins& bins() const { return found_; }
    /// Branch-and-price nodes of the last run (each solves one master LP).
    [[nodiscard]] std::int64_t tree_nodes() const { return tree_nodes_; }

private:
    using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
    using Vector = Eigen::Matrix<Real, Eigen::Dynamic, 1>;
    using RowVector = Eigen::Matrix<Real, 1, Eigen::Dynamic>;
    static constexpr double scale_ = 16777216.0;  // 2^24: duals -> integer profits

    /// The items merged by the "together" branches (groups), and the "apart" conflicts between groups.
    struct Groups {
        std::vector<std::size_t> of;                    // item -> group
        std::vector<std::vector<std::size_t>> members;  // group -> items
        std::vector<std::int64_t> weight;
        std::vector<char> conflict;  // m × m
        [[nodiscard]] bool clash(std::size_t g, std::size_t h) const { return conflict[g * members.size() + h] != 0; }
    };

    struct NodeLp {
        std::int64_t bound = 0;  // rigorous: no packing of this node in fewer bins
        bool complete = false;   // simplex finished with exact pricing
        std::vector<std::pair<std::vector<std::size_t>, double>> solution;  // (groups, value > 0)
    };

    /// The master's basis, handed from a node to its children: pool column ids (or -1 - r for the
    /// surplus of row r), the basis inverse and the basic values. A child starts from its parent's
    /// basis, primal feasible because the rows (items) stay the same; the columns its branch forbids
    /// cost big_m until they leave.
    struct Basis {
        std::vector<std::int64_t> ids;
        Matrix binv;
        Vector x;
    };

    std::size_t add_column(std::vector<std::size_t> items) {
        std::sort(items.begin(), items.end());
        const auto it = pool_index_.find(items);
        if (it != pool_index_.end()) return it->second;
        pool_index_.emplace(items, pool_.size());
        pool_.push_back(std::move(items));
        return pool_.size() - 1;
    }

    /// The root's basis: from the seeded packing if it covers every item once, else the items alone.
    Basis first_basis() {
        const std::size_t n = size_.size();
        const auto rows = static_cast<Eigen::Index>(n);
        Basis basis;
        basis.ids.assign(n, -1);
        std::vector<std::size_t> seen(n, 0);
        for (const auto id : start_) {
            for (const auto i : pool_[id]) ++seen[i];
        }
        if (!start_.empty() && std::all_of(seen.begin(), seen.end(), [](std::size_t c) { return c == 1; })) {
            Matrix b = Matrix::Zero(rows, rows);
            for (std::size_t i = 0; i < n; ++i) {
                basis.ids[i] = -1 - static_cast<std::int64_t>(i);
                b(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)) = -1;
            }
            for (const auto id : start_) {
                const auto first = static_cast<Eigen::Index>(pool_[id].front());
                basis.ids[static_cast<std::size_t>(first)] = static_cast<std::int64_t>(id);
                for (const auto i : pool_[id]) b(static_cast<Eigen::Index>(i), first) = 1;
            }
            if (invert_in_place(b)) {  // triangular with a ±1 diagonal, so always; else the items alone below
                basis.binv = std::move(b);
                basis.x = basis.binv * Vector::Ones(rows);
                return basis;
            }
        }
        for (std::size_t i = 0; i < n; ++i) basis.ids[i] = static_cast<std::int64_t>(add_column({i}));
        basis.binv = Matrix::Identity(rows, rows);
        basis.x = Vector::Ones(rows);
        return basis;
    }

    [[nodiscard]] bool count() { return tracker_.count() && share_.count(); }
    [[nodiscard]] bool exhausted() { return tracker_.exhausted() || share_.exhausted(); }

    [[nodiscard]] Groups groups() const {
        const std::size_t n = size_.size();
        std::vector<std::size_t> parent(n);
        std::iota(parent.begin(), parent.end(), std::size_t{0});
        const auto find = [&](std::size_t i) {
            while (parent[i] != i) i = parent[i] = parent[parent[i]];
            return i;
        };
        for (const auto& [a, b] : together_) parent[find(a)] = find(b);
        Groups g;
        g.of.assign(n, n);
        std::vector<std::size_t> index(n, n);
        for (std::size_t i = 0; i < n; ++i) {
            const auto root = find(i);
            if (index[root] == n) {
                index[root] = g.members.size();
                g.members.emplace_back();
                g.weight.push_back(0);
            }
            g.of[i] = index[root];
            g.members[index[root]].push_back(i);
            g.weight[index[root]] += size_[i];
        }
        const std::size_t m = g.members.size();
        g.conflict.assign(m * m, 0);
        for (const auto& [a, b] : apart_) {
            g.conflict[g.of[a] * m + g.of[b]] = 1;
            g.conflict[g.of[b] * m + g.of[a]] = 1;
        }
        return g;
    }

    /// The pool column `items` as groups, if it respects the node's branches.
    [[nodiscard]] static bool as_groups(const std::vector<std::size_t>& items, const Groups& g, std::vector<std::size_t>& out) {
        out.clear();
        for (const auto i : items) {
            const auto group = g.of[i];
            if (std::find(out.begin(), out.end(), group) == out.end()) out.push_back(group);
        }
        std::size_t covered = 0;
        for (const auto group : out) covered += g.members[group].size();
        if (covered != items.size()) return false;  // splits a merged group
        for (std::size_t a = 0; a < out.size(); ++a) {
            for (std::size_t b = a + 1; b < out.size(); ++b) {
                if (g.clash(out[a], out[b])) return false;
            }
        }
        return true;
    }

    /// Knapsack with conflicts: max Σ profit_g over conflict-free group sets within the capacity
    /// (depth-first, Dantzig bound in 128-bit integers). `exact` is false when cut by the budget.
    std::int64_t price(const Groups& g, const std::vector<std::int64_t>& profit, std::vector<std::size_t>& best, bool& exact) {
        std::vector<std::size_t> order;
        for (std::size_t k = 0; k < profit.size(); ++k) {
            if (profit[k] > 0 && g.weight[k] <= capacity_) order.push_back(k);
        }
        __extension__ using Wide = __int128;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return static_cast<Wide>(profit[a]) * g.weight[b] > static_cast<Wide>(profit[b]) * g.weight[a];
        });
        std::int64_t best_value = 0;
        best.clear();
        exact = true;
        std::vector<std::size_t> chosen;
        std::int64_t steps = 0;
        const auto bound = [&](std::size_t from, std::int64_t room, std::int64_t value) {
            Wide total = value;
            for (std::size_t k = from; k < order.size(); ++k) {
                const auto t = order[k];
                if (g.weight[t] <= room) {
                    room -= g.weight[t];
                    total += profit[t];
                } else {
                    total += static_cast<Wide>(profit[t]) * room / g.weight[t] + 1;
                    break;
                }
            }
            return total;
        };
        const auto visit = [&](const auto& self, std::size_t from, std::int64_t room, std::int64_t value) -> void {
            if (!exact) return;
            if ((++steps & 255) == 0 && !count()) {
                exact = false;
                return;
            }
            if (value > best_value) {
                best_value = value;
                best = chosen;
            }
            for (std::size_t k = from; k < order.size(); ++k) {
                const auto t = order[k];
                if (g.weight[t] > room) continue;
                if (bound(k, room, value) <= best_value) return;
                bool clash = false;
                for (const auto c : chosen) clash = clash || g.clash(c, t);
                if (clash) continue;
                chosen.push_back(t);
                self(self, k + 1, room - g.weight[t], value + profit[t]);
                chosen.pop_back();
                if (!exact) return;
            }
        };
        visit(visit, 0, capacity_, 0);
        return best_value;
    }

    /// Column generation at a node: revised simplex (explicit basis inverse) over one covering row
    /// per item, the node's valid pool columns first, then exact pricing; stops early once the
    /// Farley bound exceeds the target.
    NodeLp solve(const Groups& g, Basis& basis) {
        NodeLp out;
        const auto n = static_cast<Eigen::Index>(size_.size());
        const Real big_m = static_cast<Real>(n + 1);  // a forbidden column costs more than covering its items alone
        std::vector<std::size_t> candidates;
        std::vector<char> valid(pool_.size(), 0);
        std::vector<std::size_t> scratch;
        for (std::size_t id = 0; id < pool_.size(); ++id) {
            if (as_groups(pool_[id], g, scratch)) {
                valid[id] = 1;
                candidates.push_back(id);
            }
        }
        const auto cost = [&](std::int64_t id) -> Real { return id < 0 ? Real(0) : valid[static_cast<std::size_t>(id)] ? Real(1) : big_m; };
        const auto column = [&](std::int64_t id) {
            Vector a = Vector::Zero(n);
            if (id < 0) {
                a(-1 - id) = -1;
            } else {
                for (const auto i : pool_[static_cast<std::size_t>(id)]) a(static_cast<Eigen::Index>(i)) = 1;
            }
            return a;
        };
        Vector y(n), u(n);
        const auto refresh_duals = [&] {
            Vector cb(n);
            for (Eigen::Index r = 0; r < n; ++r) cb(r) = cost(basis.ids[static_cast<std::size_t>(r)]);
            y.noalias() = basis.binv.transpose() * cb;
        };
        refresh_duals();
        const auto reduced_cost = [&](std::size_t id) {
            Real value = 1;
            for (const auto i : pool_[id]) value -= y(static_cast<Eigen::Index>(i));
            return value;
        };
        const int refactor_period = static_cast<int>(std::max<Eigen::Index>(64, 2 * n));
        int since_refactor = 0;
        std::vector<std::int64_t> profit(g.members.size()), item_profit(size_.size());
        std::vector<std::size_t> priced;
        for (int iteration = 0; iteration < 50000; ++iteration) {
            if (!count()) return out;
            std::int64_t entering = -1;
            Real best = -1e-9;
            bool found = false;
            for (Eigen::Index r = 0; r < n; ++r) {
                if (y(r) < best) {
                    best = y(r);
                    entering = -1 - r;
                    found = true;
                }
            }
            if (!found) {
                for (const auto id : candidates) {
                    const auto d = reduced_cost(id);
                    if (d < best - 1e-7) {
                        best = d;
                        entering = static_cast<std::int64_t>(id);
                        found = true;
                    }
                }
            }
            if (!found) {
                std::int64_t total = 0;
                for (Eigen::Index r = 0; r < n; ++r) {
                    item_profit[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(std::floor(std::clamp<double>(static_cast<double>(y(r)), 0.0, 4.0) * scale_));
                    total += item_profit[static_cast<std::size_t>(r)];
                }
                std::fill(profit.begin(), profit.end(), 0);
                for (std::size_t i = 0; i < size_.size(); ++i) profit[g.of[i]] += item_profit[i];
                bool exact = false;
                const auto knapsack = price(g, profit, priced, exact);
                if (!exact) return out;
                if (knapsack > 0) out.bound = std::max(out.bound, total / knapsack + (total % knapsack != 0 ? 1 : 0));
                if (out.bound > target_) return out;  // pruned
                std::vector<std::size_t> items;
                for (const auto k : priced) items.insert(items.end(), g.members[k].begin(), g.members[k].end());
                const auto id = add_column(items);
                if (id == valid.size()) {
                    valid.push_back(1);
                    candidates.push_back(id);
                }
                if (reduced_cost(id) >= -1e-7) {
                    out.complete = true;
                    break;
                }
                entering = static_cast<std::int64_t>(id);
            }
            // Ratio test and pivot.
            Real reduced = cost(entering);
            if (entering < 0) {
                u = -basis.binv.col(-1 - entering);
                reduced += y(-1 - entering);
            } else {
                u.setZero();
                for (const auto i : pool_[static_cast<std::size_t>(entering)]) {
                    u.noalias() += basis.binv.col(static_cast<Eigen::Index>(i));
                    reduced -= y(static_cast<Eigen::Index>(i));
                }
            }
            Eigen::Index leave = -1;
            Real step = 0;
            for (Eigen::Index r = 0; r < n; ++r) {
                if (u(r) <= 1e-9) continue;
                const Real t = std::max<Real>(0, basis.x(r)) / u(r);
                if (leave < 0 || t < step - 1e-12 || (t <= step + 1e-12 && u(r) > u(leave))) {
                    leave = r;
                    step = t;
                }
            }
            if (leave < 0) return out;  // numerical trouble
            basis.x -= step * u;
            basis.x(leave) = step;
            const RowVector pivot_row = basis.binv.row(leave) / u(leave);
            rank_one_update(basis.binv, u, pivot_row);  // binv -= u·pivot_row, the same bits as Eigen's outer product
            basis.binv.row(leave) = pivot_row;
            y += reduced * pivot_row.transpose();
            basis.ids[static_cast<std::size_t>(leave)] = entering;
            if (++since_refactor >= refactor_period) {
                since_refactor = 0;
                Matrix basis_matrix(n, n);
                for (Eigen::Index r = 0; r < n; ++r) basis_matrix.col(r) = column(basis.ids[static_cast<std::size_t>(r)]);
                if (invert_in_place(basis_matrix)) basis.binv = std::move(basis_matrix);  // else keep the updated inverse
                basis.x = basis.binv * Vector::Ones(n);
                refresh_duals();
            }
        }
        if (!out.complete) return out;
        for (Eigen::Index r = 0; r < n; ++r) {
            const auto id = basis.ids[static_cast<std::size_t>(r)];
            if (id < 0 || basis.x(r) <= 1e-9) continue;
            if (!as_groups(pool_[static_cast<std::size_t>(id)], g, scratch)) {
                out.complete = false;  // a forbidden column kept a positive value: no branching on it
                return out;
            }
            out.solution.emplace_back(scratch, static_cast<double>(basis.x(r)));
        }
        return out;
    }

    /// The LP's columns at value 1 as bins, the rest by best fit decreasing: found_ if within the target.
    bool round(const Groups& g, const NodeLp& lp) {
        std::vector<char> placed(size_.size(), 0);
        Bins bins;
        std::vector<std::int64_t> load;
        for (const auto& [col, value] : lp.solution) {
            if (value < 1 - 1e-6) continue;
            bins.emplace_back();
            load.push_back(0);
            for (const auto k : col) {
                for (const auto i : g.members[k]) {
                    if (placed[i]) continue;
                    placed[i] = 1;
                    bins.back().push_back(i);
                    load.back() += size_[i];
                }
            }
        }
        std::vector<std::size_t> rest;
        for (std::size_t i = 0; i < size_.size(); ++i) {
            if (!placed[i]) rest.push_back(i);
        }
        std::stable_sort(rest.begin(), rest.end(), [&](std::size_t a, std::size_t b) { return size_[a] > size_[b]; });
        for (const auto i : rest) {
            std::size_t best = bins.size();
            for (std::size_t b = 0; b < bins.size(); ++b) {
                if (load[b] + size_[i] <= capacity_ && (best == bins.size() || load[b] > load[best])) best = b;
            }
            if (best == bins.size()) {
                bins.emplace_back();
                load.push_back(0);
            }
            bins[best].push_back(i);
            load[best] += size_[i];
        }
        std::erase_if(bins, [](const auto& bin) { return bin.empty(); });
        if (static_cast<std::int64_t>(bins.size()) > target_) return false;
        found_ = std::move(bins);
        return true;
    }

    Outcome descend(Basis basis) {
        if (exhausted()) return Outcome::unknown;
        ++tree_nodes_;
        const auto g = groups();
        const auto lp = solve(g, basis);
        if (lp.bound > target_) return Outcome::infeasible;
        if (!lp.complete) return Outcome::unknown;
        if (round(g, lp)) return Outcome::found;
        // The pair of groups packed together most fractionally (closest to 1/2; ties: heavier pair).
        const std::size_t m = g.members.size();
        std::map<std::pair<std::size_t, std::size_t>, double> together;
        for (const auto& [col, value] : lp.solution) {
            for (std::size_t a = 0; a < col.size(); ++a) {
                for (std::size_t b = a + 1; b < col.size(); ++b) together[{std::min(col[a], col[b]), std::max(col[a], col[b])}] += value;
            }
        }
        std::pair<std::size_t, std::size_t> pair{m, m};
        double best = 1e-6;
        std::int64_t best_weight = 0;
        for (const auto& [key, value] : together) {
            const double score = std::min(value, 1 - value);
            const auto weight = g.weight[key.first] + g.weight[key.second];
            if (score > best + 1e-9 || (score > best - 1e-9 && score > 1e-6 && weight > best_weight)) {
                best = score;
                best_weight = weight;
                pair = key;
            }
        }
        if (pair.first == m) {
            incomplete_ = true;  // fractional, yet every pair is integral (over-covering): not branched
            return Outcome::unknown;
        }
        const auto a = g.members[pair.first].front(), b = g.members[pair.second].front();
        together_.emplace_back(a, b);
        const auto first = descend(basis);
        together_.pop_back();
        if (first == Outcome::found) return first;
        apart_.emplace_back(a, b);
        const auto second = descend(std::move(basis));
        apart_.pop_back();
        if (second == Outcome::found) return second;
        if (first == Outcome::unknown || second == Outcome::unknown) incomplete_ = true;
        return first == Outcome::infeasible && second == Outcome::infeasible ? Outcome::infeasible : Outcome::unknown;
    }

    std::vector<std::int64_t> size_;
    std::int64_t capacity_;
    BudgetTracker& tracker_;
    BudgetTracker& share_;
    std::vector<std::vector<std::size_t>> pool_;  // columns as sorted items
    std::map<std::vector<std::size_t>, std::size_t> pool_index_;
    std::vector<std::size_t> start_;                                     // the seeded packing's columns
    std::vector<std::pair<std::size_t, std::size_t>> together_, apart_;  // the branches on the path
    std::int64_t target_ = 0;
    std::int64_t tree_nodes_ = 0;
    bool incomplete_ = false;
    Bins found_;
};

}  // namespace continuum::packing::detail
