"""continuum-keda-scaler end to end: a real Prometheus backfilled with the Alibaba 2018 trace, the
scaler on a free port, KEDA's gRPC protocol through a client generated from the same proto. GetMetrics
must equal continuum's forecast of the same rows computed by the library directly; bad requests get
the right status and a message naming the problem, and the server keeps serving.

Run by ctest (label hosts), which sets KEDA_SCALER, KEDA_REFERENCE, KEDA_PYTHON_STUBS.
"""
from __future__ import annotations

import http.server
import subprocess
import os
import threading

import pytest

if "KEDA_SCALER" not in os.environ:
    pytest.skip("run through ctest (-L hosts): needs the built scaler and generated stubs", allow_module_level=True)

import grpc  # noqa: E402

import harness  # noqa: E402
from harness import STEP, ORIGIN, get_metrics, pb, ref, reference  # noqa: E402

LAST = 1539  # the newest row the scaler sees: "now" is inside step LAST
NOW = ORIGIN + LAST * STEP + 17
FIRST = LAST - 1440 + 1  # historyTimeWindow 5d = 1440 steps of 5m
BASE = {
    "query": "cluster_cpu_util",
    "queryStep": "5m",
    "threshold": "50",
    "activationThreshold": "30",
    "predictHorizon": "1h",  # 12 steps
    "historyTimeWindow": "5d",
    "seasons": "1d",  # 288 steps
    "model": "holt-winters",
    "refitInterval": "1h",
}


def meta(**changes: str) -> dict[str, str]:
    out = dict(BASE)
    for key, value in changes.items():
        if value is None:
            out.pop(key)
        else:
            out[key] = value
    return out


@pytest.fixture(scope="module")
def prometheus():
    p = harness.Prometheus({"cluster_cpu_util": harness.trace_column("cpu_util_percent"),
                            "cluster_mem_util": harness.trace_column("mem_util_percent")})
    yield p
    p.stop()


@pytest.fixture(scope="module")
def scaler(prometheus):
    s = harness.Scaler(prometheus.url, NOW)
    yield s
    assert s.stop() == 0, s.log()


def test_metric_spec_names_the_metric_and_the_threshold(scaler):
    spec = scaler.stub.GetMetricSpec(ref("web", meta(threshold="12.5", metricName="cpu-forecast")), timeout=30)
    assert [(m.metricName, m.targetSizeFloat, m.targetSize) for m in spec.metricSpecs] == [("cpu-forecast", 12.5, 13)]


def test_get_metrics_is_the_holt_winters_forecast_peak(scaler):
    value = get_metrics(scaler.stub, "hw", meta())
    assert value == reference(FIRST, 1440, 0, "holt-winters", 288, 12)
    assert 10.0 < value < 100.0  # CPU utilisation in percent
    # A second call in the same step is served from the model, with the same value.
    assert get_metrics(scaler.stub, "hw", meta()) == value


def test_level_returns_the_upper_bound_peak(scaler):
    value = get_metrics(scaler.stub, "hw-upper", meta(level="0.9"))
    assert value == reference(FIRST, 1440, 0, "holt-winters", 288, 12, 0.9)
    assert value > get_metrics(scaler.stub, "hw", meta())


def test_auto_model_is_the_portfolio_forecast_peak(scaler):
    value = get_metrics(scaler.stub, "auto", meta(model="auto"))
    assert value == reference(FIRST, 1440, 0, "auto", 288, 12)


def test_is_active_compares_the_forecast_with_the_activation_threshold(scaler):
    value = get_metrics(scaler.stub, "hw", meta())
    assert scaler.stub.IsActive(ref("hw", meta(activationThreshold=repr(value - 1.0))), timeout=60).result is True
    assert scaler.stub.IsActive(ref("hw", meta(activationThreshold=repr(value + 1.0))), timeout=60).result is False


def test_stream_is_active_sends_the_current_state_first(scaler):
    stream = scaler.stub.StreamIsActive(ref("hw", meta(activationThreshold="1000")), timeout=60)
    first = next(stream)
    stream.cancel()
    assert first.result is False


def test_restart_with_state_continues_with_incremental_updates(prometheus, tmp_path):
    state = tmp_path / "state.json"
    first = harness.Scaler(prometheus.url, NOW, state)
    before = get_metrics(first.stub, "restart", meta())
    assert first.stop() == 0, first.log()
    assert state.exists()
    # Three steps later, a new process: the model is restored and updated with the 3 new points, not refitted.
    second = harness.Scaler(prometheus.url, NOW + 3 * STEP, state)
    after = get_metrics(second.stub, "restart", meta())
    assert second.stop() == 0
    log = second.log()
    assert "restored the state of 1 ScaledObject(s)" in log
    assert "refitted" not in log, log
    assert before == reference(FIRST, 1440, 0, "holt-winters", 288, 12)
    assert after == reference(FIRST, 1440, 3, "holt-winters", 288, 12)
    assert after != before


