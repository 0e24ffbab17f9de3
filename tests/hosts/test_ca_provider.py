"""continuum-ca-provider through its real protocol: the server on 127.0.0.1 (a free port), a Python
client generated at build time from the same vendored protos (protoc + grpc_python_plugin), seed
000's Table 1 testbed driven through the RPCs, decisions compared with plan_scale_out called
directly (hosts_ca_reference_plan), kill -9 and restart, hooks, bad requests and mTLS.

Run by ctest (label `hosts`), which sets CA_PROVIDER, CA_REFERENCE_PLAN, HOSTS_PYTHON_DIR and
CONTINUUM_SOURCE_DIR."""
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys

import grpc
import pytest

sys.path.insert(0, os.environ["HOSTS_PYTHON_DIR"])
import externalgrpc_pb2 as pb  # noqa: E402
import externalgrpc_pb2_grpc as pb_grpc  # noqa: E402
from k8s import core_v1_pb2 as core  # noqa: E402

PROVIDER = os.environ["CA_PROVIDER"]
REFERENCE = os.environ["CA_REFERENCE_PLAN"]
SOURCE = pathlib.Path(os.environ["CONTINUUM_SOURCE_DIR"])
SEED000 = SOURCE / "examples/hosts/ca-provider/seed000.yaml"
HOOK = SOURCE / "tests/hosts/record_hook.py"
MIB, GIB = 2**20, 2**30


class Provider:
    """One continuum-ca-provider process and a client stub."""

    def __init__(self, folder, config, extra=(), credentials=None):
        self.folder = pathlib.Path(folder)
        self.args = [PROVIDER, "--listen", "127.0.0.1:0", "--config", str(config), "--state", str(self.folder / "state.json"), *extra]
        self.credentials = credentials
        self.start()

    def start(self):
        self.process = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert line.startswith("listening on 127.0.0.1:"), (line, self.process.stderr.read() if self.process.poll() is not None else "")
        self.address = line.split()[-1]
        if self.credentials is None:
            self.channel = grpc.insecure_channel(self.address)
        else:
            self.channel = grpc.secure_channel(self.address, self.credentials, options=[("grpc.ssl_target_name_override", "localhost")])
        self.stub = pb_grpc.CloudProviderStub(self.channel)

    def kill9(self):
        self.channel.close()
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self):
        self.channel.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            assert self.process.wait(timeout=10) == 0
        self.process.stdout.close()
        self.process.stderr.close()

    def state(self):
        return json.loads((self.folder / "state.json").read_text())

    # RPC shorthands
    def target(self, group):
        return self.stub.NodeGroupTargetSize(pb.NodeGroupTargetSizeRequest(id=group)).targetSize

    def increase(self, group, delta):
        return self.stub.NodeGroupIncreaseSize(pb.NodeGroupIncreaseSizeRequest(id=group, delta=delta))

    def instances(self, group):
        response = self.stub.NodeGroupNodes(pb.NodeGroupNodesRequest(id=group))
        return {i.id: pb.InstanceStatus.InstanceState.Name(i.status.instanceState) for i in response.instances}

    def refresh(self):
        self.stub.Refresh(pb.RefreshRequest())


def pod_json(name, cpu="500m", memory="256Mi", namespace="stress", selector=None):
    spec = {"containers": [{"name": "stress-ng", "resources": {"requests": {"cpu": cpu, "memory": memory}}}]}
    if selector:
        spec["nodeSelector"] = selector
    return {"metadata": {"name": name, "namespace": namespace}, "spec": spec}


def write_pending(folder, pods):
    (pathlib.Path(folder) / "pending-pods.json").write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": pods}))


def pod_bytes(name, containers, init=(), namespace="stress", selector=None):
    pod = core.Pod()
    pod.metadata.name = name
    pod.metadata.namespace = namespace
    for i, requests in enumerate(containers):
        c = pod.spec.containers.add(name=f"c{i}")
        for resource, quantity in requests.items():
            c.resources.requests[resource].string = quantity
    for i, requests in enumerate(init):
        c = pod.spec.initContainers.add(name=f"init{i}")
        for resource, quantity in requests.items():
            c.resources.requests[resource].string = quantity
    for key, value in (selector or {}).items():
        pod.spec.nodeSelector[key] = value
    return pod.SerializeToString()


def timestamps(seconds):
    from google.protobuf.timestamp_pb2 import Timestamp

    return Timestamp(seconds=1_700_000_000), Timestamp(seconds=1_700_000_000 + seconds)


def hook_calls(log):
    path = pathlib.Path(log)
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def reference_plan(folder, offers, pods, nodes=()):
    """plan_scale_out called directly (C++), on the same offers, pods and existing nodes."""
    path = pathlib.Path(folder) / "reference-input.json"
    path.write_text(json.dumps({"offers": offers, "pods": pods, "nodes": list(nodes)}))
    return json.loads(subprocess.run([REFERENCE, str(path)], check=True, capture_output=True, text=True).stdout)


