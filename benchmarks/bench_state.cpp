// Saving and restoring a HybridQuotaScaler with 10,000 namespaces (issue 17; goal <= 50 ms each
// way): the state value alone (state() / the restoring constructor) and through JSON text
// (state() + dump / parse + restore), with the document's size as a counter. The scaler is warmed
// up by real ticks so every namespace holds a fitted model, as a long-running host's would.
#include <continuum/quota/hybrid.hpp>
#include <continuum/serialization/quota.hpp>

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

using namespace continuum;
namespace fc = continuum::forecast;

namespace {

constexpr std::size_t namespace_count = 10'000;

template <typename F>
struct Fixture {
    quota::HybridConfig config;
    std::vector<quota::NamespaceSnapshot> namespaces;
    quota::HybridQuotaScaler<F> scaler;

    Fixture(F prototype, std::size_t refit_every)
        : config(make_config(refit_every)), scaler(prototype, config) {
        for (std::size_t i = 0; i < namespace_count; ++i) {
            namespaces.push_back({"namespace-" + std::to_string(i), Resources{}, Resources::from_units({{"cpu", 4000}}), {}});
        }
        const quota::ClusterSnapshot cluster{Time{0}, Resources::from_units({{"cpu", static_cast<std::int64_t>(namespace_count) * 8000}}), {}, {}};
        for (int t = 0; t < 14; ++t) {
            for (std::size_t i = 0; i < namespaces.size(); ++i) {
                namespaces[i].usage = Resources::from_units({{"cpu", static_cast<std::int64_t>(1000 + (i * 37 + static_cast<std::size_t>(t) * 101) % 2000)}});
            }
            auto at = cluster;
            at.now = Time{std::chrono::minutes(t)};
            (void)scaler.tick(at, namespaces);
        }
    }
    static quota::HybridConfig make_config(std::size_t refit_every) {
        quota::HybridConfig c;
        c.min_history = 10;
        c.max_history = 60;
        c.refit_every = refit_every;
        return c;
    }
};

template <typename F>
Fixture<F>& fixture(std::size_t refit_every);

template <>
Fixture<fc::SimpleExponentialSmoothing>& fixture(std::size_t refit_every) {
    static Fixture<fc::SimpleExponentialSmoothing> without_history(fc::SimpleExponentialSmoothing{}, 0);
    static Fixture<fc::SimpleExponentialSmoothing> with_history(fc::SimpleExponentialSmoothing{}, 30);
    return refit_every == 0 ? without_history : with_history;
}

// range(0): refit_every (0: fitted models only; 30: each namespace also keeps its 14-point history).
void state_value_save(benchmark::State& state) {
    auto& f = fixture<fc::SimpleExponentialSmoothing>(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(f.scaler.state());
}
void state_value_restore(benchmark::State& state) {
    auto& f = fixture<fc::SimpleExponentialSmoothing>(static_cast<std::size_t>(state.range(0)));
    const auto saved = f.scaler.state();
    for (auto _ : state) {
        quota::HybridQuotaScaler<fc::SimpleExponentialSmoothing> restored(fc::SimpleExponentialSmoothing{}, f.config, saved);
        benchmark::DoNotOptimize(restored);
    }
}
void json_save(benchmark::State& state) {
    auto& f = fixture<fc::SimpleExponentialSmoothing>(static_cast<std::size_t>(state.range(0)));
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::string text = serialization::dump(f.scaler.state());
        bytes = text.size();
        benchmark::DoNotOptimize(text.data());
    }
    state.counters["bytes"] = static_cast<double>(bytes);
    state.counters["bytes_per_namespace"] = static_cast<double>(bytes) / static_cast<double>(namespace_count);
}
void json_restore(benchmark::State& state) {
    auto& f = fixture<fc::SimpleExponentialSmoothing>(static_cast<std::size_t>(state.range(0)));
    const std::string text = serialization::dump(f.scaler.state());
    using Scaler = quota::HybridQuotaScaler<fc::SimpleExponentialSmoothing>;
    for (auto _ : state) {
        Scaler restored(fc::SimpleExponentialSmoothing{}, f.config, serialization::parse<Scaler::State>(text));
        benchmark::DoNotOptimize(restored);
    }
    state.counters["bytes"] = static_cast<double>(text.size());
}

}  // namespace

BENCHMARK(state_value_save)->Arg(0)->Arg(30)->Unit(benchmark::kMillisecond);
BENCHMARK(state_value_restore)->Arg(0)->Arg(30)->Unit(benchmark::kMillisecond);
BENCHMARK(json_save)->Arg(0)->Arg(30)->Unit(benchmark::kMillisecond);
BENCHMARK(json_restore)->Arg(0)->Arg(30)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
