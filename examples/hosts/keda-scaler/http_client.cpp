// Blocking HTTP/1.1 GET over POSIX sockets (see http_client.hpp).
#include "http_client.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace keda_scaler {

namespace {

using Clock = std::chrono::steady_clock;

class Socket {
public:
    explicit Socket(int fd) : fd_(fd) {}
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
    ~Socket() {
        if (fd_ >= 0) ::close(fd_);
    }
    [[nodiscard]] int fd() const { return fd_; }

private:
    int fd_;
};

int remaining_ms(Clock::time_point deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<int>(left) : 0;
}

void wait_for(int fd, short events, Clock::time_point deadline, const std::string& what) {
    pollfd p{fd, events, 0};
    const int ready = ::poll(&p, 1, remaining_ms(deadline));
    if (ready == 0) throw HttpUnavailable(fmt::format("{}: timed out", what));
    if (ready < 0) throw HttpUnavailable(fmt::format("{}: poll failed: {}", what, std::strerror(errno)));
}

int connect_to(const HttpUrl& url, Clock::time_point deadline, const std::string& where) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = ::getaddrinfo(url.host.c_str(), url.port.c_str(), &hints, &found); rc != 0) {
        throw HttpUnavailable(fmt::format("{}: cannot resolve {}: {}", where, url.host, ::gai_strerror(rc)));
    }
    std::string last_error = "no address";
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) continue;
        if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0 || errno == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            int error = 0;
            socklen_t length = sizeof error;
            if (::poll(&p, 1, remaining_ms(deadline)) == 1 && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) {
                ::freeaddrinfo(found);
                return fd;
            }
            last_error = error != 0 ? std::strerror(error) : "timed out";
        } else {
            last_error = std::strerror(errno);
        }
        ::close(fd);
    }
    ::freeaddrinfo(found);
    throw HttpUnavailable(fmt::format("{}: cannot connect: {}", where, last_error));
}

/// Decodes a chunked body. \throws HttpUnavailable on a malformed chunk.
std::string dechunk(const std::string& raw, const std::string& where) {
    std::string out;
    std::size_t at = 0;
    while (true) {
        const auto line_end = raw.find("\r\n", at);
        if (line_end == std::string::npos) throw HttpUnavailable(fmt::format("{}: truncated chunked body", where));
        std::size_t size = 0;
        try {
            size = std::stoul(raw.substr(at, line_end - at), nullptr, 16);
        } catch (const std::exception&) {
            throw HttpUnavailable(fmt::format("{}: malformed chunk size", where));
        }
        at = line_end + 2;
        if (size == 0) return out;
        if (raw.size() < at + size) throw HttpUnavailable(fmt::format("{}: truncated chunk", where));
        out.append(raw, at, size);
        at += size + 2;
    }
}

}  // namespace

HttpUrl HttpUrl::parse(const std::string& url) {
    const std::string scheme = "http://";
    if (url.rfind(scheme, 0) != 0) {
        throw std::invalid_argument(fmt::format("'{}' is not an http:// URL (https is not supported: put a TLS proxy or a sidecar in front)", url));
    }
    HttpUrl out;
    const std::string rest = url.substr(scheme.size());
    const auto slash = rest.find('/');
    std::string authority = rest.substr(0, slash);
    if (slash != std::string::npos) out.base_path = rest.substr(slash);
    while (!out.base_path.empty() && out.base_path.back() == '/') out.base_path.pop_back();
    if (!authority.empty() && authority.front() == '[') {  // [v6]:port
        const auto close = authority.find(']');
        if (close == std::string::npos) throw std::invalid_argument(fmt::format("'{}': unterminated IPv6 address", url));
        out.host = authority.substr(1, close - 1);
        if (close + 1 < authority.size() && authority[close + 1] == ':') out.port = authority.substr(close + 2);
    } else {
        const auto colon = authority.rfind(':');
        out.host = authority.substr(0, colon);
        if (colon != std::string::npos) out.port = authority.substr(colon + 1);
    }
    if (out.host.empty()) throw std::invalid_argument(fmt::format("'{}' has no host", url));
    if (out.port.empty() || out.port.find_first_not_of("0123456789") != std::string::npos) {
        throw std::invalid_argument(fmt::format("'{}' has an invalid port '{}'", url, out.port));
    }
    return out;
}

std::string url_encode(const std::string& value) {
    std::string out;
    for (const unsigned char c : value) {
        if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
            out.push_back(static_cast<char>(c));
        } else {
            out += fmt::format("%{:02X}", c);
        }
    }
    return out;
}

HttpResponse http_get(const HttpUrl& url, const std::string& path_and_query, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    const std::string where = fmt::format("http://{}:{}", url.host, url.port);
    Socket socket(connect_to(url, deadline, where));
    const bool v6 = url.host.find(':') != std::string::npos;
    const std::string request = fmt::format("GET {}{} HTTP/1.1\r\nHost: {}{}{}:{}\r\nAccept: application/json\r\nConnection: close\r\n"
                                            "User-Agent: continuum-keda-scaler\r\n\r\n",
                                            url.base_path, path_and_query, v6 ? "[" : "", url.host, v6 ? "]" : "", url.port);
    std::size_t sent = 0;
    while (sent < request.size()) {
        wait_for(socket.fd(), POLLOUT, deadline, where);
        const auto n = ::send(socket.fd(), request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN && errno != EINTR) throw HttpUnavailable(fmt::format("{}: send failed: {}", where, std::strerror(errno)));
        if (n > 0) sent += static_cast<std::size_t>(n);
    }
    std::string raw;
    char buffer[65536];
    while (true) {
        wait_for(socket.fd(), POLLIN, deadline, where);
        const auto n = ::recv(socket.fd(), buffer, sizeof buffer, 0);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            throw HttpUnavailable(fmt::format("{}: receive failed: {}", where, std::strerror(errno)));
        }
        raw.append(buffer, static_cast<std::size_t>(n));
    }
    const auto header_end = raw.find("\r\n\r\n");
    if (raw.rfind("HTTP/1.", 0) != 0 || header_end == std::string::npos || raw.size() < 12) {
        throw HttpUnavailable(fmt::format("{}: the answer is not an HTTP response", where));
    }
    HttpResponse out;
    try {
        out.status = std::stoi(raw.substr(9, 3));
    } catch (const std::exception&) {
        throw HttpUnavailable(fmt::format("{}: malformed HTTP status line", where));
    }
    std::string headers = raw.substr(0, header_end);
    for (auto& c : headers) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string body = raw.substr(header_end + 4);
    if (headers.find("transfer-encoding: chunked") != std::string::npos) {
        out.body = dechunk(body, where);
    } else if (const auto at = headers.find("content-length:"); at != std::string::npos) {
        std::size_t length = 0;
        try {
            length = std::stoul(headers.substr(at + 15));
        } catch (const std::exception&) {
            throw HttpUnavailable(fmt::format("{}: malformed Content-Length", where));
        }
        if (body.size() < length) throw HttpUnavailable(fmt::format("{}: body truncated ({} of {} bytes)", where, body.size(), length));
        out.body = body.substr(0, length);
    } else {
        out.body = body;  // delimited by the connection's close
    }
    return out;
}

}  // namespace keda_scaler
