// The tests' reference for continuum-ca-provider: federation::plan_scale_out called directly on
// offers, pending pods and existing virtual nodes read from a JSON file (argv[1]); the decision is
// printed as JSON, so test_ca_provider.py checks that the provider's scale-ups equal the library's.
#include <continuum/federation/scale_out.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <string>

namespace {
using Json = nlohmann::json;
using namespace continuum;

Resources quantities(const Json& j) { return Resources::from_quantities(j.get<std::map<std::string, std::string>>()); }
Resources units(const Json& j) {
    Resources out;
    for (const auto& [name, value] : j.items()) out.set(name, value.get<std::int64_t>());
    return out;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: hosts_ca_reference_plan INPUT.json\n";
        return 2;
    }
    std::ifstream in(argv[1]);
    const Json input = Json::parse(in);
    std::vector<federation::Offer> offers;
    for (const auto& o : input.at("offers")) {
        federation::Offer offer;
        offer.cluster_id = o.at("cluster_id").get<std::string>();
        offer.capacity = quantities(o.at("capacity"));
        offer.max_nodes = o.value("max_nodes", 1);
        offer.node_price = o.value("node_price", 0.0);
        offer.unit_prices = o.value("unit_prices", std::map<std::string, double, std::less<>>{});
        for (const auto& [k, v] : o.value("labels", std::map<std::string, std::string>{})) offer.labels[k] = v;
        offers.push_back(offer);
    }
    std::vector<federation::PendingPod> pods;
    for (const auto& p : input.at("pods")) pods.push_back({p.at("name").get<std::string>(), quantities(p.at("request")), {}});
    std::vector<federation::VirtualNode> nodes;
    for (const auto& n : input.value("nodes", Json::array())) {
        federation::VirtualNode node{n.at("name").get<std::string>(), n.at("cluster_id").get<std::string>(), {}, units(n.at("allocatable")), n.at("cost").get<double>(), {}};
        for (const auto& [k, v] : n.value("labels", std::map<std::string, std::string>{})) node.labels[k] = v;
        for (const auto& p : n.at("pods")) node.pods.push_back({p.at("name").get<std::string>(), units(p.at("request")), true});
        nodes.push_back(node);
    }
    const auto decision = federation::plan_scale_out(pods, nodes, offers);
    Json out{{"cost", decision.cost}, {"reason", decision.reason}, {"peerings", Json::array()}, {"unschedulable", Json::array()}};
    for (const auto& peering : decision.peerings) {
        Json created = Json::array();
        for (const auto& n : peering.nodes) {
            Json reserved = Json::object();
            for (const auto& [name, value] : n.reserved) reserved[name] = value;
            created.push_back({{"pods", n.pods}, {"reserved", reserved}, {"cost", n.cost}});
        }
        out["peerings"].push_back({{"cluster_id", peering.cluster_id}, {"nodes", created}});
    }
    for (const auto& u : decision.unschedulable) out["unschedulable"].push_back(u.pod);
    out["existing_node_placements"] = Json::array();
    for (const auto& p : decision.existing_node_placements) out["existing_node_placements"].push_back({{"pod", p.pod}, {"node", p.node}});
    std::cout << out.dump() << "\n";
    return 0;
}