TABLE1_LOW_COST = [{"cluster_id": c, "capacity": {"cpu": "2", "memory": "4Gi"}, "node_price": 1.0} for c in ("pr1-a", "pr1-b", "pr1-c")]
TABLE1_HIGH_COST = [{"cluster_id": "pr2", "capacity": {"cpu": "4", "memory": "4Gi"}, "node_price": 5.0}]


def created_nodes(state, group, names):
    """The provider's record of the nodes `names`, as (cluster_id, sorted pods, reserved) triples."""
    by_name = {n["name"]: n for n in state["nodes"]}
    return sorted((by_name[n]["cluster_id"], sorted(p["name"] for p in by_name[n]["pods"]), by_name[n]["reserved"]) for n in names if by_name[n]["group"] == group)


def reference_nodes(decision):
    return sorted((p["cluster_id"], sorted(n["pods"]), n["reserved"]) for p in decision["peerings"] for n in p["nodes"])


def existing_for_reference(state, group):
    return [
        {"name": n["name"], "cluster_id": n["cluster_id"], "allocatable": n["reserved"], "cost": n["cost"], "pods": n["pods"]}
        for n in state["nodes"]
        if n["group"] == group
    ]


@pytest.fixture
def seed000(tmp_path):
    """Seed 000's Table 1 configuration (shipped with the provider), with the recording hooks."""
    shutil.copy(SEED000, tmp_path / "seed000.yaml")
    write_pending(tmp_path, [])
    log = tmp_path / "hooks.log"
    hooks = ["--on-scale-up", f"{HOOK} {log} up", "--on-scale-down", f"{HOOK} {log} down", "--hook-timeout", "2"]
    provider = Provider(tmp_path, tmp_path / "seed000.yaml", hooks)
    yield provider, tmp_path, log
    provider.stop()


def test_node_groups_template_and_options(seed000):
    provider, _, _ = seed000
    groups = provider.stub.NodeGroups(pb.NodeGroupsRequest()).nodeGroups
    assert [(g.id, g.minSize, g.maxSize) for g in groups] == [("low-cost", 0, 3), ("high-cost", 0, 1)]

    response = provider.stub.NodeGroupTemplateNodeInfo(pb.NodeGroupTemplateNodeInfoRequest(id="low-cost"))
    assert not response.nodeBytes.startswith(b"k8s\x00")  # plain v1.Node bytes, as CA's Unmarshal expects
    node = core.Node()
    node.ParseFromString(response.nodeBytes)
    assert node.metadata.labels["continuum.io/category"] == "low-cost"
    assert node.metadata.labels["continuum.io/node-group"] == "low-cost"
    assert node.metadata.labels["continuum.io/offer"] == "pr1-a"  # cheapest with room, then by id
    assert node.metadata.labels["liqo.io/type"] == "virtual-node"
    assert [(t.key, t.value, t.effect) for t in node.spec.taints] == [("virtual-node.liqo.io/not-allowed", "true", "NoExecute")]
    assert {k: v.string for k, v in node.status.capacity.items()} == {"cpu": "2", "memory": "4Gi", "pods": "110"}
    assert {k: v.string for k, v in node.status.allocatable.items()} == {"cpu": "2", "memory": "4Gi", "pods": "110"}
    high = core.Node.FromString(provider.stub.NodeGroupTemplateNodeInfo(pb.NodeGroupTemplateNodeInfoRequest(id="high-cost")).nodeBytes)
    assert high.status.capacity["cpu"].string == "4"

    from google.protobuf.duration_pb2 import Duration

    defaults = pb.NodeGroupAutoscalingOptions(
        scaleDownUtilizationThreshold=0.7, scaleDownGpuUtilizationThreshold=0.6, scaleDownUnneededDuration=Duration(seconds=120), scaleDownUnreadyDuration=Duration(seconds=1200)
    )
    options = provider.stub.NodeGroupGetOptions(pb.NodeGroupAutoscalingOptionsRequest(id="low-cost", defaults=defaults)).nodeGroupAutoscalingOptions
    assert options.scaleDownUtilizationThreshold == 0.5  # seed000.yaml's scale_in
    assert options.scaleDownGpuUtilizationThreshold == 0.6  # not configured: CA's default kept
    assert options.scaleDownUnneededDuration.seconds == 600
    assert options.scaleDownUnreadyDuration.seconds == 1200

    provider.stub.Cleanup(pb.CleanupRequest())  # writes the state file (no node yet)
    ledger = {"schema": "continuum.Ledger", "version": 1, "last_id": 0, "reservations": []}
    state = provider.state()
    assert {k: v for k, v in state.items() if k != "ledger"} == {"version": 2, "next_serial": 1, "nodes": []}
    assert {k: v for k, v in state["ledger"].items() if k != "providers"} == ledger
    assert sorted(p["cluster_id"] for p in state["ledger"]["providers"]) == ["pr1-a", "pr1-b", "pr1-c", "pr2"]
    assert provider.stub.GPULabel(pb.GPULabelRequest()).label == "nvidia.com/gpu.present"
    assert dict(provider.stub.GetAvailableGPUTypes(pb.GetAvailableGPUTypesRequest()).gpuTypes) == {}


