// The Kubernetes Horizontal Pod Autoscaler as a decision engine, faithful to
// pkg/controller/podautoscaler/horizontal.go: history seeded with the current replicas on first
// sight, several metrics -> the largest proposal (skip when a metric failed and the rest propose a
// scale-down), min/max replicas (min 0 with object/external metrics: HPAScaleToZero), stabilisation
// windows, behaviour policies or the legacy path, the conditions it sets, plus KEDA-style activation.
// State (recommendations, scale events) lives in the Hpa object and survives spec edits.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/time.hpp>
#include <continuum/scalers/hpa_metrics.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::scalers {

/// HPAScalingPolicyType.
enum class ScalingPolicyType { pods, percent };

/// One rate limit: at most `value` pods (or percent of the replicas at the start of the period) may
/// be added / removed within any `period`.
struct ScalingPolicy {
    ScalingPolicyType type = ScalingPolicyType::percent;
    std::int64_t value = 100;
    Duration period = std::chrono::seconds(15);
};

/// selectPolicy: Max picks the policy allowing the largest change, Min the smallest, Disabled
/// turns scaling in that direction off.
enum class SelectPolicy { max, min, disabled };

/// HPAScalingRules for one direction.
struct ScalingRules {
    Duration stabilization_window{0};
    SelectPolicy select_policy = SelectPolicy::max;
    std::vector<ScalingPolicy> policies;
    /// Per-direction tolerance (KEP-4951): any finite value >= 0; nullopt = HpaSpec::tolerance.
    std::optional<double> tolerance;

    /// Kubernetes' default scale-up rules: no stabilisation, max(100 %, 4 pods) per 15 s.
    static ScalingRules default_scale_up() {
        return {Duration{0}, SelectPolicy::max,
                {{ScalingPolicyType::percent, 100, std::chrono::seconds(15)}, {ScalingPolicyType::pods, 4, std::chrono::seconds(15)}},
                std::nullopt};
    }
    /// Kubernetes' default scale-down rules: 300 s stabilisation, 100 % per 15 s.
    static ScalingRules default_scale_down() {
        return {std::chrono::seconds(300), SelectPolicy::max, {{ScalingPolicyType::percent, 100, std::chrono::seconds(15)}}, std::nullopt};
    }
};

/// spec.behavior. The default-constructed value is Kubernetes' documented default behaviour.
struct HpaBehavior {
    ScalingRules scale_up = ScalingRules::default_scale_up();
    ScalingRules scale_down = ScalingRules::default_scale_down();
};

/// KEDA activation (ScaledObject with minReplicaCount 0): KEDA owns 0 <-> 1, the HPA owns 1 <-> N.
/// The target is active while any metric's activation value (the external/object value, or the
/// integer average of the per-pod values) is strictly greater than its activation_threshold.
struct Activation {
    /// cooldownPeriod: how long after the last active observation the target is scaled to zero.
    Duration cooldown_period = std::chrono::seconds(300);
};

/// The HPA's spec.
struct HpaSpec {
    /// >= 1, or 0 (scale to zero, the HPAScaleToZero gate) when some metric is an object or external
    /// metric, as the API server validates.
    std::int64_t min_replicas = 1;
    std::int64_t max_replicas = 10;   ///< >= min_replicas
    std::vector<HpaMetric> metrics;   ///< metric definitions; the host refreshes their samples each cycle
    /// --horizontal-pod-autoscaler-tolerance: any finite value >= 0.
    double tolerance = 0.1;
    /// spec.behavior; nullopt reproduces the controller's path for an HPA without behavior
    /// (scale-down stabilisation `downscale_stabilization`, scale-up limited to max(2 x current, 4)).
    std::optional<HpaBehavior> behavior = HpaBehavior{};
    /// --horizontal-pod-autoscaler-downscale-stabilization (legacy path only).
    Duration downscale_stabilization = std::chrono::seconds(300);
    /// KEDA-style activation with scale to zero; nullopt = plain HPA. Needs min_replicas >= 1.
    std::optional<Activation> activation;
    /// The controller seeds the recommendation history with the current replica count the first
    /// time it sees an HPA (horizontal.go recordInitialRecommendation), so nothing scales down within
    /// the stabilisation window after a start. false: start with an empty history.
    bool seed_recommendations = true;
};

