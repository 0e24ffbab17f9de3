// A forecaster portfolio with online model selection (the future work of seed 004): candidates
// (seasonal naive at each season length, Holt-Winters variants, drift, SES, naive, or any
// Forecaster the caller adds, e.g. the LSTM) are scored by rolling-origin validation on the
// series' own history, relative to seasonal naive (OWA of sMAPE and MASE, as in M4); the best one,
// or the equal-weight mean of the best k <= combine when that validates better, is used. When the
// most recent validation block surprised seasonal naive (a level shift), partial origins inside
// that block join the validation, so the choice reflects the data after the change. At short
// horizons the forecast adds the share of the members' latest error that validation saw persist, and
// a moving median (a robust level) is one more candidate.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/forecast/detail/diebold_mariano.hpp>
#include <continuum/forecast/detail/state_checks.hpp>
#include <continuum/forecast/drift.hpp>
#include <continuum/forecast/forecaster_state.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/forecast/metrics.hpp>
#include <continuum/forecast/moving_median.hpp>
#include <continuum/forecast/naive.hpp>
#include <continuum/forecast/seasonal_median.hpp>
#include <continuum/forecast/seasonal_naive.hpp>
#include <continuum/forecast/simple_exponential_smoothing.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::forecast {

/// How Portfolio validates its candidates.
///  - automatic: walk_forward below the reference season, blocks otherwise;
///  - blocks: the last `origins` blocks of `horizon` points, each forecast after a refit at its
///    origin (plus the shift-aware partial origins);
///  - walk_forward: one fit per candidate before the last max(origins·horizon, season) points, then
///    update() through them, every point an origin (about `origins` times fewer fits).
enum class PortfolioValidation { automatic, blocks, walk_forward };

/// Whether the last value (naive) joins the chosen combination at short horizons: never, when its
/// addition validates better (scored), or always (see PortfolioOptions::last_value_combination).
enum class LastValueCombination { off, scored, always };

struct PortfolioOptions {
    /// Season lengths to consider (hourly data: 24 daily, 168 weekly). Lengths the history cannot
    /// support are skipped. The first feasible one is the reference for MASE and seasonal naive.
    std::vector<int> season_lengths{24, 168};
    /// Validation horizon; 0 = the reference season length (1 without a season).
    int horizon = 0;
    /// Rolling origins: the last `origins` blocks of `horizon` points are forecast in turn, each
    /// from the history before it (fewer on short histories, keeping 3 seasons for training).
    int origins = 7;
    /// At most this many of the best-scoring candidates are averaged; the count (1 = pick the
    /// best) is itself chosen by the combination's validation score.
    int combine = 3;
    /// Weight of an origin k blocks before the most recent one is recency_decay^k, so the choice
    /// follows regime changes (1 = all origins count equally). In (0, 1].
    double recency_decay = 1.0;
    /// Shift-aware validation: when seasonal naive's MAE on the most recent validation block exceeds
    /// shift_factor times the median of its MAE on the earlier blocks (a level shift or other regime
    /// change inside that block), `partial_origins` extra origins inside the last block, each
    /// forecasting to the end of the history and weighted by its length / horizon, join the
    /// validation, so the choice sees how candidates do after the change. 0 = never.
    double shift_factor = 2.0;
    /// Partial origins added on a detected shift (evenly spaced inside the last block); >= 0.
    int partial_origins = 3;
    /// Short horizons (below the reference season) are validated walk-forward: every one of the last
    /// `walk_forward_points` points is an origin (0 = max(origins·horizon, reference season) and the
    /// few-origins rule below).
    int walk_forward_points = 0;
    /// Few-origins rule (walk-forward validation; session 9): with walk_forward_points = 0 the window
    /// has at least min(min_walk_forward_origins, half the history) points, so hourly data (m = 24)
    /// is not ranked on a single day's 24 one-step errors; and the error correction is used only when
    /// the window has at least this many origins (its coefficients fitted on fewer pairs are noise).
    /// 0 = neither (the behaviour before session 9). Measured in docs/forecast.md.
    int min_walk_forward_origins = 96;
    /// Last value by default (walk-forward validation, i.e. horizons below the reference season;
    /// session 10): the chosen selection or combination replaces the last value (naive) only when
    /// its validation errors are significantly lower, by a Diebold-Mariano test: over the walk-forward
    /// origins with a full horizon, d_t = naive's MASE - the choice's MASE at origin t; the choice is
    /// kept when mean(d) / sqrt(LRV(d) / N) >= naive_test, LRV the Newey-West long-run variance with
    /// horizon - 1 lags (h-step errors overlap), N the origins. Otherwise the portfolio forecasts with
    /// naive alone (the error correction, if on, is then fitted for naive). 1.645 is a one-sided 5 %
    /// test; 0 = off (the behaviour before session 10). Measured in docs/forecast.md.
    double naive_test = 0.0;
    /// The last value joins the combination (walk-forward validation only; session 11): besides the
    /// means of the best k <= combine candidates, the same means with naive (the last value) added
    /// as one more equal-weight member are scored on the validation windows (scored), or the chosen
    /// mean always gets naive added (always). The lowest validation OWA wins, as for k. A forecast's
    /// error at one or a few steps is mostly the level's, which the last value holds exactly and the
    /// smoothed members hold late; their mean often beats both. Default scored since session 11
    /// (off = the behaviour before). Measured in docs/forecast.md.
    LastValueCombination last_value_combination = LastValueCombination::scored;
    /// A robust level among the candidates (walk-forward validation only, i.e. horizons below the
    /// reference season; session 12): MovingMedian(moving_median_window), the median of the last
    /// points, which a burst of fewer than half of them does not move and a level shift moves after
    /// half of them. It competes like any candidate (alone, in a mean, with the last value). 0 = no
    /// such candidate (the behaviour before session 12). Measured in docs/forecast.md.
    int moving_median_window = 5;
    /// The extra candidates (e.g. a pre-trained LSTM) were trained or tuned on the first
    /// `extra_seen_points` points of the history given to fit() (0 = none of it, or unknown). A model
    /// validated on its own training data scores better than it forecasts, so when the validation
    /// starts before that point the extra candidates sit this fit out (score owa = +inf, never
    /// selected) and the choice is among the built-in candidates; after it they compete as usual.
    int extra_seen_points = 0;
    /// Level guard (walk-forward validation only, i.e. horizons below the reference season): when
    /// the last `level_guard_points` one-step errors of the chosen forecast (fit, then each update)
    /// all have the same sign and each exceeds level_guard times the median absolute one-step error
    /// over the validation window, the level has shifted under the members: forecasts add the
    /// smallest of those errors (an intercept correction) until the members catch up, replacing the
    /// error correction while it holds. 0 = never (the default since session 8: on held-out traces a
    /// burst of a few points reads as a shift; 6 is the value measured in docs/forecast.md).
    double level_guard = 0.0;
    /// Consecutive one-step errors the level guard needs (>= 1).
    int level_guard_points = 3;
    /// Error correction (walk-forward validation only): the forecast i steps ahead adds b_i times the
    /// members' latest one-step error, b_i the least-squares coefficient, over the validation window,
    /// of the chosen forecast's (i+1)-step error on the one-step error just before its origin, clamped
    /// to [0, 1] (0 where the errors do not persist). Members that lag a level change are pulled
    /// toward it by as much as their errors have been seen to persist, and left alone otherwise.
    /// Errors are clipped at three robust standard deviations (3 x 1.4826 x the median absolute
    /// one-step error of the validation window) when b is fitted and when it is applied, so one spike
    /// neither sets b nor moves the forecast by more than that.
    bool error_correction = true;
    /// Horizon buckets (walk-forward validation only, i.e. horizons below the reference season;
    /// session 16): the last step ahead of each bucket, ascending (e.g. {1, 3, 6}: steps 1, 2-3, 4-6
    /// and 7 to the horizon). Each bucket chooses its own candidate or mean (as the whole horizon
    /// does, on the same walk-forward forecasts restricted to its steps) and forecasts its steps
    /// with it, so the last value can serve step 1 while Holt-Winters serves step 12. A bucket keeps
    /// the whole horizon's choice unless its own validates better on its steps by `bucket_margin`
    /// (relative OWA). Only with at least min_walk_forward_origins origins (like the error correction).
    /// Empty (the default) = one choice for every step. {1, 3} was measured in session 16 (docs/forecast.md):
    /// fewer misses on the tuning traces at 5 minutes, not confirmed on the held-out ones.
    std::vector<int> horizon_buckets{};
    /// See horizon_buckets: a bucket's own choice replaces the whole horizon's only when its OWA on
    /// the bucket's steps is below (1 - bucket_margin) x the whole horizon's choice's. In [0, 1).
    double bucket_margin = 0.0;
    /// Validation scheme (see PortfolioValidation).
    PortfolioValidation validation = PortfolioValidation::automatic;
    /// Options for the Holt-Winters candidates (season lengths above 48 always use the
    /// heuristic initialisation, so a fit stays O(n) per evaluation with few parameters).
    HoltWintersOptions holt_winters{};
};

