// Fuzzes the scalers' state documents (Hpa, HierarchicalScaler): see state_fuzz_support.hpp; a
// restored HPA must also decide without crashing.
#include "fuzz_target.hpp"
#include "state_fuzz_support.hpp"

#include <cstddef>
#include <cstdint>

using namespace continuum;
using namespace continuum::scalers;

CONTINUUM_FUZZ_TARGET(state_scalers) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    fuzzing::check_document<HpaState>(text, [](const HpaState& s) {
        HpaSpec spec;
        HpaMetric m;
        m.name = "queue";
        m.source = MetricSource::external;
        m.target_type = TargetType::average_value;
        m.target = 1000;
        m.value = 5000;
        spec.metrics = {m};
        Hpa hpa(spec, s);
        const Time now = s.last_now ? *s.last_now : Time{0};
        try {
            (void)hpa.decide({3, 3, 3}, now);
        } catch (const InvalidArgument&) {
        }
    });
    fuzzing::check_document<HierarchicalScalerState>(text, [](const auto& s) {
        const policy::PolicySelector selector({policy::cost_saving(), policy::performance()}, "COST_SAVING");
        (void)HierarchicalScaler<forecast::AnyForecaster>(selector, forecast::Naive(), {}, s);
    });
    return 0;
}
