// LSTM inference (forecast/lstm.hpp): one window (the controller's per-namespace call) and a
// batch of windows (all namespaces at once), in float and double, plus this build's measured
// peak FMA throughput for the GFLOP/s comparison. benchmarks/lstm_peer.py runs PyTorch on the
// same weights and prints the ratios.
//
// Weights: $CONTINUUM_LSTM_WEIGHTS (a safetensors file, e.g. written by lstm_peer.py) if set and
// nlohmann_json is available; else a seeded random model with hidden 64, 2 layers, window 10.
#include <continuum/forecast/lstm.hpp>
#if CONTINUUM_HAVE_NLOHMANN_JSON || __has_include(<nlohmann/json.hpp>)
#include <continuum/forecast/lstm_loader.hpp>
#define CONTINUUM_BENCH_LOADER 1
#endif

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace continuum::forecast;

namespace {

template <typename T>
Lstm<T> random_model(std::size_t hidden, std::size_t layers, std::size_t window) {
    std::mt19937_64 rng(64);
    const double bound = 1.0 / std::sqrt(static_cast<double>(hidden));
    std::uniform_real_distribution<double> uniform(-bound, bound);
    const auto fill = [&](auto& m) {
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            for (Eigen::Index i = 0; i < m.rows(); ++i) m(i, j) = static_cast<T>(uniform(rng));
        }
    };
    LstmParameters<T> p;
    const auto h = static_cast<Eigen::Index>(hidden);
    for (std::size_t k = 0; k < layers; ++k) {
        LstmLayer<T> layer;
        layer.weight_ih.resize(4 * h, k == 0 ? 1 : h);
        layer.weight_hh.resize(4 * h, h);
        layer.bias_ih.resize(4 * h);
        layer.bias_hh.resize(4 * h);
        fill(layer.weight_ih);
        fill(layer.weight_hh);
        fill(layer.bias_ih);
        fill(layer.bias_hh);
        p.layers.push_back(std::move(layer));
    }
    DenseLayer<T> head;
    head.weight.resize(1, h);
    head.bias.resize(1);
    fill(head.weight);
    fill(head.bias);
    p.head.push_back(std::move(head));
    p.window = window;
    p.input_scaling = Scaling::min_max({0.0}, {100.0});
    p.output_scaling = Scaling::min_max({0.0}, {100.0});
    return Lstm<T>(std::move(p), "random h64x2");
}

template <typename T>
Lstm<T> bench_model() {
#if CONTINUUM_BENCH_LOADER
    if (const char* path = std::getenv("CONTINUUM_LSTM_WEIGHTS"); path != nullptr && *path != '\0') return load_lstm<T>(path);
#endif
    return random_model<T>(64, 2, 10);
}

/// Multiply-adds of one window: per step and layer the fused (4H × (in + H)) product, plus the head.
template <typename T>
double flops_per_window(const Lstm<T>& model) {
    double flops = 0;
    for (const auto& layer : model.parameters().layers) {
        flops += 2.0 * static_cast<double>(layer.weight_ih.rows()) * static_cast<double>(layer.weight_ih.cols() + layer.weight_hh.cols()) *
                 static_cast<double>(model.window());
    }
    for (const auto& dense : model.parameters().head) flops += 2.0 * static_cast<double>(dense.weight.size());
    return flops;
}

template <typename T>
std::vector<T> cpu_windows(std::size_t count, std::size_t per_window) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> cpu(5.0, 95.0);
    std::vector<T> out(count * per_window);
    for (auto& v : out) v = static_cast<T>(cpu(rng));
    return out;
}

template <typename T>
void BM_lstm_single(benchmark::State& state) {
    auto model = bench_model<T>();
    const auto window = cpu_windows<T>(1, model.window() * model.features());
    for (auto _ : state) {
        benchmark::DoNotOptimize(model.predict_next(window));
    }
    state.counters["FLOPS"] = benchmark::Counter(flops_per_window(model), benchmark::Counter::kIsIterationInvariantRate);
    state.SetLabel(model.name());
}

template <typename T>
void BM_lstm_batch(benchmark::State& state) {
    auto model = bench_model<T>();
    const auto count = static_cast<std::size_t>(state.range(0));
    const auto windows = cpu_windows<T>(count, model.window() * model.features());
    std::vector<T> out(count * model.outputs());
    LstmWorkspace<T> workspace;
    for (auto _ : state) {
        model.predict_batch(windows, out, workspace);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.counters["FLOPS"] =
        benchmark::Counter(flops_per_window(model) * static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["windows_per_second"] = benchmark::Counter(static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate);
    state.SetLabel(model.name());
}

/// Peak multiply-add throughput of this build's instruction set on one core: independent
/// accumulator vectors as wide as the compiler's target allows (SSE2 by default, AVX-512 with
/// CONTINUUM_NATIVE on this machine), a·x + b per lane (fused when the target has FMA).
void BM_peak_fma_float(benchmark::State& state) {
#if defined(__AVX512F__)
    constexpr int bytes = 64;
#elif defined(__AVX__)
    constexpr int bytes = 32;
#else
    constexpr int bytes = 16;
#endif
    using V = float __attribute__((vector_size(bytes)));
    constexpr int lanes = bytes / 4;
    constexpr int accumulators = 12;
    constexpr int rounds = 256;
    V acc[accumulators];
    V a;
    V b;
    for (int j = 0; j < lanes; ++j) {
        a[j] = 0.999F;
        b[j] = 1e-4F;
        for (int i = 0; i < accumulators; ++i) acc[i][j] = static_cast<float>(i + j) * 1e-3F;
    }
    for (auto _ : state) {
        for (int r = 0; r < rounds; ++r) {
            for (int i = 0; i < accumulators; ++i) acc[i] = acc[i] * a + b;
        }
        benchmark::DoNotOptimize(acc);
    }
    state.counters["FLOPS"] = benchmark::Counter(2.0 * accumulators * lanes * rounds, benchmark::Counter::kIsIterationInvariantRate);
    state.SetLabel(fmt::format("{}-bit vectors", bytes * 8));
}

/// This core's clock while it runs: a chain of dependent integer additions (one cycle each on every
/// x86-64 core since the Pentium Pro) per second of CPU time, counter "GHz". The VM shows no clock
/// range (lscpu) and /proc/cpuinfo only the nominal TSC rate, so lstm_peer.py computes the CPU's FMA
/// peak from this: cores x FMA units x lanes x 2 flops x GHz.
void BM_cpu_clock(benchmark::State& state) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    constexpr int adds = 1000;
    std::uint64_t x = 0;
    for (auto _ : state) {
        for (int r = 0; r < adds / 100; ++r) asm volatile(".rept 100\n\tadd $1, %0\n\t.endr" : "+r"(x));
    }
    benchmark::DoNotOptimize(x);
    state.counters["GHz"] = benchmark::Counter(adds * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
#else
    state.SkipWithError("the clock is measured with x86-64 assembly only");
#endif
}

}  // namespace

BENCHMARK(BM_cpu_clock);
BENCHMARK_TEMPLATE(BM_lstm_single, float);
BENCHMARK_TEMPLATE(BM_lstm_single, double);
BENCHMARK_TEMPLATE(BM_lstm_batch, float)->Arg(64)->Arg(1000);
BENCHMARK_TEMPLATE(BM_lstm_batch, double)->Arg(1000);
BENCHMARK(BM_peak_fma_float);

BENCHMARK_MAIN();
