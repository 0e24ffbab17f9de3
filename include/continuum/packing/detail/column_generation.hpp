// Internal: Gilmore–Gomory column generation for identical bins (1-D or vector). The master LP
// min Σ λ_p s.t. Σ_p a_jp λ_p >= b_j over item types j is solved by a revised simplex with an
// explicit Eigen basis inverse; columns come from a pool and from knapsack pricing. Every pricing
// round yields a Farley bound Σ b_j p_j / K computed in integers (p = scaled duals, K = exact
// knapsack optimum), so the lower bound is rigorous whatever the floating-point error. Primal
// solutions come from LP-guided diving (fix the rounded-down patterns, round one up, re-solve) with
// a little backtracking, and from rounding plus best fit decreasing on the residual.
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/detail/deferred.hpp>
#include <continuum/packing/detail/basis_inverse.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/detail/knapsack.hpp>
#include <continuum/packing/detail/sparse_pattern.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

struct ColumnGenerationResult {
    std::int64_t lower_bound = 0;
    std::vector<std::vector<std::size_t>> bins;  // a packing better than the upper bound, if found
};

/// A template (Real is the LP's floating type, double) only so that Eigen's LU and products are
/// compiled in the units that run the exact solver, not in every unit that includes packing.
template <typename Real = double>
class ColumnGeneration {
public:
    using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
    using Vector = Eigen::Matrix<Real, Eigen::Dynamic, 1>;
    using RowVector = Eigen::Matrix<Real, 1, Eigen::Dynamic>;
    using Pattern = std::vector<std::int64_t>;                            // copies per item type

    ColumnGeneration(const DenseItems& items, std::span<const std::int64_t> capacity, const std::vector<std::size_t>& placeable, BudgetTracker& tracker)
        : items_(items), capacity_(capacity.begin(), capacity.end()), tracker_(tracker) {
        const std::size_t d = items.d;
        std::map<std::vector<std::int64_t>, std::size_t> index;
        for (const auto i : placeable) {
            std::vector<std::int64_t> row(items.row(i), items.row(i) + d);
            auto [it, inserted] = index.emplace(row, members_.size());
            if (inserted) {
                members_.emplace_back();
                weight_.insert(weight_.end(), row.begin(), row.end());
            }
            members_[it->second].push_back(i);
        }
        demand_.resize(members_.size());
        for (std::size_t j = 0; j < members_.size(); ++j) demand_[j] = static_cast<std::int64_t>(members_[j].size());
    }

    /// Root bound and diving for a packing with fewer than `upper_bound` bins.
    ColumnGenerationResult solve(std::int64_t upper_bound) {
        auto out = root(upper_bound);
        if (members_.empty()) return out;
        return dive_from_root();
    }

    /// The root alone: warm pool, MBS' and SVC packings, the root LP bound. `bins` holds the best
    /// packing found (if better than `upper_bound`); dive_from_root() continues.
    ColumnGenerationResult root(std::int64_t upper_bound) {
        ColumnGenerationResult out;
        if (members_.empty()) return out;
        if (!started_) start(upper_bound);
        root_ = solve_lp(demand_);
        out.lower_bound = root_.lower_bound;
        global_lower_bound_ = root_.lower_bound;
        if (items_.d == 1 && global_lower_bound_ < upper_bound_ && !tracker_.exhausted()) value_corrected_packing(value_correction_rounds);
        out.lower_bound = global_lower_bound_;
        if (!best_patterns_.empty() || best_bins_found_) out.bins = to_bins(best_patterns_);
        return out;
    }

    /// The pool's warm start (best fit decreasing bins) and the MBS' packing, if better than
    /// `upper_bound` (returned as item indices; empty otherwise). root() calls it if needed.
    std::vector<std::vector<std::size_t>> start(std::int64_t upper_bound) {
        started_ = true;
        upper_bound_ = upper_bound;
        if (members_.empty()) return {};
        for (const auto& pattern : complete_greedily(demand_)) add_to_pool(pattern);  // warm pool: BFD bins
        // Minimum bin slack (Gupta & Ho's MBS'): often reaches the optimum when bins hold few items.
        const auto mbs = minimum_slack_packing();
        for (const auto& pattern : mbs) add_to_pool(pattern);
        if (!mbs.empty()) record({}, mbs);
        if (best_bins_found_) return to_bins(best_patterns_);
        return {};
    }

    /// Takes a better packing found elsewhere (item indices of the placeable items) as the incumbent.
    void adopt(const std::vector<std::vector<std::size_t>>& bins) {
        if (static_cast<std::int64_t>(bins.size()) >= upper_bound_ || members_.empty()) return;
        if (type_of_.empty()) {
            type_of_.assign(items_.n, 0);
            for (std::size_t j = 0; j < members_.size(); ++j) {
                for (const auto i : members_[j]) type_of_[i] = j;
            }
        }
        std::vector<Pattern> patterns;
        for (const auto& bin : bins) {
            Pattern p(demand_.size(), 0);
            for (const auto i : bin) ++p[type_of_[i]];
            add_to_pool(p);
            patterns.push_back(std::move(p));
        }
        record({}, patterns);
    }

