// Fuzzes the label selector parser (kubectl -l / labels.Parse syntax). Input: the selector text,
// then after the first newline "key=value" lines forming a label set. Every accepted selector
// validates, prints to a string that re-parses to an equal selector, and matches the labels
// exactly when explain_mismatch() is empty (and the re-parsed selector agrees).
#include "fuzz_target.hpp"
#include "fuzz_support.hpp"

#include <continuum/federation/selector.hpp>

#include <string>
#include <string_view>

CONTINUUM_FUZZ_TARGET(label_selector) {
    namespace federation = continuum::federation;
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = input.find('\n');
    const std::string_view text = input.substr(0, newline);
    federation::Labels labels;
    if (newline != std::string_view::npos) {
        std::string_view rest = input.substr(newline + 1);
        while (!rest.empty()) {
            const std::size_t end = std::min(rest.find('\n'), rest.size());
            const std::string_view line = rest.substr(0, end);
            const std::size_t eq = line.find('=');
            if (eq != std::string_view::npos) labels.emplace(std::string(line.substr(0, eq)), std::string(line.substr(eq + 1)));
            rest.remove_prefix(std::min(end + 1, rest.size()));
        }
    }
    federation::LabelSelector selector;
    try {
        selector = federation::parse_label_selector(text);
    } catch (const continuum::ParseError&) {
        return 0;
    }
    selector.validate();  // a parsed selector is valid: throwing here is a bug (uncaught -> crash)
    const std::string printed = selector.to_string();
    const federation::LabelSelector again = federation::parse_label_selector(printed);
    CONTINUUM_FUZZ_CHECK(again == selector);
    const bool match = selector.matches(labels);
    CONTINUUM_FUZZ_CHECK(match == selector.explain_mismatch(labels).empty());
    CONTINUUM_FUZZ_CHECK(match == again.matches(labels));
    return 0;
}
