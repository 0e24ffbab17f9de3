// Forecast accuracy at the horizons an autoscaler plans for (issue 19): last value, seasonal naive,
// Holt-Winters, the shipped LSTM and `auto` (Portfolio validated at the asked horizon) side by side,
// by rolling origins on real CPU traces. Not a timing benchmark: it prints tables.
//   cmake --build build --target bench_forecast_horizons && ./build/benchmarks/bench_forecast_horizons [--quick]
// Protocol: origins every 6 h over the last 7 days of each trace (fewer on short traces), each with
// the preceding 7 days of history (5.8 on the 8-day Alibaba trace); MASE is scaled by the daily
// seasonal naive MAE of that history, sMAPE in percent (M4). Traces: data/traces (the series the
// portfolio was tuned on), the NAB series only in ../shared/data/traces and those in
// data/traces/nab_heldout (held out, never tuned on), and data/traces/nab_heldout2 (a second held-out
// set added in session 10, after the choices up to session 9; reported on its own as `held out 2`).
#include <continuum/forecast.hpp>
#include <continuum/forecast/lstm_loader.hpp>

#include <fmt/format.h>

#include "trace_columns.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace fc = continuum::forecast;

namespace {

using continuum::benchmarks::average;
using continuum::benchmarks::read_column;

/// Autocorrelation at lag `lag` (the "daily pattern" test: >= 0.3).
double autocorrelation(const std::vector<double>& y, std::size_t lag) {
    double mean = 0.0;
    for (double v : y) mean += v;
    mean /= static_cast<double>(y.size());
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        den += (y[i] - mean) * (y[i] - mean);
        if (i >= lag) num += (y[i] - mean) * (y[i - lag] - mean);
    }
    return den > 0.0 ? num / den : 0.0;
}

// Which set a trace belongs to: the series the portfolio was tuned on, the held-out series of sessions
// 7-8, or the second held-out set of session 10 (reported apart, so a rule chosen on the first two is
// confirmed on data no rule was tuned on).
enum TraceSet { tuning_set, held_out_set, held_out_2_set };
const char* const trace_set_names[] = {"tuning", "held out", "held out 2"};
const char* const trace_set_marks[] = {"", " (h)", " (h2)"};

struct Trace {
    std::string name;
    std::vector<double> y;  // at the evaluation resolution
    TraceSet set = tuning_set;
};

enum Method { last_value, seasonal_naive, holt_winters, lstm, automatic, method_count };
const char* const method_names[] = {"last value", "seasonal naive", "holt-winters", "lstm", "auto"};

struct Score {
    std::vector<double> mase;  // at each origin, in the order evaluated (latest first; --bootstrap resamples them)
    double smape = 0.0;        // summed over the origins
};

struct Setting {
    const char* title;
    int day;                     // season length (points per day)
    std::vector<int> horizons;   // steps
    std::vector<const char*> horizon_labels;
    std::vector<int> portfolio_seasons;
    std::chrono::seconds step;
    std::size_t origin_every;    // points between origins (6 h)
    std::size_t evaluated_days;  // origins over this many last days
};

struct Row {
    std::string trace;
    TraceSet set;
    bool daily;
    std::vector<std::vector<Score>> scores;  // [horizon][method]
};