/// One decision.
struct HpaDecision {
    std::int64_t current_replicas = 0;
    std::int64_t desired_replicas = 0;
    /// desired != current: the host should patch the scale subresource.
    bool scale = false;
    /// The largest valid metric proposal before stabilisation and limits (0 when not computed).
    std::int64_t metric_replicas = 0;
    /// After the stabilisation window, before rate limits and min/max.
    std::int64_t stabilized_replicas = 0;
    std::vector<MetricProposal> proposals;
    /// The condition reasons this sync leaves on the HPA, as the controller sets them; empty when
    /// the sync does not touch that condition (its previous value stays). AbleToScale ends as
    /// SucceededRescale after a scale, else the stabiliser's reason (ReadyForNewScale,
    /// ScaleUpStabilized, ScaleDownStabilized) or SucceededGetScale.
    std::string able_to_scale_reason;
    /// ScalingActive: ValidMetricFound, ScalingDisabled, or the first invalid metric's reason
    /// (FailedGetResourceMetric, FailedGetContainerResourceMetric, FailedGetPodsMetric,
    /// FailedGetObjectMetric, FailedGetExternalMetric).
    std::string scaling_active_reason;
    /// ScalingLimited: DesiredWithinRange (status False), TooFewReplicas, TooManyReplicas,
    /// ScaleUpLimit, ScaleDownLimit.
    std::string scaling_limited_reason;
    /// The stabiliser's verdict (ReadyForNewScale / ScaleUpStabilized / ScaleDownStabilized), kept
    /// when a successful rescale then overwrites AbleToScale with SucceededRescale.
    std::string stabilization_reason;
    /// The first metric that could not be computed (HpaMetric::name), empty when all were valid.
    std::string failed_metric;
    /// The timestamp of the metric whose proposal won (computeReplicasForMetrics' timestamp).
    std::optional<Time> metric_timestamp;
    /// KEDA: whether any metric is above its activation threshold (true without activation).
    bool active = true;
    std::string reason;
};

struct HpaState;

/// The Kubernetes HPA controller for one scale target. Call decide() once per sync period (15 s
/// by default) with the fresh observation; it records the recommendation and, when it scales, the
/// scale event, as the controller does after a successful update.
template <typename DeferClass = void>
class BasicHpa {
public:
    /// \throws InvalidArgument on an invalid spec (see set_spec).
    explicit BasicHpa(HpaSpec spec) : spec_(std::move(spec)) { validate(spec_); }

    [[nodiscard]] const HpaSpec& spec() const { return spec_; }

    /// Replaces the spec (min/max, metrics, tolerances, behaviour, activation), as an edit of the HPA
    /// object does: the recommendation and scale-event history is kept (the controller keys it by
    /// the HPA's name, not its spec). On an exception the Hpa is unchanged.
    /// \throws InvalidArgument on an invalid spec: min < 0; min = 0 without an object or external
    ///         metric, or with activation; max < 1 or max < min; no metrics or a malformed one; a
    ///         tolerance negative or not finite; a behaviour the API server would reject (no
    ///         policies, value <= 0, period outside (0, 1800] s, window outside [0, 3600] s).
    void set_spec(HpaSpec spec) {
        validate(spec);
        spec_ = std::move(spec);
    }

    // State (issue 17): HpaState and these two are defined after the class, in one block.
    using State = HpaState;
    /// The HPA with `spec` as it was when `state` was taken. \throws InvalidArgument on an invalid
    ///         spec, or naming the field of the state: a negative replica count, a time after state.last_now.
    BasicHpa(HpaSpec spec, const HpaState& state);
    /// The recorded recommendations, scale events and times.
    [[nodiscard]] HpaState state() const;

