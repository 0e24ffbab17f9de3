// Fuzzes the quota scalers' state documents (reactive, proactive, hybrid with any built-in model):
// see state_fuzz_support.hpp for the invariants.
#include "state_fuzz_support.hpp"

#include <cstddef>
#include <cstdint>

using namespace continuum;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
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
