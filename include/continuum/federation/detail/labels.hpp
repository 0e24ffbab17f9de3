// Kubernetes label syntax (k8s.io/apimachinery/pkg/util/validation): a key is an optional DNS
// subdomain prefix and '/' plus a name of at most 63 characters; a value is at most 63
// characters. Both start and end with an alphanumeric character. Shared by offers and selectors.
#pragma once

#include <cstddef>
#include <string_view>

namespace continuum::federation::detail {

inline bool is_alphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/// A qualified name or label value: empty allowed only when `allow_empty`; <= 63 characters;
/// [A-Za-z0-9] at both ends, [-_.A-Za-z0-9] inside.
inline bool is_label_name(std::string_view text, bool allow_empty) {
    if (text.empty()) return allow_empty;
    if (text.size() > 63) return false;
    if (!is_alphanumeric(text.front()) || !is_alphanumeric(text.back())) return false;
    for (const char c : text) {
        if (!is_alphanumeric(c) && c != '-' && c != '_' && c != '.') return false;
    }
    return true;
}

/// A DNS-1123 subdomain: <= 253 characters, lower-case alphanumerics, '-' and '.', alphanumeric at both ends.
inline bool is_dns_subdomain(std::string_view text) {
    if (text.empty() || text.size() > 253) return false;
    const auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!lower_alnum(text.front()) || !lower_alnum(text.back())) return false;
    for (const char c : text) {
        if (!lower_alnum(c) && c != '-' && c != '.') return false;
    }
    return true;
}

/// A label key: [prefix/]name (kubernetes.io/arch, topology.kubernetes.io/zone, tier).
inline bool is_label_key(std::string_view key) {
    const std::size_t slash = key.find('/');
    if (slash == std::string_view::npos) return is_label_name(key, false);
    return is_dns_subdomain(key.substr(0, slash)) && is_label_name(key.substr(slash + 1), false);
}

/// A label value: empty, or a name of <= 63 characters.
inline bool is_label_value(std::string_view value) { return is_label_name(value, true); }

}  // namespace continuum::federation::detail