    /// Replaces the metric samples of the spec (same metrics, fresh values) and decides.
    /// \throws InvalidArgument when `metrics` does not have one entry per spec metric or is
    ///         malformed, or when `now` is earlier than the previous decision's time.
    template <typename Defer = void>  // the decision and its helpers are templates: compiled only in units that decide
    HpaDecision decide(const std::vector<HpaMetric>& metrics, const ScaleTargetState& target, Time now) {
        if (metrics.size() != spec_.metrics.size()) {
            throw InvalidArgument(continuum::detail::message("hpa.decide: got {} metrics, the spec has {}", metrics.size(), spec_.metrics.size()));
        }
        for (const auto& m : metrics) detail::validate_metric<Defer>(m);
        spec_.metrics = metrics;
        return decide<Defer>(target, now);
    }

    /// Decides with the samples currently stored in spec().metrics (reconcileAutoscaler).
    /// \throws InvalidArgument when target counts are negative or `now` goes backwards.
    template <typename Defer = void>
    HpaDecision decide(const ScaleTargetState& target, Time now) {
        if (target.spec_replicas < 0 || target.status_replicas < 0 || target.ready_pods < 0) {
            throw InvalidArgument(continuum::detail::message("hpa.decide: replica counts must be >= 0, got spec {} status {} ready {}", target.spec_replicas,
                                                             target.status_replicas, target.ready_pods));
        }
        if (last_now_ && now < *last_now_) {
            throw InvalidArgument(continuum::detail::message("hpa.decide: now = {} ms is earlier than the previous decision at {} ms", now.count(), last_now_->count()));
        }
        last_now_ = now;
        const std::int64_t current = target.spec_replicas;
        // recordInitialRecommendation: the first sight seeds the history with the current count. The
        // history never empties afterwards (old samples are overwritten), so "empty" means "unseen".
        if (spec_.seed_recommendations && recommendations_.empty()) recommendations_.push_back({current, now});

        HpaDecision out;
        out.current_replicas = current;
        out.desired_replicas = current;
        out.able_to_scale_reason = "SucceededGetScale";

        if (spec_.activation) {
            if (auto decided = keda_phase<Defer>(target, now, out)) return *decided;
        }

        if (current == 0 && spec_.min_replicas != 0) {
            out.reason = "scaling is disabled since the replica count of the target is zero";
            out.scaling_active_reason = "ScalingDisabled";
            return out;
        }
        std::int64_t desired = 0;
        if (current > spec_.max_replicas) {
            desired = spec_.max_replicas;
            out.reason = continuum::detail::message("Current number of replicas {} above Spec.MaxReplicas {}", current, spec_.max_replicas);
        } else if (current < spec_.min_replicas) {
            desired = spec_.min_replicas;
            out.reason = continuum::detail::message("Current number of replicas {} below Spec.MinReplicas {}", current, spec_.min_replicas);
        } else {
            const auto proposal = replicas_for_metrics<Defer>(target, out);
            if (!proposal) return out;
            desired = spec_.behavior ? normalize_with_behaviors<Defer>(current, *proposal, now, out) : normalize_legacy<Defer>(current, *proposal, now, out);
            out.reason += continuum::detail::message("; stabilized {} ({}), limited {} ({})", out.stabilized_replicas, out.stabilization_reason, desired,
                                                     out.scaling_limited_reason);
        }
        out.desired_replicas = desired;
        out.scale = desired != current;
        if (out.scale) {
            store_scale_event<Defer>(current, desired, now);
            out.able_to_scale_reason = "SucceededRescale";
        }
        return out;
    }

    /// Forgets all recorded recommendations and scale events (a restarted controller): the next
    /// decision seeds the history again.
    void reset() {
        recommendations_.clear();
        scale_up_events_.clear();
        scale_down_events_.clear();
        last_active_.reset();
        last_now_.reset();
    }

