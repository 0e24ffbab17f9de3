// One formatting path for every text continuum builds (error messages, decision reasons, to_string):
// the format string is a run-time `fmt::string_view` and the arguments are taken by const reference,
// so a call costs the unit one instantiation per list of argument types, not fmt's compile-time parse
// and checker of each call's string (issue 21: including continuum must be cheap). Define
// CONTINUUM_CHECK_MESSAGE_FORMATS (the tests do) to have every format string checked at compile time.
#pragma once

#include <fmt/format.h>

#include <string>

namespace continuum::detail {

#ifdef CONTINUUM_CHECK_MESSAGE_FORMATS
template <class... Args>
std::string message(fmt::format_string<Args...> format, const Args&... args) {
    return fmt::vformat(format, fmt::make_format_args(args...));
}
#else
/// One argument as fmt's type-erased `fmt::format_arg` (a pointer to `value` for strings and
/// user-defined types, so it lives as long as `value`): instantiated once per argument type, shared
/// by every list of arguments that contains the type.
template <class T>
fmt::basic_format_arg<fmt::format_context> message_argument(const T& value) {
    return fmt::format_args(fmt::make_format_args(value)).get(0);
}

/// `fmt::format(format, args...)` with `format` read at run time (fmt::format_error if it does not
/// fit the arguments: the tests compile with CONTINUUM_CHECK_MESSAGE_FORMATS, which catches that).
/// The list is built from `message_argument<T>` per argument, so a new list of argument types costs
/// an array, not fmt's `make_format_args` for the whole list (issue 21, session 12).
template <class First, class... Rest>
std::string message(fmt::string_view format, const First& first, const Rest&... rest) {
    const fmt::basic_format_arg<fmt::format_context> list[] = {message_argument(first), message_argument(rest)...};
    return fmt::vformat(format, fmt::format_args(list, static_cast<int>(1 + sizeof...(Rest))));
}

inline std::string message(fmt::string_view format) { return fmt::vformat(format, fmt::format_args()); }
#endif

}  // namespace continuum::detail
