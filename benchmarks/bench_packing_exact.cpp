// Exact bin packing on the 1,470 classic 1-D instances of ../shared/data/bpp (Falkenauer U/T,
// Scholl 1/2/3, Schwerin 1), or on the held-out sets of data/bpp (Hard28, Wäscher): solve_exact with a
// 1 s budget per instance, single thread; prints per-set counts of proved optima, agreement with
// optima.csv, and median / max wall and CPU times (the process's CPU clock: on a shared machine the
// wall time is inflated by the load). PER_INSTANCE=1 prints one line per instance (bound, bins, optimum,
// proved, wall and CPU seconds).
// Usage: bench_packing_exact [data_dir] [time_limit_ms] [set filter] [instance stride] [per-instance csv] [node_limit]
// time_limit_ms 0 = no deadline; node_limit 0 = the Budget default (10 million). With a node limit
// and no deadline the results do not depend on the machine's load (reproducible counts).
// (a plain program, not a Google Benchmark registration: each instance runs exactly once).
#include <continuum/packing/exact.hpp>

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Row {
    std::string set, instance, file;
    long long opt = -1;
};

std::vector<Row> read_optima(const std::string& dir) {
    std::ifstream in(dir + "/optima.csv");
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header;
    {
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ',')) header.push_back(cell);
    }
    const auto col = [&](const std::string& name) { return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin()); };
    std::vector<Row> rows;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::vector<std::string> cells;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ',')) cells.push_back(cell);
        if (cells.size() < header.size()) cells.resize(header.size());
        Row r{cells[col("set")], cells[col("instance")], cells[col("file")], cells[col("opt")].empty() ? -1 : std::stoll(cells[col("opt")])};
        rows.push_back(r);
    }
    return rows;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : std::string(CONTINUUM_SHARED_DIR) + "/data/bpp";
    const long long limit_ms = argc > 2 ? std::stoll(argv[2]) : 1000;
    const std::string filter = argc > 3 ? argv[3] : "";
    const std::size_t stride = argc > 4 ? static_cast<std::size_t>(std::stoul(argv[4])) : 1;
    const auto rows = read_optima(dir);
    std::FILE* csv = argc > 5 && std::string(argv[5]) != "-" ? std::fopen(argv[5], "w") : nullptr;  // instance,seconds,optimal (for packing_cbc_peer.py); "-" = none
    const long long node_limit = argc > 6 ? std::stoll(argv[6]) : 0;
    if (rows.empty()) {
        std::fprintf(stderr, "no instances found in %s\n", dir.c_str());
        return 1;
    }
    struct Stats {
        int total = 0, proved = 0, matches_opt = 0, wrong = 0;
        std::vector<double> times, cpu;
    };
    std::map<std::string, Stats> per_set;
    for (std::size_t idx = 0; idx < rows.size(); idx += stride) {
        const auto& row = rows[idx];
        if (!filter.empty() && row.set.find(filter) == std::string::npos) continue;
        std::ifstream in(dir + "/" + row.file);
        long long n = 0, c = 0;
        in >> n >> c;
        std::vector<std::int64_t> sizes(static_cast<std::size_t>(n));
        for (auto& s : sizes) in >> s;
        continuum::Budget budget;
        if (limit_ms > 0) budget.time_limit = continuum::Duration(limit_ms);
        if (node_limit > 0) budget.node_limit = node_limit;
        const auto start = std::chrono::steady_clock::now();
        const std::clock_t cpu_start = std::clock();
        const auto result = continuum::packing::solve_exact(sizes, c, budget);
        const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (std::getenv("PER_INSTANCE")) {
            std::printf("%-12s %-24s bound %5lld bins %5zu opt %5lld %-7s wall %7.3f s cpu %7.3f s\n", row.set.c_str(), row.instance.c_str(), static_cast<long long>(result.lower_bound),
                        result.num_bins(), row.opt, result.optimal ? "proved" : "open", seconds, cpu_seconds);
        }
        if (csv) std::fprintf(csv, "%s,%.6f,%d\n", row.instance.c_str(), seconds, result.optimal ? 1 : 0);
        auto& s = per_set[row.set];
        ++s.total;
        s.times.push_back(seconds);
        s.cpu.push_back(cpu_seconds);
        if (result.optimal) ++s.proved;
        if (static_cast<long long>(result.num_bins()) == row.opt) ++s.matches_opt;
        if (row.opt >= 0 && (result.lower_bound > row.opt || static_cast<long long>(result.num_bins()) < row.opt)) {
            ++s.wrong;
            std::fprintf(stderr, "INCONSISTENT %s: bins %zu lb %lld opt %lld\n", row.instance.c_str(), result.num_bins(), static_cast<long long>(result.lower_bound), row.opt);
        }
        if (!result.optimal && std::getenv("VERBOSE")) {
            std::fprintf(stderr, "open %s: bins %zu lb %lld opt %lld %.2fs nodes %lld\n", row.instance.c_str(), result.num_bins(), static_cast<long long>(result.lower_bound), row.opt, seconds,
                         static_cast<long long>(result.nodes));
        }
    }
    std::printf("%-14s %6s %8s %10s %10s %10s %10s %10s %6s\n", "set", "inst", "proved", "=opt", "median_s", "max_s", "cpu_med_s", "cpu_max_s", "wrong");
    int total = 0, proved = 0;
    for (auto& [set, s] : per_set) {
        std::sort(s.times.begin(), s.times.end());
        std::sort(s.cpu.begin(), s.cpu.end());
        const double median = s.times.empty() ? 0 : s.times[s.times.size() / 2];
        const double cpu_median = s.cpu.empty() ? 0 : s.cpu[s.cpu.size() / 2];
        std::printf("%-14s %6d %8d %10d %10.4f %10.4f %10.4f %10.4f %6d\n", set.c_str(), s.total, s.proved, s.matches_opt, median, s.times.empty() ? 0 : s.times.back(), cpu_median,
                    s.cpu.empty() ? 0 : s.cpu.back(), s.wrong);
        total += s.total;
        proved += s.proved;
    }
    std::printf("all            %6d %8d (%.1f %%) with a budget of %lld ms and %lld nodes each (0 = none / default)\n", total, proved, total ? 100.0 * proved / total : 0.0, limit_ms, node_limit);
    if (csv) std::fclose(csv);
    return 0;
}
