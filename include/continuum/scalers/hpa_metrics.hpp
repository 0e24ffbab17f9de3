// The Kubernetes HPA replica calculator: one metric's replica proposal, exactly as
// kubernetes/kubernetes pkg/controller/podautoscaler/replica_calculator.go computes it (integer
// utilisation percent, per-direction tolerance band, missing metrics as 100 % / 0 %, not-yet-ready
// pods as 0 % on scale-up, no action when the adjusted ratio flips direction), with the metric status
// and condition reason the controller reports. Stateless; the controller is scalers/hpa.hpp.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/time.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace continuum::scalers {

/// Where a metric comes from (autoscaling/v2 MetricSourceType).
enum class MetricSource {
    resource,  ///< a per-pod resource (cpu, memory) from metrics.k8s.io
    pods,      ///< a per-pod custom metric (custom.metrics.k8s.io)
    object,    ///< one value describing a Kubernetes object (an Ingress' requests per second)
    external,  ///< one value from outside the cluster (a queue length); the sum of the series returned
    /// one container's resource in each pod (HPA ContainerResource, KEP-1610): the pod samples hold
    /// that container's usage and request; otherwise exactly as `resource`.
    container_resource,
};

/// The condition reason the controller sets on ScalingActive when this source's metric fails
/// (computeStatusFor*Metric: FailedGetResourceMetric, FailedGetContainerResourceMetric, ...).
[[nodiscard]] constexpr const char* failed_metric_reason(MetricSource source) {
    switch (source) {
        case MetricSource::resource: return "FailedGetResourceMetric";
        case MetricSource::pods: return "FailedGetPodsMetric";
        case MetricSource::object: return "FailedGetObjectMetric";
        case MetricSource::external: return "FailedGetExternalMetric";
        case MetricSource::container_resource: return "FailedGetContainerResourceMetric";
    }
    return "InvalidMetricSourceType";
}

/// What the metric's value is compared with (autoscaling/v2 MetricTargetType).
enum class TargetType {
    utilization,    ///< resource only: average usage as a percentage of the pods' requests
    average_value,  ///< value per pod (resource, pods, object, external)
    value,          ///< the object's or external metric's total value (object, external)
};

/// The pod phase as the API reports it (core/v1 PodPhase); only these three matter to the HPA.
enum class PodPhase { pending, running, failed };

/// One pod of the scale target as the HPA sees it for one metric.
struct PodSample {
    std::string name;
    PodPhase phase = PodPhase::running;
    /// A deletion timestamp is set: the pod is shutting down and ignored.
    bool deleting = false;
    /// Only for cpu resource metrics: false when the controller would set the sample aside as "not
    /// yet ready" (use cpu_sample_unready() to apply its exact rule). Ignored for other metrics.
    bool cpu_ready = true;
    /// The metric value in milli-units (millicores for cpu, milli-bytes for memory: Quantity
    /// MilliValue), or nullopt when the metrics API returned nothing for this pod.
    std::optional<std::int64_t> value;
    /// The pod's request of the resource in milli-units (utilization targets only; >= 0).
    std::int64_t request = 0;
};

/// One entry of spec.metrics together with what the host observed for it this cycle.
struct HpaMetric {
    std::string name = "cpu";  ///< resource name or metric name, used in reasons
    MetricSource source = MetricSource::resource;
    TargetType target_type = TargetType::utilization;
    /// averageUtilization (percent, e.g. 75) for utilization targets; averageValue or value in
    /// milli-units for the others. Must be > 0.
    std::int64_t target = 80;
    /// Per-pod samples (resource and pods sources).
    std::vector<PodSample> pods;
    /// The observed value in milli-units (object and external sources; for external metrics the sum
    /// of the returned series).
    std::optional<std::int64_t> value;
    /// False when fetching the metric failed (the metrics API returned an error).
    bool available = true;
    /// KEDA activation threshold in milli-units (see HpaSpec::activation): the metric is active when
    /// its activation value is strictly greater. KEDA's default is 0.
    std::int64_t activation_threshold = 0;
    /// The container whose resource is read (container_resource only; must be non-empty there).
    std::string container;
    /// The timestamp the metrics API returned with the values (for per-pod metrics, the first
    /// item's), reported back in MetricProposal::timestamp as the controller does.
    std::optional<Time> timestamp;
};

