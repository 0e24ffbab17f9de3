// Chained expanders, as CA's --expander=priority,least-waste (expander/factory/chain.go and
// expander_factory.go): each filter narrows the options tied for best, the chain stops as soon as one
// is left, and a fallback strategy picks among the survivors (CA: random; here seeded, or any
// strategy you pass). Stages are built-ins named as CA's flag values or your own filters.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/federation/expander.hpp>
#include <continuum/federation/price_expander.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::federation {

/// The built-in expanders a chain can hold.
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

/// A type-erased filter (any OptionFilter), e.g. a lambda, PriorityTiers or a Python callable.
using AnyOptionFilter = std::function<FilterResult(std::span<const ExpansionOption>, std::span<const std::size_t>)>;
/// A type-erased strategy (any OptionStrategy).
using AnyOptionStrategy = std::function<std::optional<std::size_t>(std::span<const ExpansionOption>, std::span<const std::size_t>)>;

namespace detail {
template <OptionFilter F>
AnyOptionFilter erase_filter(F filter) {
    return [filter = std::move(filter)](std::span<const ExpansionOption> options, std::span<const std::size_t> among) -> FilterResult {
        using Result = std::invoke_result_t<const F&, std::span<const ExpansionOption>, std::span<const std::size_t>>;
        if constexpr (std::convertible_to<Result, FilterResult>) {
            return filter(options, among);
        } else {
            return FilterResult{filter(options, among), {}};
        }
    };
}
}  // namespace detail

/// What the built-in expanders need besides the options: price's context (pricing model, cluster
/// size or preferred node, GPU label) and priority's filter (a PriorityTiers from
/// <continuum/federation/priority_config.hpp>, or any OptionFilter).
struct ExpanderContext {
    PricingModel pricing;
    std::int64_t cluster_node_count = 0;
    std::optional<Resources> preferred_node;  ///< overrides the cluster-size preferred node when set
    std::string gpu_label;                    ///< the cloud provider's GPU label, "" for none
    AnyOptionFilter priority;                 ///< the "priority" stage; empty: a chain naming priority throws

    [[nodiscard]] PriceContext price_context() const { return {pricing, cluster_node_count, preferred_node, gpu_label}; }
};

/// One stage of a chain: a built-in expander or a named user filter.
template <typename Defer = void>
class BasicExpanderStage {
public:
    BasicExpanderStage(ExpanderKind kind) : name_(federation::to_string(kind)), kind_(kind) {}  // NOLINT: implicit, so {ExpanderKind::price, ...} works

    /// A user filter under `name` (which must be unique in its chain and not empty).
    template <OptionFilter F>
    BasicExpanderStage(std::string name, F filter) : name_(std::move(name)), filter_(detail::erase_filter(std::move(filter))) {
        if (name_.empty()) throw InvalidArgument("expander stage: a user filter needs a non-empty name");
    }

    [[nodiscard]] const std::string& name() const { return name_; }
    /// The built-in kind, or nullopt for a user filter.
    [[nodiscard]] std::optional<ExpanderKind> kind() const { return kind_; }

    /// Runs the stage on `among`. \throws InvalidArgument when a user filter keeps an index not in `among`.
    [[nodiscard]] FilterResult run(std::span<const ExpansionOption> options, std::span<const std::size_t> among, const ExpanderContext& context,
                                   std::uint64_t seed) const {
        if (!kind_) return checked(filter_(options, among), among);
        switch (*kind_) {
            case ExpanderKind::random: return {random_option(options, among, seed), {}};
            case ExpanderKind::most_pods: return {most_pods(options, among), {}};
            case ExpanderKind::least_nodes: return {least_nodes(options, among), {}};
            case ExpanderKind::least_waste: return {least_waste(options, among), {}};
            case ExpanderKind::price: return price<Defer>(options, among, context.price_context());
            case ExpanderKind::priority:
                if (!context.priority) {
                    throw InvalidArgument("expander chain: \"priority\" needs ExpanderContext::priority (a PriorityTiers from "
                                          "<continuum/federation/priority_config.hpp>, or any filter)");
                }
                return checked(context.priority(options, among), among);
        }
        return {};
    }

private:
    FilterResult checked(FilterResult result, std::span<const std::size_t> among) const {
        for (const auto i : result.kept) {
            if (std::find(among.begin(), among.end(), i) == among.end()) {
                throw InvalidArgument(continuum::detail::message("expander filter {} returned option index {}, which was not among its candidates", name_, i));
            }
        }
        return result;
    }

