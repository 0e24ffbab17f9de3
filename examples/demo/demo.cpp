// continuum's demo: the three seed papers' experiments (and a day of a real Alibaba trace) replayed
// in continuum's simulator with continuum's scalers. Prints, per paper, what the paper reports next
// to what continuum simulates, with the parameters used, and writes CSV time series for
// tools/plot_demo.py.   Usage: continuum-demo [--out DIR] [--quick]
#include <continuum/sim.hpp>
#include <replay/alibaba.hpp>
#include <replay/seed000.hpp>
#include <replay/seed001.hpp>
#include <replay/seed004.hpp>
#if defined(CONTINUUM_HAVE_NLOHMANN_JSON)
#include <continuum/forecast/lstm_loader.hpp>
#endif

#include <fmt/core.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace continuum;
using namespace continuum::sim;
using namespace std::chrono_literals;

std::string slug(std::string text) {
    for (auto& c : text) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : '_';
    }
    while (text.find("__") != std::string::npos) text.erase(text.find("__"), 1);
    while (!text.empty() && text.back() == '_') text.pop_back();
    return text;
}

void heading(const std::string& title) { fmt::print("\n{}\n{}\n", title, std::string(title.size(), '=')); }

void table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> width(header.size(), 0);
    for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
    for (const auto& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    }
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string out = "|";
        for (std::size_t c = 0; c < cells.size(); ++c) out += fmt::format(" {:<{}} |", cells[c], width[c]);
        fmt::print("{}\n", out);
    };
    line(header);
    std::string rule = "|";
    for (auto w : width) rule += std::string(w + 2, '-') + "|";
    fmt::print("{}\n", rule);
    for (const auto& row : rows) line(row);
}

std::string f1(double v) { return fmt::format("{:.1f}", v); }
std::string f2(double v) { return fmt::format("{:.2f}", v); }

void write_efficiency_cdf(const std::filesystem::path& path, const std::vector<replay::Seed000Row>& rows) {
    TimeSeriesTable t;
    const auto c_config = t.add_column("configuration");
    const auto c_value = t.add_column("efficiency_pct");
    const auto c_cdf = t.add_column("cdf");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (const auto& [value, p] : rows[i].result.efficiency.cdf()) {
            const auto r = t.add_row();
            t.set(c_config, r, static_cast<double>(i));
            t.set(c_value, r, value);
            t.set(c_cdf, r, p);
        }
    }
    t.write_csv(path.string());
}

void seed000(const std::filesystem::path& out) {
    heading("Seed 000: Liqo-aware multi-provider Cluster Autoscaler (Galantino et al., Mid4CC '25), Sec. 4, Fig. 3");
    const auto report = replay::replay_seed000();
    const auto& p = report.parameters;
    fmt::print("Parameters: Table 1 testbed = 1 local node ({}) always on + 3 low-cost remote nodes (2 cores, 4 GB, 1 $/min)\n"
               "  + 1 high-cost remote node (4 cores, 4 GB, 5 $/min), Liqo peering latency {} s; stress-ng pods {} using {:.0f} %;\n"
               "  replicas: {} min idle, rise to {} over {} min, hold {} min, fall over {} min, {} min idle; tick {} s;\n"
               "  autoscaled runs = federation::FederatedClusterScaler every 10 s (remote pools as offers; scale-in by CA's rules: < 50 % requested\n"
               "  for 10 min, not within 10 min of a peering); cost-aware = the Recommender prices the offers at Table 1's prices (MonetaryCost),\n"
               "  cost-unaware = no prices reach the scaler (every node worth 1: fewest nodes, the larger on a tie).\n",
               p.local_capacity.to_string(), to_seconds(p.peering_latency), p.pod_request.to_string(), 100 * p.usage_per_pod,
               std::chrono::duration_cast<std::chrono::minutes>(p.replicas.idle_before).count(), p.replicas.peak,
               std::chrono::duration_cast<std::chrono::minutes>(p.replicas.rise).count(), std::chrono::duration_cast<std::chrono::minutes>(p.replicas.hold).count(),
               std::chrono::duration_cast<std::chrono::minutes>(p.replicas.fall).count(),
               std::chrono::duration_cast<std::chrono::minutes>(p.replicas.idle_after).count(), to_seconds(p.tick));
    const std::vector<std::string> paper_reduction{"-", ">= 60 %", ">= 60 %"};
    const std::vector<std::string> paper_eta{"about 25 %", "almost 100 %", "about 75 %"};
    const std::vector<std::string> paper_nodes{"4 (fixed)", "never above 2", "-"};
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
        const auto& r = report.rows[i];
        rows.push_back({r.configuration, paper_reduction[i], fmt::format("{:.1f} % ({:.0f} $)", r.cost_reduction_pct, r.cost), paper_eta[i],
                        fmt::format("{:.1f} %", r.median_efficiency_pct), fmt::format("{:.1f} %", 100.0 * r.result.efficiency.cdf_at(99.99)), paper_nodes[i],
                        std::to_string(r.max_remote_nodes)});
        r.result.series.write_csv((out / fmt::format("seed000_{}.csv", slug(r.configuration))).string());
    }
    table({"configuration", "paper: cost reduction", "continuum: cost reduction", "paper: median eta", "continuum: median eta", "continuum: node-time at eta < 100 %", "paper: remote nodes",
           "continuum: max remote nodes"},
          rows);
    write_efficiency_cdf(out / "seed000_efficiency_cdf.csv", report.rows);
}

