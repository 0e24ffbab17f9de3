// Every state document's error paths, type by type (issue 17): an unknown schema version, each
// required top-level field missing, each top-level field of the wrong type, and a value out of
// range are ParseErrors naming the field ($.field); a state that does not match the configuration
// is an InvalidArgument naming it (state.field), tested per type in the other files of this folder.
#include "state_testing.hpp"

#include <continuum/forecast/lstm_loader.hpp>
#include <continuum/serialization.hpp>

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <cmath>
#include <concepts>
#include <set>
#include <string>
#include <vector>

using namespace continuum;
namespace fc = continuum::forecast;

namespace {

std::vector<double> paths_series(std::size_t n) {
    std::vector<double> y;
    for (std::size_t t = 0; t < n; ++t) y.push_back(20.0 + 5.0 * std::sin(static_cast<double>(t) * 0.5236) + 0.01 * static_cast<double>(t * t % 17));
    return y;
}

template <typename F>
typename F::State fitted_state(F model) {
    model.fit(SeriesView(paths_series(60)));
    return model.state();
}

/// Runs the generic checks on the document of `state`: `optional` names the top-level fields a
/// reader accepts absent (null is their "none").
template <typename State>
void check_error_paths(const State& state, const std::set<std::string>& optional) {
    const serialization::Json good = serialization::to_json(state);
    const std::string schema = good["schema"].get<std::string>();
    CAPTURE(schema);
    if constexpr (std::equality_comparable<State>) (void)testing::through_json(state);  // LstmParameters has no ==

    auto doc = good;
    doc["version"] = 2;
    CHECK_THROWS_WITH_AS((void)serialization::parse<State>(doc.dump()),
                         ("state document: $.version: unsupported version 2 of " + schema + " (this build reads version 1)").c_str(), ParseError);
    doc = good;
    doc.erase("version");
    CHECK_THROWS_WITH_AS((void)serialization::parse<State>(doc.dump()), "state document: $.version: missing field", ParseError);
    doc = good;
    doc["schema"] = "continuum.Unknown";
    CHECK_THROWS_WITH_AS((void)serialization::parse<State>(doc.dump()),
                         ("state document: $.schema: expected \"" + schema + "\", got \"continuum.Unknown\"").c_str(), ParseError);

    for (const auto& item : good.items()) {
        // Named copies, not a structured binding: clang 14 cannot capture a binding in CAPTURE's lambda.
        const std::string key = item.key();
        const auto& value = item.value();
        if (key == "schema" || key == "version") continue;
        CAPTURE(key);
        doc = good;
        doc.erase(key);
        if (optional.count(key) != 0) {
            CHECK_NOTHROW((void)serialization::parse<State>(doc.dump()));
        } else {
            CHECK_THROWS_WITH_AS((void)serialization::parse<State>(doc.dump()), ("state document: $." + key + ": missing field").c_str(), ParseError);
        }
        doc = good;
        doc[key] = value.is_boolean() ? serialization::Json("yes") : serialization::Json(true);
        std::string message;
        try {
            (void)serialization::parse<State>(doc.dump());
        } catch (const ParseError& e) {
            message = e.what();
        }
        CHECK(message.rfind("state document: $." + key, 0) == 0);  // names the field (or a field inside it)
    }
}

}  // namespace

TEST_CASE("error paths: every forecaster document names the field") {
    check_error_paths(fitted_state(fc::Naive{}), {});
    check_error_paths(fitted_state(fc::Drift{}), {});
    check_error_paths(fitted_state(fc::SimpleExponentialSmoothing{}), {"fixed_alpha"});
    check_error_paths(fitted_state(fc::SeasonalNaive{12}), {});
    check_error_paths(fitted_state(fc::SeasonalMedian{12, 3}), {});
    check_error_paths(fitted_state(fc::MovingAverage{6}), {});
    check_error_paths(fitted_state(fc::LinearRegression{10}), {});
    fc::HoltWintersSpec spec;
    spec.season_length = 12;
    check_error_paths(fitted_state(fc::HoltWinters<double>(spec)), {});
    fc::PortfolioOptions options;
    options.season_lengths = {12};
    options.origins = 2;
    check_error_paths(fitted_state(fc::Portfolio(options)), {"guard_scale", "guard_errors", "error_correction", "error_correction_limit", "bucket_ends", "bucket_members"});  // the level guard, the error correction and the horizon buckets came after version 1
    const auto lstm = fc::load_lstm<double>(continuum_test::fixtures_dir() + "/lstm/h16_l2_f1_f64.safetensors");
    check_error_paths(fitted_state(lstm), {});
    check_error_paths(lstm.parameters(), {});
    auto fitted = lstm;
    fitted.fit(SeriesView(paths_series(40)));
    check_error_paths(fc::LstmModelState<double>{lstm.parameters(), fitted.state(), lstm.source()}, {});
}

