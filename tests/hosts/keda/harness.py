"""Runs continuum-keda-scaler against a real Prometheus on 127.0.0.1, for the tests and the benchmark.

A trace from data/traces is written as OpenMetrics, backfilled into a temporary TSDB with
`promtool tsdb create-blocks-from openmetrics`, and served by a Prometheus started on a free port;
the scaler is started on a free port (--listen 127.0.0.1:0) and reached through the Python gRPC
client generated at build time from the vendored externalscaler.proto (KEDA_PYTHON_STUBS).
"""
from __future__ import annotations

import csv
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

SOURCE = pathlib.Path(os.environ.get("CONTINUUM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[3]))
TRACE = SOURCE / "data/traces/alibaba2018/machine_usage_days_1_to_8_grouped_300_seconds.csv"
STEP = 300
ORIGIN = 1_600_000_200  # a multiple of STEP: row i of the trace is at ORIGIN + i * STEP

sys.path.insert(0, os.environ.get("KEDA_PYTHON_STUBS", ""))
import grpc  # noqa: E402
import externalscaler_pb2 as pb  # noqa: E402  (generated at build time)
import externalscaler_pb2_grpc as pb_grpc  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def trace_column(column: str, path: pathlib.Path = TRACE) -> list[float]:
    with open(path, newline="") as f:
        return [float(row[column]) for row in csv.DictReader(f)]


def write_openmetrics(path: pathlib.Path, series: dict[str, list[float]], step: int = STEP, origin: int = ORIGIN) -> None:
    """One gauge per name, sample i at origin + i * step; repr() keeps every double exact."""
    with open(path, "w") as out:
        for name, values in series.items():
            out.write(f"# TYPE {name} gauge\n")
            for i, v in enumerate(values):
                out.write(f"{name} {v!r} {origin + i * step}\n")
        out.write("# EOF\n")


class Prometheus:
    """A Prometheus on 127.0.0.1 serving a backfilled temporary TSDB; stop() kills it and removes the folder."""

    def __init__(self, series: dict[str, list[float]], step: int = STEP, origin: int = ORIGIN):
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="continuum-keda-prometheus-"))
        data = self.folder / "data"
        metrics = self.folder / "metrics.om"
        write_openmetrics(metrics, series, step, origin)
        subprocess.run(["promtool", "tsdb", "create-blocks-from", "openmetrics", "--quiet", str(metrics), str(data)],
                       check=True, capture_output=True)
        config = self.folder / "prometheus.yml"
        config.write_text("global:\n  scrape_interval: 1h\n")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(self.folder / "prometheus.log", "w")
        self.process = subprocess.Popen(
            ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={data}", "--storage.tsdb.retention.time=100y",
             f"--web.listen-address=127.0.0.1:{self.port}", "--query.max-samples=50000000"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "/-/ready", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"prometheus did not become ready; see its log")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class Scaler:
    """continuum-keda-scaler on a free port of 127.0.0.1, with a gRPC stub."""

    def __init__(self, prometheus_url: str, now: int, state: pathlib.Path | None = None, extra: list[str] | None = None,
                 credentials: "grpc.ChannelCredentials | None" = None):
        binary = os.environ["KEDA_SCALER"]
        command = [binary, "--listen", "127.0.0.1:0", "--prometheus", prometheus_url, "--now", str(now)]
        if state is not None:
            command += ["--state", str(state)]
        command += extra or []
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        line = self.process.stdout.readline()
        if "listening on" not in line:
            self.process.kill()
            self.stderr.seek(0)
            raise RuntimeError(f"scaler did not start: {line!r} {self.stderr.read()}")
        self.address = line.split()[-1]
        self.channel = self.connect(credentials)
        if credentials is None:
            grpc.channel_ready_future(self.channel).result(timeout=30)
        self.stub = pb_grpc.ExternalScalerStub(self.channel)

    def connect(self, credentials: "grpc.ChannelCredentials | None" = None) -> "grpc.Channel":
        """A channel to the scaler: plain, or TLS with the given credentials."""
        if credentials is None:
            return grpc.insecure_channel(self.address)
        return grpc.secure_channel(self.address, credentials)

    def log(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read()

    def stop(self) -> int:
        self.channel.close()
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=20)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.process.stdout.close()


def ref(name: str, metadata: dict[str, str], namespace: str = "default") -> "pb.ScaledObjectRef":
    return pb.ScaledObjectRef(name=name, namespace=namespace, scalerMetadata=metadata)


def get_metrics(stub, name: str, metadata: dict[str, str], timeout: float = 120.0) -> float:
    response = stub.GetMetrics(pb.GetMetricsRequest(scaledObjectRef=ref(name, metadata), metricName="s0-continuum"), timeout=timeout)
    assert len(response.metricValues) == 1
    assert response.metricValues[0].metricName == "s0-continuum"
    return response.metricValues[0].metricValueFloat


def reference(first: int, count: int, updates: int, model: str, season: int, horizon: int, level: float = 0.0,
              column: str = "cpu_util_percent") -> float:
    """continuum's forecast of the same rows, computed by the library directly (keda_forecast_reference)."""
    out = subprocess.run([os.environ["KEDA_REFERENCE"], str(TRACE), column, str(first), str(count), str(updates), model,
                          str(season), str(horizon), repr(level)], check=True, capture_output=True, text=True)
    return float(out.stdout)
