// An LSTM inside the run-time containers (issue 17): an AnyForecaster, a Portfolio's extra
// candidate and a HybridQuotaScaler's per-namespace model give a state that carries the LSTM's
// weights and scaling (LstmModelState), survive JSON text and continue bit-identically.
#include "state_testing.hpp"

#include <continuum/forecast/lstm_loader.hpp>
#include <continuum/quota/hybrid.hpp>
#include <continuum/serialization/forecast.hpp>
#include <continuum/serialization/quota.hpp>

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <cmath>
#include <string>
#include <vector>

using namespace continuum;
namespace fc = continuum::forecast;

namespace {

fc::Lstm<double> member_lstm() { return fc::load_lstm<double>(continuum_test::fixtures_dir() + "/lstm/h16_l2_f1_f64.safetensors"); }

std::vector<double> member_series(std::size_t n, double phase) {
    std::vector<double> y;
    for (std::size_t t = 0; t < n; ++t) y.push_back(0.5 + 0.3 * std::sin(0.5 * static_cast<double>(t) + phase) + 0.001 * static_cast<double>(t % 7));
    return y;
}

void member_same(const fc::Forecast& a, const fc::Forecast& b) {
    CHECK(a.mean == b.mean);  // bit-identical
    CHECK(a.lower == b.lower);
    CHECK(a.upper == b.upper);
}

/// Updates `reference` and both copies with y[from..] and compares their forecasts after each point.
template <typename F>
void continue_together(F& reference, F& first, F& second, const std::vector<double>& y, std::size_t from, int horizon) {
    for (std::size_t t = from; t < y.size(); ++t) {
        reference.update(y[t]);
        first.update(y[t]);
        second.update(y[t]);
        member_same(reference.forecast(horizon, 0.9), first.forecast(horizon, 0.9));
        member_same(reference.forecast(horizon, 0.9), second.forecast(horizon, 0.9));
    }
}

}  // namespace

TEST_CASE("lstm member: an AnyForecaster holding an LSTM gives a state with its weights") {
    const fc::AnyForecaster any(member_lstm());
    const auto y = member_series(60, 0.0);
    fc::AnyForecaster a = any, b = any;
    a.fit(SeriesView(std::span<const double>(y).first(30)));
    b.fit(SeriesView(std::span<const double>(y).first(30)));
    const auto saved = testing::through_json(fc::state_of(b));
    CHECK(fc::kind_of(saved) == "lstm");
    CHECK(std::get<fc::LstmModelState<double>>(saved).parameters->window == member_lstm().window());
    CHECK(serialization::dump(saved).find("\"schema\":\"continuum.LstmModel<double>\"") != std::string::npos);
    // Restored into the configured prototype, and from the state alone (no prototype).
    fc::AnyForecaster into_prototype = fc::with_state(any, saved);
    fc::AnyForecaster from_state = fc::with_state(fc::AnyForecaster{}, saved);
    continue_together(a, into_prototype, from_state, y, 30, 4);
    CHECK(fc::state_of(from_state) == fc::state_of(a));

    // Another model's weights are another configuration.
    auto other_parameters = member_lstm().parameters();
    other_parameters.head.back().bias(0) += 0.25;
    const fc::AnyForecaster other(fc::Lstm<double>(other_parameters, "retrained.safetensors"));
    CHECK_THROWS_WITH_AS((void)fc::with_state(other, saved),
                         "lstm restore: state.parameters (weights, head, window, scaling) differ from those of the configured model (retrained.safetensors)",
                         InvalidArgument);
    CHECK_THROWS_WITH_AS((void)fc::with_state(fc::AnyForecaster(fc::Naive{}), saved),
                         "forecaster restore: the state is of a lstm model but the configured forecaster is naive", InvalidArgument);
}

TEST_CASE("lstm member: a Portfolio holding an LSTM member continues bit-identically") {
    fc::PortfolioOptions options;
    options.season_lengths = {12};
    options.origins = 2;
    const fc::Portfolio prototype(options, {fc::AnyForecaster(member_lstm())});
    const auto y = member_series(90, 0.3);
    // The seeded test weights forecast this series worse than the baselines, so validation would not
    // keep the LSTM: its member is put into the fitted portfolio's state, as a validation that chose
    // it would have left it.
    fc::Portfolio fitted = prototype;
    fitted.fit(SeriesView(std::span<const double>(y).first(60)));
    auto chosen = fitted.state();
    fc::AnyForecaster lstm(member_lstm());
    lstm.fit(SeriesView(std::span<const double>(y).first(60)));
    chosen.members = {fc::state_of(lstm), chosen.members.front()};
    fc::Portfolio uninterrupted = prototype.with_state(chosen), first_half = prototype.with_state(chosen);
    for (std::size_t t = 60; t < 70; ++t) {
        uninterrupted.update(y[t]);
        first_half.update(y[t]);
    }
    const auto saved = testing::through_json(first_half.state());
    REQUIRE(saved.members.size() == 2);
    CHECK(fc::kind_of(saved.members[0]) == "lstm");
    fc::Portfolio restored = prototype.with_state(saved);
    fc::Portfolio from_options = fc::Portfolio::restore(options, saved);  // the member carries the weights
    continue_together(uninterrupted, restored, from_options, y, 70, 6);
    CHECK(restored.state() == uninterrupted.state());
}

TEST_CASE("lstm member: a HybridQuotaScaler forecasting with an LSTM resumes after a restore") {
    quota::HybridConfig config;
    config.proactive.levels.set("cpu", quota::QuotaLevels::parse("cpu", {"500m", "1", "2", "4"}));
    config.min_history = 12;
    config.max_history = 24;
    config.refit_every = 5;
    const fc::AnyForecaster prototype(member_lstm());
    using Scaler = quota::HybridQuotaScaler<fc::AnyForecaster>;
    Scaler uninterrupted(prototype, config), first_half(prototype, config);
    std::vector<quota::NamespaceSnapshot> a_ns, b_ns;
    for (int i = 0; i < 3; ++i) {
        a_ns.push_back({"team-" + std::to_string(i), Resources{}, Resources{{"cpu", "2"}}, {}});
        b_ns.push_back(a_ns.back());
    }
    const auto tick = [](Scaler& scaler, std::vector<quota::NamespaceSnapshot>& ns, int t) {
        for (std::size_t i = 0; i < ns.size(); ++i) {
            const double cores = member_series(static_cast<std::size_t>(t) + 1, static_cast<double>(i)).back();
            ns[i].usage = Resources::from_cores(cores);
        }
        const auto d = scaler.tick(quota::ClusterSnapshot{Time{std::chrono::minutes(t)}, Resources{{"cpu", "16"}}, {}, {}}, ns);
        std::string out = d.reason;
        for (std::size_t i = 0; i < ns.size(); ++i) {
            out += "|" + d.namespaces[i].reason();
            ns[i].quota = d.namespaces[i].quota;
        }
        return out;
    };
    for (int t = 0; t < 20; ++t) CHECK(tick(uninterrupted, a_ns, t) == tick(first_half, b_ns, t));
    const auto saved = testing::through_json(first_half.state());
    REQUIRE(saved.namespaces.size() == 3);
    CHECK(fc::kind_of(saved.namespaces[0].models[0]) == "lstm");
    Scaler restored(prototype, config, saved);
    for (int t = 20; t < 40; ++t) CHECK(tick(uninterrupted, a_ns, t) == tick(restored, b_ns, t));
    CHECK(restored.state() == uninterrupted.state());
}
