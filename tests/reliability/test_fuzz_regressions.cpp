// Regression tests for what the libFuzzer targets in fuzz/ found: each crasher (or hang) is kept
// as a small test here and its raw input in fuzz/corpus/<target>/ (replayed on every fuzz run).
#include <continuum/federation/expander_chain.hpp>
#if CONTINUUM_HAVE_PRIORITY_CONFIG
#include <continuum/federation/priority_config.hpp>
#endif
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/packing/lower_bounds.hpp>
#include <continuum/packing/node_types.hpp>
#include <continuum/scalers/hpa.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <limits>

using continuum::Resources;
using namespace continuum::federation;

TEST_CASE("fuzz regression (fuzz_expanders): least-waste score with capacity x node_count beyond int64 is finite, no overflow") {
    // Found by fuzz_expanders: 2^27 millicores of requests + a capacity near int64 max overflowed
    // the int64 sums (signed overflow, UB) in least_waste_score.
    ExpansionOption option;
    option.node_group = "huge";
    option.node_count = 3;
    option.node_capacity = Resources::from_units({{"cpu", std::numeric_limits<std::int64_t>::max()}, {"memory", std::numeric_limits<std::int64_t>::max()}});
    option.pods = {Resources::from_units({{"cpu", std::numeric_limits<std::int64_t>::max()}, {"memory", 1}}),
                   Resources::from_units({{"cpu", std::int64_t{1} << 27}, {"memory", 1}})};
    const auto score = least_waste_score(option);
    REQUIRE(score.has_value());
    // cpu: (3·max − max − 2^27) / (3·max) ≈ 2/3; memory: (3·max − 2) / (3·max) ≈ 1
    CHECK(*score == doctest::Approx(2.0 / 3.0 + 1.0).epsilon(1e-9));
    // and the ordering still follows the requests: one more large pod wastes strictly less
    ExpansionOption fuller = option;
    fuller.pods.push_back(Resources::from_units({{"cpu", std::int64_t{1} << 40}}));
    CHECK(*least_waste_score(fuller) < *score);
    const std::vector<ExpansionOption> options{option, fuller};
    CHECK(least_waste(options) == std::vector<std::size_t>{1});
}

#if CONTINUUM_HAVE_PRIORITY_CONFIG
TEST_CASE("fuzz regression (fuzz_expander_config): priority patterns with nested repetition do not hang the matcher") {
    // Found by fuzz_expander_config (a 10 s timeout) when patterns were std::regex: libstdc++'s
    // backtracking executor took exponential time on ".**ooooooo&ooooo-z]+"; "(a*)*b" on a run of
    // a's is the textbook case. RE2 matches in linear time, and rejects ".**" as Go does.
    CHECK_THROWS_AS(PriorityTiers::parse("10:\n  - .**ooooooo&ooooo-z]+\n"), continuum::ParseError);
    const auto tiers = PriorityTiers::parse("20:\n  - (a*)*b\n30:\n  - ^gpu-.*\n");
    CHECK_FALSE(tiers.highest_match("eu-west-1-m5.large").has_value());
    CHECK_FALSE(tiers.highest_match(std::string(60, 'a')).has_value());
    CHECK(tiers.highest_match(std::string(60, 'a') + "b") == 20);
    CHECK(tiers.highest_match("gpu-large") == 30);
    std::vector<ExpansionOption> options(2);
    options[0].node_group = "eu-west-1-m5.large";
    options[1].node_group = "gpu-large";
    CHECK(priority(options, tiers).kept == std::vector<std::size_t>{1});
}

TEST_CASE("priority expander: back-references are rejected as Go's regexp (RE2 syntax) rejects them (ParseError)") {
    CHECK_THROWS_AS(PriorityTiers::parse("10:\n  - (a)\\1\n"), continuum::ParseError);
}
#endif

