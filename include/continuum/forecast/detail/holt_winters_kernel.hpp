// The Holt-Winters recursions (one function per trend/season/update-form combination, chosen at
// compile time): the forward pass that yields the one-step SSE, fitted values and final state in
// O(n), and the reverse (adjoint) pass that yields the exact gradient of the SSE with respect to
// α, β, γ, φ and every initial state in O(n + m), so fitting costs O(n) per evaluation at any m.
#pragma once

#include <continuum/forecast/holt_winters_model.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace continuum::forecast::detail {

template <typename Scalar>
struct HoltWintersCoefficients {
    Scalar alpha, beta, gamma, phi;
};

/// Running state: level, trend and the m seasonal values in a ring (seasons[phase] is used next).
template <typename Scalar>
struct HoltWintersState {
    Scalar level = Scalar(0);
    Scalar trend = Scalar(0);
    std::vector<Scalar> seasons;
    std::size_t phase = 0;
    Scalar replaced_season = Scalar(0);  // value the last seasonal update overwrote
};

template <typename Scalar>
struct HoltWintersGradient {
    Scalar alpha = 0, beta = 0, gamma = 0, phi = 0, level = 0, trend = 0;
    std::vector<Scalar> seasons;
};

/// Calls f.template operator()<Season, HasTrend, NewLevel>() for the spec's combination.
template <typename F>
decltype(auto) dispatch_holt_winters(const HoltWintersSpec& spec, F&& f) {
    const bool trend = spec.has_trend();
    const bool new_level = spec.season_update == SeasonUpdate::new_level;
    switch (spec.seasonal) {
        case Seasonality::additive:
            if (trend) return new_level ? f.template operator()<Seasonality::additive, true, true>()
                                        : f.template operator()<Seasonality::additive, true, false>();
            return new_level ? f.template operator()<Seasonality::additive, false, true>()
                             : f.template operator()<Seasonality::additive, false, false>();
        case Seasonality::multiplicative:
            if (trend) return new_level ? f.template operator()<Seasonality::multiplicative, true, true>()
                                        : f.template operator()<Seasonality::multiplicative, true, false>();
            return new_level ? f.template operator()<Seasonality::multiplicative, false, true>()
                             : f.template operator()<Seasonality::multiplicative, false, false>();
        case Seasonality::none:
        default:
            return trend ? f.template operator()<Seasonality::none, true, false>()
                         : f.template operator()<Seasonality::none, false, false>();
    }
}

/// Flushes subnormal values to zero. A damped trend with β = 0 decays geometrically and would
/// otherwise get stuck in the subnormal range (0.8 × 2 ulp rounds back to 2 ulp), where every
/// arithmetic operation costs ~100 cycles; values below the smallest normal number carry no
/// information for a forecast.
template <typename Scalar>
inline Scalar flush_subnormal(Scalar x) {
    return (x < std::numeric_limits<Scalar>::min() && x > -std::numeric_limits<Scalar>::min()) ? Scalar(0) : x;
}

/// The one-step forecast from `state` (ℓ + φb, plus or times the next seasonal value).
template <typename Scalar, Seasonality Season, bool HasTrend>
inline Scalar holt_winters_peek(const HoltWintersCoefficients<Scalar>& c, const HoltWintersState<Scalar>& state) {
    const Scalar p = state.level + (HasTrend ? c.phi * state.trend : Scalar(0));
    if constexpr (Season == Seasonality::multiplicative) return p * state.seasons[state.phase];
    if constexpr (Season == Seasonality::additive) return p + state.seasons[state.phase];
    return p;
}

/// One step of the recursion as a pure function of the previous level, trend and season used, so
/// the one-series kernels below and the lane kernels (holt_winters_lanes.hpp, many series in SIMD
/// lanes) share one implementation of the arithmetic: f is the one-step forecast, level, trend and
/// season the new states; ok is false when a multiplicative division would be by a non-positive value.
template <typename Scalar>
struct HoltWintersStepResult {
    Scalar f, level, trend, season;
    bool ok;
};

