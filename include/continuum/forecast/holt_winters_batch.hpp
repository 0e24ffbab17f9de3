// Many Holt-Winters fits at once (issue 19: a controller refitting 10,000 namespaces per tick):
// HoltWinters::fit_many(values, series) fits each series exactly as fit() would (same starting
// grid, same L-BFGS search, same SSE), but evaluates the objective of `lanes` series together, so
// the latency-bound one-step recursion runs as independent SIMD lanes (detail/holt_winters_lanes.hpp).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/detail/holt_winters_lanes.hpp>
#include <continuum/forecast/holt_winters.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast {

/// The fitted models of HoltWinters::fit_many: batch[i] is series i's model (a HoltWinters, as if
/// fitted alone); forecast(h) gives every series' point forecast at once.
template <std::floating_point Scalar>
class HoltWintersBatch {
public:
    /// Series evaluated together: 8 doubles (one AVX-512 register, two AVX2 ones) or 16 floats.
    static constexpr std::size_t lanes = 64 / sizeof(Scalar);

    /// Fits every row of `values` (row-major, `series` rows of equal length) with `prototype`'s spec
    /// and options, evaluating the lanes with `instructions`. \throws InvalidArgument as HoltWinters::fit_many.
    HoltWintersBatch(const HoltWinters<Scalar>& prototype, std::span<const double> values, std::size_t series,
                     LaneInstructions instructions = LaneInstructions::automatic)
        : instructions_(detail::resolve_lane_instructions(instructions)) {
        if (series < 1) throw InvalidArgument(continuum::detail::message("holt_winters fit_many: series must be >= 1, got {}", series));
        if (values.size() % series != 0) {
            throw InvalidArgument(continuum::detail::message("holt_winters fit_many: {} values are not {} series of equal length", values.size(), series));
        }
        length_ = values.size() / series;
        models_.assign(series, prototype);
        y_.resize(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) y_[i] = static_cast<Scalar>(values[i]);
        for (std::size_t i = 0; i < series; ++i) {
            try {
                models_[i].prepare_fit(row(i));
            } catch (const InvalidArgument& e) {
                throw InvalidArgument(continuum::detail::message("holt_winters fit_many: series {}: {}", i, e.what()));
            }
        }
        if (prototype.known_) {
            for (std::size_t i = 0; i < series; ++i) finish(i, *prototype.known_);
        } else {
            fit_all();
        }
        y_.clear();
        y_.shrink_to_fit();
    }

    [[nodiscard]] std::size_t size() const { return models_.size(); }
    /// Points per series.
    [[nodiscard]] std::size_t length() const { return length_; }
    /// Series i's fitted model. \throws InvalidArgument when i >= size().
    [[nodiscard]] const HoltWinters<Scalar>& operator[](std::size_t i) const {
        if (i >= models_.size()) throw InvalidArgument(continuum::detail::message("holt_winters fit_many: index {} out of range for {} series", i, models_.size()));
        return models_[i];
    }
    [[nodiscard]] const std::vector<HoltWinters<Scalar>>& models() const { return models_; }
    /// The instructions the lanes ran with (automatic resolved).
    [[nodiscard]] LaneInstructions instructions() const { return instructions_; }
    /// Starting-grid evaluations (one per row and grid point) that stopped early because the point
    /// could no longer be among the row's best `starts` (an effort figure; fits are unaffected).
    [[nodiscard]] std::int64_t pruned_evaluations() const { return pruned_; }

    /// Point forecasts of every series, row-major (size() rows of `horizon` values).
    /// \throws InvalidArgument when horizon < 1.
    [[nodiscard]] std::vector<double> forecast(int horizon) const {
        detail::require_horizon(horizon);
        const auto h = static_cast<std::size_t>(horizon);
        std::vector<double> out(models_.size() * h);
        for (std::size_t i = 0; i < models_.size(); ++i) {
            const auto f = models_[i].point_forecast(horizon);
            std::copy(f.begin(), f.end(), out.begin() + static_cast<std::ptrdiff_t>(i * h));
        }
        return out;
    }

private:
    using Model = HoltWinters<Scalar>;
    using Problem = typename Model::Problem;
    using Lanes = detail::HoltWintersLanes<Scalar, lanes>;

    [[nodiscard]] std::span<const Scalar> row(std::size_t i) const { return std::span<const Scalar>(y_).subspan(i * length_, length_); }

    /// One series' search in progress: its problem, budget, best grid points and L-BFGS state.
    struct Search {
        std::size_t series = 0;
        std::optional<Problem> problem;
        std::optional<BudgetTracker> tracker;
        std::vector<std::pair<double, std::vector<double>>> starts;  // best grid points, ascending
        std::size_t start = 0;
        std::optional<detail::LbfgsSearch> lbfgs;
        double best = std::numeric_limits<double>::infinity();
        std::vector<double> best_x;
    };

    /// Smooths series i with the chosen parameters (HoltWinters::fit's last step).
    void finish(std::size_t i, const HoltWintersParameters<Scalar>& parameters) {
        models_[i].params_ = parameters;
        models_[i].smooth(row(i));
        models_[i].fitted_ = true;
    }

