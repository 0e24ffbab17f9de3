// Internal: the consolidation engine behind plan_consolidation (dense residuals, greedy over
// candidate orders, exact subset search with a packing feasibility check).
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/core/detail/counted.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/packing/detail/dense.hpp>
#include <continuum/packing/placement.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::packing::detail {

/// Exact subset search when at most this many nodes are release candidates.
inline constexpr std::size_t consolidation_exact_candidates = 16;

template <typename = void>  // compiled only in units that consolidate
class Consolidator {
public:
    Consolidator(std::span<const NodeState> nodes, BudgetTracker& tracker) : nodes_(nodes), tracker_(tracker) {
        std::set<std::string> seen;
        std::vector<Resources> all;
        for (std::size_t j = 0; j < nodes.size(); ++j) {
            const auto& node = nodes[j];
            if (node.name.empty()) throw InvalidArgument(continuum::detail::message("nodes[{}] has an empty name", j));
            if (!seen.insert(node.name).second) throw InvalidArgument(continuum::detail::message("nodes[{}]: duplicate node name \"{}\"", j, node.name));
            if (!std::isfinite(node.cost) || node.cost < 0) throw InvalidArgument(continuum::detail::message("node \"{}\" cost must be finite and >= 0, got {}", node.name, node.cost));
            if (node.capacity.any_negative()) throw InvalidArgument(continuum::detail::message("node \"{}\" capacity has a negative amount: {}", node.name, node.capacity));
            all.push_back(node.capacity);
            for (const auto& pod : node.pods) {
                if (pod.request.any_negative()) throw InvalidArgument(continuum::detail::message("pod \"{}\" on node \"{}\" has a negative request: {}", pod.name, node.name, pod.request));
                all.push_back(pod.request);
            }
        }
        names_ = dimension_names(continuum::detail::span_of(all), {});
        d_ = names_.size();
        const auto row = [&](const Resources& r) {
            std::vector<std::int64_t> v(d_, 0);
            for (std::size_t k = 0; k < d_; ++k) v[k] = r.get(names_[k]);
            return v;
        };
        scale_.assign(d_, 0.0);
        for (std::size_t j = 0; j < nodes.size(); ++j) {
            auto cap = row(nodes[j].capacity);
            std::vector<std::int64_t> used(d_, 0);
            std::vector<std::vector<std::int64_t>> pods;
            for (const auto& pod : nodes[j].pods) {
                pods.push_back(row(pod.request));
                for (std::size_t k = 0; k < d_; ++k) {
                    if (__builtin_add_overflow(used[k], pods.back()[k], &used[k])) throw InvalidArgument(continuum::detail::message("node \"{}\": pod requests overflow int64", nodes[j].name));
                }
            }
            for (std::size_t k = 0; k < d_; ++k) {
                cap[k] -= used[k];
                scale_[k] = std::max(scale_[k], static_cast<double>(nodes[j].capacity.get(names_[k])));
            }
            residual_.push_back(std::move(cap));
            pod_rows_.push_back(std::move(pods));
        }
        for (auto& s : scale_) s = s > 0 ? 1.0 / s : 0.0;
        for (std::size_t j = 0; j < nodes.size(); ++j) {
            const bool all_movable = std::all_of(nodes[j].pods.begin(), nodes[j].pods.end(), [](const PlacedPod& p) { return p.movable; });
            if (all_movable) candidates_.push_back(j);
        }
    }

