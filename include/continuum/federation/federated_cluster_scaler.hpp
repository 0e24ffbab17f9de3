// FederatedClusterScaler: the decision engine behind seed 000's Liqo-aware Cluster Autoscaler
// provider. scale_out chooses which offers to peer with and which virtual nodes to create for the
// pending pods (plan_scale_out); scale_in applies CA's scale-down rules to the virtual nodes
// (ScaleInTracker). It keeps only the scale-in timers and the last scale-out time (its state, a
// FederatedClusterScalerState value); time is passed in.
#pragma once

#include <continuum/core/time.hpp>
#include <continuum/federation/offer.hpp>
#include <continuum/federation/offer_catalogue.hpp>
#include <continuum/federation/scale_in.hpp>
#include <continuum/federation/scale_out.hpp>
#include <continuum/federation/virtual_node.hpp>

#include <span>

namespace continuum::federation {

/// Everything a FederatedClusterScaler remembers: the scale-in timers.
struct FederatedClusterScalerState {
    ScaleInTrackerState scale_in;

    friend bool operator==(const FederatedClusterScalerState&, const FederatedClusterScalerState&) = default;
};

template <typename Defer = void>
class BasicFederatedClusterScaler {
public:
    using State = FederatedClusterScalerState;

    /// \throws InvalidArgument on invalid options.
    explicit BasicFederatedClusterScaler(ScaleOutOptions scale_out_options = {}, ScaleInOptions scale_in_options = {})
        : scale_out_options_(scale_out_options), tracker_(scale_in_options) {
        scale_out_options_.budget.validate();
    }

    /// The scaler with these options as it was when `state` was taken.
    /// \throws InvalidArgument on invalid options or as ScaleInTracker(options, state).
    BasicFederatedClusterScaler(ScaleOutOptions scale_out_options, ScaleInOptions scale_in_options, const FederatedClusterScalerState& state)
        : scale_out_options_(scale_out_options), tracker_(scale_in_options, state.scale_in) {
        scale_out_options_.budget.validate();
    }

    [[nodiscard]] FederatedClusterScalerState state() const { return {tracker_.state()}; }

    [[nodiscard]] const ScaleOutOptions& scale_out_options() const { return scale_out_options_; }
    [[nodiscard]] const ScaleInOptions& scale_in_options() const { return tracker_.options(); }

    /// plan_scale_out; when the decision creates nodes, `now` starts the delay-after-add cool-down
    /// (the host is expected to apply it; call observe_scale_out for nodes added otherwise).
    /// \throws InvalidArgument as plan_scale_out.
    template <typename = void>  // scale_out and scale_in are templates: a unit that never calls them does not compile plan_scale_out
    ScaleOutDecision scale_out(std::span<const PendingPod> pending, std::span<const VirtualNode> nodes, std::span<const Offer> offers, Time now) {
        auto decision = plan_scale_out<Defer>(pending, nodes, offers, scale_out_options_);
        if (decision.new_node_count() > 0) tracker_.observe_scale_out(now);
        return decision;
    }

    /// scale_out over offers validated once (see OfferCatalogue). \throws InvalidArgument as plan_scale_out.
    template <typename = void>  // (plan_scale_out<Defer>: a call that names no template parameter is resolved where it
    // is written, so every unit would check the span<const Offer> overload's conversion from the catalogue)
    ScaleOutDecision scale_out(std::span<const PendingPod> pending, std::span<const VirtualNode> nodes, const OfferCatalogue& offers, Time now) {
        auto decision = plan_scale_out<Defer>(pending, nodes, offers, scale_out_options_);
        if (decision.new_node_count() > 0) tracker_.observe_scale_out(now);
        return decision;
    }

    /// ScaleInTracker::decide (with the workloads' disruption budgets, if any). \throws InvalidArgument as ScaleInTracker::decide.
    /// (`decide<T>`, not `decide`: a call that does not depend on T makes clang compile decide in every unit.)
    template <typename T = void>
    ScaleInDecision scale_in(std::span<const VirtualNode> nodes, Time now, std::span<const packing::WorkloadAvailability> budgets = {}) {
        return tracker_.template decide<T>(nodes, now, budgets);
    }

    /// Nodes were added at `when` by something else than scale_out.
    void observe_scale_out(Time when) { tracker_.observe_scale_out(when); }

    [[nodiscard]] const ScaleInTracker& tracker() const { return tracker_; }

private:
    ScaleOutOptions scale_out_options_;
    ScaleInTracker tracker_;
};

/// `FederatedClusterScaler` is `BasicFederatedClusterScaler<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using FederatedClusterScaler = BasicFederatedClusterScaler<>;

}  // namespace continuum::federation
