// Evaluation metrics of the seed papers, accumulated by the simulator: cost, CPU efficiency
// eta = 100 x used / available per node with idle released capacity at 100 % (seed 000, Fig. 3c) as a
// distribution with CDF and median, quota sufficiency ratio and deployment failure ratio (seed 001),
// deployment delay, pending pod-seconds, replicas and utilisation (seed 004), and time series.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/time.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::sim {

/// A weighted distribution of percentages in [0, 100] at 0.01 % resolution (10,001 bins), so the
/// CDF of millions of node-samples costs fixed memory. Quantiles are exact to 0.01 %.
class PercentDistribution {
public:
    static constexpr int bins = 10'001;

    /// Adds `weight` (e.g. seconds) at `percent`, clamped into [0, 100].
    /// \throws InvalidArgument for a NaN percent or a negative or non-finite weight.
    void add(double percent, double weight = 1.0) {
        if (std::isnan(percent)) throw InvalidArgument("PercentDistribution: percent is NaN");
        if (!std::isfinite(weight) || weight < 0) throw InvalidArgument(continuum::detail::message("PercentDistribution: weight must be finite and >= 0, got {}", weight));
        const auto bin = static_cast<std::size_t>(std::lround(std::clamp(percent, 0.0, 100.0) * 100.0));
        weights_[bin] += weight;
        total_ += weight;
        sum_ += weight * static_cast<double>(bin) / 100.0;
    }
    [[nodiscard]] double total_weight() const { return total_; }
    [[nodiscard]] bool empty() const { return total_ <= 0.0; }
    /// Weighted mean; 0 when empty.
    [[nodiscard]] double mean() const { return empty() ? 0.0 : sum_ / total_; }
    /// Smallest value v with P(X <= v) >= q, q in [0, 1]; 0 when empty.
    /// \throws InvalidArgument for q outside [0, 1].
    [[nodiscard]] double quantile(double q) const {
        if (!(q >= 0.0 && q <= 1.0)) throw InvalidArgument(continuum::detail::message("PercentDistribution: quantile must be in [0, 1], got {}", q));
        if (empty()) return 0.0;
        const double target = q * total_;
        double cumulative = 0.0;
        for (int i = 0; i < bins; ++i) {
            cumulative += weights_[static_cast<std::size_t>(i)];
            if (cumulative >= target && weights_[static_cast<std::size_t>(i)] > 0) return i / 100.0;
        }
        return 100.0;
    }
    [[nodiscard]] double median() const { return quantile(0.5); }
    /// P(X <= percent) at the 0.01 % resolution (percent rounded to the nearest bin; 0 when empty
    /// or below 0, 1 from 100 on): e.g. cdf_at(99.99) is the share below full efficiency.
    /// \throws InvalidArgument for a NaN percent.
    [[nodiscard]] double cdf_at(double percent) const {
        if (std::isnan(percent)) throw InvalidArgument("PercentDistribution::cdf_at: percent is NaN");
        if (empty() || percent < 0.0) return 0.0;
        const auto last = static_cast<std::size_t>(std::lround(std::min(percent, 100.0) * 100.0));
        double cumulative = 0.0;
        for (std::size_t i = 0; i <= last; ++i) cumulative += weights_[i];
        return std::min(1.0, cumulative / total_);
    }
    /// The CDF at its support points: (value, P(X <= value)), increasing.
    [[nodiscard]] std::vector<std::pair<double, double>> cdf() const {
        std::vector<std::pair<double, double>> out;
        if (empty()) return out;
        double cumulative = 0.0;
        for (int i = 0; i < bins; ++i) {
            const double w = weights_[static_cast<std::size_t>(i)];
            if (w <= 0) continue;
            cumulative += w;
            out.emplace_back(i / 100.0, std::min(1.0, cumulative / total_));
        }
        return out;
    }

private:
    std::array<double, bins> weights_{};
    double total_ = 0.0;
    double sum_ = 0.0;
};

/// Simple order statistics of a sample (deployment delays, utilisations).
struct SampleStats {
    std::size_t count = 0;
    double mean = 0;
    double median = 0;
    double p95 = 0;
    double max = 0;

    /// \throws InvalidArgument when a value is not finite.
    static SampleStats of(std::vector<double> values) {
        SampleStats out;
        if (values.empty()) return out;
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (!std::isfinite(values[i])) throw InvalidArgument(continuum::detail::message("SampleStats: value[{}] = {} is not finite", i, values[i]));
        }
        std::sort(values.begin(), values.end());
        out.count = values.size();
        double sum = 0;
        for (double v : values) sum += v;
        out.mean = sum / static_cast<double>(values.size());
        const auto at = [&](double q) { return values[static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size()))) - (q > 0 ? 1 : 0)]; };
        out.median = at(0.5);
        out.p95 = at(0.95);
        out.max = values.back();
        return out;
    }
};

/// Named columns of equal length (column-major): the simulator's time series, written as CSV.
class TimeSeriesTable {
public:
    /// Adds a column of zeros as long as the table. \throws InvalidArgument on a duplicate name.
    std::size_t add_column(std::string name) {
        if (index_.contains(name)) throw InvalidArgument(continuum::detail::message("time series: duplicate column \"{}\"", name));
        index_.emplace(name, names_.size());
        names_.push_back(std::move(name));
        values_.emplace_back(rows_, 0.0);
        return names_.size() - 1;
    }
    /// Appends one row of zeros and returns its index.
    std::size_t add_row() {
        for (auto& column : values_) column.push_back(0.0);
        return rows_++;
    }
    void set(std::size_t column, std::size_t row, double value) { values_[column][row] = value; }