/// Validation result of one candidate.
struct PortfolioScore {
    std::string name;
    double smape = 0.0;  // recency-weighted mean over the validation forecasts, percent
    double mase = 0.0;   // MAE of the validation forecasts / in-sample seasonal naive MAE
    double owa = 0.0;    // relative to seasonal naive at the reference season; +inf if it failed
    bool selected = false;

    friend bool operator==(const PortfolioScore&, const PortfolioScore&) = default;
};

/// Everything a fitted Portfolio remembers: its members' states (built-in models only), the last
/// fit's scores and choices. The validation windows are not kept: they only serve fit().
struct PortfolioState {
    std::vector<ForecasterState> members;
    std::vector<PortfolioScore> scores;
    int reference_season = 1;
    bool shift_detected = false;
    double validation_owa = 0.0;
    bool fitted = false;
    /// Level guard: the median absolute one-step error over the validation window (0 = guard off)
    /// and the most recent one-step errors of the members' mean, oldest first.
    double guard_scale = 0.0;
    std::vector<double> guard_errors;
    /// Error correction: the coefficient per step ahead (empty = off); uses guard_errors.back(),
    /// clipped to +-error_correction_limit.
    std::vector<double> error_correction;
    double error_correction_limit = 0.0;
    /// Horizon buckets (session 16; both empty = every member forecasts every step): bucket b covers the
    /// steps ahead up to bucket_ends[b] (after bucket b - 1's; the last one also every later step) with
    /// the mean of the members at positions bucket_members[b].
    std::vector<int> bucket_ends;
    std::vector<std::vector<int>> bucket_members;

    friend bool operator==(const PortfolioState&, const PortfolioState&) = default;
};

/// Use it as `Portfolio`. A class template only so that its candidates (Holt-Winters' fitting above
/// all) compile in the units that use a portfolio, not in every unit that includes forecast.
template <typename Defer = void>
class BasicPortfolio {
    using HoltWintersModel = HoltWinters<continuum::detail::deferred_t<double, Defer>>;  // dependent: see deferred.hpp

public:
    using State = PortfolioState;

    /// \throws InvalidArgument when a member is not a built-in forecaster (an extra LSTM candidate,
    ///         say: see state_of), naming it.
    [[nodiscard]] PortfolioState state() const {
        PortfolioState out{{}, scores_, reference_season_, shift_detected_, validation_owa_, fitted_, guard_scale_, guard_errors_, correction_, correction_limit_, {}, {}};
        for (const auto& member : members_) out.members.push_back(state_of(member));
        for (const std::size_t end : bucket_ends_) out.bucket_ends.push_back(static_cast<int>(end));
        for (const auto& group : bucket_members_) {
            out.bucket_members.emplace_back();
            for (const std::size_t j : group) out.bucket_members.back().push_back(static_cast<int>(j));
        }
        return out;
    }
    /// A copy of this portfolio (its options and extra candidates) with `state`; members are
    /// restored with options().holt_winters. \throws InvalidArgument naming the field: a fitted
    ///         state without members, a member's invalid state, reference_season < 1, a score or
    ///         validation_owa that is negative or not finite (a failed score's owa may be +inf), bucket_ends
    ///         not >= 1 and increasing or not as many as bucket_members, a bucket without members or a
    ///         bucket member position outside members.
    [[nodiscard]] BasicPortfolio with_state(const PortfolioState& s) const {
        if (s.fitted == s.members.empty()) {
            throw InvalidArgument(continuum::detail::message("portfolio restore: state.members has {} models, expected {}", s.members.size(),
                                                             s.fitted ? "at least one once fitted" : "none before fit"));
        }
        if (s.reference_season < 1) throw InvalidArgument(continuum::detail::message("portfolio restore: state.reference_season = {} must be >= 1", s.reference_season));
        detail::require_state_non_negative(s.validation_owa, "portfolio", "validation_owa");
        detail::require_state_non_negative(s.guard_scale, "portfolio", "guard_scale");
        for (std::size_t i = 0; i < s.guard_errors.size(); ++i) {
            if (!std::isfinite(s.guard_errors[i])) throw InvalidArgument(continuum::detail::message("portfolio restore: state.guard_errors[{}] = {} must be finite", i, s.guard_errors[i]));
        }
        for (std::size_t i = 0; i < s.error_correction.size(); ++i) {
            const double b = s.error_correction[i];
            if (!(b >= 0.0 && b <= 1.0)) throw InvalidArgument(continuum::detail::message("portfolio restore: state.error_correction[{}] = {} must be in [0, 1]", i, b));
        }
        detail::require_state_non_negative(s.error_correction_limit, "portfolio", "error_correction_limit");
        if (!s.error_correction.empty() && s.guard_errors.empty()) {
            throw InvalidArgument("portfolio restore: state.error_correction needs the latest one-step error in state.guard_errors, which is empty");
        }
        for (std::size_t i = 0; i < s.scores.size(); ++i) {
            const auto& score = s.scores[i];
            if (!(std::isfinite(score.smape) && score.smape >= 0.0 && std::isfinite(score.mase) && score.mase >= 0.0 && score.owa >= 0.0)) {
                throw InvalidArgument(continuum::detail::message("portfolio restore: state.scores[{}] has smape {}, mase {}, owa {}; all must be >= 0 and finite (owa may be inf)",
                                                                 i, score.smape, score.mase, score.owa));
            }
        }
        if (s.bucket_ends.size() != s.bucket_members.size()) {
            throw InvalidArgument(continuum::detail::message("portfolio restore: state.bucket_ends has {} entries but state.bucket_members {}; expected as many",
                                                             s.bucket_ends.size(), s.bucket_members.size()));
        }
        for (std::size_t b = 0; b < s.bucket_ends.size(); ++b) {
            if (s.bucket_ends[b] < 1 || (b > 0 && s.bucket_ends[b] <= s.bucket_ends[b - 1])) {
                throw InvalidArgument(continuum::detail::message("portfolio restore: state.bucket_ends[{}] = {} must be >= 1 and above the previous one", b, s.bucket_ends[b]));
            }
            if (s.bucket_members[b].empty()) throw InvalidArgument(continuum::detail::message("portfolio restore: state.bucket_members[{}] is empty", b));
            for (std::size_t k = 0; k < s.bucket_members[b].size(); ++k) {
                const int j = s.bucket_members[b][k];
                if (j < 0 || static_cast<std::size_t>(j) >= s.members.size()) {
                    throw InvalidArgument(continuum::detail::message("portfolio restore: state.bucket_members[{}][{}] = {} is not a member position (0 to {})", b, k, j,
                                                                     static_cast<int>(s.members.size()) - 1));
                }
            }
        }
        std::vector<AnyForecaster> members;
        for (std::size_t i = 0; i < s.members.size(); ++i) {
            try {
                members.push_back(restore_forecaster(s.members[i], options_.holt_winters));
            } catch (const InvalidArgument& e) {
                throw InvalidArgument(continuum::detail::message("portfolio restore: state.members[{}]: {}", i, e.what()));
            }
        }
        BasicPortfolio out = *this;
        out.members_ = std::move(members);
        out.scores_ = s.scores;
        out.reference_season_ = s.reference_season;
        out.shift_detected_ = s.shift_detected;
        out.validation_owa_ = s.validation_owa;
        out.fitted_ = s.fitted;
        out.guard_scale_ = s.guard_scale;
        out.guard_errors_ = s.guard_errors;
        out.correction_ = s.error_correction;
        out.correction_limit_ = s.error_correction_limit;
        out.bucket_ends_.assign(s.bucket_ends.begin(), s.bucket_ends.end());
        out.bucket_members_.clear();
        for (const auto& group : s.bucket_members) out.bucket_members_.emplace_back(group.begin(), group.end());
        return out;
    }
    /// \throws InvalidArgument as the constructor and with_state.
    [[nodiscard]] static BasicPortfolio restore(PortfolioOptions options, const PortfolioState& s) { return BasicPortfolio(std::move(options)).with_state(s); }