void seed001(const std::filesystem::path& out, bool quick) {
    heading("Seed 001: Hybrid resource-quota scaling (Tran & Kim, Electronics 2025), Sec. 5, Table 2, Figs. 5-6");
    replay::Seed001Parameters p;
    if (quick) p.workload.duration = 2h;
    const auto report = replay::replay_seed001(p);
    fmt::print("Parameters: {} h of bursty demand (base {} cores, wave +/-{} over {} h, +{} cores for {} min every {} min at :{}, {} surprise bursts, seed {});\n"
               "  1-CPU pods; {} always-on + {} paused waiting worker nodes of {} (resume {} s); pending > 60 s = failed;\n"
               "  fixed quota {} CPUs; scaled runs start at {} CPUs; quota levels every {} CPUs; reactive = quota::ReactiveQuotaScaler (Algorithm 2);\n"
               "  hybrid = quota::HybridQuotaScaler: each minute it observes the demand and forecasts 1 min ahead with Holt-Winters (additive\n"
               "  season of {} min, fitted on {} h of history + what it observed), Algorithm 2 for rejected pods in between; tick {} s.\n",
               std::chrono::duration_cast<std::chrono::minutes>(p.workload.duration).count() / 60.0, p.workload.base_cores, p.workload.wave_amplitude,
               std::chrono::duration_cast<std::chrono::minutes>(p.workload.wave_period).count() / 60.0, p.workload.burst_cores,
               std::chrono::duration_cast<std::chrono::minutes>(p.workload.burst_length).count(), std::chrono::duration_cast<std::chrono::minutes>(p.workload.burst_period).count(),
               std::chrono::duration_cast<std::chrono::minutes>(p.workload.burst_offset).count(), p.workload.surprise_bursts, p.workload.seed, p.active_nodes,
               p.waiting_nodes, p.node_capacity.to_string(), to_seconds(p.resume_latency), p.fixed_quota_cores, p.initial_quota_cores, p.level_step_cores,
               p.season_length, std::chrono::duration_cast<std::chrono::minutes>(p.workload.history).count() / 60.0, to_seconds(p.tick));
    const std::vector<std::string> paper_qsr{"178.08 %", "100 %", "105.08 %"};
    const std::vector<std::string> paper_dfr{"34.68 %", "0 %", "0 %"};
    const std::vector<std::string> paper_time{"< 5 s / fails", "~5 s / 45 s", "3.87 s / 17.11 s"};
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
        const auto& r = report.rows[i];
        rows.push_back({r.configuration, paper_qsr[i], fmt::format("{:.2f} %", r.qsr_pct), paper_dfr[i], fmt::format("{:.2f} %", r.dfr_pct), paper_time[i],
                        fmt::format("{:.2f} s / {:.2f} s", r.deployment_time_no_burst_s, r.deployment_time_burst_s), f1(r.node_minutes)});
        r.result.series.write_csv((out / fmt::format("seed001_{}.csv", slug(r.configuration))).string());
    }
    table({"configuration", "paper: QSR", "continuum: QSR", "paper: DFR", "continuum: DFR", "paper: deploy time (no burst / burst)",
           "continuum: deploy time (no burst / burst)", "continuum: node-minutes"},
          rows);
    TimeSeriesTable bursts;
    const auto c0 = bursts.add_column("begin_s");
    const auto c1 = bursts.add_column("end_s");
    for (const auto& [b, e] : report.bursts) {
        const auto r = bursts.add_row();
        bursts.set(c0, r, to_seconds(b));
        bursts.set(c1, r, to_seconds(e));
    }
    bursts.write_csv((out / "seed001_bursts.csv").string());
}