    std::string name_;
    std::optional<ExpanderKind> kind_;
    AnyOptionFilter filter_;
};

/// `ExpanderStage` is `BasicExpanderStage<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using ExpanderStage = BasicExpanderStage<>;

/// The strategy that ends a chain (CA's fallback): the seeded random choice by default, or yours.
template <typename Defer = void>
class BasicExpanderStrategy {
public:
    /// CA's random strategy, seeded by the seed passed to ExpanderChain::choose.
    static BasicExpanderStrategy random() { return BasicExpanderStrategy(); }

    /// A user strategy under `name`; it returns one index from `among`, or nullopt for none.
    template <OptionStrategy S>
    BasicExpanderStrategy(std::string name, S strategy) : name_(std::move(name)), strategy_(std::move(strategy)) {
        if (name_.empty()) throw InvalidArgument("expander strategy: a user strategy needs a non-empty name");
    }

    [[nodiscard]] const std::string& name() const { return name_; }
    [[nodiscard]] bool is_random() const { return !strategy_; }

    /// \throws InvalidArgument when a user strategy picks an index not in `among`.
    [[nodiscard]] std::optional<std::size_t> pick(std::span<const ExpansionOption> options, std::span<const std::size_t> among, std::uint64_t seed) const {
        if (!strategy_) {
            const auto chosen = random_option(options, among, seed);
            return chosen.empty() ? std::nullopt : std::optional<std::size_t>(chosen.front());
        }
        const std::optional<std::size_t> chosen = strategy_(options, among);
        if (chosen && std::find(among.begin(), among.end(), *chosen) == among.end()) {
            throw InvalidArgument(continuum::detail::message("expander strategy {} chose option index {}, which was not among its candidates", name_, *chosen));
        }
        return chosen;
    }

private:
    BasicExpanderStrategy() : name_("random") {}

    std::string name_;
    AnyOptionStrategy strategy_;
};

/// `ExpanderStrategy` is `BasicExpanderStrategy<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using ExpanderStrategy = BasicExpanderStrategy<>;

/// The outcome of a chain: the chosen option, the tie set after each stage, and a readable reason.
struct ExpanderChoice {
    std::optional<std::size_t> best;                ///< index into the options; nullopt when none qualifies
    std::vector<std::vector<std::size_t>> stages;   ///< tie set after each filter that ran, in order
    bool fallback_used = false;                     ///< true when the fallback strategy decided
    bool random_tie_break = false;                  ///< true when the seeded random choice decided (random stage or fallback)
    std::vector<std::string> warnings;              ///< what the filters would log (CA's warnings and events), in order
    std::string reason;
};