    /// LP-guided diving from the root solution (after root()), on at most `node_allowance` more
    /// nodes of the tracker and until `deadline` (if given).
    ColumnGenerationResult dive_from_root(std::int64_t node_allowance = std::numeric_limits<std::int64_t>::max(),
                                          std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt) {
        ColumnGenerationResult out;
        if (members_.empty()) return out;
        dive_node_limit_ = tracker_.nodes() > std::numeric_limits<std::int64_t>::max() - node_allowance ? std::numeric_limits<std::int64_t>::max() : tracker_.nodes() + node_allowance;
        dive_deadline_ = deadline;
        if (global_lower_bound_ < upper_bound_ && !tracker_.exhausted()) {
            std::vector<Pattern> fixed;
            dive(demand_, fixed, root_, 0);
        }
        out.lower_bound = global_lower_bound_;
        if (!best_patterns_.empty() || best_bins_found_) out.bins = to_bins(best_patterns_);
        return out;
    }

    /// For searches built on the master LP (completion_search.hpp): the item types (weights, m × d),
    /// their demands, the incumbent's bin count, and the master LP over a residual demand `b`: its
    /// rigorous lower bound (0 if the budget ran out before any exact pricing round) and solution as
    /// (pattern trimmed to `b`, value) pairs.
    [[nodiscard]] const std::vector<std::int64_t>& type_weights() const { return weight_; }
    [[nodiscard]] const std::vector<std::int64_t>& type_demands() const { return demand_; }
    /// The bin capacity (1-D: the first dimension's).
    [[nodiscard]] std::int64_t bin_capacity() const { return capacity_.empty() ? 0 : capacity_[0]; }
    [[nodiscard]] std::int64_t incumbent_bins() const { return upper_bound_; }
    /// When set, solve_lp runs to the LP optimum (no early stop once the value rounds up to the
    /// proved bound), so the integer duals it returns are the optimum's (reduced_cost_proof.hpp).
    void set_to_optimality(bool on) { to_optimality_ = on; }
    /// `profit` and `knapsack` (integer duals and their knapsack optimum over patterns within `b`)
    /// give a Farley bound ⌈Σ profit_j b'_j / knapsack⌉ for any demand b' <= b (0: none available).
    struct ResidualLp {
        std::int64_t lower_bound = 0;
        std::vector<std::pair<Pattern, double>> solution;
        std::vector<std::int64_t> profit;
        std::int64_t knapsack = 0;
    };
    /// Columns (patterns) the next residual LPs price first, before the rest of the pool, while one of
    /// them has a negative reduced cost: a dive hands in its parent's solution, so the child's simplex
    /// brings those columns into its basis first instead of wandering from the homogeneous start
    /// (LdsDive, detail/lds_dive.hpp: half the pivots per LP on Hard28). Empty: none.
    void prefer(const std::vector<Pattern>& columns) {
        preferred_.clear();
        for (const auto& p : columns) preferred_.push_back(add_to_pool(p));
    }
    /// An optimal basis of an LP solved with set_to_optimality(true): the active types (b_j > 0, in
    /// order), per row its basic column (empty: the row's surplus) and the basis inverse.
    struct Basis {
        std::vector<std::size_t> rows;
        std::vector<SparsePattern> columns;
        Matrix inverse;
        std::vector<std::int64_t> demand;  // the LP's demand (its columns are trimmed to it)
    };
    /// The optimal basis of the last LP solved to its optimum with set_to_optimality(true) (none before).
    [[nodiscard]] const std::optional<Basis>& last_optimal_basis() const { return last_basis_; }
    /// The next LP starts from `basis` when it has the same active types (otherwise from the
    /// homogeneous patterns, as always): an optimal basis stays dual feasible when only the demand
    /// changes, so a few dual simplex pivots make it primal feasible for the new demand, and the
    /// primal simplex with pricing goes on from there (the reduced-cost proof's one-more-item LPs:
    /// one demand up by one).
    void warm_start(Basis basis) { warm_ = std::move(basis); }
    ResidualLp residual_lp(const std::vector<std::int64_t>& b) {
        auto lp = solve_lp(b);
        ResidualLp out;
        out.lower_bound = lp.lower_bound;
        out.profit = std::move(lp.profit);
        out.knapsack = lp.knapsack;
        for (const auto& [id, value] : lp.solution) out.solution.emplace_back(trimmed(dense(id), b), value);
        return out;
    }
    /// Residual rounding at a node of a search that has fixed the bins `fixed` (patterns) and left
    /// demand `b` with master LP `lp`: the floors of the LP solution, best fit decreasing on the rest;
    /// recorded if better than the incumbent.
    void round_residual(const std::vector<Pattern>& fixed, const std::vector<std::int64_t>& b, const ResidualLp& lp) {
        std::vector<std::int64_t> residual = b;
        std::vector<Pattern> taken;
        round_down(lp.solution, [](const Pattern& p) { return p; }, residual, taken);
        auto rest = complete_greedily(residual);
        taken.insert(taken.end(), rest.begin(), rest.end());
        if (static_cast<std::int64_t>(fixed.size() + taken.size()) < upper_bound_) {
            for (const auto& p : taken) add_to_pool(p);
            record(fixed, taken);
        }
    }
    /// Takes a complete packing given as patterns (copies per type) as the incumbent if it is better.
    void record_patterns(const std::vector<Pattern>& patterns) {
        for (const auto& p : patterns) add_to_pool(p);
        record({}, patterns);
    }
    /// The incumbent as item indices (empty if none was recorded here).
    [[nodiscard]] std::vector<std::vector<std::size_t>> incumbent() const { return best_bins_found_ ? to_bins(best_patterns_) : std::vector<std::vector<std::size_t>>{}; }

private:
    struct LpResult {
        std::int64_t lower_bound = 0;    // rigorous (Farley, integer)
        double objective = 0;            // LP value (floating)
        bool optimal = false;            // simplex finished
        std::vector<std::pair<std::size_t, double>> solution;  // (pool column, value > 0)
        std::vector<std::int64_t> profit;  // the integer duals behind lower_bound (per type, 0 off `b`)
        std::int64_t knapsack = 0;         // their exact knapsack optimum (0: no exact pricing yet)
    };