void seed004(const std::filesystem::path& out) {
    heading("Seed 004: MAS-H2 hierarchical autoscaler (Hamzeh et al.), Sec. 4, Tables 1-2, Figs. 3-4");
    const auto report = replay::replay_seed004();
    const auto& p = report.parameters;
    fmt::print("Parameters: k6 stages of Table 1 (Heartbeat, 13 min) and Table 2 (Chaotic Flash Sale, 15 min) with {:.0f} % noise per 10 s;\n"
               "  VU -> CPU: {} m per VU + {} m idle; nginx pods {} (CPU limit {}x request); HPA: cpu target {} %, max {} replicas, Kubernetes'\n"
               "  default behaviour, 15 s sync, with a CA-like node autoscaler on an e2-medium pool (cold VM boot {} s);\n"
               "  hierarchical: policy::cost_saving() (e2-medium, target 80 %) -> policy::performance() (n2-standard-2, target 40 %) at {} s\n"
               "  (Heartbeat) / {} s (Flash Sale), 15 s loop, forecast 1 min ahead: seasonal naive at the Heartbeat's {} s cycle (after one\n"
               "  cycle), linear trend over {} points on the Flash Sale; FFD node planning.\n",
               100 * p.noise, p.vu_to_cpu.millicores_per_vu, p.vu_to_cpu.idle_millicores, p.pod_request.to_string(), p.cpu_limit_factor, p.hpa_target_percent,
               p.max_replicas, to_seconds(p.cold_vm_latency), to_seconds(p.heartbeat_switch), to_seconds(p.flash_sale_switch), to_seconds(p.heartbeat_cycle),
               p.trend_window);
    const std::vector<std::string> paper_replicas{"never > 3", "8", "1", "4"};
    const std::vector<std::string> paper_cpu{"> 80 %", "< 40 %", "35 % on one pod", "15 %"};
    const std::vector<std::string> paper_migration{"-", "zero downtime", "-", "zero downtime"};
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
        const auto& r = report.rows[i];
        const bool mas = r.configuration == "hierarchical";
        rows.push_back({r.scenario, r.configuration, paper_replicas[i], std::to_string(r.max_replicas), paper_cpu[i],
                        fmt::format("{:.1f} % (p95 {:.0f} %)", r.peak_utilisation_pct, r.p95_utilisation_pct), paper_migration[i],
                        mas ? fmt::format("downtime {:.0f} s, >= {} ready", r.downtime_s, r.min_ready_during_migration) : "-",
                        fmt::format("{:.4f} $", r.cost)});
        r.result.series.write_csv((out / fmt::format("seed004_{}_{}.csv", slug(r.scenario), slug(r.configuration))).string());
    }
    table({"workload", "configuration", "paper: replicas", "continuum: max replicas", "paper: CPU", "continuum: CPU at peak", "paper: migration",
           "continuum: migration", "continuum: cost"},
          rows);
}

