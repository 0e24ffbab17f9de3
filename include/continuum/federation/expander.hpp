// The Cluster Autoscaler's expanders (kubernetes/autoscaler cluster-autoscaler/expander/): how CA
// chooses among node groups that could each host the pending pods. Reproduced from the Go code:
// random (seeded here), most-pods, least-nodes, least-waste (waste/waste.go) and priority with
// regex tiers (priority/priority.go). The price expander is in price_expander.hpp, chaining in
// expander_chain.hpp. Each filter returns the indices of the options tied for best, in input order.
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <regex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

/// One way to scale up (CA's expander.Option): add `node_count` nodes of `node_group`, whose
/// template node has `node_capacity` (Capacity, not Allocatable), so that `pods` can run.
struct ExpansionOption {
    std::string node_group;
    std::int64_t node_count = 1;
    std::vector<Resources> pods;      ///< requests of the pods that would land on the new nodes
    Resources node_capacity;          ///< the template node's capacity
    bool node_group_exists = true;    ///< false for a group CA would have to create (price: x2)
    bool gpu_label = false;           ///< the provider's GPU label is set on the template node

    /// CA's gpu.NodeHasGpu: the GPU label is set or the template has nvidia.com/gpu.
    [[nodiscard]] bool has_gpu() const { return gpu_label || node_capacity.gpus() > 0; }

    /// \throws InvalidArgument on an empty node_group, node_count < 0 or negative amounts.
    void validate() const {
        if (node_group.empty()) throw InvalidArgument("expansion option: node_group must not be empty");
        if (node_count < 0) throw InvalidArgument(fmt::format("expansion option {}: node_count must be >= 0, got {}", node_group, node_count));
        if (node_capacity.any_negative()) throw InvalidArgument(fmt::format("expansion option {}: negative node capacity {}", node_group, node_capacity));
        for (std::size_t i = 0; i < pods.size(); ++i) {
            if (pods[i].any_negative()) throw InvalidArgument(fmt::format("expansion option {}: pods[{}] has a negative request {}", node_group, i, pods[i]));
        }
    }
};

