// Chained expanders, as CA's --expander=least-waste,price (expander/factory/chain.go, CA >= 1.23):
// each filter narrows the set of options tied for best, the chain stops as soon as one is left,
// and a seeded random choice breaks the final tie. Names are CA's flag values.
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/federation/expander.hpp>
#include <continuum/federation/price_expander.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::federation {

/// The expanders a chain can hold.
enum class ExpanderKind { random, most_pods, least_nodes, least_waste, price, priority };

/// CA's flag spelling: "random", "most-pods", "least-nodes", "least-waste", "price", "priority".
inline std::string_view to_string(ExpanderKind kind) {
    switch (kind) {
        case ExpanderKind::random: return "random";
        case ExpanderKind::most_pods: return "most-pods";
        case ExpanderKind::least_nodes: return "least-nodes";
        case ExpanderKind::least_waste: return "least-waste";
        case ExpanderKind::price: return "price";
        case ExpanderKind::priority: return "priority";
    }
    return "?";
}

/// What the expanders need besides the options: the pricing model and cluster size (price) and
/// the priority tiers (priority).
struct ExpanderContext {
    PricingModel pricing;
    std::int64_t cluster_node_count = 0;
    PriorityTiers priorities;
};

/// The outcome of a chain: the chosen option, the tie set after each stage, and a readable reason.
struct ExpanderChoice {
    std::optional<std::size_t> best;                ///< index into the options; nullopt when none qualifies
    std::vector<std::vector<std::size_t>> stages;   ///< tie set after each filter that ran, in order
    bool random_tie_break = false;                  ///< true when the seeded random choice decided
    std::string reason;
};

/// An ordered chain of expanders.
class ExpanderChain {
public:
    /// \throws InvalidArgument on an empty chain, a repeated expander, or "random" anywhere but last
    ///         (it returns a single option, so anything after it could never act).
    explicit ExpanderChain(std::vector<ExpanderKind> kinds) : kinds_(std::move(kinds)) {
        if (kinds_.empty()) throw InvalidArgument("expander chain must name at least one expander");
        for (std::size_t i = 0; i < kinds_.size(); ++i) {
            if (std::find(kinds_.begin(), kinds_.begin() + static_cast<std::ptrdiff_t>(i), kinds_[i]) != kinds_.begin() + static_cast<std::ptrdiff_t>(i)) {
                throw InvalidArgument(fmt::format("expander {} was specified more than once in \"{}\"", federation::to_string(kinds_[i]), to_string()));
            }
            if (kinds_[i] == ExpanderKind::random && i + 1 != kinds_.size()) {
                throw InvalidArgument(fmt::format("expander random returns a single option and must come last in \"{}\"", to_string()));
            }
        }
    }

    /// Parses CA's --expander value, e.g. "priority,least-waste" (spaces around commas allowed).
    /// \throws ParseError on an unknown or empty name; InvalidArgument as the constructor.
    static ExpanderChain parse(std::string_view flag) {
        std::vector<ExpanderKind> kinds;
        std::size_t pos = 0;
        while (true) {
            const std::size_t comma = std::min(flag.find(',', pos), flag.size());
            std::string_view name = flag.substr(pos, comma - pos);
            while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
            while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
            bool known = false;
            for (const auto kind : {ExpanderKind::random, ExpanderKind::most_pods, ExpanderKind::least_nodes, ExpanderKind::least_waste, ExpanderKind::price,
                                    ExpanderKind::priority}) {
                if (name == federation::to_string(kind)) {
                    kinds.push_back(kind);
                    known = true;
                }
            }
            if (!known) {
                throw ParseError(fmt::format("expander \"{}\" in \"{}\" is not one of random, most-pods, least-nodes, least-waste, price, priority", name, flag));
            }
            if (comma == flag.size()) break;
            pos = comma + 1;
        }
        return ExpanderChain(std::move(kinds));
    }

    [[nodiscard]] const std::vector<ExpanderKind>& kinds() const { return kinds_; }
    [[nodiscard]] std::string to_string() const {
        std::vector<std::string_view> names;
        for (const auto k : kinds_) names.push_back(federation::to_string(k));
        return fmt::format("{}", fmt::join(names, ","));
    }

    /// Runs the chain. Filters apply in order, each to the previous tie set; as soon as one option is
    /// left it is chosen; otherwise a uniform choice seeded by `seed` picks among the survivors.
    /// \throws InvalidArgument on invalid options, or from the price expander (missing pricing model, bad prices).
    [[nodiscard]] ExpanderChoice choose(std::span<const ExpansionOption> options, const ExpanderContext& context, std::uint64_t seed = 0) const {
        detail::validate_options(options);
        ExpanderChoice out;
        std::vector<std::size_t> tied = detail::all_indices(options.size());
        std::vector<std::string> log;
        for (const auto kind : kinds_) {
            if (tied.empty()) break;
            tied = apply(kind, options, tied, context, seed);
            out.stages.push_back(tied);
            log.push_back(fmt::format("{} kept {}", federation::to_string(kind), names(options, tied)));
            if (kind == ExpanderKind::random) out.random_tie_break = tied.size() == 1;
            if (tied.size() == 1) break;
        }
        if (tied.size() > 1) {
            tied = random_option(options, tied, seed);
            out.random_tie_break = true;
            log.push_back(fmt::format("random tie-break (seed {}) chose {}", seed, names(options, tied)));
        }
        if (!tied.empty()) out.best = tied.front();
        out.reason = options.empty() ? "no expansion options" : tied.empty() ? fmt::format("no option qualifies: {}", fmt::join(log, "; "))
                                                                               : fmt::format("{}: {}", options[tied.front()].node_group, fmt::join(log, "; "));
        return out;
    }

private:
    static std::string names(std::span<const ExpansionOption> options, const std::vector<std::size_t>& indices) {
        std::vector<std::string_view> out;
        for (const auto i : indices) out.push_back(options[i].node_group);
        return fmt::format("[{}]", fmt::join(out, ", "));
    }

    static std::vector<std::size_t> apply(ExpanderKind kind, std::span<const ExpansionOption> options, const std::vector<std::size_t>& among,
                                          const ExpanderContext& context, std::uint64_t seed) {
        switch (kind) {
            case ExpanderKind::random: return random_option(options, among, seed);
            case ExpanderKind::most_pods: return most_pods(options, among);
            case ExpanderKind::least_nodes: return least_nodes(options, among);
            case ExpanderKind::least_waste: return least_waste(options, among);
            case ExpanderKind::price: return price(options, among, context.pricing, context.cluster_node_count);
            case ExpanderKind::priority: return priority(options, among, context.priorities);
        }
        return {};
    }

    std::vector<ExpanderKind> kinds_;
};

}  // namespace continuum::federation
