// Shared body of the state-document fuzz targets: every accepted document re-dumps and re-parses
// to an equal state (so the reader and writer agree), and feeding it to the object's restore may
// only throw continuum::InvalidArgument; anything else (a crash, UB, another exception) is a bug.
#pragma once

#include <continuum/serialization.hpp>

#include <cstdlib>
#include <string>
#include <string_view>

namespace continuum::fuzzing {

/// Parses `text` as a T document; when accepted checks the round trip and calls restore(state).
template <typename T, typename Restore>
void check_document(std::string_view text, Restore restore) {
    T state;
    try {
        state = serialization::parse<T>(text);
    } catch (const ParseError&) {
        return;
    }
    const std::string text_again = serialization::dump(state);
    if (serialization::dump(serialization::parse<T>(text_again)) != text_again) std::abort();
    try {
        restore(state);
    } catch (const InvalidArgument&) {
    }
}

}  // namespace continuum::fuzzing