    static constexpr double scale_ = 16777216.0;  // 2^24: duals -> integer profits

    [[nodiscard]] continuum::detail::deferred_t<Knapsack, Real> knapsack() const { return continuum::detail::deferred_t<Knapsack, Real>(weight_, items_.d, capacity_); }

    /// Largest copies of type j alone in one bin.
    [[nodiscard]] std::int64_t alone(std::size_t j) const {
        std::int64_t copies = demand_[j];
        for (std::size_t k = 0; k < items_.d; ++k) {
            const auto w = weight_[j * items_.d + k];
            if (w > 0) copies = std::min(copies, capacity_[k] / w);
        }
        return std::max<std::int64_t>(copies, 1);
    }

    std::size_t add_to_pool(const Pattern& pattern) {
        auto sparse = sparse_pattern(pattern);
        const auto it = pool_index_.find(sparse);
        if (it != pool_index_.end()) return it->second;
        pool_index_.emplace(sparse, pool_.size());
        pool_.push_back(std::move(sparse));
        return pool_.size() - 1;
    }
    [[nodiscard]] Pattern dense(std::size_t id) const { return dense_pattern(pool_[id], demand_.size()); }

    /// Solves the master LP for demands `b` (types with b_j = 0 are dropped).
    LpResult solve_lp(const std::vector<std::int64_t>& b) {
        LpResult out;
        std::vector<std::size_t> rows;  // active types
        for (std::size_t j = 0; j < b.size(); ++j) {
            if (b[j] > 0) rows.push_back(j);
        }
        const auto m = static_cast<Eigen::Index>(rows.size());
        if (m == 0) {
            out.optimal = true;
            return out;
        }
        std::vector<std::int64_t> row_of(b.size(), -1);
        for (std::size_t r = 0; r < rows.size(); ++r) row_of[rows[r]] = static_cast<std::int64_t>(r);
        // Basis: -1 - r for surplus of row r, otherwise a pool column. Start with homogeneous patterns,
        // or from warm_ (see warm_start()) when it has the same rows.
        std::vector<std::int64_t> basis(rows.size());
        Matrix binv;
        Vector rhs(m), x(m);
        for (std::size_t r = 0; r < rows.size(); ++r) rhs(static_cast<Eigen::Index>(r)) = static_cast<double>(b[rows[r]]);
        const auto cold_start = [&] {
            binv = Matrix::Zero(m, m);
            for (std::size_t r = 0; r < rows.size(); ++r) {
                const auto j = rows[r];
                Pattern p(b.size(), 0);
                p[j] = std::min(alone(j), b[j]);
                basis[r] = static_cast<std::int64_t>(add_to_pool(p));
                binv(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(r)) = 1.0 / static_cast<double>(p[j]);
            }
            x = binv * rhs;
        };
        bool warm = warm_ && warm_->rows == rows && warm_->inverse.rows() == m && warm_->demand.size() == b.size();
        if (warm) {
            for (std::size_t r = 0; r < rows.size(); ++r) {
                basis[r] = warm_->columns[r].empty() ? -1 - static_cast<std::int64_t>(r) : static_cast<std::int64_t>(add_to_pool(dense_pattern(warm_->columns[r], b.size())));
            }
            binv = warm_->inverse;
            // The inverse is of the columns trimmed to the old demand: when a basic column holds more
            // copies of a type than the old or the new demand, the columns differ, so refactorise.
            bool same_columns = true;
            for (std::size_t r = 0; r < rows.size() && same_columns; ++r) {
                for (const auto& [j, c] : warm_->columns[r]) same_columns = same_columns && c <= std::min(b[j], warm_->demand[j]);
            }
            if (!same_columns) {
                Matrix basis_matrix = Matrix::Zero(m, m);
                for (std::size_t r = 0; r < rows.size(); ++r) {
                    if (basis[r] < 0) {
                        basis_matrix(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(r)) = -1.0;
                        continue;
                    }
                    for (const auto& [j, c] : warm_->columns[r]) {
                        if (row_of[j] >= 0) basis_matrix(row_of[j], static_cast<Eigen::Index>(r)) = static_cast<double>(std::min(c, b[j]));
                    }
                }
                if (invert_in_place(basis_matrix)) {
                    binv = std::move(basis_matrix);
                } else {
                    warm = false;
                }
            }
        }
        if (warm) {
            x = binv * rhs;
        } else {
            cold_start();
        }
        warm_.reset();
        const auto column = [&](std::int64_t id) {
            Vector a = Vector::Zero(m);
            if (id < 0) {
                a(-1 - id) = -1.0;
            } else {
                for (const auto& [j, c] : pool_[static_cast<std::size_t>(id)]) {
                    if (row_of[j] >= 0) a(row_of[j]) = static_cast<double>(std::min(c, b[j]));
                }
            }
            return a;
        };
        const auto cost = [](std::int64_t id) { return id < 0 ? 0.0 : 1.0; };
        // The pool's columns over the active rows (row, copies trimmed to b), flat, in each
        // pattern's order: the pricing loops below read them every iteration, and the sums keep
        // the order of the pattern's entries (the same floating-point result as reading pool_).
        std::vector<std::size_t> flat_start{0};
        std::vector<Eigen::Index> flat_row;
        std::vector<double> flat_copies;
        const auto flatten = [&] {
            for (std::size_t id = flat_start.size() - 1; id < pool_.size(); ++id) {
                for (const auto& [j, c] : pool_[id]) {
                    if (row_of[j] < 0) continue;
                    flat_row.push_back(row_of[j]);
                    flat_copies.push_back(static_cast<double>(std::min(c, b[j])));
                }
                flat_start.push_back(flat_row.size());
            }
        };
        auto pricing = knapsack();
        std::vector<std::int64_t> profit(b.size(), 0);
        // Refactorise (O(m³)) after twice as many pivots as the basis has rows, at least 64: the
        // rank-1 updates cost O(m²) each, so refactorising stays a fraction of the pivots' work
        // (every 64 pivots it took a third of the root LP's time on Scholl 3, m = 200).
        int since_refactor = 0;
        const auto refactor_period = static_cast<int>(std::max<Eigen::Index>(64, 2 * m));
        const double eps = 1e-9;
        // Duals y = B^-T c_B, recomputed at every refactorisation and updated by each pivot in O(m).
        Vector y(m), u(m);
        const auto refresh_duals = [&] {
            Vector cb(m);
            for (Eigen::Index r = 0; r < m; ++r) cb(r) = cost(basis[static_cast<std::size_t>(r)]);
            y.noalias() = binv.transpose() * cb;
        };
        refresh_duals();
        // u = B^-1 a for `entering` (from the few non-zeros of a); returns its reduced cost.
        const auto direction = [&](std::int64_t entering) {
            double reduced = cost(entering);
            if (entering < 0) {
                u = -binv.col(-1 - entering);
                reduced += y(-1 - entering);
            } else {
                u.setZero();
                for (const auto& [j, c] : pool_[static_cast<std::size_t>(entering)]) {
                    if (row_of[j] < 0) continue;
                    const double copies = static_cast<double>(std::min(c, b[j]));
                    u.noalias() += copies * binv.col(row_of[j]);
                    reduced -= copies * y(row_of[j]);
                }
            }
            return reduced;
        };
        // `entering` (direction u, reduced cost `reduced`) replaces row `leave`'s column at value `step`.
        const auto pivot = [&](std::int64_t entering, Eigen::Index leave, double step, double reduced) {
            x -= step * u;
            x(leave) = step;
            const RowVector pivot_row = binv.row(leave) / u(leave);
            rank_one_update(binv, u, pivot_row);  // binv -= u·pivot_row, column by column
            binv.row(leave) = pivot_row;
            y += reduced * pivot_row.transpose();
            basis[static_cast<std::size_t>(leave)] = entering;
            if (++since_refactor >= refactor_period) {
                since_refactor = 0;
                Matrix basis_matrix(m, m);
                for (Eigen::Index r = 0; r < m; ++r) basis_matrix.col(r) = column(basis[static_cast<std::size_t>(r)]);
                // Numerically singular: keep the updated inverse (the pivots' rank-1 updates).
                if (invert_in_place(basis_matrix)) binv = std::move(basis_matrix);
                x = binv * rhs;
                refresh_duals();
            }
        };
        // Dual simplex from a warm basis: it is dual feasible (an optimal basis of another demand over
        // the same rows), so pivots that each take a row of negative value out (the most negative)
        // and bring in the column of least reduced cost per unit of its entry in that row keep it
        // dual feasible until it is primal feasible too. False: no column can enter (numerical
        // trouble), too many pivots, or the budget ran out.
        const auto dual_phase = [&] {
            std::vector<char> in_basis(pool_.size(), 0), surplus_in_basis(rows.size(), 0);
            for (const auto id : basis) {
                if (id < 0) {
                    surplus_in_basis[static_cast<std::size_t>(-1 - id)] = 1;
                } else {
                    in_basis[static_cast<std::size_t>(id)] = 1;
                }
            }
            const auto most_pivots = 4 * m + 64;
            for (Eigen::Index k = 0; k < most_pivots; ++k) {
                Eigen::Index leave = -1;
                double lowest = -eps;
                for (Eigen::Index r = 0; r < m; ++r) {
                    if (x(r) < lowest) {
                        lowest = x(r);
                        leave = r;
                    }
                }
                if (leave < 0) return true;
                if (!tracker_.count() || tracker_.exhausted()) return false;
                const RowVector rho = binv.row(leave);
                std::int64_t entering = 0;
                bool found = false;
                double best_ratio = 0, best_alpha = 0;
                const auto consider = [&](std::int64_t id, double alpha, double reduced) {
                    if (alpha >= -eps) return;
                    const double ratio = std::max(0.0, reduced) / -alpha;
                    if (!found || ratio < best_ratio - 1e-12 || (ratio <= best_ratio + 1e-12 && -alpha > best_alpha)) {
                        found = true;
                        entering = id;
                        best_ratio = ratio;
                        best_alpha = -alpha;
                    }
                };
                for (Eigen::Index r = 0; r < m; ++r) {
                    if (!surplus_in_basis[static_cast<std::size_t>(r)]) consider(-1 - r, -rho(r), y(r));
                }
                flatten();
                for (std::size_t id = 0; id < pool_.size(); ++id) {
                    if (in_basis[id]) continue;
                    double alpha = 0, value = 0;
                    for (std::size_t k = flat_start[id]; k < flat_start[id + 1]; ++k) {
                        const double copies = flat_copies[k];
                        alpha += copies * rho(flat_row[k]);
                        value += copies * y(flat_row[k]);
                    }
                    consider(static_cast<std::int64_t>(id), alpha, 1.0 - value);
                }
                if (!found) return false;
                const double reduced = direction(entering);
                if (u(leave) >= -eps) return false;
                const auto leaving = basis[static_cast<std::size_t>(leave)];
                if (leaving < 0) {
                    surplus_in_basis[static_cast<std::size_t>(-1 - leaving)] = 0;
                } else {
                    in_basis[static_cast<std::size_t>(leaving)] = 0;
                }
                if (entering < 0) {
                    surplus_in_basis[static_cast<std::size_t>(-1 - entering)] = 1;
                } else {
                    in_basis[static_cast<std::size_t>(entering)] = 1;
                }
                pivot(entering, leave, x(leave) / u(leave), reduced);
            }
            return false;
        };
        if (warm && !dual_phase()) {
            cold_start();
            refresh_duals();
        }
        for (int iteration = 0;; ++iteration) {
            if (!tracker_.count() || tracker_.exhausted()) break;  // a pivot costs O(m²): check the clock each time
            // Entering column: a surplus with negative dual, the best pool column, or knapsack pricing.
            std::int64_t entering = 0;
            bool found = false;
            double best_reduced = -eps;
            for (Eigen::Index r = 0; r < m; ++r) {
                if (y(r) < best_reduced) {
                    best_reduced = y(r);
                    entering = -1 - r;
                    found = true;
                }
            }
            flatten();
            const auto price_column = [&](std::size_t id) {
                double value = 0;
                for (std::size_t k = flat_start[id]; k < flat_start[id + 1]; ++k) value += flat_copies[k] * y(flat_row[k]);
                if (1.0 - value < best_reduced - 1e-7) {
                    best_reduced = 1.0 - value;
                    entering = static_cast<std::int64_t>(id);
                    found = true;
                }
            };
            if (!found) {
                for (const auto id : preferred_) price_column(id);
            }
            if (!found) {
                for (std::size_t id = 0; id < pool_.size(); ++id) price_column(id);
            }
            // Early termination: the primal objective already rounds up to the proved bound.
            if (!found && out.lower_bound > 0 && !to_optimality_) {
                double objective = 0;
                for (Eigen::Index r = 0; r < m; ++r) objective += basis[static_cast<std::size_t>(r)] >= 0 ? std::max(0.0, x(r)) : 0.0;
                if (std::ceil(objective - 1e-6) <= static_cast<double>(out.lower_bound)) {
                    out.optimal = true;
                    break;
                }
            }
            if (!found) {
                // Knapsack pricing on scaled non-negative duals; also the Farley bound.
                bool bounded = true;
                std::fill(profit.begin(), profit.end(), 0);
                for (std::size_t r = 0; r < rows.size(); ++r) {
                    const double v = std::max(0.0, y(static_cast<Eigen::Index>(r)));
                    if (v > 1e6) bounded = false;
                    profit[rows[r]] = static_cast<std::int64_t>(std::floor(std::min(v, 1e6) * scale_));
                }
                const auto best = pricing.solve(profit, b, 2000000, tracker_);
                for (int c = 0; c < 8; ++c) tracker_.count();
                if (best.exact && bounded && best.value > 0) {
                    std::int64_t total = 0;
                    for (std::size_t j = 0; j < b.size(); ++j) total += b[j] * profit[j];
                    const std::int64_t farley = total / best.value + (total % best.value != 0 ? 1 : 0);
                    if (out.knapsack == 0 || farley >= out.lower_bound) {
                        out.profit = profit;
                        out.knapsack = best.value;
                    }
                    out.lower_bound = std::max(out.lower_bound, farley);
                    double objective = 0;
                    for (Eigen::Index r = 0; r < m; ++r) objective += basis[static_cast<std::size_t>(r)] >= 0 ? std::max(0.0, x(r)) : 0.0;
                    if (!to_optimality_ && std::ceil(objective - 1e-6) <= static_cast<double>(out.lower_bound)) {
                        out.optimal = true;  // the LP value cannot round up any higher
                        break;
                    }
                }
                double value = 0;
                for (std::size_t r = 0; r < rows.size(); ++r) value += static_cast<double>(best.counts[rows[r]]) * y(static_cast<Eigen::Index>(r));
                if (1.0 - value < -1e-7) {
                    entering = static_cast<std::int64_t>(add_to_pool(best.counts));
                    found = true;
                } else if (best.exact) {
                    out.optimal = true;
                    break;
                } else {
                    break;
                }
            }
            // Ratio test.
            const double reduced = direction(entering);
            Eigen::Index leave = -1;
            double step = 0;
            for (Eigen::Index r = 0; r < m; ++r) {
                if (u(r) <= 1e-9) continue;
                const double t = std::max(0.0, x(r)) / u(r);
                if (leave < 0 || t < step - 1e-12 || (t <= step + 1e-12 && u(r) > u(leave))) {
                    leave = r;
                    step = t;
                }
            }
            if (leave < 0) break;  // unbounded cannot happen (costs >= 0); numerical trouble
            pivot(entering, leave, step, reduced);
            if (iteration > 20000) break;
        }
        if (out.optimal && to_optimality_) {
            Basis kept{rows, std::vector<SparsePattern>(rows.size()), binv, b};
            for (std::size_t r = 0; r < rows.size(); ++r) {
                if (basis[r] >= 0) kept.columns[r] = pool_[static_cast<std::size_t>(basis[r])];
            }
            last_basis_ = std::move(kept);
        }
        out.objective = 0;
        for (Eigen::Index r = 0; r < m; ++r) {
            const auto id = basis[static_cast<std::size_t>(r)];
            if (id >= 0 && x(r) > 1e-9) {
                out.solution.emplace_back(static_cast<std::size_t>(id), x(r));
                out.objective += x(r);
            }
        }
        return out;
    }