    /// Loads the search point of each lane (coefficients and initial states).
    void load(Lanes& lane_data, std::size_t l, const Problem& problem, const std::vector<double>& x, HoltWintersParameters<Scalar>& scratch) const {
        problem.decode(x, scratch);
        lane_data.alpha[l] = scratch.alpha;
        lane_data.beta[l] = scratch.beta;
        lane_data.gamma[l] = scratch.gamma;
        lane_data.phi[l] = scratch.phi;
        lane_data.level[l] = scratch.initial_level;
        lane_data.trend[l] = models_.front().spec_.has_trend() ? scratch.initial_trend : Scalar(0);
        for (std::size_t j = 0; j < scratch.initial_seasons.size(); ++j) lane_data.seasons[j * lanes + l] = scratch.initial_seasons[j];
    }

    /// Runs the lane kernels (forward; backward too when `gradient`).
    void evaluate(Lanes& lane_data, const std::vector<Scalar>& y, bool gradient) {
        const auto m = static_cast<std::size_t>(std::max(models_.front().spec_.period(), 1));
        detail::dispatch_holt_winters(models_.front().spec_, [&]<Seasonality S, bool T, bool N>() {
            detail::holt_winters_evaluate_lanes_with<Scalar, lanes, S, T, N>(instructions_, y, length_, m, lane_data, gradient ? trace_ : no_trace_,
                                                                             gradient);
            return 0;
        });
    }

