// Kubernetes label selectors (metav1.LabelSelector and the string form of labels.Parse): used to
// pick offers (region, zone, provider type, arch, ...) and to express pods' node selectors.
// matchLabels plus matchExpressions In / NotIn / Exists / DoesNotExist (and the Gt / Lt of node
// affinity); the string form "a=b,c in (x,y),!d,e!=f,g notin (h)" parses with Kubernetes' grammar.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/federation/detail/labels.hpp>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::federation {

/// Labels of an offer or a node: key -> value, sorted by key (heterogeneous lookup by string_view).
using Labels = std::map<std::string, std::string, std::less<>>;

/// The operator of one selector requirement.
enum class SelectorOperator {
    in,              ///< the key exists and its value is one of `values`
    not_in,          ///< the key is absent, or its value is none of `values`
    exists,          ///< the key exists (any value)
    does_not_exist,  ///< the key is absent
    gt,              ///< the key exists and its integer value is > the single integer in `values` (node affinity)
    lt,              ///< the key exists and its integer value is < the single integer in `values` (node affinity)
};

/// Kubernetes spelling: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt".
inline std::string_view to_string(SelectorOperator op) {
    switch (op) {
        case SelectorOperator::in: return "In";
        case SelectorOperator::not_in: return "NotIn";
        case SelectorOperator::exists: return "Exists";
        case SelectorOperator::does_not_exist: return "DoesNotExist";
        case SelectorOperator::gt: return "Gt";
        case SelectorOperator::lt: return "Lt";
    }
    return "?";
}

namespace detail {
inline std::optional<std::int64_t> parse_int64(std::string_view text) {
    std::int64_t value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (!text.empty() && text.front() == '+') ++first;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr != last || first == last) return std::nullopt;
    return value;
}
}  // namespace detail

/// One matchExpressions entry: key, operator, values.
struct SelectorRequirement {
    std::string key;
    SelectorOperator op = SelectorOperator::exists;
    std::vector<std::string> values;

    /// Kubernetes' rules: In / NotIn need >= 1 value, Exists / DoesNotExist none, Gt / Lt exactly one
    /// integer; keys and values follow label syntax.
    /// \throws InvalidArgument naming the requirement and the offending part.
    template <typename Defer = void>  // called as validate(): compiled only where called (issue 21)
    void validate() const {
        if (!detail::is_label_key(key)) throw InvalidArgument(continuum::detail::message("label selector: invalid label key \"{}\"", key));
        switch (op) {
            case SelectorOperator::in:
            case SelectorOperator::not_in:
                if (values.empty()) throw InvalidArgument(continuum::detail::message("label selector: operator {} on \"{}\" needs at least one value", federation::to_string(op), key));
                for (const auto& v : values) {
                    if (!detail::is_label_value(v)) throw InvalidArgument(continuum::detail::message("label selector: invalid label value \"{}\" for key \"{}\"", v, key));
                }
                break;
            case SelectorOperator::exists:
            case SelectorOperator::does_not_exist:
                if (!values.empty()) throw InvalidArgument(continuum::detail::message("label selector: operator {} on \"{}\" takes no values, got {}", federation::to_string(op), key, values.size()));
                break;
            case SelectorOperator::gt:
            case SelectorOperator::lt:
                if (values.size() != 1 || !detail::parse_int64(values[0])) {
                    throw InvalidArgument(continuum::detail::message("label selector: operator {} on \"{}\" needs exactly one integer value, got [{}]", federation::to_string(op), key, fmt::join(values, ", ")));
                }
                break;
        }
    }

    [[nodiscard]] bool matches(const Labels& labels) const {
        const auto it = labels.find(std::string_view(key));
        const bool present = it != labels.end();
        switch (op) {
            case SelectorOperator::in: return present && std::find(values.begin(), values.end(), it->second) != values.end();
            case SelectorOperator::not_in: return !present || std::find(values.begin(), values.end(), it->second) == values.end();
            case SelectorOperator::exists: return present;
            case SelectorOperator::does_not_exist: return !present;
            case SelectorOperator::gt:
            case SelectorOperator::lt: {
                if (!present || values.size() != 1) return false;
                const auto have = detail::parse_int64(it->second);
                const auto bound = detail::parse_int64(values[0]);
                if (!have || !bound) return false;
                return op == SelectorOperator::gt ? *have > *bound : *have < *bound;
            }
        }
        return false;
    }

