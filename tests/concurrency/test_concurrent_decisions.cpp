// Const decision calls on shared objects from several std::threads (docs/thread-safety.md): every
// thread must get exactly the single-threaded answer. Run under ThreadSanitizer in CI (see
// docs/thread-safety.md for the command); in the normal suite they check the results only.
#include <continuum/federation/expander_chain.hpp>
#if CONTINUUM_HAVE_PRIORITY_CONFIG
#include <continuum/federation/priority_config.hpp>
#endif
#include <continuum/federation/ledger.hpp>
#include <continuum/federation/selector.hpp>
#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/packing/exact.hpp>
#include <continuum/packing/node_types.hpp>
#include <continuum/quota/reactive.hpp>
#if CONTINUUM_HAVE_NLOHMANN_JSON
#include <continuum/forecast/lstm_loader.hpp>
#endif

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <atomic>
#include <cmath>
#include <functional>
#include <thread>
#include <vector>

using namespace continuum;

namespace {

constexpr int threads = 4;
constexpr int rounds = 25;

/// Runs `body(thread_index)` on `threads` threads at once (released together) and joins them.
/// Each body returns the number of mismatches it saw; the total must be 0.
int run_concurrently(const std::function<int(int)>& body) {
    std::atomic<bool> go{false};
    std::atomic<int> mismatches{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
            mismatches += body(t);
        });
    }
    go.store(true, std::memory_order_release);
    for (auto& thread : pool) thread.join();
    return mismatches.load();
}

std::vector<double> seasonal_series(std::size_t n) {
    std::vector<double> y(n);
    for (std::size_t t = 0; t < n; ++t) y[t] = 100.0 + 10.0 * std::sin(2.0 * M_PI * static_cast<double>(t % 12) / 12.0) + 0.1 * static_cast<double>(t);
    return y;
}

}  // namespace

TEST_CASE("concurrency: ReactiveQuotaScaler::decide (const) on one shared scaler") {
    const std::vector<capacity::WaitingNode> pool{{"wwn-1", Resources{{"cpu", "4"}, {"memory", "8Gi"}}, std::chrono::seconds(30), 1.0},
                                                  {"wwn-2", Resources{{"cpu", "8"}, {"memory", "16Gi"}}, std::chrono::seconds(60), 1.5}};
    const quota::ReactiveQuotaScaler scaler;
    const quota::ReactiveSnapshot snapshot{Resources{{"cpu", "20"}, {"memory", "10Gi"}}, Resources{{"cpu", "10"}, {"memory", "10Gi"}},
                                           Resources{{"cpu", "3"}, {"memory", "1Gi"}}, pool};
    const auto expected = scaler.decide(snapshot);
    REQUIRE(expected.case_number() == 3);
    CHECK(run_concurrently([&](int) {
              int bad = 0;
              for (int r = 0; r < rounds; ++r) {
                  const auto d = scaler.decide(snapshot);
                  bad += !(d.new_quota == expected.new_quota && d.nodes_to_activate() == expected.nodes_to_activate() && d.reason == expected.reason);
              }
              return bad;
          }) == 0);
}

#if CONTINUUM_HAVE_PRIORITY_CONFIG
TEST_CASE("concurrency: ExpanderChain::choose with shared priority tiers (RE2 matching) and pricing") {
    std::vector<federation::ExpansionOption> options(3);
    const char* groups[] = {"pool-spot-a", "gpu-large", "default"};
    for (std::size_t i = 0; i < options.size(); ++i) {
        options[i].node_group = groups[i];
        options[i].node_count = static_cast<std::int64_t>(i) + 1;
        options[i].node_capacity = Resources{{"cpu", "4"}, {"memory", "16Gi"}};
        options[i].pods = {Resources{{"cpu", "1"}, {"memory", "1Gi"}}};
    }
    federation::ExpanderContext context;
    context.pricing = federation::PricingModel::linear(0.03, 0.004);
    context.cluster_node_count = 10;
    context.priority = federation::PriorityTiers::parse("10:\n  - .*-spot-.*\n  - default\n");
    const auto chain = federation::ExpanderChain::parse("priority,least-waste,price");
    const auto expected = chain.choose(options, context, 42);
    REQUIRE(expected.best.has_value());
    CHECK(run_concurrently([&](int) {
              int bad = 0;
              for (int r = 0; r < rounds; ++r) {
                  const auto c = chain.choose(options, context, 42);
                  bad += !(c.best == expected.best && c.stages == expected.stages && c.reason == expected.reason);
              }
              return bad;
          }) == 0);
}
#endif