/// The tolerance band around ratio 1 inside which the HPA does nothing (Tolerances.isWithin):
/// within when 1 - scale_down <= ratio <= 1 + scale_up. Any finite value >= 0 is valid, as upstream
/// (behavior.scaleUp/scaleDown.tolerance, KEP-4951); scale_down >= 1 never scales down.
struct Tolerances {
    double scale_down = 0.1;
    double scale_up = 0.1;
    [[nodiscard]] bool within(double ratio) const { return (1.0 - scale_down) <= ratio && ratio <= (1.0 + scale_up); }
};

/// What the host knows about the scale target besides the metrics.
struct ScaleTargetState {
    std::int64_t spec_replicas = 1;    ///< scale.spec.replicas (the HPA's "current replicas")
    std::int64_t status_replicas = 1;  ///< scale.status.replicas (object/external AverageValue)
    std::int64_t ready_pods = 1;       ///< pods Running and Ready (object/external Value targets)
};

/// One metric's outcome.
struct MetricProposal {
    std::string metric;             ///< HpaMetric::name
    bool valid = false;             ///< false: the metric could not be converted into a replica count
    std::int64_t replicas = 0;      ///< the proposal (valid only)
    double usage_ratio = 0.0;       ///< current / target before adjustments (0 when undefined)
    std::int64_t current = 0;       ///< utilisation percent or average value in milli-units, as reported in status
    std::string reason;             ///< how the proposal (or the error) came about
    MetricSource source = MetricSource::resource;
    /// status.currentMetrics[].current as the controller writes it (MetricValueStatus, milli-units);
    /// all nullopt for an invalid metric. Utilization targets report averageUtilization (percent)
    /// and averageValue (the raw average usage of the ready pods: GetResourceUtilizationRatio's
    /// rawAverageValue); AverageValue targets averageValue; Value targets value.
    std::optional<std::int64_t> average_utilization;
    std::optional<std::int64_t> average_value;
    std::optional<std::int64_t> value;
    /// The metric timestamp the controller carries with the proposal: HpaMetric::timestamp, except
    /// for object and external Value targets, whose replica calculator drops it (nullopt), as upstream.
    std::optional<Time> timestamp;
    /// Invalid only: the ScalingActive reason the controller sets (failed_metric_reason(source)).
    std::string condition_reason;
};

