// continuum-keda-scaler's Prometheus answer parsing and URL handling: each kind of answer goes to
// the error class (and so the gRPC status) of whoever is at fault, with a message naming it.
#include "http_client.hpp"
#include "prometheus.hpp"

#include <continuum/core/error.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using keda_scaler::parse_query_range;

namespace {
const std::string server = "http://prom:9090";

template <typename E>
std::string message_of(int status, const std::string& body) {
    try {
        parse_query_range(server, "sum(up)", status, body);
    } catch (const E& e) {
        return e.what();
    }
    return "no error of the expected class";
}
}  // namespace

TEST_CASE("keda prometheus: a matrix answer becomes samples, NaN and Inf are gaps") {
    const auto samples = parse_query_range(server, "sum(up)", 200,
                                           R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},)"
                                           R"("values":[[1600000200,"1.5"],[1600000500,"NaN"],[1600000800.0,"2e3"],[1600001100,"+Inf"]]}]}})");
    REQUIRE(samples.size() == 2);
    CHECK(samples[0].time == 1600000200);
    CHECK(samples[0].value == 1.5);
    CHECK(samples[1].time == 1600000800);
    CHECK(samples[1].value == 2000.0);
}

TEST_CASE("keda prometheus: errors by whose fault they are") {
    using continuum::InvalidArgument;
    using keda_scaler::PrometheusNoData;
    using keda_scaler::PrometheusUnavailable;
    CHECK(message_of<InvalidArgument>(400, R"({"status":"error","errorType":"bad_data","error":"parse error at char 4"})") ==
          "query 'sum(up)' rejected by prometheus at http://prom:9090: parse error at char 4");
    CHECK(message_of<InvalidArgument>(200, R"({"status":"success","data":{"resultType":"matrix","result":[{"values":[]},{"values":[]}]}})")
              .find("returned 2 series") != std::string::npos);
    CHECK(message_of<PrometheusNoData>(200, R"({"status":"success","data":{"resultType":"matrix","result":[]}})") ==
          "query 'sum(up)' returned no data from prometheus at http://prom:9090");
    CHECK(message_of<PrometheusNoData>(200, R"({"status":"success","data":{"resultType":"matrix","result":[{"values":[[1,"NaN"]]}]}})")
              .find("only NaN/Inf") != std::string::npos);
    CHECK(message_of<PrometheusUnavailable>(503, R"({"status":"error","errorType":"unavailable","error":"too many queries"})") ==
          "prometheus at http://prom:9090 failed (HTTP 503, unavailable): too many queries");
    for (const char* garbage : {"<html>not prometheus</html>", "", "[1,2]", R"({"status":"success","data":{"resultType":"vector","result":[]}})",
                                R"({"status":"success","data":{"resultType":"matrix","result":[{"values":[[1,2]]}]}})",
                                R"({"status":"success","data":{"resultType":"matrix","result":[{"values":[[1,"12abc"]]}]}})",
                                R"({"status":"success","data":{"resultType":"matrix","result":[{"values":[["x","1"]]}]}})"}) {
        const auto message = message_of<PrometheusUnavailable>(200, garbage);
        CHECK_MESSAGE(message.find("prometheus at http://prom:9090 answered garbage") == 0, garbage, " -> ", message);
    }
}

TEST_CASE("keda prometheus: server addresses") {
    const auto plain = keda_scaler::HttpUrl::parse("http://prometheus.monitoring:9090");
    CHECK(plain.host == "prometheus.monitoring");
    CHECK(plain.port == "9090");
    CHECK(plain.base_path.empty());
    const auto prefixed = keda_scaler::HttpUrl::parse("http://[::1]:8080/prometheus/");
    CHECK(prefixed.host == "::1");
    CHECK(prefixed.port == "8080");
    CHECK(prefixed.base_path == "/prometheus");
    CHECK(keda_scaler::HttpUrl::parse("http://prom").port == "80");
    CHECK_THROWS_WITH_AS(keda_scaler::HttpUrl::parse("https://prom:9090"), doctest::Contains("https is not supported"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(keda_scaler::HttpUrl::parse("http://prom:90x"), doctest::Contains("invalid port '90x'"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(keda_scaler::HttpUrl::parse("http://:9090"), doctest::Contains("has no host"), std::invalid_argument);
    CHECK(keda_scaler::url_encode("sum(rate(x{a=\"b c\"}[5m]))") == "sum%28rate%28x%7Ba%3D%22b%20c%22%7D%5B5m%5D%29%29");
}

TEST_CASE("keda prometheus: a closed port is unavailable, naming the address") {
    try {
        keda_scaler::query_range("http://127.0.0.1:1", "up", 0, 300, 300, std::chrono::seconds(5));
        FAIL("expected PrometheusUnavailable");
    } catch (const keda_scaler::PrometheusUnavailable& e) {
        CHECK(std::string(e.what()).find("prometheus at http://127.0.0.1:1 is unavailable: http://127.0.0.1:1: cannot connect") == 0);
    }
}