namespace detail {

inline std::vector<std::size_t> all_indices(std::size_t n) {
    std::vector<std::size_t> out(n);
    std::iota(out.begin(), out.end(), std::size_t{0});
    return out;
}

inline void validate_options(std::span<const ExpansionOption> options) {
    for (const auto& option : options) option.validate();
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator whose output is the same everywhere.
inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/// Uniform index in [0, n), n >= 1, by rejection (no modulo bias), reproducible from the seed.
inline std::size_t seeded_index(std::uint64_t seed, std::size_t n) {
    const std::uint64_t bound = static_cast<std::uint64_t>(n);
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
    std::uint64_t state = seed;
    while (true) {
        const std::uint64_t r = splitmix64(state);
        if (r < limit) return static_cast<std::size_t>(r % bound);
    }
}

/// Indices in `among` whose key is minimal (exact equality), in input order.
template <typename Key>
std::vector<std::size_t> keep_minimum(std::span<const std::size_t> among, const std::vector<std::optional<Key>>& keys) {
    std::vector<std::size_t> best;
    std::optional<Key> best_key;
    for (std::size_t k = 0; k < among.size(); ++k) {
        if (!keys[k]) continue;
        if (!best_key || *keys[k] < *best_key) {
            best_key = keys[k];
            best.assign(1, among[k]);
        } else if (*keys[k] == *best_key) {
            best.push_back(among[k]);
        }
    }
    return best;
}


/// Where the pattern has a digit escape (\1, \0, \4444…), or npos. ECMAScript reads every
/// digit after the backslash as one back-reference number, and libstdc++ converts it to an int
/// while parsing (signed overflow, undefined behaviour, for a long run of digits) before its
/// polynomial executor rejects back-references. RE2 has no back-references either.
inline std::size_t digit_escape(std::string_view pattern) {
    for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
        if (pattern[i] != '\\') continue;
        if (pattern[i + 1] >= '0' && pattern[i + 1] <= '9') return i;
        ++i;  // an escaped character, possibly a backslash
    }
    return std::string_view::npos;
}

/// Go's regexp (RE2 syntax) rejects a repetition count above 1000 and nested repetitions whose
/// product exceeds 1000 ("invalid repeat count", "expression too large"); libstdc++'s std::regex
/// has no such limit and overflows or expands {n} into n copies of the NFA (a ConfigMap could
/// exhaust the controller's memory). Returns the first offending count, or 0 when the pattern is
/// within RE2's limit. Escapes and bracket expressions are skipped; unbalanced parentheses are
/// left for std::regex to report.
inline std::int64_t excessive_repetition(std::string_view pattern) {
    constexpr std::int64_t limit = 1000;
    std::vector<std::int64_t> group_max{1};  // per open group: the largest multiplier inside it
    std::int64_t last_atom = 1;              // multiplier of the atom a quantifier would apply to
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\') {
            ++i;
            last_atom = 1;
        } else if (c == '[') {
            std::size_t j = i + 1;
            if (j < pattern.size() && pattern[j] == '^') ++j;
            if (j < pattern.size() && pattern[j] == ']') ++j;
            while (j < pattern.size() && pattern[j] != ']') j += (pattern[j] == '\\') ? 2 : 1;
            i = j;
            last_atom = 1;
        } else if (c == '(') {
            group_max.push_back(1);
            last_atom = 1;
        } else if (c == ')') {
            if (group_max.size() > 1) {
                last_atom = group_max.back();
                group_max.pop_back();
                group_max.back() = std::max(group_max.back(), last_atom);
            }
        } else if (c == '{') {
            // {m}, {m,} or {m,n}: anything else is a literal brace.
            std::size_t j = i + 1;
            std::int64_t largest = 0;
            bool digits = false;
            bool valid = true;
            for (int part = 0; part < 2 && valid; ++part) {
                std::int64_t value = 0;
                bool any = false;
                while (j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9') {
                    value = std::min<std::int64_t>(value * 10 + (pattern[j] - '0'), limit + 1);
                    any = true;
                    ++j;
                }
                if (part == 0 && !any) valid = false;
                digits = digits || any;
                largest = std::max(largest, value);
                if (part == 0 && j < pattern.size() && pattern[j] == ',') {
                    ++j;
                } else {
                    break;
                }
            }
            // std::regex reads the digits before it checks for the closing brace: reject a huge
            // count even in a malformed quantifier.
            if (largest > limit) return largest;
            if (!valid || !digits || j >= pattern.size() || pattern[j] != '}') {
                last_atom = 1;
                continue;
            }
            const std::int64_t effective = last_atom * std::max<std::int64_t>(largest, 1);
            if (effective > limit) return effective;
            group_max.back() = std::max(group_max.back(), effective);
            i = j;
        } else {
            last_atom = 1;
        }
    }
    return 0;
}

}  // namespace detail

/// `random`: one option chosen uniformly with a seeded generator (CA uses rand.Int31n; continuum
/// takes the seed so decisions are reproducible). Empty input gives an empty result.
/// \throws InvalidArgument when an index in `among` is out of range.
inline std::vector<std::size_t> random_option(std::span<const ExpansionOption> options, std::span<const std::size_t> among, std::uint64_t seed) {
    for (const auto i : among) {
        if (i >= options.size()) throw InvalidArgument(fmt::format("expander: option index {} out of range for {} options", i, options.size()));
    }
    if (among.empty()) return {};
    return {among[detail::seeded_index(seed, among.size())]};
}
inline std::vector<std::size_t> random_option(std::span<const ExpansionOption> options, std::uint64_t seed) {
    return random_option(options, detail::all_indices(options.size()), seed);
}

/// `most-pods`: the options that schedule the most pods (len(Pods) maximal).
inline std::vector<std::size_t> most_pods(std::span<const ExpansionOption> options, std::span<const std::size_t> among) {
    std::vector<std::optional<std::int64_t>> keys;
    keys.reserve(among.size());
    for (const auto i : among) keys.emplace_back(-static_cast<std::int64_t>(options[i].pods.size()));
    return detail::keep_minimum(among, keys);
}
inline std::vector<std::size_t> most_pods(std::span<const ExpansionOption> options) {
    return most_pods(options, detail::all_indices(options.size()));
}

/// `least-nodes` (CA 1.31): the options adding the fewest nodes; options with node_count 0 are skipped.
inline std::vector<std::size_t> least_nodes(std::span<const ExpansionOption> options, std::span<const std::size_t> among) {
    std::vector<std::optional<std::int64_t>> keys;
    keys.reserve(among.size());
    for (const auto i : among) keys.push_back(options[i].node_count > 0 ? std::optional<std::int64_t>(options[i].node_count) : std::nullopt);
    return detail::keep_minimum(among, keys);
}
inline std::vector<std::size_t> least_nodes(std::span<const ExpansionOption> options) {
    return least_nodes(options, detail::all_indices(options.size()));
}