    std::vector<std::vector<std::size_t>> to_bins(const std::vector<Pattern>& patterns) const {
        std::vector<std::size_t> next(members_.size(), 0);
        std::vector<std::vector<std::size_t>> bins;
        for (const auto& p : patterns) {
            std::vector<std::size_t> bin;
            for (std::size_t j = 0; j < p.size(); ++j) {
                for (std::int64_t c = 0; c < p[j]; ++c) bin.push_back(members_[j][next[j]++]);
            }
            if (!bin.empty()) bins.push_back(std::move(bin));
        }
        return bins;
    }

    /// Best fit decreasing of the residual demand into whole patterns.
    std::vector<Pattern> complete_greedily(const std::vector<std::int64_t>& b) const {
        const std::size_t d = items_.d;
        std::vector<std::size_t> types;
        for (std::size_t j = 0; j < b.size(); ++j) {
            if (b[j] > 0) types.push_back(j);
        }
        const auto size = [&](std::size_t j) {
            double s = 0;
            for (std::size_t k = 0; k < d; ++k) s += capacity_[k] > 0 ? static_cast<double>(weight_[j * d + k]) / static_cast<double>(capacity_[k]) : 0.0;
            return s;
        };
        std::stable_sort(types.begin(), types.end(), [&](std::size_t a, std::size_t c) { return size(a) > size(c); });
        std::vector<Pattern> bins;
        std::vector<std::vector<std::int64_t>> residual;
        for (const auto j : types) {
            for (std::int64_t copy = 0; copy < b[j]; ++copy) {
                std::size_t best = bins.size();
                double best_left = 0;
                for (std::size_t q = 0; q < bins.size(); ++q) {
                    if (!fits(&weight_[j * d], residual[q].data(), d)) continue;
                    double left = 0;
                    for (std::size_t k = 0; k < d; ++k) left += capacity_[k] > 0 ? static_cast<double>(residual[q][k] - weight_[j * d + k]) / static_cast<double>(capacity_[k]) : 0.0;
                    if (best == bins.size() || left < best_left) {
                        best = q;
                        best_left = left;
                    }
                }
                if (best == bins.size()) {
                    bins.emplace_back(b.size(), 0);
                    residual.push_back(capacity_);
                }
                ++bins[best][j];
                for (std::size_t k = 0; k < d; ++k) residual[best][k] -= weight_[j * d + k];
            }
        }
        return bins;
    }

