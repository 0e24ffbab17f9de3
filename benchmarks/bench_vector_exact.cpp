// Exact vector bin packing on the shared Panigrahy classes (../shared/data/vbp/panigrahy, d = 3, 5,
// 10): solve_exact with a budget per instance, single thread; prints per class the instances, the
// proved optima, the total bins against the best known (OPT of the summary where known, else the
// best published heuristic's count: classes 4 and 5 have no known optima), the gap in per cent
// (negative: fewer bins than the best known), that of the best published heuristic (best_overall
// of Mommessin et al.) and of FFD for scale, median / max wall time, the CPU seconds of the class
// (this thread's: with a wall-clock budget a loaded machine gives less CPU) and its nodes per CPU second.
// Usage: bench_vector_exact [vbp_dir] [time_limit_ms] [max_n] [instance stride] [node_limit] [class] [set]
// set (default panigrahy) reads vbp_dir/SET_summary_known.tsv and vbp_dir/SET/CLASS/NAME.vbp; for the
// held-out set (data/vbp_heldout, set "heldout") an instance with neither OPT nor a published count is
// measured against the lower bound solve_exact proves for it (gap to the bound, an upper estimate).
// time_limit_ms 0 = no deadline; node_limit 0 = the Budget default. With a node limit and no
// deadline the results do not depend on the machine's load.
// (a plain program, not a Google Benchmark registration: each instance runs exactly once).
// CPU_CLOCK=1 (Linux): the deadline counts this thread's CPU time instead of wall-clock time, so
// "1 s" means one second of one core whatever the load (steady_clock reads CLOCK_MONOTONIC through
// clock_gettime, which this program interposes; solve_exact itself is unchanged).
#include <continuum/packing/exact.hpp>
#include <continuum/packing/vector_heuristics.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#ifdef __linux__
#include <sys/syscall.h>
#include <unistd.h>

namespace {
bool cpu_clock = false;
}

// Interposes glibc's clock_gettime for the whole program (libstdc++'s steady_clock::now included):
// with CPU_CLOCK set, the monotonic clock becomes this thread's CPU clock.
extern "C" int clock_gettime(clockid_t id, timespec* out) noexcept {
    if (cpu_clock && id == CLOCK_MONOTONIC) id = CLOCK_THREAD_CPUTIME_ID;
    return static_cast<int>(syscall(SYS_clock_gettime, id, out));
}
#endif

