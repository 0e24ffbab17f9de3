// continuum-ca-provider's implementation: configuration (YAML or JSON), pending pods (a kubectl
// JSON pod list), the decisions (plan_scale_out, Ledger, cost models), hooks, the state file and
// every RPC of clusterautoscaler.cloudprovider.v1.externalgrpc.CloudProvider.
#include "provider.hpp"

#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/cost_model.hpp>
#include <continuum/federation/ledger.hpp>
#include <continuum/federation/offer.hpp>
#include <continuum/federation/scale_in.hpp>
#include <continuum/federation/scale_out.hpp>
#include <continuum/federation/selector.hpp>
#include <continuum/serialization/federation.hpp>

#include <externalgrpc.grpc.pb.h>
#include <k8s/core_v1.pb.h>

#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace continuum::hosts::ca {
namespace {

namespace pb = clusterautoscaler::cloudprovider::v1::externalgrpc;
namespace corev1 = ::k8s::io::api::core::v1;
using Quantity = ::k8s::io::apimachinery::pkg::api::resource::Quantity;
namespace fed = continuum::federation;
using Json = nlohmann::json;
using Clock = std::chrono::system_clock;

inline constexpr const char* node_group_label = "continuum.io/node-group";
inline constexpr const char* offer_label = "continuum.io/offer";

/// An RPC that cannot be served: the gRPC status code and a message naming the problem.
struct RpcError : std::runtime_error {
    grpc::StatusCode code;
    RpcError(grpc::StatusCode c, const std::string& message) : std::runtime_error(message), code(c) {}
};

[[noreturn]] void fail(grpc::StatusCode code, const std::string& message) { throw RpcError(code, message); }

// ---------------------------------------------------------------------------------------------
// Configuration documents: YAML is converted to JSON, so one reader serves both.

Json yaml_to_json(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Map: {
            Json out = Json::object();
            for (const auto& entry : node) out[entry.first.as<std::string>()] = yaml_to_json(entry.second);
            return out;
        }
        case YAML::NodeType::Sequence: {
            Json out = Json::array();
            for (const auto& item : node) out.push_back(yaml_to_json(item));
            return out;
        }
        case YAML::NodeType::Scalar: {
            const std::string text = node.Scalar();
            if (node.Tag() == "!") return text;  // quoted: always a string
            if (text == "true" || text == "false") return text == "true";
            if (text == "~" || text == "null") return nullptr;
            char* end = nullptr;
            errno = 0;
            const long long integer = std::strtoll(text.c_str(), &end, 10);
            if (!text.empty() && *end == '\0' && errno == 0) return integer;
            const double real = std::strtod(text.c_str(), &end);
            if (!text.empty() && *end == '\0' && std::isfinite(real)) return real;
            return text;
        }
        default: return nullptr;
    }
}

Json load_document(const std::filesystem::path& path, std::string_view what) {
    std::ifstream in(path);
    if (!in) throw ConfigError(fmt::format("{} {}: cannot open ({})", what, path.string(), std::strerror(errno)));
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    const auto first = text.find_first_not_of(" \t\r\n");
    try {
        if (path.extension() == ".json" || (first != std::string::npos && (text[first] == '{' || text[first] == '['))) return Json::parse(text);
        return yaml_to_json(YAML::Load(text));
    } catch (const std::exception& e) {
        throw ConfigError(fmt::format("{} {}: not valid {}: {}", what, path.string(), path.extension() == ".json" ? "JSON" : "YAML or JSON", e.what()));
    }
}

/// Reads typed fields of a JSON object, naming the field's path in every error.
struct Reader {
    const Json& json;
    std::string where;

    [[noreturn]] void bad(std::string_view key, std::string_view problem) const { throw ConfigError(fmt::format("{}.{}: {}", where, key, problem)); }
    [[nodiscard]] bool has(std::string_view key) const { return json.is_object() && json.contains(key) && !json.at(std::string(key)).is_null(); }
    [[nodiscard]] const Json& at(std::string_view key) const { return json.at(std::string(key)); }
    [[nodiscard]] Reader child(std::string_view key) const { return {at(key), fmt::format("{}.{}", where, key)}; }

    [[nodiscard]] std::string string(std::string_view key, std::optional<std::string> fallback = std::nullopt) const {
        if (!has(key)) {
            if (fallback) return *fallback;
            bad(key, "is required");
        }
        const Json& v = at(key);
        if (v.is_string()) return v.get<std::string>();
        if (v.is_number_integer()) return std::to_string(v.get<long long>());
        bad(key, fmt::format("must be a string, got {}", v.dump()));
    }
    [[nodiscard]] double number(std::string_view key, double fallback) const {
        if (!has(key)) return fallback;
        const Json& v = at(key);
        if (!v.is_number()) bad(key, fmt::format("must be a number, got {}", v.dump()));
        return v.get<double>();
    }
    [[nodiscard]] std::int64_t integer(std::string_view key, std::int64_t fallback) const {
        if (!has(key)) return fallback;
        const Json& v = at(key);
        if (!v.is_number_integer()) bad(key, fmt::format("must be an integer, got {}", v.dump()));
        return v.get<std::int64_t>();
    }
    [[nodiscard]] bool boolean(std::string_view key, bool fallback) const {
        if (!has(key)) return fallback;
        const Json& v = at(key);
        if (!v.is_boolean()) bad(key, fmt::format("must be true or false, got {}", v.dump()));
        return v.get<bool>();
    }
    /// "90s", "10m", "1h", "250ms" or a number of seconds.
    [[nodiscard]] std::chrono::milliseconds duration(std::string_view key, std::chrono::milliseconds fallback) const {
        if (!has(key)) return fallback;
        const Json& v = at(key);
        double seconds = 0;
        if (v.is_number()) {
            seconds = v.get<double>();
        } else if (v.is_string()) {
            const std::string text = v.get<std::string>();
            char* end = nullptr;
            const double value = std::strtod(text.c_str(), &end);
            const std::string unit(end);
            const std::map<std::string, double> units{{"ms", 0.001}, {"s", 1}, {"", 1}, {"m", 60}, {"h", 3600}};
            const auto it = units.find(unit);
            if (end == text.c_str() || it == units.end()) bad(key, fmt::format("\"{}\" is not a duration (e.g. 90s, 10m, 1h)", text));
            seconds = value * it->second;
        } else {
            bad(key, fmt::format("must be a duration, got {}", v.dump()));
        }
        if (!std::isfinite(seconds) || seconds < 0 || seconds > 1e9) bad(key, fmt::format("must be a duration >= 0, got {}", v.dump()));
        return std::chrono::milliseconds(std::llround(seconds * 1000));
    }
    [[nodiscard]] std::map<std::string, std::string> string_map(std::string_view key) const {
        std::map<std::string, std::string> out;
        if (!has(key)) return out;
        const Json& v = at(key);
        if (!v.is_object()) bad(key, fmt::format("must be a mapping, got {}", v.dump()));
        for (const auto& [k, value] : v.items()) {
            if (value.is_string()) out[k] = value.get<std::string>();
            else if (value.is_number_integer()) out[k] = std::to_string(value.get<long long>());
            else if (value.is_number() || value.is_boolean()) out[k] = value.dump();
            else bad(key, fmt::format("value of \"{}\" must be a string, got {}", k, value.dump()));
        }
        return out;
    }
    [[nodiscard]] Resources resources(std::string_view key) const {
        try {
            return Resources::from_quantities(string_map(key));
        } catch (const continuum::Error& e) {
            bad(key, e.what());
        }
    }
};

