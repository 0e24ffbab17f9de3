// Box-constrained limited-memory BFGS: the two-loop recursion of Nocedal & Wright (2006, Alg. 7.4)
// restricted to the free variables, with a projected backtracking Armijo line search (the
// "projected L-BFGS" variant of L-BFGS-B). A non-finite objective counts as "step too long".
// Used to fit Holt-Winters by minimum SSE with exact adjoint gradients.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <continuum/core/detail/deferred.hpp>

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

/// The minimiser in reverse-communication form (like the Fortran L-BFGS-B driver): it asks for the
/// objective at point() and is told the value and gradient, so a caller can evaluate many
/// independent searches together (HoltWintersBatch fits lanes of series at once). Usage:
///     LbfgsSearch search(x0, lower, upper, options);
///     while (search.wants_evaluation()) search.tell(f(search.point(), search.gradient()), should_stop);
/// minimize_lbfgs below is exactly that loop. A class template on a defaulted parameter (use it as
/// LbfgsSearch) so that its members compile only in the units that run a search (issue 21).
template <class Defer = void>
class BasicLbfgsSearch {
public:
    BasicLbfgsSearch(std::vector<double> x0, const std::vector<double>& lower, const std::vector<double>& upper, const LbfgsOptions& options)
        : options_(options), lower_(lower), upper_(upper), d_(x0.size()), g_(d_), x_new_(d_), g_new_(d_), direction_(d_),
          coefficient_(static_cast<std::size_t>(std::max(options.memory, 1))), free_(d_),
          history_s_(coefficient_.size() * d_), history_y_(coefficient_.size() * d_), history_rho_(coefficient_.size()) {
        for (std::size_t i = 0; i < d_; ++i) x0[i] = std::clamp(x0[i], lower_[i], upper_[i]);
        result_.x = std::move(x0);
    }

    [[nodiscard]] bool wants_evaluation() const { return stage_ != Stage::done; }
    /// Where the objective is wanted next.
    [[nodiscard]] const std::vector<double>& point() const { return stage_ == Stage::first ? result_.x : x_new_; }
    /// Where the caller writes the gradient at point().
    [[nodiscard]] std::vector<double>& gradient() { return stage_ == Stage::first ? g_ : g_new_; }
    /// The search so far (final once wants_evaluation() is false).
    [[nodiscard]] const LbfgsResult& result() const { return result_; }

    /// Whether tell(value) will read the gradient at point(): not for a non-finite value nor for a
    /// line-search trial it rejects (about a fifth of a Holt-Winters fit's evaluations), so a caller
    /// may skip computing it there (minimize_lbfgs does: the backward pass is about half an evaluation).
    [[nodiscard]] bool needs_gradient(double value) const {
        if (!std::isfinite(value)) return false;
        if (stage_ == Stage::first) return true;
        return value <= result_.value + 1e-4 * std::min(predicted_, 0.0) && (value < result_.value || predicted_ == 0.0);
    }

    /// The objective's value at point() (gradient() already written when needs_gradient(value)); `should_stop()` is asked
    /// before each new iteration, as a deadline.
    template <typename Stop>
    void tell(double value, Stop&& should_stop) {
        if (stage_ == Stage::first) {
            result_.value = value;
            result_.evaluations = 1;
            if (!std::isfinite(result_.value)) {
                stage_ = Stage::done;
                return;
            }
            next_iteration(should_stop);
            return;
        }
        // A line-search trial.
        ++result_.evaluations;
        if (std::isfinite(value) && value <= result_.value + 1e-4 * std::min(predicted_, 0.0)) {
            accept(value, value < result_.value || predicted_ == 0.0, should_stop);
            return;
        }
        step_ *= (std::isfinite(value) ? 0.5 : 0.1);
        if (++tries_ < 50 && result_.evaluations < options_.max_evaluations) {
            propose();
            return;
        }
        reject(should_stop);
    }

private:
    enum class Stage { first, line_search, done };