namespace detail {

/// Wide sums (Go uses big.Int where int64 could overflow: 1000 pods x 64Gi in milli-bytes x 100).
__extension__ using int128 = __int128;

inline std::int64_t ceil_to_replicas(double x) {
    // Go: int32(math.Ceil(x)), with the controller's clamp of huge proposals to MaxInt32.
    const double c = std::ceil(x);
    if (!(c < static_cast<double>(std::numeric_limits<std::int32_t>::max()))) return std::numeric_limits<std::int32_t>::max();
    if (c < 0) return 0;
    return static_cast<std::int64_t>(c);
}

/// A template on a defaulted parameter: compiled only where a metric is validated (issue 21).
template <typename Defer = void>
void validate_metric(const HpaMetric& m) {
    const auto where = [&] { return continuum::detail::message("hpa metric \"{}\"", m.name); };
    if (m.target <= 0) throw InvalidArgument(continuum::detail::message("{}: target must be > 0, got {}", where(), m.target));
    const bool ok = [&] {
        switch (m.source) {
            case MetricSource::resource:
            case MetricSource::container_resource: return m.target_type == TargetType::utilization || m.target_type == TargetType::average_value;
            case MetricSource::pods: return m.target_type == TargetType::average_value;
            case MetricSource::object:
            case MetricSource::external: return m.target_type == TargetType::value || m.target_type == TargetType::average_value;
        }
        return false;
    }();
    if (!ok) throw InvalidArgument(continuum::detail::message("{}: this target type is not allowed for this metric source (autoscaling/v2 validation)", where()));
    if (m.source == MetricSource::container_resource && m.container.empty()) {
        throw InvalidArgument(continuum::detail::message("{}: a ContainerResource metric needs a container name (container is empty)", where()));
    }
    if (m.target_type == TargetType::utilization && m.target > std::numeric_limits<std::int32_t>::max()) {
        throw InvalidArgument(continuum::detail::message("{}: averageUtilization {} does not fit in int32", where(), m.target));
    }
    for (const auto& pod : m.pods) {
        if (pod.request < 0) throw InvalidArgument(continuum::detail::message("{}: pod \"{}\" has negative request {}", where(), pod.name, pod.request));
        if (pod.value && *pod.value < 0 && (m.source == MetricSource::resource || m.source == MetricSource::container_resource)) {
            throw InvalidArgument(continuum::detail::message("{}: pod \"{}\" has negative resource usage {}", where(), pod.name, *pod.value));
        }
    }
}

inline void validate_tolerances(const Tolerances& t, std::string_view where) {
    for (const auto& [name, value] : {std::pair{"scale_down", t.scale_down}, std::pair{"scale_up", t.scale_up}}) {
        if (!(value >= 0.0 && std::isfinite(value))) throw InvalidArgument(continuum::detail::message("{}.{} must be a finite value >= 0, got {}", where, name, value));
    }
}

/// The metrics set after groupPods + removeMetricsForPods, with per-pod requests.
struct Entry {
    std::int64_t value;
    std::int64_t request;
};

/// A usage ratio with the value reported in status (utilisation percent or average milli-units) and
/// the raw average value of the entries (milli-units).
struct Usage {
    double ratio;
    std::int64_t current;
    std::int64_t raw_average;
};

/// GetResourceUtilizationRatio: integer percent of summed usage over summed requests, and the raw
/// average usage (rawAverageValue). Returns nullopt when the summed requests are 0 ("no metrics
/// returned matched known pods").
template <typename Defer = void>
std::optional<Usage> utilization_ratio(const std::vector<Entry>& entries, std::int64_t target) {
    int128 usage = 0;
    int128 requests = 0;
    for (const auto& e : entries) {
        usage += e.value;
        requests += e.request;
    }
    if (requests == 0) return std::nullopt;
    int128 percent = usage * 100 / requests;
    constexpr int128 max32 = std::numeric_limits<std::int32_t>::max();
    if (percent > max32) percent = max32;
    if (percent < -max32 - 1) percent = -max32 - 1;
    const auto current = static_cast<std::int64_t>(percent);
    const auto raw_average = static_cast<std::int64_t>(usage / static_cast<int128>(entries.size()));
    return Usage{static_cast<double>(current) / static_cast<double>(target), current, raw_average};
}

/// GetMetricUsageRatio: integer average of the values over the target.
template <typename Defer = void>
Usage average_value_ratio(const std::vector<Entry>& entries, std::int64_t target) {
    int128 total = 0;
    for (const auto& e : entries) total += e.value;
    const auto average = static_cast<std::int64_t>(total / static_cast<int128>(entries.size()));
    return {static_cast<double>(average) / static_cast<double>(target), average, average};
}

template <typename Defer = void>
MetricProposal per_pod_proposal(const HpaMetric& m, std::int64_t current_replicas, const Tolerances& tolerances) {
    MetricProposal out;
    out.metric = m.name;
    if (!m.available) {
        out.reason = continuum::detail::message("unable to get metric {}", m.name);
        return out;
    }
    if (m.pods.empty()) {
        out.reason = "no pods returned by selector while calculating replica count";
        return out;
    }
    const bool utilization = m.target_type == TargetType::utilization;
    // groupPods' readiness rule applies to the cpu resource (Resource and ContainerResource metrics).
    const bool cpu = (m.source == MetricSource::resource || m.source == MetricSource::container_resource) && m.name == "cpu";
    // groupPods: ignored (deleting/failed), unready (pending, or cpu not yet ready), missing, ready.
    std::vector<Entry> ready;
    std::vector<std::size_t> unready;
    std::vector<std::size_t> missing;
    for (std::size_t i = 0; i < m.pods.size(); ++i) {
        const auto& pod = m.pods[i];
        if (pod.deleting || pod.phase == PodPhase::failed) continue;
        if (pod.phase == PodPhase::pending) {
            unready.push_back(i);
            continue;
        }
        if (!pod.value) {
            missing.push_back(i);
            continue;
        }
        if (cpu && !pod.cpu_ready) {
            unready.push_back(i);
            continue;
        }
        ready.push_back({*pod.value, pod.request});
    }
    if (ready.empty()) {
        out.reason = "did not receive metrics for targeted pods (pods might be unready)";
        return out;
    }
    const auto ready_count = static_cast<double>(ready.size());
    const auto ratio_of = [&](const std::vector<Entry>& entries) -> std::optional<Usage> {
        if (utilization) return utilization_ratio<Defer>(entries, m.target);
        return average_value_ratio<Defer>(entries, m.target);
    };
    const auto first = ratio_of(ready);
    if (!first) {
        out.reason = "no metrics returned matched known pods (the pods' requests sum to 0)";
        return out;
    }
    const double ratio = first->ratio;
    out.usage_ratio = ratio;
    out.current = first->current;
    out.valid = true;
    if (utilization) out.average_utilization = first->current;
    out.average_value = first->raw_average;
    const std::string unit = utilization ? "%" : "m";
    const std::string observed = continuum::detail::message("{}{} vs target {}{}", out.current, unit, m.target, unit);

    const bool scale_up_with_unready = !unready.empty() && ratio > 1.0;
    if (!scale_up_with_unready && missing.empty()) {
        if (tolerances.within(ratio)) {
            out.replicas = current_replicas;
            out.reason = continuum::detail::message("{}: ratio {:.4g} within tolerance, keep {}", observed, ratio, current_replicas);
            return out;
        }
        out.replicas = ceil_to_replicas(ratio * ready_count);
        out.reason = continuum::detail::message("{}: ceil({:.4g} x {} ready pods) = {}", observed, ratio, ready.size(), out.replicas);
        return out;
    }

    std::vector<Entry> adjusted = ready;
    if (!missing.empty()) {
        if (ratio < 1.0) {
            for (std::size_t i : missing) {
                const auto& pod = m.pods[i];
                // resource utilization: request x max(100, target) / 100; plain metrics: the target value.
                // (128-bit product, saturated: Go's int64 would wrap for requests near int64 max.)
                const std::int64_t fallback =
                    utilization ? static_cast<std::int64_t>(std::min<int128>(static_cast<int128>(pod.request) * std::max<std::int64_t>(100, m.target) / 100,
                                                                             std::numeric_limits<std::int64_t>::max()))
                                : m.target;
                adjusted.push_back({fallback, pod.request});
            }
        } else if (ratio > 1.0) {
            for (std::size_t i : missing) adjusted.push_back({0, m.pods[i].request});
        }
    }
    if (scale_up_with_unready) {
        for (std::size_t i : unready) adjusted.push_back({0, m.pods[i].request});
    }
    const auto second = ratio_of(adjusted);
    const double new_ratio = second ? second->ratio : 0.0;
    const std::string adjustments = continuum::detail::message("{} missing as {}, {} unready as 0%", missing.size(),
                                                               ratio < 1.0 ? "100% of target" : "0%", scale_up_with_unready ? unready.size() : 0);
    if (!second || tolerances.within(new_ratio) || (ratio < 1.0 && new_ratio > 1.0) || (ratio > 1.0 && new_ratio < 1.0)) {
        out.replicas = current_replicas;
        out.reason = continuum::detail::message("{}: ratio {:.4g} adjusted to {:.4g} ({}) is within tolerance or flips direction, keep {}", observed,
                                                ratio, new_ratio, adjustments, current_replicas);
        return out;
    }
    const std::int64_t proposal = ceil_to_replicas(new_ratio * static_cast<double>(adjusted.size()));
    if ((new_ratio < 1.0 && proposal > current_replicas) || (new_ratio > 1.0 && proposal < current_replicas)) {
        out.replicas = current_replicas;
        out.reason = continuum::detail::message("{}: adjusted proposal {} would move against the ratio {:.4g}, keep {}", observed, proposal, new_ratio,
                                                current_replicas);
        return out;
    }
    out.replicas = proposal;
    out.reason = continuum::detail::message("{}: ratio {:.4g} adjusted to {:.4g} ({}), ceil({:.4g} x {} pods) = {}", observed, ratio, new_ratio,
                                            adjustments, new_ratio, adjusted.size(), proposal);
    return out;
}

template <typename Defer = void>
MetricProposal object_proposal(const HpaMetric& m, const ScaleTargetState& target, const Tolerances& tolerances) {
    MetricProposal out;
    out.metric = m.name;
    if (!m.available || !m.value) {
        out.reason = continuum::detail::message("unable to get {} metric {}", m.source == MetricSource::object ? "object" : "external", m.name);
        return out;
    }
    const std::int64_t usage = *m.value;
    out.valid = true;
    if (m.target_type == TargetType::value) {
        // GetObjectMetricReplicas / GetExternalMetricReplicas -> getUsageRatioReplicaCount.
        const double ratio = static_cast<double>(usage) / static_cast<double>(m.target);
        out.usage_ratio = ratio;
        out.current = usage;
        out.value = usage;
        if (target.spec_replicas != 0) {
            if (tolerances.within(ratio)) {
                out.replicas = target.spec_replicas;
                out.reason = continuum::detail::message("{}m vs target {}m: ratio {:.4g} within tolerance, keep {}", usage, m.target, ratio, target.spec_replicas);
                return out;
            }
            out.replicas = ceil_to_replicas(ratio * static_cast<double>(target.ready_pods));
            out.reason = continuum::detail::message("{}m vs target {}m: ceil({:.4g} x {} ready pods) = {}", usage, m.target, ratio, target.ready_pods, out.replicas);
        } else {
            out.replicas = ceil_to_replicas(ratio);
            out.reason = continuum::detail::message("{}m vs target {}m at 0 replicas: ceil({:.4g}) = {}", usage, m.target, ratio, out.replicas);
        }
        return out;
    }
    // AverageValue: GetObjectPerPodMetricReplicas / GetExternalPerPodMetricReplicas, on status replicas.
    out.replicas = target.status_replicas;
    const double denominator = static_cast<double>(m.target) * static_cast<double>(target.status_replicas);
    const bool defined = target.status_replicas > 0;
    const double ratio = defined ? static_cast<double>(usage) / denominator : 0.0;
    out.usage_ratio = ratio;
    // Exact integer ceiling (Go's float64 round trip leaves int64 for usage near int64 max).
    out.current = defined ? usage / target.status_replicas + (usage % target.status_replicas > 0 ? 1 : 0) : usage;
    out.average_value = out.current;
    out.timestamp = m.timestamp;  // the per-pod variants keep the metric's timestamp
    // With 0 status replicas Go's ratio is +Inf or NaN: never within tolerance.
    if (!defined || !tolerances.within(ratio)) {
        out.replicas = ceil_to_replicas(static_cast<double>(usage) / static_cast<double>(m.target));
        out.reason = continuum::detail::message("{}m total vs {}m per pod: ceil({}/{}) = {}", usage, m.target, usage, m.target, out.replicas);
    } else {
        out.reason = continuum::detail::message("{}m total vs {}m per pod over {} replicas: ratio {:.4g} within tolerance, keep {}", usage, m.target,
                                                target.status_replicas, ratio, out.replicas);
    }
    return out;
}

}  // namespace detail