/// CA's least-waste score of one option (waste/waste.go):
///   (cap.cpu x n - sum cpu requests) / (cap.cpu x n) + (cap.mem x n - sum mem requests) / (cap.mem x n)
/// on the template's Capacity, CPU in millicores and memory in bytes; GPUs and other resources are ignored.
/// nullopt when node_count is 0 or the capacity has no cpu or no memory (CA would divide by zero).
inline std::optional<double> least_waste_score(const ExpansionOption& option) {
    const std::int64_t n = option.node_count;
    const std::int64_t cpu = option.node_capacity.cpu_millis();
    const std::int64_t memory = option.node_capacity.memory_bytes();
    if (n <= 0 || cpu <= 0 || memory <= 0) return std::nullopt;
    // 128-bit sums and products: capacity x node_count and the summed requests may leave int64.
    __extension__ using Wide = __int128;
    Wide requested_cpu = 0;
    Wide requested_memory = 0;
    for (const auto& pod : option.pods) {
        requested_cpu += pod.cpu_millis();
        requested_memory += pod.memory_bytes();
    }
    const Wide available_cpu = static_cast<Wide>(cpu) * n;
    const Wide available_memory = static_cast<Wide>(memory) * n;
    const double wasted_cpu = static_cast<double>(available_cpu - requested_cpu) / static_cast<double>(available_cpu);
    const double wasted_memory = static_cast<double>(available_memory - requested_memory) / static_cast<double>(available_memory);
    return wasted_cpu + wasted_memory;
}

/// `least-waste`: the options with the smallest least_waste_score (options without a score drop out).
inline std::vector<std::size_t> least_waste(std::span<const ExpansionOption> options, std::span<const std::size_t> among) {
    std::vector<std::optional<double>> keys;
    keys.reserve(among.size());
    for (const auto i : among) keys.push_back(least_waste_score(options[i]));
    return detail::keep_minimum(among, keys);
}
inline std::vector<std::size_t> least_waste(std::span<const ExpansionOption> options) {
    return least_waste(options, detail::all_indices(options.size()));
}

/// The priority expander's configuration (ConfigMap cluster-autoscaler-priority-expander, key
/// `priorities`): integer priority -> regular expressions matched (unanchored, as Go's
/// FindStringIndex) against node-group ids. Patterns use ECMAScript syntax (std::regex), which
/// agrees with Go's RE2 on the usual id patterns (.*, [a-z]+, ^...$, alternation); as in RE2, matching
/// takes polynomial time (with libstdc++) and back-references are rejected.
class PriorityTiers {
public:
    PriorityTiers() = default;

    /// \throws ParseError naming the priority and the pattern when a pattern does not compile,
    ///         repeats more than 1000 times (RE2's limit, also for nested repetitions) or has a
    ///         digit escape (a back-reference in ECMAScript; RE2 has none).
    explicit PriorityTiers(std::map<int, std::vector<std::string>> tiers) : patterns_(std::move(tiers)) {
        for (const auto& [priority, list] : patterns_) {
            for (const auto& pattern : list) {
                if (const auto at = detail::digit_escape(pattern); at != std::string_view::npos) {
                    throw ParseError(fmt::format("priority expander: cannot compile regexp \"{}\" for priority {}: back-reference or octal "
                                                 "escape at offset {} (Go's RE2 has no back-references)", pattern, priority, at));
                }
                if (const auto count = detail::excessive_repetition(pattern); count != 0) {
                    throw ParseError(fmt::format("priority expander: cannot compile regexp \"{}\" for priority {}: repetition count {} exceeds "
                                                 "1000 (Go's RE2 limit)", pattern, priority, count));
                }
                try {
                    compiled_.emplace_back(priority, std::regex(pattern, syntax()));
                } catch (const std::regex_error& e) {
                    throw ParseError(fmt::format("priority expander: cannot compile regexp \"{}\" for priority {}: {}", pattern, priority, e.what()));
                }
            }
        }
    }

