// Fuzzes the quota scalers with snapshots decoded from arbitrary bytes (amounts from 0 to near
// int64 max, one or two resources, waiting pools of 0-5 nodes, quota levels): Algorithm 2
// (reactive_quota_step), Algorithm 1 (ProactiveQuotaScaler over a few ticks) and the hybrid
// scaler (tick_with_predictions over a few ticks). Checked invariants: a reactive step never
// lowers a quota and, unless infeasible, the request fits the new quota and the resumed nodes
// cover what the free resources lack; a proactive step touches only managed resources and, with
// the default condition, never lowers a quota below current usage; hybrid decisions come back one
// per namespace, in order, with non-negative quotas and consistent cut lists.
#include "fuzz_target.hpp"
#include "fuzz_support.hpp"

#include <continuum/forecast/naive.hpp>
#include <continuum/quota/hybrid.hpp>
#include <continuum/quota/proactive.hpp>
#include <continuum/quota/reactive.hpp>

#include <string>

namespace {

using continuum::Resources;

const char* const names[] = {"cpu", "memory"};

Resources resources(FuzzedDataProvider& in, std::size_t dims, bool allow_negative = false) {
    Resources r;
    for (std::size_t k = 0; k < dims; ++k) r.set(names[k], continuum::fuzz::amount(in, allow_negative && in.ConsumeIntegralInRange<int>(0, 31) == 0));
    return r;
}

std::vector<continuum::capacity::WaitingNode> pool(FuzzedDataProvider& in, std::size_t dims) {
    std::vector<continuum::capacity::WaitingNode> out(in.ConsumeIntegralInRange<std::size_t>(0, 5));
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i].name = "wwn-" + std::to_string(in.ConsumeIntegralInRange<int>(0, 6));  // duplicates possible
        out[i].capacity = resources(in, dims);
        out[i].resume_latency = std::chrono::milliseconds(in.ConsumeIntegralInRange<std::int64_t>(-1, 100000));
        out[i].cost = in.ConsumeFloatingPointInRange<double>(0.0, 10.0);
    }
    return out;
}

bool non_negative(const Resources& r) { return !r.any_negative(); }

}  // namespace

