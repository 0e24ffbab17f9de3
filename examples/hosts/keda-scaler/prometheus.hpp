// Reads one series from Prometheus' HTTP API (/api/v1/query_range) for continuum-keda-scaler:
// timestamps on the query's step grid, values as doubles, and errors sorted by whose fault they are
// (the query's: continuum::InvalidArgument; Prometheus' or the network's: PrometheusUnavailable).
#pragma once

#include "http_client.hpp"

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace keda_scaler {

/// Prometheus could not be reached, or answered something that is not its API's JSON.
class PrometheusUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The query is valid but returned no sample in the window (nothing to forecast from yet).
class PrometheusNoData : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Sample {
    std::int64_t time = 0;  // unix seconds, on the step grid
    double value = 0.0;
};

/// Samples of `query` at start, start + step, ..., end (unix seconds; Prometheus omits steps without
/// data, and NaN/Inf samples are dropped here, so the result may have gaps).
/// \throws continuum::InvalidArgument when Prometheus rejects the query (bad_data) or the query
///         returns more than one series (naming the query and the count); PrometheusNoData when it
///         returns none; PrometheusUnavailable when Prometheus is unreachable, times out, answers
///         a non-200 status other than a query error, or answers malformed JSON.
std::vector<Sample> query_range(const std::string& server_address, const std::string& query, std::int64_t start, std::int64_t end,
                                std::int64_t step_seconds, std::chrono::milliseconds timeout);

/// Parses a query_range answer (exposed for tests). \throws as query_range.
std::vector<Sample> parse_query_range(const std::string& server_address, const std::string& query, int http_status, const std::string& body);

}  // namespace keda_scaler
