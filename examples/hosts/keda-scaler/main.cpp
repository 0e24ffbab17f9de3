// continuum-keda-scaler: a predictive KEDA external scaler. It serves externalscaler.ExternalScaler
// (kedacore/keda's externalscaler.proto), reads each ScaledObject's PromQL history from Prometheus,
// forecasts it with continuum and returns the forecast peak, so the HPA behind KEDA scales ahead of
// the load. Usage and deployment: docs/hosts.md (section continuum-keda-scaler).
#include "externalscaler.grpc.pb.h"
#include "scaled_object.hpp"

#include <continuum/core/error.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

namespace keda_scaler {

namespace {

struct Options {
    std::string listen = "127.0.0.1:9090";
    std::string prometheus;
    std::string state_file;
    std::optional<std::int64_t> now;  // start of a replay clock (replays, tests)
    double clock_rate = 0.0;          // replay clock seconds per wall second (0 = frozen at --now)
    std::chrono::milliseconds prometheus_timeout{10'000};
    std::chrono::milliseconds stream_interval{30'000};
    std::string tls_cert, tls_key, tls_client_ca;
};

const char* const usage =
    "usage: continuum-keda-scaler --listen HOST:PORT --prometheus http://HOST:PORT [--state FILE]\n"
    "         [--prometheus-timeout SECONDS] [--stream-interval SECONDS] [--now UNIX_SECONDS [--clock-rate R]]\n"
    "         [--tls-cert FILE --tls-key FILE [--tls-client-ca FILE]]\n"
    "Serves KEDA's externalscaler.ExternalScaler with continuum forecasts (docs/hosts.md).\n"
    "  --listen            address to serve on; port 0 picks a free port (printed on stdout)\n"
    "  --prometheus        default Prometheus URL for ScaledObjects without serverAddress\n"
    "  --state FILE        keep every ScaledObject's history and fit here, restore it on start\n"
    "  --now UNIX_SECONDS  evaluate as if the clock read this time at start (replays and tests)\n"
    "  --clock-rate R      with --now: the clock then advances R seconds per second (default 0: frozen)\n";

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            std::fputs(usage, stdout);
            std::exit(0);
        }
        if (i + 1 >= argc) throw std::invalid_argument(fmt::format("{} needs a value", flag));
        const std::string value = argv[++i];
        const auto number = [&]() {
            std::size_t used = 0;
            double n = 0.0;
            try {
                n = std::stod(value, &used);
            } catch (const std::exception&) {
            }
            if (used == 0 || used != value.size() || !std::isfinite(n)) throw std::invalid_argument(fmt::format("{} = '{}' is not a number", flag, value));
            return n;
        };
        const auto seconds = [&]() {
            const double s = number();
            if (!(s > 0.0)) throw std::invalid_argument(fmt::format("{} = '{}' must be > 0 seconds", flag, value));
            return std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000.0));
        };
        if (flag == "--listen") o.listen = value;
        else if (flag == "--prometheus") o.prometheus = value;
        else if (flag == "--state") o.state_file = value;
        else if (flag == "--prometheus-timeout") o.prometheus_timeout = seconds();
        else if (flag == "--stream-interval") o.stream_interval = seconds();
        else if (flag == "--now") o.now = static_cast<std::int64_t>(number());
        else if (flag == "--clock-rate") o.clock_rate = number();
        else if (flag == "--tls-cert") o.tls_cert = value;
        else if (flag == "--tls-key") o.tls_key = value;
        else if (flag == "--tls-client-ca") o.tls_client_ca = value;
        else throw std::invalid_argument(fmt::format("unknown option {}", flag));
    }
    if (!(o.clock_rate >= 0.0) || (o.clock_rate > 0.0 && !o.now)) throw std::invalid_argument("--clock-rate needs --now and a rate >= 0");
    if (o.tls_cert.empty() != o.tls_key.empty()) throw std::invalid_argument("--tls-cert and --tls-key go together");
    return o;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument(fmt::format("cannot read {}", path));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Every ScaledObject's model, keyed by namespace/name, and the state file that mirrors them.
class Registry {
public:
    explicit Registry(Options options) : options_(std::move(options)) { load(); }

    Evaluation evaluate(const externalscaler::ScaledObjectRef& ref, ScalerConfig config) {
        const std::string key = fmt::format("{}/{}", ref.namespace_(), ref.name());
        std::shared_ptr<Entry> entry;
        {
            std::lock_guard lock(mutex_);
            auto& slot = entries_[key];
            if (!slot) slot = std::make_shared<Entry>();
            entry = slot;
        }
        std::lock_guard lock(entry->mutex);
        if (!entry->model || entry->model->config().fingerprint() != config.fingerprint()) {
            entry->model = restored(key, config);
            if (!entry->model) entry->model.emplace(config);
        }
        const auto now = this->now();
        const auto evaluation = entry->model->evaluate(now, [&](std::int64_t start, std::int64_t end) {
            return query_range(config.server_address, config.query, start, end, config.step_seconds, options_.prometheus_timeout);
        });
        fmt::print(stderr, "{}: {} = {} as of {} ({}{})\n", key, config.metric_name, evaluation.value, evaluation.as_of, evaluation.model_name,
                   evaluation.refitted ? ", refitted" : "");
        if (!options_.state_file.empty() && (evaluation.refitted || evaluation.as_of != entry->saved_as_of)) {
            save(key, ref, entry->model->state());
            entry->saved_as_of = evaluation.as_of;
        }
        return evaluation;
    }

