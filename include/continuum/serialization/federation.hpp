// JSON documents for the federation area's state values: the reservation Ledger (a restarted
// broker keeps its reservations, so providers are never over-committed), the ScaleInTracker's
// unneeded-node timers and the FederatedClusterScaler. Schema continuum.<Type>, version 1.
#pragma once

#include <continuum/federation/federated_cluster_scaler.hpp>
#include <continuum/federation/ledger.hpp>
#include <continuum/federation/scale_in.hpp>
#include <continuum/serialization/detail/json_reader.hpp>

namespace continuum::serialization {

template <>
struct Schema<federation::LedgerState> {
    static constexpr std::string_view name = "continuum.Ledger";
    static constexpr int version = 1;

    static Json write(const federation::LedgerState& s) {
        Json providers = Json::array();
        for (const auto& p : s.providers) providers.push_back({{"cluster_id", p.cluster_id}, {"capacity", detail::resources(p.capacity)}});
        Json reservations = Json::array();
        for (const auto& r : s.reservations) {
            reservations.push_back({{"id", r.id},
                                    {"consumer", r.consumer},
                                    {"cluster_id", r.cluster_id},
                                    {"amount", detail::resources(r.amount)},
                                    {"state", r.state == federation::ReservationState::reserved ? "reserved" : "committed"},
                                    {"expires_at", detail::optional_time(r.expires_at)}});
        }
        return {{"providers", providers}, {"reservations", reservations}, {"last_id", s.last_id}};
    }
    static federation::LedgerState read(const detail::Reader& r) {
        federation::LedgerState s;
        s.providers = r["providers"].array([](const detail::Reader& p) {
            return federation::LedgerProvider{p["cluster_id"].non_empty_string(), p["capacity"].resources()};
        });
        s.reservations = r["reservations"].array([](const detail::Reader& e) {
            federation::Reservation out;
            out.id = e["id"].uint64();
            out.consumer = e["consumer"].non_empty_string();
            out.cluster_id = e["cluster_id"].non_empty_string();
            out.amount = e["amount"].resources();
            out.state = e["state"].one_of({"reserved", "committed"}) == 0 ? federation::ReservationState::reserved : federation::ReservationState::committed;
            out.expires_at = detail::read_optional_time(e, "expires_at");
            return out;
        });
        s.last_id = r["last_id"].uint64();
        return s;
    }
};

template <>
struct Schema<federation::ScaleInTrackerState> {
    static constexpr std::string_view name = "continuum.ScaleInTracker";
    static constexpr int version = 1;

    static Json write(const federation::ScaleInTrackerState& s) {
        Json unneeded = Json::object();
        for (const auto& [node, since] : s.unneeded_since) unneeded[node] = since.count();
        return {{"unneeded_since", unneeded}, {"last_scale_out", detail::optional_time(s.last_scale_out)}, {"last_decision", detail::optional_time(s.last_decision)}};
    }
    static federation::ScaleInTrackerState read(const detail::Reader& r) {
        federation::ScaleInTrackerState s;
        r["unneeded_since"].members([&](const std::string& node, const detail::Reader& since) { s.unneeded_since[node] = since.duration(); });
        s.last_scale_out = detail::read_optional_time(r, "last_scale_out");
        s.last_decision = detail::read_optional_time(r, "last_decision");
        return s;
    }
};

template <>
struct Schema<federation::FederatedClusterScalerState> {
    static constexpr std::string_view name = "continuum.FederatedClusterScaler";
    static constexpr int version = 1;

    static Json write(const federation::FederatedClusterScalerState& s) { return {{"scale_in", to_json(s.scale_in)}}; }
    static federation::FederatedClusterScalerState read(const detail::Reader& r) {
        return {from_json<federation::ScaleInTrackerState>(r["scale_in"])};
    }
};

}  // namespace continuum::serialization