    /// The string form: "zone in (a,b)", "!gpu", "tier", "size>4". One-value In / NotIn print as
    /// "k=v" / "k!=v", as labels.Selector.String() does.
    [[nodiscard]] std::string to_string() const {
        switch (op) {
            case SelectorOperator::in:
                if (values.size() == 1) return continuum::detail::message("{}={}", key, values[0]);
                return continuum::detail::message("{} in ({})", key, fmt::join(values, ","));
            case SelectorOperator::not_in:
                if (values.size() == 1) return continuum::detail::message("{}!={}", key, values[0]);
                return continuum::detail::message("{} notin ({})", key, fmt::join(values, ","));
            case SelectorOperator::exists: return key;
            case SelectorOperator::does_not_exist: return "!" + key;
            case SelectorOperator::gt: return continuum::detail::message("{}>{}", key, values.empty() ? "" : values[0]);
            case SelectorOperator::lt: return continuum::detail::message("{}<{}", key, values.empty() ? "" : values[0]);
        }
        return key;
    }

    friend bool operator==(const SelectorRequirement&, const SelectorRequirement&) = default;
};

/// metav1.LabelSelector: every matchLabels pair and every matchExpressions requirement must hold
/// (an empty selector matches everything).
struct LabelSelector {
    Labels match_labels;
    std::vector<SelectorRequirement> match_expressions;

    /// Parses the string form used by kubectl -l and labels.Parse:
    ///   selector    := requirement ("," requirement)*  (empty text = match everything)
    ///   requirement := "!" key | key | key ("=" | "==" | "!=") value
    ///                | key ("in" | "notin") "(" value ("," value)* ")" | key (">" | "<") integer
    /// Every requirement goes to match_expressions ("a=b" becomes a In [b]).
    /// \throws ParseError naming the text, the position and what was expected.
    /// (A template on a defaulted parameter, called as `parse(text)`, so that the parser compiles only
    /// where a selector is parsed, issue 21; its address is `&LabelSelector::parse<>`.)
    template <typename Defer = void>
    static LabelSelector parse(std::string_view text);

    /// \throws InvalidArgument on an invalid key, value or operator arity.
    template <typename Defer = void>  // called as validate(): compiled only where called (issue 21)
    void validate() const {
        for (const auto& [key, value] : match_labels) {
            if (!detail::is_label_key(key)) throw InvalidArgument(continuum::detail::message("label selector: invalid label key \"{}\"", key));
            if (!detail::is_label_value(value)) throw InvalidArgument(continuum::detail::message("label selector: invalid label value \"{}\" for key \"{}\"", value, key));
        }
        for (const auto& requirement : match_expressions) requirement.template validate<Defer>();
    }

    [[nodiscard]] bool empty() const { return match_labels.empty() && match_expressions.empty(); }

    [[nodiscard]] bool matches(const Labels& labels) const {
        for (const auto& [key, value] : match_labels) {
            const auto it = labels.find(std::string_view(key));
            if (it == labels.end() || it->second != value) return false;
        }
        for (const auto& requirement : match_expressions) {
            if (!requirement.matches(labels)) return false;
        }
        return true;
    }

    /// Empty when `labels` match; otherwise the first failing requirement and what the labels hold,
    /// e.g. "requirement zone in (eu-1,eu-2) not met (zone=us-1)".
    [[nodiscard]] std::string explain_mismatch(const Labels& labels) const {
        const auto describe = [&](const std::string& requirement, const std::string& key) {
            const auto it = labels.find(std::string_view(key));
            return it == labels.end() ? continuum::detail::message("requirement {} not met (no label {})", requirement, key)
                                      : continuum::detail::message("requirement {} not met ({}={})", requirement, key, it->second);
        };
        for (const auto& [key, value] : match_labels) {
            const auto it = labels.find(std::string_view(key));
            if (it == labels.end() || it->second != value) return describe(continuum::detail::message("{}={}", key, value), key);
        }
        for (const auto& requirement : match_expressions) {
            if (!requirement.matches(labels)) return describe(requirement.to_string(), requirement.key);
        }
        return {};
    }

    /// The string form, matchLabels first (sorted by key), then the expressions in order.
    [[nodiscard]] std::string to_string() const {
        std::vector<std::string> parts;
        parts.reserve(match_labels.size() + match_expressions.size());
        for (const auto& [key, value] : match_labels) parts.push_back(continuum::detail::message("{}={}", key, value));
        for (const auto& requirement : match_expressions) parts.push_back(requirement.to_string());
        return continuum::detail::message("{}", fmt::join(parts, ","));
    }

    friend bool operator==(const LabelSelector&, const LabelSelector&) = default;
};

/// Shorthand for LabelSelector::parse(text).
/// \throws ParseError on malformed text.
template <typename Defer = void>
LabelSelector parse_label_selector(std::string_view text) { return LabelSelector::parse<Defer>(text); }

