// Seed 000's testbed (Table 1): one local cluster and four remote providers advertised to the
// Federation Broker: three low-cost (2 cores / 4 GB at 1 $/min, provider Pr1) and one high-cost
// (4 cores / 4 GB at 5 $/min, provider Pr2). Prints the Federation Recommender's ranking, the
// choice CA's price expander makes between the two categories, a scale-out decision for a burst of
// stress-ng pods, and a later scale-in once the load has gone.
#include <continuum/federation.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

using namespace continuum;
using namespace continuum::federation;
using namespace std::chrono_literals;

int main() {
    std::vector<Offer> offers;
    for (int i = 1; i <= 3; ++i) {
        Offer low;
        low.cluster_id = fmt::format("pr1-low-{}", i);
        low.provider = "Pr1";
        low.labels = {{"provider", "pr1"}, {"category", "low-cost"}, {"kubernetes.io/arch", "amd64"}};
        low.capacity = Resources{{"cpu", "2"}, {"memory", "4Gi"}, {"pods", "110"}};
        low.node_price = 1.0;  // $/min
        offers.push_back(low);
    }
    Offer high;
    high.cluster_id = "pr2-high-1";
    high.provider = "Pr2";
    high.labels = {{"provider", "pr2"}, {"category", "high-cost"}, {"kubernetes.io/arch", "amd64"}};
    high.capacity = Resources{{"cpu", "4"}, {"memory", "4Gi"}, {"pods", "110"}};
    high.node_price = 5.0;  // $/min
    high.reachability = Reachability::nat;
    offers.push_back(high);

    // 1. The Federation Recommender ranks the offers for a 1-core stress-ng pod.
    OfferRequirements requirements;
    requirements.request = Resources{{"cpu", "1"}, {"memory", "512Mi"}};
    const auto ranking = Recommender{}.recommend(offers, requirements);
    std::printf("Ranked offers (monetary cost of a 1-core pod, $/min):\n");
    for (const auto& entry : ranking.ranked) {
        std::printf("  %-11s %s\n", offers[entry.offer_index].cluster_id.c_str(), ranking.reason(entry, offers).c_str());
    }

    // 2. Between the two node groups (one per category), CA's price expander on a one-node cluster.
    PricingModel pricing;
    pricing.node_price = [](const ExpansionOption& o) { return o.node_group == "low-cost" ? 1.0 : 5.0; };
    pricing.pod_price = PricingModel::linear(0.5, 0.125).pod_price;  // $/core/min, $/GiB/min of the cheap category
    const std::vector<ExpansionPod> burst(2, requirements.request);
    std::vector<ExpansionOption> options(2);
    options[0].node_group = "low-cost";
    options[0].pods = burst;
    options[0].node_capacity = Resources{{"cpu", "2"}, {"memory", "4Gi"}};
    options[1].node_group = "high-cost";
    options[1].pods = burst;
    options[1].node_capacity = Resources{{"cpu", "4"}, {"memory", "4Gi"}};
    ExpanderContext context;
    context.pricing = pricing;
    context.cluster_node_count = 1;
    const auto choice = ExpanderChain::parse("least-waste,price").choose(options, context, 0);
    for (const auto& o : options) std::printf("  price expander %-9s %s\n", o.node_group.c_str(), price_score(o, pricing, 1).to_string().c_str());
    std::printf("Expander chain least-waste,price: %s\n", choice.reason.c_str());

    // 3. Scale-out: seven 1-core pods arrive while the local node is full.
    std::vector<PendingPod> pending;
    for (int i = 0; i < 7; ++i) pending.push_back({fmt::format("stress-ng-{}", i), requirements.request, {}});
    FederatedClusterScaler scaler;
    const auto out = scaler.scale_out(pending, {}, offers, Time{0});
    std::printf("Scale-out: %s\n", out.reason.c_str());
    std::vector<VirtualNode> nodes;
    for (const auto& peering : out.peerings) {
        for (std::size_t n = 0; n < peering.nodes.size(); ++n) {
            const auto& node = peering.nodes[n];
            std::string pods;
            for (const auto& p : node.pods) pods += (pods.empty() ? "" : ", ") + p;
            std::printf("  peer %-11s node %zu reserve %s at %.2f $/min: %s\n", peering.cluster_id.c_str(), n, node.reserved.to_string().c_str(), node.cost, pods.c_str());
            VirtualNode vn{fmt::format("liqo-{}", peering.cluster_id), peering.cluster_id, offers[peering.offer_index].labels, node.reserved, node.cost, {}};
            for (const auto& p : node.pods) vn.pods.push_back({p, requirements.request, true});
            nodes.push_back(vn);
        }
    }

    // 4. The load drops to two pods; after the unneeded time, scale-in releases what is not needed.
    for (auto& node : nodes) {
        if (node.pods.size() > 1) node.pods.resize(1);
        else node.pods.clear();
    }
    (void)scaler.scale_in(nodes, Time{11min});
    const auto in = scaler.scale_in(nodes, Time{21min});
    std::printf("Scale-in at t=21 min: %s\n", in.reason.c_str());
    for (const auto& status : in.nodes) std::printf("  %-17s %s\n", status.node.c_str(), status.reason.c_str());
    for (const auto& move : in.moves) std::printf("  move %s: %s -> %s\n", move.pod.c_str(), move.from.c_str(), move.to.c_str());
    return out.unschedulable.empty() && out.cost == 7.0 ? 0 : 1;
}
