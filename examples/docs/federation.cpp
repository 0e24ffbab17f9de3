// docs/federation.md (seed 000's testbed, Table 1): rank four remote offers, scale out onto the
// cheapest mix of virtual nodes for 7 pending pods, then scale in once the load has gone.
#include <continuum/federation.hpp>

#include <chrono>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "check.hpp"

int main() {
    using namespace continuum;
    using namespace continuum::federation;
    using std::chrono::minutes;

    // Three low-cost offers (2 cores / 4Gi at 1 $/min) and one high-cost (4 cores / 4Gi at 5 $/min).
    auto offer = [](std::string id, const char* provider, const char* cores, double price) {
        Offer o;
        o.cluster_id = std::move(id);
        o.labels = {{"provider", provider}};
        o.capacity = Resources{{"cpu", cores}, {"memory", "4Gi"}};
        o.node_price = price;
        return o;
    };
    const std::vector<Offer> offers{offer("low-1", "pr1", "2", 1.0), offer("low-2", "pr1", "2", 1.0),
                                    offer("low-3", "pr1", "2", 1.0), offer("high-1", "pr2", "4", 5.0)};
    const Resources pod{{"cpu", "1"}, {"memory", "512Mi"}};

    OfferRequirements requirements;
    requirements.selector = parse_label_selector("provider in (pr1,pr2)");
    requirements.request = pod;
    const auto ranking = Recommender{}.recommend(offers, requirements);
    fmt::print("best offer {}: {}\n", offers[ranking.ranked[0].offer_index].cluster_id, ranking.reason(ranking.ranked[0], offers));
    CHECK(offers[ranking.ranked[0].offer_index].cluster_id == "low-1" && ranking.ranked.size() == 4);

    // 7 one-core pods: three low-cost nodes hold only 6, so the cheapest cover is high + 2 low (7 $/min).
    std::vector<PendingPod> pending;
    for (int i = 0; i < 7; ++i) pending.push_back({fmt::format("stress-{}", i), pod, {}});
    FederatedClusterScaler scaler;
    const auto out = scaler.scale_out(pending, /*nodes=*/{}, offers, Time{0});
    fmt::print("scale-out: {}\n", out.reason);
    CHECK(out.cost == 7.0 && out.new_node_count() == 3 && out.unschedulable.empty());

    // The host peers and creates the virtual nodes; later only one pod is left on each node.
    std::vector<VirtualNode> nodes;
    for (const auto& peering : out.peerings) {
        for (const auto& n : peering.nodes) {
            nodes.push_back({"liqo-" + peering.cluster_id, peering.cluster_id, offers[peering.offer_index].labels,
                             n.reserved, n.cost, {{n.pods.front(), pod, true}}});
        }
    }
    (void)scaler.scale_in(nodes, Time{minutes(11)});  // unneeded from now on
    const auto in = scaler.scale_in(nodes, Time{minutes(21)});  // 10 minutes later: released
    fmt::print("scale-in: {}\n", in.reason);
    // The low-cost nodes are at 50 % (not below CA's 0.5 threshold); high-1 at 25 % is drained.
    CHECK(in.nodes_to_release == std::vector<std::string>{"liqo-high-1"} && in.saved_cost == 5.0);
}