std::size_t origin_every_minutes = 0;  // --origin-every MINUTES: denser origins than the protocol's 6 h (less noise at short horizons)
bool show_members = false;  // --members: print auto's chosen members per origin and horizon (diagnosis)
int walk_forward_points = 0;  // --walk-forward-points N: PortfolioOptions::walk_forward_points (tuning)
bool tell_lstm_span = true;  // --lstm-seen 0: do not tell auto which points the LSTM was trained on (PortfolioOptions::extra_seen_points)
// The shipped LSTM was trained on the first 8,966 one-minute means of the Alibaba trace (models/README.md).
constexpr std::size_t lstm_training_minutes = 8966;
int min_walk_forward_origins = -1;  // --min-walk-forward-origins N: PortfolioOptions::min_walk_forward_origins (0 = before session 9)
double naive_test = -1.0;     // --naive-test Z: PortfolioOptions::naive_test (0 = off)
double level_guard = -1.0;    // --level-guard X: PortfolioOptions::level_guard (tuning; 0 = off)
int level_guard_points = 0;   // --level-guard-points K: PortfolioOptions::level_guard_points (tuning)
int error_correction = -1;    // --error-correction 0|1: PortfolioOptions::error_correction (tuning)
fc::PortfolioValidation validation = fc::PortfolioValidation::automatic;  // --validation blocks|walk_forward
int extra_moving_average = 0;  // --extra-moving-average K: a MovingAverage(K) extra candidate for auto (a robust-level trial; 0 = none)
int last_value_combination = -1;  // --last-value-combination off|scored|always: PortfolioOptions::last_value_combination
std::optional<std::vector<int>> horizon_buckets;  // --horizon-buckets 1,3,6 | none: PortfolioOptions::horizon_buckets (session 16; none = one choice for every step)
double bucket_margin = -1.0;  // --bucket-margin X: PortfolioOptions::bucket_margin
int moving_median_window = -1;  // --moving-median-window K: PortfolioOptions::moving_median_window (0 = no such candidate, as before session 12)
int bootstrap_resamples = 0;  // --bootstrap N: for each miss, a moving-block bootstrap of auto/best over the origins (session 17)

/// Points between two origins: the setting's (6 h), or --origin-every's.
std::size_t origin_spacing(const Setting& s) {
    return origin_every_minutes > 0 ? std::max<std::size_t>(1, origin_every_minutes * 60 / static_cast<std::size_t>(s.step.count())) : s.origin_every;
}