    struct TimedValue {
        std::int64_t replicas;
        Time time;
    };
    /// A stored scale event (timestampedScaleEvent): the replicas added (scale-up list) or removed
    /// (scale-down list). `outdated` is the controller's sticky flag: set once the event is older
    /// than its direction's longest policy period when an event is stored; the last outdated slot
    /// is overwritten by the next event. Outdated events still count while inside a policy period.
    struct ScaleEvent {
        std::int64_t replicas;
        Time time;
        bool outdated = false;
    };
    /// The unstabilised recommendations, as the controller stores them (the seed first; a sample
    /// older than every window is overwritten by the next one, never removed).
    [[nodiscard]] const std::vector<TimedValue>& recommendations() const { return recommendations_; }
    [[nodiscard]] const std::vector<ScaleEvent>& scale_up_events() const { return scale_up_events_; }
    [[nodiscard]] const std::vector<ScaleEvent>& scale_down_events() const { return scale_down_events_; }

private:
    [[nodiscard]] Tolerances tolerances() const {
        Tolerances t{spec_.tolerance, spec_.tolerance};
        if (spec_.behavior) {
            if (spec_.behavior->scale_down.tolerance) t.scale_down = *spec_.behavior->scale_down.tolerance;
            if (spec_.behavior->scale_up.tolerance) t.scale_up = *spec_.behavior->scale_up.tolerance;
        }
        return t;
    }

    static void validate_tolerance(double tolerance, std::string_view field) {
        if (!(tolerance >= 0.0 && std::isfinite(tolerance))) throw InvalidArgument(continuum::detail::message("{} must be a finite value >= 0, got {}", field, tolerance));
    }

    static void validate_rules(const ScalingRules& rules, const char* direction) {
        if (rules.stabilization_window < Duration{0} || rules.stabilization_window > std::chrono::seconds(3600)) {
            throw InvalidArgument(continuum::detail::message("hpa behavior.{}.stabilizationWindowSeconds must be in [0, 3600] s, got {} ms", direction,
                                                             rules.stabilization_window.count()));
        }
        if (rules.policies.empty()) throw InvalidArgument(continuum::detail::message("hpa behavior.{}.policies must not be empty", direction));
        for (const auto& p : rules.policies) {
            if (p.value <= 0) throw InvalidArgument(continuum::detail::message("hpa behavior.{} policy value must be > 0, got {}", direction, p.value));
            if (p.period <= Duration{0} || p.period > std::chrono::seconds(1800)) {
                throw InvalidArgument(continuum::detail::message("hpa behavior.{} policy periodSeconds must be in (0, 1800] s, got {} ms", direction, p.period.count()));
            }
        }
        if (rules.tolerance) validate_tolerance(*rules.tolerance, continuum::detail::message("hpa behavior.{}.tolerance", direction));
    }

    static void validate(const HpaSpec& spec) {
        if (spec.min_replicas < 0) throw InvalidArgument(continuum::detail::message("hpa.min_replicas must be >= 0, got {}", spec.min_replicas));
        if (spec.max_replicas < 1) throw InvalidArgument(continuum::detail::message("hpa.max_replicas must be >= 1, got {}", spec.max_replicas));
        if (spec.max_replicas < spec.min_replicas) {
            throw InvalidArgument(continuum::detail::message("hpa.max_replicas ({}) must be >= min_replicas ({})", spec.max_replicas, spec.min_replicas));
        }
        if (spec.max_replicas > std::numeric_limits<std::int32_t>::max()) {
            throw InvalidArgument(continuum::detail::message("hpa.max_replicas {} does not fit in int32", spec.max_replicas));
        }
        if (spec.metrics.empty()) throw InvalidArgument("hpa.metrics must not be empty");
        for (const auto& m : spec.metrics) detail::validate_metric<DeferClass>(m);
        if (spec.min_replicas == 0) {
            const bool single_value = std::any_of(spec.metrics.begin(), spec.metrics.end(), [](const HpaMetric& m) {
                return m.source == MetricSource::object || m.source == MetricSource::external;
            });
            if (!single_value) {
                throw InvalidArgument("hpa.min_replicas = 0 (scale to zero) needs at least one object or external metric (API validation), got none");
            }
            if (spec.activation) throw InvalidArgument("hpa.min_replicas = 0 with activation: KEDA owns 0 <-> 1, the HPA's min_replicas must be >= 1");
        }
        validate_tolerance(spec.tolerance, "hpa.tolerance");
        if (spec.downscale_stabilization < Duration{0}) {
            throw InvalidArgument(continuum::detail::message("hpa.downscale_stabilization must be >= 0, got {} ms", spec.downscale_stabilization.count()));
        }
        if (spec.behavior) {
            validate_rules(spec.behavior->scale_up, "scaleUp");
            validate_rules(spec.behavior->scale_down, "scaleDown");
        }
        if (spec.activation && spec.activation->cooldown_period < Duration{0}) {
            throw InvalidArgument(continuum::detail::message("hpa.activation.cooldown_period must be >= 0, got {} ms", spec.activation->cooldown_period.count()));
        }
    }

