// JSON documents for the scalers' state values: the HPA's recommendation history, scale events
// and times (a restarted controller keeps its stabilisation window, so it does not scale down at
// once), and the hierarchical (MAS-H²) scaler's noise-filter samples and migration in flight.
#pragma once

#include <continuum/scalers/hierarchical.hpp>
#include <continuum/scalers/hpa.hpp>
#include <continuum/serialization/detail/json_reader.hpp>

namespace continuum::serialization {

namespace detail {

inline Json timed_values(const std::vector<scalers::Hpa::TimedValue>& values) {
    Json out = Json::array();
    for (const auto& v : values) out.push_back({{"replicas", v.replicas}, {"time", v.time.count()}});
    return out;
}
inline std::vector<scalers::Hpa::TimedValue> read_timed_values(const Reader& r) {
    return r.array([](const Reader& v) { return scalers::Hpa::TimedValue{v["replicas"].int64(), v["time"].duration()}; });
}

inline Json scale_events(const std::vector<scalers::Hpa::ScaleEvent>& events) {
    Json out = Json::array();
    for (const auto& e : events) out.push_back({{"replicas", e.replicas}, {"time", e.time.count()}, {"outdated", e.outdated}});
    return out;
}
inline std::vector<scalers::Hpa::ScaleEvent> read_scale_events(const Reader& r) {
    return r.array([](const Reader& e) { return scalers::Hpa::ScaleEvent{e["replicas"].int64(), e["time"].duration(), e["outdated"].boolean()}; });
}

}  // namespace detail

template <>
struct Schema<scalers::HpaState> {
    static constexpr std::string_view name = "continuum.Hpa";
    static constexpr int version = 1;
    static Json write(const scalers::HpaState& s) {
        return {{"recommendations", detail::timed_values(s.recommendations)},
                {"scale_up_events", detail::scale_events(s.scale_up_events)},
                {"scale_down_events", detail::scale_events(s.scale_down_events)},
                {"last_active", detail::optional_time(s.last_active)},
                {"last_now", detail::optional_time(s.last_now)}};
    }
    static scalers::HpaState read(const detail::Reader& r) {
        return {detail::read_timed_values(r["recommendations"]), detail::read_scale_events(r["scale_up_events"]),
                detail::read_scale_events(r["scale_down_events"]), detail::read_optional_time(r, "last_active"), detail::read_optional_time(r, "last_now")};
    }
};

template <>
struct Schema<scalers::HierarchicalScalerState> {
    static constexpr std::string_view name = "continuum.HierarchicalScaler";
    static constexpr int version = 1;
    static Json write(const scalers::HierarchicalScalerState& s) {
        Json stabilizers = Json::object();
        for (const auto& [app, samples] : s.stabilizers) {
            Json list = Json::array();
            for (const auto& sample : samples) list.push_back({{"replicas", sample.replicas}, {"time", sample.time.count()}});
            stabilizers[app] = std::move(list);
        }
        const auto& m = s.migration;
        return {{"stabilizers", std::move(stabilizers)},
                {"migration", {{"phase", std::string(scalers::to_string(m.phase))}, {"from", m.from}, {"to", m.to}, {"policy", m.policy}}}};
    }
    static scalers::HierarchicalScalerState read(const detail::Reader& r) {
        scalers::HierarchicalScalerState s;
        r["stabilizers"].members([&](const std::string& app, const detail::Reader& samples) {
            s.stabilizers[app] = samples.array([](const detail::Reader& v) { return scalers::ReplicaStabilizer::Sample{v["replicas"].int64(), v["time"].duration()}; });
        });
        const auto m = r["migration"];
        s.migration.phase = static_cast<scalers::MigrationPhase>(m["phase"].one_of({"none", "provisioning", "migrating", "decommissioning"}));
        s.migration.from = m["from"].strings();
        s.migration.to = m["to"].string();
        s.migration.policy = m["policy"].string();
        return s;
    }
};

}  // namespace continuum::serialization
