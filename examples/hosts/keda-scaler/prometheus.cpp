// Prometheus query_range client (see prometheus.hpp).
#include "prometheus.hpp"

#include <continuum/core/error.hpp>

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace keda_scaler {

namespace {

[[noreturn]] void garbage(const std::string& server, const std::string& what) {
    throw PrometheusUnavailable(fmt::format("prometheus at {} answered garbage: {}", server, what));
}

double parse_value(const nlohmann::json& text, const std::string& server) {
    if (!text.is_string()) garbage(server, "a sample value is not a string");
    const auto& s = text.get_ref<const std::string&>();
    if (s == "NaN") return std::nan("");
    if (s == "+Inf" || s == "Inf") return HUGE_VAL;
    if (s == "-Inf") return -HUGE_VAL;
    try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        if (used != s.size()) garbage(server, fmt::format("sample value '{}' is not a number", s));
        return v;
    } catch (const std::logic_error&) {
        garbage(server, fmt::format("sample value '{}' is not a number", s));
    }
}

}  // namespace

std::vector<Sample> parse_query_range(const std::string& server, const std::string& query, int http_status, const std::string& body) {
    const auto json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded() || !json.is_object() || !json.contains("status")) {
        garbage(server, fmt::format("HTTP {} with a body that is not Prometheus API JSON ({} bytes)", http_status, body.size()));
    }
    if (json["status"] != "success") {
        const std::string type = json.value("errorType", "");
        const std::string message = json.value("error", "");
        if (type == "bad_data" || http_status == 400 || http_status == 422) {
            throw continuum::InvalidArgument(fmt::format("query '{}' rejected by prometheus at {}: {}", query, server, message));
        }
        throw PrometheusUnavailable(fmt::format("prometheus at {} failed (HTTP {}, {}): {}", server, http_status, type, message));
    }
    const auto& data = json.value("data", nlohmann::json::object());
    if (!data.is_object() || data.value("resultType", "") != "matrix" || !data.contains("result") || !data["result"].is_array()) {
        garbage(server, "data.resultType is not 'matrix' with a result array");
    }
    const auto& result = data["result"];
    if (result.empty()) throw PrometheusNoData(fmt::format("query '{}' returned no data from prometheus at {}", query, server));
    if (result.size() > 1) {
        throw continuum::InvalidArgument(fmt::format("query '{}' returned {} series; it must return exactly one (aggregate it, e.g. sum(...))",
                                                     query, result.size()));
    }
    const auto& values = result[0].value("values", nlohmann::json::array());
    if (!values.is_array()) garbage(server, "result[0].values is not an array");
    std::vector<Sample> out;
    out.reserve(values.size());
    for (const auto& pair : values) {
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number()) garbage(server, "a sample is not [time, \"value\"]");
        const double value = parse_value(pair[1], server);
        if (!std::isfinite(value)) continue;  // a gap: the caller interpolates
        out.push_back({static_cast<std::int64_t>(std::llround(pair[0].get<double>())), value});
    }
    if (out.empty()) throw PrometheusNoData(fmt::format("query '{}' returned only NaN/Inf samples from prometheus at {}", query, server));
    return out;
}

std::vector<Sample> query_range(const std::string& server_address, const std::string& query, std::int64_t start, std::int64_t end,
                                std::int64_t step_seconds, std::chrono::milliseconds timeout) {
    HttpUrl url;
    try {
        url = HttpUrl::parse(server_address);
    } catch (const std::invalid_argument& e) {
        throw continuum::InvalidArgument(fmt::format("serverAddress: {}", e.what()));
    }
    const std::string path = fmt::format("/api/v1/query_range?query={}&start={}&end={}&step={}", url_encode(query), start, end, step_seconds);
    HttpResponse response;
    try {
        response = http_get(url, path, timeout);
    } catch (const HttpUnavailable& e) {
        throw PrometheusUnavailable(fmt::format("prometheus at {} is unavailable: {}", server_address, e.what()));
    }
    return parse_query_range(server_address, query, response.status, response.body);
}

}  // namespace keda_scaler