    /// computeReplicasForMetrics: the largest valid proposal, or nullopt when every metric failed or
    /// some failed and the valid ones propose fewer replicas than now (no scaling this sync).
    template <typename Defer = void>
    std::optional<std::int64_t> replicas_for_metrics(const ScaleTargetState& target, HpaDecision& out) const {
        std::int64_t proposal = 0;
        std::size_t invalid = 0;
        std::string rescale_metric;
        std::string first_failure;
        const Tolerances tolerances = this->tolerances();
        for (const auto& metric : spec_.metrics) {
            auto p = metric_replicas<Defer>(metric, target, tolerances);
            if (!p.valid) {
                if (invalid == 0) {
                    out.failed_metric = p.metric;
                    first_failure = p.condition_reason;
                }
                ++invalid;
            } else if (proposal == 0 || p.replicas > proposal) {
                proposal = p.replicas;
                rescale_metric = p.metric;
                out.metric_timestamp = p.timestamp;
            }
            out.proposals.push_back(std::move(p));
        }
        const std::int64_t current = target.spec_replicas;
        if (invalid >= spec_.metrics.size() || (invalid > 0 && proposal < current)) {
            out.metric_timestamp.reset();
            out.scaling_active_reason = first_failure;
            out.reason = continuum::detail::message("invalid metrics ({} invalid out of {}, first: {}){}: no scaling", invalid, spec_.metrics.size(), out.failed_metric,
                                                    invalid < spec_.metrics.size() ? " and the valid ones propose a scale-down" : "");
            return std::nullopt;
        }
        out.scaling_active_reason = "ValidMetricFound";
        out.metric_replicas = proposal;
        if (proposal > current) {
            out.reason = continuum::detail::message("{} above target: proposes {}", rescale_metric, proposal);
        } else if (proposal < current) {
            out.reason = continuum::detail::message("All metrics below target: proposes {}", proposal);
        } else {
            out.reason = continuum::detail::message("metrics at target: proposes {}", proposal);
        }
        return proposal;
    }

    /// KEDA's executor: returns a decision when activation owns this step (0 <-> 1), else nullopt.
    template <typename Defer = void>
    std::optional<HpaDecision> keda_phase(const ScaleTargetState& target, Time now, HpaDecision& out) {
        bool active = false;
        std::string why = "no metric above its activation threshold";
        for (const auto& m : spec_.metrics) {
            std::optional<std::int64_t> value;
            if (m.source == MetricSource::object || m.source == MetricSource::external) {
                if (m.available) value = m.value;
            } else if (m.available) {
                detail::int128 total = 0;
                std::int64_t count = 0;
                for (const auto& pod : m.pods) {
                    if (pod.value) {
                        total += *pod.value;
                        ++count;
                    }
                }
                if (count > 0) value = static_cast<std::int64_t>(total / count);
            }
            if (value && *value > m.activation_threshold) {
                active = true;
                why = continuum::detail::message("{} = {}m > activation threshold {}m", m.name, *value, m.activation_threshold);
                break;
            }
        }
        out.active = active;
        if (active) last_active_ = now;
        const std::int64_t current = target.spec_replicas;
        if (current == 0) {
            out.desired_replicas = active ? spec_.min_replicas : 0;
            out.scale = active;
            out.reason = active ? continuum::detail::message("activated from zero to {}: {}", spec_.min_replicas, why)
                                : continuum::detail::message("stays at zero: {}", why);
            return out;
        }
        if (!active) {
            const bool cooled = !last_active_ || *last_active_ + spec_.activation->cooldown_period < now;
            if (cooled) {
                out.desired_replicas = 0;
                out.scale = true;
                out.reason = last_active_ ? continuum::detail::message("deactivated: {} since {} ms, past the {} s cooldown; scale to zero", why,
                                                                       last_active_->count(), to_seconds(spec_.activation->cooldown_period))
                                          : continuum::detail::message("deactivated: {} and never active; scale to zero", why);
                return out;
            }
        }
        return std::nullopt;
    }