CONTINUUM_FUZZ_TARGET(quota_scalers) {
    namespace quota = continuum::quota;
    FuzzedDataProvider in(data, size);
    const auto dims = in.ConsumeIntegralInRange<std::size_t>(1, 2);
    const auto objective = static_cast<continuum::capacity::ActivationObjective>(in.ConsumeIntegralInRange<int>(0, 2));
    const auto waiting = pool(in, dims);

    // ---- Algorithm 2 ----
    {
        quota::ReactiveSnapshot s{resources(in, dims, true), resources(in, dims, true), resources(in, dims, true), waiting};
        quota::ReactiveConfig config;
        config.objective = objective;
        config.budget.node_limit = 2000;
        try {
            const auto d = quota::reactive_quota_step(s, config);
            for (const auto& [name, value] : s.current_quota) CONTINUUM_FUZZ_CHECK(d.new_quota.get(name) >= value);  // never lowers
            CONTINUUM_FUZZ_CHECK(non_negative(d.new_quota));
            if (d.deploy()) {
                CONTINUUM_FUZZ_CHECK(s.request.fits_in(d.new_quota));
                CONTINUUM_FUZZ_CHECK(d.nodes_to_activate().size() == d.activation.nodes.size());
                if (d.case_number() == 3) CONTINUUM_FUZZ_CHECK(d.activation.covers() && !d.activation.nodes.empty());
                if (d.case_number() != 3) CONTINUUM_FUZZ_CHECK(d.activation.nodes.empty());
            } else {
                CONTINUUM_FUZZ_CHECK(d.new_quota == s.current_quota);
                CONTINUUM_FUZZ_CHECK(d.activation.nodes.empty() && !d.still_missing.empty());
            }
            CONTINUUM_FUZZ_CHECK(!d.reason.empty());
        } catch (const continuum::InvalidArgument&) {
        }
    }

    // ---- Algorithm 1, a few ticks ----
    quota::ProactiveConfig config;
    config.resources.assign(names, names + dims);
    config.objective = objective;
    config.budget.node_limit = 2000;
    config.decrease_hold = std::chrono::milliseconds(in.ConsumeIntegralInRange<std::int64_t>(0, 120000));
    if (in.ConsumeBool()) {
        std::vector<std::int64_t> levels;
        std::int64_t level = 0;
        const auto count = in.ConsumeIntegralInRange<int>(1, 5);
        for (int i = 0; i < count; ++i) levels.push_back(level += in.ConsumeIntegralInRange<std::int64_t>(0, std::int64_t{1} << 40));
        try {
            config.levels.set("cpu", quota::QuotaLevels(levels));
        } catch (const continuum::InvalidArgument&) {
            // a zero or repeated level: rejected
        }
    }
    std::optional<quota::ProactiveQuotaScaler> proactive;
    try {
        proactive.emplace(config);
    } catch (const continuum::InvalidArgument&) {
        return 0;
    }
    std::int64_t now = 0;
    for (int tick = 0; tick < 4 && in.remaining_bytes() > 0; ++tick) {
        quota::ProactiveSnapshot s;
        now += in.ConsumeIntegralInRange<std::int64_t>(-1000, 60000);
        s.now = continuum::Time(now);
        s.prediction = resources(in, dims, true);
        s.current_quota = resources(in, dims, true);
        s.current_usage = resources(in, dims, true);
        s.cluster_resources = resources(in, dims, true);
        s.waiting_nodes = waiting;
        try {
            const auto d = proactive->decide(s);
            CONTINUUM_FUZZ_CHECK(non_negative(d.new_quota));
            for (const auto& [name, value] : d.new_quota) {
                if (name != "cpu" && !(dims == 2 && name == "memory")) CONTINUUM_FUZZ_CHECK(value == s.current_quota.get(name));
            }
            for (const auto& [name, value] : s.current_quota) {
                const auto now_quota = d.new_quota.get(name);
                if (now_quota < value) CONTINUUM_FUZZ_CHECK(now_quota >= s.current_usage.get(name));  // usage_within_target
            }
            if (d.action == quota::ProactiveAction::hold || d.action == quota::ProactiveAction::infeasible ||
                d.action == quota::ProactiveAction::wait_for_usage_decrease) {
                CONTINUUM_FUZZ_CHECK(d.activation.nodes.empty());
            }
            if (d.action == quota::ProactiveAction::activate_and_raise_quota) CONTINUUM_FUZZ_CHECK(d.activation.covers());
        } catch (const continuum::InvalidArgument&) {
        }
    }

    // ---- hybrid, a few ticks with given predictions ----
    quota::HybridConfig hybrid_config;
    hybrid_config.proactive = config;
    hybrid_config.min_history = 2;
    quota::HybridQuotaScaler<continuum::forecast::Naive> hybrid(continuum::forecast::Naive{}, hybrid_config);
    now = 0;
    for (int tick = 0; tick < 3 && in.remaining_bytes() > 0; ++tick) {
        now += in.ConsumeIntegralInRange<std::int64_t>(0, 60000);
        quota::ClusterSnapshot cluster;
        cluster.now = continuum::Time(now);
        cluster.capacity = resources(in, dims);
        cluster.waiting_nodes = waiting;
        std::vector<quota::NamespaceSnapshot> namespaces(in.ConsumeIntegralInRange<std::size_t>(1, 3));
        std::vector<Resources> predictions;
        for (std::size_t i = 0; i < namespaces.size(); ++i) {
            namespaces[i].name = "ns-" + std::to_string(i);
            namespaces[i].usage = resources(in, dims);
            namespaces[i].quota = resources(in, dims);
            if (in.ConsumeBool()) namespaces[i].failed_requests.push_back(resources(in, dims));
            predictions.push_back(resources(in, dims));
        }
        try {
            const auto d = hybrid.tick_with_predictions(cluster, namespaces, predictions);
            CONTINUUM_FUZZ_CHECK(d.namespaces.size() == namespaces.size());
            for (std::size_t i = 0; i < namespaces.size(); ++i) {
                CONTINUUM_FUZZ_CHECK(d.namespaces[i].name == namespaces[i].name);
                CONTINUUM_FUZZ_CHECK(non_negative(d.namespaces[i].quota));
                CONTINUUM_FUZZ_CHECK(!d.namespaces[i].reason().empty());
            }
            for (const auto i : d.cut) CONTINUUM_FUZZ_CHECK(i < namespaces.size() && d.namespaces[i].was_cut());
            CONTINUUM_FUZZ_CHECK(non_negative(d.still_missing));
        } catch (const continuum::InvalidArgument&) {
        }
    }
    return 0;
}
