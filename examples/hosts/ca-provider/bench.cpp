// bench_hosts_ca: latency of NodeGroupIncreaseSize through gRPC on 127.0.0.1 with 1,000 pending pods
// and 100 offers in the node group (the provider in-process, a real gRPC channel). Prints p50 / p99.
// Usage: bench_hosts_ca [ITERATIONS=50] [DELTA=10]. Results and command: docs/hosts.md.
#include "provider.hpp"

#include <externalgrpc.grpc.pb.h>

#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace pb = clusterautoscaler::cloudprovider::v1::externalgrpc;

int main(int argc, char** argv) {
    const int iterations = argc > 1 ? std::atoi(argv[1]) : 50;
    const int delta = argc > 2 ? std::atoi(argv[2]) : 10;
    const auto dir = std::filesystem::temp_directory_path() / fmt::format("bench_hosts_ca_{}", ::getpid());
    std::filesystem::create_directories(dir);

    // 100 offers of four shapes at spread prices; 1,000 pods of mixed sizes (a fixed LCG).
    nlohmann::json offers = nlohmann::json::array();
    for (int i = 0; i < 100; ++i) {
        const int cores = 2 << (i % 4);
        offers.push_back({{"cluster_id", fmt::format("offer-{:03}", i)},
                          {"capacity", {{"cpu", std::to_string(cores)}, {"memory", fmt::format("{}Gi", 2 * cores)}}},
                          {"max_nodes", 20},
                          {"node_price", 0.5 * cores * (1.0 + (i % 7) / 10.0)}});
    }
    nlohmann::json config{{"node_groups", {{{"id", "federation"}, {"offers", offers}}}}, {"pending_pods", (dir / "pending.json").string()}};
    std::uint64_t state = 42;
    const auto next = [&] { return (state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
    nlohmann::json pods = nlohmann::json::array();
    for (int i = 0; i < 1000; ++i) {
        const auto cpu = 100 + next() % 1900;
        const auto memory = 128 + next() % 3968;
        pods.push_back({{"metadata", {{"name", fmt::format("pod-{:04}", i)}, {"namespace", "bench"}}},
                        {"spec", {{"containers", {{{"name", "main"}, {"resources", {{"requests", {{"cpu", fmt::format("{}m", cpu)}, {"memory", fmt::format("{}Mi", memory)}}}}}}}}}}});
    }
    std::ofstream(dir / "config.json") << config.dump();
    std::ofstream(dir / "pending.json") << nlohmann::json{{"items", pods}}.dump();

    continuum::hosts::ca::ProviderOptions options;
    options.config = dir / "config.json";
    continuum::hosts::ca::CaProvider provider(options);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&provider.service());
    const auto server = builder.BuildAndStart();
    const auto stub = pb::CloudProvider::NewStub(grpc::CreateChannel(fmt::format("127.0.0.1:{}", port), grpc::InsecureChannelCredentials()));

    std::vector<double> latencies_ms;
    for (int i = -3; i < iterations; ++i) {  // three warm-up calls
        pb::NodeGroupIncreaseSizeRequest request;
        request.set_id("federation");
        request.set_delta(delta);
        pb::NodeGroupIncreaseSizeResponse response;
        grpc::ClientContext context;
        const auto start = std::chrono::steady_clock::now();
        const auto status = stub->NodeGroupIncreaseSize(&context, request, &response);
        const auto stop = std::chrono::steady_clock::now();
        if (!status.ok()) {
            std::cerr << "NodeGroupIncreaseSize failed: " << status.error_message() << "\n";
            return 1;
        }
        if (i >= 0) latencies_ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
        // Back to the empty group (not timed).
        grpc::ClientContext list_context;
        pb::NodeGroupNodesRequest list;
        list.set_id("federation");
        pb::NodeGroupNodesResponse nodes;
        stub->NodeGroupNodes(&list_context, list, &nodes);
        pb::NodeGroupDeleteNodesRequest remove;
        remove.set_id("federation");
        for (const auto& instance : nodes.instances()) remove.add_nodes()->set_providerid(instance.id());
        grpc::ClientContext remove_context;
        pb::NodeGroupDeleteNodesResponse removed;
        if (const auto s = stub->NodeGroupDeleteNodes(&remove_context, remove, &removed); !s.ok()) {
            std::cerr << "NodeGroupDeleteNodes failed: " << s.error_message() << "\n";
            return 1;
        }
    }
    server->Shutdown();
    std::filesystem::remove_all(dir);
    std::sort(latencies_ms.begin(), latencies_ms.end());
    const auto quantile = [&](double q) { return latencies_ms[std::min(latencies_ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(latencies_ms.size())))]; };
    fmt::print("NodeGroupIncreaseSize (1000 pending pods, 100 offers, delta {}): {} calls, p50 {:.2f} ms, p99 {:.2f} ms, max {:.2f} ms\n", delta, latencies_ms.size(),
               quantile(0.5), quantile(0.99), latencies_ms.back());
    return 0;
}