template <typename Scalar, Seasonality Season, bool HasTrend, bool NewLevel>
inline HoltWintersStepResult<Scalar> holt_winters_step_values(Scalar y, Scalar alpha, Scalar beta, Scalar gamma, Scalar phi, Scalar level,
                                                              Scalar trend, Scalar so) {
#ifdef __clang__
#pragma clang fp contract(off)  // no fused multiply-add even where the caller enables FMA (holt_winters_lanes.hpp)
#endif
    const Scalar d = HasTrend ? phi * trend : Scalar(0);
    const Scalar p = level + d;
    HoltWintersStepResult<Scalar> r{p, Scalar(0), Scalar(0), Scalar(0), true};
    Scalar ln;
    if constexpr (Season == Seasonality::multiplicative) {
        r.ok = (so > Scalar(0)) && (p > Scalar(0));
        r.f = p * so;
        ln = alpha * y / so + (Scalar(1) - alpha) * p;
        if (NewLevel) r.ok = r.ok && (ln > Scalar(0));
    } else if constexpr (Season == Seasonality::additive) {
        r.f = p + so;
        ln = alpha * (y - so) + (Scalar(1) - alpha) * p;
    } else {
        ln = alpha * y + (Scalar(1) - alpha) * p;
    }
    if constexpr (HasTrend) r.trend = flush_subnormal(beta * (ln - level) + (Scalar(1) - beta) * d);
    if constexpr (Season != Seasonality::none) {
        const Scalar base = NewLevel ? ln : p;
        const Scalar sn = Season == Seasonality::multiplicative ? gamma * y / base + (Scalar(1) - gamma) * so
                                                                 : gamma * (y - base) + (Scalar(1) - gamma) * so;
        r.season = flush_subnormal(sn);
    }
    r.level = flush_subnormal(ln);
    return r;
}

/// One observation: returns the one-step forecast made before seeing y, and advances the state.
/// Returns NaN (and leaves the state unchanged) when a multiplicative division would be by a
/// non-positive value.
template <typename Scalar, Seasonality Season, bool HasTrend, bool NewLevel>
inline Scalar holt_winters_step(Scalar y, const HoltWintersCoefficients<Scalar>& c, HoltWintersState<Scalar>& state) {
    const Scalar so = Season == Seasonality::none ? Scalar(0) : state.seasons[state.phase];
    const auto r = holt_winters_step_values<Scalar, Season, HasTrend, NewLevel>(y, c.alpha, c.beta, c.gamma, c.phi, state.level, state.trend, so);
    if constexpr (Season == Seasonality::multiplicative) {
        if (!r.ok) return std::numeric_limits<Scalar>::quiet_NaN();
    }
    if constexpr (HasTrend) state.trend = r.trend;
    if constexpr (Season != Seasonality::none) {
        state.replaced_season = so;
        state.seasons[state.phase] = r.season;
        state.phase = state.phase + 1 == state.seasons.size() ? 0 : state.phase + 1;
    }
    state.level = r.level;
    return r.f;
}

/// Forward pass over y from `state` (advanced in place). Writes one-step forecasts to `fitted`
/// and (level, trend, season used) per step to `trace` when they are non-empty. Returns the SSE,
/// or +inf when a multiplicative step is undefined. The states live in locals during the pass (a
/// store to the seasons could alias the struct's members, which would otherwise go through memory
/// on every step: a store-to-load round trip on the latency-bound chain); each step is
/// holt_winters_step's arithmetic, so the values are the same.
template <typename Scalar, Seasonality Season, bool HasTrend, bool NewLevel>
Scalar holt_winters_forward(std::span<const Scalar> y, const HoltWintersCoefficients<Scalar>& c,
                            HoltWintersState<Scalar>& state, std::span<Scalar> fitted, std::span<Scalar> trace) {
    const Scalar alpha = c.alpha, beta = c.beta, gamma = c.gamma, phi = c.phi;
    Scalar level = state.level, trend = state.trend, replaced = state.replaced_season;
    std::size_t phase = state.phase;
    Scalar* const seasons = state.seasons.data();
    const std::size_t m = state.seasons.size();
    Scalar* const out = fitted.empty() ? nullptr : fitted.data();
    Scalar* const record = trace.empty() ? nullptr : trace.data();
    Scalar sse = Scalar(0);
    bool undefined = false;
    for (std::size_t t = 0; t < y.size(); ++t) {
        const Scalar so = Season == Seasonality::none ? Scalar(0) : seasons[phase];
        if (record != nullptr) {
            record[3 * t] = level;
            record[3 * t + 1] = trend;
            record[3 * t + 2] = so;
        }
        const auto r = holt_winters_step_values<Scalar, Season, HasTrend, NewLevel>(y[t], alpha, beta, gamma, phi, level, trend, so);
        if constexpr (Season == Seasonality::multiplicative) {
            if (!r.ok) {  // holt_winters_step leaves the state as it was
                undefined = true;
                break;
            }
        }
        if constexpr (HasTrend) trend = r.trend;
        if constexpr (Season != Seasonality::none) {
            replaced = so;
            seasons[phase] = r.season;
            phase = phase + 1 == m ? 0 : phase + 1;
        }
        level = r.level;
        if (r.f != r.f) {
            undefined = true;
            break;
        }
        if (out != nullptr) out[t] = r.f;
        const Scalar e = y[t] - r.f;
        sse += e * e;
    }
    state.level = level;
    state.trend = trend;
    state.replaced_season = replaced;
    state.phase = phase;
    return undefined ? std::numeric_limits<Scalar>::infinity() : sse;
}

