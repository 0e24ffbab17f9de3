// One formatting path for every text continuum builds (error messages, decision reasons, to_string):
// the format string is a run-time `fmt::string_view`, so a call costs the unit one instantiation per
// argument-type list, not fmt's compile-time parse and checker of each call's string (issue 21:
// including continuum must be cheap). Define CONTINUUM_CHECK_MESSAGE_FORMATS (the tests do) to have
// every format string checked against its arguments at compile time, as `fmt::format` does.
#pragma once

#include <continuum/core/detail/message.hpp>

#include <fmt/format.h>

#include <string>
#include <utility>

namespace continuum::detail {

#ifdef CONTINUUM_CHECK_MESSAGE_FORMATS
template <class... Args>
std::string message(fmt::format_string<Args...> format, Args&&... args) {
    return fmt::vformat(format, fmt::make_format_args(args...));
}
#else
/// `continuum::detail::message(format, args...)` with `format` read at run time (fmt::format_error if it does not
/// fit the arguments: the tests compile with CONTINUUM_CHECK_MESSAGE_FORMATS, which catches that).
template <class... Args>
std::string message(fmt::string_view format, Args&&... args) {
    return fmt::vformat(format, fmt::make_format_args(args...));
}
#endif

}  // namespace continuum::detail
