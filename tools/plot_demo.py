#!/usr/bin/python3
"""Draw the demo's figures from the CSV time series continuum-demo wrote.

Usage: /usr/bin/python3 tools/plot_demo.py DEMO_OUTPUT_DIR

Writes PNGs into the same folder: seed 000 Fig. 3 (worker nodes, cost, CPU-efficiency CDF),
seed 001 Figs. 5-6 (quota vs demand, deployment time), seed 004 Figs. 3-4 (replicas, CPU
utilisation, nodes per pool), and the Alibaba-trace replay (quota vs demand). Needs Debian's
python3-matplotlib and python3-numpy only.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

COLOURS = {"static quota": "tab:gray", "baseline": "tab:gray", "cost-unaware": "tab:red", "cost-aware": "tab:green",
           "no quota scaling": "tab:gray", "reactive": "tab:blue", "hybrid": "tab:orange",
           "HPA + CA": "tab:red", "hierarchical": "tab:blue", "hybrid (Holt-Winters)": "tab:orange", "hybrid (LSTM)": "tab:purple"}
# Deployment-time scatter: one marker per configuration so overlapping points stay distinguishable.
MARKERS = [dict(marker="o", markersize=6, markerfacecolor="none"), dict(marker="s", markersize=3),
           dict(marker=".", markersize=5), dict(marker="x", markersize=4)]


def colour(label):
    return COLOURS.get(label, COLOURS.get(label.split(" (")[0], None))


def read(folder, name):
    """A CSV as {column: [floats]}; None when the file is missing."""
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    return {column: [float(row[i]) for row in body] for i, column in enumerate(header)}


def minutes(table):
    return [t / 60.0 for t in table["time_s"]]


def save(fig, folder, name):
    fig.tight_layout()
    path = os.path.join(folder, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print("wrote", path)


def seed000(folder):
    configs = [("baseline", "seed000_baseline.csv"), ("cost-unaware", "seed000_cost_unaware.csv"),
               ("cost-aware", "seed000_cost_aware.csv")]
    tables = [(label, read(folder, name)) for label, name in configs]
    tables = [(label, t) for label, t in tables if t is not None]
    if not tables:
        return
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for label, t in tables:
        remote = [a + b for a, b in zip(t["nodes_low-cost"], t["nodes_high-cost"])]
        axes[0].step(minutes(t), remote, where="post", label=label, color=COLOURS[label])
        axes[1].plot(minutes(t), t["cost_cumulative"], label=label, color=COLOURS[label])
    axes[0].set(title="(a) remote worker nodes", xlabel="time (min)", ylabel="nodes", ylim=(-0.2, 5.6))
    axes[0].yaxis.set_major_locator(MaxNLocator(integer=True))
    axes[1].set(title="(b) cumulative cost", xlabel="time (min)", ylabel="cost ($)")
    cdf = read(folder, "seed000_efficiency_cdf.csv")
    if cdf is not None:
        for index, (label, _) in enumerate(configs):
            xs = [v for c, v in zip(cdf["configuration"], cdf["efficiency_pct"]) if int(c) == index]
            ys = [p for c, p in zip(cdf["configuration"], cdf["cdf"]) if int(c) == index]
            if xs:
                axes[2].step([0.0] + xs, [0.0] + ys, where="post", label=label, color=COLOURS[label])
        axes[2].axhline(0.5, color="black", linewidth=0.6, linestyle=":", label="median (0.5)")
    axes[2].set(title="(c) CDF of CPU efficiency $\\eta$", xlabel="$\\eta$ = 100 x used / available (%)",
                ylabel="fraction of node-time", xlim=(-2, 102), ylim=(0, 1.02))
    for ax in axes:
        ax.grid(alpha=0.3)
    axes[0].legend(loc="upper center", ncol=3, fontsize=8)
    axes[1].legend(loc="upper left", fontsize=9)
    axes[2].legend(loc="upper left", fontsize=9)
    fig.suptitle("Seed 000, Fig. 3 (simulated): Liqo-aware Cluster Autoscaler on Table 1's testbed")
    save(fig, folder, "seed000_fig3.png")


def shade_bursts(ax, bursts):
    if bursts is None:
        return
    for begin, end in zip(bursts["begin_s"], bursts["end_s"]):
        ax.axvspan(begin / 60.0, end / 60.0, color="tab:purple", alpha=0.08, linewidth=0)


def seed001(folder, prefix="seed001", title="Seed 001", configs=None, bursts_file="seed001_bursts.csv"):
    if configs is None:
        configs = [("no quota scaling", "seed001_no_quota_scaling.csv"), ("reactive", "seed001_reactive.csv"),
                   ("hybrid", "seed001_hybrid.csv")]
    tables = [(label, read(folder, name)) for label, name in configs]
    tables = [(label, t) for label, t in tables if t is not None]
    if not tables:
        return
    bursts = read(folder, bursts_file) if bursts_file else None
    fig, axes = plt.subplots(len(tables), 1, figsize=(12, 2.6 * len(tables)), sharex=True, squeeze=False)
    for ax, (label, t) in zip(axes[:, 0], tables):
        shade_bursts(ax, bursts)
        ax.plot(minutes(t), t["demand_cores_service"], color="black", linewidth=0.8, label="CPU demand (requests)")
        ax.plot(minutes(t), t["quota_cores_service"], color=colour(label) or "tab:orange", linewidth=1.2, label="quota")
        ax.set(ylabel="CPU (cores)", title=label)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.005, 1.0), fontsize=8)  # outside: never over the data
    axes[-1, 0].set_xlabel("time (min)" + ("; shaded: bursts" if bursts else ""))
    fig.suptitle(f"{title}, Fig. 5 (simulated): resource quota vs demand")
    save(fig, folder, f"{prefix}_fig5_quota.png")

    fig, ax = plt.subplots(figsize=(13, 3.8))
    shade_bursts(ax, bursts)
    for index, (label, t) in enumerate(tables):
        xs = [x for x, d in zip(minutes(t), t["deployment_delay_s"]) if d > 0]
        ys = [d for d in t["deployment_delay_s"] if d > 0]
        ax.plot(xs, ys, linestyle="none", label=label, color=colour(label), **MARKERS[index % len(MARKERS)])
    ax.set(xlabel="time (min)", ylabel="deployment time (s)",
           title=f"{title}, Fig. 6 (simulated): service deployment time (longest per sample; failed pods not shown)")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.005, 1.0), fontsize=9)
    save(fig, folder, f"{prefix}_fig6_deployment_time.png")


def seed004(folder):
    for scenario, figure in (("heartbeat", "Fig. 3"), ("flash_sale", "Fig. 4")):
        hpa = read(folder, f"seed004_{scenario}_hpa_ca.csv")
        mas = read(folder, f"seed004_{scenario}_hierarchical.csv")
        if hpa is None or mas is None:
            continue
        fig, axes = plt.subplots(1, 4, figsize=(17, 4.0))
        for label, t in (("HPA + CA", hpa), ("hierarchical", mas)):
            axes[0].step(minutes(t), t["ready_nginx"], where="post", label=label, color=COLOURS[label])
            axes[1].plot(minutes(t), t["utilisation_pct_nginx"], label=label, color=COLOURS[label], linewidth=0.9)
            axes[3].step(minutes(t), t["pending_pods"], where="post", label=label, color=COLOURS[label])
        axes[1].axhline(80, color="tab:red", linestyle=":", linewidth=0.8, label="target 80 % (HPA, COST_SAVING)")
        axes[1].axhline(40, color="tab:blue", linestyle=":", linewidth=0.8, label="target 40 % (PERFORMANCE)")
        axes[2].step(minutes(hpa), hpa["nodes_default-pool"], where="post", label="HPA + CA: default-pool (e2-medium)",
                     color="tab:red", linewidth=3.5, alpha=0.45)  # wide: stays visible under the staging pool's line
        axes[2].step(minutes(mas), mas["nodes_mas-h2-staging-pool"], where="post",
                     label="hierarchical: staging (e2-medium)", color="tab:cyan")
        axes[2].step(minutes(mas), mas["nodes_performance-pool"], where="post",
                     label="hierarchical: performance (n2-std-2)", color="tab:blue")
        axes[0].set(title="ready replicas", xlabel="time (min)", ylabel="pods")
        axes[1].set(title="CPU utilisation of requests", xlabel="time (min)", ylabel="%")
        axes[2].set(title="nodes per pool", xlabel="time (min)", ylabel="nodes")
        axes[3].set(title="pending pods (scheduling pressure)", xlabel="time (min)", ylabel="pods")
        pending = max(hpa["pending_pods"] + mas["pending_pods"])
        axes[3].set_ylim(bottom=0, top=max(1.0, pending) * 1.6)
        if pending == 0:
            axes[3].text(0.5, 0.35, "no pod pending in either run", transform=axes[3].transAxes, ha="center", fontsize=9, color="dimgray")
        nodes = max(hpa["nodes_default-pool"] + mas["nodes_mas-h2-staging-pool"] + mas["nodes_performance-pool"])
        axes[2].set_ylim(-0.1, nodes * 1.6 + 0.5)  # room for the legend above the steps
        axes[0].set_ylim(bottom=0, top=max(hpa["ready_nginx"] + mas["ready_nginx"]) * 1.35 + 1)
        axes[1].set_ylim(bottom=0, top=max(hpa["utilisation_pct_nginx"] + mas["utilisation_pct_nginx"]) * 1.45)
        for ax in axes:
            ax.grid(alpha=0.3)
            ax.legend(loc="upper left", fontsize=8)
        for ax in (axes[0], axes[2], axes[3]):
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        name = "Heartbeat" if scenario == "heartbeat" else "Chaotic Flash Sale"
        fig.suptitle(f"Seed 004, {figure} (simulated): {name}, HPA + CA vs hierarchical (MAS-H2)")
        save(fig, folder, f"seed004_{'fig3' if scenario == 'heartbeat' else 'fig4'}_{scenario}.png")


def alibaba(folder):
    names = sorted(n for n in os.listdir(folder) if n.startswith("alibaba_") and n.endswith(".csv"))
    order = {"static": 0, "reactive": 1, "hybrid_holt": 2, "hybrid_lstm": 3}
    names.sort(key=lambda n: min((v for k, v in order.items() if n[len("alibaba_"):].startswith(k)), default=9))
    labels = []
    for n in names:
        stem = n[len("alibaba_"):-4]
        label = {"static": "static quota", "reactive": "reactive", "hybrid_holt_winters": "hybrid (Holt-Winters)",
                 "hybrid_lstm": "hybrid (LSTM)"}.get(stem)
        labels.append((label or stem.replace("_", " "), n))
    seed001(folder, prefix="alibaba", title="Alibaba 2018 trace", configs=labels, bursts_file=None)


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(__doc__)
        return 2
    folder = argv[1]
    seed000(folder)
    seed001(folder)
    seed004(folder)
    alibaba(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