std::vector<Row> evaluate(const Setting& s, const std::vector<Trace>& traces, const std::optional<fc::Lstm<float>>& lstm_model, bool quick) {
    std::vector<Row> rows;
    const auto day = static_cast<std::size_t>(s.day);
    const std::size_t every = origin_spacing(s);
    const int max_h = *std::max_element(s.horizons.begin(), s.horizons.end());
    for (const auto& t : traces) {
        const std::size_t n = t.y.size();
        const std::size_t history = std::min<std::size_t>(7 * day, n - std::min<std::size_t>(n / 4, 2 * day));
        const std::size_t first = std::max(history, n - std::min(n, s.evaluated_days * day));
        Row row{t.name, t.set, autocorrelation(t.y, day) >= 0.3, std::vector<std::vector<Score>>(s.horizons.size(), std::vector<Score>(method_count))};
        std::vector<std::size_t> origins;
        for (std::size_t o = n - static_cast<std::size_t>(max_h); o >= first && o <= n; o -= every) {
            origins.push_back(o);
            if (o < every) break;
        }
        if (origins.empty()) continue;  // too short for this resolution (the 8-day Alibaba trace at hourly steps)
        if (quick && origins.size() > 4) origins.resize(4);
        for (const std::size_t origin : origins) {
            const std::span<const double> train(t.y.data() + origin - history, history);
            const continuum::SeriesView view(train, s.step, "train");
            std::vector<std::vector<double>> forecasts(method_count);
            const auto fit_forecast = [&](auto model) {
                model.fit(view);
                return model.forecast(max_h).mean;
            };
            forecasts[last_value] = fit_forecast(fc::Naive());
            forecasts[seasonal_naive] = fit_forecast(fc::SeasonalNaive(s.day));
            {
                fc::HoltWintersOptions options;
                if (s.day > 48) options.initialization = fc::Initialization::heuristic;
                fc::HoltWinters<double> hw({fc::Trend::none, false, fc::Seasonality::additive, s.day}, options);
                hw.fit(view);
                forecasts[holt_winters] = hw.forecast(max_h).mean;
            }
            const bool with_lstm = lstm_model.has_value() && s.step == std::chrono::seconds(60);
            if (with_lstm) {
                auto model = *lstm_model;
                model.fit(view);
                forecasts[lstm] = model.forecast(max_h).mean;
            }
            for (std::size_t k = 0; k < s.horizons.size(); ++k) {
                const auto h = static_cast<std::size_t>(s.horizons[k]);
                const std::span<const double> actual(t.y.data() + origin, h);
                fc::PortfolioOptions options;
                options.season_lengths = s.portfolio_seasons;
                options.horizon = s.horizons[k];
                options.walk_forward_points = walk_forward_points;
                if (min_walk_forward_origins >= 0) options.min_walk_forward_origins = min_walk_forward_origins;
                if (naive_test >= 0.0) options.naive_test = naive_test;
                if (level_guard >= 0.0) options.level_guard = level_guard;
                if (level_guard_points > 0) options.level_guard_points = level_guard_points;
                if (error_correction >= 0) options.error_correction = error_correction == 1;
                options.validation = validation;
                if (last_value_combination >= 0) options.last_value_combination = static_cast<fc::LastValueCombination>(last_value_combination);
                if (moving_median_window >= 0) options.moving_median_window = moving_median_window;
                if (horizon_buckets) options.horizon_buckets = *horizon_buckets;
                if (bucket_margin >= 0.0) options.bucket_margin = bucket_margin;
                std::vector<fc::AnyForecaster> extra;
                if (extra_moving_average > 0) extra.emplace_back(fc::MovingAverage(extra_moving_average));
                if (with_lstm) {
                    extra.emplace_back(*lstm_model);
                    const std::size_t start = origin - history;  // the history's first point in the trace
                    if (tell_lstm_span && lstm_training_minutes > start) options.extra_seen_points = static_cast<int>(lstm_training_minutes - start);
                }
                fc::Portfolio portfolio(options, extra);
                portfolio.fit(view);
                forecasts[automatic] = portfolio.forecast(s.horizons[k]).mean;
                if (show_members) {
                    const double sc = fc::mase_scale(train, s.day);
                    const auto err = [&](const std::vector<double>& f) { return f.empty() ? NAN : fc::mae(actual, std::span<const double>(f.data(), h)) / sc; };
                    std::printf("  %s origin %zu h %d: MASE last %.3f snaive %.3f hw %.3f auto %.3f: %s\n", t.name.c_str(), origin, s.horizons[k], err(forecasts[last_value]),
                                err(forecasts[seasonal_naive]), err(forecasts[holt_winters]), err(forecasts[automatic]), portfolio.name().c_str());
                    for (const auto& sc : portfolio.scores()) std::printf("      %-40s mase %.3f owa %.3f%s\n", sc.name.c_str(), sc.mase, sc.owa, sc.selected ? " *" : "");
                }
                const double scale = fc::mase_scale(train, s.day);
                for (int m = 0; m < method_count; ++m) {
                    if (forecasts[static_cast<std::size_t>(m)].empty()) continue;
                    const std::span<const double> f(forecasts[static_cast<std::size_t>(m)].data(), h);
                    auto& score = row.scores[k][static_cast<std::size_t>(m)];
                    score.mase.push_back(fc::mae(actual, f) / scale);
                    score.smape += fc::smape(actual, f);
                }
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

double mean_mase(const Score& s) {
    double sum = 0.0;
    for (const double v : s.mase) sum += v;
    return s.mase.empty() ? NAN : sum / static_cast<double>(s.mase.size());
}

/// How sure a miss is (--bootstrap): the goal compares auto's mean MASE over a trace's origins with the
/// best of four methods' means, chosen in hindsight on the same origins. A moving-block bootstrap
/// resamples the origins in blocks of consecutive ones (h-step errors of origins closer than h steps
/// overlap, and errors of nearby origins are correlated: blocks of max(the origins within h steps,
/// n^(1/3)) origins, at most n / 2) and recomputes auto's
/// ratio to that best method (the one best on all origins, held fixed: choosing the best again in
/// each resample would bias every ratio upwards, a minimum of noisy means being below the mean of the
/// minimum's method); it returns {5 % quantile, 95 % quantile, share of resamples with the ratio <=
/// 1.02}. Fixed seed: the same figures on every run.
struct BootstrapResult {
    double low = NAN, high = NAN, within = NAN;
    std::size_t block = 0;  // origins per block
};
BootstrapResult bootstrap_miss(const std::vector<Score>& scores, std::size_t overlap, int resamples) {
    const std::size_t n = scores[automatic].mase.size();
    BootstrapResult result;
    if (n < 2) return result;
    const auto cube_root = static_cast<std::size_t>(std::lround(std::cbrt(static_cast<double>(n))));
    const std::size_t block = std::clamp<std::size_t>(std::max(overlap, cube_root), 1, std::max<std::size_t>(1, n / 2));
    std::size_t best_method = 0;
    for (std::size_t m = 1; m < automatic; ++m) {
        if (scores[m].mase.size() == n && (scores[best_method].mase.size() != n || mean_mase(scores[m]) < mean_mase(scores[best_method]))) best_method = m;
    }
    std::mt19937_64 rng(17);
    std::uniform_int_distribution<std::size_t> start(0, n - block);
    std::vector<double> ratios;
    std::vector<std::size_t> picked;
    int within = 0;
    for (int r = 0; r < resamples; ++r) {
        picked.clear();
        while (picked.size() < n) {
            const std::size_t first = start(rng);
            for (std::size_t i = first; i < first + block && picked.size() < n; ++i) picked.push_back(i);
        }
        const auto mean_of = [&](const Score& s) {
            double sum = 0.0;
            for (std::size_t i : picked) sum += s.mase[i];
            return sum / static_cast<double>(n);
        };
        const double ratio = mean_of(scores[automatic]) / mean_of(scores[best_method]);
        ratios.push_back(ratio);
        if (ratio <= 1.02) ++within;
    }
    std::sort(ratios.begin(), ratios.end());
    result.low = ratios[static_cast<std::size_t>(0.05 * static_cast<double>(ratios.size() - 1))];
    result.high = ratios[static_cast<std::size_t>(0.95 * static_cast<double>(ratios.size() - 1))];
    result.within = static_cast<double>(within) / static_cast<double>(resamples);
    result.block = block;
    return result;
}
double mean_smape(const Score& s) { return s.mase.empty() ? NAN : s.smape / static_cast<double>(s.mase.size()); }

void print(const Setting& s, const std::vector<Row>& rows) {
    std::printf("\n%s\n", s.title);
    if (origin_every_minutes > 0) std::printf("(--origin-every: origins every %zu min instead)\n", origin_every_minutes);
    std::printf("MASE (daily seasonal naive scale); auto/best = auto's MASE over the best of the four others; * = daily pattern (ACF at 1 day >= 0.3); (h) = held out, (h2) = held out 2\n");
    std::printf("%-34s %-7s |", "trace", "horizon");
    for (int m = 0; m < method_count; ++m) std::printf(" %14s", method_names[m]);
    std::printf(" | %8s %8s | %s\n", "auto/best", "auto/last", "sMAPE auto / best");
    // Per horizon, one entry per trace: auto/best and auto/last value (the summary below).
    struct Ratio {
        std::string trace;
        TraceSet set = tuning_set;
        bool daily = false;
        double best = 0, last = 0;
        const std::vector<Score>* scores = nullptr;
    };
    std::vector<std::vector<Ratio>> ratios(s.horizons.size());
    for (const auto& row : rows) {
        for (std::size_t k = 0; k < s.horizons.size(); ++k) {
            const auto& sc = row.scores[k];
            double best = INFINITY, best_smape = INFINITY;
            for (int m = 0; m < automatic; ++m) {
                if (sc[static_cast<std::size_t>(m)].mase.empty()) continue;
                best = std::min(best, mean_mase(sc[static_cast<std::size_t>(m)]));
                best_smape = std::min(best_smape, mean_smape(sc[static_cast<std::size_t>(m)]));
            }
            const double a = mean_mase(sc[automatic]);
            std::printf("%-34s %-7s |", (row.trace + (row.daily ? " *" : "") + trace_set_marks[row.set]).c_str(), s.horizon_labels[k]);
            for (int m = 0; m < method_count; ++m) {
                if (sc[static_cast<std::size_t>(m)].mase.empty()) {
                    std::printf(" %14s", "-");
                } else {
                    std::printf(" %14.3f", mean_mase(sc[static_cast<std::size_t>(m)]));
                }
            }
            std::printf(" | %8.3f %8.3f | %6.2f / %6.2f\n", a / best, a / mean_mase(sc[last_value]), mean_smape(sc[automatic]), best_smape);
            ratios[k].push_back({row.trace, row.set, row.daily, a / best, a / mean_mase(sc[last_value]), &sc});
        }
    }
    // The goal's figures, tuning and held-out traces apart: auto/best geometric mean / worst (trace) /
    // misses (more than 2 % above the best of four, named); auto/last value on the daily-pattern
    // traces: geometric mean / worst / how many are not at least 10 % better.
    const auto geometric_mean = [](const std::vector<double>& v) {
        double sum = 0.0;
        for (double x : v) sum += std::log(x);
        return std::exp(sum / static_cast<double>(v.size()));
    };
    std::printf("summary: horizon  set         n | auto/best: geo mean / worst / misses (> 1.02) | auto/last, daily: geo mean / worst / not >= 10 %% better\n");
    for (std::size_t k = 0; k < s.horizons.size(); ++k) {
        for (const TraceSet set : {tuning_set, held_out_set, held_out_2_set}) {
            std::vector<double> best, last;
            const Ratio* worst = nullptr;
            std::string misses;
            int miss_count = 0, slow = 0;
            for (const auto& r : ratios[k]) {
                if (r.set != set) continue;
                best.push_back(r.best);
                if (worst == nullptr || r.best > worst->best) worst = &r;
                if (r.best > 1.02) {
                    ++miss_count;
                    misses += (misses.empty() ? "" : ", ") + r.trace;
                }
                if (r.daily) {
                    last.push_back(r.last);
                    if (r.last > 0.9) ++slow;
                }
            }
            if (best.empty()) continue;
            std::printf("  %-7s %-10s %2zu | %.3f / %.3f (%s) / %d", s.horizon_labels[k], trace_set_names[set], best.size(), geometric_mean(best), worst->best,
                        worst->trace.c_str(), miss_count);
            if (!misses.empty()) std::printf(" [%s]", misses.c_str());
            if (!last.empty()) std::printf(" | %.3f / %.3f / %d of %zu", geometric_mean(last), *std::max_element(last.begin(), last.end()), slow, last.size());
            std::printf("\n");
        }
    }
    if (bootstrap_resamples <= 0) return;
    // --bootstrap: how sure each miss is. A miss whose 90 % interval reaches 1.02 is not distinguishable,
    // on these origins, from a cell within the goal; one whose interval lies above 1.02 is.
    const std::size_t every = origin_spacing(s);
    std::printf("bootstrap of the misses (%d resamples of the origins in blocks, auto against the best of four on all origins): auto/best, 90 %% interval, "
                "share of resamples <= 1.02, origins per block\n",
                bootstrap_resamples);
    std::string counts;
    for (std::size_t k = 0; k < s.horizons.size(); ++k) {
        int sure = 0, unsure = 0;
        for (const auto& r : ratios[k]) {
            if (r.best <= 1.02) continue;
            const std::size_t overlap = (static_cast<std::size_t>(s.horizons[k]) + every - 1) / every;  // origins whose h-step errors overlap
            const auto b = bootstrap_miss(*r.scores, overlap, bootstrap_resamples);
            const bool distinguishable = b.low > 1.02;
            (distinguishable ? sure : unsure) += 1;
            std::printf("  %-7s %-34s %-10s %.3f [%.3f, %.3f] %3.0f %% %3zu%s\n", s.horizon_labels[k], r.trace.c_str(), trace_set_names[r.set], r.best, b.low, b.high,
                        100.0 * b.within, b.block, distinguishable ? "  above 1.02" : "");
        }
        counts += fmt::format("{}{} {} / {}", counts.empty() ? "" : ", ", s.horizon_labels[k], sure, unsure);
    }
    std::printf("misses with the 90 %% interval above 1.02 / reaching 1.02, per horizon: %s\n", counts.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    // --quick: 4 origins per trace; --tuning: data/traces only; --only 5min|1min|hourly; --walk-forward-points N;
    // --origin-every MINUTES (denser origins: at 5 min the 6-h protocol scores only 8-28 single-step errors a trace);
    // --members (auto's members and every candidate's validation scores, per origin and horizon);
    // --validation automatic|blocks|walk_forward (PortfolioOptions::validation); --min-walk-forward-origins N (0 = before session 9);
    // --lstm-seen 0 (1-minute data: do not pass the LSTM's training span as extra_seen_points, as before session 9);
    // --naive-test Z (PortfolioOptions::naive_test, 0 = off); --level-guard X, --level-guard-points K
    // (PortfolioOptions::level_guard*, 0 = off); --last-value-combination off|scored|always; --moving-median-window K
    // (PortfolioOptions::moving_median_window, 0 = none); --horizon-buckets 1,3,6|none and --bucket-margin X (PortfolioOptions::horizon_buckets, bucket_margin); --extra-moving-average K; --bootstrap N (per miss, a
    // moving-block bootstrap of auto/best over the origins: 90 % interval and share within 2 %); --trace NAME (only traces whose name contains NAME); --short (no 1-day column).
    bool quick = false, tuning = false, short_only = false;
    std::string only, trace_filter;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick") quick = true;
        if (a == "--tuning") tuning = true;
        if (a == "--short") short_only = true;
        if (a == "--members") show_members = true;
        if (a == "--origin-every" && i + 1 < argc) origin_every_minutes = static_cast<std::size_t>(std::stoul(argv[++i]));
        if (a == "--only" && i + 1 < argc) only = argv[++i];
        if (a == "--level-guard" && i + 1 < argc) level_guard = std::stod(argv[++i]);
        if (a == "--naive-test" && i + 1 < argc) naive_test = std::stod(argv[++i]);
        if (a == "--level-guard-points" && i + 1 < argc) level_guard_points = std::stoi(argv[++i]);
        if (a == "--error-correction" && i + 1 < argc) error_correction = std::stoi(argv[++i]);
        if (a == "--trace" && i + 1 < argc) trace_filter = argv[++i];
        if (a == "--walk-forward-points" && i + 1 < argc) walk_forward_points = std::stoi(argv[++i]);
        if (a == "--lstm-seen" && i + 1 < argc) tell_lstm_span = std::stoi(argv[++i]) != 0;
        if (a == "--min-walk-forward-origins" && i + 1 < argc) min_walk_forward_origins = std::stoi(argv[++i]);
        if (a == "--extra-moving-average" && i + 1 < argc) extra_moving_average = std::stoi(argv[++i]);
        if (a == "--moving-median-window" && i + 1 < argc) moving_median_window = std::stoi(argv[++i]);
        if (a == "--bucket-margin" && i + 1 < argc) bucket_margin = std::stod(argv[++i]);
        if (a == "--bootstrap" && i + 1 < argc) bootstrap_resamples = std::stoi(argv[++i]);
        if (a == "--horizon-buckets" && i + 1 < argc) {
            horizon_buckets.emplace();
            const std::string v = argv[++i];
            for (std::size_t at = 0; v != "none" && at < v.size();) {
                const std::size_t comma = std::min(v.find(',', at), v.size());
                if (comma > at) horizon_buckets->push_back(std::stoi(v.substr(at, comma - at)));
                at = comma + 1;
            }
        }
        if (a == "--last-value-combination" && i + 1 < argc) {
            const std::string v = argv[++i];
            last_value_combination = v == "scored" ? 1 : v == "always" ? 2 : 0;
        }
        if (a == "--validation" && i + 1 < argc) {
            const std::string v = argv[++i];
            validation = v == "blocks" ? fc::PortfolioValidation::blocks : v == "walk_forward" ? fc::PortfolioValidation::walk_forward
                                                                                                 : fc::PortfolioValidation::automatic;
        }
    }
    const std::string root = std::string(CONTINUUM_SOURCE_DIR) + "/data/traces/";
    const std::string shared = std::string(CONTINUUM_SHARED_DIR) + "/data/traces/nab/";
    struct Source {
        std::string name, path;
        int column;
        std::size_t per_5min;  // raw rows per 5 minutes
        TraceSet set;
    };
    std::vector<Source> sources = {
        {"nab/ec2_5f5533", root + "nab/ec2_cpu_utilization_5f5533.csv", 1, 1, tuning_set},
        {"nab/ec2_77c1ca", root + "nab/ec2_cpu_utilization_77c1ca.csv", 1, 1, tuning_set},
        {"nab/ec2_825cc2", root + "nab/ec2_cpu_utilization_825cc2.csv", 1, 1, tuning_set},
        {"nab/rds_cc0c53", root + "nab/rds_cpu_utilization_cc0c53.csv", 1, 1, tuning_set},
        {"nab/asg_misconfiguration", root + "nab/cpu_utilization_asg_misconfiguration.csv", 1, 1, tuning_set},
        {"alibaba2018/300s", root + "alibaba2018/machine_usage_days_1_to_8_grouped_300_seconds.csv", 0, 1, tuning_set},
    };
    for (const char* id : {"ec2_cpu_utilization_24ae8d", "ec2_cpu_utilization_53ea38", "ec2_cpu_utilization_ac20cd",
                           "ec2_cpu_utilization_c6585a", "ec2_cpu_utilization_fe7f93", "rds_cpu_utilization_e47b3b"}) {
        const std::string path = shared + id + ".csv";
        if (!tuning && std::filesystem::exists(path)) sources.push_back({std::string("nab/") + (id + std::strlen(id) - 6) + (id[0] == 'r' ? " rds" : ""), path, 1, 1, held_out_set});
    }
    // Every CSV of a folder, in name order (directory order is unspecified): data/traces/nab_heldout (public
    // traces added after the choices above, held out like the shared ones) and data/traces/nab_heldout2
    // (the second held-out set). Never tuned on.
    const auto add_folder = [&](const std::string& folder, TraceSet set) {
        std::vector<std::filesystem::path> files;
        if (tuning || !std::filesystem::exists(root + folder)) return;
        for (const auto& entry : std::filesystem::directory_iterator(root + folder)) {
            if (entry.path().extension() == ".csv") files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end());
        for (const auto& path : files) sources.push_back({"nab/" + path.stem().string(), path.string(), 1, 1, set});
    };
    add_folder("nab_heldout", held_out_set);
    add_folder("nab_heldout2", held_out_2_set);
    std::vector<Trace> five_minutes, hourly;
    for (const auto& src : sources) {
        if (!trace_filter.empty() && src.name.find(trace_filter) == std::string::npos) continue;
        const auto raw = read_column(src.path, src.column);
        five_minutes.push_back({src.name, average(raw, src.per_5min), src.set});
        hourly.push_back({src.name, average(raw, 12 * src.per_5min), src.set});
    }
    // The one-minute Alibaba trace, the shipped LSTM's own data (origins only in its held-out last 20 %).
    std::vector<Trace> minutes{{"alibaba2018/60s", average(read_column(root + "alibaba2018/machine_usage_days_1_to_8_grouped_30_seconds.csv", 0), 2), tuning_set}};
    const auto model = fc::load_lstm<float>(std::string(CONTINUUM_SOURCE_DIR) + "/models/alibaba2018_cpu_lstm.safetensors");

    using std::chrono::seconds;
    Setting five{"5-minute data (m = 288), origins every 6 h", 288, {1, 3, 6, 12, 288}, {"5 min", "15 min", "30 min", "1 h", "1 day"},
                 {288}, seconds(300), 72, 7};
    if (short_only) {  // --short: the autoscaler horizons only (1 step to 1 hour), without the day-ahead column
        five.horizons.pop_back();
        five.horizon_labels.pop_back();
    }
    const Setting minute{"1-minute Alibaba data (m = 1440), origins every 2 h over the last day (inside the LSTM's held-out last 1.6 days)", 1440,
                         {1, 5, 15, 60}, {"1 min", "5 min", "15 min", "1 h"}, {1440}, seconds(60), 120, 1};
    const Setting hour{"hourly data (m = 24; M4-Hourly-class horizons), origins every 6 h", 24, {1, 6, 24, 48}, {"1 h", "6 h", "1 day", "2 days"},
                       {24, 168}, seconds(3600), 6, 7};
    if (only.empty() || only == "5min") print(five, evaluate(five, five_minutes, std::nullopt, quick));
    if (only.empty() || only == "1min") print(minute, evaluate(minute, minutes, model, quick));
    if (only.empty() || only == "hourly") print(hour, evaluate(hour, hourly, std::nullopt, quick));
    return 0;
}