    /// Go's time.Time.After(cutoff): strictly later.
    static std::int64_t changes_in_period(const std::vector<ScaleEvent>& events, Duration period, Time now) {
        std::int64_t total = 0;
        for (const auto& e : events) {
            if (e.time > now - period) total += e.replicas;
        }
        return total;
    }

    /// Rate limits with policy values or replica counts near int64 max saturate instead of
    /// overflowing (Kubernetes' int32 fields cannot get there; continuum's int64 ones can).
    static std::int64_t add_saturated(std::int64_t a, std::int64_t b) {
        std::int64_t out = 0;
        if (__builtin_add_overflow(a, b, &out)) return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
        return out;
    }
    static std::int64_t saturate(double x) {
        constexpr double limit = 9223372036854775808.0;  // 2^63
        if (!(x < limit)) return std::numeric_limits<std::int64_t>::max();
        if (x < -limit) return std::numeric_limits<std::int64_t>::min();
        return static_cast<std::int64_t>(x);
    }

    template <typename Defer = void>
    [[nodiscard]] std::int64_t scale_up_limit(std::int64_t current, const ScalingRules& rules, Time now) const {
        if (rules.select_policy == SelectPolicy::disabled) return current;
        const bool pick_min = rules.select_policy == SelectPolicy::min;
        std::int64_t result = pick_min ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
        for (const auto& p : rules.policies) {
            const std::int64_t start = current - changes_in_period(scale_up_events_, p.period, now) + changes_in_period(scale_down_events_, p.period, now);
            const std::int64_t proposed = p.type == ScalingPolicyType::pods
                                              ? add_saturated(start, p.value)
                                              : saturate(std::ceil(static_cast<double>(start) * (1.0 + static_cast<double>(p.value) / 100.0)));
            result = pick_min ? std::min(result, proposed) : std::max(result, proposed);
        }
        return result;
    }

    template <typename Defer = void>
    [[nodiscard]] std::int64_t scale_down_limit(std::int64_t current, const ScalingRules& rules, Time now) const {
        if (rules.select_policy == SelectPolicy::disabled) return current;
        const bool pick_min = rules.select_policy == SelectPolicy::min;  // smallest change = largest count
        std::int64_t result = pick_min ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
        for (const auto& p : rules.policies) {
            const std::int64_t start = current - changes_in_period(scale_up_events_, p.period, now) + changes_in_period(scale_down_events_, p.period, now);
            // Go: int32(float64(start) * (1 - value/100)), truncation toward zero.
            const std::int64_t proposed = p.type == ScalingPolicyType::pods
                                              ? add_saturated(start, -p.value)
                                              : saturate(static_cast<double>(start) * (1.0 - static_cast<double>(p.value) / 100.0));
            result = pick_min ? std::max(result, proposed) : std::min(result, proposed);
        }
        return result;
    }

