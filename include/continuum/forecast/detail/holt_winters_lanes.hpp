// The Holt-Winters recursions of holt_winters_kernel.hpp over `Lanes` independent series at once
// (HoltWintersBatch): one series' recursion is a chain of dependent operations (latency-bound),
// while the same step on Lanes series is Lanes independent chains that the compiler turns into
// SIMD (SSE2 by default; AVX2 / AVX-512 when the build targets them). Values are interleaved:
// element (t, lane) of a series block is at [t * Lanes + lane]. Each lane calls the one-series
// kernel's step and adjoint functions (one implementation), so its SSE and gradient equal the one-series ones.
// On x86-64 (g++ or clang) the lane kernels are also compiled for AVX2 and for AVX-512, without
// fused multiply-adds (so every operation rounds as in the default build), and chosen at run time
// (LaneInstructions: automatic, or one path forced, e.g. to test it).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/forecast/detail/holt_winters_kernel.hpp>
#include <continuum/forecast/holt_winters_model.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <string_view>
#include <vector>

namespace continuum::forecast {

/// The instructions HoltWinters::fit_many evaluates its lanes with. automatic: AVX2 when the CPU
/// has it and a g++ build does not target AVX2 itself (measured fastest: see docs/forecast.md),
/// else the build's own (portable) code; the others force one path. Every path gives the same bits
/// unless the build itself enables fused multiply-adds (-march=native with g++).
enum class LaneInstructions : int { automatic = 0, portable, avx2, avx512 };

[[nodiscard]] constexpr std::string_view lane_instructions_name(LaneInstructions instructions) {
    switch (instructions) {
        case LaneInstructions::portable: return "portable";
        case LaneInstructions::avx2: return "avx2";
        case LaneInstructions::avx512: return "avx512";
        case LaneInstructions::automatic:
        default: return "automatic";
    }
}

}  // namespace continuum::forecast

namespace continuum::forecast::detail {

// clang's cost model judges these loops not worth vectorising (measured: they are, ≈ 2× with g++);
// the pragma overrides it. g++ vectorises them at -O3 unasked.
#if defined(__clang__)
#define CONTINUUM_HOLT_WINTERS_VECTORIZE _Pragma("clang loop vectorize(enable)")
#else
#define CONTINUUM_HOLT_WINTERS_VECTORIZE
#endif

/// Coefficients, initial states, results and gradients of Lanes series; seasons interleaved.
template <typename Scalar, std::size_t Lanes>
struct HoltWintersLanes {
    std::array<Scalar, Lanes> alpha{}, beta{}, gamma{}, phi{}, level{}, trend{}, sse{};
    std::vector<Scalar> seasons;     // m * Lanes: initial seasons in, final seasons out
    std::array<bool, Lanes> bad{};   // a multiplicative step was undefined: the SSE is +inf
    // Pruning (a forward pass without trace): the pass may stop, setting `stopped` (states and SSEs
    // then partial), once every lane's partial SSE is above its limit, as its full SSE must be too.
    std::array<Scalar, Lanes> sse_limit = filled(std::numeric_limits<Scalar>::infinity());
    bool stopped = false;
    // Gradients (backward pass).
    std::array<Scalar, Lanes> g_alpha{}, g_beta{}, g_gamma{}, g_phi{}, g_level{}, g_trend{};
    std::vector<Scalar> g_seasons;   // m * Lanes