    [[nodiscard]] std::size_t rows() const { return rows_; }
    [[nodiscard]] const std::vector<std::string>& columns() const { return names_; }
    [[nodiscard]] bool has(std::string_view name) const { return index_.find(std::string(name)) != index_.end(); }
    /// \throws InvalidArgument when there is no such column.
    [[nodiscard]] const std::vector<double>& column(std::string_view name) const {
        const auto it = index_.find(std::string(name));
        if (it == index_.end()) throw InvalidArgument(continuum::detail::message("time series: no column \"{}\"", name));
        return values_[it->second];
    }

    /// CSV with a header row; numbers in shortest round-trip form.
    [[nodiscard]] std::string to_csv() const {
        std::string out;
        for (std::size_t c = 0; c < names_.size(); ++c) out += (c ? "," : "") + names_[c];
        out += '\n';
        for (std::size_t r = 0; r < rows_; ++r) {
            for (std::size_t c = 0; c < names_.size(); ++c) {
                if (c) out += ',';
                out += continuum::detail::message("{}", values_[c][r]);
            }
            out += '\n';
        }
        return out;
    }
    /// \throws InvalidArgument when the file cannot be written.
    void write_csv(const std::string& path) const {
        std::ofstream file(path);
        if (!file) throw InvalidArgument(continuum::detail::message("time series: cannot write \"{}\"", path));
        file << to_csv();
        if (!file) throw InvalidArgument(continuum::detail::message("time series: failed writing \"{}\"", path));
    }

private:
    std::vector<std::string> names_;
    std::map<std::string, std::size_t, std::less<>> index_;
    std::vector<std::vector<double>> values_;
    std::size_t rows_ = 0;
};

/// One pod creation attempt.
struct PodRecord {
    std::size_t deployment = 0;
    std::size_t namespace_index = 0;
    Time created{0};
    /// Set when the pod became Ready.
    std::optional<Time> ready;
    /// True when it stayed unscheduled past the pending timeout (a failed deployment).
    bool failed = false;
    /// True when it waited for a node to be provisioned at some point (not only for quota).
    bool waited_for_capacity = false;

    [[nodiscard]] double delay_seconds() const { return ready ? to_seconds(*ready - created) : 0.0; }
};

struct NamespaceSummary {
    std::string name;
    /// 100 x integral of quota / integral of demand over ticks with demand > 0; nullopt without a
    /// cpu quota or demand. Seed 001's QSR (its formula is not in our copy; this is the time-weighted
    /// reading of "quota over required resources").
    std::optional<double> quota_sufficiency_ratio;
    std::int64_t deployments_succeeded = 0;
    std::int64_t deployments_failed = 0;
    /// 100 x failed / (failed + succeeded): seed 001's DFR; 0 when nothing was deployed.
    double deployment_failure_ratio = 0;
    double pending_pod_seconds = 0;
    double quota_core_seconds = 0;
    double demand_core_seconds = 0;
};

struct DeploymentSummary {
    std::string name;
    /// CPU utilisation (used / ready requests, %) over ticks with ready pods.
    SampleStats utilisation;
    /// Seconds the deployment had demand but no ready pod, after it was first ready.
    double downtime_seconds = 0;
    /// Fewest ready pods after it was first ready (the make-before-break check).
    int min_ready_after_first_ready = 0;
    int max_ready = 0;
    double max_desired = 0;
    /// Unserved CPU demand (throttled), core-seconds.
    double unserved_core_seconds = 0;
    double demand_core_seconds = 0;
};

struct PoolSummary {
    std::string name;
    double cost = 0;
    double node_seconds = 0;
    int max_nodes = 0;
};

/// Everything one run measured.
struct SimulationResult {
    Duration simulated{0};
    double total_cost = 0;
    std::vector<PoolSummary> pools;
    std::vector<NamespaceSummary> namespaces;
    std::vector<DeploymentSummary> deployments;
    /// eta per node and tick, seconds-weighted (seed 000, Fig. 3c).
    PercentDistribution efficiency;
    /// Deployment delay (creation to Ready) of every pod that became ready.
    SampleStats deployment_delay;
    std::int64_t deployments_succeeded = 0;
    std::int64_t deployments_failed = 0;
    double deployment_failure_ratio = 0;
    double pending_pod_seconds = 0;
    std::int64_t evictions = 0;
    /// Mean CPU used / ready capacity over the run, %.
    double mean_cluster_cpu_utilisation = 0;
    TimeSeriesTable series;
    std::vector<PodRecord> pods;

    /// \throws InvalidArgument when there is no such entry.
    [[nodiscard]] const NamespaceSummary& namespace_summary(std::string_view name) const { return find(namespaces, name, "namespace"); }
    [[nodiscard]] const DeploymentSummary& deployment_summary(std::string_view name) const { return find(deployments, name, "deployment"); }
    [[nodiscard]] const PoolSummary& pool_summary(std::string_view name) const { return find(pools, name, "pool"); }

private:
    template <typename T>
    static const T& find(const std::vector<T>& items, std::string_view name, std::string_view what) {
        for (const auto& item : items) {
            if (item.name == name) return item;
        }
        throw InvalidArgument(continuum::detail::message("simulation result: no {} named \"{}\"", what, name));
    }
};

}  // namespace continuum::sim
