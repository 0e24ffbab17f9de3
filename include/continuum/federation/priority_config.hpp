// The Cluster Autoscaler's priority expander and its ConfigMap (expander/priority/priority.go):
// the YAML value of key `priorities` in cluster-autoscaler-priority-expander, parsed with yaml-cpp
// as Go's yaml.v2 reads it into map[int][]string, patterns compiled with RE2 (the C++ library of
// the syntax Go's regexp implements). Optional: link continuum::priority_config (yaml-cpp, RE2).
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/federation/expander.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

namespace continuum::federation {

namespace priority_expander {
/// The ConfigMap CA reads (PriorityConfigMapName) and its key (ConfigMapKey).
inline constexpr std::string_view config_map_name = "cluster-autoscaler-priority-expander";
inline constexpr std::string_view config_map_key = "priorities";
}  // namespace priority_expander

/// The priority expander's configuration: priority -> regular expressions matched (unanchored, as
/// Go's FindStringIndex) against node-group ids. A PriorityTiers is itself a filter (OptionFilter):
/// put it in ExpanderContext::priority, or call it. Immutable after construction; const use is
/// thread-safe (RE2 objects are).
template <typename Defer = void>
class BasicPriorityTiers {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    /// No configuration at all (CA: the ConfigMap value is ""): the filter keeps every option, with
    /// CA's "configuration is empty" warning.
    BasicPriorityTiers() = default;

    /// \throws ParseError naming the priority and the pattern when RE2 does not compile a pattern.
    explicit BasicPriorityTiers(std::map<std::int64_t, std::vector<std::string>> tiers) : patterns_(std::move(tiers)), configured_(true) {
        RE2::Options options;
        options.set_log_errors(false);
        for (const auto& [priority, list] : patterns_) {
            for (const auto& pattern : list) {
                auto re = std::make_shared<const RE2>(pattern, options);
                if (!re->ok()) {
                    throw ParseError(continuum::detail::message("priority expander: can't compile regexp rule for priority {} and rule \"{}\": {}", priority, pattern, re->error()));
                }
                compiled_.emplace_back(priority, std::move(re));
            }
        }
    }

    /// Parses the ConfigMap's value as YAML (yaml-cpp), with yaml.v2's reading of map[int][]string:
    /// keys are plain integer scalars (10, -5, 0x10, 010 octal), values sequences of strings (scalars
    /// keep their text; "~" is ""), a null value is an empty tier, a repeated key keeps the last
    /// value; double-quoted escapes are decoded (".*t2\\.micro.*" is the regex .*t2\.micro.*).
    /// "" gives the unconfigured PriorityTiers (CA warns and filters nothing); a document that is
    /// only comments or null gives no tiers.
    /// \throws ParseError naming the line for malformed YAML, a non-mapping document, a key that is
    ///         not an integer, a value that is not a sequence of scalars; and as the constructor.
    static BasicPriorityTiers parse(std::string_view yaml) {
        if (yaml.empty()) return BasicPriorityTiers();
        YAML::Node root;
        try {
            root = YAML::Load(std::string(yaml));
        } catch (const YAML::Exception& e) {
            throw ParseError(continuum::detail::message("priority expander: can't parse YAML with priorities in the configmap: {}", e.what()));
        }
        Dep<std::map<std::int64_t, std::vector<std::string>>> tiers;
        if (root.IsNull()) return BasicPriorityTiers(std::move(tiers));
        if (!root.IsMap()) throw ParseError(continuum::detail::message("priority expander: the configuration must be a mapping of priority to patterns, got {}", describe(root)));
        for (const auto& entry : root) {
            const YAML::Node& key = entry.first;
            const YAML::Node& value = entry.second;
            std::int64_t priority = 0;
            // yaml.v2 resolves only plain (or !!int-tagged) scalars to integers: a quoted "10" is a string and fails.
            const bool integer_tag = key.Tag() == "?" || key.Tag() == "tag:yaml.org,2002:int";
            if (!key.IsScalar() || !integer_tag || !YAML::convert<std::int64_t>::decode(key, priority)) {
                throw ParseError(continuum::detail::message("priority expander: {}: priority \"{}\" is not an integer", where(key), key.IsScalar() ? key.Scalar() : describe(key)));
            }
            Dep<std::vector<std::string>> patterns;
            if (value.IsSequence()) {
                for (const auto& item : value) {
                    if (item.IsNull()) {
                        patterns.emplace_back();
                    } else if (item.IsScalar()) {
                        patterns.push_back(item.Scalar());
                    } else {
                        throw ParseError(continuum::detail::message("priority expander: {}: a pattern of priority {} must be a string, got {}", where(item), priority, describe(item)));
                    }
                }
            } else if (!value.IsNull()) {
                throw ParseError(continuum::detail::message("priority expander: {}: priority {} must map to a list of patterns, got {}", where(value), priority, describe(value)));
            }
            tiers[priority] = std::move(patterns);
        }
        return BasicPriorityTiers(std::move(tiers));
    }