namespace {

struct Known {
    std::string name;
    long long lower = -1, opt = -1, best = -1;
};

std::vector<Known> read_summary(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // header: instance_name LB OPT best_overall ...
    std::vector<Known> out;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        Known k;
        std::string lb, opt, best;
        std::getline(fields, k.name, '\t');
        std::getline(fields, lb, '\t');
        std::getline(fields, opt, '\t');
        std::getline(fields, best, '\t');
        const auto number = [](const std::string& s) { return s.empty() || s == "NA" || s == "-" ? -1LL : std::stoll(s); };
        k.lower = number(lb);
        k.opt = number(opt);
        k.best = number(best);
        out.push_back(k);
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : std::string(CONTINUUM_SHARED_DIR) + "/data/vbp";
    const long long limit_ms = argc > 2 ? std::stoll(argv[2]) : 1000;
    const long long max_n = argc > 3 ? std::stoll(argv[3]) : 120;
    const std::size_t stride = argc > 4 ? static_cast<std::size_t>(std::stoul(argv[4])) : 1;
    const long long node_limit = argc > 5 ? std::stoll(argv[5]) : 0;
    const std::string only = argc > 6 ? argv[6] : "";  // e.g. "class5"; empty = every class
    const std::string set = argc > 7 ? argv[7] : "panigrahy";
#ifdef __linux__
    cpu_clock = std::getenv("CPU_CLOCK") != nullptr;
#endif
    const auto known = read_summary(dir + "/" + set + "_summary_known.tsv");
    if (known.empty()) {
        std::fprintf(stderr, "no summary in %s\n", dir.c_str());
        return 1;
    }
    struct Stats {
        int total = 0, proved = 0, at_best = 0, wrong = 0;
        long long bins = 0, best = 0, ffd = 0, heuristic = 0;
        std::vector<double> times;
        double cpu = 0;
        long long nodes = 0;
    };
    const auto wall_clock = [] {  // not steady_clock, which CPU_CLOCK redirects
        timespec t{};
#ifdef CLOCK_MONOTONIC_RAW
        clock_gettime(CLOCK_MONOTONIC_RAW, &t);
#else
        clock_gettime(CLOCK_MONOTONIC, &t);
#endif
        return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
    };
    const auto thread_cpu = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
    };
    std::map<std::string, Stats> per_class;
    std::size_t seen = 0;
    for (const auto& k : known) {
        const auto cls = k.name.substr(0, k.name.find('_'));
        const auto n = std::stoll(k.name.substr(cls.size() + 1, k.name.find('_', cls.size() + 1) - cls.size() - 1));
        const bool against_bound = k.best < 0 && k.opt < 0;  // no reference: the proved lower bound
        if (n > max_n || (against_bound && set == "panigrahy") || (!only.empty() && cls != only)) continue;
        long long reference = k.opt >= 0 ? k.opt : k.best;
        if (seen++ % stride != 0) continue;
        std::ifstream in(dir + "/" + set + "/" + cls + "/" + k.name + ".vbp");
        if (!in) continue;
        std::size_t d = 0, types = 0;
        in >> d;
        std::vector<std::int64_t> capacity(d);
        for (auto& c : capacity) in >> c;
        in >> types;
        std::vector<std::int64_t> sizes;
        for (std::size_t t = 0; t < types; ++t) {
            std::vector<std::int64_t> row(d);
            for (auto& w : row) in >> w;
            long long q = 0;
            in >> q;
            for (long long c = 0; c < q; ++c) sizes.insert(sizes.end(), row.begin(), row.end());
        }
        continuum::Budget budget;
        budget.time_limit.reset();
        if (limit_ms > 0) budget.time_limit = continuum::Duration(limit_ms);
        if (node_limit > 0) budget.node_limit = node_limit;
        const auto ffd = continuum::packing::first_fit_decreasing(sizes, d, capacity);
        const double start = wall_clock();
        const double cpu_start = thread_cpu();
        const auto result = continuum::packing::solve_exact(sizes, d, capacity, budget);
        const double seconds = wall_clock() - start;
        const double cpu = thread_cpu() - cpu_start;
        if (against_bound) reference = static_cast<long long>(result.lower_bound);
        auto& s = per_class[cls];
        ++s.total;
        s.times.push_back(seconds);
        s.cpu += cpu;
        s.nodes += result.nodes;
        s.bins += static_cast<long long>(result.num_bins());
        s.best += reference;
        s.heuristic += k.best >= 0 ? k.best : reference;  // no published count: reported as the reference
        s.ffd += static_cast<long long>(ffd.num_bins());
        if (result.optimal) ++s.proved;
        if (static_cast<long long>(result.num_bins()) <= reference) ++s.at_best;
        if ((k.opt >= 0 && (result.lower_bound > k.opt || static_cast<long long>(result.num_bins()) < k.opt)) ||
            (k.best >= 0 && result.lower_bound > k.best)) {
            ++s.wrong;
            std::fprintf(stderr, "INCONSISTENT %s: bins %zu lb %lld opt %lld best %lld\n", k.name.c_str(), result.num_bins(), static_cast<long long>(result.lower_bound), k.opt, k.best);
        }
        const char* verbose = std::getenv("VERBOSE");  // set: instances above the reference; "all": every instance
        if (verbose && (std::string(verbose) == "all" || static_cast<long long>(result.num_bins()) > reference)) {
            std::fprintf(stderr, "above opt %s: bins %zu lb %lld opt %lld %.2fs wall %.3fs cpu %lld nodes\n", k.name.c_str(), result.num_bins(), static_cast<long long>(result.lower_bound), k.opt, seconds,
                         cpu, static_cast<long long>(result.nodes));
        }
    }
    std::printf("%-8s %5s %7s %7s %8s %8s %7s %7s %7s %9s %9s %8s %6s %12s\n", "class", "inst", "proved", "at_best", "bins", "best", "gap_%", "heur_%", "ffd_%", "median_s", "max_s", "cpu_s", "wrong", "knodes/cpu_s");
    Stats all;
    for (auto& entry : per_class) {  // not a structured binding: clang 14 cannot capture one in the lambda below
        const auto& cls = entry.first;
        auto& s = entry.second;
        std::sort(s.times.begin(), s.times.end());
        const double median = s.times.empty() ? 0 : s.times[s.times.size() / 2];
        const auto percent = [&](long long v) { return 100.0 * static_cast<double>(v - s.best) / static_cast<double>(s.best); };
        std::printf("%-8s %5d %7d %7d %8lld %8lld %7.2f %7.2f %7.2f %9.3f %9.3f %8.1f %6d %12.0f\n", cls.c_str(), s.total, s.proved, s.at_best, s.bins, s.best, percent(s.bins),
                    percent(s.heuristic), percent(s.ffd), median,
                    s.times.empty() ? 0 : s.times.back(), s.cpu, s.wrong, s.cpu > 0 ? 1e-3 * static_cast<double>(s.nodes) / s.cpu : 0.0);
        all.total += s.total;
        all.proved += s.proved;
        all.at_best += s.at_best;
        all.bins += s.bins;
        all.best += s.best;
        all.ffd += s.ffd;
        all.heuristic += s.heuristic;
        all.wrong += s.wrong;
        all.cpu += s.cpu;
        all.nodes += s.nodes;
    }
    const auto percent = [&](long long v) { return all.best ? 100.0 * static_cast<double>(v - all.best) / static_cast<double>(all.best) : 0.0; };
    std::printf("%-8s %5d %7d %7d %8lld %8lld %7.2f %7.2f %7.2f %9s %9s %8.1f %6d %12.0f   budget %lld ms, %lld nodes (0 = none / default), n <= %lld, stride %zu\n", "all", all.total, all.proved, all.at_best,
                all.bins, all.best, percent(all.bins), percent(all.heuristic), percent(all.ffd), "", "", all.cpu, all.wrong,
                all.cpu > 0 ? 1e-3 * static_cast<double>(all.nodes) / all.cpu : 0.0, limit_ms, node_limit, max_n, stride);
    return 0;
}