/// Two forward passes side by side over the same y: two models with one season kind and update form
/// (each with or without a trend, any season lengths), each from its state (advanced in place) with its coefficients, recording its trace (3n values).
/// Each slot is holt_winters_forward's arithmetic, so its SSE and trace are those of a pass alone;
/// the two latency-bound chains in one loop overlap, so the pair costs little more than one pass
/// (HoltWinters::refit_together). A slot whose step is undefined gets +inf (its state and trace
/// are then meaningless).
template <typename Scalar, Seasonality Season, bool TrendA, bool TrendB, bool NewLevel>
std::array<Scalar, 2> holt_winters_forward_pair(std::span<const Scalar> y, const std::array<HoltWintersCoefficients<Scalar>, 2>& c,
                                                const std::array<HoltWintersState<Scalar>*, 2>& states, const std::array<Scalar*, 2>& traces) {
    struct Slot {
        Scalar alpha, beta, gamma, phi, level, trend, sse;
        Scalar* seasons;
        Scalar* record;
        std::size_t phase, m;
        bool undefined;
    };
    const auto slot = [&](std::size_t k) {
        return Slot{c[k].alpha, c[k].beta, c[k].gamma, c[k].phi, states[k]->level, states[k]->trend, Scalar(0), states[k]->seasons.data(), traces[k],
                    states[k]->phase, states[k]->seasons.size(), false};
    };
    Slot a = slot(0), b = slot(1);
    const auto step = [&]<bool HasTrend>(Slot& s, std::size_t t) {
        if (s.undefined) return;
        const Scalar so = Season == Seasonality::none ? Scalar(0) : s.seasons[s.phase];
        s.record[3 * t] = s.level;
        s.record[3 * t + 1] = s.trend;
        s.record[3 * t + 2] = so;
        const auto r = holt_winters_step_values<Scalar, Season, HasTrend, NewLevel>(y[t], s.alpha, s.beta, s.gamma, s.phi, s.level, s.trend, so);
        if constexpr (Season == Seasonality::multiplicative) {
            if (!r.ok) {
                s.undefined = true;
                return;
            }
        }
        if constexpr (HasTrend) s.trend = r.trend;
        if constexpr (Season != Seasonality::none) {
            s.seasons[s.phase] = r.season;
            s.phase = s.phase + 1 == s.m ? 0 : s.phase + 1;
        }
        s.level = r.level;
        if (r.f != r.f) {
            s.undefined = true;
            return;
        }
        const Scalar e = y[t] - r.f;
        s.sse += e * e;
    };
    for (std::size_t t = 0; t < y.size(); ++t) {
        step.template operator()<TrendA>(a, t);
        step.template operator()<TrendB>(b, t);
    }
    const Scalar infinity = std::numeric_limits<Scalar>::infinity();
    return {a.undefined ? infinity : a.sse, b.undefined ? infinity : b.sse};
}

