// Box-constrained limited-memory BFGS: the two-loop recursion of Nocedal & Wright (2006, Alg. 7.4)
// restricted to the free variables, with a projected backtracking Armijo line search (the
// "projected L-BFGS" variant of L-BFGS-B). A non-finite objective counts as "step too long".
// Used to fit Holt-Winters by minimum SSE with exact adjoint gradients.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

namespace continuum::forecast::detail {

struct LbfgsOptions {
    int memory = 10;
    std::int64_t max_evaluations = 2000;
    double relative_tolerance = 1e-11;  // stop when the objective stalls relative to its size
    double gradient_tolerance = 1e-10;  // stop when the projected gradient's max |g_i| is below this (times 1 + |f|)
};

struct LbfgsResult {
    std::vector<double> x;
    double value = 0.0;
    std::int64_t evaluations = 0;
    int iterations = 0;
    bool converged = false;
};

/// Minimises `objective(x, gradient)` (returns f(x), writes ∇f into gradient) over the box
/// lower <= x <= upper (use ±infinity for a free coordinate) from x0, stopping early when
/// `should_stop()` returns true (a caller's deadline).
template <typename Objective, typename Stop>
LbfgsResult minimize_lbfgs(Objective&& objective, std::vector<double> x0, const std::vector<double>& lower,
                           const std::vector<double>& upper, const LbfgsOptions& options, Stop&& should_stop) {
    const std::size_t d = x0.size();
    LbfgsResult result;
    std::vector<double> g(d), x_new(d), g_new(d), direction(d), coefficient(static_cast<std::size_t>(options.memory));
    std::vector<char> free(d);
    struct Pair {
        std::vector<double> s, y;
        double rho;
    };
    std::deque<Pair> history;
    for (std::size_t i = 0; i < d; ++i) x0[i] = std::clamp(x0[i], lower[i], upper[i]);
    result.x = std::move(x0);
    result.value = objective(result.x, g);
    result.evaluations = 1;
    if (!std::isfinite(result.value)) return result;
    int stalled = 0;
    while (result.evaluations < options.max_evaluations && !should_stop()) {
        double projected_max = 0.0;
        for (std::size_t i = 0; i < d; ++i) {
            const bool at_lower = result.x[i] <= lower[i] && g[i] > 0.0;
            const bool at_upper = result.x[i] >= upper[i] && g[i] < 0.0;
            free[i] = !(at_lower || at_upper);
            if (free[i]) projected_max = std::max(projected_max, std::fabs(g[i]));
        }
        if (projected_max <= options.gradient_tolerance * (1.0 + std::fabs(result.value))) {
            result.converged = true;
            break;
        }
        // Two-loop recursion on the free variables: direction = −H·g.
        for (std::size_t i = 0; i < d; ++i) direction[i] = free[i] ? g[i] : 0.0;
        for (std::size_t k = history.size(); k-- > 0;) {
            double dot = 0.0;
            for (std::size_t i = 0; i < d; ++i) dot += free[i] ? history[k].s[i] * direction[i] : 0.0;
            coefficient[k] = history[k].rho * dot;
            for (std::size_t i = 0; i < d; ++i) direction[i] -= free[i] ? coefficient[k] * history[k].y[i] : 0.0;
        }
        double scale = 0.0;
        if (!history.empty()) {
            double yy = 0.0, sy = 0.0;
            for (std::size_t i = 0; i < d; ++i) {
                yy += history.back().y[i] * history.back().y[i];
                sy += history.back().s[i] * history.back().y[i];
            }
            scale = sy / yy;
        } else {
            scale = 0.1 / std::max(projected_max, 1e-300);  // first step moves the largest coordinate by 0.1
        }
        for (double& v : direction) v *= scale;
        for (std::size_t k = 0; k < history.size(); ++k) {
            double dot = 0.0;
            for (std::size_t i = 0; i < d; ++i) dot += free[i] ? history[k].y[i] * direction[i] : 0.0;
            const double beta = history[k].rho * dot;
            for (std::size_t i = 0; i < d; ++i) direction[i] += free[i] ? history[k].s[i] * (coefficient[k] - beta) : 0.0;
        }
        double slope = 0.0;
        for (std::size_t i = 0; i < d; ++i) {
            direction[i] = free[i] ? -direction[i] : 0.0;
            slope += g[i] * direction[i];
        }
        if (!(slope < 0.0)) {  // not a descent direction: restart from projected steepest descent
            history.clear();
            const double step0 = 0.1 / std::max(projected_max, 1e-300);
            slope = 0.0;
            for (std::size_t i = 0; i < d; ++i) {
                direction[i] = free[i] ? -g[i] * step0 : 0.0;
                slope += g[i] * direction[i];
            }
            if (!(slope < 0.0)) break;
        }
        // Projected backtracking Armijo line search.
        double step = 1.0;
        double value_new = 0.0;
        bool accepted = false;
        for (int tries = 0; tries < 50 && result.evaluations < options.max_evaluations; ++tries) {
            double predicted = 0.0;
            for (std::size_t i = 0; i < d; ++i) {
                x_new[i] = std::clamp(result.x[i] + step * direction[i], lower[i], upper[i]);
                predicted += g[i] * (x_new[i] - result.x[i]);
            }
            value_new = objective(x_new, g_new);
            ++result.evaluations;
            if (std::isfinite(value_new) && value_new <= result.value + 1e-4 * std::min(predicted, 0.0)) {
                accepted = value_new < result.value || predicted == 0.0;
                break;
            }
            step *= (std::isfinite(value_new) ? 0.5 : 0.1);
        }
        if (!accepted) {
            if (history.empty()) {
                result.converged = true;  // even projected steepest descent cannot decrease f
                break;
            }
            history.clear();
            continue;
        }
        Pair pair{std::vector<double>(d), std::vector<double>(d), 0.0};
        double sy = 0.0;
        for (std::size_t i = 0; i < d; ++i) {
            pair.s[i] = x_new[i] - result.x[i];
            pair.y[i] = g_new[i] - g[i];
            sy += pair.s[i] * pair.y[i];
        }
        const double decrease = result.value - value_new;
        result.x.swap(x_new);
        g.swap(g_new);
        result.value = value_new;
        ++result.iterations;
        if (sy > 1e-300) {
            pair.rho = 1.0 / sy;
            history.push_back(std::move(pair));
            if (history.size() > static_cast<std::size_t>(options.memory)) history.pop_front();
        }
        if (decrease <= options.relative_tolerance * std::max(std::fabs(result.value), 1e-300)) {
            if (++stalled >= 3) {
                result.converged = true;
                break;
            }
        } else {
            stalled = 0;
        }
    }
    return result;
}

}  // namespace continuum::forecast::detail
