"""continuum.federation from Python: seed 000's testbed, selectors, cost models, CA expanders,
the FederatedClusterScaler and the Ledger."""

import math
import threading

import pytest

import continuum
from continuum import federation as fed


def table1():
    low = [fed.Offer(f"low-{i}", {"cpu": "2", "memory": "4Gi"}, node_price=1.0, labels={"provider": "pr1"}, provider="pr1") for i in (1, 2, 3)]
    high = fed.Offer("high-1", {"cpu": "4", "memory": "4Gi"}, node_price=5.0, labels={"provider": "pr2"}, provider="pr2")
    return [high] + low


def test_recommender_ranks_table1():
    r = fed.Recommender().recommend(table1())
    assert [s.cluster_id for s in r.ranked] == ["low-1", "low-2", "low-3", "high-1"]
    assert [s.score for s in r.ranked] == [1.0, 1.0, 1.0, 5.0]
    assert r.best == "low-1"
    assert r.ranked[3].reason == "rank 4 of 4: monetary(requested) cost 5"
    big = fed.Recommender().recommend(table1(), request={"cpu": "3", "memory": "1Gi"})
    assert big.best == "high-1"
    assert [s.verdict for s in big.rejected] == [fed.Verdict.insufficient_capacity] * 3
    by_selector = fed.Recommender().recommend(table1(), selector="provider notin (pr2)")
    assert [s.cluster_id for s in by_selector.ranked] == ["low-1", "low-2", "low-3"]
    assert by_selector.rejected[0].reason == "labels fail the selector: requirement provider!=pr2 not met (provider=pr2)"


def test_cost_models_and_callables():
    a = fed.Offer("a", {"cpu": 4, "memory": "8Gi"}, node_price=1.0, latency_ms=40.0)
    b = fed.Offer("b", {"cpu": 4, "memory": "8Gi"}, node_price=3.0, latency_ms=5.0)
    assert fed.Recommender(fed.LatencyCost()).recommend([a, b]).best == "b"
    weighted = fed.WeightedSum([(1.0, fed.MonetaryCost()), (0.1, fed.LatencyCost())])
    r = fed.Recommender(weighted).recommend([a, b])
    assert r.best == "b" and r.ranked[0].score == pytest.approx(3.5)

    def per_core(offer, request):
        return offer.node_cost() / (offer.capacity["cpu"] / 1000)

    r = fed.Recommender(per_core).recommend([a, b])
    assert r.cost_model == "per_core" and r.ranked[0].score == pytest.approx(0.25)
    with pytest.raises(continuum.InvalidArgument):
        fed.Recommender(lambda o, r: float("nan")).recommend([a, b])


def test_bad_offers_and_selectors():
    with pytest.raises(continuum.InvalidArgument):
        fed.Offer("x", {"cpu": "2", "memory": "4Gi"}, node_price=-1.0)
    with pytest.raises(continuum.InvalidArgument):
        fed.Offer("x", {"memory": "4Gi"})
    dup = [fed.Offer("x", {"cpu": 1, "memory": "1Gi"}), fed.Offer("x", {"cpu": 1, "memory": "1Gi"})]
    with pytest.raises(continuum.InvalidArgument, match="duplicate cluster_id"):
        fed.Recommender().recommend(dup)
    with pytest.raises(continuum.ParseError, match="position"):
        fed.parse_label_selector("a in (x,")
    s = fed.LabelSelector.parse("a=b,c in (x,y),!d")
    assert str(s) == "a=b,c in (x,y),!d"
    assert s.matches({"a": "b", "c": "y"}) and not s.matches({"a": "b", "c": "y", "d": "1"})
    sel = fed.LabelSelector(match_labels={"zone": "z1"}, match_expressions=[fed.SelectorRequirement("tier", fed.SelectorOperator.Exists)])
    assert sel.matches({"zone": "z1", "tier": "gold"}) and not sel.matches({"zone": "z1"})


