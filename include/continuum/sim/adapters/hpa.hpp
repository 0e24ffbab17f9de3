// Adapter running continuum's Kubernetes HPA (scalers::Hpa) in the simulator: each sync period the
// deployment's pods become per-pod CPU samples (ready pods share the measured usage, starting pods
// are not yet ready, unscheduled pods are Pending; usage optionally averaged over a metrics window)
// and the HPA's desired replicas are patched.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/scalers/hpa.hpp>
#include <continuum/sim/decision.hpp>
#include <continuum/sim/scaler.hpp>
#include <continuum/sim/snapshot.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim::adapters {

/// HPA on one deployment with one cpu utilisation metric (averageUtilization = target_percent).
class HpaAdapter {
public:
    /// \throws InvalidArgument as scalers::Hpa for an invalid spec, or a non-positive sync period.
    /// `metrics_window`: the CPU usage the HPA reads is the mean over this window (metrics-server
    /// reports a rate over its scrape window; 0 = this tick's usage).
    /// \throws InvalidArgument also for a negative metrics window.
    HpaAdapter(std::string deployment, scalers::HpaSpec spec, Duration sync_period = std::chrono::seconds(15), Duration metrics_window = Duration{0})
        : deployment_(std::move(deployment)), hpa_(std::move(spec)), period_(sync_period), window_(metrics_window) {
        if (period_.count() <= 0) throw InvalidArgument(continuum::detail::message("hpa adapter: sync_period must be > 0, got {} ms", period_.count()));
        if (window_.count() < 0) throw InvalidArgument(continuum::detail::message("hpa adapter: metrics_window must be >= 0, got {} ms", window_.count()));
    }

    /// A plain cpu-utilisation HPA: min/max replicas and a target percentage, Kubernetes' default behaviour.
    static scalers::HpaSpec cpu_spec(std::int64_t min_replicas, std::int64_t max_replicas, std::int64_t target_percent) {
        scalers::HpaSpec spec;
        spec.min_replicas = min_replicas;
        spec.max_replicas = max_replicas;
        scalers::HpaMetric metric;
        metric.name = "cpu";
        metric.target = target_percent;
        spec.metrics.push_back(metric);
        return spec;
    }

    /// \throws InvalidArgument when the deployment is unknown; as Hpa::decide.
    Decision decide(const Snapshot& snap) {
        const auto& d = snap.deployments[snap.deployment_index(deployment_)];
        if (window_.count() > 0) {
            // Per-pod usage samples of the window (ticks with ready pods).
            if (d.ready > 0) samples_.emplace_back(snap.now, d.cpu_used_cores / d.ready);
            std::erase_if(samples_, [&](const std::pair<Time, double>& s) { return snap.now - s.first >= window_; });
        }
        if (last_ && snap.now - *last_ < period_) return {};
        last_ = snap.now;
        scalers::HpaMetric metric = hpa_.spec().metrics.front();
        metric.pods.clear();
        double cores_per_pod = d.ready > 0 ? d.cpu_used_cores / d.ready : 0.0;
        if (window_.count() > 0 && !samples_.empty()) {
            double sum = 0;
            for (const auto& s : samples_) sum += s.second;
            cores_per_pod = sum / static_cast<double>(samples_.size());
        }
        const auto per_pod = d.ready > 0 ? static_cast<std::int64_t>(std::llround(cores_per_pod * 1000.0)) : 0;
        for (int i = 0; i < d.ready; ++i) metric.pods.push_back({continuum::detail::message("ready-{}", i), scalers::PodPhase::running, false, true, per_pod, d.pod_cpu});
        for (int i = 0; i < d.starting; ++i) metric.pods.push_back({continuum::detail::message("starting-{}", i), scalers::PodPhase::running, false, false, std::nullopt, d.pod_cpu});
        for (int i = 0; i < d.pending; ++i) metric.pods.push_back({continuum::detail::message("pending-{}", i), scalers::PodPhase::pending, false, false, std::nullopt, d.pod_cpu});
        scalers::ScaleTargetState target;
        target.spec_replicas = d.desired;
        target.status_replicas = d.ready + d.starting + d.pending;
        target.ready_pods = d.ready;
        last_decision_ = hpa_.decide({metric}, target, snap.now);
        Decision out;
        if (last_decision_.scale) {
            out.replicas.push_back({deployment_, static_cast<int>(last_decision_.desired_replicas), {}});
            out.reason = "hpa: " + last_decision_.reason;
        }
        return out;
    }

    [[nodiscard]] const scalers::HpaDecision& last_decision() const { return last_decision_; }
    /// The configuration, as constructed.
    [[nodiscard]] const std::string& deployment() const { return deployment_; }
    [[nodiscard]] const scalers::HpaSpec& spec() const { return hpa_.spec(); }
    [[nodiscard]] Duration sync_period() const { return period_; }
    [[nodiscard]] Duration metrics_window() const { return window_; }

private:
    std::string deployment_;
    scalers::Hpa hpa_;
    Duration period_;
    Duration window_;
    std::vector<std::pair<Time, double>> samples_;
    std::optional<Time> last_;
    scalers::HpaDecision last_decision_;
};
static_assert(Scaler<HpaAdapter>);

}  // namespace continuum::sim::adapters