def test_seed000_scenario_through_the_rpcs(seed000):
    """Fig. 2's rise: the replicas beyond the local node's 4 become pending pods; CA scales the
    low-cost group (its price expander prefers 1 $/min nodes), then the high-cost one; the decisions
    equal plan_scale_out's; a kill -9 in the middle loses nothing; CA's scale-down removes them."""
    provider, folder, log = seed000
    # 6 pending stress-ng pods (replicas 5..10).
    first = [pod_json(f"stress-ng-{i:02}") for i in range(6)]
    write_pending(folder, first)
    provider.refresh()
    provider.increase("low-cost", 2)
    assert provider.target("low-cost") == 2
    assert provider.instances("low-cost") == {"liqo://pr1-a": "instanceCreating", "liqo://pr1-b": "instanceCreating"}
    state = provider.state()
    expected = reference_plan(folder, TABLE1_LOW_COST, [{"name": f"stress/{p['metadata']['name']}", "request": {"cpu": "500m", "memory": "256Mi"}} for p in first])
    assert expected["cost"] == 2.0 and len(reference_nodes(expected)) == 2
    assert created_nodes(state, "low-cost", ["liqo-pr1-a", "liqo-pr1-b"]) == reference_nodes(expected)
    [call] = hook_calls(log)
    assert call["argv"] == ["up"] and call["stdin"]["action"] == "scale-up" and call["stdin"]["node_group"] == "low-cost"
    assert sorted(n["cluster_id"] for n in call["stdin"]["nodes"]) == ["pr1-a", "pr1-b"]
    assert all(n["reserved"] == {"cpu": "2", "memory": "4Gi"} and n["cost"] == 1.0 and n["provider"] == "Pr1" for n in call["stdin"]["nodes"])

    # The virtual node liqo-pr1-a registers: CA asks for its group, and it is running from then on.
    group = provider.stub.NodeGroupForNode(pb.NodeGroupForNodeRequest(node=pb.ExternalGrpcNode(providerID="liqo://pr1-a", name="liqo-pr1-a"))).nodeGroup
    assert group.id == "low-cost"
    assert provider.instances("low-cost")["liqo://pr1-a"] == "instanceRunning"
    local = provider.stub.NodeGroupForNode(pb.NodeGroupForNodeRequest(node=pb.ExternalGrpcNode(providerID="kind://local", name="local"))).nodeGroup
    assert local.id == ""

    # kill -9 in the middle of the run, restart from the state file: nothing lost. The Ledger is
    # restored from its own state document (reservation ids included: a new one continues after them).
    before = provider.state()
    assert sorted(r["id"] for r in before["ledger"]["reservations"]) == sorted(n["reservation"] for n in before["nodes"]) == [1, 2]
    assert before["ledger"]["last_id"] == 2
    provider.kill9()
    provider.start()
    assert provider.state() == before
    assert provider.target("low-cost") == 2 and provider.target("high-cost") == 0
    assert provider.instances("low-cost") == {"liqo://pr1-a": "instanceRunning", "liqo://pr1-b": "instanceCreating"}

    # The rise goes on: 6 more pods. Two fit in liqo-pr1-b's free room, four need one more node;
    # the reservations restored from the state keep pr1-a and pr1-b taken, so it is pr1-c.
    second = [pod_json(f"stress-ng-{i:02}") for i in range(6, 12)]
    write_pending(folder, first + second)
    provider.refresh()
    existing = existing_for_reference(provider.state(), "low-cost")
    provider.increase("low-cost", 1)
    expected = reference_plan(folder, TABLE1_LOW_COST, [{"name": f"stress/{p['metadata']['name']}", "request": {"cpu": "500m", "memory": "256Mi"}} for p in second], existing)
    assert reference_nodes(expected) == created_nodes(provider.state(), "low-cost", ["liqo-pr1-c"])
    assert next(n for n in provider.state()["nodes"] if n["name"] == "liqo-pr1-c")["reservation"] == 3
    assert [c for c, pods, _ in reference_nodes(expected)] == ["pr1-c"] and len(reference_nodes(expected)[0][1]) == 4
    placements = hook_calls(log)[-1]["stdin"]["existing_node_placements"]
    assert placements == expected["existing_node_placements"] and [p["node"] for p in placements] == ["liqo-pr1-b", "liqo-pr1-b"]
    pr1_b = next(n for n in provider.state()["nodes"] if n["name"] == "liqo-pr1-b")
    assert sorted(p["name"] for p in pr1_b["pods"])[-2:] == sorted(p["pod"] for p in placements)
    assert provider.target("low-cost") == 3
    with pytest.raises(grpc.RpcError) as error:
        provider.increase("low-cost", 1)
    assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "exceeds max size 3" in error.value.details()

    # Peak (16 replicas): 4 more pods go to the high-cost node, the only group with room.
    third = [pod_json(f"stress-ng-{i:02}") for i in range(12, 16)]
    write_pending(folder, first + second + third)
    provider.refresh()
    provider.increase("high-cost", 1)
    expected = reference_plan(folder, TABLE1_HIGH_COST, [{"name": f"stress/{p['metadata']['name']}", "request": {"cpu": "500m", "memory": "256Mi"}} for p in third])
    assert created_nodes(provider.state(), "high-cost", ["liqo-pr2"]) == reference_nodes(expected)
    assert expected["cost"] == 5.0

    # Prices (Table 1, $ per minute): the high-cost node for 2 minutes, a low-cost template node for
    # 10 minutes, a stress-ng pod for one minute (its dominant share, 1/4 of a low-cost node).
    start, end = timestamps(120)
    node = pb.ExternalGrpcNode(providerID="liqo://pr2", name="liqo-pr2")
    assert provider.stub.PricingNodePrice(pb.PricingNodePriceRequest(node=node, startTimestamp=start, endTimestamp=end)).price == pytest.approx(10.0)
    template = core.Node.FromString(provider.stub.NodeGroupTemplateNodeInfo(pb.NodeGroupTemplateNodeInfoRequest(id="low-cost")).nodeBytes)
    start, end = timestamps(600)
    template_node = pb.ExternalGrpcNode(name="template-node-for-low-cost", labels=dict(template.metadata.labels))
    assert provider.stub.PricingNodePrice(pb.PricingNodePriceRequest(node=template_node, startTimestamp=start, endTimestamp=end)).price == pytest.approx(10.0)
    start, end = timestamps(60)
    pod = pod_bytes("stress-ng-99", [{"cpu": "500m", "memory": "256Mi"}])
    assert provider.stub.PricingPodPrice(pb.PricingPodPriceRequest(pod_bytes=pod, startTimestamp=start, endTimestamp=end)).price == pytest.approx(0.25)
    # Effective request: max(sum of containers, largest init container): 1500m on a 2-core node -> 0.75.
    pod = pod_bytes("p", [{"cpu": "500m"}, {"cpu": "1"}], init=[{"cpu": "1200m"}])
    assert provider.stub.PricingPodPrice(pb.PricingPodPriceRequest(pod_bytes=pod, startTimestamp=start, endTimestamp=end)).price == pytest.approx(0.75)
    # A pod selecting the high-cost category pays its share of the 5 $/min node: 2 of 4 cores.
    pod = pod_bytes("q", [{"cpu": "2"}], selector={"continuum.io/category": "high-cost"})
    assert provider.stub.PricingPodPrice(pb.PricingPodPriceRequest(pod_bytes=pod, startTimestamp=start, endTimestamp=end)).price == pytest.approx(2.5)

    # The fall: CA's scale-down deletes the expensive node first, then the low-cost ones.
    provider.stub.NodeGroupDeleteNodes(pb.NodeGroupDeleteNodesRequest(id="high-cost", nodes=[pb.ExternalGrpcNode(providerID="liqo://pr2", name="liqo-pr2")]))
    assert provider.target("high-cost") == 0
    down = hook_calls(log)[-1]
    assert down["argv"] == ["down"] and down["stdin"]["action"] == "scale-down" and [n["name"] for n in down["stdin"]["nodes"]] == ["liqo-pr2"]
    provider.stub.NodeGroupDeleteNodes(
        pb.NodeGroupDeleteNodesRequest(id="low-cost", nodes=[pb.ExternalGrpcNode(providerID=f"liqo://pr1-{c}") for c in "bc"])
    )
    assert provider.instances("low-cost") == {"liqo://pr1-a": "instanceRunning"}
    assert [n["name"] for n in provider.state()["nodes"]] == ["liqo-pr1-a"]
    # Room again: a new scale-up of one node peers with a freed offer (pr1-b: cheapest, then by id).
    write_pending(folder, [pod_json("late")])
    provider.refresh()
    provider.increase("low-cost", 1)
    assert set(provider.instances("low-cost")) == {"liqo://pr1-a", "liqo://pr1-b"}
    # It never registered: CA cancels it with NodeGroupDecreaseTargetSize (unpeer, release).
    provider.stub.NodeGroupDecreaseTargetSize(pb.NodeGroupDecreaseTargetSizeRequest(id="low-cost", delta=-1))
    assert provider.instances("low-cost") == {"liqo://pr1-a": "instanceRunning"}
    assert hook_calls(log)[-1]["stdin"]["reason"] == "NodeGroupDecreaseTargetSize"
    with pytest.raises(grpc.RpcError) as error:  # liqo-pr1-a has registered: only DeleteNodes removes it
        provider.stub.NodeGroupDecreaseTargetSize(pb.NodeGroupDecreaseTargetSizeRequest(id="low-cost", delta=-1))
    assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "not registered" in error.value.details()