    /// MBS': open a bin with the largest remaining item and fill it with the subset of the other
    /// remaining items that leaves the least slack (an exact knapsack whose profits are the sizes),
    /// repeat. Returns nothing when the budget runs out first.
    std::vector<Pattern> minimum_slack_packing() {
        const std::size_t d = items_.d;
        const std::size_t m = demand_.size();
        std::vector<std::int64_t> profit(m, 0);
        for (std::size_t j = 0; j < m; ++j) {
            if (d == 1) {
                profit[j] = weight_[j];
            } else {
                double s = 0;
                for (std::size_t k = 0; k < d; ++k) s += capacity_[k] > 0 ? static_cast<double>(weight_[j * d + k]) / static_cast<double>(capacity_[k]) : 0.0;
                profit[j] = static_cast<std::int64_t>(std::floor(s * 1048576.0)) + 1;
            }
        }
        std::vector<std::size_t> by_size(m);
        for (std::size_t j = 0; j < m; ++j) by_size[j] = j;
        std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t a, std::size_t c) { return profit[a] > profit[c]; });
        std::vector<std::int64_t> left = demand_;
        std::vector<Pattern> bins;
        std::size_t next = 0;
        while (true) {
            while (next < m && left[by_size[next]] == 0) ++next;
            if (next == m) break;
            if (tracker_.exhausted() || static_cast<std::int64_t>(bins.size()) >= upper_bound_) return {};
            const std::size_t j = by_size[next];
            --left[j];
            std::vector<std::int64_t> room(capacity_);
            for (std::size_t k = 0; k < d; ++k) room[k] -= weight_[j * d + k];
            continuum::detail::deferred_t<Knapsack, Real> fill(weight_, d, room);
            auto best = fill.solve(profit, left, 100000, tracker_);
            best.counts[j] += 1;
            for (std::size_t t = 0; t < m; ++t) left[t] -= best.counts[t] - (t == j ? 1 : 0);
            bins.push_back(std::move(best.counts));
        }
        return bins;
    }

    static constexpr int value_correction_rounds = 40;

    /// Sequential value correction (Belov & Scheithauer's SVC, 1-D) on top of MBS': each bin holds
    /// the largest remaining item plus the fill of the others maximising their *values*; after each
    /// packing an item's value moves towards size × capacity / (fill of the bin it landed in), so
    /// items that ended in poorly filled bins are preferred next time; values are also perturbed
    /// by ±5 % (seeded) for diversity. Stops at `rounds`, when a packing reaches the lower bound,
    /// or when the budget runs out. Every complete packing is recorded.
    void value_corrected_packing(int rounds) {
        const std::size_t m = demand_.size();
        std::vector<double> value(m);
        for (std::size_t j = 0; j < m; ++j) value[j] = static_cast<double>(weight_[j]);
        std::vector<std::size_t> by_size(m);
        for (std::size_t j = 0; j < m; ++j) by_size[j] = j;
        std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t a, std::size_t c) { return weight_[a] > weight_[c]; });
        std::mt19937_64 rng(20240607);
        std::uniform_real_distribution<double> jitter(0.95, 1.05);
        std::vector<std::int64_t> profit(m);
        const double unit = 1024.0 / static_cast<double>(capacity_[0]);  // values -> integers of about 10 bits per bin
        for (int round = 0; round < rounds && upper_bound_ > global_lower_bound_; ++round) {
            for (std::size_t j = 0; j < m; ++j) profit[j] = std::max<std::int64_t>(1, std::llround(value[j] * jitter(rng) * unit * 64.0));
            std::vector<std::int64_t> left = demand_;
            std::vector<Pattern> bins;
            std::size_t next = 0;
            bool complete = true;
            while (true) {
                while (next < m && left[by_size[next]] == 0) ++next;
                if (next == m) break;
                if (tracker_.exhausted() || static_cast<std::int64_t>(bins.size()) + 1 >= upper_bound_) {
                    complete = false;
                    break;
                }
                const std::size_t j = by_size[next];
                --left[j];
                continuum::detail::deferred_t<Knapsack, Real> fill(weight_, 1, std::vector<std::int64_t>{capacity_[0] - weight_[j]});
                auto best = fill.solve(profit, left, 20000, tracker_);
                best.counts[j] += 1;
                for (std::size_t t = 0; t < m; ++t) left[t] -= best.counts[t] - (t == j ? 1 : 0);
                bins.push_back(std::move(best.counts));
            }
            if (!complete) {
                if (tracker_.exhausted()) return;
            } else {
                for (const auto& bin : bins) add_to_pool(bin);
                record({}, bins);
            }
            // Correction: items in under-filled bins become more valuable.
            const double rate = 1.0 / (2.0 + static_cast<double>(round));
            for (const auto& bin : bins) {
                std::int64_t filled = 0;
                for (std::size_t t = 0; t < m; ++t) filled += bin[t] * weight_[t];
                if (filled <= 0) continue;
                const double stretch = static_cast<double>(capacity_[0]) / static_cast<double>(filled);
                for (std::size_t t = 0; t < m; ++t) {
                    if (bin[t] > 0) value[t] = (1.0 - rate) * value[t] + rate * static_cast<double>(weight_[t]) * stretch * stretch;
                }
            }
        }
    }

    void record(const std::vector<Pattern>& fixed, const std::vector<Pattern>& rest) {
        const auto count = static_cast<std::int64_t>(fixed.size() + rest.size());
        if (count < upper_bound_) {
            upper_bound_ = count;
            best_patterns_ = fixed;
            best_patterns_.insert(best_patterns_.end(), rest.begin(), rest.end());
            best_bins_found_ = true;
        }
    }

    /// Depth-first diving: fix the rounded-down patterns, then round up one fractional pattern
    /// (the largest first, then the next ones when backtracking), re-solve, repeat.
    [[nodiscard]] bool dive_over() {
        return tracker_.exhausted() || tracker_.nodes() >= dive_node_limit_ || (dive_deadline_ && std::chrono::steady_clock::now() >= *dive_deadline_);
    }

    void dive(const std::vector<std::int64_t>& b, std::vector<Pattern>& fixed, const LpResult& lp, int depth) {
        if (upper_bound_ <= global_lower_bound_ || dive_over()) return;
        const auto fixed_count = static_cast<std::int64_t>(fixed.size());
        // Rounding heuristic: floors of the LP solution, then best fit decreasing on the rest.
        std::vector<std::int64_t> residual = b;
        std::vector<Pattern> taken;
        round_down(lp.solution, [this](std::size_t id) { return dense(id); }, residual, taken);
        {
            auto rest = complete_greedily(residual);
            auto all = taken;
            all.insert(all.end(), rest.begin(), rest.end());
            record(fixed, all);
        }
        if (upper_bound_ <= global_lower_bound_) return;
        // Candidates to round up: fractional parts, largest first.
        std::vector<std::pair<double, std::size_t>> fractional;
        for (const auto& [id, value] : lp.solution) {
            const double frac = value - std::floor(value + 1e-9);
            if (frac > 1e-6) fractional.emplace_back(frac, id);
        }
        std::sort(fractional.begin(), fractional.end(), [](const auto& a, const auto& c) { return a.first != c.first ? a.first > c.first : a.second < c.second; });
        const std::size_t width = depth < 2 ? 3 : 1;
        if (fractional.empty() && taken.empty()) return;
        for (std::size_t choice = 0; choice < std::max<std::size_t>(1, std::min(width, fractional.size())); ++choice) {
            std::vector<std::int64_t> child = residual;
            const std::size_t before = fixed.size();
            fixed.insert(fixed.end(), taken.begin(), taken.end());
            if (choice < fractional.size()) {
                Pattern p = trimmed(dense(fractional[choice].second), child);
                if (std::any_of(p.begin(), p.end(), [](std::int64_t c) { return c > 0; })) {
                    for (std::size_t j = 0; j < p.size(); ++j) child[j] -= p[j];
                    fixed.push_back(std::move(p));
                }
            }
            if (fixed.size() > before) {
                const auto sub = solve_lp(child);
                const auto bound = static_cast<std::int64_t>(fixed.size()) + std::max(sub.lower_bound, static_cast<std::int64_t>(std::ceil(sub.objective - 1e-6)));
                if (std::all_of(child.begin(), child.end(), [](std::int64_t c) { return c == 0; })) {
                    record(fixed, {});
                } else if (bound < upper_bound_) {
                    dive(child, fixed, sub, depth + 1);
                }
            }
            fixed.resize(before);
            if (upper_bound_ <= global_lower_bound_ || dive_over()) return;
        }
        (void)fixed_count;
    }

    /// Takes floor(value) copies of each solution pattern (trimmed to what `residual` still needs)
    /// into `taken`, lowering `residual`.
    template <typename Solution, typename PatternOf>
    static void round_down(const Solution& solution, PatternOf pattern_of, std::vector<std::int64_t>& residual, std::vector<Pattern>& taken) {
        for (const auto& [column, value] : solution) {
            auto copies = static_cast<std::int64_t>(std::floor(value + 1e-9));
            for (; copies > 0; --copies) {
                Pattern p = trimmed(pattern_of(column), residual);
                if (std::all_of(p.begin(), p.end(), [](std::int64_t c) { return c == 0; })) break;
                for (std::size_t j = 0; j < p.size(); ++j) residual[j] -= p[j];
                taken.push_back(std::move(p));
            }
        }
    }

    static Pattern trimmed(const Pattern& p, const std::vector<std::int64_t>& b) {
        Pattern out(p.size(), 0);
        for (std::size_t j = 0; j < p.size(); ++j) out[j] = std::min(p[j], b[j]);
        return out;
    }

    const DenseItems& items_;
    std::vector<std::int64_t> capacity_;
    BudgetTracker& tracker_;
    std::vector<std::vector<std::size_t>> members_;  // item indices per type
    std::vector<std::int64_t> weight_;               // types x d
    std::vector<std::int64_t> demand_;
    std::vector<SparsePattern> pool_;
    std::map<SparsePattern, std::size_t> pool_index_;
    std::vector<std::size_t> preferred_;  // see prefer()
    std::int64_t upper_bound_ = 0;
    std::int64_t global_lower_bound_ = 0;
    std::vector<Pattern> best_patterns_;
    bool best_bins_found_ = false;
    std::vector<std::size_t> type_of_;  // item -> type (for adopt)
    bool to_optimality_ = false;
    std::optional<Basis> last_basis_;  // see last_optimal_basis()
    std::optional<Basis> warm_;        // see warm_start()
    LpResult root_;
    bool started_ = false;
    std::int64_t dive_node_limit_ = std::numeric_limits<std::int64_t>::max();
    std::optional<std::chrono::steady_clock::time_point> dive_deadline_;
};

}  // namespace continuum::packing::detail