    [[nodiscard]] static constexpr std::array<Scalar, Lanes> filled(Scalar value) {
        std::array<Scalar, Lanes> out{};
        out.fill(value);
        return out;
    }
};

/// Steps between two checks of the pruning limits: rare enough to cost nothing measurable.
inline constexpr std::size_t holt_winters_prune_interval = 16;

/// Forward pass over y (n * Lanes, interleaved) from the states in `lanes` (advanced in place);
/// writes (level, trend, season used) per step and lane to trace (3n * Lanes) when non-empty;
/// without trace, stops early when every lane's SSE passes its s.sse_limit (see HoltWintersLanes).
template <typename Scalar, std::size_t Lanes, Seasonality Season, bool HasTrend, bool NewLevel>
void holt_winters_forward_lanes(const std::vector<Scalar>& y, std::size_t n, std::size_t m, HoltWintersLanes<Scalar, Lanes>& s,
                                std::vector<Scalar>& trace) {
    const bool record = !trace.empty();
    std::array<Scalar, Lanes> sse{};
    std::array<bool, Lanes> bad{};
    const auto limit = s.sse_limit;
    bool prune = !record;
    for (std::size_t l = 0; l < Lanes; ++l) prune = prune && limit[l] < std::numeric_limits<Scalar>::infinity();
    s.stopped = false;
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
        CONTINUUM_HOLT_WINTERS_VECTORIZE
        for (std::size_t l = 0; l < Lanes; ++l) {
            const Scalar so = Season == Seasonality::none ? Scalar(0) : season[l];
            const auto r = holt_winters_step_values<Scalar, Season, HasTrend, NewLevel>(yt[l], alpha_l[l], beta_l[l], gamma_l[l], phi_l[l], level[l],
                                                                                        trend[l], so);
            if constexpr (Season == Seasonality::multiplicative) bad[l] = bad[l] || !r.ok;
            if constexpr (HasTrend) trend[l] = r.trend;
            if constexpr (Season != Seasonality::none) season[l] = r.season;
            level[l] = r.level;
            const Scalar e = yt[l] - r.f;
            sse[l] += e * e;
        }
        if constexpr (Season != Seasonality::none) phase = phase + 1 == m ? 0 : phase + 1;
        if (prune && t % holt_winters_prune_interval == holt_winters_prune_interval - 1) {
            bool above = true;
            for (std::size_t l = 0; l < Lanes; ++l) above = above && sse[l] > limit[l];
            if (above) {
                s.stopped = true;
                break;
            }
        }
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
        CONTINUUM_HOLT_WINTERS_VECTORIZE
        for (std::size_t l = 0; l < Lanes; ++l) {
            const Scalar sn_bar = Season == Seasonality::none ? Scalar(0) : season_bar[l];
            const auto a = holt_winters_step_adjoint<Scalar, Season, HasTrend, NewLevel>(yt[l], alpha_l[l], beta_l[l], gamma_l[l], phi_l[l], tr[l],
                                                                                         tr[Lanes + l], tr[2 * Lanes + l], level_bar[l], trend_bar[l], sn_bar);
            g_alpha[l] += a.alpha;
            if constexpr (HasTrend) {
                g_beta[l] += a.beta;
                g_phi[l] += a.phi;
                trend_bar[l] = a.trend_bar;
            }
            if constexpr (Season != Seasonality::none) {
                g_gamma[l] += a.gamma;
                season_bar[l] = a.season_bar;
            }
            level_bar[l] = a.level_bar;
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

/// One objective evaluation of every lane: the forward pass, then the backward pass when `gradient`.
template <typename Scalar, std::size_t Lanes, Seasonality Season, bool HasTrend, bool NewLevel>
void holt_winters_evaluate_lanes(const std::vector<Scalar>& y, std::size_t n, std::size_t m, HoltWintersLanes<Scalar, Lanes>& s,
                                 std::vector<Scalar>& trace, bool gradient) {
    holt_winters_forward_lanes<Scalar, Lanes, Season, HasTrend, NewLevel>(y, n, m, s, trace);
    if (gradient) holt_winters_backward_lanes<Scalar, Lanes, Season, HasTrend, NewLevel>(y, n, m, trace, s);
}

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(CONTINUUM_NO_RUNTIME_DISPATCH)
#define CONTINUUM_HOLT_WINTERS_LANE_DISPATCH 1
// AVX2 without FMA: g++ and clang fuse nothing. AVX-512F implies FMA in both compilers, so the
// AVX-512 body turns contraction off: g++ through optimize("fp-contract=off") on the body (which
// `flatten` inlines the kernels into), clang through `#pragma clang fp contract(off)` in the step
// functions (holt_winters_kernel.hpp), where clang decides it.
#if defined(__clang__)
#define CONTINUUM_HOLT_WINTERS_NO_CONTRACTION
#else
#define CONTINUUM_HOLT_WINTERS_NO_CONTRACTION optimize("fp-contract=off"),
#endif

/// The evaluation compiled for AVX2 (4 doubles or 8 floats per instruction instead of SSE2's 2
/// or 4); `flatten` inlines the lane kernels and the step functions into this body.
template <typename Scalar, std::size_t Lanes, Seasonality Season, bool HasTrend, bool NewLevel>
__attribute__((target("avx2"), flatten)) void holt_winters_evaluate_lanes_avx2(const std::vector<Scalar>& y, std::size_t n, std::size_t m,
                                                                               HoltWintersLanes<Scalar, Lanes>& s, std::vector<Scalar>& trace,
                                                                               bool gradient) {
    holt_winters_evaluate_lanes<Scalar, Lanes, Season, HasTrend, NewLevel>(y, n, m, s, trace, gradient);
}

/// The evaluation compiled for AVX-512 (AVX-512F: 8 doubles or 16 floats per instruction).
template <typename Scalar, std::size_t Lanes, Seasonality Season, bool HasTrend, bool NewLevel>
__attribute__((target("avx512f"), CONTINUUM_HOLT_WINTERS_NO_CONTRACTION flatten)) void holt_winters_evaluate_lanes_avx512(
    const std::vector<Scalar>& y, std::size_t n, std::size_t m, HoltWintersLanes<Scalar, Lanes>& s, std::vector<Scalar>& trace, bool gradient) {
    holt_winters_evaluate_lanes<Scalar, Lanes, Season, HasTrend, NewLevel>(y, n, m, s, trace, gradient);
}
#endif

/// Whether this build and CPU (and its operating system) run `instructions`; asked once per path.
inline bool lane_instructions_supported(LaneInstructions instructions) {
    switch (instructions) {
        case LaneInstructions::automatic:
        case LaneInstructions::portable: return true;
#ifdef CONTINUUM_HOLT_WINTERS_LANE_DISPATCH
        case LaneInstructions::avx2: {
            static const bool has = [] {
                __builtin_cpu_init();
                return __builtin_cpu_supports("avx2") != 0;
            }();
            return has;
        }
        case LaneInstructions::avx512: {
            static const bool has = [] {
                __builtin_cpu_init();
                return __builtin_cpu_supports("avx512f") != 0;
            }();
            return has;
        }
#endif
        default: return false;
    }
}

/// The path `requested` runs on: automatic resolved (see LaneInstructions), a forced path checked.
/// \throws InvalidArgument when a forced path is not supported by this build or CPU.
inline LaneInstructions resolve_lane_instructions(LaneInstructions requested) {
    if (requested == LaneInstructions::automatic) {
#if defined(__AVX2__) || defined(__clang__)
        // The build's own code already uses AVX2 (or wider); or clang 14, which leaves the lane
        // loops in its AVX2 and AVX-512 bodies scalar (no ymm/zmm instruction in them): measured
        // slower than its vectorised portable (SSE2) lanes.
        return LaneInstructions::portable;
#else
        return lane_instructions_supported(LaneInstructions::avx2) ? LaneInstructions::avx2 : LaneInstructions::portable;
#endif
    }
    if (!lane_instructions_supported(requested)) {
        throw InvalidArgument(continuum::detail::message("holt_winters fit_many: instructions = {}: not supported by this build or CPU", lane_instructions_name(requested)));
    }
    return requested;
}

/// holt_winters_evaluate_lanes through the path `instructions` (resolved: not automatic); every
/// path gives the same results.
template <typename Scalar, std::size_t Lanes, Seasonality Season, bool HasTrend, bool NewLevel>
void holt_winters_evaluate_lanes_with(LaneInstructions instructions, const std::vector<Scalar>& y, std::size_t n, std::size_t m,
                                      HoltWintersLanes<Scalar, Lanes>& s, std::vector<Scalar>& trace, bool gradient) {
#ifdef CONTINUUM_HOLT_WINTERS_LANE_DISPATCH
    if (instructions == LaneInstructions::avx2) {
        holt_winters_evaluate_lanes_avx2<Scalar, Lanes, Season, HasTrend, NewLevel>(y, n, m, s, trace, gradient);
        return;
    }
    if (instructions == LaneInstructions::avx512) {
        holt_winters_evaluate_lanes_avx512<Scalar, Lanes, Season, HasTrend, NewLevel>(y, n, m, s, trace, gradient);
        return;
    }
#else
    (void)instructions;
#endif
    holt_winters_evaluate_lanes<Scalar, Lanes, Season, HasTrend, NewLevel>(y, n, m, s, trace, gradient);
}

}  // namespace continuum::forecast::detail