    template <typename Defer = void>
    std::int64_t normalize_with_behaviors(std::int64_t current, std::int64_t desired, Time now, HpaDecision& out) {
        const auto& behavior = *spec_.behavior;
        // stabilizeRecommendationWithBehaviors: min over the up window, max over the down window
        // (samples strictly newer than the cutoff); a sample older than both cutoffs is overwritten.
        const Time up_cutoff = now - behavior.scale_up.stabilization_window;
        const Time down_cutoff = now - behavior.scale_down.stabilization_window;
        std::int64_t up = desired;
        std::int64_t down = desired;
        std::optional<std::size_t> old_sample;
        for (std::size_t i = 0; i < recommendations_.size(); ++i) {
            const auto& rec = recommendations_[i];
            if (rec.time > up_cutoff) up = std::min(up, rec.replicas);
            if (rec.time > down_cutoff) down = std::max(down, rec.replicas);
            if (rec.time < up_cutoff && rec.time < down_cutoff) old_sample = i;
        }
        std::int64_t stabilized = current;
        if (stabilized < up) stabilized = up;
        if (stabilized > down) stabilized = down;
        record_recommendation<Defer>(old_sample, {desired, now});
        out.stabilized_replicas = stabilized;
        if (stabilized != desired) {
            out.stabilization_reason = desired >= current ? "ScaleUpStabilized" : "ScaleDownStabilized";
        } else {
            out.stabilization_reason = "ReadyForNewScale";
        }
        out.able_to_scale_reason = out.stabilization_reason;

        // convertDesiredReplicasWithBehaviorRate.
        out.scaling_limited_reason = "DesiredWithinRange";
        if (stabilized > current) {
            std::int64_t limit = std::max(scale_up_limit<Defer>(current, behavior.scale_up, now), current);
            std::int64_t maximum = spec_.max_replicas;
            std::string why = "TooManyReplicas";
            if (maximum > limit) {
                maximum = limit;
                why = "ScaleUpLimit";
            }
            if (stabilized > maximum) {
                out.scaling_limited_reason = why;
                return maximum;
            }
        } else if (stabilized < current) {
            std::int64_t limit = std::min(scale_down_limit<Defer>(current, behavior.scale_down, now), current);
            std::int64_t minimum = spec_.min_replicas;
            std::string why = "TooFewReplicas";
            if (minimum < limit) {
                minimum = limit;
                why = "ScaleDownLimit";
            }
            if (stabilized < minimum) {
                out.scaling_limited_reason = why;
                return minimum;
            }
        }
        return stabilized;
    }

    template <typename Defer = void>
    std::int64_t normalize_legacy(std::int64_t current, std::int64_t desired, Time now, HpaDecision& out) {
        // stabilizeRecommendation: max over samples not before now - window; one before it is overwritten.
        const Time cutoff = now - spec_.downscale_stabilization;
        std::int64_t stabilized = desired;
        std::optional<std::size_t> old_sample;
        for (std::size_t i = 0; i < recommendations_.size(); ++i) {
            if (recommendations_[i].time < cutoff) {
                old_sample = i;
            } else {
                stabilized = std::max(stabilized, recommendations_[i].replicas);
            }
        }
        record_recommendation<Defer>(old_sample, {desired, now});
        out.stabilized_replicas = stabilized;
        out.stabilization_reason = stabilized != desired ? "ScaleDownStabilized" : "ReadyForNewScale";
        out.able_to_scale_reason = out.stabilization_reason;
        // convertDesiredReplicasWithRules: scale-up limit max(2 x current, 4).
        const auto scale_up_limit = static_cast<std::int64_t>(std::max(2.0 * static_cast<double>(current), 4.0));
        std::int64_t maximum = spec_.max_replicas;
        std::string why = "TooManyReplicas";
        if (maximum > scale_up_limit) {
            maximum = scale_up_limit;
            why = "ScaleUpLimit";
        }
        out.scaling_limited_reason = "DesiredWithinRange";
        if (stabilized < spec_.min_replicas) {
            out.scaling_limited_reason = "TooFewReplicas";
            return spec_.min_replicas;
        }
        if (stabilized > maximum) {
            out.scaling_limited_reason = why;
            return maximum;
        }
        return stabilized;
    }

