// continuum-ca-provider: serves the Cluster Autoscaler's externalgrpc CloudProvider protocol with
// continuum's federation decisions (seed 000). Usage and deployment: docs/hosts.md.
#include "provider.hpp"

#include <grpcpp/grpcpp.h>
#include <grpcpp/security/server_credentials.h>

#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

namespace {

constexpr const char* usage =
    "usage: continuum-ca-provider --listen HOST:PORT --config FILE [--state FILE]\n"
    "                             [--tls-cert FILE --tls-key FILE --tls-ca FILE]\n"
    "                             [--on-scale-up CMD] [--on-scale-down CMD] [--hook-timeout SECONDS]\n"
    "PORT 0 picks a free port; the chosen address is printed as \"listening on HOST:PORT\".\n"
    "Hooks get a JSON description on stdin; CMD is split on blanks and run without a shell.\n";

std::string read_file(const std::string& path, const std::string& flag) {
    std::ifstream in(path);
    if (!in) throw continuum::hosts::ca::ConfigError(flag + " " + path + ": cannot open (" + std::strerror(errno) + ")");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

int main(int argc, char** argv) {
    using continuum::hosts::ca::ConfigError;
    std::map<std::string, std::string> flags;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            std::cout << usage;
            return 0;
        }
        static const char* known[] = {"--listen", "--config", "--state", "--tls-cert", "--tls-key", "--tls-ca", "--on-scale-up", "--on-scale-down", "--hook-timeout"};
        if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return flag == k; }) == std::end(known) || i + 1 >= argc) {
            std::cerr << "continuum-ca-provider: unknown flag or missing value: " << flag << "\n" << usage;
            return 2;
        }
        flags[flag] = argv[++i];
    }
    try {
        if (flags.count("--listen") == 0 || flags.count("--config") == 0) throw ConfigError("--listen and --config are required");
        continuum::hosts::ca::ProviderOptions options;
        options.config = flags["--config"];
        if (flags.count("--state") != 0) options.state = flags["--state"];
        if (flags.count("--on-scale-up") != 0) options.on_scale_up = continuum::hosts::ca::split_command(flags["--on-scale-up"]);
        if (flags.count("--on-scale-down") != 0) options.on_scale_down = continuum::hosts::ca::split_command(flags["--on-scale-down"]);
        if (flags.count("--hook-timeout") != 0) {
            char* end = nullptr;
            const double seconds = std::strtod(flags["--hook-timeout"].c_str(), &end);
            if (*end != '\0' || !(seconds > 0) || seconds > 86400) throw ConfigError("--hook-timeout must be a number of seconds in (0, 86400], got " + flags["--hook-timeout"]);
            options.hook_timeout = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
        }
        const int tls_flags = static_cast<int>(flags.count("--tls-cert") + flags.count("--tls-key") + flags.count("--tls-ca"));
        if (tls_flags != 0 && tls_flags != 3) throw ConfigError("mTLS needs all of --tls-cert, --tls-key and --tls-ca");

        // SIGINT / SIGTERM end the server; block them before gRPC starts its threads.
        sigset_t stop;
        sigemptyset(&stop);
        sigaddset(&stop, SIGINT);
        sigaddset(&stop, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &stop, nullptr);

        continuum::hosts::ca::CaProvider provider(options);
        std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
        if (tls_flags == 3) {
            // As the Cluster Autoscaler's externalgrpc client expects: the server presents its
            // certificate and requires a client certificate signed by the CA.
            grpc::SslServerCredentialsOptions ssl(GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
            ssl.pem_root_certs = read_file(flags["--tls-ca"], "--tls-ca");
            ssl.pem_key_cert_pairs.push_back({read_file(flags["--tls-key"], "--tls-key"), read_file(flags["--tls-cert"], "--tls-cert")});
            credentials = grpc::SslServerCredentials(ssl);
        }
        grpc::ServerBuilder builder;
        int port = 0;
        builder.AddListeningPort(flags["--listen"], credentials, &port);
        builder.RegisterService(&provider.service());
        const auto server = builder.BuildAndStart();
        if (!server || port == 0) throw ConfigError("cannot listen on " + flags["--listen"]);
        const std::string& listen = flags["--listen"];
        std::cout << "listening on " << listen.substr(0, listen.rfind(':')) << ":" << port << std::endl;
        int signal = 0;
        sigwait(&stop, &signal);
        std::cout << "continuum-ca-provider: signal " << signal << ", shutting down" << std::endl;
        server->Shutdown();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "continuum-ca-provider: " << e.what() << "\n";
        return 1;
    }
}
