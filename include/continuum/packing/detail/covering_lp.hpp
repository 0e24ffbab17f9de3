// Internal: the LP relaxation of a covering problem with few rows, solved for its duals:
// min Σ_p cost_p x_p s.t. Σ_p a_cp x_p >= demand_c for each class c, Σ_{p in group g} x_p <= limit_g,
// x >= 0. A dense revised simplex (explicit basis inverse, big-M artificials, Dantzig pricing over
// every column) fits the node-mix search, whose rows are a few item classes and count-limited types.
// The duals are only a guide: callers repair their feasibility before using them as a bound.
#pragma once

#include <continuum/core/budget.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace continuum::packing::detail {

/// Columns of a covering LP: column j covers `a[j * classes + c]` copies of class c, costs
/// `cost[j]` and belongs to count group `group[j]` (`no_group` for none).
struct CoveringLp {
    static constexpr std::size_t no_group = std::numeric_limits<std::size_t>::max();
    std::size_t classes = 0;
    std::vector<double> demand;  // per class
    std::vector<double> limit;   // per count group
    std::vector<double> a;       // column-major: classes entries per column
    std::vector<double> cost;
    std::vector<std::size_t> group;
    [[nodiscard]] std::size_t columns() const { return cost.size(); }
};

/// The simplex's last basis: duals of the cover rows (each >= 0) and the value of each column.
struct CoveringLpSolution {
    std::vector<double> duals;
    std::vector<double> primal;
};

/// Solves `lp` (optimal unless `tracker` ran out or the iteration limit was hit). Empty vectors when
/// the LP has no column.
template <typename Defer = void>
CoveringLpSolution solve_covering_lp(const CoveringLp& lp, BudgetTracker& tracker, std::size_t max_iterations = 2000) {
    const std::size_t m = lp.classes, rows = m + lp.limit.size(), n = lp.columns();
    if (n == 0 || m == 0) return {};
    double largest_cost = 1.0;
    for (const double c : lp.cost) largest_cost = std::max(largest_cost, c);
    const double big = 1e4 * largest_cost;
    // Variable ids: [0, n) columns, [n, n+m) surplus of cover rows, [n+m, n+rows) slack of limit
    // rows (the initial basis there too), [n+rows, n+rows+m) artificials of cover rows.
    const std::size_t surplus = n, slack = n + m, artificial = n + rows;
    const auto column_of = [&](std::size_t var, std::vector<double>& out) {
        std::fill(out.begin(), out.end(), 0.0);
        if (var < n) {
            for (std::size_t c = 0; c < m; ++c) out[c] = lp.a[var * m + c];
            if (lp.group[var] != CoveringLp::no_group) out[m + lp.group[var]] = 1.0;
        } else if (var < slack) {
            out[var - surplus] = -1.0;
        } else if (var < artificial) {
            out[m + (var - slack)] = 1.0;
        } else {
            out[var - artificial] = 1.0;
        }
    };
    const auto cost_of = [&](std::size_t var) { return var < n ? lp.cost[var] : (var >= artificial ? big : 0.0); };
    std::vector<std::size_t> basis(rows);
    std::vector<double> value(rows), inverse(rows * rows, 0.0), y(rows), column(rows), w(rows);
    for (std::size_t r = 0; r < rows; ++r) {
        basis[r] = r < m ? artificial + r : slack + (r - m);
        value[r] = r < m ? lp.demand[r] : lp.limit[r - m];
        inverse[r * rows + r] = 1.0;
    }
    constexpr double tolerance = 1e-9;
    for (std::size_t iteration = 0; iteration < max_iterations && tracker.count(); ++iteration) {
        for (std::size_t r = 0; r < rows; ++r) {
            double s = 0;
            for (std::size_t k = 0; k < rows; ++k) s += cost_of(basis[k]) * inverse[k * rows + r];
            y[r] = s;
        }
        std::size_t entering = artificial;
        double most_negative = -tolerance * largest_cost;
        for (std::size_t var = 0; var < artificial; ++var) {
            double reduced = cost_of(var);
            if (var < n) {
                for (std::size_t c = 0; c < m; ++c) reduced -= y[c] * lp.a[var * m + c];
                if (lp.group[var] != CoveringLp::no_group) reduced -= y[m + lp.group[var]];
            } else if (var < slack) {
                reduced += y[var - surplus];
            } else {
                reduced -= y[m + (var - slack)];
            }
            if (reduced < most_negative) {
                most_negative = reduced;
                entering = var;
            }
        }
        if (entering == artificial) break;  // optimal
        column_of(entering, column);
        for (std::size_t r = 0; r < rows; ++r) {
            double s = 0;
            for (std::size_t k = 0; k < rows; ++k) s += inverse[r * rows + k] * column[k];
            w[r] = s;
        }
        std::size_t leaving = rows;
        double ratio = std::numeric_limits<double>::infinity();
        for (std::size_t r = 0; r < rows; ++r) {
            if (w[r] <= tolerance) continue;
            const double q = std::max(0.0, value[r]) / w[r];
            if (q < ratio - tolerance || (q <= ratio + tolerance && leaving < rows && basis[r] < basis[leaving])) {
                ratio = std::min(ratio, q);
                leaving = r;
            }
        }
        if (leaving == rows) break;  // unbounded direction: cannot happen with costs >= 0; stop safely
        const double pivot = w[leaving];
        for (std::size_t k = 0; k < rows; ++k) inverse[leaving * rows + k] /= pivot;
        value[leaving] /= pivot;
        for (std::size_t r = 0; r < rows; ++r) {
            if (r == leaving || w[r] == 0.0) continue;
            const double f = w[r];
            for (std::size_t k = 0; k < rows; ++k) inverse[r * rows + k] -= f * inverse[leaving * rows + k];
            value[r] -= f * value[leaving];
        }
        basis[leaving] = entering;
    }
    for (std::size_t r = 0; r < rows; ++r) {
        double s = 0;
        for (std::size_t k = 0; k < rows; ++k) s += cost_of(basis[k]) * inverse[k * rows + r];
        y[r] = s;
    }
    CoveringLpSolution out{std::vector<double>(m), std::vector<double>(n, 0.0)};
    for (std::size_t c = 0; c < m; ++c) out.duals[c] = std::isfinite(y[c]) ? std::max(0.0, y[c]) : 0.0;
    for (std::size_t r = 0; r < rows; ++r) {
        if (basis[r] < n) out.primal[basis[r]] = std::max(0.0, value[r]);
    }
    return out;
}

}  // namespace continuum::packing::detail