    ConsolidationPlan run() {
        struct Plan {
            std::vector<std::size_t> released;
            std::vector<std::pair<std::size_t, std::size_t>> pod_of;  // (node, pod index)
            std::vector<std::size_t> target;
        };
        Plan best;
        double best_value = -1;
        const auto consider = [&](Plan plan) {
            const double value = saved(plan.released);
            if (better(value, plan.released.size(), plan.target.size(), best_value, best.released.size(), best.target.size())) {
                best_value = value;
                best = std::move(plan);
            }
        };
        // Greedy over several orders.
        for (int ordering = 0; ordering < 3; ++ordering) {
            auto order = candidates_;
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                const double la = load(a), lb = load(b);
                switch (ordering) {
                    case 0: return nodes_[a].cost != nodes_[b].cost ? nodes_[a].cost > nodes_[b].cost : la < lb;
                    case 1: return la < lb;
                    default: return nodes_[a].pods.size() < nodes_[b].pods.size();
                }
            });
            auto residual = residual_;
            std::vector<char> released(nodes_.size(), 0), kept(nodes_.size(), 0);
            Plan plan;
            for (const auto c : order) {
                if (kept[c]) continue;
                std::vector<std::size_t> targets;
                if (!place_pods({c}, residual, released, c, targets)) continue;
                released[c] = 1;
                plan.released.push_back(c);
                const auto pods = pods_by_size({c});
                for (std::size_t q = 0; q < pods.size(); ++q) {
                    plan.pod_of.push_back(pods[q]);
                    plan.target.push_back(targets[q]);
                    kept[targets[q]] = 1;
                }
            }
            consider(std::move(plan));
        }
        // Exact search over subsets of candidates when there are few.
        bool exact = false;
        if (candidates_.size() <= consolidation_exact_candidates) {
            std::vector<std::size_t> chosen;
            std::vector<std::size_t> best_set = best.released;
            double best_set_value = best_value;
            std::vector<double> suffix_value(candidates_.size() + 1, 0.0);
            for (std::size_t i = candidates_.size(); i-- > 0;) suffix_value[i] = suffix_value[i + 1] + nodes_[candidates_[i]].cost;
            complete_ = true;
            search(0, chosen, suffix_value, best_set, best_set_value);
            exact = complete_;
            if (best_set != best.released && (best_set_value > best_value || best_set.size() > best.released.size())) {
                Plan plan;
                auto residual = residual_;
                std::vector<char> released(nodes_.size(), 0);
                for (const auto c : best_set) released[c] = 1;
                std::vector<std::size_t> targets;
                if (pack_exact(best_set, released, targets)) {
                    plan.released = best_set;
                    plan.pod_of = pods_by_size(best_set);
                    plan.target = targets;
                    consider(std::move(plan));
                }
            }
        }
        ConsolidationPlan out;
        for (const auto c : best.released) {
            out.nodes_to_release.push_back(nodes_[c].name);
            out.saved_cost += nodes_[c].cost;
        }
        for (std::size_t q = 0; q < best.pod_of.size(); ++q) {
            const auto [node, pod] = best.pod_of[q];
            out.moves.push_back(PodMove{nodes_[node].pods[pod].name, nodes_[node].name, nodes_[best.target[q]].name});
        }
        const std::size_t pinned = nodes_.size() - candidates_.size();
        if (out.nodes_to_release.empty()) {
            out.reason = continuum::detail::message("no node can be emptied: {} of {} nodes hold unmovable pods and the pods of every other node do not fit elsewhere",
                                                    pinned, nodes_.size());
        } else {
            std::string list;
            for (std::size_t i = 0; i < out.nodes_to_release.size(); ++i) list += (i ? ", " : "") + out.nodes_to_release[i];
            out.reason = continuum::detail::message("release {} of {} ({}) by moving {}; saves {:g} per unit of time{}", out.nodes_to_release.size(),
                                                    continuum::detail::counted(static_cast<std::int64_t>(nodes_.size()), "node"), list,
                                                    continuum::detail::counted(static_cast<std::int64_t>(out.moves.size()), "pod"), out.saved_cost,
                                                    exact ? " (proved maximal)" : "");
        }
        return out;
    }

