// JSON documents for the quota scalers' state values: the reactive scaler (stateless: an empty
// document), the proactive scaler's pending decrease, and the hybrid scaler's namespaces with
// their fitted models (each model written as its own forecaster document), usage histories and
// pending decreases.
#pragma once

#include <continuum/quota/hybrid.hpp>
#include <continuum/quota/proactive.hpp>
#include <continuum/quota/reactive.hpp>
#include <continuum/serialization/detail/json_reader.hpp>
#include <continuum/serialization/forecast.hpp>

namespace continuum::serialization {

namespace detail {

inline Json pending_decrease(const std::optional<quota::PendingDecrease>& p) {
    if (!p) return nullptr;
    return {{"target", resources(p->target)}, {"since", p->since.count()}, {"condition_since", optional_time(p->condition_since)}};
}
inline void write_pending_decrease(Writer& w, const std::optional<quota::PendingDecrease>& p) {
    if (!p) {
        w.null();
        return;
    }
    w.begin_object();
    w.key("target").resources(p->target);
    w.key("since").integer(p->since.count());
    w.key("condition_since").optional_time(p->condition_since);
    w.end_object();
}
inline std::optional<quota::PendingDecrease> read_pending_decrease(const Reader& r, std::string_view key) {
    const auto p = r.optional(key);
    if (!p) {
        if (!r.has(key)) (void)r[key];  // throws: missing field (null is "no pending decrease")
        return std::nullopt;
    }
    return quota::PendingDecrease{(*p)["target"].resources(), (*p)["since"].duration(), read_optional_time(*p, "condition_since")};
}

}  // namespace detail

template <>
struct Schema<quota::ReactiveQuotaScalerState> {
    static constexpr std::string_view name = "continuum.ReactiveQuotaScaler";
    static constexpr int version = 1;
    static Json write(const quota::ReactiveQuotaScalerState&) { return Json::object(); }
    static quota::ReactiveQuotaScalerState read(const detail::Reader&) { return {}; }
};

template <>
struct Schema<quota::ProactiveQuotaScalerState> {
    static constexpr std::string_view name = "continuum.ProactiveQuotaScaler";
    static constexpr int version = 1;
    static Json write(const quota::ProactiveQuotaScalerState& s) {
        return {{"pending", detail::pending_decrease(s.pending)}, {"last_now", detail::optional_time(s.last_now)}};
    }
    static quota::ProactiveQuotaScalerState read(const detail::Reader& r) {
        return {detail::read_pending_decrease(r, "pending"), detail::read_optional_time(r, "last_now")};
    }
};

template <typename ModelState>
struct Schema<quota::HybridQuotaScalerState<ModelState>> {
    static constexpr std::string_view name = "continuum.HybridQuotaScaler";
    static constexpr int version = 1;
    static Json write(const quota::HybridQuotaScalerState<ModelState>& s) {
        Json namespaces = Json::array();
        for (const auto& ns : s.namespaces) {
            Json models = Json::array();
            for (const auto& m : ns.models) models.push_back(to_json(m));
            Json history = Json::array();
            for (const auto& h : ns.history) history.push_back(detail::numbers(h, "history"));
            namespaces.push_back({{"name", ns.name},
                                  {"priority", ns.priority},
                                  {"models", std::move(models)},
                                  {"history", std::move(history)},
                                  {"fitted", ns.fitted},
                                  {"since_fit", ns.since_fit},
                                  {"pending", detail::pending_decrease(ns.pending)}});
        }
        return {{"namespaces", std::move(namespaces)}, {"last_now", detail::optional_time(s.last_now)}};
    }
    static std::size_t size_hint(const quota::HybridQuotaScalerState<ModelState>& s) { return 128 + 400 * s.namespaces.size(); }
    static void stream(detail::Writer& w, const quota::HybridQuotaScalerState<ModelState>& s) {
        w.key("namespaces").begin_array();
        for (const auto& ns : s.namespaces) {
            w.begin_object();
            w.key("name").string(ns.name);
            w.key("priority").integer(ns.priority);
            w.key("models").begin_array();
            for (const auto& m : ns.models) detail::write_document(w, m);
            w.end_array();
            w.key("history").begin_array();
            for (const auto& h : ns.history) w.numbers(h, "history");
            w.end_array();
            w.key("fitted").boolean(ns.fitted);
            w.key("since_fit").integer(ns.since_fit);
            w.key("pending");
            detail::write_pending_decrease(w, ns.pending);
            w.end_object();
        }
        w.end_array();
        w.key("last_now").optional_time(s.last_now);
    }
    static quota::HybridQuotaScalerState<ModelState> read(const detail::Reader& r) {
        quota::HybridQuotaScalerState<ModelState> s;
        s.namespaces = r["namespaces"].array([](const detail::Reader& n) {
            quota::HybridNamespaceState<ModelState> ns;
            ns.name = n["name"].non_empty_string();
            ns.priority = n["priority"].int32();
            ns.models = n["models"].array([](const detail::Reader& m) { return from_json<ModelState>(m); });
            ns.history = n["history"].array([](const detail::Reader& h) { return h.numbers(); });
            ns.fitted = n["fitted"].boolean();
            ns.since_fit = n["since_fit"].uint64();
            ns.pending = detail::read_pending_decrease(n, "pending");
            return ns;
        });
        s.last_now = detail::read_optional_time(r, "last_now");
        return s;
    }
};

}  // namespace continuum::serialization