// ---------------------------------------------------------------------------------------------
// Pods: the effective request (Kubernetes' rule: max(sum of containers, largest init container)
// plus overhead) and the node selector (nodeSelector plus the one term of required node affinity).

struct PodView {
    std::string name;
    std::vector<std::map<std::string, std::string>> containers, init_containers;
    std::map<std::string, std::string> overhead, node_selector;
    std::vector<fed::SelectorRequirement> expressions;
    std::size_t affinity_terms = 0;
};

fed::SelectorOperator parse_operator(const std::string& pod, const std::string& op) {
    static const std::map<std::string, fed::SelectorOperator> ops{{"In", fed::SelectorOperator::in},
                                                                  {"NotIn", fed::SelectorOperator::not_in},
                                                                  {"Exists", fed::SelectorOperator::exists},
                                                                  {"DoesNotExist", fed::SelectorOperator::does_not_exist},
                                                                  {"Gt", fed::SelectorOperator::gt},
                                                                  {"Lt", fed::SelectorOperator::lt}};
    const auto it = ops.find(op);
    if (it == ops.end()) throw InvalidArgument(fmt::format("pod {}: unknown node affinity operator \"{}\"", pod, op));
    return it->second;
}

/// \throws continuum::InvalidArgument naming the pod, the container and the resource.
fed::PendingPod to_pending_pod(const PodView& view) {
    if (view.affinity_terms > 1) {
        throw InvalidArgument(fmt::format("pod {}: required node affinity with {} terms (ORed) is not supported; use one term", view.name, view.affinity_terms));
    }
    const auto parse = [&](const std::map<std::string, std::string>& quantities, std::string_view where) {
        try {
            return Resources::from_quantities(quantities);
        } catch (const continuum::Error& e) {
            throw InvalidArgument(fmt::format("pod {}: {}: {}", view.name, where, e.what()));
        }
    };
    fed::PendingPod pod;
    pod.name = view.name;
    for (std::size_t i = 0; i < view.containers.size(); ++i) pod.request += parse(view.containers[i], fmt::format("containers[{}] requests", i));
    for (std::size_t i = 0; i < view.init_containers.size(); ++i) pod.request = max(pod.request, parse(view.init_containers[i], fmt::format("initContainers[{}] requests", i)));
    pod.request += parse(view.overhead, "overhead");
    for (const auto& [k, v] : view.node_selector) pod.node_selector.match_labels[k] = v;
    pod.node_selector.match_expressions = view.expressions;
    pod.node_selector.validate();
    return pod;
}

std::map<std::string, std::string> quantities_of(const google::protobuf::Map<std::string, Quantity>& map) {
    std::map<std::string, std::string> out;
    for (const auto& [name, quantity] : map) out[name] = quantity.string();
    return out;
}

PodView view_of(const corev1::Pod& pod) {
    PodView view;
    const auto& meta = pod.metadata();
    view.name = meta.namespace_().empty() ? meta.name() : meta.namespace_() + "/" + meta.name();
    const auto& spec = pod.spec();
    for (const auto& c : spec.containers()) view.containers.push_back(quantities_of(c.resources().requests()));
    for (const auto& c : spec.initcontainers()) view.init_containers.push_back(quantities_of(c.resources().requests()));
    view.overhead = quantities_of(spec.overhead());
    for (const auto& [k, v] : spec.nodeselector()) view.node_selector[k] = v;
    const auto& terms = spec.affinity().nodeaffinity().requiredduringschedulingignoredduringexecution().nodeselectorterms();
    view.affinity_terms = static_cast<std::size_t>(terms.size());
    if (terms.size() == 1) {
        for (const auto& e : terms[0].matchexpressions()) {
            view.expressions.push_back({e.key(), parse_operator(view.name, e.operator_()), {e.values().begin(), e.values().end()}});
        }
    }
    return view;
}

PodView view_of(const Json& pod, std::size_t index) {
    const Reader r{pod, fmt::format("items[{}]", index)};
    PodView view;
    const Reader meta = r.child("metadata");
    const std::string ns = meta.string("namespace", "");
    view.name = ns.empty() ? meta.string("name") : ns + "/" + meta.string("name");
    if (!r.has("spec")) return view;
    const Reader spec = r.child("spec");
    const auto requests = [&](std::string_view key, auto& out) {
        if (!spec.has(key)) return;
        for (const auto& c : spec.at(key)) {
            const Reader container{c, spec.where};
            out.push_back(container.has("resources") ? container.child("resources").string_map("requests") : std::map<std::string, std::string>{});
        }
    };
    requests("containers", view.containers);
    requests("initContainers", view.init_containers);
    view.overhead = spec.string_map("overhead");
    view.node_selector = spec.string_map("nodeSelector");
    const Json* terms = nullptr;
    if (spec.has("affinity")) {
        const Json& a = spec.at("affinity");
        if (a.contains("nodeAffinity") && a["nodeAffinity"].contains("requiredDuringSchedulingIgnoredDuringExecution")) {
            terms = &a["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"];
        }
    }
    if (terms != nullptr && terms->is_array()) {
        view.affinity_terms = terms->size();
        if (terms->size() == 1 && (*terms)[0].contains("matchExpressions")) {
            for (const auto& e : (*terms)[0]["matchExpressions"]) {
                const Reader req{e, view.name};
                std::vector<std::string> values;
                if (req.has("values")) values = req.at("values").get<std::vector<std::string>>();
                view.expressions.push_back({req.string("key"), parse_operator(view.name, req.string("operator")), values});
            }
        }
    }
    return view;
}

