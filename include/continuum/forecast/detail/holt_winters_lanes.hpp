// The Holt-Winters recursions of holt_winters_kernel.hpp over `Lanes` independent series at once
// (HoltWintersBatch): one series' recursion is a chain of dependent operations (latency-bound),
// while the same step on Lanes series is Lanes independent chains that the compiler turns into
// SIMD (SSE2 by default; AVX2 / AVX-512 when the build targets them). Values are interleaved:
// element (t, lane) of a series block is at [t * Lanes + lane]. Same operations in the same order
// as the one-series kernel, so each lane's SSE and gradient equal the one-series ones.
#pragma once

#include <continuum/forecast/detail/holt_winters_kernel.hpp>
#include <continuum/forecast/holt_winters_model.hpp>

#include <array>
#include <cstddef>
#include <vector>

namespace continuum::forecast::detail {

/// Coefficients, initial states, results and gradients of Lanes series; seasons interleaved.
template <typename Scalar, std::size_t Lanes>
struct HoltWintersLanes {
    std::array<Scalar, Lanes> alpha{}, beta{}, gamma{}, phi{}, level{}, trend{}, sse{};
    std::vector<Scalar> seasons;     // m * Lanes: initial seasons in, final seasons out
    std::array<bool, Lanes> bad{};   // a multiplicative step was undefined: the SSE is +inf
    // Gradients (backward pass).
    std::array<Scalar, Lanes> g_alpha{}, g_beta{}, g_gamma{}, g_phi{}, g_level{}, g_trend{};
    std::vector<Scalar> g_seasons;   // m * Lanes
};

/// Forward pass over y (n * Lanes, interleaved) from the states in `lanes` (advanced in place);
/// writes (level, trend, season used) per step and lane to trace (3n * Lanes) when non-empty.
template <typename Scalar, std::size_t Lanes, Seasonality Season, bool HasTrend, bool NewLevel>
void holt_winters_forward_lanes(const std::vector<Scalar>& y, std::size_t n, std::size_t m, HoltWintersLanes<Scalar, Lanes>& s,
                                std::vector<Scalar>& trace) {
    const bool record = !trace.empty();
    std::array<Scalar, Lanes> sse{};
    std::array<bool, Lanes> bad{};
    // Locals, so the compiler knows the season pointer does not alias them and keeps them in registers.
    const auto alpha_l = s.alpha, beta_l = s.beta, gamma_l = s.gamma, phi_l = s.phi;
    auto level = s.level, trend = s.trend;
    std::size_t phase = 0;
    for (std::size_t t = 0; t < n; ++t) {
        const Scalar* yt = y.data() + t * Lanes;
        Scalar* season = Season == Seasonality::none ? nullptr : s.seasons.data() + phase * Lanes;
        if (record) {
            Scalar* out = trace.data() + 3 * t * Lanes;
            for (std::size_t l = 0; l < Lanes; ++l) {
                out[l] = level[l];
                out[Lanes + l] = trend[l];
                out[2 * Lanes + l] = Season == Seasonality::none ? Scalar(0) : season[l];
            }
        }
        for (std::size_t l = 0; l < Lanes; ++l) {
            const Scalar alpha = alpha_l[l];
            const Scalar d = HasTrend ? phi_l[l] * trend[l] : Scalar(0);
            const Scalar p = level[l] + d;
            Scalar so = Scalar(0);
            Scalar f = p;
            Scalar ln;
            if constexpr (Season == Seasonality::multiplicative) {
                so = season[l];
                bad[l] = bad[l] || !(so > Scalar(0)) || !(p > Scalar(0));
                f = p * so;
                ln = alpha * yt[l] / so + (Scalar(1) - alpha) * p;
                if (NewLevel) bad[l] = bad[l] || !(ln > Scalar(0));
            } else if constexpr (Season == Seasonality::additive) {
                so = season[l];
                f = p + so;
                ln = alpha * (yt[l] - so) + (Scalar(1) - alpha) * p;
            } else {
                ln = alpha * yt[l] + (Scalar(1) - alpha) * p;
            }
            if constexpr (HasTrend) trend[l] = flush_subnormal(beta_l[l] * (ln - level[l]) + (Scalar(1) - beta_l[l]) * d);
            if constexpr (Season != Seasonality::none) {
                const Scalar base = NewLevel ? ln : p;
                const Scalar gamma = gamma_l[l];
                const Scalar sn = Season == Seasonality::multiplicative ? gamma * yt[l] / base + (Scalar(1) - gamma) * so
                                                                         : gamma * (yt[l] - base) + (Scalar(1) - gamma) * so;
                season[l] = flush_subnormal(sn);
            }
            level[l] = flush_subnormal(ln);
            const Scalar e = yt[l] - f;
            sse[l] += e * e;
        }
        if constexpr (Season != Seasonality::none) phase = phase + 1 == m ? 0 : phase + 1;
    }
    s.level = level;
    s.trend = trend;
    s.sse = sse;
    s.bad = bad;
}

/// Reverse pass over the trace of a forward pass from phase 0: the gradient of each lane's SSE.
template <typename Scalar, std::size_t Lanes, Seasonality Season, bool HasTrend, bool NewLevel>
void holt_winters_backward_lanes(const std::vector<Scalar>& y, std::size_t n, std::size_t m, const std::vector<Scalar>& trace,
                                 HoltWintersLanes<Scalar, Lanes>& s) {
    std::array<Scalar, Lanes> g_alpha{}, g_beta{}, g_gamma{}, g_phi{}, level_bar{}, trend_bar{};
    const auto alpha_l = s.alpha, beta_l = s.beta, gamma_l = s.gamma, phi_l = s.phi;
    if constexpr (Season != Seasonality::none) s.g_seasons.assign(m * Lanes, Scalar(0));
    std::size_t phase = (Season != Seasonality::none && n > 0) ? (n - 1) % m : 0;
    for (std::size_t t = n; t-- > 0;) {
        const Scalar* yt = y.data() + t * Lanes;
        const Scalar* tr = trace.data() + 3 * t * Lanes;
        Scalar* season_bar = Season == Seasonality::none ? nullptr : s.g_seasons.data() + phase * Lanes;
        for (std::size_t l = 0; l < Lanes; ++l) {
            const Scalar alpha = alpha_l[l], beta = beta_l[l], gamma = gamma_l[l], phi = phi_l[l];
            const Scalar lv = tr[l], b = tr[Lanes + l], so = tr[2 * Lanes + l], y_t = yt[l];
            const Scalar d = HasTrend ? phi * b : Scalar(0);
            const Scalar p = lv + d;
            Scalar f, ln;
            if constexpr (Season == Seasonality::multiplicative) {
                f = p * so;
                ln = alpha * y_t / so + (Scalar(1) - alpha) * p;
            } else if constexpr (Season == Seasonality::additive) {
                f = p + so;
                ln = alpha * (y_t - so) + (Scalar(1) - alpha) * p;
            } else {
                f = p;
                ln = alpha * y_t + (Scalar(1) - alpha) * p;
            }
            const Scalar f_bar = Scalar(-2) * (y_t - f);
            Scalar ln_bar = level_bar[l], l_bar = 0, d_bar = 0, p_bar = 0, so_bar = 0;
            if constexpr (HasTrend) {
                ln_bar += beta * trend_bar[l];
                l_bar -= beta * trend_bar[l];
                d_bar += (Scalar(1) - beta) * trend_bar[l];
                g_beta[l] += (ln - lv - d) * trend_bar[l];
            }
            if constexpr (Season != Seasonality::none) {
                const Scalar sn_bar = season_bar[l];
                const Scalar base = NewLevel ? ln : p;
                Scalar base_bar;
                if constexpr (Season == Seasonality::multiplicative) {
                    g_gamma[l] += (y_t / base - so) * sn_bar;
                    base_bar = -gamma * y_t / (base * base) * sn_bar;
                } else {
                    g_gamma[l] += (y_t - base - so) * sn_bar;
                    base_bar = -gamma * sn_bar;
                }
                so_bar += (Scalar(1) - gamma) * sn_bar;
                if constexpr (NewLevel) {
                    ln_bar += base_bar;
                } else {
                    p_bar += base_bar;
                }
            }
            if constexpr (Season == Seasonality::multiplicative) {
                so_bar -= alpha * y_t / (so * so) * ln_bar;
                g_alpha[l] += (y_t / so - p) * ln_bar;
                p_bar += so * f_bar;
                so_bar += p * f_bar;
            } else if constexpr (Season == Seasonality::additive) {
                so_bar -= alpha * ln_bar;
                g_alpha[l] += (y_t - so - p) * ln_bar;
                p_bar += f_bar;
                so_bar += f_bar;
            } else {
                g_alpha[l] += (y_t - p) * ln_bar;
                p_bar += f_bar;
            }
            p_bar += (Scalar(1) - alpha) * ln_bar;
            l_bar += p_bar;
            d_bar += p_bar;
            if constexpr (HasTrend) {
                trend_bar[l] = phi * d_bar;
                g_phi[l] += b * d_bar;
            }
            level_bar[l] = l_bar;
            if constexpr (Season != Seasonality::none) season_bar[l] = so_bar;
        }
        if constexpr (Season != Seasonality::none) phase = phase == 0 ? m - 1 : phase - 1;
    }
    s.g_alpha = g_alpha;
    s.g_beta = g_beta;
    s.g_gamma = g_gamma;
    s.g_phi = g_phi;
    s.g_level = level_bar;
    s.g_trend = trend_bar;
}

}  // namespace continuum::forecast::detail
