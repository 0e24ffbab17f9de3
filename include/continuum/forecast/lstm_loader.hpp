// Loads an Lstm (forecast/lstm.hpp) from a safetensors file: tensors named as in a PyTorch
// state_dict of a module with submodules `lstm` (nn.LSTM, batch_first) and `head` (nn.Linear or
// nn.Sequential of Linear/ReLU), and window, head layout and scaling in `__metadata__`.
// Every malformed file is reported as a continuum::ParseError naming the file and the tensor.
// Needs nlohmann_json (optional dependency of continuum, used only here). Keys: docs/lstm.md.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/forecast/detail/lstm_safetensors_loader.hpp>
#include <continuum/forecast/lstm.hpp>

#include <nlohmann/json.hpp>

#include <Eigen/Core>

#include <charconv>
#include <concepts>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::forecast {

namespace detail {

/// Reads an LstmParameters from a parsed safetensors file.
template <std::floating_point T>
class LstmFileReader {
public:
    explicit LstmFileReader(const SafetensorsFile& file) : file_(file) {}

    LstmParameters<T> read() {
        LstmParameters<T> p;
        check_format();
        p.window = metadata_count("window", true, 0);
        if (p.window == 0) fail("__metadata__ window must be >= 1, got 0");
        read_layers(p);
        read_head(p);
        const std::size_t features = static_cast<std::size_t>(p.layers.front().weight_ih.cols());
        check_declared("input_size", features);
        check_declared("num_layers", p.layers.size());
        check_declared("hidden_size", static_cast<std::size_t>(p.layers.front().weight_hh.cols()));
        p.target_feature = metadata_count("target_feature", false, 0);
        p.step = Duration(static_cast<Duration::rep>(metadata_count("step_seconds", false, 0) * 1000));
        p.input_scaling = read_scaling("input", features);
        p.output_scaling = read_scaling("output", 1);
        for (const auto& [name, tensor] : file_.tensors) {
            if (used_.contains(name)) continue;
            std::string hint;
            if (name.find("_reverse") != std::string::npos) hint = " (bidirectional LSTMs are not supported)";
            if (name.find("weight_hr") != std::string::npos) hint = " (LSTMs with proj_size > 0 are not supported)";
            if (name.rfind("head.", 0) == 0) hint = " (not a Linear of the head layout in __metadata__ head)";
            fail(continuum::detail::message("unexpected tensor {}{}", name, hint));
        }
        return p;
    }

private:
    [[noreturn]] void fail(const std::string& message) const { safetensors_fail(file_.source, message); }

    const SafetensorsTensor& tensor(const std::string& name, std::size_t rank) {
        const auto* t = file_.find(name);
        if (t == nullptr) fail(continuum::detail::message("missing tensor {}", name));
        if (t->shape.size() != rank) {
            fail(continuum::detail::message("tensor {} has rank {} (shape [{}]), expected rank {}", name, t->shape.size(), fmt::join(t->shape, ", "), rank));
        }
        used_.insert(name);
        return *t;
    }

    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> matrix(const std::string& name) {
        const auto& t = tensor(name, 2);
        const auto values = read_tensor_values<T>(file_, t);
        using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        // The file is row-major (C order); copy into column-major storage, never reinterpret.
        return Eigen::Map<const RowMajor>(values.data(), static_cast<Eigen::Index>(t.shape[0]), static_cast<Eigen::Index>(t.shape[1]));
    }

    Eigen::Matrix<T, Eigen::Dynamic, 1> vector(const std::string& name) {
        const auto& t = tensor(name, 1);
        const auto values = read_tensor_values<T>(file_, t);
        return Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>(values.data(), static_cast<Eigen::Index>(values.size()));
    }

    void read_layers(LstmParameters<T>& p) {
        for (std::size_t k = 0; file_.find(continuum::detail::message("lstm.weight_ih_l{}", k)) != nullptr || k == 0; ++k) {
            LstmLayer<T> layer;
            layer.weight_ih = matrix(continuum::detail::message("lstm.weight_ih_l{}", k));
            layer.weight_hh = matrix(continuum::detail::message("lstm.weight_hh_l{}", k));
            layer.bias_ih = vector(continuum::detail::message("lstm.bias_ih_l{}", k));
            layer.bias_hh = vector(continuum::detail::message("lstm.bias_hh_l{}", k));
            p.layers.push_back(std::move(layer));
        }
    }

    void read_head(LstmParameters<T>& p) {
        const auto layout = file_.metadata.find("head");
        if (file_.find("head.weight") != nullptr) {
            if (layout != file_.metadata.end() && parse_json("head", layout->second) != nlohmann::json::array({"linear"})) {
                fail(continuum::detail::message("tensor head.weight means a single nn.Linear head, but __metadata__ head is {}", layout->second));
            }
            DenseLayer<T> dense;
            dense.weight = matrix("head.weight");
            dense.bias = vector("head.bias");
            dense.name = "head";
            p.head.push_back(std::move(dense));
            return;
        }
        if (layout == file_.metadata.end()) {
            fail("missing tensor head.weight (a single nn.Linear head) and no __metadata__ head describing an nn.Sequential head");
        }
        const auto ops = parse_json("head", layout->second);
        if (!ops.is_array() || ops.empty()) fail(continuum::detail::message("__metadata__ head must be a non-empty JSON array, got {}", layout->second));
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const auto& op = ops[i];
            if (op == "linear") {
                DenseLayer<T> dense;
                dense.name = continuum::detail::message("head.{}", i);
                dense.weight = matrix(dense.name + ".weight");
                dense.bias = vector(dense.name + ".bias");
                p.head.push_back(std::move(dense));
            } else if (op == "relu") {
                if (p.head.empty()) fail(continuum::detail::message("__metadata__ head {}: a relu before the first linear is not supported", layout->second));
                p.head.back().relu_after = true;
            } else if (op != "identity") {
                fail(continuum::detail::message("__metadata__ head {}: entry {} is {}, expected \"linear\", \"relu\" or \"identity\"", layout->second, i,
                                                op.dump()));
            }
        }
        if (p.head.empty()) fail(continuum::detail::message("__metadata__ head {} has no linear layer", layout->second));
    }