/// Pending pods from a kubectl JSON pod list (`kubectl get pods -A --field-selector=status.phase=Pending -o json`);
/// pods already bound to a node (spec.nodeName) are left out.
std::vector<fed::PendingPod> load_pending_pods(const std::filesystem::path& path) {
    const Json doc = load_document(path, "pending pods");
    const Json& items = doc.is_array() ? doc : (doc.contains("items") ? doc["items"] : throw ConfigError(fmt::format("pending pods {}: expected a pod list (\"items\")", path.string())));
    std::vector<fed::PendingPod> out;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].contains("spec") && items[i]["spec"].contains("nodeName") && !items[i]["spec"]["nodeName"].get<std::string>().empty()) continue;
        try {
            const PodView view = view_of(items[i], i);
            if (view.affinity_terms > 1) {  // a valid pod continuum cannot express: left to CA alone
                std::cerr << "continuum-ca-provider: pending pod " << view.name << " ignored: required node affinity with " << view.affinity_terms
                          << " terms (ORed) is not supported\n";
                continue;
            }
            auto pod = to_pending_pod(view);
            if (!seen.insert(pod.name).second) throw ConfigError(fmt::format("pending pods {}: items[{}]: duplicate pod {}", path.string(), i, pod.name));
            out.push_back(std::move(pod));
        } catch (const continuum::Error& e) {
            throw ConfigError(fmt::format("pending pods {}: items[{}]: {}", path.string(), i, e.what()));
        } catch (const Json::exception& e) {
            throw ConfigError(fmt::format("pending pods {}: items[{}]: {}", path.string(), i, e.what()));
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Hooks: fork/exec of a fixed argv with the JSON on stdin, bounded by a timeout.

std::string resolve_program(const std::string& program) {
    if (program.find('/') != std::string::npos) return program;
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    return program;  // execv fails and the child exits 127
}

/// Empty when the hook succeeded; otherwise what went wrong.
std::string run_hook(const std::vector<std::string>& argv, const std::string& input, std::chrono::milliseconds timeout) {
    const std::string program = resolve_program(argv.front());
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return fmt::format("pipe: {}", std::strerror(errno));
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return fmt::format("fork: {}", std::strerror(errno));
    }
    if (pid == 0) {  // child: only async-signal-safe calls
        ::setpgid(0, 0);
        ::dup2(fds[0], 0);
        ::syscall(SYS_close_range, 3U, ~0U, 0U);
        ::execv(program.c_str(), args.data());
        ::_exit(127);
    }
    ::setpgid(pid, pid);
    ::close(fds[0]);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    const auto remaining_ms = [&] {
        return static_cast<int>(std::max<long long>(0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count()));
    };
    ::fcntl(fds[1], F_SETFL, O_NONBLOCK);
    std::size_t written = 0;
    while (written < input.size() && remaining_ms() > 0) {
        pollfd p{fds[1], POLLOUT, 0};
        if (::poll(&p, 1, remaining_ms()) <= 0) continue;
        const ssize_t n = ::write(fds[1], input.data() + written, input.size() - written);
        if (n < 0 && errno != EAGAIN && errno != EINTR) break;  // EPIPE: the hook does not read stdin
        if (n > 0) written += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
    int status = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) return fmt::format("waitpid: {}", std::strerror(errno));
        if (remaining_ms() == 0) {
            ::kill(-pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            return fmt::format("timed out after {} ms and was killed", timeout.count());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
    if (WIFEXITED(status)) return fmt::format("exited with status {}{}", WEXITSTATUS(status), WEXITSTATUS(status) == 127 ? " (command not found?)" : "");
    return fmt::format("killed by signal {}", WTERMSIG(status));
}

// ---------------------------------------------------------------------------------------------

Json resources_json(const Resources& r) {
    Json out = Json::object();
    for (const auto& [name, value] : r) out[name] = value;
    return out;
}

Resources resources_from_json(const Json& j) {
    Resources out;
    for (const auto& [name, value] : j.items()) out.set(name, value.get<std::int64_t>());
    return out;
}

Json quantities_json(const Resources& r) {
    Json out = Json::object();
    for (const auto& [name, value] : r) out[name] = format_resource(name, value);
    return out;
}

double seconds_of(const google::protobuf::Timestamp& t) { return static_cast<double>(t.seconds()) + static_cast<double>(t.nanos()) * 1e-9; }

}  // namespace

std::vector<std::string> split_command(const std::string& command) {
    std::vector<std::string> out;
    std::istringstream in(command);
    for (std::string word; in >> word;) out.push_back(word);
    return out;
}

// ---------------------------------------------------------------------------------------------

struct CaProvider::Impl final : pb::CloudProvider::Service {
    enum class NodeState { creating, running };

    struct Taint {
        std::string key, value, effect;
    };
    struct Group {
        std::string id;
        std::int64_t min_size = 0, max_size = 0;
        std::vector<Taint> taints;
        std::optional<double> utilization_threshold, gpu_utilization_threshold;
        std::optional<std::chrono::milliseconds> unneeded_time;
        std::vector<fed::Offer> offers;
    };
    struct Node {
        std::string name, provider_id, group, cluster_id;
        std::uint64_t serial = 0;
        NodeState state = NodeState::creating;
        Resources reserved;
        double cost = 0;
        std::vector<packing::PlacedPod> pods;
        fed::ReservationId reservation = 0;
    };

    ProviderOptions options;
    std::mutex mutex;
    // configuration
    std::string consumer = "continuum-ca-provider";
    std::string provider_id_prefix = "liqo://";
    std::string node_name_prefix = "liqo-";
    std::string gpu_label = "nvidia.com/gpu.present";
    std::string gpu_type_label = "nvidia.com/gpu.product";
    std::string cost_model_name = "monetary";
    fed::AnyCostModel cost_model;
    std::chrono::milliseconds price_period{60'000};
    std::int64_t template_pods = 110;
    fed::ScaleOutOptions scale_out;
    std::optional<std::filesystem::path> pending_pods_file;
    std::vector<Group> groups;
    // state
    std::vector<fed::Offer> offers;     // every group's offers (the ledger's configuration)
    std::optional<fed::Ledger> ledger;  // built from the configuration's offers, or restored from the state file
    std::map<std::string, Node> nodes;  // by name
    std::uint64_t next_serial = 1;
    std::vector<fed::PendingPod> pending;

    explicit Impl(ProviderOptions o) : options(std::move(o)) {
        load_config();
        if (pending_pods_file) pending = load_pending_pods(*pending_pods_file);
        if (options.state && std::filesystem::exists(*options.state)) load_state();
    }

    // -- configuration -------------------------------------------------------------------------

    void load_config() {
        const Json doc = load_document(options.config, "config");
        const Reader r{doc, options.config.filename().string()};
        consumer = r.string("consumer", consumer);
        provider_id_prefix = r.string("provider_id_prefix", provider_id_prefix);
        node_name_prefix = r.string("node_name_prefix", node_name_prefix);
        gpu_label = r.string("gpu_label", gpu_label);
        gpu_type_label = r.string("gpu_type_label", gpu_type_label);
        price_period = r.duration("price_period", price_period);
        if (price_period.count() <= 0) r.bad("price_period", "must be > 0");
        template_pods = r.integer("template_pods", template_pods);
        if (template_pods < 1) r.bad("template_pods", "must be >= 1");
        cost_model_name = r.string("cost_model", cost_model_name);
        if (cost_model_name == "monetary") cost_model = fed::MonetaryCost{};
        else if (cost_model_name == "monetary-whole-offer") cost_model = fed::MonetaryCost{fed::PriceBasis::whole_offer};
        else if (cost_model_name == "energy") cost_model = fed::EnergyCost{};
        else if (cost_model_name == "carbon") cost_model = fed::EnergyCost{true};
        else if (cost_model_name == "latency") cost_model = fed::LatencyCost{};
        else r.bad("cost_model", fmt::format("unknown cost model \"{}\" (monetary, monetary-whole-offer, energy, carbon, latency)", cost_model_name));
        if (r.has("scale_out")) {
            const Reader s = r.child("scale_out");
            scale_out.allow_nat = s.boolean("allow_nat", scale_out.allow_nat);
            scale_out.price_tiers = s.integer("price_tiers", scale_out.price_tiers);
            if (scale_out.price_tiers < 1) s.bad("price_tiers", "must be >= 1");
        }
        if (r.has("pending_pods")) {
            std::filesystem::path p = r.string("pending_pods");
            pending_pods_file = p.is_absolute() ? p : options.config.parent_path() / p;
        }
        if (!r.has("node_groups") || !r.at("node_groups").is_array() || r.at("node_groups").empty()) r.bad("node_groups", "must be a non-empty list");
        std::vector<fed::Offer> all;
        for (std::size_t g = 0; g < r.at("node_groups").size(); ++g) {
            groups.push_back(load_group({r.at("node_groups")[g], fmt::format("{}.node_groups[{}]", r.where, g)}));
            for (const auto& other : groups) {
                if (other.id == groups.back().id && &other != &groups.back()) throw ConfigError(fmt::format("{}.node_groups[{}]: duplicate id \"{}\"", r.where, g, other.id));
            }
            all.insert(all.end(), groups.back().offers.begin(), groups.back().offers.end());
        }
        try {
            ledger.emplace(all);  // validates every offer and the uniqueness of cluster ids
            offers = std::move(all);
        } catch (const continuum::Error& e) {
            throw ConfigError(fmt::format("{}: offers: {}", r.where, e.what()));
        }
    }

    Group load_group(const Reader& r) {
        Group g;
        g.id = r.string("id");
        if (g.id.empty()) r.bad("id", "must not be empty");
        const auto labels = r.string_map("labels");
        if (r.has("taints")) {
            for (const auto& t : r.at("taints")) {
                const Reader tr{t, r.where + ".taints"};
                g.taints.push_back({tr.string("key"), tr.string("value", ""), tr.string("effect", "NoSchedule")});
            }
        }
        if (r.has("scale_in")) {
            const Reader s = r.child("scale_in");
            fed::ScaleInOptions check;
            if (s.has("utilization_threshold")) g.utilization_threshold = check.utilization_threshold = s.number("utilization_threshold", 0);
            if (s.has("gpu_utilization_threshold")) g.gpu_utilization_threshold = check.gpu_utilization_threshold = s.number("gpu_utilization_threshold", 0);
            if (s.has("unneeded_time")) g.unneeded_time = check.unneeded_time = s.duration("unneeded_time", {});
            try {
                check.validate();
            } catch (const continuum::Error& e) {
                throw ConfigError(fmt::format("{}.scale_in: {}", r.where, e.what()));
            }
        }
        if (!r.has("offers") || !r.at("offers").is_array() || r.at("offers").empty()) r.bad("offers", "must be a non-empty list");
        std::int64_t total = 0;
        for (std::size_t i = 0; i < r.at("offers").size(); ++i) {
            const Reader o{r.at("offers")[i], fmt::format("{}.offers[{}]", r.where, i)};
            fed::Offer offer;
            offer.cluster_id = o.string("cluster_id");
            offer.provider = o.string("provider", "");
            for (const auto& [k, v] : labels) offer.labels[k] = v;
            for (const auto& [k, v] : o.string_map("labels")) offer.labels[k] = v;
            offer.labels[node_group_label] = g.id;
            offer.capacity = o.resources("capacity");
            offer.max_nodes = o.integer("max_nodes", 1);
            offer.node_price = o.number("node_price", 0.0);
            if (o.has("unit_prices")) {
                const Reader prices = o.child("unit_prices");
                if (!prices.json.is_object()) o.bad("unit_prices", fmt::format("must be a mapping of resource to price, got {}", prices.json.dump()));
                for (const auto& [name, price] : prices.json.items()) offer.unit_prices[name] = prices.number(name, 0.0);
            }
            const std::string reach = o.string("reachability", "direct");
            if (reach != "direct" && reach != "nat") o.bad("reachability", fmt::format("must be direct or nat, got \"{}\"", reach));
            offer.reachability = reach == "nat" ? fed::Reachability::nat : fed::Reachability::direct;
            for (const auto& [key, field] : {std::pair{"latency_ms", &fed::Offer::latency_ms}, std::pair{"bandwidth_mbps", &fed::Offer::bandwidth_mbps},
                                             std::pair{"power_watts", &fed::Offer::power_watts}, std::pair{"carbon_intensity", &fed::Offer::carbon_intensity}}) {
                if (o.has(key)) offer.*field = o.number(key, 0);
            }
            try {
                offer.validate();
            } catch (const continuum::Error& e) {
                throw ConfigError(fmt::format("{}: {}", o.where, e.what()));
            }
            total += offer.max_nodes;
            g.offers.push_back(std::move(offer));
        }
        g.min_size = r.integer("min_size", 0);
        g.max_size = r.integer("max_size", total);
        if (g.min_size < 0 || g.max_size < g.min_size || g.max_size > total) {
            r.bad("max_size", fmt::format("need 0 <= min_size ({}) <= max_size ({}) <= the offers' max_nodes in all ({})", g.min_size, g.max_size, total));
        }
        return g;
    }

    // -- lookups -------------------------------------------------------------------------------

    Group& group(const std::string& id) {
        for (auto& g : groups) {
            if (g.id == id) return g;
        }
        fail(grpc::StatusCode::NOT_FOUND, fmt::format("unknown node group \"{}\"", id));
    }
    const fed::Offer& offer_of(const Node& n) {
        for (const auto& o : group(n.group).offers) {
            if (o.cluster_id == n.cluster_id) return o;
        }
        fail(grpc::StatusCode::INTERNAL, fmt::format("node {}: offer {} is not in node group {}", n.name, n.cluster_id, n.group));
    }
    std::vector<const Node*> nodes_of(const std::string& group_id) const {
        std::vector<const Node*> out;
        for (const auto& [name, n] : nodes) {
            if (n.group == group_id) out.push_back(&n);
        }
        std::sort(out.begin(), out.end(), [](const Node* a, const Node* b) { return a->serial < b->serial; });
        return out;
    }
    Node* node_by_provider_id(const std::string& provider_id) {
        for (auto& [name, n] : nodes) {
            if (n.provider_id == provider_id) return &n;
        }
        return nullptr;
    }
    std::int64_t live_nodes_of_offer(const std::string& cluster_id) const {
        return std::count_if(nodes.begin(), nodes.end(), [&](const auto& entry) { return entry.second.cluster_id == cluster_id; });
    }
    pb::NodeGroup node_group_message(const Group& g) const {
        pb::NodeGroup out;
        out.set_id(g.id);
        out.set_minsize(static_cast<std::int32_t>(g.min_size));
        out.set_maxsize(static_cast<std::int32_t>(g.max_size));
        std::vector<std::string> offers;
        for (const auto& o : g.offers) offers.push_back(fmt::format("{} x{} {} at {:.6g}", o.cluster_id, o.max_nodes, o.capacity, o.node_cost()));
        out.set_debug(fmt::format("continuum node group {}: offers [{}]", g.id, fmt::join(offers, ", ")));
        return out;
    }
    /// The price per price_period of running `request` (empty: the whole node) on `offer`; a flat-priced
    /// offer charges a pod its dominant share of the node under the monetary models.
    double cost_of(const fed::Offer& offer, const Resources& request) const {
        if (!request.empty() && !offer.priced_per_unit() && cost_model_name.rfind("monetary", 0) == 0) {
            double share = 0;
            for (const auto& [name, amount] : request) {
                if (amount > 0 && offer.capacity.get(name) > 0) share = std::max(share, static_cast<double>(amount) / static_cast<double>(offer.capacity.get(name)));
            }
            return offer.node_cost() * std::min(1.0, share);
        }
        return cost_model.cost(offer, request);
    }
    double period_factor(const google::protobuf::Timestamp& start, const google::protobuf::Timestamp& end, bool has_start, bool has_end) const {
        if (!has_start || !has_end) fail(grpc::StatusCode::INVALID_ARGUMENT, "startTimestamp and endTimestamp are required");
        const double seconds = seconds_of(end) - seconds_of(start);
        if (seconds < 0) fail(grpc::StatusCode::INVALID_ARGUMENT, fmt::format("endTimestamp is {} s before startTimestamp", -seconds));
        return seconds / (static_cast<double>(price_period.count()) / 1000.0);
    }

    // -- state file ----------------------------------------------------------------------------

    Json node_json(const Node& n) const {
        Json pods = Json::array();
        for (const auto& p : n.pods) pods.push_back({{"name", p.name}, {"request", resources_json(p.request)}});
        return {{"name", n.name},         {"provider_id", n.provider_id},           {"group", n.group},         {"cluster_id", n.cluster_id},
                {"serial", n.serial},     {"state", n.state == NodeState::running ? "running" : "creating"},
                {"reserved", resources_json(n.reserved)}, {"cost", n.cost},       {"pods", pods},
                {"reservation", n.reservation}};
    }

    /// Writes the state atomically: a temporary file, fsync, rename over the old one, fsync of the folder.
    /// \throws RpcError(INTERNAL) naming the file when it cannot.
    void save_state() const {
        if (!options.state) return;
        // Version 2: the Ledger's own state document (continuum's state values, issue 17) beside the nodes.
        Json doc{{"version", 2}, {"next_serial", next_serial}, {"nodes", Json::array()}, {"ledger", continuum::serialization::to_json(ledger->state())}};
        for (const auto& [name, n] : nodes) doc["nodes"].push_back(node_json(n));
        const std::string text = doc.dump(1);
        const auto path = *options.state;
        const auto tmp = path.string() + ".tmp";
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        bool ok = fd >= 0;
        std::size_t done = 0;
        while (ok && done < text.size()) {
            const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR) continue;
            ok = n > 0;
            if (ok) done += static_cast<std::size_t>(n);
        }
        ok = ok && ::fsync(fd) == 0;
        if (fd >= 0) ok = ::close(fd) == 0 && ok;
        ok = ok && ::rename(tmp.c_str(), path.c_str()) == 0;
        if (ok) {
            const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
            const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (dfd >= 0) {
                ::fsync(dfd);
                ::close(dfd);
            }
        }
        if (!ok) fail(grpc::StatusCode::INTERNAL, fmt::format("state file {}: cannot write ({})", path.string(), std::strerror(errno)));
    }

    /// Rebuilds the ledger and the nodes from the state file. Version 2 restores the Ledger from its
    /// own state document (every reservation with its id, committed or not, and the last id);
    /// version 1 (written before the ledger had a state) re-reserves each node's amount.
    void load_state() {
        const Json doc = load_document(*options.state, "state");
        try {
            const int version = doc.at("version").get<int>();
            if (version != 1 && version != 2) throw ConfigError(fmt::format("state {}: unknown version {}", options.state->string(), doc.at("version").dump()));
            if (version == 2) {
                const auto saved = continuum::serialization::from_json<fed::LedgerState>(doc.at("ledger"));
                (void)fed::Ledger::restore(offers, saved);  // checks the providers against the configuration's offers, naming the field
                ledger.emplace(saved);                      // (a Ledger is not movable: built in place)
            }
            const auto live = ledger->reservations();
            next_serial = doc.at("next_serial").get<std::uint64_t>();
            for (const auto& j : doc.at("nodes")) {
                Node n;
                n.name = j.at("name").get<std::string>();
                n.provider_id = j.at("provider_id").get<std::string>();
                n.group = j.at("group").get<std::string>();
                n.cluster_id = j.at("cluster_id").get<std::string>();
                n.serial = j.at("serial").get<std::uint64_t>();
                n.state = j.at("state").get<std::string>() == "running" ? NodeState::running : NodeState::creating;
                n.reserved = resources_from_json(j.at("reserved"));
                n.cost = j.at("cost").get<double>();
                for (const auto& p : j.at("pods")) n.pods.push_back({p.at("name").get<std::string>(), resources_from_json(p.at("request")), true});
                try {
                    (void)offer_of(n);
                } catch (const RpcError& e) {
                    throw ConfigError(fmt::format("state {}: node {}: {} (the configuration no longer has it)", options.state->string(), n.name, e.what()));
                }
                if (version == 1) {
                    n.reservation = ledger->reserve(consumer, n.cluster_id, n.reserved);
                    ledger->commit(n.reservation);
                } else {
                    n.reservation = j.at("reservation").get<fed::ReservationId>();
                    const bool held = std::any_of(live.begin(), live.end(), [&](const fed::Reservation& r) {
                        return r.id == n.reservation && r.cluster_id == n.cluster_id && r.amount == n.reserved;
                    });
                    if (!held) {
                        throw ConfigError(fmt::format("state {}: node {}: reservation {} is not in the ledger with {} of {}", options.state->string(), n.name,
                                                      n.reservation, n.reserved, n.cluster_id));
                    }
                }
                nodes.emplace(n.name, std::move(n));
            }
        } catch (const Json::exception& e) {
            throw ConfigError(fmt::format("state {}: {}", options.state->string(), e.what()));
        } catch (const continuum::Error& e) {
            throw ConfigError(fmt::format("state {}: {}", options.state->string(), e.what()));
        }
    }

    // -- acting on the world -------------------------------------------------------------------

    /// Runs a hook with a JSON description; \throws RpcError(UNAVAILABLE) naming the hook on failure.
    void act(const std::vector<std::string>& hook, std::string_view flag, const Json& description) const {
        if (hook.empty()) return;
        const std::string error = run_hook(hook, description.dump() + "\n", options.hook_timeout);
        if (!error.empty()) fail(grpc::StatusCode::UNAVAILABLE, fmt::format("{} hook \"{}\" {}; nothing was changed", flag, fmt::join(hook, " "), error));
    }

    Json description(std::string_view action, const Group& g, const std::vector<const Node*>& changed, std::string_view reason) {
        Json list = Json::array();
        for (const Node* n : changed) {
            const auto& offer = offer_of(*n);
            Json pods = Json::array();
            for (const auto& p : n->pods) pods.push_back(p.name);
            list.push_back({{"name", n->name},
                            {"provider_id", n->provider_id},
                            {"cluster_id", n->cluster_id},
                            {"provider", offer.provider},
                            {"reserved", quantities_json(n->reserved)},
                            {"cost", n->cost},
                            {"pods", pods}});
        }
        return {{"action", action}, {"node_group", g.id}, {"nodes", list}, {"reason", reason}};
    }

    /// Releases the nodes' reservations and forgets them, after the scale-down hook succeeded.
    void remove_nodes(const Group& g, const std::vector<const Node*>& victims, std::string_view cause) {
        act(options.on_scale_down, "--on-scale-down", description("scale-down", g, victims, cause));
        for (const Node* n : victims) {
            ledger->release(n->reservation);
            nodes.erase(std::string(n->name));
        }
        save_state();
    }

    // -- RPCs ----------------------------------------------------------------------------------

    template <typename F>
    grpc::Status serve(std::string_view rpc, F&& body) {
        const std::lock_guard lock(mutex);
        try {
            body();
            return grpc::Status::OK;
        } catch (const RpcError& e) {
            std::cerr << "continuum-ca-provider: " << rpc << ": " << e.what() << "\n";
            return {e.code, e.what()};
        } catch (const std::exception& e) {
            std::cerr << "continuum-ca-provider: " << rpc << ": " << e.what() << "\n";
            return {grpc::StatusCode::INTERNAL, fmt::format("{}: {}", rpc, e.what())};
        }
    }

    grpc::Status NodeGroups(grpc::ServerContext*, const pb::NodeGroupsRequest*, pb::NodeGroupsResponse* out) override {
        return serve("NodeGroups", [&] {
            for (const auto& g : groups) *out->add_nodegroups() = node_group_message(g);
        });
    }

    grpc::Status NodeGroupForNode(grpc::ServerContext*, const pb::NodeGroupForNodeRequest* in, pb::NodeGroupForNodeResponse* out) override {
        return serve("NodeGroupForNode", [&] {
            const std::string& id = in->node().providerid();
            if (Node* n = node_by_provider_id(id)) {
                if (n->state == NodeState::creating) {  // CA sees the node: it has registered
                    n->state = NodeState::running;
                    save_state();
                }
                *out->mutable_nodegroup() = node_group_message(group(n->group));
                return;
            }
            // A node of an offer this provider manages, not (or no longer) in its records: its group.
            const Group* best = nullptr;
            std::size_t best_length = 0;
            for (const auto& g : groups) {
                for (const auto& o : g.offers) {
                    const std::string prefix = provider_id_prefix + o.cluster_id;
                    if (id.rfind(prefix, 0) == 0 && (id.size() == prefix.size() || id[prefix.size()] == '-') && prefix.size() > best_length) {
                        best = &g;
                        best_length = prefix.size();
                    }
                }
            }
            if (best != nullptr) *out->mutable_nodegroup() = node_group_message(*best);
            else out->mutable_nodegroup()->set_id("");
        });
    }

    grpc::Status PricingNodePrice(grpc::ServerContext*, const pb::PricingNodePriceRequest* in, pb::PricingNodePriceResponse* out) override {
        return serve("PricingNodePrice", [&] {
            const double periods = period_factor(in->starttimestamp(), in->endtimestamp(), in->has_starttimestamp(), in->has_endtimestamp());
            const auto& node = in->node();
            double cost = 0;
            if (const Node* n = node_by_provider_id(node.providerid()); n != nullptr && !node.providerid().empty()) {
                cost = cost_model.cost(offer_of(*n), n->reserved);
            } else if (const auto it = node.labels().find(offer_label); it != node.labels().end() && node.labels().count(node_group_label) != 0) {
                const Group& g = group(node.labels().at(node_group_label));
                const auto offer = std::find_if(g.offers.begin(), g.offers.end(), [&](const fed::Offer& o) { return o.cluster_id == it->second; });
                if (offer == g.offers.end()) fail(grpc::StatusCode::NOT_FOUND, fmt::format("node {}: unknown offer \"{}\" in node group {}", node.name(), it->second, g.id));
                cost = cost_model.cost(*offer, {});
            } else {
                fail(grpc::StatusCode::NOT_FOUND, fmt::format("node \"{}\" (providerID \"{}\") is not managed by continuum-ca-provider", node.name(), node.providerid()));
            }
            if (!std::isfinite(cost)) fail(grpc::StatusCode::FAILED_PRECONDITION, fmt::format("cost model {} cannot price node {}", cost_model.name(), node.name()));
            out->set_price(cost * periods);
        });
    }

    grpc::Status PricingPodPrice(grpc::ServerContext*, const pb::PricingPodPriceRequest* in, pb::PricingPodPriceResponse* out) override {
        return serve("PricingPodPrice", [&] {
            const double periods = period_factor(in->starttimestamp(), in->endtimestamp(), in->has_starttimestamp(), in->has_endtimestamp());
            if (in->pod_bytes().empty()) fail(grpc::StatusCode::INVALID_ARGUMENT, "pod_bytes is empty: CA >= 1.35 sends the pod as v1.Pod protobuf bytes");
            corev1::Pod pod;
            if (!pod.ParseFromString(in->pod_bytes())) {
                fail(grpc::StatusCode::INVALID_ARGUMENT, fmt::format("pod_bytes ({} bytes) is not a protobuf-encoded v1.Pod", in->pod_bytes().size()));
            }
            fed::PendingPod request;
            try {
                request = to_pending_pod(view_of(pod));
            } catch (const continuum::Error& e) {
                fail(grpc::StatusCode::INVALID_ARGUMENT, fmt::format("pod_bytes: {}", e.what()));
            }
            double best = std::numeric_limits<double>::infinity();
            for (const auto& g : groups) {
                for (const auto& o : g.offers) {
                    if (request.request.fits_in(o.capacity) && request.node_selector.matches(o.labels)) best = std::min(best, cost_of(o, request.request));
                }
            }
            if (!std::isfinite(best)) {
                fail(grpc::StatusCode::FAILED_PRECONDITION, fmt::format("no offer can host pod {} (request {}, selector \"{}\")", request.name, request.request, request.node_selector.to_string()));
            }
            out->set_price(best * periods);
        });
    }

    grpc::Status GPULabel(grpc::ServerContext*, const pb::GPULabelRequest*, pb::GPULabelResponse* out) override {
        return serve("GPULabel", [&] { out->set_label(gpu_label); });
    }

    grpc::Status GetAvailableGPUTypes(grpc::ServerContext*, const pb::GetAvailableGPUTypesRequest*, pb::GetAvailableGPUTypesResponse* out) override {
        return serve("GetAvailableGPUTypes", [&] {
            for (const auto& g : groups) {
                for (const auto& o : g.offers) {
                    if (o.capacity.gpus() <= 0) continue;
                    const std::string_view type = o.label(gpu_type_label);
                    (*out->mutable_gputypes())[std::string(type.empty() ? std::string_view(resource_names::gpu) : type)];
                }
            }
        });
    }

    grpc::Status Cleanup(grpc::ServerContext*, const pb::CleanupRequest*, pb::CleanupResponse*) override {
        return serve("Cleanup", [&] { save_state(); });
    }

    grpc::Status Refresh(grpc::ServerContext*, const pb::RefreshRequest*, pb::RefreshResponse*) override {
        return serve("Refresh", [&] {
            ledger->expire(std::chrono::duration_cast<Time>(Clock::now().time_since_epoch()));
            if (!pending_pods_file) return;
            try {
                pending = load_pending_pods(*pending_pods_file);
            } catch (const ConfigError& e) {
                fail(grpc::StatusCode::UNAVAILABLE, fmt::format("{}; keeping the previous {} pending pods", e.what(), pending.size()));
            }
        });
    }

    grpc::Status NodeGroupTargetSize(grpc::ServerContext*, const pb::NodeGroupTargetSizeRequest* in, pb::NodeGroupTargetSizeResponse* out) override {
        return serve("NodeGroupTargetSize", [&] { out->set_targetsize(static_cast<std::int32_t>(nodes_of(group(in->id()).id).size())); });
    }

    grpc::Status NodeGroupIncreaseSize(grpc::ServerContext*, const pb::NodeGroupIncreaseSizeRequest* in, pb::NodeGroupIncreaseSizeResponse*) override {
        return serve("NodeGroupIncreaseSize", [&] { increase_size(group(in->id()), in->delta()); });
    }

    void increase_size(const Group& g, std::int64_t delta) {
        if (delta <= 0) fail(grpc::StatusCode::INVALID_ARGUMENT, fmt::format("node group {}: delta must be positive, got {}", g.id, delta));
        const auto existing = nodes_of(g.id);
        const auto size = static_cast<std::int64_t>(existing.size());
        if (size + delta > g.max_size) {
            fail(grpc::StatusCode::FAILED_PRECONDITION, fmt::format("node group {}: size {} + delta {} exceeds max size {}", g.id, size, delta, g.max_size));
        }
        // The group's virtual nodes (their planned pods fill them), and its pending pods that no node
        // of any group was opened for yet.
        std::vector<fed::VirtualNode> virtual_nodes;
        for (const Node* n : existing) virtual_nodes.push_back({n->name, n->cluster_id, offer_of(*n).labels, n->reserved, n->cost, n->pods});
        std::set<std::string, std::less<>> planned;
        for (const auto& [name, n] : nodes) {
            for (const auto& p : n.pods) planned.insert(p.name);
        }
        std::vector<fed::PendingPod> pods;
        for (const auto& p : pending) {
            if (planned.count(p.name) != 0) continue;
            if (std::any_of(g.offers.begin(), g.offers.end(), [&](const fed::Offer& o) { return p.node_selector.matches(o.labels); })) pods.push_back(p);
        }
        fed::ScaleOutDecision decision;
        try {
            decision = fed::plan_scale_out(pods, virtual_nodes, g.offers, scale_out);
        } catch (const continuum::Error& e) {
            fail(grpc::StatusCode::FAILED_PRECONDITION, fmt::format("node group {}: {}", g.id, e.what()));
        }
        // CA decides how many nodes (delta); continuum decides which offers and what to reserve: the
        // planned nodes hosting the most pods first, then empty nodes on the cheapest offers left.
        struct Choice {
            std::size_t offer;
            fed::NewVirtualNode node;
        };
        std::vector<Choice> choices;
        for (const auto& peering : decision.peerings) {
            for (const auto& n : peering.nodes) choices.push_back({peering.offer_index, n});
        }
        std::stable_sort(choices.begin(), choices.end(), [](const Choice& a, const Choice& b) { return a.node.pods.size() > b.node.pods.size(); });
        if (static_cast<std::int64_t>(choices.size()) > delta) choices.resize(static_cast<std::size_t>(delta));
        std::map<std::size_t, std::int64_t> used;
        for (const auto& c : choices) ++used[c.offer];
        std::vector<std::size_t> by_price(g.offers.size());
        for (std::size_t i = 0; i < by_price.size(); ++i) by_price[i] = i;
        std::stable_sort(by_price.begin(), by_price.end(), [&](std::size_t a, std::size_t b) {
            if (g.offers[a].node_cost() != g.offers[b].node_cost()) return g.offers[a].node_cost() < g.offers[b].node_cost();
            return g.offers[a].cluster_id < g.offers[b].cluster_id;
        });
        for (const auto o : by_price) {
            const auto& offer = g.offers[o];
            while (static_cast<std::int64_t>(choices.size()) < delta && live_nodes_of_offer(offer.cluster_id) + used[o] < offer.max_nodes) {
                ++used[o];
                choices.push_back({o, {{}, {}, offer.capacity, offer.node_cost()}});
            }
        }
        if (static_cast<std::int64_t>(choices.size()) < delta) {
            fail(grpc::StatusCode::FAILED_PRECONDITION, fmt::format("node group {}: only {} more nodes are left in its offers, {} asked", g.id, choices.size(), delta));
        }
        // Reserve, act, then commit; any failure releases what was reserved and changes nothing.
        std::vector<Node> created;
        const auto rollback = [&] {
            for (const auto& n : created) ledger->release(n.reservation);
        };
        std::uint64_t serial = next_serial;
        for (const auto& c : choices) {
            const auto& offer = g.offers[c.offer];
            Node n;
            n.group = g.id;
            n.cluster_id = offer.cluster_id;
            n.serial = serial++;
            const std::string suffix = offer.max_nodes == 1 ? offer.cluster_id : fmt::format("{}-{}", offer.cluster_id, n.serial);
            n.name = node_name_prefix + suffix;
            n.provider_id = provider_id_prefix + suffix;
            n.reserved = c.node.reserved;
            n.cost = c.node.cost;
            for (const auto& pod_name : c.node.pods) {
                const auto it = std::find_if(pods.begin(), pods.end(), [&](const fed::PendingPod& p) { return p.name == pod_name; });
                n.pods.push_back({pod_name, it->request, true});
            }
            const auto id = ledger->try_reserve(consumer, offer.cluster_id, n.reserved);
            if (!id) {
                rollback();
                fail(grpc::StatusCode::FAILED_PRECONDITION, fmt::format("node group {}: the ledger has only {} of {} free, {} needed", g.id, ledger->available(offer.cluster_id), offer.cluster_id, n.reserved));
            }
            n.reservation = *id;
            created.push_back(std::move(n));
        }
        std::vector<const Node*> changed;
        for (const auto& n : created) changed.push_back(&n);
        Json up = description("scale-up", g, changed, decision.reason);
        up["existing_node_placements"] = Json::array();
        for (const auto& placement : decision.existing_node_placements) up["existing_node_placements"].push_back({{"pod", placement.pod}, {"node", placement.node}});
        try {
            act(options.on_scale_up, "--on-scale-up", up);
        } catch (const RpcError&) {
            rollback();
            throw;
        }
        next_serial = serial;
        for (const auto& placement : decision.existing_node_placements) {  // pods planned onto existing nodes' free room
            const auto it = std::find_if(pods.begin(), pods.end(), [&](const fed::PendingPod& p) { return p.name == placement.pod; });
            nodes.at(placement.node).pods.push_back({placement.pod, it->request, true});
        }
        for (auto& n : created) {
            ledger->commit(n.reservation);
            nodes.emplace(n.name, std::move(n));
        }
        save_state();
    }

    grpc::Status NodeGroupDeleteNodes(grpc::ServerContext*, const pb::NodeGroupDeleteNodesRequest* in, pb::NodeGroupDeleteNodesResponse*) override {
        return serve("NodeGroupDeleteNodes", [&] {
            const Group& g = group(in->id());
            if (in->nodes().empty()) fail(grpc::StatusCode::INVALID_ARGUMENT, fmt::format("node group {}: no nodes to delete", g.id));
            std::vector<const Node*> victims;
            for (const auto& requested : in->nodes()) {
                const Node* n = node_by_provider_id(requested.providerid());
                if (n == nullptr && nodes.count(requested.name()) != 0) n = &nodes.at(requested.name());
                if (n == nullptr) fail(grpc::StatusCode::NOT_FOUND, fmt::format("node \"{}\" (providerID \"{}\") is not a node of continuum-ca-provider", requested.name(), requested.providerid()));
                if (n->group != g.id) fail(grpc::StatusCode::INVALID_ARGUMENT, fmt::format("node {} belongs to node group {}, not {}", n->name, n->group, g.id));
                if (std::find(victims.begin(), victims.end(), n) != victims.end()) fail(grpc::StatusCode::INVALID_ARGUMENT, fmt::format("node {} is listed twice", n->name));
                victims.push_back(n);
            }
            const auto size = static_cast<std::int64_t>(nodes_of(g.id).size());
            if (size - static_cast<std::int64_t>(victims.size()) < g.min_size) {
                fail(grpc::StatusCode::FAILED_PRECONDITION, fmt::format("node group {}: deleting {} of {} nodes goes below min size {}", g.id, victims.size(), size, g.min_size));
            }
            remove_nodes(g, victims, "NodeGroupDeleteNodes");
        });
    }

    grpc::Status NodeGroupDecreaseTargetSize(grpc::ServerContext*, const pb::NodeGroupDecreaseTargetSizeRequest* in, pb::NodeGroupDecreaseTargetSizeResponse*) override {
        return serve("NodeGroupDecreaseTargetSize", [&] {
            const Group& g = group(in->id());
            const std::int64_t delta = in->delta();
            if (delta >= 0) fail(grpc::StatusCode::INVALID_ARGUMENT, fmt::format("node group {}: delta must be negative, got {}", g.id, delta));
            auto existing = nodes_of(g.id);
            std::vector<const Node*> creating;
            for (auto it = existing.rbegin(); it != existing.rend(); ++it) {
                if ((*it)->state == NodeState::creating) creating.push_back(*it);
            }
            if (-delta > static_cast<std::int64_t>(creating.size())) {
                fail(grpc::StatusCode::FAILED_PRECONDITION, fmt::format("node group {}: only {} nodes are not registered yet; cannot decrease the target by {}", g.id, creating.size(), -delta));
            }
            if (static_cast<std::int64_t>(existing.size()) + delta < g.min_size) {
                fail(grpc::StatusCode::FAILED_PRECONDITION, fmt::format("node group {}: target {} {} goes below min size {}", g.id, existing.size(), delta, g.min_size));
            }
            creating.resize(static_cast<std::size_t>(-delta));  // the newest first
            remove_nodes(g, creating, "NodeGroupDecreaseTargetSize");
        });
    }

    grpc::Status NodeGroupNodes(grpc::ServerContext*, const pb::NodeGroupNodesRequest* in, pb::NodeGroupNodesResponse* out) override {
        return serve("NodeGroupNodes", [&] {
            for (const Node* n : nodes_of(group(in->id()).id)) {
                auto* instance = out->add_instances();
                instance->set_id(n->provider_id);
                instance->mutable_status()->set_instancestate(n->state == NodeState::running ? pb::InstanceStatus::instanceRunning : pb::InstanceStatus::instanceCreating);
            }
        });
    }

    grpc::Status NodeGroupTemplateNodeInfo(grpc::ServerContext*, const pb::NodeGroupTemplateNodeInfoRequest* in, pb::NodeGroupTemplateNodeInfoResponse* out) override {
        return serve("NodeGroupTemplateNodeInfo", [&] {
            const Group& g = group(in->id());
            // The node a scale-up would most likely open: the cheapest offer with nodes left (any offer when none is left).
            const fed::Offer* best = nullptr;
            for (const bool need_room : {true, false}) {
                for (const auto& o : g.offers) {
                    if (need_room && live_nodes_of_offer(o.cluster_id) >= o.max_nodes) continue;
                    if (best == nullptr || std::pair(cost_of(o, {}), o.cluster_id) < std::pair(cost_of(*best, {}), best->cluster_id)) best = &o;
                }
                if (best != nullptr) break;
            }
            corev1::Node node;
            node.mutable_metadata()->set_name(fmt::format("template-{}-{}", g.id, best->cluster_id));
            auto& labels = *node.mutable_metadata()->mutable_labels();
            for (const auto& [k, v] : best->labels) labels[k] = v;
            labels[offer_label] = best->cluster_id;
            for (const auto& t : g.taints) {
                auto* taint = node.mutable_spec()->add_taints();
                taint->set_key(t.key);
                taint->set_value(t.value);
                taint->set_effect(t.effect);
            }
            Resources capacity = best->capacity;
            if (capacity.pods() == 0) capacity.set(resource_names::pods, template_pods);
            for (const auto& [name, value] : capacity) {
                (*node.mutable_status()->mutable_capacity())[name].set_string(format_resource(name, value));
                (*node.mutable_status()->mutable_allocatable())[name].set_string(format_resource(name, value));
            }
            out->set_nodebytes(node.SerializeAsString());
        });
    }

    grpc::Status NodeGroupGetOptions(grpc::ServerContext*, const pb::NodeGroupAutoscalingOptionsRequest* in, pb::NodeGroupAutoscalingOptionsResponse* out) override {
        return serve("NodeGroupGetOptions", [&] {
            const Group& g = group(in->id());
            auto* options_out = out->mutable_nodegroupautoscalingoptions();
            *options_out = in->defaults();
            if (g.utilization_threshold) options_out->set_scaledownutilizationthreshold(*g.utilization_threshold);
            if (g.gpu_utilization_threshold) options_out->set_scaledowngpuutilizationthreshold(*g.gpu_utilization_threshold);
            if (g.unneeded_time) {
                options_out->mutable_scaledownunneededduration()->set_seconds(g.unneeded_time->count() / 1000);
                options_out->mutable_scaledownunneededduration()->set_nanos(static_cast<std::int32_t>(g.unneeded_time->count() % 1000 * 1'000'000));
            }
        });
    }
};

CaProvider::CaProvider(ProviderOptions options) {
    std::signal(SIGPIPE, SIG_IGN);  // a hook that does not read its stdin must not kill the server
    try {
        impl_ = std::make_unique<Impl>(std::move(options));
    } catch (const continuum::Error& e) {
        throw ConfigError(e.what());
    }
}

CaProvider::~CaProvider() = default;

grpc::Service& CaProvider::service() { return *impl_; }

}  // namespace continuum::hosts::ca