    /// Overwrites the (last) sample older than every window, or appends: the controller's storage.
    template <typename Defer = void>
    void record_recommendation(std::optional<std::size_t> old_sample, TimedValue sample) {
        if (old_sample) {
            recommendations_[*old_sample] = sample;
        } else {
            recommendations_.push_back(sample);
        }
    }

    /// storeScaleEvent (with markScaleEventsOutdated): the legacy path keeps no events.
    template <typename Defer = void>
    void store_scale_event(std::int64_t previous, std::int64_t next, Time now) {
        if (!spec_.behavior) return;
        const bool up = next > previous;
        const auto& rules = up ? spec_.behavior->scale_up : spec_.behavior->scale_down;
        Duration longest{0};
        for (const auto& p : rules.policies) longest = std::max(longest, p.period);
        auto& events = up ? scale_up_events_ : scale_down_events_;
        std::optional<std::size_t> outdated;
        for (std::size_t i = 0; i < events.size(); ++i) {
            if (events[i].time < now - longest) events[i].outdated = true;
            if (events[i].outdated) outdated = i;
        }
        const ScaleEvent event{up ? next - previous : previous - next, now, false};
        if (outdated) {
            events[*outdated] = event;
        } else {
            events.push_back(event);
        }
    }

    HpaSpec spec_;
    std::vector<TimedValue> recommendations_;
    std::vector<ScaleEvent> scale_up_events_;
    std::vector<ScaleEvent> scale_down_events_;
    std::optional<Time> last_active_;
    std::optional<Time> last_now_;
};

/// `Hpa` is `BasicHpa<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using Hpa = BasicHpa<>;

// ---- State (issue 17): what an Hpa remembers, for a host that restarts.

inline bool operator==(const Hpa::TimedValue& a, const Hpa::TimedValue& b) { return a.replicas == b.replicas && a.time == b.time; }
inline bool operator==(const Hpa::ScaleEvent& a, const Hpa::ScaleEvent& b) {
    return a.replicas == b.replicas && a.time == b.time && a.outdated == b.outdated;
}

/// Everything an Hpa remembers between decisions: the unstabilised recommendations still inside a
/// stabilisation window, the scale-up and scale-down events (behavior rate limits), when KEDA
/// activation last saw the target active, and the last decision's time.
struct HpaState {
    std::vector<Hpa::TimedValue> recommendations;
    std::vector<Hpa::ScaleEvent> scale_up_events;    // with the controller's sticky `outdated` flag
    std::vector<Hpa::ScaleEvent> scale_down_events;
    std::optional<Time> last_active;
    std::optional<Time> last_now;

    friend bool operator==(const HpaState&, const HpaState&) = default;
};

template <typename DeferClass>
BasicHpa<DeferClass>::BasicHpa(HpaSpec spec, const HpaState& state) : BasicHpa(std::move(spec)) {
    const auto check = [&](const auto& values, std::string_view field) {
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (values[i].replicas < 0) throw InvalidArgument(continuum::detail::message("hpa restore: state.{}[{}].replicas = {} must be >= 0", field, i, values[i].replicas));
            if (!state.last_now || values[i].time > *state.last_now) {
                throw InvalidArgument(continuum::detail::message("hpa restore: state.{}[{}].time = {} ms is after the last decision", field, i, values[i].time.count()));
            }
        }
    };
    check(state.recommendations, "recommendations");
    check(state.scale_up_events, "scale_up_events");
    check(state.scale_down_events, "scale_down_events");
    if (state.last_active && (!state.last_now || *state.last_active > *state.last_now)) {
        throw InvalidArgument(continuum::detail::message("hpa restore: state.last_active = {} ms is after the last decision", state.last_active->count()));
    }
    recommendations_ = state.recommendations;
    scale_up_events_ = state.scale_up_events;
    scale_down_events_ = state.scale_down_events;
    last_active_ = state.last_active;
    last_now_ = state.last_now;
}

template <typename DeferClass>
HpaState BasicHpa<DeferClass>::state() const { return {recommendations_, scale_up_events_, scale_down_events_, last_active_, last_now_}; }

}  // namespace continuum::scalers