def test_expanders_hand_computed():
    pods = [continuum.Resources({"cpu": "3", "memory": "8Gi"})] * 2
    a = fed.ExpansionOption("a", 2, pods, {"cpu": "4", "memory": "16Gi"})
    b = fed.ExpansionOption("b", 1, pods, {"cpu": "16", "memory": "16Gi"})
    assert fed.least_waste_score(a) == pytest.approx(0.75)
    assert fed.least_waste([a, b]) == [1]
    assert fed.suppress_unfitness(4, 16) == pytest.approx(3 * (1 - math.tanh(1)) + 1)
    pricing = fed.PricingModel(node_price=lambda o: 25.0 if o.node_group == "gpu" else 1.0, pod_price=lambda r: 1.0)
    standard = fed.ExpansionOption("standard", 1, [continuum.Resources({"cpu": 1, "memory": "1Gi"})], {"cpu": 2, "memory": "2Gi"})
    gpu = fed.ExpansionOption("gpu", 1, [continuum.Resources({"cpu": 1, "memory": "1Gi"})], {"cpu": "3500m", "memory": "4Gi", "nvidia.com/gpu": 1})
    assert fed.price_score(standard, pricing, 1).score == 2.0
    assert fed.price_score(gpu, pricing, 1).score == 13000.0
    assert fed.price([gpu, standard], pricing, 1) == [1]
    tiers = fed.PriorityTiers({10: [".*"], 50: ["^gpu"]})
    assert fed.priority([standard, gpu], tiers) == [1]
    assert fed.priority([standard, gpu], fed.PriorityTiers("10:\n  - stand\n")) == [0]
    choice = fed.ExpanderChain("least-waste,price").choose([standard, gpu], pricing=pricing, cluster_node_count=1, seed=3)
    assert choice.best is not None and choice.reason.startswith(("standard", "gpu"))
    assert fed.random_option([a, b], 5) == fed.random_option([a, b], 5)
    with pytest.raises(continuum.ParseError):
        fed.ExpanderChain("cheapest")


def test_scaler_scale_out_and_in():
    scaler = fed.FederatedClusterScaler()
    pending = [fed.PendingPod(f"p{i}", {"cpu": "1", "memory": "512Mi"}) for i in range(7)]
    pending.append(fed.PendingPod("huge", {"cpu": "8", "memory": "1Gi"}))
    d = scaler.scale_out(pending, [], table1(), now=0.0)
    assert d.cost == 7.0
    assert sorted(p.cluster_id for p in d.peerings) == ["high-1", "low-1", "low-2"]
    assert [u.pod for u in d.unschedulable] == ["huge"]
    assert "exceeds every offer" in d.unschedulable[0].reason
    placed = sorted(name for p in d.peerings for n in p.nodes for name in n.pods)
    assert placed == sorted(f"p{i}" for i in range(7))

    nodes = [
        fed.VirtualNode("a", "low-1", {"cpu": 2, "memory": "4Gi"}, cost=1.0, pods=[fed.PlacedPod("a1", {"cpu": "500m", "memory": "256Mi"})]),
        fed.VirtualNode("b", "low-2", {"cpu": 2, "memory": "4Gi"}, cost=1.0, pods=[fed.PlacedPod("b1", {"cpu": "1500m", "memory": "256Mi"})]),
    ]
    assert fed.node_utilization(nodes[0]) == 0.25
    s = fed.FederatedClusterScaler(delay_after_add=0.0)
    assert s.scale_in(nodes, now=0.0).nodes_to_release == []
    later = s.scale_in(nodes, now=600.0)
    assert later.nodes_to_release == ["a"]
    assert [(m.pod, m.from_node, m.to_node) for m in later.moves] == [("a1", "a", "b")]
    with pytest.raises(continuum.InvalidArgument):
        s.scale_in(nodes, now=-1.0)


