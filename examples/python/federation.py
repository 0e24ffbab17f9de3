"""docs/federation.md (seed 000's testbed, Table 1): rank four remote offers, scale out onto the
cheapest mix of virtual nodes for 7 pending pods, then scale in once the load has gone."""
from continuum import federation as fed

offers = [fed.Offer(f"low-{i}", {"cpu": 2, "memory": "4Gi"}, node_price=1.0, labels={"provider": "pr1"}) for i in (1, 2, 3)]
offers.append(fed.Offer("high-1", {"cpu": 4, "memory": "4Gi"}, node_price=5.0, labels={"provider": "pr2"}))
pod = {"cpu": 1, "memory": "512Mi"}

ranking = fed.Recommender().recommend(offers, selector="provider in (pr1,pr2)", request=pod)
print("best offer:", ranking.best)  # the cluster id
assert ranking.best == "low-1"
assert [offers[s.offer_index].cluster_id for s in ranking.ranked] == ["low-1", "low-2", "low-3", "high-1"]

# 7 one-core pods: three low-cost nodes hold only 6, so the cheapest cover is high + 2 low (7 $/min).
scaler = fed.FederatedClusterScaler()
out = scaler.scale_out([fed.PendingPod(f"stress-{i}", pod) for i in range(7)], [], offers, now=0.0)
print("scale-out:", out.reason)
assert out.cost == 7.0 and not out.unschedulable
assert sorted((p.cluster_id, len(p.nodes)) for p in out.peerings) == [("high-1", 1), ("low-1", 1), ("low-2", 1)]

# The host peers and creates the virtual nodes; later only one pod is left on each node.
nodes = [fed.VirtualNode(f"liqo-{p.cluster_id}", p.cluster_id, n.reserved, labels=offers[p.offer_index].labels,
                         cost=n.cost, pods=[fed.PlacedPod(n.pods[0], pod)])
         for p in out.peerings for n in p.nodes]
scaler.scale_in(nodes, now=11 * 60.0)  # unneeded from now on
scale_in = scaler.scale_in(nodes, now=21 * 60.0)  # 10 minutes later: released
print("scale-in:", scale_in.reason)
# The low-cost nodes are at 50 % (not below CA's 0.5 threshold); high-1 at 25 % is drained.
assert scale_in.nodes_to_release == ["liqo-high-1"] and scale_in.saved_cost == 5.0

# A controller that ranks every tick over the same offers builds the catalogue once (validated,
# columnar; it owns a copy) and asks only for the top k.
catalogue = fed.OfferCatalogue(offers)
top = fed.Recommender().recommend(catalogue, top_k=2)
print("top 2:", [s.cluster_id for s in top.ranked])
assert [s.cluster_id for s in top.ranked] == ["low-1", "low-2"]