/// An ordered chain of stages and a fallback strategy (CA's chainStrategy).
template <typename Defer = void>
class BasicExpanderChain {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    /// \throws InvalidArgument on a repeated stage name, or "random" anywhere but last (it returns a
    ///         single option, so anything after it could never act; CA's factory refuses it too).
    ///         An empty list of stages is allowed: the fallback alone decides (CA's chain_test).
    explicit BasicExpanderChain(std::vector<ExpanderStage> stages, ExpanderStrategy fallback = ExpanderStrategy::random())
        : stages_(std::move(stages)), fallback_(std::move(fallback)) {
        for (std::size_t i = 0; i < stages_.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                if (stages_[j].name() == stages_[i].name()) {
                    throw InvalidArgument(continuum::detail::message("expander {} was specified more than once in \"{}\"", stages_[i].name(), to_string()));
                }
            }
            if (stages_[i].kind() == ExpanderKind::random && i + 1 != stages_.size()) {
                throw InvalidArgument(continuum::detail::message("expander random returns a single option and must come last in \"{}\"", to_string()));
            }
        }
    }
    /// Built-ins only, e.g. {ExpanderKind::priority, ExpanderKind::least_waste}.
    /// \throws InvalidArgument on an empty list, and as the main constructor.
    explicit BasicExpanderChain(const std::vector<ExpanderKind>& kinds) : BasicExpanderChain(std::vector<ExpanderStage>(kinds.begin(), kinds.end())) {
        if (kinds.empty()) throw InvalidArgument("expander chain must name at least one expander");
    }
    explicit BasicExpanderChain(std::initializer_list<ExpanderKind> kinds) : BasicExpanderChain(std::vector<ExpanderKind>(kinds)) {}

    /// Parses CA's --expander value, e.g. "priority,least-waste" (spaces around commas allowed).
    /// \throws ParseError on an unknown or empty name; InvalidArgument as the constructor.
    static BasicExpanderChain parse(std::string_view flag, ExpanderStrategy fallback = ExpanderStrategy::random()) {
        Dep<std::vector<ExpanderStage>> stages;
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
                    stages.emplace_back(kind);
                    known = true;
                }
            }
            if (!known) {
                throw ParseError(continuum::detail::message("expander \"{}\" in \"{}\" is not one of random, most-pods, least-nodes, least-waste, price, priority", name, flag));
            }
            if (comma == flag.size()) break;
            pos = comma + 1;
        }
        return BasicExpanderChain(std::move(stages), std::move(fallback));
    }

    [[nodiscard]] const std::vector<ExpanderStage>& stages() const { return stages_; }
    [[nodiscard]] const ExpanderStrategy& fallback() const { return fallback_; }
    /// The built-in kinds in order (user stages are left out).
    [[nodiscard]] std::vector<ExpanderKind> kinds() const {
        Dep<std::vector<ExpanderKind>> out;
        for (const auto& stage : stages_) {
            if (stage.kind()) out.push_back(*stage.kind());
        }
        return out;
    }
    /// The stage names joined by commas, as CA's flag (user stages under their names).
    [[nodiscard]] std::string to_string() const {
        Dep<std::vector<std::string_view>> names;
        for (const auto& stage : stages_) names.push_back(stage.name());
        return continuum::detail::message("{}", fmt::join(names, ","));
    }

    /// Runs the chain. Stages apply in order, each to the previous tie set; as soon as one option is
    /// left it is chosen (CA returns it without asking the fallback); otherwise the fallback picks
    /// among the survivors (the seeded random choice unless another strategy was given).
    /// \throws InvalidArgument on invalid options, a "priority" stage without ExpanderContext::priority,
    ///         a user filter or strategy returning an index it was not offered, or from the price expander.
    [[nodiscard]] ExpanderChoice choose(std::span<const ExpansionOption> options, const ExpanderContext& context, std::uint64_t seed = 0) const {
        detail::validate_options<Defer>(options);
        ExpanderChoice out;
        Dep<std::vector<std::size_t>> tied = detail::all_indices(options.size());
        Dep<std::vector<std::string>> log;
        bool decided = false;
        for (const auto& stage : stages_) {
            auto result = stage.run(options, continuum::detail::span_of(tied), context, seed);
            tied = std::move(result.kept);
            out.warnings.insert(out.warnings.end(), std::make_move_iterator(result.warnings.begin()), std::make_move_iterator(result.warnings.end()));
            out.stages.push_back(tied);
            log.push_back(continuum::detail::message("{} kept {}", stage.name(), names(options, tied)));
            if (stage.kind() == ExpanderKind::random) out.random_tie_break = tied.size() == 1;
            if (tied.size() <= 1) {  // one left: chosen; none left: CA's fallback gets nothing to pick
                decided = true;
                break;
            }
        }
        if (!decided) {
            const auto chosen = fallback_.pick(options, continuum::detail::span_of(tied), seed);
            out.fallback_used = true;
            out.random_tie_break = fallback_.is_random() && chosen.has_value();
            log.push_back(fallback_.is_random() ? continuum::detail::message("random fallback (seed {}) chose {}", seed, chosen ? options[*chosen].node_group : "nothing")
                                                : continuum::detail::message("fallback {} chose {}", fallback_.name(), chosen ? options[*chosen].node_group : "nothing"));
            tied = chosen ? std::vector<std::size_t>{*chosen} : std::vector<std::size_t>{};
        }
        if (!tied.empty()) out.best = tied.front();
        out.reason = options.empty() ? "no expansion options" : tied.empty() ? continuum::detail::message("no option qualifies: {}", fmt::join(log, "; "))
                                                                               : continuum::detail::message("{}: {}", options[tied.front()].node_group, fmt::join(log, "; "));
        return out;
    }

private:
    static std::string names(std::span<const ExpansionOption> options, const std::vector<std::size_t>& indices) {
        Dep<std::vector<std::string_view>> out;
        for (const auto i : indices) out.push_back(options[i].node_group);
        return continuum::detail::message("[{}]", fmt::join(out, ", "));
    }

    Dep<std::vector<ExpanderStage>> stages_;
    ExpanderStrategy fallback_;
};

/// `ExpanderChain` is `BasicExpanderChain<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using ExpanderChain = BasicExpanderChain<>;

}  // namespace continuum::federation
