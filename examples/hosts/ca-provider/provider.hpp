// continuum-ca-provider: the Cluster Autoscaler's externalgrpc cloud provider (seed 000's Liqo-aware
// multi-provider autoscaler). Node groups are categories of federation offers; NodeGroupIncreaseSize
// asks continuum (plan_scale_out + Ledger) which offers to peer with, a hook command acts on the
// world (liqoctl), and the state file makes target sizes, nodes and reservations survive a restart.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace grpc {
class Service;
}

namespace continuum::hosts::ca {

/// A configuration, state or command-line problem found before serving (the message names it).
class ConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ProviderOptions {
    std::filesystem::path config;                   ///< YAML or JSON (docs/hosts.md)
    std::optional<std::filesystem::path> state;     ///< written atomically after every change
    std::vector<std::string> on_scale_up;           ///< argv of the scale-up hook (empty: none)
    std::vector<std::string> on_scale_down;         ///< argv of the scale-down hook (empty: none)
    std::chrono::milliseconds hook_timeout{60'000};
};

/// The provider: configuration, node groups, nodes, the Ledger and the gRPC service over them.
/// Every RPC is serialised by one mutex. \throws ConfigError from the constructor.
class CaProvider {
public:
    explicit CaProvider(ProviderOptions options);
    ~CaProvider();
    CaProvider(const CaProvider&) = delete;
    CaProvider& operator=(const CaProvider&) = delete;

    /// The CloudProvider service to register with a grpc::ServerBuilder (owned by the provider).
    [[nodiscard]] grpc::Service& service();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Splits a hook command line on blanks into argv (no shell: no quoting, globbing or expansion).
std::vector<std::string> split_command(const std::string& command);

}  // namespace continuum::hosts::ca