/// The adjoint of one step (reverse-mode differentiation of holt_winters_step_values plus the
/// squared error): from the step's inputs (level l, trend b, season used so) and the adjoints of its
/// outputs (level_bar, trend_bar, season_bar), the adjoints of its inputs and the step's
/// contributions to the coefficient gradients. Shared by the one-series and the lane kernels.
template <typename Scalar>
struct HoltWintersAdjoint {
    Scalar level_bar, trend_bar, season_bar, alpha, beta, gamma, phi;
};

template <typename Scalar, Seasonality Season, bool HasTrend, bool NewLevel>
inline HoltWintersAdjoint<Scalar> holt_winters_step_adjoint(Scalar yt, Scalar alpha, Scalar beta, Scalar gamma, Scalar phi, Scalar l, Scalar b,
                                                            Scalar so, Scalar level_bar, Scalar trend_bar, Scalar sn_bar) {
#ifdef __clang__
#pragma clang fp contract(off)  // as in holt_winters_step_values
#endif
    HoltWintersAdjoint<Scalar> a{Scalar(0), Scalar(0), Scalar(0), Scalar(0), Scalar(0), Scalar(0), Scalar(0)};
    const Scalar d = HasTrend ? phi * b : Scalar(0);
    const Scalar p = l + d;
    Scalar f, ln;
    if constexpr (Season == Seasonality::multiplicative) {
        f = p * so;
        ln = alpha * yt / so + (Scalar(1) - alpha) * p;
    } else if constexpr (Season == Seasonality::additive) {
        f = p + so;
        ln = alpha * (yt - so) + (Scalar(1) - alpha) * p;
    } else {
        f = p;
        ln = alpha * yt + (Scalar(1) - alpha) * p;
    }
    const Scalar f_bar = Scalar(-2) * (yt - f);
    Scalar ln_bar = level_bar, l_bar = 0, d_bar = 0, p_bar = 0, so_bar = 0;
    if constexpr (HasTrend) {
        ln_bar += beta * trend_bar;
        l_bar -= beta * trend_bar;
        d_bar += (Scalar(1) - beta) * trend_bar;
        a.beta = (ln - l - d) * trend_bar;
    }
    if constexpr (Season != Seasonality::none) {
        const Scalar base = NewLevel ? ln : p;
        Scalar base_bar;
        if constexpr (Season == Seasonality::multiplicative) {
            a.gamma = (yt / base - so) * sn_bar;
            base_bar = -gamma * yt / (base * base) * sn_bar;
        } else {
            a.gamma = (yt - base - so) * sn_bar;
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
        so_bar -= alpha * yt / (so * so) * ln_bar;
        a.alpha = (yt / so - p) * ln_bar;
        p_bar += so * f_bar;
        so_bar += p * f_bar;
    } else if constexpr (Season == Seasonality::additive) {
        so_bar -= alpha * ln_bar;
        a.alpha = (yt - so - p) * ln_bar;
        p_bar += f_bar;
        so_bar += f_bar;
    } else {
        a.alpha = (yt - p) * ln_bar;
        p_bar += f_bar;
    }
    p_bar += (Scalar(1) - alpha) * ln_bar;
    l_bar += p_bar;
    d_bar += p_bar;
    if constexpr (HasTrend) {
        a.trend_bar = phi * d_bar;
        a.phi = b * d_bar;
    }
    a.level_bar = l_bar;
    a.season_bar = so_bar;
    return a;
}

/// Reverse pass: the gradient of the SSE of the forward pass that started at phase 0 and wrote
/// `trace`. O(n + m). The sums live in locals during the pass (as in holt_winters_forward).
template <typename Scalar, Seasonality Season, bool HasTrend, bool NewLevel>
void holt_winters_backward(std::span<const Scalar> y, const HoltWintersCoefficients<Scalar>& c, std::span<const Scalar> trace,
                           std::size_t m, HoltWintersGradient<Scalar>& g) {
    const Scalar alpha = c.alpha, beta = c.beta, gamma = c.gamma, phi = c.phi;
    Scalar g_alpha = 0, g_beta = 0, g_gamma = 0, g_phi = 0, level_bar = 0, trend_bar = 0;
    if constexpr (Season != Seasonality::none) g.seasons.assign(m, Scalar(0));
    Scalar* const season_bar = g.seasons.data();
    const Scalar* const record = trace.data();
    std::size_t phase = (Season != Seasonality::none && !y.empty()) ? (y.size() - 1) % m : 0;
    for (std::size_t t = y.size(); t-- > 0;) {
        const Scalar sn_bar = Season == Seasonality::none ? Scalar(0) : season_bar[phase];
        const auto a = holt_winters_step_adjoint<Scalar, Season, HasTrend, NewLevel>(y[t], alpha, beta, gamma, phi, record[3 * t], record[3 * t + 1],
                                                                                     record[3 * t + 2], level_bar, trend_bar, sn_bar);
        g_alpha += a.alpha;
        if constexpr (HasTrend) {
            g_beta += a.beta;
            g_phi += a.phi;
            trend_bar = a.trend_bar;
        }
        if constexpr (Season != Seasonality::none) {
            g_gamma += a.gamma;
            season_bar[phase] = a.season_bar;
            phase = phase == 0 ? m - 1 : phase - 1;
        }
        level_bar = a.level_bar;
    }
    g.alpha = g_alpha;
    g.beta = g_beta;
    g.gamma = g_gamma;
    g.phi = g_phi;
    g.level = level_bar;
    g.trend = trend_bar;
}

/// Two reverse passes side by side over the same y (the traces of holt_winters_forward_pair):
/// each slot is holt_winters_backward's arithmetic, so each gradient is that of a pass alone.
template <typename Scalar, Seasonality Season, bool TrendA, bool TrendB, bool NewLevel>
void holt_winters_backward_pair(std::span<const Scalar> y, const std::array<HoltWintersCoefficients<Scalar>, 2>& c,
                                const std::array<const Scalar*, 2>& traces, const std::array<std::size_t, 2>& m,
                                const std::array<HoltWintersGradient<Scalar>*, 2>& g) {
    struct Slot {
        Scalar alpha, beta, gamma, phi, g_alpha, g_beta, g_gamma, g_phi, level_bar, trend_bar;
        Scalar* season_bar;
        const Scalar* record;
        std::size_t phase, m;
    };
    const auto slot = [&](std::size_t k) {
        if constexpr (Season != Seasonality::none) g[k]->seasons.assign(m[k], Scalar(0));
        return Slot{c[k].alpha, c[k].beta, c[k].gamma, c[k].phi, Scalar(0), Scalar(0), Scalar(0), Scalar(0), Scalar(0), Scalar(0), g[k]->seasons.data(),
                    traces[k], (Season != Seasonality::none && !y.empty()) ? (y.size() - 1) % m[k] : 0, m[k]};
    };
    Slot a = slot(0), b = slot(1);
    const auto step = [&]<bool HasTrend>(Slot& s, std::size_t t) {
        const Scalar sn_bar = Season == Seasonality::none ? Scalar(0) : s.season_bar[s.phase];
        const auto r = holt_winters_step_adjoint<Scalar, Season, HasTrend, NewLevel>(y[t], s.alpha, s.beta, s.gamma, s.phi, s.record[3 * t], s.record[3 * t + 1],
                                                                                     s.record[3 * t + 2], s.level_bar, s.trend_bar, sn_bar);
        s.g_alpha += r.alpha;
        if constexpr (HasTrend) {
            s.g_beta += r.beta;
            s.g_phi += r.phi;
            s.trend_bar = r.trend_bar;
        }
        if constexpr (Season != Seasonality::none) {
            s.g_gamma += r.gamma;
            s.season_bar[s.phase] = r.season_bar;
            s.phase = s.phase == 0 ? s.m - 1 : s.phase - 1;
        }
        s.level_bar = r.level_bar;
    };
    for (std::size_t t = y.size(); t-- > 0;) {
        step.template operator()<TrendA>(a, t);
        step.template operator()<TrendB>(b, t);
    }
    for (std::size_t k = 0; k < 2; ++k) {
        const Slot& s = k == 0 ? a : b;
        g[k]->alpha = s.g_alpha;
        g[k]->beta = s.g_beta;
        g[k]->gamma = s.g_gamma;
        g[k]->phi = s.g_phi;
        g[k]->level = s.level_bar;
        g[k]->trend = s.trend_bar;
    }
}

}  // namespace continuum::forecast::detail