    /// Default candidates, built at fit() time from the options and the history.
    /// \throws InvalidArgument when horizon < 0, origins < 1, combine < 1, a season length < 2,
    ///         recency_decay is outside (0, 1] or moving_median_window < 0.
    explicit BasicPortfolio(PortfolioOptions options = {}) : options_(std::move(options)) { validate(); }
    /// The default candidates plus `extra` (e.g. an LSTM forecaster wrapped in AnyForecaster).
    BasicPortfolio(PortfolioOptions options, std::vector<AnyForecaster> extra) : options_(std::move(options)), extra_(std::move(extra)) {
        validate();
        for (const auto& e : extra_) {
            if (e.empty()) throw InvalidArgument("portfolio: an extra candidate is an empty AnyForecaster");
        }
    }

    /// Scores every candidate by rolling-origin validation, keeps the best `combine` and refits
    /// them on the whole history. \throws InvalidArgument when the history is shorter than
    /// origins·horizon + 2 points (the message says how many are needed) or no candidate fits.
    void fit(SeriesView history) {
        detail::require_observation_range(history, "portfolio");
        const std::size_t n = history.size();
        reference_season_ = 1;
        for (int m : options_.season_lengths) {
            if (n >= 2 * static_cast<std::size_t>(m) + 1) {
                reference_season_ = m;
                break;
            }
        }
        horizon_ = options_.horizon > 0 ? options_.horizon : reference_season_;
        const auto h = static_cast<std::size_t>(horizon_);
        detail::require_length(n, h + 2, "portfolio", continuum::detail::message("one validation horizon of {} plus 2", horizon_));
        walk_forward_ = options_.validation == PortfolioValidation::walk_forward ||
                        (options_.validation == PortfolioValidation::automatic && horizon_ < reference_season_);
        const std::size_t shortest = walk_forward_ ? walk_forward_windows(n) : block_windows(n);
        auto candidates = default_candidates(shortest);  // candidates[naive_index] is Naive
        for (const auto& e : extra_) candidates.push_back(e);

        // Every candidate's validation forecasts; the reference is seasonal naive at the
        // reference season (naive when there is none).
        const auto values = history.values();
        AnyForecaster reference = reference_season_ >= 2 && shortest >= static_cast<std::size_t>(reference_season_)
                                      ? AnyForecaster(continuum::detail::deferred_t<SeasonalNaive, Defer>(reference_season_))
                                      : AnyForecaster(Naive());
        Validation reference_run = validate_one(reference, values);
        shift_detected_ = !walk_forward_ && shift_in_last_block(reference_run, values);
        if (!walk_forward_ && !shift_detected_) {
            windows_.resize(static_cast<std::size_t>(origins_));
            if (reference_run.forecasts.size() > windows_.size()) reference_run.forecasts.resize(windows_.size());
        }
        weigh_windows(values);
        std::vector<Validation> runs;
        scores_.clear();
        const std::size_t built_in = candidates.size() - extra_.size();
        const bool extras_seen_validation = static_cast<std::size_t>(options_.extra_seen_points) > windows_.front().origin;
        // The built-in Holt-Winters candidates are validated together (their fits side by side: see
        // validate_holt_winters), the others one by one; each is left fitted at the last origin.
        std::vector<std::size_t> holt_winters;
        for (std::size_t i = 0; i < built_in; ++i) {
            if (candidates[i].template target<HoltWintersModel>() != nullptr) holt_winters.push_back(i);
        }
        std::vector<Validation> holt_winters_runs = validate_holt_winters(candidates, holt_winters, values);
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            auto& candidate = candidates[i];
            const auto together = std::find(holt_winters.begin(), holt_winters.end(), i);
            if (together != holt_winters.end()) {
                runs.push_back(std::move(holt_winters_runs[static_cast<std::size_t>(together - holt_winters.begin())]));
            } else {
                // An extra candidate that saw the validation window while training is not scored on it (ok = false: owa = +inf).
                runs.push_back(i >= built_in && extras_seen_validation ? Validation{} : validate_one(candidate, values));
            }
            scores_.push_back(score(candidate.name(), runs.back(), reference_run, values));
        }
        std::vector<std::size_t> order(candidates.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores_[a].owa < scores_[b].owa; });
        // Choose how many of the best to average (1..combine) by the combination's own
        // validation score: selecting and combining are decided by the same evidence.
        std::size_t best_count = 1;
        double best_owa = scores_[order[0]].owa;
        for (std::size_t k = 2; k <= static_cast<std::size_t>(options_.combine) && k <= order.size(); ++k) {
            if (!std::isfinite(scores_[order[k - 1]].owa)) break;
            const double owa_value = score("combination", mean_of(runs, order, k), reference_run, values).owa;
            if (owa_value < best_owa) {
                best_owa = owa_value;
                best_count = k;
            }
        }
        if (walk_forward_ && options_.last_value_combination != LastValueCombination::off) {
            best_count = with_last_value(runs, order, best_count, best_owa, reference_run, values);
        }
        // The last value unless the choice is significantly better (naive_test): a default that
        // validation has to beat with evidence, not by a margin within the noise of ~100 origins.
        if (walk_forward_ && options_.naive_test > 0.0 && !significantly_better_than_naive(runs, order, best_count, values)) {
            best_count = 1;
            std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return i == naive_index; });
            best_owa = scores_[naive_index].owa;
        }
        // Horizon buckets: each bucket of steps ahead may choose its own candidate or mean (empty = none differs).
        // Like the error correction, only with enough origins (min_walk_forward_origins): a bucket's choice rests on a few steps of each.
        // The whole horizon's choice: the first best_count candidates.
        const std::vector<std::size_t> overall(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(std::min(best_count, order.size())));
        std::vector<Bucket> buckets;
        if (walk_forward_ && !options_.horizon_buckets.empty() && windows_.size() >= static_cast<std::size_t>(options_.min_walk_forward_origins)) {
            buckets = choose_buckets(runs, overall, reference_run, values);
        }
        members_.clear();
        bucket_ends_.clear();
        bucket_members_.clear();
        guard_scale_ = 0.0;
        guard_errors_.clear();
        correction_.clear();
        correction_limit_ = 0.0;
        const bool guarded = walk_forward_ && options_.level_guard > 0.0;
        // The correction's coefficients need enough (one-step error, later error) pairs to be more than noise.
        const bool corrected = walk_forward_ && options_.error_correction && windows_.size() >= static_cast<std::size_t>(options_.min_walk_forward_origins);
        // Both need the members' own latest one-step errors: the last points are fed by update().
        const std::size_t guard_points =
            guarded || corrected ? std::min(static_cast<std::size_t>(guarded ? options_.level_guard_points : 1), n - shortest) : 0;
        std::vector<std::size_t> chosen;
        // With the level guard or the error correction, the last guard_points points are fed by
        // update() after the refit, so that its errors are the members' own one-step errors.
        // (an if, not a conditional expression: converting between its operands would check std::span's
        // range constructor against SeriesView in every unit that includes this header; issue 21)
        SeriesView final_history = history;
        if (guard_points > 0) final_history = SeriesView(values.first(n - guard_points));
        // The Holt-Winters models among the first best_count candidates are refitted together (the
        // refits are independent: the same fits as one by one); later ones, needed only when one of
        // those fails, one by one below.
        std::vector<std::size_t> together;
        std::vector<HoltWintersModel*> together_models;
        for (std::size_t k = 0; k < order.size() && k < best_count && std::isfinite(scores_[order[k]].owa); ++k) {
            if (auto* hw = candidates[order[k]].template target<HoltWintersModel>()) {
                together.push_back(order[k]);
                together_models.push_back(hw);
            }
        }
        // The buckets' own members (chosen only when their validation forecasts are finite), after the whole horizon's.
        std::vector<std::size_t> bucket_only;
        for (const auto& bucket : buckets) {
            for (const std::size_t i : bucket.candidates) {
                if (std::find(overall.begin(), overall.end(), i) == overall.end() && std::find(bucket_only.begin(), bucket_only.end(), i) == bucket_only.end()) {
                    bucket_only.push_back(i);
                    if (auto* hw = candidates[i].template target<HoltWintersModel>()) {
                        together.push_back(i);
                        together_models.push_back(hw);
                    }
                }
            }
        }
        const std::vector<bool> together_fitted = HoltWintersModel::refit_together(together_models, final_history);
        // Candidate i, fitted on the whole history (a Holt-Winters one by the refit together above),
        // becomes a member; a candidate that cannot be fitted is skipped.
        const auto admit = [&](std::size_t i) {
            const auto at = std::find(together.begin(), together.end(), i);
            if (at != together.end()) {
                if (!together_fitted[static_cast<std::size_t>(at - together.begin())]) return;
            } else {
                try {
                    refit(candidates[i], final_history);
                } catch (const InvalidArgument&) {
                    return;
                }
            }
            scores_[i].selected = true;
            members_.push_back(std::move(candidates[i]));
            chosen.push_back(i);
        };
        for (std::size_t k = 0; k < order.size() && members_.size() < best_count; ++k) {
            const std::size_t i = order[k];
            if (!std::isfinite(scores_[i].owa)) break;
            admit(i);
        }
        validation_owa_ = best_owa;
        if (members_.empty()) throw InvalidArgument(continuum::detail::message("portfolio: no candidate could be fitted on {} points", n));
        // Per step ahead, the candidates whose mean forecasts it (one entry: every step, the whole horizon's choice).
        std::vector<std::vector<std::size_t>> step_groups{chosen};
        if (!buckets.empty()) {
            const std::size_t overall_members = members_.size();
            for (const std::size_t i : bucket_only) {
                if (std::find(chosen.begin(), chosen.end(), i) != chosen.end()) continue;  // already a fallback member of the whole horizon's choice
                admit(i);
            }
            step_groups.clear();
            for (const auto& bucket : buckets) {
                std::vector<std::size_t> positions;
                for (const std::size_t i : bucket.candidates) {
                    const auto at = std::find(chosen.begin(), chosen.end(), i);
                    if (at != chosen.end()) positions.push_back(static_cast<std::size_t>(at - chosen.begin()));
                }
                if (positions.empty()) {  // its members could not be refitted: the whole horizon's choice
                    for (std::size_t j = 0; j < overall_members; ++j) positions.push_back(j);
                }
                std::vector<std::size_t> group;
                for (const std::size_t j : positions) group.push_back(chosen[j]);
                bucket_ends_.push_back(bucket.end);
                bucket_members_.push_back(std::move(positions));
                while (step_groups.size() < bucket.end) step_groups.push_back(group);
            }
        }
        fitted_ = true;
        if (guard_points > 0) {
            if (guarded) guard_scale_ = one_step_scale(runs, step_groups.front(), values);
            if (corrected) correction_ = error_coefficients(runs, step_groups, values);
            for (std::size_t t = n - guard_points; t < n; ++t) update(values[t]);  // records the members' one-step errors
        }
    }

    /// Equal-weight mean of the members' forecasts; with level > 0 the interval is the mean of the
    /// members' bounds (a heuristic: forecast combinations have no exact interval).
    /// \throws InvalidArgument before fit(), when horizon < 1 or level is not 0 or in (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        detail::require_fitted(fitted_, "portfolio");
        detail::require_horizon(horizon);
        detail::require_level(level);
        Forecast out;
        const auto h = static_cast<std::size_t>(horizon);
        out.mean.assign(h, 0.0);
        if (level > 0.0) {
            out.lower.assign(h, 0.0);
            out.upper.assign(h, 0.0);
            out.level = level;
        }
        const double weight = 1.0 / static_cast<double>(members_.size());
        const double guard = level_offset();
        const double latest = correction_.empty() || guard_errors_.empty() ? 0.0 : std::clamp(guard_errors_.back(), -correction_limit_, correction_limit_);
        // Step i of a member's forecast f, with weight `share` in the mean (and the bounds).
        const auto add = [&out, level](const Forecast& f, double share, std::size_t i) {
            out.mean[i] += share * f.mean[i];
            if (level > 0.0) {
                out.lower[i] += share * (f.has_interval() ? f.lower[i] : f.mean[i]);
                out.upper[i] += share * (f.has_interval() ? f.upper[i] : f.mean[i]);
            }
        };
        if (bucket_members_.empty()) {
            for (const auto& member : members_) {
                const auto f = member.forecast(horizon, level);
                for (std::size_t i = 0; i < h; ++i) add(f, weight, i);
            }
        } else {
            // Horizon buckets: step i is the mean of its bucket's members (steps past the last bucket: the last bucket's).
            std::vector<Forecast> f;
            for (const auto& member : members_) f.push_back(member.forecast(horizon, level));
            std::size_t b = 0;
            for (std::size_t i = 0; i < h; ++i) {
                while (b + 1 < bucket_ends_.size() && i >= bucket_ends_[b]) ++b;
                const auto& group = bucket_members_[b];
                const double share = 1.0 / static_cast<double>(group.size());
                for (const std::size_t j : group) add(f[j], share, i);
            }
        }
        for (std::size_t i = 0; i < h; ++i) {
            // The guard's re-levelling, when it holds, replaces the error correction.
            const double offset = guard != 0.0 || correction_.empty() ? guard : correction_[std::min(i, correction_.size() - 1)] * latest;
            out.mean[i] += offset;
            if (level > 0.0) {
                out.lower[i] += offset;
                out.upper[i] += offset;
            }
        }
        return out;
    }

    /// Forwards the observation to every member (each O(1) or O(m)); no re-selection. With the level
    /// guard on, first records the members' one-step error on `value` (one forecast(1) per member).
    /// \throws InvalidArgument before fit() or when value is not finite.
    void update(double value) {
        detail::require_fitted(fitted_, "portfolio");
        detail::require_finite_observation(value);
        if (guard_scale_ > 0.0 || !correction_.empty()) {
            double mean = 0.0;
            if (bucket_members_.empty()) {
                for (const auto& member : members_) mean += member.forecast(1).mean[0];
                mean /= static_cast<double>(members_.size());
            } else {  // the one-step forecast is the first bucket's
                for (const std::size_t j : bucket_members_.front()) mean += members_[j].forecast(1).mean[0];
                mean /= static_cast<double>(bucket_members_.front().size());
            }
            push_guard_error(value - mean);
        }
        for (auto& member : members_) member.update(value);
    }

    /// The level guard's current intercept correction, added to every forecast (0 when it is off:
    /// see PortfolioOptions::level_guard).
    [[nodiscard]] double level_offset() const {
        const auto k = static_cast<std::size_t>(options_.level_guard_points);
        if (guard_scale_ <= 0.0 || guard_errors_.size() < k) return 0.0;
        const double threshold = options_.level_guard * guard_scale_;
        const bool up = guard_errors_.back() > 0.0;
        for (double e : guard_errors_) {
            if ((e > 0.0) != up || !(std::fabs(e) > threshold)) return 0.0;
        }
        // The smallest of the errors: the part of the shift that every one of them agrees on.
        return up ? *std::min_element(guard_errors_.begin(), guard_errors_.end()) : *std::max_element(guard_errors_.begin(), guard_errors_.end());
    }

    /// "portfolio(a + b)"; with horizon buckets, each bucket's steps and members:
    /// "portfolio(step 1: naive; steps 2-3: naive + ses; steps 4+: holt-winters...)".
    [[nodiscard]] std::string name() const {
        std::vector<std::string> names;
        if (bucket_members_.empty()) {
            for (const auto& member : members_) names.push_back(member.name());
            return continuum::detail::message("portfolio({})", fmt::join(names, " + "));
        }
        std::size_t from = 1;
        for (std::size_t b = 0; b < bucket_members_.size(); ++b) {
            std::vector<std::string> group;
            for (const std::size_t j : bucket_members_[b]) group.push_back(members_[j].name());
            const std::size_t to = bucket_ends_[b];
            const std::string steps = b + 1 == bucket_members_.size() ? continuum::detail::message("steps {}+", from)
                                      : to == from                   ? continuum::detail::message("step {}", from)
                                                                     : continuum::detail::message("steps {}-{}", from, to);
            names.push_back(continuum::detail::message("{}: {}", steps, fmt::join(group, " + ")));
            from = to + 1;
        }
        return continuum::detail::message("portfolio({})", fmt::join(names, "; "));
    }

    /// Validation scores of every candidate from the last fit(), in the order tried.
    [[nodiscard]] const std::vector<PortfolioScore>& scores() const { return scores_; }
    /// The fitted members whose forecasts are averaged.
    [[nodiscard]] const std::vector<AnyForecaster>& members() const { return members_; }
    [[nodiscard]] const PortfolioOptions& options() const { return options_; }
    /// Validation OWA (vs seasonal naive) of the chosen selection or combination.
    [[nodiscard]] double validation_owa() const { return validation_owa_; }
    /// Whether the last fit() detected a shift in its most recent validation block and so validated
    /// on the partial origins too (see PortfolioOptions::shift_factor).
    [[nodiscard]] bool shift_detected() const { return shift_detected_; }
    /// The season length used as MASE / seasonal-naive reference in the last fit (1 = none).
    [[nodiscard]] int reference_season() const { return reference_season_; }
    /// The horizon the last fit validated at (options().horizon, or the reference season when 0).
    [[nodiscard]] int validation_horizon() const { return horizon_; }
    /// Whether the last fit used walk-forward validation (a horizon below the reference season).
    [[nodiscard]] bool walk_forward() const { return walk_forward_; }

    /// Tells the portfolio the horizon its forecasts will be used at (a scaler's look-ahead, e.g.
    /// HybridQuotaScaler's config.horizon): when options().horizon is 0 (not given), later fits
    /// validate at `horizon`; an explicit options().horizon is kept. \throws InvalidArgument on horizon < 1.
    void plan_for_horizon(int horizon) {
        detail::require_horizon(horizon);
        if (options_.horizon == 0) options_.horizon = horizon;
    }