TEST_CASE("fuzz regression (fuzz_vector_packing): cheapest_node_mix with item amounts near int64 max") {
    // Found by fuzz_vector_packing: the exact search summed the remaining items' amounts (and the
    // open nodes' residuals) in int64, overflowing (UB) when items near int64 max add up.
    const std::int64_t max = std::numeric_limits<std::int64_t>::max();
    const std::int64_t big = max / 10 * 8;  // 0.8 max: two never share a node
    std::vector<Resources> items(3, Resources::from_units({{"cpu", big}, {"memory", 1}}));
    items.push_back(Resources::from_units({{"cpu", max / 10}, {"memory", 1}}));  // fits beside any of them
    std::vector<continuum::packing::NodeType> types(2);
    types[0] = {"huge", Resources::from_units({{"cpu", max}, {"memory", max}}), 3.0, continuum::packing::unlimited};
    types[1] = {"small", Resources::from_units({{"cpu", max / 5}, {"memory", 16}}), 1.0, continuum::packing::unlimited};
    const auto mix = continuum::packing::cheapest_node_mix(items, types);
    CHECK(mix.unplaceable.empty());
    // three huge nodes (9) would do; a huge per big item plus nothing else is optimal: the small
    // item rides along on one of them. A small node (1) instead only adds cost.
    CHECK(mix.cost == doctest::Approx(9.0));
    CHECK(mix.count_per_type == std::vector<std::int64_t>{3, 0});
    CHECK(mix.optimal);
}

TEST_CASE("fuzz regression (fuzz_vector_packing): L2 bound with item sizes near int64 max") {
    // Found by fuzz_vector_packing: l2_bound computed n2 x capacity (the room in the bins of the
    // items larger than c/2) in int64; with several such items near int64 max it overflowed (UB).
    const std::int64_t c = std::numeric_limits<std::int64_t>::max() / 2;  // sum of sizes stays in int64
    const std::vector<std::int64_t> sizes{c / 10 * 6, c / 10 * 6, c / 10 * 6, c / 10 * 2};
    // three items > c/2 need a bin each; the small one fits beside any of them: L2 = 3
    CHECK(continuum::packing::l2_bound(sizes, c) == 3);
    CHECK(continuum::packing::l1_bound(sizes, c) == 2);  // Σ = 2c exactly: L1 is weaker here
    const std::vector<Resources> items{Resources::from_units({{"cpu", c / 10 * 6}}), Resources::from_units({{"cpu", c / 10 * 6}}),
                                       Resources::from_units({{"cpu", c / 10 * 6}}), Resources::from_units({{"cpu", c / 10 * 2}})};
    CHECK(continuum::packing::lower_bound(items, Resources::from_units({{"cpu", c}})) == 3);
}

TEST_CASE("fuzz regression (fuzz_hpa): missing-metric fallback for a pod whose request is near int64 max") {
    // Found by fuzz_hpa: the fallback usage of a pod without metrics, request x max(100, target)
    // / 100, was computed in int64 and overflowed (UB). It is now computed in 128 bits and
    // saturated at int64 max.
    continuum::scalers::HpaSpec spec;
    spec.min_replicas = 1;
    spec.max_replicas = 10;
    continuum::scalers::HpaMetric metric;
    metric.target = 150;  // percent utilisation
    metric.pods.resize(2);
    metric.pods[0] = {"measured", continuum::scalers::PodPhase::running, false, true, 100, 1000};
    metric.pods[1] = {"missing", continuum::scalers::PodPhase::running, false, true, std::nullopt, std::numeric_limits<std::int64_t>::max() - 1};
    spec.metrics.push_back(metric);
    continuum::scalers::Hpa hpa(spec);
    continuum::scalers::ScaleTargetState target{2, 2, 2};
    const auto d = hpa.decide(target, continuum::Time(0));
    // measured usage is 10 % of the request (ratio 0.067: a scale-down); with the missing pod
    // assumed at the 150 % target the ratio becomes about 1 (within tolerance): the HPA keeps 2.
    CHECK(d.desired_replicas == 2);
    CHECK_FALSE(d.scale);
}

