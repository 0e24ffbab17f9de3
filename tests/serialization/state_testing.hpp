// Helpers shared by the state round-trip tests: save through JSON text and back.
#pragma once

#include <continuum/serialization.hpp>

#include <doctest/doctest.h>

#include <string>

namespace continuum::testing {

/// state -> JSON text -> state; checks the copy equals the original and that the text has no NaN
/// or Infinity spelling, and that the text is the document to_json builds.
template <typename State>
State through_json(const State& state) {
    const std::string text = serialization::dump(state);
    CHECK(text.find("NaN") == std::string::npos);
    CHECK(text.find("Infinity") == std::string::npos);
    CHECK(serialization::Json::parse(text) == serialization::to_json(state));  // the one-pass writer writes the DOM's document
    State copy = serialization::parse<State>(text);
    CHECK(copy == state);
    return copy;
}

}  // namespace continuum::testing