    /// False for the unconfigured (default or parse("")) tiers.
    [[nodiscard]] bool configured() const { return configured_; }
    [[nodiscard]] bool empty() const { return compiled_.empty(); }
    [[nodiscard]] const std::map<std::int64_t, std::vector<std::string>>& tiers() const { return patterns_; }

    /// The highest priority whose patterns match `node_group` anywhere (RE2 partial match), if any.
    [[nodiscard]] std::optional<std::int64_t> highest_match(std::string_view node_group) const {
        std::optional<std::int64_t> best;
        for (const auto& [priority, re] : compiled_) {
            if ((!best || priority > *best) && RE2::PartialMatch(node_group, *re)) best = priority;
        }
        return best;
    }

    /// `priority` (priority.go BestOptions): keeps the options whose node group matches a pattern of
    /// the highest priority that matches any of them. As in CA the running maximum starts at -1, so
    /// priorities below -1 never select; when nothing is selected, every option is kept. Warnings are
    /// CA's events, "Warning <reason> <message>": a group matching no pattern
    /// (PriorityConfigMapNotMatchedGroup), no group matched (PriorityConfigMapNoGroupMatched), an
    /// unconfigured ConfigMap (PriorityConfigMapInvalid).
    [[nodiscard]] FilterResult operator()(std::span<const ExpansionOption> options, std::span<const std::size_t> among) const {
        FilterResult out;
        if (among.empty()) return out;
        if (!configured_) {
            out.kept.assign(among.begin(), among.end());
            out.warnings.push_back(continuum::detail::message("Warning PriorityConfigMapInvalid Wrong configuration for priority expander: priority configuration in {} "
                                                              "configmap is empty; please provide valid configuration. Ignoring update.",
                                                              priority_expander::config_map_name));
            return out;
        }
        std::int64_t max_priority = -1;
        for (const auto i : among) {
            const std::string& id = options[i].node_group;
            const auto match = highest_match(id);
            if (!match) {
                out.warnings.push_back(continuum::detail::message("Warning PriorityConfigMapNotMatchedGroup Priority expander: node group {} not found in priority expander "
                                                                  "configuration. The group won't be used.", id));
                continue;
            }
            if (*match < max_priority) continue;
            if (*match > max_priority) {
                max_priority = *match;
                out.kept.clear();
            }
            out.kept.push_back(i);
        }
        if (out.kept.empty()) {
            out.kept.assign(among.begin(), among.end());
            out.warnings.emplace_back("Warning PriorityConfigMapNoGroupMatched Priority expander: no priorities info found for any of the expansion options. "
                                      "No options filtered.");
        }
        return out;
    }

private:
    static std::string where(const YAML::Node& node) {
        const auto mark = node.Mark();
        return mark.is_null() ? std::string("configuration") : continuum::detail::message("line {}", mark.line + 1);
    }
    static std::string describe(const YAML::Node& node) {
        switch (node.Type()) {
            case YAML::NodeType::Map: return "a mapping";
            case YAML::NodeType::Sequence: return "a list";
            case YAML::NodeType::Scalar: return continuum::detail::message("the scalar \"{}\"", node.Scalar());
            case YAML::NodeType::Null: return "null";
            case YAML::NodeType::Undefined: return "nothing";
        }
        return "?";
    }

    Dep<std::map<std::int64_t, std::vector<std::string>>> patterns_;
    Dep<std::vector<std::pair<std::int64_t, std::shared_ptr<const RE2>>>> compiled_;
    bool configured_ = false;
};

/// `PriorityTiers` is `BasicPriorityTiers<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using PriorityTiers = BasicPriorityTiers<>;

/// `priority` over all options, or over `among`.
inline FilterResult priority(std::span<const ExpansionOption> options, std::span<const std::size_t> among, const PriorityTiers& tiers) { return tiers(options, among); }
inline FilterResult priority(std::span<const ExpansionOption> options, const PriorityTiers& tiers) {
    return tiers(options, detail::all_indices(options.size()));
}

}  // namespace continuum::federation
