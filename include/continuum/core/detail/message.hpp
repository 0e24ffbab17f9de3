// One formatting path for every text continuum builds (error messages, decision reasons, to_string):
// the format string is a run-time `fmt::string_view` and the arguments are taken by const reference,
// and the argument list is built from one `fmt::basic_format_arg` per argument (instantiated once per
// argument type, not once per list of argument types as `fmt::make_format_args` is), so a new call
// costs the unit about an array, not fmt's compile-time parse and checker of each call's string nor
// its argument store for the whole list (issue 21: including continuum must be cheap). Define
// CONTINUUM_CHECK_MESSAGE_FORMATS (the tests do) to have every format string checked at compile time.
#pragma once

#include <fmt/format.h>

#include <string>

namespace continuum::detail {

namespace runtime_format {

/// One argument as fmt's type-erased argument (it points to `value` for strings and user-defined
/// types, so it lives as long as `value`).
template <class T>
fmt::basic_format_arg<fmt::format_context> message_argument(const T& value) {
    return fmt::format_args(fmt::make_format_args(value)).get(0);
}

/// `fmt::format(format, first, rest...)` with `format` read at run time (fmt::format_error if it
/// does not fit the arguments: the tests compile with CONTINUUM_CHECK_MESSAGE_FORMATS, which catches
/// that; tests/core/test_message.cpp calls this path directly).
template <class First, class... Rest>
std::string message(fmt::string_view format, const First& first, const Rest&... rest) {
    const fmt::basic_format_arg<fmt::format_context> list[] = {message_argument(first), message_argument(rest)...};
    return fmt::vformat(format, fmt::format_args(list, static_cast<int>(1 + sizeof...(Rest))));
}

inline std::string message(fmt::string_view format) { return fmt::vformat(format, fmt::format_args()); }

}  // namespace runtime_format

#ifdef CONTINUUM_CHECK_MESSAGE_FORMATS
template <class... Args>
std::string message(fmt::format_string<Args...> format, const Args&... args) {
    return fmt::vformat(format, fmt::make_format_args(args...));
}
#else
using runtime_format::message;
#endif

}  // namespace continuum::detail