class _Garbage(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        body = b"<html>this is not prometheus</html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def garbage_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Garbage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _bad_requests(garbage_url: str) -> list[tuple[str, dict[str, str], grpc.StatusCode, list[str]]]:
    closed = f"http://127.0.0.1:{harness.free_port()}"
    return [
        ("unknown model", meta(model="prophet"), grpc.StatusCode.INVALID_ARGUMENT, ["model", "prophet"]),
        ("missing query", meta(query=None), grpc.StatusCode.INVALID_ARGUMENT, ["query is required"]),
        ("malformed duration", meta(predictHorizon="soon"), grpc.StatusCode.INVALID_ARGUMENT, ["predictHorizon", "soon"]),
        ("missing lstm file", meta(model="lstm:/nonexistent/cpu.safetensors", seasons=None), grpc.StatusCode.INVALID_ARGUMENT,
         ["/nonexistent/cpu.safetensors"]),
        ("prometheus down", meta(serverAddress=closed), grpc.StatusCode.UNAVAILABLE, [closed, "unavailable"]),
        ("prometheus answering garbage", meta(serverAddress=garbage_url), grpc.StatusCode.UNAVAILABLE, [garbage_url, "garbage"]),
        ("bad PromQL", meta(query="sum(cluster_cpu_util"), grpc.StatusCode.INVALID_ARGUMENT, ["sum(cluster_cpu_util", "rejected"]),
        ("two series", meta(query='{__name__=~"cluster_.*_util"}'), grpc.StatusCode.INVALID_ARGUMENT, ["returned 2 series"]),
        ("no data", meta(query="no_such_metric"), grpc.StatusCode.FAILED_PRECONDITION, ["no_such_metric", "no data"]),
    ]


@pytest.mark.parametrize("case", range(9))
def test_bad_requests_get_a_status_naming_the_problem_and_the_server_keeps_serving(scaler, garbage_server, case):
    what, metadata, code, words = _bad_requests(garbage_server)[case]
    for call in (lambda: get_metrics(scaler.stub, f"bad-{case}", metadata), lambda: scaler.stub.IsActive(ref(f"bad-{case}", metadata), timeout=60)):
        with pytest.raises(grpc.RpcError) as error:
            call()
        assert error.value.code() == code, what
        assert f"default/bad-{case}" in error.value.details()
        for word in words:
            assert word in error.value.details(), (what, error.value.details())
    assert scaler.process.poll() is None
    assert get_metrics(scaler.stub, "hw", meta()) == reference(FIRST, 1440, 0, "holt-winters", 288, 12)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for 127.0.0.1, used as server certificate, client certificate and CA."""
    folder = tmp_path_factory.mktemp("tls")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")], check=True, capture_output=True)
    return folder / "cert.pem", folder / "key.pem"


def test_tls_and_mutual_tls(prometheus, certificate):
    cert, key = certificate
    spec_request = ref("tls", meta())
    server = harness.Scaler(prometheus.url, NOW, extra=["--tls-cert", str(cert), "--tls-key", str(key)],
                            credentials=grpc.ssl_channel_credentials(root_certificates=cert.read_bytes()))
    try:
        assert server.stub.GetMetricSpec(spec_request, timeout=30).metricSpecs[0].targetSizeFloat == 50.0
        with server.connect() as plain, pytest.raises(grpc.RpcError) as error:
            pb_grpc_stub(plain).GetMetricSpec(spec_request, timeout=10)
        assert error.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        assert server.stop() == 0
    mutual = harness.Scaler(prometheus.url, NOW, extra=["--tls-cert", str(cert), "--tls-key", str(key), "--tls-client-ca", str(cert)],
                            credentials=grpc.ssl_channel_credentials(root_certificates=cert.read_bytes(), private_key=key.read_bytes(),
                                                                     certificate_chain=cert.read_bytes()))
    try:
        assert get_metrics(mutual.stub, "tls", meta()) == reference(FIRST, 1440, 0, "holt-winters", 288, 12)
        anonymous = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
        with mutual.connect(anonymous) as channel, pytest.raises(grpc.RpcError) as error:
            pb_grpc_stub(channel).GetMetricSpec(spec_request, timeout=10)
        assert error.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        assert mutual.stop() == 0


def pb_grpc_stub(channel):
    return harness.pb_grpc.ExternalScalerStub(channel)