private:
    static bool better(double value, std::size_t count, std::size_t moves, double best_value, std::size_t best_count, std::size_t best_moves) {
        if (value != best_value) return value > best_value;
        if (count != best_count) return count > best_count;
        return moves < best_moves;
    }
    [[nodiscard]] double saved(const std::vector<std::size_t>& set) const {
        double s = 0;
        for (const auto c : set) s += nodes_[c].cost;
        return s;
    }
    [[nodiscard]] double load(std::size_t j) const {
        double l = 0;
        for (const auto& pod : pod_rows_[j]) {
            for (std::size_t k = 0; k < d_; ++k) l += static_cast<double>(pod[k]) * scale_[k];
        }
        return l;
    }
    [[nodiscard]] double size(const std::vector<std::int64_t>& row) const {
        double s = 0;
        for (std::size_t k = 0; k < d_; ++k) s += static_cast<double>(row[k]) * scale_[k];
        return s;
    }
    /// Pods of `set`, largest first (ties: node, then pod index).
    [[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> pods_by_size(const std::vector<std::size_t>& set) const {
        std::vector<std::pair<std::size_t, std::size_t>> pods;
        for (const auto c : set) {
            for (std::size_t q = 0; q < pod_rows_[c].size(); ++q) pods.emplace_back(c, q);
        }
        std::stable_sort(pods.begin(), pods.end(), [&](const auto& a, const auto& b) { return size(pod_rows_[a.first][a.second]) > size(pod_rows_[b.first][b.second]); });
        return pods;
    }
    /// Best fit of the pods of `set` onto nodes not released and not in the set; commits into
    /// `residual` on success.
    bool place_pods(const std::vector<std::size_t>& set, std::vector<std::vector<std::int64_t>>& residual, const std::vector<char>& released,
                    std::size_t self, std::vector<std::size_t>& targets) const {
        auto trial = residual;
        targets.clear();
        for (const auto& [node, q] : pods_by_size(set)) {
            const auto& pod = pod_rows_[node][q];
            std::size_t best = nodes_.size();
            double best_score = 0;
            for (std::size_t j = 0; j < nodes_.size(); ++j) {
                if (j == self || released[j] || std::find(set.begin(), set.end(), j) != set.end()) continue;
                if (!fits(pod.data(), trial[j].data(), d_)) continue;
                double score = 0;
                for (std::size_t k = 0; k < d_; ++k) score += static_cast<double>(trial[j][k] - pod[k]) * scale_[k];
                if (best == nodes_.size() || score < best_score) {
                    best = j;
                    best_score = score;
                }
            }
            if (best == nodes_.size()) return false;
            for (std::size_t k = 0; k < d_; ++k) trial[best][k] -= pod[k];
            targets.push_back(best);
        }
        residual = std::move(trial);
        return true;
    }
    /// Greedy first, then a complete depth-first search (budget permitting) for a placement of the
    /// pods of `set` onto the nodes outside it.
    bool pack_exact(const std::vector<std::size_t>& set, const std::vector<char>& released, std::vector<std::size_t>& targets) {
        auto residual = residual_;
        if (place_pods(set, residual, released, nodes_.size(), targets)) return true;
        const auto pods = pods_by_size(set);
        std::vector<std::size_t> bins;
        for (std::size_t j = 0; j < nodes_.size(); ++j) {
            if (!released[j]) bins.push_back(j);
        }
        residual = residual_;
        targets.assign(pods.size(), 0);
        return assign(0, pods, bins, residual, targets);
    }
    bool assign(std::size_t q, const std::vector<std::pair<std::size_t, std::size_t>>& pods, const std::vector<std::size_t>& bins,
                std::vector<std::vector<std::int64_t>>& residual, std::vector<std::size_t>& targets) {
        if (q == pods.size()) return true;
        if (!tracker_.count()) {
            complete_ = false;
            return false;
        }
        const auto& pod = pod_rows_[pods[q].first][pods[q].second];
        for (std::size_t b = 0; b < bins.size(); ++b) {
            const auto j = bins[b];
            if (!fits(pod.data(), residual[j].data(), d_)) continue;
            bool duplicate = false;
            for (std::size_t a = 0; a < b && !duplicate; ++a) duplicate = residual[bins[a]] == residual[j];
            if (duplicate) continue;
            for (std::size_t k = 0; k < d_; ++k) residual[j][k] -= pod[k];
            targets[q] = j;
            const bool ok = assign(q + 1, pods, bins, residual, targets);
            for (std::size_t k = 0; k < d_; ++k) residual[j][k] += pod[k];
            if (ok) return true;
            if (!complete_) return false;
        }
        return false;
    }
    void search(std::size_t i, std::vector<std::size_t>& chosen, const std::vector<double>& suffix_value, std::vector<std::size_t>& best_set, double& best_value) {
        if (!complete_) return;
        const double value = saved(chosen);
        if (better(value, chosen.size(), 0, best_value, best_set.size(), 0)) {
            best_value = value;
            best_set = chosen;
        }
        if (i == candidates_.size()) return;
        if (value + suffix_value[i] < best_value || (value + suffix_value[i] == best_value && chosen.size() + (candidates_.size() - i) <= best_set.size())) return;
        // include candidates_[i] if the pods of chosen ∪ {i} fit on the rest
        chosen.push_back(candidates_[i]);
        std::vector<char> released(nodes_.size(), 0);
        for (const auto c : chosen) released[c] = 1;
        std::vector<std::size_t> targets;
        if (pack_exact(chosen, released, targets)) search(i + 1, chosen, suffix_value, best_set, best_value);
        chosen.pop_back();
        search(i + 1, chosen, suffix_value, best_set, best_value);
    }

    std::span<const NodeState> nodes_;
    BudgetTracker& tracker_;
    std::vector<std::string> names_;
    std::size_t d_ = 0;
    std::vector<double> scale_;
    std::vector<std::vector<std::int64_t>> residual_;
    std::vector<std::vector<std::vector<std::int64_t>>> pod_rows_;
    std::vector<std::size_t> candidates_;
    bool complete_ = true;
};

template <typename = void>
inline ConsolidationPlan consolidate(std::span<const NodeState> nodes, const Budget& budget) {
    BudgetTracker tracker(budget);
    Consolidator consolidator(nodes, tracker);
    return consolidator.run();
}

}  // namespace continuum::packing::detail