def test_ca_decides_how_many_continuum_decides_which(seed000):
    """CA asks for fewer nodes than the plan needs: the nodes hosting most pods come first, and the
    next scale-up plans the pods left. Pods selecting another category never count for a group;
    a pod whose required node affinity has several (ORed) terms is left to CA alone."""
    provider, folder, log = seed000
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "continuum.io/category", "operator": "In", "values": ["high-cost"]}]}]}}}
    two_terms = json.loads(json.dumps(affinity))
    two_terms["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"] *= 2
    pinned = pod_json("pinned")
    pinned["spec"]["affinity"] = affinity
    either = pod_json("either")
    either["spec"]["affinity"] = two_terms
    pods = [pod_json(f"p{i}") for i in range(5)] + [pod_json("big", cpu="1500m"), pod_json("sel", selector={"continuum.io/category": "high-cost"}), pinned, either]
    write_pending(folder, pods)
    provider.refresh()
    provider.increase("low-cost", 1)
    [node] = provider.state()["nodes"]
    # 5 x 500m + 1500m on 2-core nodes: the plan opens 2 nodes (big + 1 small, 4 small); the one with 4 pods comes first.
    plan = reference_plan(folder, TABLE1_LOW_COST, [{"name": f"stress/{p['metadata']['name']}", "request": {"cpu": p["spec"]["containers"][0]["resources"]["requests"]["cpu"], "memory": "256Mi"}} for p in pods[:6]])
    assert sorted(len(n[1]) for n in reference_nodes(plan)) == [2, 4]
    [(cluster, four, _)] = [n for n in reference_nodes(plan) if len(n[1]) == 4]
    assert (node["cluster_id"], sorted(p["name"] for p in node["pods"])) == (cluster, four)
    provider.increase("low-cost", 1)
    second = next(n for n in provider.state()["nodes"] if n["name"] != node["name"])
    assert sorted(p["name"] for p in second["pods"]) == sorted({"stress/big", *(f"stress/p{i}" for i in range(5))} - {p["name"] for p in node["pods"]})
    provider.increase("high-cost", 1)
    [high] = [n for n in provider.state()["nodes"] if n["group"] == "high-cost"]
    assert sorted(p["name"] for p in high["pods"]) == ["stress/pinned", "stress/sel"]
    assert "stress/either" not in json.dumps(provider.state())