    /// Σ a[i]·b[i] in four interleaved partial sums: a fixed order (deterministic), and four
    /// independent addition chains instead of one latency-bound chain.
    static double dot(const double* a, const double* b, std::size_t n) {
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        std::size_t i = 0;
        for (; i + 4 <= n; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        for (; i < n; ++i) s0 += a[i] * b[i];
        return (s0 + s1) + (s2 + s3);
    }
    // The correction pairs (s, y, ρ), oldest first, in a ring of options.memory slots of d values.
    /// history_first_ + k < 2 · memory: a subtraction instead of a division (four per pair and direction).
    [[nodiscard]] std::size_t slot(std::size_t k) const {
        const std::size_t s = history_first_ + k;
        return s >= history_rho_.size() ? s - history_rho_.size() : s;
    }
    [[nodiscard]] const double* history_s(std::size_t k) const { return history_s_.data() + slot(k) * d_; }
    [[nodiscard]] const double* history_y(std::size_t k) const { return history_y_.data() + slot(k) * d_; }
    void clear_history() {
        history_count_ = 0;
        history_first_ = 0;
    }

    template <typename Stop>
    void next_iteration(Stop&& should_stop) {
        while (result_.evaluations < options_.max_evaluations && !should_stop()) {
            if (prepare_direction()) {
                step_ = 1.0;
                tries_ = 0;
                stage_ = Stage::line_search;
                propose();
                return;
            }
            if (stage_ == Stage::done) return;
        }
        stage_ = Stage::done;
    }

    /// Computes the search direction; false (and stage done) when converged or stuck.
    bool prepare_direction() {
        const std::size_t d = d_;
        auto& g = g_;
        double projected_max = 0.0;
        for (std::size_t i = 0; i < d; ++i) {
            const bool at_lower = result_.x[i] <= lower_[i] && g[i] > 0.0;
            const bool at_upper = result_.x[i] >= upper_[i] && g[i] < 0.0;
            free_[i] = (at_lower || at_upper) ? 0.0 : 1.0;
            if (free_[i] != 0.0) projected_max = std::max(projected_max, std::fabs(g[i]));
        }
        if (projected_max <= options_.gradient_tolerance * (1.0 + std::fabs(result_.value))) {
            result_.converged = true;
            stage_ = Stage::done;
            return false;
        }
        // Two-loop recursion on the free variables: direction = −H·g. The fixed coordinates are
        // masked (× 0) rather than branched over, so the loops vectorise; they stay at 0.
        for (std::size_t i = 0; i < d; ++i) direction_[i] = free_[i] != 0.0 ? g[i] : 0.0;
        for (std::size_t k = history_count_; k-- > 0;) {
            const double* y = history_y(k);
            coefficient_[k] = history_rho_[slot(k)] * dot(history_s(k), direction_.data(), d);
            for (std::size_t i = 0; i < d; ++i) direction_[i] -= coefficient_[k] * y[i] * free_[i];
        }
        double scale = 0.0;
        if (history_count_ > 0) {
            const double* y = history_y(history_count_ - 1);
            scale = dot(history_s(history_count_ - 1), y, d) / dot(y, y, d);
        } else {
            scale = 0.1 / std::max(projected_max, 1e-300);  // first step moves the largest coordinate by 0.1
        }
        for (double& v : direction_) v *= scale;
        for (std::size_t k = 0; k < history_count_; ++k) {
            const double* s = history_s(k);
            const double beta = history_rho_[slot(k)] * dot(history_y(k), direction_.data(), d);
            for (std::size_t i = 0; i < d; ++i) direction_[i] += s[i] * (coefficient_[k] - beta) * free_[i];
        }
        double slope = 0.0;
        for (std::size_t i = 0; i < d; ++i) {
            direction_[i] = free_[i] != 0.0 ? -direction_[i] : 0.0;
            slope += g[i] * direction_[i];
        }
        if (!(slope < 0.0)) {  // not a descent direction: restart from projected steepest descent
            clear_history();
            const double step0 = 0.1 / std::max(projected_max, 1e-300);
            slope = 0.0;
            for (std::size_t i = 0; i < d; ++i) {
                direction_[i] = free_[i] != 0.0 ? -g[i] * step0 : 0.0;
                slope += g[i] * direction_[i];
            }
            if (!(slope < 0.0)) {
                stage_ = Stage::done;
                return false;
            }
        }
        return true;
    }

    /// Projected backtracking Armijo line search: the next trial point.
    void propose() {
        predicted_ = 0.0;
        for (std::size_t i = 0; i < d_; ++i) {
            x_new_[i] = std::clamp(result_.x[i] + step_ * direction_[i], lower_[i], upper_[i]);
            predicted_ += g_[i] * (x_new_[i] - result_.x[i]);
        }
    }

    template <typename Stop>
    void reject(Stop&& should_stop) {
        if (history_count_ == 0) {
            result_.converged = true;  // even projected steepest descent cannot decrease f
            stage_ = Stage::done;
            return;
        }
        clear_history();
        next_iteration(should_stop);
    }

    template <typename Stop>
    void accept(double value_new, bool accepted, Stop&& should_stop) {
        if (!accepted) {
            reject(should_stop);
            return;
        }
        double sy = 0.0;
        for (std::size_t i = 0; i < d_; ++i) {
            pair_s_[i] = x_new_[i] - result_.x[i];
            pair_y_[i] = g_new_[i] - g_[i];
            sy += pair_s_[i] * pair_y_[i];
        }
        const double decrease = result_.value - value_new;
        result_.x.swap(x_new_);
        g_.swap(g_new_);
        result_.value = value_new;
        ++result_.iterations;
        if (sy > 1e-300 && options_.memory > 0) {
            // Append the pair; a full ring overwrites its oldest one.
            std::size_t target;
            if (history_count_ < history_rho_.size()) {
                target = slot(history_count_++);
            } else {
                target = history_first_;
                history_first_ = (history_first_ + 1) % history_rho_.size();
            }
            std::copy(pair_s_.begin(), pair_s_.end(), history_s_.begin() + static_cast<std::ptrdiff_t>(target * d_));
            std::copy(pair_y_.begin(), pair_y_.end(), history_y_.begin() + static_cast<std::ptrdiff_t>(target * d_));
            history_rho_[target] = 1.0 / sy;
        }
        if (decrease <= options_.relative_tolerance * std::max(std::fabs(result_.value), 1e-300)) {
            if (++stalled_ >= 3) {
                result_.converged = true;
                stage_ = Stage::done;
                return;
            }
        } else {
            stalled_ = 0;
        }
        next_iteration(should_stop);
    }

    LbfgsOptions options_;
    std::vector<double> lower_, upper_;
    std::size_t d_;
    LbfgsResult result_;
    std::vector<double> g_, x_new_, g_new_, direction_, coefficient_;
    std::vector<double> free_;  // 1 for a free coordinate, 0 for one held at a bound
    std::vector<double> history_s_, history_y_, history_rho_, pair_s_ = std::vector<double>(d_), pair_y_ = std::vector<double>(d_);
    std::size_t history_count_ = 0, history_first_ = 0;
    Stage stage_ = Stage::first;
    double step_ = 1.0;
    double predicted_ = 0.0;
    int tries_ = 0;
    int stalled_ = 0;
};

using LbfgsSearch = BasicLbfgsSearch<>;

/// Minimises f over the box lower <= x <= upper (use ±infinity for a free coordinate) from x0,
/// stopping early when `should_stop()` returns true (a caller's deadline). `value(x)` returns f(x);
/// `gradient(g)` then writes ∇f at that same x into g, and is called only when the search uses it
/// (LbfgsSearch::needs_gradient), so an objective whose gradient is a separate pass skips it on
/// rejected line-search trials.
template <typename Value, typename Gradient, typename Stop>
LbfgsResult minimize_lbfgs(Value&& value, Gradient&& gradient, std::vector<double> x0, const std::vector<double>& lower,
                           const std::vector<double>& upper, const LbfgsOptions& options, Stop&& should_stop) {
    BasicLbfgsSearch<continuum::detail::deferred_t<void, Value>> search(std::move(x0), lower, upper, options);  // dependent: see deferred.hpp
    while (search.wants_evaluation()) {
        const double f = value(search.point());
        if (search.needs_gradient(f)) gradient(search.gradient());
        search.tell(f, should_stop);
    }
    return search.result();
}

}  // namespace continuum::forecast::detail