    [[nodiscard]] const Options& options() const { return options_; }

    /// Unix seconds: the wall clock, or the replay clock of --now / --clock-rate.
    [[nodiscard]] std::int64_t now() const {
        if (!options_.now) return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        return *options_.now + static_cast<std::int64_t>(elapsed * options_.clock_rate);
    }

private:
    struct Entry {
        std::mutex mutex;
        std::optional<ScaledObjectModel> model;
        std::int64_t saved_as_of = -1;  // as_of of the model state last written to the state file
    };

    void load() {
        if (options_.state_file.empty() || !std::filesystem::exists(options_.state_file)) return;
        const auto json = nlohmann::json::parse(read_file(options_.state_file), nullptr, false);
        if (json.is_discarded() || !json.is_object() || !json.contains("scaled_objects")) {
            throw std::invalid_argument(fmt::format("--state {}: not a continuum-keda-scaler state file", options_.state_file));
        }
        for (const auto& [key, value] : json["scaled_objects"].items()) saved_[key] = value;
        fmt::print(stderr, "restored the state of {} ScaledObject(s) from {}\n", saved_.size(), options_.state_file);
    }

    std::optional<ScaledObjectModel> restored(const std::string& key, const ScalerConfig& config) {
        nlohmann::json state;
        {
            std::lock_guard lock(mutex_);
            const auto it = saved_.find(key);
            if (it == saved_.end()) return std::nullopt;
            state = it->second["model"];
        }
        try {
            return ScaledObjectModel::restore(config, state);
        } catch (const std::exception& e) {
            fmt::print(stderr, "{}: saved state not used ({}); starting afresh\n", key, e.what());
            return std::nullopt;
        }
    }

    void save(const std::string& key, const externalscaler::ScaledObjectRef& ref, nlohmann::json state) {
        std::string text;
        {
            std::lock_guard lock(mutex_);
            nlohmann::json metadata(std::map<std::string, std::string>(ref.scalermetadata().begin(), ref.scalermetadata().end()));
            saved_[key] = {{"metadata", std::move(metadata)}, {"model", std::move(state)}};
            text = nlohmann::json{{"version", 1}, {"scaled_objects", saved_}}.dump();
        }
        std::lock_guard lock(save_mutex_);
        const std::string temporary = options_.state_file + ".tmp";
        {
            std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
            out << text;
            out.flush();
            if (!out) {
                fmt::print(stderr, "cannot write the state file {}\n", temporary);
                return;
            }
        }
        std::filesystem::rename(temporary, options_.state_file);  // atomic: a crash leaves the old or the new file
    }

    Options options_;
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<Entry>> entries_;
    std::map<std::string, nlohmann::json> saved_;
    std::mutex save_mutex_;
};

/// Runs `body`, turning the scaler's exceptions into gRPC statuses whose message names the problem.
template <typename Body>
grpc::Status guarded(const externalscaler::ScaledObjectRef& ref, Body&& body) {
    const std::string key = fmt::format("{}/{}", ref.namespace_(), ref.name());
    const auto fail = [&](grpc::StatusCode code, const char* what) {
        fmt::print(stderr, "{}: {}\n", key, what);
        return grpc::Status(code, fmt::format("{}: {}", key, what));
    };
    try {
        if (ref.name().empty()) throw continuum::InvalidArgument("scaledObjectRef.name is empty");
        body();
        return grpc::Status::OK;
    } catch (const continuum::InvalidArgument& e) {
        return fail(grpc::StatusCode::INVALID_ARGUMENT, e.what());
    } catch (const PrometheusUnavailable& e) {
        return fail(grpc::StatusCode::UNAVAILABLE, e.what());
    } catch (const PrometheusNoData& e) {
        return fail(grpc::StatusCode::FAILED_PRECONDITION, e.what());
    } catch (const FitFailed& e) {
        return fail(grpc::StatusCode::FAILED_PRECONDITION, e.what());
    } catch (const std::exception& e) {
        return fail(grpc::StatusCode::INTERNAL, e.what());
    }
}

std::map<std::string, std::string> metadata_of(const externalscaler::ScaledObjectRef& ref) {
    return {ref.scalermetadata().begin(), ref.scalermetadata().end()};
}

class Service final : public externalscaler::ExternalScaler::Service {
public:
    explicit Service(Registry& registry) : registry_(registry) {}