    Scaling read_scaling(const std::string& prefix, std::size_t features) {
        const std::string kind_key = prefix + "_scaling";
        const auto kind = file_.metadata.find(kind_key);
        if (kind == file_.metadata.end() || kind->second == "none") return Scaling::identity(features);
        const auto numbers = [&](const std::string& key) {
            const auto it = file_.metadata.find(key);
            if (it == file_.metadata.end()) fail(continuum::detail::message("__metadata__ {} is {} but {} is missing", kind_key, kind->second, key));
            const auto json = parse_json(key, it->second);
            std::vector<double> out;
            if (!json.is_array()) fail(continuum::detail::message("__metadata__ {} must be a JSON array of numbers, got {}", key, it->second));
            for (const auto& v : json) {
                if (!v.is_number()) fail(continuum::detail::message("__metadata__ {} must be a JSON array of numbers, got {}", key, it->second));
                out.push_back(v.template get<double>());
            }
            if (out.size() != features) {
                fail(continuum::detail::message("__metadata__ {} has {} value(s), expected {} (one per {})", key, out.size(), features,
                                                prefix == "input" ? "input feature" : "output"));
            }
            return out;
        };
        try {
            if (kind->second == "min_max") return Scaling::min_max(numbers(prefix + "_min"), numbers(prefix + "_max"));
            if (kind->second == "z_score") return Scaling::z_score(numbers(prefix + "_mean"), numbers(prefix + "_std"));
        } catch (const ParseError&) {
            throw;
        } catch (const InvalidArgument& e) {
            fail(continuum::detail::message("__metadata__ {}: {}", kind_key, e.what()));
        }
        fail(continuum::detail::message("__metadata__ {} is \"{}\", expected \"none\", \"min_max\" or \"z_score\"", kind_key, kind->second));
    }

    nlohmann::json parse_json(const std::string& key, const std::string& text) const {
        try {
            return nlohmann::json::parse(text);
        } catch (const nlohmann::json::exception& e) {
            fail(continuum::detail::message("__metadata__ {} is not valid JSON ({}): {}", key, text, e.what()));
        }
    }

    std::size_t metadata_count(const std::string& key, bool required, std::size_t fallback) const {
        const auto it = file_.metadata.find(key);
        if (it == file_.metadata.end()) {
            if (required) fail(continuum::detail::message("missing __metadata__ {}", key));
            return fallback;
        }
        std::size_t value = 0;
        const auto& text = it->second;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
            fail(continuum::detail::message("__metadata__ {} = \"{}\" is not a non-negative integer", key, text));
        }
        if (value > max_count) fail(continuum::detail::message("__metadata__ {} = {} exceeds the limit of {}", key, value, max_count));
        return value;
    }

    void check_declared(const std::string& key, std::size_t actual) const {
        if (!file_.metadata.contains(key)) return;
        const std::size_t declared = metadata_count(key, true, 0);
        if (declared != actual) fail(continuum::detail::message("__metadata__ {} = {} but the tensors give {}", key, declared, actual));
    }

    void check_format() const {
        const auto it = file_.metadata.find("format");
        if (it != file_.metadata.end() && it->second != "continuum-lstm/1") {
            fail(continuum::detail::message("__metadata__ format is \"{}\", expected \"continuum-lstm/1\"", it->second));
        }
    }

    /// Bound on integer metadata (window, sizes, step): a corrupt file must not trigger huge buffers.
    static constexpr std::size_t max_count = 1'000'000;

    const SafetensorsFile& file_;
    std::set<std::string> used_;
};

}  // namespace detail

/// An Lstm from the bytes of a safetensors file (for weights fetched from a ConfigMap, say).
/// `source` names the bytes in error messages. F32 and F64 tensors are converted to T.
/// \throws ParseError naming `source` and the tensor or metadata key on any malformed content:
///         truncation, header length past the end, bad JSON, unsupported dtype, offsets out of
///         range, overlapping or leaving gaps, missing or unexpected tensors, shapes that do not
///         chain, NaN/inf weights, invalid scaling.
template <std::floating_point T = float>
[[nodiscard]] Lstm<T> parse_lstm(std::span<const std::byte> bytes, std::string source = "<memory>") {
    const auto file = detail::parse_safetensors(bytes, source);
    auto parameters = detail::LstmFileReader<T>(file).read();
    try {
        return Lstm<T>(std::move(parameters), std::move(source));
    } catch (const ParseError&) {
        throw;
    } catch (const InvalidArgument& e) {
        throw ParseError(e.what());  // already names the file and the tensor
    }
}

/// An Lstm from a safetensors file (see parse_lstm).
/// \throws InvalidArgument when the file cannot be opened; ParseError as parse_lstm does.
template <std::floating_point T = float>
[[nodiscard]] Lstm<T> load_lstm(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InvalidArgument(continuum::detail::message("{}: cannot open the LSTM weights file", path.string()));
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw InvalidArgument(continuum::detail::message("{}: error while reading the LSTM weights file", path.string()));
    return parse_lstm<T>(std::as_bytes(std::span<const char>(chars)), path.string());
}

}  // namespace continuum::forecast