def test_hook_failure_and_timeout_change_nothing(seed000):
    provider, folder, log = seed000
    write_pending(folder, [pod_json("a"), pod_json("b")])
    provider.refresh()
    (folder / "hooks.log.fail").write_text("")
    with pytest.raises(grpc.RpcError) as error:
        provider.increase("low-cost", 1)
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE
    assert "--on-scale-up hook" in error.value.details() and "exited with status 3" in error.value.details() and "nothing was changed" in error.value.details()
    assert provider.target("low-cost") == 0 and not (folder / "state.json").exists()
    (folder / "hooks.log.fail").unlink()
    (folder / "hooks.log.hang").write_text("")
    with pytest.raises(grpc.RpcError) as error:
        provider.increase("low-cost", 1)
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE and "timed out after 2000 ms" in error.value.details()
    assert provider.target("low-cost") == 0
    (folder / "hooks.log.hang").unlink()
    provider.increase("low-cost", 1)  # the reservations of the failed attempts were released
    assert provider.instances("low-cost") == {"liqo://pr1-a": "instanceCreating"}
    # A failing scale-down hook keeps the node and its reservation.
    (folder / "hooks.log.fail").write_text("")
    with pytest.raises(grpc.RpcError) as error:
        provider.stub.NodeGroupDeleteNodes(pb.NodeGroupDeleteNodesRequest(id="low-cost", nodes=[pb.ExternalGrpcNode(providerID="liqo://pr1-a")]))
    assert error.value.code() == grpc.StatusCode.UNAVAILABLE and "--on-scale-down hook" in error.value.details()
    assert provider.target("low-cost") == 1 and len(provider.state()["nodes"]) == 1
    assert [c["argv"] for c in hook_calls(log)] == [["up"]]


def expect(code, words, call, *args):
    with pytest.raises(grpc.RpcError) as error:
        call(*args)
    assert error.value.code() == code, error.value.details()
    for word in words:
        assert word in error.value.details()