    void fit_all() {
        const std::size_t n = models_.size();
        const auto& prototype = models_.front();
        const std::size_t m = prototype.spec_.has_season() ? static_cast<std::size_t>(prototype.spec_.season_length) : 0;
        const auto starts = static_cast<std::size_t>(prototype.options_.starts);
        HoltWintersParameters<Scalar> scratch;
        Lanes lane_data;
        lane_data.seasons.assign(std::max<std::size_t>(m, 1) * lanes, Scalar(0));
        std::vector<Scalar> y(length_ * lanes, Scalar(0));
        trace_.assign(3 * length_ * lanes, Scalar(0));
        const auto gather = [&](std::size_t l, std::size_t i) {
            const auto r = row(i);
            for (std::size_t t = 0; t < length_; ++t) y[t * lanes + l] = r[t];
        };
        std::vector<Search> searches(n);

        // 1. The starting grid, `lanes` series at a time (every lane at the same grid point).
        for (std::size_t first = 0; first < n; first += lanes) {
            const std::size_t count = std::min(lanes, n - first);
            std::vector<std::vector<double>> grid;
            for (std::size_t l = 0; l < count; ++l) {
                auto& search = searches[first + l];
                search.series = first + l;
                search.problem.emplace(models_[first + l], row(first + l));
                search.tracker.emplace(prototype.options_.budget);
                gather(l, first + l);
                if (l == 0) grid = search.problem->grid();
            }
            std::vector<std::vector<double>> values(count, std::vector<double>(grid.size()));
            // Pruning: only the `starts` best grid points of a row matter (fit() sorts all values,
            // stably, and starts from the first `starts`). Once a row has `starts` finite SSEs, a
            // point whose partial SSE already exceeds the largest of them by more than rounding
            // (8 ulp: the values are SSE times one positive factor) has a strictly larger value
            // however its pass ends (its full SSE is at least the partial one: a sum of squares),
            // so it ranks after all of them, ties aside. Its value is recorded as
            // +inf, which ranks it after them as well: the first `starts` points, their order and
            // every fit are unchanged. On hourly NAB windows (bench_forecast) 84 of the 96 grid
            // passes stop, but late (after about 590 of 720 steps): about 2 % of the CPU.
            std::vector<std::vector<Scalar>> kept(count);  // per row: the smallest `starts` finite SSEs so far, ascending
            constexpr Scalar margin = Scalar(1) + 8 * std::numeric_limits<Scalar>::epsilon();
            lane_data.sse_limit = Lanes::filled(-std::numeric_limits<Scalar>::infinity());  // empty lanes never hold a pass back
            for (std::size_t k = 0; k < grid.size(); ++k) {
                for (std::size_t l = 0; l < count; ++l) {
                    load(lane_data, l, *searches[first + l].problem, grid[k], scratch);
                    lane_data.sse_limit[l] = kept[l].size() == starts ? kept[l].back() * margin : std::numeric_limits<Scalar>::infinity();
                }
                evaluate(lane_data, y, false);
                for (std::size_t l = 0; l < count; ++l) {
                    auto& search = searches[first + l];
                    search.tracker->count();
                    ++models_[first + l].evaluations_;
                    if (lane_data.stopped) {
                        values[l][k] = std::numeric_limits<double>::infinity();
                        ++pruned_;
                        continue;
                    }
                    values[l][k] = lane_data.bad[l] ? std::numeric_limits<double>::infinity() : search.problem->value(lane_data.sse[l]);
                    if (!std::isfinite(values[l][k])) continue;
                    auto& best = kept[l];
                    best.insert(std::upper_bound(best.begin(), best.end(), lane_data.sse[l]), lane_data.sse[l]);
                    if (best.size() > starts) best.pop_back();
                }
            }
            for (std::size_t l = 0; l < count; ++l) {
                std::vector<std::size_t> order(grid.size());
                for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
                std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[l][a] < values[l][b]; });
                auto& search = searches[first + l];
                search.best_x = grid[order.front()];
                for (std::size_t k = 0; k < std::min(starts, order.size()); ++k) search.starts.emplace_back(values[l][order[k]], grid[order[k]]);
            }
        }

        lane_data.sse_limit = Lanes::filled(std::numeric_limits<Scalar>::infinity());

        // 2. L-BFGS from the best grid points, lanes refilled with the next series as searches end.
        std::vector<std::size_t> slot(lanes, n);  // series in each lane; n = empty
        std::size_t next = 0;
        const auto begin_start = [&](Search& search) {
            // HoltWinters::optimise's loop over starts: stop on an exhausted budget or a non-finite start.
            auto& tracker = *search.tracker;
            const std::size_t count = search.starts.size();
            while (search.start < count && !tracker.exhausted()) {
                if (!std::isfinite(search.starts[search.start].first)) break;
                detail::LbfgsOptions options;
                options.max_evaluations =
                    std::max<std::int64_t>(1, (prototype.options_.budget.node_limit - tracker.nodes()) / static_cast<std::int64_t>(count - search.start));
                search.lbfgs.emplace(search.starts[search.start].second, search.problem->lower, search.problem->upper, options);
                if (search.lbfgs->wants_evaluation()) return true;
                end_start(search);
                ++search.start;
            }
            return false;
        };
        const auto conclude = [&](Search& search) {
            if (!std::isfinite(search.best)) {
                throw InvalidArgument(continuum::detail::message("holt_winters fit_many: series {}: no feasible starting point (a multiplicative state becomes "
                                                                 "non-positive for every grid point)", search.series));
            }
            search.problem->decode(search.best_x, scratch);
            finish(search.series, scratch);
            search = Search{};  // release the memory
        };
        detail::HoltWintersGradient<Scalar> gradient;
        gradient.seasons.resize(m);
        for (;;) {
            bool any = false;
            for (std::size_t l = 0; l < lanes; ++l) {
                while (slot[l] == n && next < n) {
                    auto& search = searches[next];
                    if (begin_start(search)) {
                        slot[l] = next;
                        gather(l, next);
                    } else {
                        conclude(search);
                    }
                    ++next;
                }
                if (slot[l] == n) continue;
                any = true;
                const auto& search = searches[slot[l]];
                load(lane_data, l, *search.problem, search.lbfgs->point(), scratch);
            }
            if (!any) break;
            evaluate(lane_data, y, true);
            for (std::size_t l = 0; l < lanes; ++l) {
                if (slot[l] == n) continue;
                auto& search = searches[slot[l]];
                auto& tracker = *search.tracker;
                tracker.count();
                ++models_[search.series].evaluations_;
                double value = std::numeric_limits<double>::infinity();
                if (!lane_data.bad[l] && std::isfinite(lane_data.sse[l])) {
                    gradient.alpha = lane_data.g_alpha[l];
                    gradient.beta = lane_data.g_beta[l];
                    gradient.gamma = lane_data.g_gamma[l];
                    gradient.phi = lane_data.g_phi[l];
                    gradient.level = lane_data.g_level[l];
                    gradient.trend = lane_data.g_trend[l];
                    for (std::size_t j = 0; j < m; ++j) gradient.seasons[j] = lane_data.g_seasons[j * lanes + l];
                    search.problem->x_gradient(search.lbfgs->point(), gradient, search.lbfgs->gradient());
                    value = search.problem->value(lane_data.sse[l]);
                }
                search.lbfgs->tell(value, [&] { return tracker.exhausted(); });
                if (search.lbfgs->wants_evaluation()) continue;
                end_start(search);
                ++search.start;
                if (!begin_start(search)) {
                    conclude(search);
                    slot[l] = n;
                }
            }
        }
    }

    /// Records a finished L-BFGS run (HoltWinters::optimise keeps the lowest value).
    void end_start(Search& search) {
        const auto& result = search.lbfgs->result();
        auto& model = models_[search.series];
        model.converged_ = model.converged_ && result.converged;
        if (result.value < search.best) {
            search.best = result.value;
            search.best_x = result.x;
        }
        search.lbfgs.reset();
    }

    LaneInstructions instructions_;
    std::int64_t pruned_ = 0;
    std::vector<Model> models_;
    std::size_t length_ = 0;
    std::vector<Scalar> y_;      // the series during the fit, row-major
    std::vector<Scalar> trace_;  // lane trace of the forward pass (3 · length · lanes)
    std::vector<Scalar> no_trace_;
};

}  // namespace continuum::forecast