TEST_CASE("concurrency: forecast() (const) on one fitted Holt-Winters model and one AnyForecaster") {
    const Series history(seasonal_series(120));
    forecast::HoltWintersSpec spec;
    spec.seasonal = forecast::Seasonality::multiplicative;  // simulated intervals: the seeded generator is per call
    spec.season_length = 12;
    forecast::HoltWintersOptions options;
    options.simulation_paths = 100;
    forecast::HoltWinters<double> model(spec, options);
    model.fit(history);
    forecast::AnyForecaster any{forecast::HoltWinters<double>(forecast::HoltWintersSpec{forecast::Trend::additive, false, forecast::Seasonality::additive, 12})};
    any.fit(history);
    const auto expected = model.forecast(24, 0.9);
    const auto expected_any = any.forecast(24);
    CHECK(run_concurrently([&](int) {
              int bad = 0;
              for (int r = 0; r < rounds; ++r) {
                  const auto f = model.forecast(24, 0.9);
                  bad += !(f.mean == expected.mean && f.lower == expected.lower && f.upper == expected.upper);
                  bad += !(any.forecast(24).mean == expected_any.mean);
              }
              return bad;
          }) == 0);
}

#if CONTINUUM_HAVE_NLOHMANN_JSON
TEST_CASE("concurrency: Lstm forecast() (const) and predict() with one workspace per thread on a shared model") {
    auto lstm = forecast::load_lstm<float>(continuum_test::fixtures_dir() + "/lstm/h8_l1_f1_f32.safetensors");
    const std::vector<double> history(lstm.window() + 5, 42.0);
    lstm.fit(SeriesView(history, lstm.parameters().step.count() > 0 ? lstm.parameters().step : Duration(std::chrono::minutes(1))));
    const auto& model = lstm;
    const auto expected = model.forecast(6);
    const std::vector<float> window(model.window(), 10.0F);
    std::vector<float> expected_out(model.outputs());
    {
        auto ws = model.make_workspace();
        model.predict(window, expected_out, ws);
    }
    CHECK(run_concurrently([&](int) {
              int bad = 0;
              auto ws = model.make_workspace();
              std::vector<float> out(model.outputs());
              for (int r = 0; r < rounds; ++r) {
                  bad += !(model.forecast(6).mean == expected.mean);
                  model.predict(window, out, ws);
                  bad += !(out == expected_out);
              }
              return bad;
          }) == 0);
}
#endif

TEST_CASE("concurrency: packing functions on shared inputs (exact solver, node mix)") {
    const std::vector<std::int64_t> sizes{42, 69, 67, 57, 93, 90, 38, 36, 45, 42, 33, 79, 27, 57, 44, 84, 86, 92, 46, 38};
    std::vector<Resources> items;
    for (std::size_t i = 0; i < sizes.size(); ++i) items.push_back(Resources::from_units({{"cpu", sizes[i] * 10}, {"memory", sizes[(i + 7) % sizes.size()] << 20}}));
    const std::vector<packing::NodeType> types{{"small", Resources::from_units({{"cpu", 1000}, {"memory", std::int64_t{100} << 20}}), 1.0, packing::unlimited},
                                               {"large", Resources::from_units({{"cpu", 2000}, {"memory", std::int64_t{200} << 20}}), 1.8, packing::unlimited}};
    Budget budget;
    budget.node_limit = 20'000;
    const auto expected = packing::solve_exact(sizes, 150, budget);
    const auto expected_mix = packing::cheapest_node_mix(items, types, budget);
    CHECK(run_concurrently([&](int) {
              int bad = 0;
              for (int r = 0; r < 5; ++r) {
                  const auto p = packing::solve_exact(sizes, 150, budget);
                  bad += !(p.bins == expected.bins && p.lower_bound == expected.lower_bound);
                  const auto mix = packing::cheapest_node_mix(items, types, budget);
                  bad += !(mix.cost == expected_mix.cost && mix.count_per_type == expected_mix.count_per_type);
              }
              return bad;
          }) == 0);
}

TEST_CASE("concurrency: LabelSelector::matches on a shared selector") {
    const auto selector = federation::parse_label_selector("zone in (eu-1,eu-2),!spot,cores>4");
    const federation::Labels yes{{"zone", "eu-2"}, {"cores", "8"}};
    const federation::Labels no{{"zone", "eu-2"}, {"cores", "8"}, {"spot", "true"}};
    CHECK(run_concurrently([&](int) {
              int bad = 0;
              for (int r = 0; r < 200; ++r) bad += !selector.matches(yes) + selector.matches(no);
              return bad;
          }) == 0);
}

TEST_CASE("concurrency: the Ledger is internally synchronised: concurrent reservations never over-commit") {
    federation::Ledger ledger;
    ledger.set_capacity("cloud-a", Resources::from_units({{"cpu", 10'000}}));
    std::atomic<int> granted{0};
    CHECK(run_concurrently([&](int t) {
              int bad = 0;
              for (int r = 0; r < 100; ++r) {
                  const auto id = ledger.try_reserve(fmt::format("consumer-{}", t), "cloud-a", Resources::from_units({{"cpu", 100}}));
                  if (id) {
                      ++granted;
                      if (r % 3 == 0) ledger.commit(*id);
                  }
                  bad += !ledger.held("cloud-a").fits_in(ledger.capacity("cloud-a"));
              }
              return bad;
          }) == 0);
    CHECK(granted.load() == 100);  // 400 asks for 100m against 10 cores: exactly 100 fit
    CHECK(ledger.available("cloud-a").empty());
    CHECK(ledger.audit().empty());
}