    /// Parses the ConfigMap's YAML value, e.g. "10:\n  - .*-spot-.*\n50:\n  - ^gpu-.*\n".
    /// Accepts "<int>:" lines opening a tier and "- <pattern>" lines (optionally quoted) under it;
    /// blank lines and '#' comments are ignored.
    /// \throws ParseError naming the line for anything else, and on an empty configuration.
    static PriorityTiers parse(std::string_view yaml);

    [[nodiscard]] bool empty() const { return compiled_.empty(); }
    [[nodiscard]] const std::map<int, std::vector<std::string>>& tiers() const { return patterns_; }

    /// The highest priority whose patterns match `node_group`, if any.
    [[nodiscard]] std::optional<int> highest_match(std::string_view node_group) const {
        std::optional<int> best;
        for (const auto& [priority, re] : compiled_) {
            if ((!best || priority > *best) && std::regex_search(node_group.begin(), node_group.end(), re)) best = priority;
        }
        return best;
    }

private:
    /// ECMAScript, matched in polynomial time where the standard library allows it: libstdc++'s
    /// default backtracking executor takes exponential time on patterns such as ".**a" or
    /// "(a*)*b" (a ConfigMap could hang the controller); its __polynomial executor does not, and
    /// like Go's RE2 it rejects back-references.
    static std::regex::flag_type syntax() {
#ifdef __GLIBCXX__
        return std::regex::ECMAScript | std::regex_constants::__polynomial;
#else
        return std::regex::ECMAScript;
#endif
    }

    std::map<int, std::vector<std::string>> patterns_;
    std::vector<std::pair<int, std::regex>> compiled_;
};

/// `priority` (priority/priority.go): keep the options whose node group matches a pattern of the
/// highest priority that matches any option. As in CA, the running maximum starts at -1, so
/// priorities below -1 never select; when no option is selected (or there are no tiers), every
/// option passes through unchanged.
inline std::vector<std::size_t> priority(std::span<const ExpansionOption> options, std::span<const std::size_t> among, const PriorityTiers& tiers) {
    std::vector<std::optional<int>> keys;
    keys.reserve(among.size());
    for (const auto i : among) {
        const auto match = tiers.highest_match(options[i].node_group);
        keys.push_back(match && *match >= -1 ? std::optional<int>(-*match) : std::nullopt);
    }
    auto best = detail::keep_minimum(among, keys);
    if (best.empty()) return {among.begin(), among.end()};
    return best;
}
inline std::vector<std::size_t> priority(std::span<const ExpansionOption> options, const PriorityTiers& tiers) {
    return priority(options, detail::all_indices(options.size()), tiers);
}

inline PriorityTiers PriorityTiers::parse(std::string_view yaml) {
    std::map<int, std::vector<std::string>> tiers;
    std::optional<int> current;
    std::size_t line_number = 0;
    std::size_t pos = 0;
    const auto trim = [](std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
        return s;
    };
    while (pos <= yaml.size()) {
        const std::size_t end = std::min(yaml.find('\n', pos), yaml.size());
        std::string_view line = trim(yaml.substr(pos, end - pos));
        pos = end + 1;
        ++line_number;
        if (line.empty() || line.front() == '#') continue;
        if (line.back() == ':') {
            const std::string_view number = trim(line.substr(0, line.size() - 1));
            int value = 0;
            const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
            if (ec == std::errc() && ptr == number.data() + number.size() && !number.empty()) {
                current = value;
                tiers[value];
                continue;
            }
            if (line.front() != '-') {
                throw ParseError(fmt::format("priority expander configuration, line {}: \"{}\" is not an integer priority", line_number, number));
            }
        }
        if (line.front() == '-') {
            if (!current) throw ParseError(fmt::format("priority expander configuration, line {}: pattern \"{}\" before any priority", line_number, line));
            std::string_view pattern = trim(line.substr(1));
            if (pattern.size() >= 2 && (pattern.front() == '"' || pattern.front() == '\'') && pattern.back() == pattern.front()) {
                pattern = pattern.substr(1, pattern.size() - 2);
            }
            if (pattern.empty()) throw ParseError(fmt::format("priority expander configuration, line {}: empty pattern", line_number));
            tiers[*current].emplace_back(pattern);
            continue;
        }
        throw ParseError(fmt::format("priority expander configuration, line {}: expected \"<priority>:\" or \"- <pattern>\", got \"{}\"", line_number, line));
    }
    if (tiers.empty()) throw ParseError("priority expander configuration is empty");
    return PriorityTiers(std::move(tiers));
}

}  // namespace continuum::federation