def test_ledger_threads():
    ledger = fed.Ledger(table1())
    rid = ledger.reserve("ca", "low-1", {"cpu": "1500m"})
    assert ledger.try_reserve("other", "low-1", {"cpu": "1"}) is None
    with pytest.raises(continuum.Infeasible):
        ledger.reserve("other", "low-1", {"cpu": "1"})
    ledger.commit(rid)
    ledger.release(rid)

    def worker(name):
        for _ in range(200):
            r = ledger.try_reserve(name, "high-1", {"cpu": "700m"})
            if r is not None:
                ledger.release(r)

    threads = [threading.Thread(target=worker, args=(f"t{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ledger.audit() == ""
    assert ledger.held("high-1")["cpu"] == 0


def test_offer_catalogue_ranks_like_the_list():
    offers = []
    for i in range(60):
        labels = {"region": ["eu", "us", "ap"][i % 3]}
        if i % 4:
            labels["kubernetes.io/arch"] = "amd64" if i % 5 else "arm64"
        unit = {"cpu": [0.1, 0.2, 0.3][i % 3], "memory": 0.05} if i % 2 else {}
        offers.append(fed.Offer(f"c{(i * 37) % 60:02d}", {"cpu": [1, 2, 4][i % 3], "memory": f"{[2, 4, 8][i % 3]}Gi"},
                                node_price=[0.5, 1.0, 2.0][i % 3] if not unit else 0.0, unit_prices=unit, labels=labels,
                                latency_ms=float(i % 7) if i % 6 else None))
    catalogue = fed.OfferCatalogue(offers)
    assert len(catalogue) == 60 and catalogue[3].cluster_id == offers[3].cluster_id
    assert catalogue.cluster_ids == [o.cluster_id for o in offers]
    assert catalogue.node_costs == [o.node_cost() for o in offers]
    assert catalogue.capacity("cpu") == [o.capacity["cpu"] for o in offers]
    assert catalogue.matching("region in (eu,ap)") == [o.labels["region"] != "us" for o in offers]
    for model in (None, fed.LatencyCost(), fed.WeightedSum([(1.0, fed.MonetaryCost()), (0.1, fed.LatencyCost())])):
        for kwargs in ({}, {"request": {"cpu": "1500m", "memory": "1Gi"}}, {"selector": "region!=us", "arch": "amd64"}):
            recommender = fed.Recommender(model)
            want = recommender.recommend(offers, **kwargs)
            got = recommender.recommend(catalogue, **kwargs)
            assert [(s.offer_index, s.score, s.reason) for s in got.ranked] == [(s.offer_index, s.score, s.reason) for s in want.ranked]
            assert [(s.offer_index, s.verdict) for s in got.rejected] == [(s.offer_index, s.verdict) for s in want.rejected]
            top = recommender.recommend(catalogue, top_k=3, **kwargs)
            assert [s.cluster_id for s in top.ranked] == [s.cluster_id for s in want.ranked[:3]]
            assert top.eligible == len(want.ranked)
    # Ties on cost: whole-node price, then cluster id.
    r = fed.Recommender().recommend(fed.OfferCatalogue(table1()), top_k=2)
    assert [s.cluster_id for s in r.ranked] == ["low-1", "low-2"] and r.eligible == 4
    assert r.ranked[1].reason == "rank 2 of 4: monetary(requested) cost 1 (tied on cost; ordered by whole-node price, then cluster id)"
    with pytest.raises(continuum.InvalidArgument, match=r"offers\[1\]: duplicate cluster_id \"x\""):
        fed.OfferCatalogue([fed.Offer("x", {"cpu": 1, "memory": "1Gi"}), fed.Offer("x", {"cpu": 1, "memory": "1Gi"})])


def test_pod_types_are_packings():
    from continuum import packing
    assert fed.PlacedPod is packing.PlacedPod and fed.PodMove is packing.PodMove
    node = fed.VirtualNode("a", "low-1", {"cpu": 2, "memory": "4Gi"}, pods=[packing.PlacedPod("p", {"cpu": "1"})])
    assert node.pods[0].name == "p"
