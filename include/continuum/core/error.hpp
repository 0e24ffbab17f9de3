// The exception hierarchy of continuum. Every bad input is reported by throwing one of these,
// with a message that names the argument and the offending value (DESIGN.md, "Bad input gets a
// clear error, never a wrong answer"). Nothing in continuum throws anything else on bad input.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace continuum {

/// Base of every exception continuum throws.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// An argument is outside the function's domain (NaN, negative capacity, unsorted levels, ...).
class InvalidArgument : public Error {
public:
    explicit InvalidArgument(const std::string& message) : Error(message) {}
};

/// Text that does not parse (a Kubernetes quantity, a weights file, a trace, a selector).
class ParseError : public InvalidArgument {
public:
    explicit ParseError(const std::string& message) : InvalidArgument(message) {}
};

/// The request is well-formed but cannot be satisfied (a pod larger than every node type, a
/// shortfall in a resource that the node type does not provide, a value above the top quota level).
class Infeasible : public Error {
public:
    explicit Infeasible(const std::string& message) : Error(message) {}
};

namespace detail {
/// `text` in double quotes, with control and non-ASCII bytes escaped as \xNN, so that error
/// messages stay printable whatever the input was.
inline std::string quoted(std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out = "\"";
    out.reserve(text.size() + 2);
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\') {
            out += "\\x";
            out += hex[byte >> 4];
            out += hex[byte & 0xf];
        } else {
            out += c;
        }
    }
    return out + "\"";
}
}  // namespace detail

}  // namespace continuum