TEST_CASE("fuzz regression (fuzz_hpa): with min_replicas = 0 a Value metric and no ready pod scale a running target to zero, as upstream") {
    // Found by fuzz_hpa (session 12): its invariant "a plain HPA never proposes 0 for a running
    // target" was wrong for min_replicas = 0 (the HPAScaleToZero gate), which the HPA supports. The
    // controller's getUsageRatioReplicaCount with current replicas != 0 proposes
    // ceil(usage ratio x ready pods): ratio 32,768 / 100,000 outside the tolerance, 0 ready pods -> 0,
    // inside [min, max] = [0, 26].
    continuum::scalers::HpaSpec spec;
    spec.min_replicas = 0;
    spec.max_replicas = 26;
    spec.behavior->scale_down.stabilization_window = std::chrono::seconds(0);
    continuum::scalers::HpaMetric metric;
    metric.name = "queue";
    metric.source = continuum::scalers::MetricSource::external;
    metric.target_type = continuum::scalers::TargetType::value;
    metric.target = 100'000;
    metric.value = 32'768;
    spec.metrics.push_back(metric);
    continuum::scalers::Hpa hpa(spec);
    const continuum::scalers::ScaleTargetState no_ready{6, 6, 0};
    const auto d = hpa.decide(no_ready, continuum::Time(0));
    CHECK(d.desired_replicas == 0);
    CHECK(d.scale);
    // From zero (current replicas 0) the controller proposes ceil(usage ratio): 250,000 / 100,000
    // -> 3, where min_replicas >= 1 would leave a target at zero alone (scaling disabled).
    auto rising = spec.metrics;
    rising[0].value = 250'000;
    const auto up = hpa.decide(rising, continuum::scalers::ScaleTargetState{0, 0, 0}, continuum::Time(15'000));
    CHECK(up.desired_replicas == 3);
    // With min_replicas = 1 the same observation stops at one replica.
    spec.min_replicas = 1;
    continuum::scalers::Hpa floor(spec);
    CHECK(floor.decide(no_ready, continuum::Time(0)).desired_replicas == 1);
}

TEST_CASE("fuzz regression (fuzz_hpa): AverageValue of an external metric near int64 max reports the exact per-pod value") {
    // Found by fuzz_hpa: status.current was ceil(double(usage) / status_replicas) converted back to
    // int64; usage near int64 max rounds to 2^63 as a double, outside int64 (UB). Now an exact
    // integer ceiling.
    continuum::scalers::HpaSpec spec;
    spec.min_replicas = 1;
    spec.max_replicas = 7;
    continuum::scalers::HpaMetric metric;
    metric.name = "queue";
    metric.source = continuum::scalers::MetricSource::external;
    metric.target_type = continuum::scalers::TargetType::average_value;
    metric.target = 1;
    metric.value = std::numeric_limits<std::int64_t>::max() - 1;
    spec.metrics.push_back(metric);
    continuum::scalers::Hpa hpa(spec);
    const auto d = hpa.decide(continuum::scalers::ScaleTargetState{1, 1, 1}, continuum::Time(0));
    REQUIRE(d.proposals.size() == 1);
    CHECK(d.proposals[0].current == std::numeric_limits<std::int64_t>::max() - 1);
    CHECK(d.desired_replicas == 5);  // default scale-up: max(+100 %, +4 pods) per 15 s = 1 + 4, below max 7
}

TEST_CASE("fuzz regression (fuzz_hpa): scale-up rate limits with a policy value near int64 max saturate") {
    // Found by fuzz_hpa: start + policy.value (Pods policy) overflowed int64 (UB); a Percent
    // policy of that size converted a double beyond int64. Both now saturate, so max_replicas rules.
    continuum::scalers::HpaSpec spec;
    spec.min_replicas = 1;
    spec.max_replicas = 40;
    spec.behavior->scale_up.policies = {{continuum::scalers::ScalingPolicyType::pods, std::numeric_limits<std::int64_t>::max() - 3, std::chrono::seconds(15)},
                                        {continuum::scalers::ScalingPolicyType::percent, std::numeric_limits<std::int64_t>::max(), std::chrono::seconds(15)}};
    continuum::scalers::HpaMetric metric;
    metric.target = 50;
    for (int p = 0; p < 23; ++p) metric.pods.push_back({fmt::format("pod-{}", p), continuum::scalers::PodPhase::running, false, true, 1000, 100});
    spec.metrics.push_back(metric);
    continuum::scalers::Hpa hpa(spec);
    const auto d = hpa.decide(continuum::scalers::ScaleTargetState{23, 23, 23}, continuum::Time(0));
    CHECK(d.desired_replicas == 40);  // 2000 % of the request vs a 50 % target wants 920: capped at max
}

TEST_CASE("fuzz regression (fuzz_holt_winters): observations whose squared errors would overflow are rejected, the model unchanged") {
    // Found by fuzz_holt_winters: a constant series at 1.6e307 fits exactly (SSE 0), then
    // update(0) made the error sum (1.6e307)^2 = inf and sigma() infinite.
    const double limit = static_cast<double>(continuum::forecast::HoltWinters<double>::max_magnitude());
    CHECK(limit == doctest::Approx(1.3e150));
    CHECK(continuum::forecast::HoltWinters<float>::max_magnitude() == 1.8e15F);  // sqrt(FLT_MAX) / 1e4
    continuum::forecast::HoltWinters<float> single({continuum::forecast::Trend::none, false, continuum::forecast::Seasonality::none, 2});
    single.fit(continuum::SeriesView(std::vector<double>(10, 1e15)));
    CHECK_THROWS_WITH_AS(single.update(2e15), doctest::Contains("beyond ±1.8e+15"), continuum::InvalidArgument);
    single.update(1.7e15);
    CHECK(std::isfinite(single.sigma()));
    continuum::forecast::HoltWinters<double> model({continuum::forecast::Trend::none, false, continuum::forecast::Seasonality::none, 2});
    CHECK_THROWS_WITH_AS(model.fit(continuum::SeriesView(std::vector<double>(23, 1.62145e307))), doctest::Contains("series[0] = 1.62145e+307 is beyond"),
                         continuum::InvalidArgument);
    std::vector<double> y(23, 1e150);
    y[5] = -2e150;
    CHECK_THROWS_WITH_AS(model.fit(continuum::SeriesView(y)), doctest::Contains("series[5]"), continuum::InvalidArgument);

    // At the limit everything stays finite: a level of 1e150 and an update of -1e150.
    const continuum::forecast::HoltWintersParameters<double> p{0.5, 0.0, 0.0, 1.0, 1e150, 0.0, {}};
    auto known = continuum::forecast::HoltWinters<double>::known({continuum::forecast::Trend::none, false, continuum::forecast::Seasonality::none, 2}, p);
    known.fit(continuum::SeriesView(std::vector<double>(4, 1e150)));
    CHECK(known.sigma() == 0.0);
    known.update(-1e150);  // error 2e150, level 0.5·(-1e150) + 0.5·1e150 = 0
    CHECK(known.level() == 0.0);
    CHECK(known.sigma() == doctest::Approx(2e150 / std::sqrt(5.0)));
    CHECK_THROWS_WITH_AS(known.update(-2e150), doctest::Contains("observation -2e+150 is beyond"), continuum::InvalidArgument);
    CHECK(known.level() == 0.0);
    const auto f = known.forecast(5, 0.95);
    for (std::size_t h = 0; h < 5; ++h) {
        CHECK(std::isfinite(f.lower[h]));
        CHECK(std::isfinite(f.upper[h]));
    }

    // A multiplicative season whose state would overflow: the step is rolled back in full.
    const continuum::forecast::HoltWintersParameters<double> mp{1.0, 0.0, 1.0, 1.0, 1e-100, 0.0, {1e-200, 1.0}};  // level 1e150 / 1e-200 = inf
    auto mul = continuum::forecast::HoltWinters<double>::known({continuum::forecast::Trend::none, false, continuum::forecast::Seasonality::multiplicative, 2}, mp);
    mul.fit(continuum::SeriesView(std::vector<double>{1e-300, 1e-100, 1e-300, 1e-100}));  // reproduces its own state
    const double level = mul.level();
    const auto seasons = mul.seasons();
    CHECK_THROWS_WITH_AS(mul.update(1e150), doctest::Contains("the model is unchanged"), continuum::InvalidArgument);
    CHECK(mul.level() == level);
    CHECK(mul.seasons() == seasons);
    CHECK(std::isfinite(mul.sigma()));
}

TEST_CASE("fuzz regression (fuzz_holt_winters): simulated intervals of a multiplicative season with a near-zero factor stay finite") {
    // Found by fuzz_holt_winters: a 1e90 spike in a multiplicative series inflated sigma to 5e91;
    // simulated paths divided by near-zero seasonal factors and overflowed (inf, then NaN bounds).
    // Here: seasons {1e-300, 2}, sigma 1. One simulated step on the tiny factor gives a level of
    // about 0.5 * y / 1e-300; such a path now stays at +max_magnitude() instead of overflowing.
    namespace fc = continuum::forecast;
    const fc::HoltWintersParameters<double> p{0.5, 0.0, 0.5, 1.0, 1.0, 0.0, {1e-300, 1.0}};
    auto model = fc::HoltWinters<double>::known({fc::Trend::none, false, fc::Seasonality::multiplicative, 2}, p);
    model.fit(continuum::SeriesView(std::vector<double>{1e-300, 1.0, 1e-300, 3.0}));
    CHECK(model.sigma() == doctest::Approx(1.0));  // errors 0, 0, 0, 2: sqrt(4 / 4)
    CHECK(model.level() == doctest::Approx(2.0));
    const double limit = fc::HoltWinters<double>::max_magnitude();
    const auto f = model.forecast(8, 0.95);
    for (std::size_t h = 0; h < 8; ++h) {
        CAPTURE(h);
        CHECK(std::isfinite(f.lower[h]));
        CHECK(f.lower[h] <= f.upper[h]);
        CHECK(f.mean[h] == doctest::Approx(h % 2 == 0 ? 2e-300 : 4.0));
        if (h > 0) CHECK(f.upper[h] == limit);  // some paths escaped on step 1
    }
    CHECK(f.upper[0] < 3.0);  // the first step is the plain simulated error: 2e-300 + sigma * z
}

#if CONTINUUM_HAVE_PRIORITY_CONFIG
TEST_CASE("fuzz regression (fuzz_expander_config): a digit escape with a long run of digits is read as RE2 and Go read it") {
    // Found by fuzz_expander_config when patterns were std::regex: "\\4444…" was one ECMAScript
    // back-reference number that overflowed inside libstdc++. Go's regexp and RE2 read "\\444"
    // as an octal escape (up to three digits, U+0124) followed by literal 4s, and "\\0" as NUL.
    const auto tiers = PriorityTiers::parse("51:\n  - ^g.4\\44444444444444444444444\n");
    CHECK(tiers.highest_match("gx4\u0124" + std::string(20, '4')) == 51);
    CHECK_FALSE(tiers.highest_match("gx4" + std::string(23, '4')));
    CHECK(PriorityTiers({{7, {"[a\\0]"}}}).highest_match(std::string(1, '\0')) == 7);
    CHECK_THROWS_WITH_AS(PriorityTiers({{7, {"x\\8"}}}), doctest::Contains("for priority 7"), continuum::ParseError);
    // An escaped backslash followed by a digit is a literal backslash and a digit.
    const PriorityTiers escaped({{3, {"^pool\\\\1$"}}});
    CHECK(escaped.highest_match("pool\\1") == 3);
    CHECK(!escaped.highest_match("pool1"));
}
#endif
