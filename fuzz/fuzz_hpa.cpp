// Fuzzes the Kubernetes HPA reference (scalers::Hpa) with specs, behaviours and metric samples
// decoded from arbitrary bytes, over a sequence of sync periods (time may stall, jump, or go
// backwards). Invariants: an invalid spec or observation is an InvalidArgument; otherwise the
// desired replica count stays within [min, max] (or 0 when the target is scaled to zero: the HPA
// leaves it alone, or KEDA activation deactivated it; with min_replicas = 0 it may scale to and from
// zero) and `scale` says whether it changed.
#include "fuzz_target.hpp"
#include "fuzz_support.hpp"

#include <continuum/scalers/hpa.hpp>

#include <string>

CONTINUUM_FUZZ_TARGET(hpa) {
    namespace scalers = continuum::scalers;
    namespace fz = continuum::fuzz;
    FuzzedDataProvider in(data, size);
    scalers::HpaSpec spec;
    spec.min_replicas = in.ConsumeIntegralInRange<std::int64_t>(0, 20);
    spec.max_replicas = in.ConsumeBool() ? spec.min_replicas + in.ConsumeIntegralInRange<std::int64_t>(-1, 100) : fz::amount(in, true);
    spec.tolerance = in.PickValueInArray({0.0, 0.05, 0.1, 0.5, 0.99, 1.0, -0.1});
    if (in.ConsumeIntegralInRange<int>(0, 3) == 0) {
        spec.behavior.reset();  // legacy path
    } else if (in.ConsumeBool()) {
        for (auto* rules : {&spec.behavior->scale_up, &spec.behavior->scale_down}) {
            rules->stabilization_window = std::chrono::seconds(in.ConsumeIntegralInRange<std::int64_t>(-1, 3700));
            rules->select_policy = static_cast<scalers::SelectPolicy>(in.ConsumeIntegralInRange<int>(0, 2));
            rules->policies.resize(in.ConsumeIntegralInRange<std::size_t>(0, 3));
            for (auto& p : rules->policies) {
                p.type = in.ConsumeBool() ? scalers::ScalingPolicyType::pods : scalers::ScalingPolicyType::percent;
                p.value = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(0, 1000) : fz::amount(in, true);
                p.period = std::chrono::seconds(in.ConsumeIntegralInRange<std::int64_t>(0, 1900));
            }
            if (in.ConsumeIntegralInRange<int>(0, 3) == 0) rules->tolerance = in.ConsumeFloatingPointInRange<double>(-0.1, 1.1);
        }
    }
    if (in.ConsumeIntegralInRange<int>(0, 3) == 0) {
        spec.activation = scalers::Activation{std::chrono::seconds(in.ConsumeIntegralInRange<std::int64_t>(0, 600))};
    }
    spec.metrics.resize(in.ConsumeIntegralInRange<std::size_t>(0, 3));
    for (std::size_t m = 0; m < spec.metrics.size(); ++m) {
        auto& metric = spec.metrics[m];
        metric.name = "metric-" + std::to_string(m);
        metric.source = static_cast<scalers::MetricSource>(in.ConsumeIntegralInRange<int>(0, 3));
        metric.target_type = static_cast<scalers::TargetType>(in.ConsumeIntegralInRange<int>(0, 2));
        metric.target = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(1, 200) : fz::amount(in, true);
        metric.activation_threshold = in.ConsumeIntegralInRange<std::int64_t>(0, 1000);
    }
    std::optional<scalers::Hpa> hpa;
    try {
        hpa.emplace(spec);
    } catch (const continuum::InvalidArgument&) {
        return 0;
    }
    std::int64_t now = 0;
    scalers::ScaleTargetState target;
    target.spec_replicas = in.ConsumeIntegralInRange<std::int64_t>(0, 30);
    for (int cycle = 0; cycle < 12 && in.remaining_bytes() > 0; ++cycle) {
        now += in.PickValueInArray<std::int64_t>({15000, 15000, 0, 1, 300000, -1000});
        target.status_replicas = in.ConsumeBool() ? target.spec_replicas : in.ConsumeIntegralInRange<std::int64_t>(0, 40);
        target.ready_pods = in.ConsumeIntegralInRange<std::int64_t>(0, target.status_replicas + 1);
        std::vector<scalers::HpaMetric> metrics = hpa->spec().metrics;
        for (auto& metric : metrics) {
            metric.available = in.ConsumeIntegralInRange<int>(0, 9) != 0;
            metric.value = in.ConsumeBool() ? std::optional<std::int64_t>(fz::amount(in, in.ConsumeIntegralInRange<int>(0, 15) == 0)) : std::nullopt;
            metric.pods.resize(in.ConsumeIntegralInRange<std::size_t>(0, 6));
            for (std::size_t p = 0; p < metric.pods.size(); ++p) {
                auto& pod = metric.pods[p];
                pod.name = "pod-" + std::to_string(p);
                pod.phase = static_cast<scalers::PodPhase>(in.ConsumeIntegralInRange<int>(0, 2));
                pod.deleting = in.ConsumeIntegralInRange<int>(0, 7) == 0;
                pod.cpu_ready = in.ConsumeIntegralInRange<int>(0, 5) != 0;
                if (in.ConsumeIntegralInRange<int>(0, 5) != 0) pod.value = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(0, 4000) : fz::amount(in);
                pod.request = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::int64_t>(0, 2000) : fz::amount(in, in.ConsumeIntegralInRange<int>(0, 15) == 0);
            }
        }
        try {
            const auto d = hpa->decide(metrics, target, continuum::Time(now));
            CONTINUUM_FUZZ_CHECK(d.current_replicas == target.spec_replicas);
            CONTINUUM_FUZZ_CHECK(d.scale == (d.desired_replicas != d.current_replicas));
            CONTINUUM_FUZZ_CHECK(d.desired_replicas <= spec.max_replicas);
            if (d.desired_replicas != 0) CONTINUUM_FUZZ_CHECK(d.desired_replicas >= spec.min_replicas);
            // A plain HPA with min_replicas >= 1 never takes a running target to zero and leaves a
            // target at zero alone (scaling disabled). With min_replicas = 0 (the HPAScaleToZero
            // gate) it scales to and from zero within [0, max], as upstream.
            if (!spec.activation && spec.min_replicas >= 1) {
                if (target.spec_replicas != 0) CONTINUUM_FUZZ_CHECK(d.desired_replicas >= spec.min_replicas);
                if (target.spec_replicas == 0) CONTINUUM_FUZZ_CHECK(d.desired_replicas == 0);
            }
            CONTINUUM_FUZZ_CHECK(!d.reason.empty());
            target.spec_replicas = d.desired_replicas;  // the host applies the decision
        } catch (const continuum::InvalidArgument&) {
        }
    }
    return 0;
}
