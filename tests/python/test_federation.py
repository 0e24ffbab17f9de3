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
        return offer.node_cost() / offer.capacity.canonical("cpu") * 1000

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
    pricing = fed.PricingModel(node_price=lambda o: 25.0 if o.node_group == "gpu" else 1.0, pod_price=lambda p: 1.0)
    standard = fed.ExpansionOption("standard", 1, [continuum.Resources({"cpu": 1, "memory": "1Gi"})], {"cpu": 2, "memory": "2Gi"})
    gpu = fed.ExpansionOption("gpu", 1, [continuum.Resources({"cpu": 1, "memory": "1Gi"})], {"cpu": "3500m", "memory": "4Gi", "nvidia.com/gpu": 1})
    assert gpu.has_gpu() and not standard.has_gpu()
    assert fed.price_score(standard, pricing, 1).score == 2.0
    assert fed.price_score(gpu, pricing, 1).score == 13000.0
    assert fed.price([gpu, standard], pricing, 1).kept == [1]
    choice = fed.ExpanderChain("least-waste,price").choose([standard, gpu], pricing=pricing, cluster_node_count=1, seed=3)
    assert choice.best is not None and choice.reason.startswith(("standard", "gpu"))
    assert fed.random_option([a, b], 5) == fed.random_option([a, b], 5)
    with pytest.raises(continuum.ParseError):
        fed.ExpanderChain("cheapest")


def test_price_expander_upstream_table_and_skipped_prices():
    """price_test.go TestPriceExpander, first and error cases: prices by group and pod name, None = no price."""
    p1 = fed.ExpansionPod("p1", {"cpu": "1"})
    p2 = fed.ExpansionPod("p2", {"cpu": "500m"}, labels={"app": "web"}, namespace="shop")
    assert repr(p2) == "ExpansionPod('shop/p2', {cpu: 500m})"
    ng1 = fed.ExpansionOption("ng1", 2, [p1, p2], {"cpu": "1", "memory": 1000})
    ng2 = fed.ExpansionOption("ng2", 1, [p1, p2], {"cpu": "4", "memory": 1000})

    def model(nodes, pods):
        return fed.PricingModel(node_price=lambda o: nodes.get(o.node_group), pod_price=lambda p: pods.get(p.name))

    pods = {"p1": 20.0, "p2": 10.0, "stabilize": 10.0}
    cheaper = model({"ng1": 20.0, "ng2": 200.0}, pods)
    result = fed.price([ng1, ng2], cheaper, preferred_node={"cpu": "2", "memory": "1Gi"})
    assert result.kept == [0] and result.warnings == []
    assert fed.price_score(ng2, cheaper, preferred_node={"cpu": "2"}).score == pytest.approx(210 / 40 * 2)
    preferred = model({"ng1": 50.0, "ng2": 200.0}, pods)
    assert fed.price([ng1, ng2], preferred, preferred_node={"cpu": "4"}).kept == [1]
    none = fed.price([ng1, ng2], model({}, {}), preferred_node={"cpu": "2"})
    assert none.kept == []
    assert none.warnings == ["Failed to get price for stabilization pod: continuing without stabilization",
                             "Failed to calculate node price for ng1", "Failed to calculate node price for ng2"]
    # A pod without a price skips its option; the stabilisation term is dropped when it has no price.
    partial = model({"ng1": 1.0, "ng2": 5.0}, {"p1": 2.0})
    only_p1 = fed.ExpansionOption("ng2", 1, [p1], {"cpu": "2", "memory": "1Gi"})
    r = fed.price([ng1, only_p1], partial, cluster_node_count=5)
    assert r.kept == [1] and r.warnings[-1] == "Failed to calculate pod price for shop/p2"
    s = fed.price_score(only_p1, partial, cluster_node_count=5)
    assert s.scored and s.stabilization_price == 0.0 and s.score == 2.5
    assert not fed.price_score(ng1, partial, 5).scored
    # The template: labels (the provider's GPU label), taints, allocatable.
    labelled = fed.ExpansionOption("t4", 1, [p1], {"cpu": "2", "memory": "2Gi"}, node_labels={"cloud.google.com/gke-accelerator": "t4"},
                                   node_taints=[fed.Taint("nvidia.com/gpu", "present", "NoSchedule")], node_allocatable={"cpu": "1900m", "memory": "2Gi"})
    assert labelled.node_allocatable == continuum.Resources({"cpu": "1900m", "memory": "2Gi"})
    assert labelled.node_taints == [fed.Taint("nvidia.com/gpu", "present")]
    assert labelled.has_gpu("cloud.google.com/gke-accelerator") and not labelled.has_gpu()
    flat = fed.PricingModel(node_price=lambda o: 1.0, pod_price=lambda p: 1.0)
    assert fed.price_score(labelled, flat, 1, gpu_label="cloud.google.com/gke-accelerator").score == 1000.0
    with pytest.raises(continuum.InvalidArgument, match="effect must be"):
        fed.ExpansionOption("x", 1, [], {"cpu": 1}, node_taints=[fed.Taint("k", "v", "Evict")])


