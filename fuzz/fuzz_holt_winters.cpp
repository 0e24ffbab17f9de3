// Fuzzes Holt-Winters fitting and forecasting with series decoded from arbitrary bytes: every
// trend/damping/season combination, season lengths 2-24, both season updates and the three
// initialisations, values from 1e-12 to 1e12 (constant runs, spikes, zeros, negatives), a small
// fitting budget. A fit either succeeds or throws InvalidArgument; after a fit every forecast,
// interval bound, fitted value and statistic is finite, and update() keeps it that way.
#include "fuzz_target.hpp"
#include "fuzz_support.hpp"

#include <continuum/forecast/holt_winters.hpp>

CONTINUUM_FUZZ_TARGET(holt_winters) {
    namespace forecast = continuum::forecast;
    namespace fz = continuum::fuzz;
    FuzzedDataProvider in(data, size);
    forecast::HoltWintersSpec spec;
    spec.trend = in.ConsumeBool() ? forecast::Trend::additive : forecast::Trend::none;
    spec.damped = spec.has_trend() && in.ConsumeBool();
    spec.seasonal = static_cast<forecast::Seasonality>(in.ConsumeIntegralInRange<int>(0, 2));
    spec.season_length = in.ConsumeIntegralInRange<int>(2, 24);
    spec.season_update = in.ConsumeBool() ? forecast::SeasonUpdate::previous_level : forecast::SeasonUpdate::new_level;
    forecast::HoltWintersOptions options;
    options.initialization = static_cast<forecast::Initialization>(in.ConsumeIntegralInRange<int>(0, 2));
    options.budget.node_limit = in.ConsumeIntegralInRange<std::int64_t>(1, 400);
    options.starts = in.ConsumeIntegralInRange<int>(1, 3);
    options.simulation_paths = in.ConsumeIntegralInRange<int>(10, 50);  // documented minimum 10
    options.simulation_seed = in.ConsumeIntegral<std::uint64_t>();
    const double scale = in.PickValueInArray({1e-12, 1e-3, 1.0, 100.0, 1e6, 1e12});
    const auto n = in.ConsumeIntegralInRange<std::size_t>(0, 200);
    std::vector<double> values;
    values.reserve(n);
    double previous = scale;
    for (std::size_t i = 0; i < n && in.remaining_bytes() > 0; ++i) {
        switch (in.ConsumeIntegralInRange<int>(0, 3)) {
            case 0: values.push_back(previous); break;  // constant runs
            case 1: values.push_back(scale * in.ConsumeFloatingPointInRange<double>(0.5, 2.0)); break;
            case 2: values.push_back(scale * static_cast<double>(in.ConsumeIntegralInRange<int>(-2, 20))); break;
            default: values.push_back(fz::finite_double(in)); break;
        }
        previous = values.back();
    }
    const int horizon = in.ConsumeIntegralInRange<int>(1, 60);
    const double level = in.PickValueInArray({0.0, 0.5, 0.8, 0.95, 0.999});
    std::vector<double> updates;
    while (in.remaining_bytes() > 0 && updates.size() < 20) updates.push_back(scale * in.ConsumeFloatingPointInRange<double>(0.0, 3.0));

    forecast::HoltWinters<double> model(spec, options);
    try {
        model.fit(continuum::SeriesView(values));
    } catch (const continuum::InvalidArgument&) {
        return 0;  // too short, non-positive data for a multiplicative season, ...
    }
    const auto check = [&] {
        const auto f = model.forecast(horizon, level);
        CONTINUUM_FUZZ_CHECK(f.mean.size() == static_cast<std::size_t>(horizon));
        CONTINUUM_FUZZ_CHECK(fz::all_finite(f.mean));
        CONTINUUM_FUZZ_CHECK(fz::all_finite(f.lower) && fz::all_finite(f.upper));
        for (std::size_t h = 0; h < f.lower.size(); ++h) CONTINUUM_FUZZ_CHECK(f.lower[h] <= f.upper[h]);
        CONTINUUM_FUZZ_CHECK(std::isfinite(model.sigma()));
        const auto& p = model.params();
        CONTINUUM_FUZZ_CHECK(p.alpha >= 0 && p.alpha <= 1 && p.beta >= 0 && p.beta <= 1 && p.gamma >= 0 && p.gamma <= 1);
        CONTINUUM_FUZZ_CHECK(p.phi > 0 && p.phi <= 1);
    };
    try {
        check();
        for (const double u : updates) {
            try {
                model.update(u);
            } catch (const continuum::InvalidArgument&) {
                continue;  // a non-positive value for a multiplicative season
            }
            check();
        }
    } catch (const continuum::InvalidArgument& e) {
        std::fprintf(stderr, "forecast after a successful fit threw: %s\n", e.what());
        std::abort();
    }
    return 0;
}