void alibaba(const std::filesystem::path& out, bool quick) {
    heading("A real trace: one day of the Alibaba 2018 cluster CPU trace through seed 001's quota scaling");
    replay::AlibabaParameters p;
    p.trace_path = std::string(CONTINUUM_SOURCE_DIR) + "/data/traces/alibaba2018/machine_usage_days_1_to_8_grouped_30_seconds.csv";
    if (quick) p.minutes = 240;
    auto report = replay::replay_alibaba(p);
    std::string lstm_note = "no shipped LSTM model found in models/";
#if defined(CONTINUUM_HAVE_NLOHMANN_JSON)
    const std::filesystem::path models = std::filesystem::path(CONTINUUM_SOURCE_DIR) / "models";
    if (std::filesystem::is_directory(models)) {
        for (const auto& entry : std::filesystem::directory_iterator(models)) {
            if (entry.path().extension() != ".safetensors") continue;
            try {
                auto lstm = forecast::load_lstm<double>(entry.path());
                // The model reads and predicts CPU %; the replay works in cores (% x cores_per_percent).
                replay::add_alibaba_hybrid(report, p, replay::ScaledForecaster(std::move(lstm), p.cores_per_percent), "hybrid (LSTM)");
                lstm_note = "LSTM: " + entry.path().filename().string();
            } catch (const std::exception& e) {
                lstm_note = fmt::format("LSTM {} not usable: {}", entry.path().filename().string(), e.what());
            }
            break;
        }
    }
#else
    lstm_note = "built without nlohmann_json: no LSTM loader";
#endif
    fmt::print("Parameters: {} (30-s buckets averaged per minute), the trace's last {} day(s) + {} min: history, then replayed (the LSTM's\n"
               "  held-out tail); demand = utilisation % x {} cores;\n"
               "  same cluster, pods, levels and latencies as seed 001; static quota = history maximum x {}; reactive and hybrid as in seed 001\n"
               "  (quota::ReactiveQuotaScaler, quota::HybridQuotaScaler), Holt-Winters with a daily season (1440 min); {}; tick {} s. The paper reports no figures for this trace: continuum's numbers only.\n",
               "data/traces/alibaba2018/machine_usage_days_1_to_8_grouped_30_seconds.csv", p.history_days, p.minutes, p.cores_per_percent, p.static_headroom,
               lstm_note, to_seconds(p.tick));
    std::vector<std::vector<std::string>> rows;
    for (const auto& r : report.rows) {
        rows.push_back({r.configuration, fmt::format("{:.2f} %", r.qsr_pct), fmt::format("{:.2f} %", r.dfr_pct), f2(r.result.deployment_delay.mean),
                        f1(r.max_deployment_time_s), f1(r.node_minutes)});
        const auto stem = r.configuration.rfind("static", 0) == 0 ? std::string("static") : slug(r.configuration);
        r.result.series.write_csv((out / fmt::format("alibaba_{}.csv", stem)).string());
    }
    table({"configuration", "continuum: QSR", "continuum: DFR", "continuum: mean deploy time (s)", "max (s)", "continuum: node-minutes"}, rows);
}

}  // namespace

int main(int argc, char** argv) {
    std::filesystem::path out = "demo-output";
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--out" && i + 1 < argc) {
            out = argv[++i];
        } else if (arg == "--quick") {
            quick = true;
        } else if (arg == "--help" || arg == "-h") {
            fmt::print("usage: continuum-demo [--out DIR] [--quick]\n");
            return 0;
        } else {
            fmt::print(stderr, "continuum-demo: unknown argument \"{}\" (usage: continuum-demo [--out DIR] [--quick])\n", arg);
            return 2;
        }
    }
    try {
        std::filesystem::create_directories(out);
        // Remove the CSV files an earlier run wrote, so plots never mix runs.
        for (const auto& entry : std::filesystem::directory_iterator(out)) {
            const auto name = entry.path().filename().string();
            if (entry.path().extension() == ".csv" && (name.rfind("seed00", 0) == 0 || name.rfind("alibaba_", 0) == 0)) std::filesystem::remove(entry.path());
        }
        fmt::print("continuum demo: the seed papers' experiments replayed in continuum's simulator{}\n", quick ? " (--quick: shorter runs)" : "");
        seed000(out);
        seed001(out, quick);
        seed004(out);
        alibaba(out, quick);
        fmt::print("\nCSV time series written to {}/ (plot them: /usr/bin/python3 tools/plot_demo.py {})\n", out.string(), out.string());
    } catch (const std::exception& e) {
        fmt::print(stderr, "continuum-demo: {}\n", e.what());
        return 1;
    }
    return 0;
}