def test_chains_take_python_filters_and_fallbacks():
    """chain_test.go TestChainStrategy_BestOption, with Python callables as filters and strategies."""
    def substring(s):
        def keep(options, among):
            return [i for i in among if s in options[i].node_group]
        return keep

    def first_with(s):
        def pick(options, among):
            kept = substring(s)(options, among)
            return kept[0] if kept else None
        return pick

    def best(stages, fallback, groups):
        options = [fed.ExpansionOption(g, 1, [], {"cpu": 2, "memory": "4Gi"}) for g in groups]
        choice = fed.ExpanderChain(stages, fallback=fallback).choose(options)
        return None if choice.best is None else groups[choice.best]

    assert best([], first_with("a"), ["b", "a"]) == "a"                                        # selects with no filters
    assert best([("sub-a", substring("a"))], first_with("b"), ["ab", "b"]) == "ab"              # one filter
    assert best([("a", substring("a")), ("b", substring("b"))], first_with("x"), ["xab", "xa", "x"]) == "xab"
    assert best([("x", substring("x"))], first_with("a"), ["xc", "xaa", "xab"]) == "xaa"        # selects after filters
    assert best([("a", substring("a")), ("b", substring("b"))], first_with("x"), ["a"]) == "a"  # short circuits
    # Built-in names mix with callables; a filter may return a FilterResult with warnings.
    def no_spot(options, among):
        return fed.FilterResult([i for i in among if "spot" not in options[i].node_group], ["spot groups dropped"])
    options = [fed.ExpansionOption(g, 1, [], {"cpu": 2, "memory": "4Gi"}) for g in ("pool-spot", "pool-a", "pool-b")]
    chain = fed.ExpanderChain([no_spot, "least-waste"], fallback=("last", lambda opts, among: among[-1]))
    assert str(chain) == "no_spot,least-waste" and chain.fallback_name == "last"
    assert repr(chain) == "ExpanderChain('no_spot,least-waste', fallback='last')"
    choice = chain.choose(options)
    assert choice.best == 2 and choice.fallback_used and not choice.random_tie_break
    assert choice.warnings == ["spot groups dropped"]
    assert choice.stages == [[1, 2], [1, 2]]
    with pytest.raises(continuum.InvalidArgument, match="not among its candidates"):
        fed.ExpanderChain([("rogue", lambda o, a: [7])]).choose(options)
    with pytest.raises(continuum.InvalidArgument, match="needs ExpanderContext::priority"):
        fed.ExpanderChain("priority").choose(options)
    # Any callable can serve as the priority stage.
    assert fed.ExpanderChain("priority").choose(options, priorities=lambda o, among: [among[-1]]).best == 2


@pytest.mark.skipif(not fed.HAVE_PRIORITY_CONFIG, reason="built without yaml-cpp / RE2 (priority_config.hpp)")
def test_priority_configmap_as_upstream():
    r"""priority_test.go: the ConfigMap is YAML ("\\." in a double-quoted string is the regex "\."), patterns are RE2."""
    config = '\n5:\n  - ".*t2\\\\.micro.*"\n10: \n  - ".*t2\\\\.large.*"\n  - ".*t3\\\\.large.*"\n50: \n  - ".*m4\\\\.4xlarge.*"\n'
    tiers = fed.PriorityTiers(config)
    assert tiers.tiers[5] == [r".*t2\.micro.*"]
    groups = [fed.ExpansionOption(g, 1, [], {"cpu": 2, "memory": "4Gi"}) for g in ("my-asg.t2.large", "my-asg.t3.large", "my-asg.t2.micro", "my-asg.m4.4xlarge")]
    assert fed.priority(groups[:3], tiers).kept == [0, 1]
    assert fed.priority(groups, tiers).kept == [3]
    assert tiers(groups, [0, 2]).kept == [0]
    assert tiers.highest_match("my-asg.t2xmicro") is None
    one = fed.priority(groups[:2] + groups[3:], fed.PriorityTiers('10: \n  - ".*t2\\\\.large.*"\n'))
    assert one.kept == [0]
    assert one.warnings[0] == ("Warning PriorityConfigMapNotMatchedGroup Priority expander: node group my-asg.t3.large not found in "
                               "priority expander configuration. The group won't be used.")
    empty = fed.PriorityTiers("")
    assert not empty.configured and fed.priority(groups, empty).kept == [0, 1, 2, 3]
    assert "configmap is empty" in fed.priority(groups, empty).warnings[0]
    assert fed.PriorityTiers({10: [".*"], 50: ["^gpu"]}).highest_match("gpu-1") == 50
    with pytest.raises(continuum.ParseError, match="invalid escape sequence"):
        fed.PriorityTiers({1: [r"(a)\1"]})
    with pytest.raises(continuum.ParseError, match="is not an integer"):
        fed.PriorityTiers("ten:\n  - a\n")
    choice = fed.ExpanderChain("priority,least-waste").choose(groups, priorities=tiers)
    assert choice.best == 3 and choice.stages == [[3]]


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
    assert catalogue.canonical_capacity("cpu") == [o.capacity.canonical("cpu") for o in offers]
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