// ------------------------------------------------------------------------------------------------

namespace detail {

template <typename Defer = void>  // compiled only where a selector is parsed (issue 21)
class SelectorParser {
public:
    explicit SelectorParser(std::string_view text) : text_(text) {}

    LabelSelector parse() {
        LabelSelector selector;
        skip_spaces();
        if (pos_ == text_.size()) return selector;
        while (true) {
            selector.match_expressions.push_back(requirement());
            skip_spaces();
            if (pos_ == text_.size()) break;
            if (text_[pos_] != ',') fail("expected ',' or end of text");
            ++pos_;
        }
        return selector;
    }

private:
    static bool is_special(char c) { return c == '!' || c == '=' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<'; }
    static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

    [[noreturn]] void fail(std::string_view what) const {
        throw ParseError(continuum::detail::message("label selector \"{}\": {} at position {}", text_, what, pos_));
    }
    void skip_spaces() {
        while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
    }
    std::string_view identifier() {
        skip_spaces();
        const std::size_t begin = pos_;
        while (pos_ < text_.size() && !is_special(text_[pos_]) && !is_space(text_[pos_])) ++pos_;
        return text_.substr(begin, pos_ - begin);
    }
    std::string key() {
        const std::size_t at = (skip_spaces(), pos_);
        const auto k = identifier();
        if (k.empty()) fail("expected a label key");
        if (!is_label_key(k)) {
            pos_ = at;
            fail(continuum::detail::message("invalid label key \"{}\"", k));
        }
        return std::string(k);
    }
    std::string value() {
        const std::size_t at = (skip_spaces(), pos_);
        const auto v = identifier();
        if (!is_label_value(v)) {
            pos_ = at;
            fail(continuum::detail::message("invalid label value \"{}\"", v));
        }
        return std::string(v);
    }
    bool at(char c) {
        skip_spaces();
        return pos_ < text_.size() && text_[pos_] == c;
    }

    SelectorRequirement requirement() {
        SelectorRequirement out;
        if (at('!')) {
            ++pos_;
            out.key = key();
            out.op = SelectorOperator::does_not_exist;
            return out;
        }
        out.key = key();
        skip_spaces();
        if (pos_ == text_.size() || text_[pos_] == ',') {
            out.op = SelectorOperator::exists;
            return out;
        }
        const char c = text_[pos_];
        if (c == '=' || c == '!') {
            if (c == '!') {
                if (pos_ + 1 >= text_.size() || text_[pos_ + 1] != '=') fail("expected '!=' after the key");
                out.op = SelectorOperator::not_in;
                pos_ += 2;
            } else {
                out.op = SelectorOperator::in;
                pos_ += (pos_ + 1 < text_.size() && text_[pos_ + 1] == '=') ? 2 : 1;
            }
            out.values.push_back(value());
            return out;
        }
        if (c == '>' || c == '<') {
            ++pos_;
            out.op = c == '>' ? SelectorOperator::gt : SelectorOperator::lt;
            const std::size_t where = (skip_spaces(), pos_);
            const auto v = identifier();
            if (!parse_int64(v)) {
                pos_ = where;
                fail(continuum::detail::message("operator {} needs an integer, got \"{}\"", c, v));
            }
            out.values.emplace_back(v);
            return out;
        }
        const std::size_t where = pos_;
        const auto word = identifier();
        if (word == "in") {
            out.op = SelectorOperator::in;
        } else if (word == "notin") {
            out.op = SelectorOperator::not_in;
        } else {
            pos_ = where;
            fail(continuum::detail::message("expected an operator (=, ==, !=, in, notin, >, <), got \"{}\"", word));
        }
        if (!at('(')) fail(continuum::detail::message("expected '(' after '{}'", word));
        ++pos_;
        if (at(')')) fail(continuum::detail::message("operator '{}' needs at least one value", word));
        while (true) {
            out.values.push_back(value());
            if (at(',')) {
                ++pos_;
                continue;
            }
            if (at(')')) {
                ++pos_;
                break;
            }
            fail("expected ',' or ')' in the value set");
        }
        return out;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

}  // namespace detail

template <typename Defer>
LabelSelector LabelSelector::parse(std::string_view text) { return detail::SelectorParser<Defer>(text).parse(); }

}  // namespace continuum::federation

template <>
struct fmt::formatter<continuum::federation::LabelSelector> : fmt::formatter<std::string_view> {
    template <typename FormatContext>
    auto format(const continuum::federation::LabelSelector& selector, FormatContext& ctx) const {
        return fmt::formatter<std::string_view>::format(selector.to_string(), ctx);
    }
};