    grpc::Status IsActive(grpc::ServerContext*, const externalscaler::ScaledObjectRef* ref, externalscaler::IsActiveResponse* out) override {
        return guarded(*ref, [&] {
            const auto config = ScalerConfig::parse(metadata_of(*ref), registry_.options().prometheus);
            out->set_result(registry_.evaluate(*ref, config).value > config.activation_threshold);
        });
    }

    grpc::Status StreamIsActive(grpc::ServerContext* context, const externalscaler::ScaledObjectRef* ref,
                                grpc::ServerWriter<externalscaler::IsActiveResponse>* writer) override {
        std::optional<bool> sent;
        while (!context->IsCancelled() && !stopping_) {
            bool active = false;
            const auto status = guarded(*ref, [&] {
                const auto config = ScalerConfig::parse(metadata_of(*ref), registry_.options().prometheus);
                active = registry_.evaluate(*ref, config).value > config.activation_threshold;
            });
            if (!status.ok()) return status;
            if (sent != active) {
                externalscaler::IsActiveResponse response;
                response.set_result(active);
                if (!writer->Write(response)) return grpc::Status::OK;  // the client went away
                sent = active;
            }
            // Wait for the next evaluation in slices, so a client that went away frees the thread soon.
            const auto next = std::chrono::steady_clock::now() + registry_.options().stream_interval;
            std::unique_lock lock(stop_mutex_);
            while (!stopping_ && !context->IsCancelled() && std::chrono::steady_clock::now() < next) {
                stop_.wait_until(lock, std::min(next, std::chrono::steady_clock::now() + std::chrono::seconds(1)));
            }
        }
        return grpc::Status::OK;
    }

    grpc::Status GetMetricSpec(grpc::ServerContext*, const externalscaler::ScaledObjectRef* ref, externalscaler::GetMetricSpecResponse* out) override {
        return guarded(*ref, [&] {
            const auto config = ScalerConfig::parse(metadata_of(*ref), registry_.options().prometheus);
            auto* spec = out->add_metricspecs();
            spec->set_metricname(config.metric_name);
            spec->set_targetsizefloat(config.threshold);
            spec->set_targetsize(std::max<std::int64_t>(1, std::llround(config.threshold)));
        });
    }

    grpc::Status GetMetrics(grpc::ServerContext*, const externalscaler::GetMetricsRequest* request, externalscaler::GetMetricsResponse* out) override {
        return guarded(request->scaledobjectref(), [&] {
            const auto config = ScalerConfig::parse(metadata_of(request->scaledobjectref()), registry_.options().prometheus);
            const auto evaluation = registry_.evaluate(request->scaledobjectref(), config);
            auto* value = out->add_metricvalues();
            value->set_metricname(request->metricname().empty() ? config.metric_name : request->metricname());
            value->set_metricvaluefloat(evaluation.value);
            value->set_metricvalue(std::llround(evaluation.value));
        });
    }

    void stop() {
        {
            std::lock_guard lock(stop_mutex_);
            stopping_ = true;
        }
        stop_.notify_all();
    }

private:
    Registry& registry_;
    std::atomic<bool> stopping_{false};
    std::mutex stop_mutex_;
    std::condition_variable stop_;
};

std::shared_ptr<grpc::ServerCredentials> credentials(const Options& o) {
    if (o.tls_cert.empty()) return grpc::InsecureServerCredentials();
    grpc::SslServerCredentialsOptions ssl(o.tls_client_ca.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                                                  : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    ssl.pem_key_cert_pairs.push_back({read_file(o.tls_key), read_file(o.tls_cert)});
    if (!o.tls_client_ca.empty()) ssl.pem_root_certs = read_file(o.tls_client_ca);
    return grpc::SslServerCredentials(ssl);
}

int run(int argc, char** argv) {
    Options options;
    try {
        options = parse_options(argc, argv);
    } catch (const std::exception& e) {
        fmt::print(stderr, "continuum-keda-scaler: {}\n{}", e.what(), usage);
        return 2;
    }
    // SIGTERM / SIGINT are taken by a waiting thread, which shuts the server down cleanly.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    Registry registry(options);
    Service service(registry);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort(options.listen, credentials(options), &port);
    builder.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (!server || port == 0) {
        fmt::print(stderr, "continuum-keda-scaler: cannot listen on {}\n", options.listen);
        return 1;
    }
    const auto colon = options.listen.rfind(':');
    fmt::print("continuum-keda-scaler listening on {}:{}\n", options.listen.substr(0, colon), port);
    std::fflush(stdout);
    std::thread waiter([&] {
        int received = 0;
        sigwait(&signals, &received);
        service.stop();
        server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
    });
    server->Wait();
    waiter.join();
    return 0;
}

}  // namespace

}  // namespace keda_scaler

int main(int argc, char** argv) {
    try {
        return keda_scaler::run(argc, argv);
    } catch (const std::exception& e) {
        fmt::print(stderr, "continuum-keda-scaler: {}\n", e.what());
        return 1;
    }
}
