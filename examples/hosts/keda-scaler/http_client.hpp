// A small blocking HTTP/1.1 GET client over POSIX sockets, enough for Prometheus' HTTP API on a
// cluster network (plain http, IPv4/IPv6 via getaddrinfo, Content-Length or chunked bodies, a
// deadline for the whole exchange). Part of continuum-keda-scaler, not of the library.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>

namespace keda_scaler {

/// The server could not be reached or did not answer with a well-formed HTTP response in time.
class HttpUnavailable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct HttpResponse {
    int status = 0;
    std::string body;
};

/// "http://host:port[/base]" split into its parts. \throws std::invalid_argument naming the URL.
struct HttpUrl {
    std::string host;
    std::string port = "80";
    std::string base_path;  // without trailing '/', may be empty
    static HttpUrl parse(const std::string& url);
};

/// GET url.base_path + path_and_query (already percent-encoded). \throws HttpUnavailable.
HttpResponse http_get(const HttpUrl& url, const std::string& path_and_query, std::chrono::milliseconds timeout);

/// Percent-encodes a query-string value (RFC 3986 unreserved characters kept).
std::string url_encode(const std::string& value);

}  // namespace keda_scaler
