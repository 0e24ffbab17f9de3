// Hybrid quota scaling (seed 001) driving Karmada FederatedResourceQuota objects: two namespaces
// share a 100-CPU federation with two paused worker nodes; usage of "shop" climbs; each tick the
// HybridQuotaScaler forecasts, raises quotas ahead of demand and resumes waiting nodes when needed.
// The final decision is printed as a kubectl-appliable List of FederatedResourceQuota objects
// (policy.karmada.io/v1alpha1: spec.overall plus spec.staticAssignments[] {clusterName, hard}),
// quantities formatted the Kubernetes way. Run: ./example_karmada_quota
#include <continuum/capacity.hpp>
#include <continuum/core.hpp>
#include <continuum/quota.hpp>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

using namespace continuum;
using namespace std::chrono_literals;

namespace {

/// A tiny drift forecaster (last value plus the average step over the history): any
/// continuum::forecast::Forecaster (Holt-Winters, LSTM, ...) plugs in the same way.
struct DriftForecaster {
    std::vector<double> history;
    void fit(SeriesView h) { history.assign(h.begin(), h.end()); }
    void update(double v) { history.push_back(v); }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double /*level*/) const {
        if (history.empty()) throw InvalidArgument("DriftForecaster: not fitted");
        const double slope = history.size() > 1 ? (history.back() - history.front()) / static_cast<double>(history.size() - 1) : 0.0;
        forecast::Forecast f;
        for (int h = 1; h <= horizon; ++h) f.mean.push_back(history.back() + slope * h);
        return f;
    }
    [[nodiscard]] std::string name() const { return "drift"; }
};

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

/// {"cpu": "65", "memory": "200Gi"}: every listed resource, explicitly (a Resources omits zeros).
std::string resource_list(const Resources& r, const std::vector<std::string>& names) {
    std::string out = "{";
    for (std::size_t i = 0; i < names.size(); ++i) {
        out += fmt::format("{}{}: {}", i ? ", " : "", json_string(names[i]), json_string(format_resource(names[i], r.get(names[i]))));
    }
    return out + "}";
}

std::string federated_resource_quota(const quota::NamespaceDecision& d, const std::vector<quota::MemberCluster>& members,
                                     const std::vector<std::string>& names) {
    const auto split = quota::split_across_clusters(d.quota, members);
    std::string assignments;
    for (std::size_t i = 0; i < split.size(); ++i) {
        assignments += fmt::format("{}        {{\"clusterName\": {}, \"hard\": {}}}", i ? ",\n" : "", json_string(split[i].cluster_name),
                                   resource_list(split[i].hard, names));
    }
    return fmt::format(R"(    {{
      "apiVersion": "policy.karmada.io/v1alpha1",
      "kind": "FederatedResourceQuota",
      "metadata": {{"name": {}, "namespace": {}, "annotations": {{"continuum.io/reason": {}}}}},
      "spec": {{
        "overall": {},
        "staticAssignments": [
{}
        ]
      }}
    }})",
                       json_string(d.name + "-quota"), json_string(d.name), json_string(d.reason()), resource_list(d.quota, names), assignments);
}

}  // namespace

int main() {
    quota::HybridConfig config;
    config.proactive.resources = {"cpu"};
    config.proactive.levels.set("cpu", quota::QuotaLevels::parse("cpu", {"20", "40", "60", "80", "100"}));
    config.min_history = 3;
    quota::HybridQuotaScaler scaler(DriftForecaster{}, config);
    scaler.add_namespace("shop", 10);
    scaler.add_namespace("analytics", 0);

    const std::vector<capacity::WaitingNode> waiting{
        {"edge-b-paused-1", Resources{{"cpu", "16"}, {"memory", "64Gi"}}, 25s, 0.40},
        {"edge-b-paused-2", Resources{{"cpu", "16"}, {"memory", "64Gi"}}, 25s, 0.40},
    };
    const std::vector<quota::MemberCluster> members{{"edge-a", Resources{{"cpu", "40"}, {"memory", "160Gi"}}},
                                                    {"edge-b", Resources{{"cpu", "60"}, {"memory", "240Gi"}}}};
    const std::vector<std::string> names{"cpu", "memory"};

    std::vector<quota::NamespaceSnapshot> namespaces{
        {"shop", Resources{{"cpu", "40"}, {"memory", "128Gi"}}, Resources{{"cpu", "60"}, {"memory", "200Gi"}}, {}},
        {"analytics", Resources{{"cpu", "20"}, {"memory", "64Gi"}}, Resources{{"cpu", "30"}, {"memory", "100Gi"}}, {}},
    };
    Resources capacity{{"cpu", "100"}, {"memory", "400Gi"}};
    quota::HybridDecision last;
    for (int minute = 0; minute < 8; ++minute) {
        namespaces[0].usage.set("cpu", (40 + 6 * minute) * 1000);  // shop climbs 6 CPUs a minute
        last = scaler.tick({Time(minute * 60'000), capacity, waiting, {}}, namespaces);
        std::fprintf(stderr, "t=%dmin %s\n", minute, last.reason.c_str());
        for (std::size_t i = 0; i < namespaces.size(); ++i) namespaces[i].quota = last.namespaces[i].quota;  // the host applies it
        for (const auto& name : last.activation.names) {
            std::fprintf(stderr, "  resume %s\n", name.c_str());
            for (const auto& node : waiting) {
                if (node.name == name) capacity += node.capacity;
            }
        }
    }

    std::string items;
    for (std::size_t i = 0; i < last.namespaces.size(); ++i) items += (i ? ",\n" : "") + federated_resource_quota(last.namespaces[i], members, names);
    std::printf("{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [\n%s\n  ]\n}\n", items.c_str());

    // Self-check (the example is a ctest): shop's quota is ahead of its usage and total quota is backed.
    const auto& shop = last.namespaces[0];
    Resources total;
    for (const auto& d : last.namespaces) total += d.quota;
    const bool ok = namespaces[0].usage.fits_in(shop.quota) && total.fits_in(capacity + last.activation.activated_capacity);
    if (!ok) std::fprintf(stderr, "karmada_quota: unexpected decision: %s\n", last.reason.c_str());
    return ok ? 0 : 1;
}