private:
    void validate() const {
        if (options_.horizon < 0) throw InvalidArgument(continuum::detail::message("portfolio: horizon must be >= 0, got {}", options_.horizon));
        if (options_.origins < 1) throw InvalidArgument(continuum::detail::message("portfolio: origins must be >= 1, got {}", options_.origins));
        if (options_.combine < 1) throw InvalidArgument(continuum::detail::message("portfolio: combine must be >= 1, got {}", options_.combine));
        for (int m : options_.season_lengths) detail::require_season_length(m, "portfolio");
        if (!(options_.shift_factor >= 0.0) || !std::isfinite(options_.shift_factor)) {
            throw InvalidArgument(continuum::detail::message("portfolio: shift_factor must be finite and >= 0, got {}", options_.shift_factor));
        }
        if (options_.walk_forward_points < 0) {
            throw InvalidArgument(continuum::detail::message("portfolio: walk_forward_points must be >= 0, got {}", options_.walk_forward_points));
        }
        if (!(options_.level_guard >= 0.0) || !std::isfinite(options_.level_guard)) {
            throw InvalidArgument(continuum::detail::message("portfolio: level_guard must be finite and >= 0, got {}", options_.level_guard));
        }
        if (!(options_.naive_test >= 0.0) || !std::isfinite(options_.naive_test)) {
            throw InvalidArgument(continuum::detail::message("portfolio: naive_test must be finite and >= 0, got {}", options_.naive_test));
        }
        if (options_.extra_seen_points < 0) throw InvalidArgument(continuum::detail::message("portfolio: extra_seen_points must be >= 0, got {}", options_.extra_seen_points));
        if (options_.min_walk_forward_origins < 0) {
            throw InvalidArgument(continuum::detail::message("portfolio: min_walk_forward_origins must be >= 0, got {}", options_.min_walk_forward_origins));
        }
        if (options_.level_guard_points < 1) throw InvalidArgument(continuum::detail::message("portfolio: level_guard_points must be >= 1, got {}", options_.level_guard_points));
        if (options_.moving_median_window < 0) {
            throw InvalidArgument(continuum::detail::message("portfolio: moving_median_window must be >= 0, got {}", options_.moving_median_window));
        }
        if (options_.partial_origins < 0) throw InvalidArgument(continuum::detail::message("portfolio: partial_origins must be >= 0, got {}", options_.partial_origins));
        for (std::size_t b = 0; b < options_.horizon_buckets.size(); ++b) {
            if (options_.horizon_buckets[b] < 1 || (b > 0 && options_.horizon_buckets[b] <= options_.horizon_buckets[b - 1])) {
                throw InvalidArgument(continuum::detail::message("portfolio: horizon_buckets must be >= 1 and increasing, got {}", options_.horizon_buckets));
            }
        }
        if (!(options_.bucket_margin >= 0.0 && options_.bucket_margin < 1.0)) {
            throw InvalidArgument(continuum::detail::message("portfolio: bucket_margin must be in [0, 1), got {}", options_.bucket_margin));
        }
        if (!(options_.recency_decay > 0.0 && options_.recency_decay <= 1.0)) {
            throw InvalidArgument(continuum::detail::message("portfolio: recency_decay must be in (0, 1], got {}", options_.recency_decay));
        }
    }

    [[nodiscard]] std::vector<AnyForecaster> default_candidates(std::size_t shortest) const {
        std::vector<AnyForecaster> out{Naive(), Drift(), SimpleExponentialSmoothing()};
        for (int m : options_.season_lengths) {
            const auto season = static_cast<std::size_t>(m);
            if (shortest >= season) out.emplace_back(continuum::detail::deferred_t<SeasonalNaive, Defer>(m));
            if (shortest >= 2 * season) out.emplace_back(continuum::detail::deferred_t<SeasonalMedian, Defer>(m, 5));
            if (shortest < 2 * season) continue;
            HoltWintersOptions hw = options_.holt_winters;
            if (m > 48) hw.initialization = Initialization::heuristic;
            if (hw.initialization == Initialization::heuristic && shortest < heuristic_minimum_length({Trend::none, false, Seasonality::additive, m})) {
                hw.initialization = Initialization::simple;
            }
            for (const bool trend : {false, true}) {
                HoltWintersSpec spec;
                spec.trend = trend ? Trend::additive : Trend::none;
                spec.damped = trend;
                spec.seasonal = Seasonality::additive;
                spec.season_length = m;
                out.emplace_back(HoltWinters<continuum::detail::deferred_t<double, Defer>>(spec, hw));  // dependent: see deferred.hpp
            }
        }
        // Last, so that the candidates before it (and their ties) are as before session 12.
        if (walk_forward_ && options_.moving_median_window > 0 && shortest >= static_cast<std::size_t>(options_.moving_median_window)) {
            out.emplace_back(MovingMedian(options_.moving_median_window));
        }
        return out;
    }

    struct Validation {
        bool ok = false;
        std::vector<std::vector<double>> forecasts;  // one per validation window, oldest origin first
    };

    /// Whole blocks of `horizon` points at the end of the history, each forecast from a refit at its
    /// origin, plus the candidate partial windows inside the last block; returns the shortest
    /// training length.
    std::size_t block_windows(std::size_t n) {
        const auto h = static_cast<std::size_t>(horizon_);
        // Fewer origins on short histories, so the earliest training window keeps three seasons
        // (enough for the seasonal candidates) whenever possible.
        const std::size_t keep = 3 * static_cast<std::size_t>(reference_season_);
        origins_ = static_cast<int>(std::clamp<std::size_t>(n > keep ? (n - keep) / h : 0, 1, static_cast<std::size_t>(options_.origins)));
        origins_ = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(origins_), (n - 2) / h));
        windows_.clear();
        for (int k = origins_; k >= 1; --k) windows_.push_back({n - static_cast<std::size_t>(k) * h, h});
        // Candidate partial windows inside the last block (origins at 1/4, 1/2, 3/4 of it for
        // partial_origins = 3, each forecasting to the end of the history); kept only after a shift.
        for (int j = 1; j <= options_.partial_origins; ++j) {
            const std::size_t length = h * static_cast<std::size_t>(options_.partial_origins + 1 - j) / static_cast<std::size_t>(options_.partial_origins + 1);
            if (length >= 1 && length < h && n - length > windows_.back().origin) windows_.push_back({n - length, length});
        }
        return n - static_cast<std::size_t>(origins_) * h;
    }

    /// Short horizons (below the reference season): every point of the last
    /// max(origins·horizon, season, min(min_walk_forward_origins, n/2)) points is an origin forecasting `horizon` steps (fewer at the
    /// very end, weighted by length), from one fit before the first origin followed by update()s.
    /// Hundreds of origins instead of a handful, at the cost of one fit per candidate; the
    /// truncated origins at the end also see a level shift inside the last block. Returns the
    /// training length.
    std::size_t walk_forward_windows(std::size_t n) {
        const auto h = static_cast<std::size_t>(horizon_);
        const auto m = static_cast<std::size_t>(reference_season_);
        const std::size_t keep = std::min(3 * m, n - h);
        const std::size_t wanted = options_.walk_forward_points > 0 ? static_cast<std::size_t>(options_.walk_forward_points)
                                                                     : std::max({static_cast<std::size_t>(options_.origins) * h, m,
                                                                                 std::min(static_cast<std::size_t>(options_.min_walk_forward_origins), n / 2)});
        const std::size_t span = std::clamp(wanted, h, n - keep);
        windows_.clear();
        for (std::size_t origin = n - span; origin < n; ++origin) windows_.push_back({origin, std::min(h, n - origin)});
        origins_ = static_cast<int>((span + h - 1) / h);
        return n - span;
    }

    /// Weight of each window (recency_decay^age · length / horizon, age in blocks of `horizon`
    /// before the most recent one) and its MASE scale (in-sample seasonal naive MAE before it).
    void weigh_windows(std::span<const double> values) {
        const std::size_t n = values.size();
        const auto h = static_cast<std::size_t>(horizon_);
        for (std::size_t o = 0; o < windows_.size(); ++o) {
            auto& w = windows_[o];
            std::size_t age = 0;
            if (walk_forward_) {
                age = (n - w.origin - w.length) / h;
            } else if (o < static_cast<std::size_t>(origins_)) {
                age = static_cast<std::size_t>(origins_) - 1 - o;  // partial windows share the last block's age
            }
            w.weight = std::pow(options_.recency_decay, static_cast<double>(age)) * static_cast<double>(w.length) / static_cast<double>(h);
            const auto train = values.first(w.origin);
            const auto m = static_cast<std::size_t>(train.size() > static_cast<std::size_t>(reference_season_) ? reference_season_ : 1);
            double scale = 0.0;
            for (std::size_t i = m; i < train.size(); ++i) scale += std::fabs(train[i] - train[i - m]);
            w.scale = scale / static_cast<double>(train.size() - m);
        }
    }

    /// Fits a candidate again on a longer history: Holt-Winters warm-starts from its last fit (one
    /// L-BFGS run instead of a grid and two runs: most of a portfolio's fitting time), the others
    /// (cheap, or an extra candidate) fit from scratch.
    static void refit(AnyForecaster& candidate, SeriesView history) {
        if (auto* hw = candidate.target<HoltWinters<double>>()) {
            hw->refit(history);
        } else {
            candidate.fit(history);
        }
    }

    /// Rolling-origin forecasts of one candidate over windows_, which it is fitted on in turn (each
    /// fit after the first warm-started: see refit); ok = false when it fails on one.
    [[nodiscard]] Validation validate_one(AnyForecaster& candidate, std::span<const double> values) const {
        Validation out;
        try {
            if (walk_forward_) {
                candidate.fit(SeriesView(values.first(windows_.front().origin)));
                for (const auto& w : windows_) {
                    if (w.origin > windows_.front().origin) candidate.update(values[w.origin - 1]);
                    out.forecasts.push_back(candidate.forecast(static_cast<int>(w.length)).mean);
                }
            } else {
                for (std::size_t o = 0; o < windows_.size(); ++o) {
                    const auto& w = windows_[o];
                    const SeriesView train(values.first(w.origin));
                    if (o == 0) {
                        candidate.fit(train);
                    } else if (o < static_cast<std::size_t>(origins_)) {
                        refit(candidate, train);
                    } else {
                        // A partial origin inside the last block: the last block's fit, updated up to it.
                        for (std::size_t t = windows_[o - 1].origin; t < w.origin; ++t) candidate.update(values[t]);
                    }
                    out.forecasts.push_back(candidate.forecast(static_cast<int>(w.length)).mean);
                }
            }
        } catch (const InvalidArgument&) {
            return out;
        }
        out.ok = true;
        return out;
    }

    /// validate_one of the Holt-Winters candidates at `indices` (all HoltWinters<double>), with the
    /// same results, their fits and refits at each origin done together
    /// (HoltWinters::refit_together: two models' evaluations side by side in one pass).
    [[nodiscard]] std::vector<Validation> validate_holt_winters(std::vector<AnyForecaster>& candidates, const std::vector<std::size_t>& indices,
                                                                std::span<const double> values) const {
        std::vector<Validation> out(indices.size());
        std::vector<bool> failed(indices.size(), false);
        std::vector<HoltWintersModel*> models;
        std::vector<std::size_t> fitting;  // positions in `indices` of the models being fitted
        for (std::size_t o = 0; o < windows_.size(); ++o) {
            const auto& w = windows_[o];
            // Walk-forward: one fit before the first origin, then update(); blocks: a fit at each full
            // block's origin, and the partial origins inside the last block by update().
            const bool fit_here = walk_forward_ ? o == 0 : o < static_cast<std::size_t>(origins_);
            if (fit_here) {
                models.clear();
                fitting.clear();
                for (std::size_t j = 0; j < indices.size(); ++j) {
                    if (failed[j]) continue;
                    models.push_back(candidates[indices[j]].template target<HoltWintersModel>());
                    fitting.push_back(j);
                }
                const auto fitted = HoltWintersModel::refit_together(models, SeriesView(values.first(w.origin)));
                for (std::size_t k = 0; k < fitting.size(); ++k) failed[fitting[k]] = failed[fitting[k]] || !fitted[k];
            }
            for (std::size_t j = 0; j < indices.size(); ++j) {
                if (failed[j]) continue;
                auto& candidate = candidates[indices[j]];
                try {
                    if (!fit_here) {
                        const std::size_t from = walk_forward_ ? windows_[o].origin - 1 : windows_[o - 1].origin;
                        for (std::size_t t = from; t < w.origin; ++t) candidate.update(values[t]);
                    }
                    out[j].forecasts.push_back(candidate.forecast(static_cast<int>(w.length)).mean);
                } catch (const InvalidArgument&) {
                    failed[j] = true;
                }
            }
        }
        for (std::size_t j = 0; j < indices.size(); ++j) out[j].ok = !failed[j];
        return out;
    }

    /// True when the reference's MAE on the most recent full block exceeds shift_factor times the
    /// median of its MAE on the earlier blocks (needs >= 2 full blocks and a partial window).
    [[nodiscard]] bool shift_in_last_block(const Validation& reference, std::span<const double> values) const {
        if (options_.shift_factor <= 0.0 || !reference.ok || origins_ < 2 || windows_.size() <= static_cast<std::size_t>(origins_)) return false;
        std::vector<double> earlier;
        for (std::size_t o = 0; o + 1 < static_cast<std::size_t>(origins_); ++o) {
            earlier.push_back(mae(values.subspan(windows_[o].origin, windows_[o].length), reference.forecasts[o]));
        }
        const std::size_t last = static_cast<std::size_t>(origins_) - 1;
        const double recent = mae(values.subspan(windows_[last].origin, windows_[last].length), reference.forecasts[last]);
        std::sort(earlier.begin(), earlier.end());
        const std::size_t k = earlier.size();
        const double typical = k % 2 ? earlier[k / 2] : 0.5 * (earlier[k / 2 - 1] + earlier[k / 2]);
        return recent > options_.shift_factor * typical;
    }

    /// Mean sMAPE and MASE over the origins, and OWA relative to the reference run; on the steps ahead
    /// [from, to) of each window only when given (a horizon bucket: a window's weight then counts
    /// the steps it covers).
    [[nodiscard]] PortfolioScore score(std::string name, const Validation& run, const Validation& reference,
                                       std::span<const double> values, std::size_t from = 0,
                                       std::size_t to = std::numeric_limits<std::size_t>::max()) const {
        PortfolioScore out{std::move(name), 0.0, 0.0, std::numeric_limits<double>::infinity(), false};
        if (!run.ok) return out;
        const auto errors = [&](const Validation& v, double& smape_mean, double& mase_mean) {
            smape_mean = mase_mean = 0.0;
            double total_weight = 0.0;
            for (std::size_t o = 0; o < v.forecasts.size(); ++o) {
                const auto& w = windows_[o];
                const std::size_t end = std::min(to, w.length);
                if (end <= from) continue;
                const bool whole = from == 0 && end == w.length;
                const auto actual = values.subspan(w.origin + from, end - from);
                const auto forecast = std::span<const double>(v.forecasts[o]).subspan(from, end - from);
                const double weight = whole ? w.weight : w.weight * static_cast<double>(end - from) / static_cast<double>(w.length);
                smape_mean += weight * smape(actual, forecast);
                const double error = mae(actual, forecast);
                mase_mean += weight * (w.scale > 0.0 ? error / w.scale : error);
                total_weight += weight;
            }
            smape_mean /= total_weight;
            mase_mean /= total_weight;
        };
        errors(run, out.smape, out.mase);
        if (!reference.ok) {
            out.owa = 0.5 * (out.smape / 100.0 + out.mase);
            return out;
        }
        double rs = 0.0, rm = 0.0;
        errors(reference, rs, rm);
        out.owa = 0.5 * (rs > 0 ? out.smape / rs : (out.smape > 0 ? 2.0 : 1.0)) + 0.5 * (rm > 0 ? out.mase / rm : (out.mase > 0 ? 2.0 : 1.0));
        return out;
    }

    /// The validation forecasts of the mean of the top `count` candidates in `order` (each member's
    /// forecast divided by `count`, summed in order), as the combination is scored.
    [[nodiscard]] Validation mean_of(const std::vector<Validation>& runs, const std::vector<std::size_t>& order, std::size_t count) const {
        Validation combined;
        combined.ok = true;
        for (const auto& w : windows_) combined.forecasts.emplace_back(w.length, 0.0);
        for (std::size_t j = 0; j < count; ++j) {
            for (std::size_t o = 0; o < combined.forecasts.size(); ++o) {
                for (std::size_t i = 0; i < combined.forecasts[o].size(); ++i) {
                    combined.forecasts[o][i] += runs[order[j]].forecasts[o][i] / static_cast<double>(count);
                }
            }
        }
        return combined;
    }

    static constexpr std::size_t naive_index = 0;  // default_candidates() puts Naive first

    struct Bucket {
        std::size_t end = 0;                  // steps [previous end, end), 0-based
        std::vector<std::size_t> candidates;  // whose mean forecasts them
    };

    /// horizon_buckets: per bucket of steps ahead, the best candidate or mean on those steps (chosen as
    /// for the whole horizon: the best k <= combine, with the last value when last_value_combination
    /// says so), kept when its OWA on the bucket is below (1 - bucket_margin) x that of `overall` (the
    /// whole horizon's choice), else `overall`. Empty when every bucket keeps `overall`.
    [[nodiscard]] std::vector<Bucket> choose_buckets(const std::vector<Validation>& runs, const std::vector<std::size_t>& overall, const Validation& reference_run,
                                                     std::span<const double> values) const {
        const auto h = static_cast<std::size_t>(horizon_);
        std::vector<Bucket> out;
        bool differs = false;
        std::vector<std::size_t> sorted_overall = overall;
        std::sort(sorted_overall.begin(), sorted_overall.end());
        const Validation overall_run = mean_of(runs, overall, overall.size());
        std::size_t from = 0;
        for (std::size_t b = 0; b <= options_.horizon_buckets.size() && from < h; ++b) {
            const std::size_t to = b < options_.horizon_buckets.size() ? std::min(static_cast<std::size_t>(options_.horizon_buckets[b]), h) : h;
            if (to <= from) continue;
            std::vector<double> owa(runs.size());
            for (std::size_t i = 0; i < runs.size(); ++i) owa[i] = score("", runs[i], reference_run, values, from, to).owa;
            std::vector<std::size_t> order(runs.size());
            for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t c) { return owa[a] < owa[c]; });
            std::size_t count = 1;
            double best = owa[order[0]];
            for (std::size_t k = 2; k <= static_cast<std::size_t>(options_.combine) && k <= order.size(); ++k) {
                if (!std::isfinite(owa[order[k - 1]])) break;
                const double value = score("combination", mean_of(runs, order, k), reference_run, values, from, to).owa;
                if (value < best) {
                    best = value;
                    count = k;
                }
            }
            if (options_.last_value_combination != LastValueCombination::off) count = with_last_value(runs, order, count, best, reference_run, values, from, to);
            Bucket bucket{to, overall};
            const double kept = score("combination", overall_run, reference_run, values, from, to).owa;
            if (std::isfinite(best) && best < (1.0 - options_.bucket_margin) * kept) {
                bucket.candidates.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count));
                std::vector<std::size_t> sorted = bucket.candidates;
                std::sort(sorted.begin(), sorted.end());
                differs = differs || sorted != sorted_overall;
            }
            out.push_back(std::move(bucket));
            from = to;
        }
        if (!differs) out.clear();
        return out;
    }

    /// last_value_combination: the means of the best k <= combine candidates with naive added as
    /// one more member, scored like the means without it (scored: the lowest OWA of both kinds wins;
    /// always: naive joins the chosen mean). On a choice with naive, moves naive to just after the
    /// top k in `order` and returns k + 1; otherwise returns best_count (order unchanged).
    [[nodiscard]] std::size_t with_last_value(const std::vector<Validation>& runs, std::vector<std::size_t>& order, std::size_t best_count, double& best_owa,
                                              const Validation& reference_run, std::span<const double> values, std::size_t from = 0,
                                              std::size_t to = std::numeric_limits<std::size_t>::max()) const {
        if (!runs[naive_index].ok) return best_count;
        const auto naive_at = static_cast<std::size_t>(std::find(order.begin(), order.end(), naive_index) - order.begin());
        if (naive_at < best_count) return best_count;  // naive is already a member
        std::vector<std::size_t> others;  // order without naive
        for (const std::size_t i : order) {
            if (i != naive_index) others.push_back(i);
        }
        const bool always = options_.last_value_combination == LastValueCombination::always;
        std::size_t chosen = 0;  // k of the mean naive joins; 0 = none
        for (std::size_t k = always ? best_count : 1; k <= (always ? best_count : static_cast<std::size_t>(options_.combine)) && k <= others.size(); ++k) {
            if (!std::isfinite(scores_[others[k - 1]].owa)) break;
            std::vector<std::size_t> members(others.begin(), others.begin() + static_cast<std::ptrdiff_t>(k));
            members.push_back(naive_index);
            const double owa_value = score("combination", mean_of(runs, members, k + 1), reference_run, values, from, to).owa;
            if (always || owa_value < best_owa) {
                best_owa = owa_value;
                chosen = k;
            }
        }
        if (chosen == 0) return best_count;
        others.insert(others.begin() + static_cast<std::ptrdiff_t>(chosen), naive_index);
        order = std::move(others);
        return chosen + 1;
    }

    /// Diebold-Mariano test of the top `count` candidates' mean (in `order`) against naive on the
    /// walk-forward windows with a full horizon: true when mean(d) / sqrt(LRV(d) / N) >= naive_test,
    /// d the per-origin MASE difference naive - choice, LRV Newey-West with horizon - 1 lags.
    [[nodiscard]] bool significantly_better_than_naive(const std::vector<Validation>& runs, const std::vector<std::size_t>& order, std::size_t count,
                                                       std::span<const double> values) const {
        if (!runs[naive_index].ok) return true;  // nothing to fall back to
        const auto h = static_cast<std::size_t>(horizon_);
        const Validation choice = mean_of(runs, order, count);
        std::vector<double> d;
        for (std::size_t o = 0; o < windows_.size(); ++o) {
            const auto& w = windows_[o];
            if (w.length < h || !(w.scale > 0.0)) continue;
            const auto actual = values.subspan(w.origin, w.length);
            d.push_back((mae(actual, runs[naive_index].forecasts[o]) - mae(actual, choice.forecasts[o])) / w.scale);
        }
        return detail::diebold_mariano(continuum::detail::span_of(d), h - 1) >= options_.naive_test;
    }

    /// The level guard's scale: the median absolute one-step error of the chosen candidates' mean
    /// over the walk-forward validation window; 0 (guard off) at the rounding level (below 1e-9 of
    /// the largest |value| in the window), where the members are exact.
    [[nodiscard]] double one_step_scale(const std::vector<Validation>& runs, const std::vector<std::size_t>& chosen, std::span<const double> values) const {
        std::vector<double> errors;
        double largest = 0.0;
        for (std::size_t o = 0; o < windows_.size(); ++o) {
            double mean = 0.0;
            for (const std::size_t i : chosen) mean += runs[i].forecasts[o][0];
            const double actual = values[windows_[o].origin];
            errors.push_back(std::fabs(actual - mean / static_cast<double>(chosen.size())));
            largest = std::max(largest, std::fabs(actual));
        }
        const auto mid = errors.begin() + static_cast<std::ptrdiff_t>(errors.size() / 2);
        std::nth_element(errors.begin(), mid, errors.end());
        return *mid > 1e-9 * largest ? *mid : 0.0;
    }

    void push_guard_error(double error) {
        guard_errors_.push_back(error);
        const std::size_t keep = guard_scale_ > 0.0 ? static_cast<std::size_t>(options_.level_guard_points) : 1;
        if (guard_errors_.size() > keep) guard_errors_.erase(guard_errors_.begin(), guard_errors_.end() - static_cast<std::ptrdiff_t>(keep));
    }

    /// Error correction coefficients b_0..b_{h-1}: over the walk-forward windows, the chosen mean's
    /// (i+1)-step error at origin t regressed (through 0) on its one-step error at t-1, both clipped
    /// at correction_limit_ (set here: 3 robust standard deviations of the one-step errors), clamped
    /// to [0, 1].
    /// step_groups[i]: the candidates whose mean forecasts step i + 1 (the last entry for the steps after it).
    [[nodiscard]] std::vector<double> error_coefficients(const std::vector<Validation>& runs, const std::vector<std::vector<std::size_t>>& step_groups,
                                                         std::span<const double> values) {
        const auto h = static_cast<std::size_t>(horizon_);
        std::vector<double> cross(h, 0.0), square(h, 0.0);
        const auto combined = [&](std::size_t o, std::size_t i) {
            const auto& chosen = step_groups[std::min(i, step_groups.size() - 1)];
            double mean = 0.0;
            for (const std::size_t c : chosen) mean += runs[c].forecasts[o][i];
            return mean / static_cast<double>(chosen.size());
        };
        std::vector<double> absolute;
        for (std::size_t o = 0; o < windows_.size(); ++o) absolute.push_back(std::fabs(values[windows_[o].origin] - combined(o, 0)));
        const auto mid = absolute.begin() + static_cast<std::ptrdiff_t>(absolute.size() / 2);
        std::nth_element(absolute.begin(), mid, absolute.end());
        correction_limit_ = 3.0 * 1.4826 * *mid;
        const auto clip = [&](double e) { return std::clamp(e, -correction_limit_, correction_limit_); };
        for (std::size_t o = 1; o < windows_.size(); ++o) {
            const double previous = clip(values[windows_[o - 1].origin] - combined(o - 1, 0));  // one-step error at origin - 1
            for (std::size_t i = 0; i < windows_[o].length; ++i) {
                cross[i] += previous * clip(values[windows_[o].origin + i] - combined(o, i));
                square[i] += previous * previous;
            }
        }
        std::vector<double> out(h, 0.0);
        for (std::size_t i = 0; i < h; ++i) out[i] = square[i] > 0.0 ? std::clamp(cross[i] / square[i], 0.0, 1.0) : 0.0;
        return out;
    }

    static double mean(const std::vector<double>& v) {
        double s = 0.0;
        for (double x : v) s += x;
        return v.empty() ? 0.0 : s / static_cast<double>(v.size());
    }

    PortfolioOptions options_;
    std::vector<AnyForecaster> extra_;
    std::vector<AnyForecaster> members_;
    std::vector<PortfolioScore> scores_;
    int reference_season_ = 1;
    int horizon_ = 1;
    int origins_ = 1;
    struct Window {
        std::size_t origin = 0;  // first forecast point; the training part is everything before it
        std::size_t length = 0;  // points forecast
        double weight = 1.0;     // recency and length weight in the mean scores
        double scale = 0.0;      // in-sample seasonal naive MAE before the origin (MASE scale)
    };
    std::vector<Window> windows_;  // validation windows, oldest origin first
    bool walk_forward_ = false;    // short horizon: one fit, then update() through the windows
    bool shift_detected_ = false;
    double validation_owa_ = 0.0;
    bool fitted_ = false;
    double guard_scale_ = 0.0;         // level guard: median absolute one-step error (0 = off)
    std::vector<double> guard_errors_;  // level guard: the latest one-step errors, oldest first
    std::vector<double> correction_;    // error correction coefficient per step ahead (empty = off)
    double correction_limit_ = 0.0;     // error correction: errors are clipped to +- this
    // Horizon buckets (empty = every member forecasts every step): bucket b covers the steps before
    // bucket_ends_[b] (0-based, after bucket b - 1's) with the mean of members_[bucket_members_[b]].
    std::vector<std::size_t> bucket_ends_;
    std::vector<std::vector<std::size_t>> bucket_members_;
};

using Portfolio = BasicPortfolio<>;
static_assert(Forecaster<Portfolio>);

/// Fits and returns a Portfolio with default candidates for the given season lengths, validated
/// at `horizon` steps ahead (the look-ahead its forecasts will be used at; 0 = one season).
/// \throws InvalidArgument as Portfolio::fit and Portfolio's constructor (horizon < 0).
template <typename = void>  // compiled only where called, as BasicPortfolio
Portfolio auto_forecaster(SeriesView history, int horizon, std::vector<int> season_lengths = {24, 168}) {
    PortfolioOptions options;
    options.season_lengths = std::move(season_lengths);
    options.horizon = horizon;
    Portfolio portfolio(std::move(options));
    portfolio.fit(history);
    return portfolio;
}

/// auto_forecaster validated at one season ahead (the right choice for day-ahead planning only;
/// prefer the overload with an explicit horizon).
template <typename = void>  // compiled only where called
Portfolio auto_forecaster(SeriesView history, std::vector<int> season_lengths = {24, 168}) {
    return auto_forecaster(history, 0, std::move(season_lengths));
}

}  // namespace continuum::forecast
