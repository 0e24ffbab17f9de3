// continuum's JSON state documents: every stateful object's state value written and read as JSON
// with a schema name and version (serialization/<area>.hpp). Needs nlohmann_json; not included by
// <continuum/continuum.hpp>, so the rest of the library stays free of it.
#pragma once

#include <continuum/serialization/federation.hpp>
#include <continuum/serialization/forecast.hpp>
#include <continuum/serialization/quota.hpp>
#include <continuum/serialization/scalers.hpp>