def test_bad_requests_get_the_right_status_and_the_server_keeps_serving(seed000):
    provider, folder, _ = seed000
    s = provider.stub
    NOT_FOUND, INVALID, PRECONDITION, UNAVAILABLE = (
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.UNAVAILABLE,
    )
    expect(NOT_FOUND, ["unknown node group \"gpu\""], s.NodeGroupTargetSize, pb.NodeGroupTargetSizeRequest(id="gpu"))
    expect(NOT_FOUND, ["unknown node group \"gpu\""], s.NodeGroupIncreaseSize, pb.NodeGroupIncreaseSizeRequest(id="gpu", delta=1))
    expect(NOT_FOUND, ["\"gpu\""], s.NodeGroupNodes, pb.NodeGroupNodesRequest(id="gpu"))
    expect(NOT_FOUND, ["\"gpu\""], s.NodeGroupTemplateNodeInfo, pb.NodeGroupTemplateNodeInfoRequest(id="gpu"))
    expect(NOT_FOUND, ["\"gpu\""], s.NodeGroupGetOptions, pb.NodeGroupAutoscalingOptionsRequest(id="gpu"))
    expect(INVALID, ["delta must be positive, got -2"], s.NodeGroupIncreaseSize, pb.NodeGroupIncreaseSizeRequest(id="low-cost", delta=-2))
    expect(INVALID, ["delta must be positive, got 0"], s.NodeGroupIncreaseSize, pb.NodeGroupIncreaseSizeRequest(id="low-cost", delta=0))
    expect(PRECONDITION, ["size 0 + delta 4 exceeds max size 3"], s.NodeGroupIncreaseSize, pb.NodeGroupIncreaseSizeRequest(id="low-cost", delta=4))
    expect(INVALID, ["delta must be negative, got 1"], s.NodeGroupDecreaseTargetSize, pb.NodeGroupDecreaseTargetSizeRequest(id="low-cost", delta=1))
    expect(NOT_FOUND, ["liqo://nowhere"], s.NodeGroupDeleteNodes, pb.NodeGroupDeleteNodesRequest(id="low-cost", nodes=[pb.ExternalGrpcNode(providerID="liqo://nowhere")]))
    expect(INVALID, ["no nodes to delete"], s.NodeGroupDeleteNodes, pb.NodeGroupDeleteNodesRequest(id="low-cost"))
    start, end = timestamps(60)
    expect(INVALID, ["not a protobuf-encoded v1.Pod"], s.PricingPodPrice, pb.PricingPodPriceRequest(pod_bytes=b"\x0a\xff\xff", startTimestamp=start, endTimestamp=end))
    expect(INVALID, ["pod_bytes is empty"], s.PricingPodPrice, pb.PricingPodPriceRequest(startTimestamp=start, endTimestamp=end))
    bad_quantity = pod_bytes("bad", [{"cpu": "lots"}])
    expect(INVALID, ["stress/bad", "containers[0]", "lots"], s.PricingPodPrice, pb.PricingPodPriceRequest(pod_bytes=bad_quantity, startTimestamp=start, endTimestamp=end))
    huge = pod_bytes("huge", [{"cpu": "64"}])
    expect(PRECONDITION, ["no offer can host pod stress/huge"], s.PricingPodPrice, pb.PricingPodPriceRequest(pod_bytes=huge, startTimestamp=start, endTimestamp=end))
    expect(INVALID, ["endTimestamp is 60 s before startTimestamp"], s.PricingPodPrice, pb.PricingPodPriceRequest(pod_bytes=huge, startTimestamp=end, endTimestamp=start))
    expect(INVALID, ["startTimestamp and endTimestamp are required"], s.PricingNodePrice, pb.PricingNodePriceRequest(node=pb.ExternalGrpcNode(providerID="liqo://pr2")))
    expect(NOT_FOUND, ["not managed"], s.PricingNodePrice, pb.PricingNodePriceRequest(node=pb.ExternalGrpcNode(providerID="aws://i-1", name="i-1"), startTimestamp=start, endTimestamp=end))
    # A pending pods file that turned to garbage: Refresh is UNAVAILABLE, the last good list stays.
    write_pending(folder, [pod_json("ok")])
    provider.refresh()
    (folder / "pending-pods.json").write_text("{not json")
    expect(UNAVAILABLE, ["pending-pods.json", "keeping the previous 1 pending pods"], s.Refresh, pb.RefreshRequest())
    write_pending(folder, [pod_json("x", cpu="1 core")])
    expect(UNAVAILABLE, ["items[0]", "stress/x"], s.Refresh, pb.RefreshRequest())
    # Still serving, nothing changed.
    assert provider.process.poll() is None
    assert [g.id for g in s.NodeGroups(pb.NodeGroupsRequest()).nodeGroups] == ["low-cost", "high-cost"]
    assert provider.target("low-cost") == 0
    provider.increase("low-cost", 1)
    assert provider.state()["nodes"][0]["pods"] == [{"name": "stress/ok", "request": {"cpu": 500, "memory": 256 * MIB}}]
    # A node of another group.
    expect(INVALID, ["belongs to node group low-cost, not high-cost"], s.NodeGroupDeleteNodes, pb.NodeGroupDeleteNodesRequest(id="high-cost", nodes=[pb.ExternalGrpcNode(providerID="liqo://pr1-a")]))


