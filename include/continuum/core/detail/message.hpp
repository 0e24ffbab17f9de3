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
/// `fmt::format(format, args...)` with `format` read at run time (fmt::format_error if it does not
/// fit the arguments: the tests compile with CONTINUUM_CHECK_MESSAGE_FORMATS, which catches that).
template <class... Args>
std::string message(fmt::string_view format, const Args&... args) {
    return fmt::vformat(format, fmt::make_format_args(args...));
}
#endif

}  // namespace continuum::detail