/// The replica count one metric proposes (the replica calculator of the HPA controller).
/// Invalid metrics (fetch failed, no pods, no ready pod with a sample, requests summing to 0) come
/// back with valid == false, the controller's error text in `reason` and the ScalingActive reason in
/// `condition_reason`. Valid ones carry the metric status (average_utilization / average_value /
/// value) and timestamp the controller reports.
/// Example (Kubernetes docs): 50 ready pods at 90 % cpu against a 75 % target propose 60.
/// \throws InvalidArgument when the metric is malformed (target <= 0, a target type the source does
///         not allow, a ContainerResource metric without container, a negative request or resource
///         usage) or a tolerance is negative or not finite.
template <typename Defer = void>
[[nodiscard]] MetricProposal metric_replicas(const HpaMetric& metric, const ScaleTargetState& target, const Tolerances& tolerances = {}) {
    detail::validate_metric<Defer>(metric);
    detail::validate_tolerances(tolerances, "tolerances");
    const bool single_value = metric.source == MetricSource::object || metric.source == MetricSource::external;
    MetricProposal out = single_value ? detail::object_proposal<Defer>(metric, target, tolerances)
                                      : detail::per_pod_proposal<Defer>(metric, target.spec_replicas, tolerances);
    out.source = metric.source;
    if (!out.valid) {
        out.condition_reason = failed_metric_reason(metric.source);
    } else if (!single_value) {
        out.timestamp = metric.timestamp;
    }
    return out;
}

/// The controller's rule (groupPods, cpu only) for setting a pod's cpu sample aside as "not yet
/// ready": within the cpu initialisation period after start, the sample is unready when the pod is
/// unready or the sample's window began before the last readiness transition; afterwards, only
/// when the pod is unready and never became ready within the initial readiness delay of its start.
/// A pod without a Ready condition or start time is unready.
/// Defaults: --horizontal-pod-autoscaler-cpu-initialization-period 5m, -initial-readiness-delay 30s.
[[nodiscard]] inline bool cpu_sample_unready(std::optional<Time> start_time, std::optional<bool> ready_condition,
                                             Time last_transition_time, Time metric_timestamp, Duration metric_window, Time now,
                                             Duration cpu_initialization_period = std::chrono::minutes(5),
                                             Duration initial_readiness_delay = std::chrono::seconds(30)) {
    if (!ready_condition || !start_time) return true;
    if (*start_time + cpu_initialization_period > now) {
        return !*ready_condition || metric_timestamp < last_transition_time + metric_window;
    }
    return !*ready_condition && *start_time + initial_readiness_delay > last_transition_time;
}

}  // namespace continuum::scalers
