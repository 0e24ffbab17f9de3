// The Chaotic Flash Sale of seed 004 (Table 2) through the MAS-H² hierarchical scaler: chatter,
// a chaotic ramp, a sustained peak with the COST_SAVING -> PERFORMANCE switch (make-before-break
// migration), the drop-off. A toy host applies the actions with one step of delay. Load: 1 core
// per 100 virtual users; pods request 500m; one decision every 30 s.
#include <continuum/scalers.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace continuum;

namespace {

struct LastValue {  // a stand-in forecaster: the last (median-filtered) observation
    double last = 0.0;
    void fit(SeriesView s) { last = s.back(); }
    [[nodiscard]] forecast::Forecast forecast(int horizon, double) const {
        forecast::Forecast f;
        f.mean.assign(static_cast<std::size_t>(horizon), last);
        return f;
    }
    void update(double v) { last = v; }
    [[nodiscard]] std::string name() const { return "last-value"; }
};

}  // namespace

int main() {
    // (duration in 30 s steps, virtual users), Table 2 of the paper.
    const std::vector<std::pair<int, double>> phases = {{4, 20}, {2, 50}, {2, 20}, {1, 200}, {2, 150}, {1, 400},
                                                        {2, 300}, {8, 700}, {2, 50}, {4, 50}, {2, 0}};
    policy::PolicySelector selector({policy::cost_saving(), policy::performance()}, "COST_SAVING");
    scalers::HierarchicalConfig config;
    config.step = std::chrono::seconds(30);
    scalers::HierarchicalScaler<LastValue> scaler(selector, LastValue{}, config);

    std::map<std::string, std::int64_t> pool_size = {{"mas-h2-staging-pool", 1}, {"performance-pool", 0}};
    std::map<std::string, std::int64_t> ready_pods = {{"mas-h2-staging-pool", 1}};
    std::string app_pool = "mas-h2-staging-pool";
    std::int64_t replicas = 1;
    std::vector<double> demand;
    int step = 0;
    for (const auto& [steps, users] : phases) {
        for (int i = 0; i < steps; ++i, ++step) {
            demand.push_back(users / 100.0 * (step % 2 == 0 ? 1.05 : 0.95));  // chatter
            scalers::ClusterSnapshot snapshot;
            scalers::ApplicationState app;
            app.name = "nginx";
            app.pod_request = Resources{{"cpu", "500m"}, {"memory", "256Mi"}};
            app.demand = demand;
            app.replicas = replicas;
            app.node_pool = app_pool;
            app.ready_replicas = ready_pods;
            snapshot.applications = {app};
            for (const auto& [name, size] : pool_size) {
                scalers::NodePoolState pool;
                pool.name = name;
                pool.size = size;
                pool.ready_nodes = size;  // nodes are ready one step after the resize
                snapshot.node_pools.push_back(pool);
            }
            if (step >= 14) snapshot.context.override_policy = "PERFORMANCE";  // shortly before the peak
            const auto d = scaler.decide(snapshot, Time{std::chrono::seconds(30 * step)});
            fmt::print("t={:4}s users={:3.0f} policy={:<11} migration={:<15} replicas={:2} nodes[cost]={} nodes[perf]={}\n", 30 * step, users,
                       d.policy, scalers::to_string(d.migration), d.applications[0].planned_replicas, d.pools[0].planned_size,
                       d.pools[1].planned_size);
            // The host applies the decision; pods started on a pool are ready at the next step, and
            // the rollout keeps old pods until the new ones are ready.
            ready_pods[app_pool] = replicas;
            for (const auto& r : d.resize_node_pools) pool_size[r.pool] = r.size;
            for (const auto& p : d.patch_deployments) {
                if (p.node_pool != app_pool) ready_pods[p.node_pool] = 0;
                app_pool = p.node_pool;
                replicas = p.replicas;
            }
            for (auto& [pool, count] : ready_pods) {
                if (pool == app_pool) count = replicas;
                else if (pool_size[pool] == 0) count = 0;
            }
        }
    }
    return scaler.migration_phase() == scalers::MigrationPhase::none ? 0 : 1;
}
