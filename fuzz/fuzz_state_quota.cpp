// Fuzzes the quota scalers' state documents (reactive, proactive, hybrid with any built-in model):
// see state_fuzz_support.hpp for the invariants.
#include "fuzz_target.hpp"
#include "state_fuzz_support.hpp"

#include <cstddef>
#include <cstdint>

using namespace continuum;

CONTINUUM_FUZZ_TARGET(state_quota) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    using Hybrid = quota::HybridQuotaScaler<forecast::AnyForecaster>;
    fuzzing::check_document<Hybrid::State>(text, [](const Hybrid::State& s) {
        quota::HybridConfig config;
        config.refit_every = 3;
        (void)Hybrid(forecast::AnyForecaster{}, config, s);
    });
    fuzzing::check_document<quota::ProactiveQuotaScalerState>(text, [](const auto& s) { (void)quota::ProactiveQuotaScaler({}, s); });
    fuzzing::check_document<quota::ReactiveQuotaScalerState>(text, [](const auto& s) { (void)quota::ReactiveQuotaScaler({}, s); });
    return 0;
}
