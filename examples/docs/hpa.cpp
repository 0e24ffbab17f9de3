// docs/hpa.md: the Kubernetes HPA on one cpu Utilization metric: scale up at once, scale down only
// after the 300 s stabilisation window.
#include <continuum/scalers/hpa.hpp>

#include <chrono>
#include <string>

#include <fmt/core.h>

#include "check.hpp"

int main() {
    using namespace continuum::scalers;
    using std::chrono::seconds;

    // n running pods, each requesting 1000m and using `usage` millicores.
    auto cpu_at = [](int n, std::int64_t usage) {
        HpaMetric cpu;  // Resource cpu, Utilization
        cpu.target = 75;  // percent
        for (int i = 0; i < n; ++i) cpu.pods.push_back({"web-" + std::to_string(i), PodPhase::running, false, true, usage, 1000});
        return cpu;
    };
    HpaSpec spec;
    spec.max_replicas = 100;
    spec.metrics = {cpu_at(50, 900)};
    Hpa hpa(spec);

    // 50 pods at 90 % against a 75 % target: ceil(50 * 90 / 75) = 60, at once.
    const auto up = hpa.decide({cpu_at(50, 900)}, {50, 50, 50}, continuum::Time{0});
    // Load falls to 30 %: the proposal is ceil(60 * 30 / 75) = 24, held back for 300 s.
    const auto held = hpa.decide({cpu_at(60, 300)}, {60, 60, 60}, continuum::Time{seconds(60)});
    const auto down = hpa.decide({cpu_at(60, 300)}, {60, 60, 60}, continuum::Time{seconds(400)});
    for (const auto& d : {up, held, down})
        fmt::print("{} -> {} (metric {}, {})\n", d.current_replicas, d.desired_replicas, d.metric_replicas, d.able_to_scale_reason);
    CHECK(up.desired_replicas == 60 && up.scale);
    CHECK(held.metric_replicas == 24 && held.desired_replicas == 60 && held.able_to_scale_reason == "ScaleDownStabilized");
    CHECK(down.desired_replicas == 24);
}