TEST_CASE("error paths: every scaler, ledger and tracker document names the field") {
    quota::ProactiveQuotaScalerState proactive;
    proactive.pending = quota::PendingDecrease{Resources{{"cpu", "2"}}, Time{std::chrono::minutes(2)}, Time{std::chrono::minutes(1)}};
    proactive.last_now = Time{std::chrono::minutes(3)};
    check_error_paths(proactive, {"last_now"});
    quota::HybridQuotaScalerState<fc::SimpleExponentialSmoothingState> hybrid;
    hybrid.namespaces.push_back({"team-a", 2, {fitted_state(fc::SimpleExponentialSmoothing{})}, {{1.0, 2.0}}, true, 1, std::nullopt});
    hybrid.last_now = Time{std::chrono::minutes(5)};
    check_error_paths(hybrid, {"last_now"});
    federation::LedgerState ledger;
    ledger.providers = {{"a", Resources{{"cpu", "4"}}}};
    ledger.last_id = 3;
    check_error_paths(ledger, {});
    federation::ScaleInTrackerState tracker;
    tracker.unneeded_since["n1"] = Time{std::chrono::seconds(30)};
    tracker.last_scale_out = Time{std::chrono::seconds(10)};
    tracker.last_decision = Time{std::chrono::seconds(60)};
    check_error_paths(tracker, {"last_scale_out", "last_decision"});
    check_error_paths(federation::FederatedClusterScalerState{tracker}, {});
    scalers::HpaState hpa;
    hpa.recommendations = {{3, Time{std::chrono::seconds(15)}}};
    hpa.last_now = Time{std::chrono::seconds(15)};
    check_error_paths(hpa, {"last_active", "last_now"});
    check_error_paths(scalers::HierarchicalScalerState{}, {});
}

TEST_CASE("error paths: values out of range name the field") {
    using serialization::Json;
    const auto ses = serialization::to_json(fitted_state(fc::SimpleExponentialSmoothing{}));
    auto doc = ses;
    doc["alpha"] = 1.5;
    CHECK_THROWS_WITH_AS((void)serialization::parse<fc::SimpleExponentialSmoothingState>(doc.dump()), "state document: $.alpha: 1.5 is outside [0, 1]", ParseError);
    doc = ses;
    doc["sse"] = -2.0;
    CHECK_THROWS_WITH_AS((void)serialization::parse<fc::SimpleExponentialSmoothingState>(doc.dump()),
                         "state document: $.sse: -2 is outside [0, 1.7976931348623157e+308]", ParseError);
    doc = ses;
    doc["count"] = -1;
    CHECK_THROWS_WITH_AS((void)serialization::parse<fc::SimpleExponentialSmoothingState>(doc.dump()), "state document: $.count: -1 is negative", ParseError);
    doc = serialization::to_json(fitted_state(fc::SeasonalNaive{12}));
    doc["season_length"] = 3'000'000'000LL;
    CHECK_THROWS_WITH_AS((void)serialization::parse<fc::SeasonalNaiveState>(doc.dump()),
                         "state document: $.season_length: 3000000000 is outside [-2147483648, 2147483647]", ParseError);
    doc = serialization::to_json(fitted_state(fc::Naive{}));
    doc["last"] = 9223372036854775807ULL * 2ULL;  // an unsigned integer: read as a double
    CHECK(serialization::parse<fc::NaiveState>(doc.dump()).last == 18446744073709551614.0);
}