def test_json_config_gpu_offers_and_cost_models(tmp_path):
    config = {
        "cost_model": "monetary",
        "price_period": "1h",
        "node_groups": [
            {
                "id": "gpu",
                "scale_in": {"gpu_utilization_threshold": 0.3},
                "offers": [
                    {"cluster_id": "edge-gpu", "capacity": {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": "1", "pods": "30"},
                     "labels": {"nvidia.com/gpu.product": "A100"}, "unit_prices": {"cpu": 0.25, "nvidia.com/gpu": 2.0}, "max_nodes": 2}
                ],
            }
        ],
    }
    (tmp_path / "config.json").write_text(json.dumps(config))
    provider = Provider(tmp_path, tmp_path / "config.json")
    try:
        assert dict(provider.stub.GetAvailableGPUTypes(pb.GetAvailableGPUTypesRequest()).gpuTypes).keys() == {"A100"}
        node = core.Node.FromString(provider.stub.NodeGroupTemplateNodeInfo(pb.NodeGroupTemplateNodeInfoRequest(id="gpu")).nodeBytes)
        assert {k: v.string for k, v in node.status.capacity.items()} == {"cpu": "8", "memory": "32Gi", "nvidia.com/gpu": "1", "pods": "30"}
        start, end = timestamps(1800)
        # Unit-priced: 2 cores and one GPU per hour = 0.5 + 2.0; half an hour.
        pod = pod_bytes("train", [{"cpu": "2", "nvidia.com/gpu": "1"}], namespace="ml")
        assert provider.stub.PricingPodPrice(pb.PricingPodPriceRequest(pod_bytes=pod, startTimestamp=start, endTimestamp=end)).price == pytest.approx(1.25)
        options = provider.stub.NodeGroupGetOptions(pb.NodeGroupAutoscalingOptionsRequest(id="gpu", defaults=pb.NodeGroupAutoscalingOptions(scaleDownUtilizationThreshold=0.5)))
        assert options.nodeGroupAutoscalingOptions.scaleDownGpuUtilizationThreshold == pytest.approx(0.3)
        assert options.nodeGroupAutoscalingOptions.scaleDownUtilizationThreshold == pytest.approx(0.5)
        # Without pending pods, a scale-up opens whole nodes; two nodes of one offer get distinct ids.
        provider.increase("gpu", 2)
        assert set(provider.instances("gpu")) == {"liqo://edge-gpu-1", "liqo://edge-gpu-2"}
    finally:
        provider.stop()


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda c: c["node_groups"][0]["offers"][0]["capacity"].update(cpu="two"), ["node_groups[0].offers[0].capacity", "two"]),
        (lambda c: c["node_groups"][0].update(max_size=9), ["node_groups[0].max_size", "(1)"]),
        (lambda c: c.update(cost_model="cheapest"), ["cost_model", "cheapest"]),
        (lambda c: c["node_groups"].append(json.loads(json.dumps(c["node_groups"][0]))), ["duplicate id \"g\""]),
        (lambda c: c["node_groups"][0]["offers"][0].update(node_price=-1), ["offer a: node_price must be finite and >= 0, got -1"]),
        (lambda c: c["node_groups"][0]["offers"][0].update(unit_prices={"cpu": "cheap"}), ["offers[0].unit_prices.cpu: must be a number", "cheap"]),
    ],
)
def test_bad_configuration_is_refused_naming_the_field(tmp_path, mutate, words):
    config = {"node_groups": [{"id": "g", "offers": [{"cluster_id": "a", "capacity": {"cpu": "1", "memory": "1Gi"}, "node_price": 1}]}]}
    mutate(config)
    (tmp_path / "config.json").write_text(json.dumps(config))
    result = subprocess.run([PROVIDER, "--listen", "127.0.0.1:0", "--config", str(tmp_path / "config.json")], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    for word in words:
        assert word in result.stderr


def test_mutual_tls(tmp_path):
    """As CA's externalgrpc client connects (cert, key and CA in its cloud-config): a client
    certificate signed by the CA is required."""
    openssl = shutil.which("openssl")
    assert openssl, "openssl is needed to make the test certificates"

    def run(*args):
        subprocess.run([openssl, *args], check=True, capture_output=True, cwd=tmp_path)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=test-ca")
    for name in ("server", "client"):
        run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", "/CN=localhost")
        (tmp_path / f"{name}.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", f"{name}.crt", "-days", "2", "-extfile", f"{name}.ext")
    read = lambda name: (tmp_path / name).read_bytes()  # noqa: E731
    shutil.copy(SEED000, tmp_path / "seed000.yaml")
    write_pending(tmp_path, [])
    tls = ["--tls-cert", str(tmp_path / "server.crt"), "--tls-key", str(tmp_path / "server.key"), "--tls-ca", str(tmp_path / "ca.crt")]
    credentials = grpc.ssl_channel_credentials(root_certificates=read("ca.crt"), private_key=read("client.key"), certificate_chain=read("client.crt"))
    provider = Provider(tmp_path, tmp_path / "seed000.yaml", tls, credentials)
    try:
        assert [g.id for g in provider.stub.NodeGroups(pb.NodeGroupsRequest()).nodeGroups] == ["low-cost", "high-cost"]
        anonymous = grpc.secure_channel(provider.address, grpc.ssl_channel_credentials(root_certificates=read("ca.crt")), options=[("grpc.ssl_target_name_override", "localhost")])
        with pytest.raises(grpc.RpcError) as error:
            pb_grpc.CloudProviderStub(anonymous).NodeGroups(pb.NodeGroupsRequest(), timeout=5)
        assert error.value.code() == grpc.StatusCode.UNAVAILABLE
        anonymous.close()
    finally:
        provider.stop()
    result = subprocess.run([PROVIDER, "--listen", "127.0.0.1:0", "--config", str(tmp_path / "seed000.yaml"), "--tls-cert", str(tmp_path / "server.crt")], capture_output=True, text=True)
    assert result.returncode == 1 and "needs all of --tls-cert, --tls-key and --tls-ca" in result.stderr


def test_missing_hook_program_and_bad_state_files(tmp_path):
    shutil.copy(SEED000, tmp_path / "seed000.yaml")
    write_pending(tmp_path, [])
    provider = Provider(tmp_path, tmp_path / "seed000.yaml", ["--on-scale-up", str(tmp_path / "no-such-hook")])
    try:
        expect(grpc.StatusCode.UNAVAILABLE, ["exited with status 127", "no-such-hook"], provider.increase, "low-cost", 1)
        assert provider.target("low-cost") == 0
    finally:
        provider.stop()
    config = str(tmp_path / "seed000.yaml")
    state = tmp_path / "state.json"
    state.write_text("{\"version\": 1, \"nodes\": [")
    result = subprocess.run([PROVIDER, "--listen", "127.0.0.1:0", "--config", config, "--state", str(state)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1 and "state" in result.stderr and "state.json" in result.stderr
    node = {"name": "liqo-gone", "provider_id": "liqo://gone", "group": "low-cost", "cluster_id": "gone", "serial": 1, "state": "running",
            "reserved": {"cpu": 1000}, "cost": 1.0, "pods": []}
    state.write_text(json.dumps({"version": 1, "next_serial": 2, "nodes": [node]}))
    result = subprocess.run([PROVIDER, "--listen", "127.0.0.1:0", "--config", config, "--state", str(state)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1 and "node liqo-gone" in result.stderr and "no longer has it" in result.stderr


def test_a_restarted_provider_decides_as_one_that_never_stopped(tmp_path):
    """Two providers on the same configuration and the same requests; one is killed (kill -9) after
    each request and restarted from its state file (the Ledger's state document and the nodes). Every
    answer and the final state are the same as the uninterrupted provider's."""
    runs = []
    for restart in (False, True):
        folder = tmp_path / ("restarted" if restart else "uninterrupted")
        folder.mkdir()
        shutil.copy(SEED000, folder / "seed000.yaml")
        write_pending(folder, [])
        provider = Provider(folder, folder / "seed000.yaml")
        answers = []
        try:
            pods = []
            for step, (group, delta) in enumerate([("low-cost", 1), ("low-cost", 1), ("high-cost", 1), ("low-cost", 1)]):
                pods += [pod_json(f"p-{step}-{i}") for i in range(3)]
                write_pending(folder, pods)
                provider.refresh()
                try:
                    provider.increase(group, delta)
                    answers.append(("ok", provider.target(group)))
                except grpc.RpcError as e:
                    answers.append((e.code().name, e.details()))
                if restart:
                    provider.kill9()
                    provider.start()
            provider.stub.NodeGroupDeleteNodes(pb.NodeGroupDeleteNodesRequest(id="low-cost", nodes=[pb.ExternalGrpcNode(providerID="liqo://pr1-a")]))
            if restart:
                provider.kill9()
                provider.start()
            provider.refresh()
            provider.increase("low-cost", 1)  # a freed offer, a new reservation id after the restored last id
            answers.append(sorted(provider.instances("low-cost")))
            runs.append((answers, provider.state()))
        finally:
            provider.stop()
    assert runs[0] == runs[1]
    answers, state = runs[0]
    assert [a for a in answers if a[0] == "ok"]
    assert state["ledger"]["last_id"] == max(n["reservation"] for n in state["nodes"]) > len(state["nodes"])  # ids are not reused


def test_bad_ledger_state_is_refused_naming_the_field(tmp_path):
    shutil.copy(SEED000, tmp_path / "seed000.yaml")
    write_pending(tmp_path, [pod_json("one")])
    provider = Provider(tmp_path, tmp_path / "seed000.yaml")
    try:
        provider.refresh()
        provider.increase("low-cost", 1)
    finally:
        provider.stop()
    good = json.loads((tmp_path / "state.json").read_text())
    config = str(tmp_path / "seed000.yaml")
    cases = [
        (lambda s: s["ledger"].update(version=3), "$.version: unsupported version 3 of continuum.Ledger"),
        (lambda s: s["ledger"]["reservations"][0].pop("consumer"), "$.reservations[0].consumer: missing field"),
        (lambda s: s["nodes"][0].update(reservation=7), "reservation 7 is not in the ledger"),
        (lambda s: s["ledger"]["providers"].pop(), "state.providers lacks offer"),
    ]
    for mutate, words in cases:
        state = json.loads(json.dumps(good))
        mutate(state)
        (tmp_path / "state.json").write_text(json.dumps(state))
        result = subprocess.run([PROVIDER, "--listen", "127.0.0.1:0", "--config", config, "--state", str(tmp_path / "state.json")],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 1 and words in result.stderr, (words, result.stderr)
