// load_lstm / parse_lstm (forecast/lstm_loader.hpp): every malformed safetensors file the issue
// lists is a continuum::ParseError naming the file and the tensor, never a crash or an
// out-of-bounds read (plus a seeded mutation test over a valid file).
#if CONTINUUM_HAVE_NLOHMANN_JSON

#include <continuum/forecast/lstm_loader.hpp>

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using continuum::ParseError;
using namespace continuum::forecast;
using nlohmann::json;

namespace {

/// Builds safetensors files tensor by tensor (F32 unless told otherwise), so each test can break
/// exactly one thing.
struct FileBuilder {
    struct Entry {
        std::string name;
        std::vector<std::size_t> shape;
        std::vector<double> values;
        std::string dtype = "F32";
    };
    std::vector<Entry> entries;
    json metadata = json::object();

    FileBuilder& add(std::string name, std::vector<std::size_t> shape, double fill = 0.1, std::string dtype = "F32") {
        std::size_t n = 1;
        for (auto d : shape) n *= d;
        std::vector<double> values(n);
        for (std::size_t i = 0; i < n; ++i) values[i] = fill * static_cast<double>((i % 7) + 1) / 7.0;
        entries.push_back({std::move(name), std::move(shape), std::move(values), std::move(dtype)});
        return *this;
    }
    Entry& entry(const std::string& name) {
        for (auto& e : entries) {
            if (e.name == name) return e;
        }
        FAIL("no entry " << name);
        return entries.front();
    }
    void remove(const std::string& name) {
        std::erase_if(entries, [&](const Entry& e) { return e.name == name; });
    }

    /// The header JSON and data buffer for the current entries.
    std::pair<json, std::string> layout() const {
        json header = json::object();
        if (!metadata.empty()) header["__metadata__"] = metadata;
        std::string data;
        for (const auto& e : entries) {
            const std::size_t begin = data.size();
            for (double v : e.values) {
                if (e.dtype == "F64") {
                    data.append(reinterpret_cast<const char*>(&v), 8);
                } else {
                    const auto f = static_cast<float>(v);
                    data.append(reinterpret_cast<const char*>(&f), 4);
                }
            }
            header[e.name] = {{"dtype", e.dtype}, {"shape", e.shape}, {"data_offsets", {begin, data.size()}}};
        }
        return {header, data};
    }
    static std::vector<std::byte> assemble(const std::string& header_text, const std::string& data) {
        std::vector<std::byte> out(8 + header_text.size() + data.size());
        std::uint64_t n = header_text.size();
        for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::byte>((n >> (8 * i)) & 0xFF);
        std::memcpy(out.data() + 8, header_text.data(), header_text.size());
        std::memcpy(out.data() + 8 + header_text.size(), data.data(), data.size());
        return out;
    }
    std::vector<std::byte> bytes() const {
        const auto [header, data] = layout();
        return assemble(header.dump(), data);
    }
};

/// A valid 2-layer model: hidden 3, 2 input features, head Linear(3, 4) -> ReLU -> Linear(4, 2).
FileBuilder valid_model() {
    FileBuilder b;
    b.add("lstm.weight_ih_l0", {12, 2}).add("lstm.weight_hh_l0", {12, 3}).add("lstm.bias_ih_l0", {12}).add("lstm.bias_hh_l0", {12});
    b.add("lstm.weight_ih_l1", {12, 3}).add("lstm.weight_hh_l1", {12, 3}).add("lstm.bias_ih_l1", {12}).add("lstm.bias_hh_l1", {12});
    b.add("head.0.weight", {4, 3}).add("head.0.bias", {4}).add("head.2.weight", {2, 4}).add("head.2.bias", {2});
    b.metadata = {{"format", "continuum-lstm/1"}, {"window", "5"}, {"head", R"(["linear", "relu", "linear"])"},
                  {"input_scaling", "min_max"}, {"input_min", "[0, 10]"}, {"input_max", "[100, 20]"},
                  {"output_scaling", "z_score"}, {"output_mean", "[50]"}, {"output_std", "[5]"}, {"step_seconds", "60"},
                  {"num_layers", "2"}, {"hidden_size", "3"}, {"input_size", "2"}};
    return b;
}

std::string error_of(const std::vector<std::byte>& bytes, const std::string& source = "model.safetensors") {
    try {
        (void)parse_lstm<float>(bytes, source);
    } catch (const ParseError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("<not a ParseError> ") + e.what();
    }
    return "<loaded>";
}

void check_error(const std::vector<std::byte>& bytes, const std::string& part) {
    const std::string message = error_of(bytes);
    INFO(message);
    CHECK(message.rfind("model.safetensors: ", 0) == 0);  // names the file first
    CHECK(message.find(part) != std::string::npos);
}

}  // namespace

TEST_CASE("a valid file loads with its metadata") {
    const auto model = parse_lstm<double>(valid_model().bytes(), "model.safetensors");
    CHECK(model.window() == 5);
    CHECK(model.features() == 2);
    CHECK(model.outputs() == 2);
    CHECK(model.num_layers() == 2);
    CHECK(model.hidden_size(1) == 3);
    const auto& p = model.parameters();
    REQUIRE(p.head.size() == 2);
    CHECK(p.head[0].relu_after);
    CHECK_FALSE(p.head[1].relu_after);
    CHECK(p.head[1].name == "head.2");
    CHECK(p.input_scaling.kind == ScalingKind::min_max);
    CHECK(p.input_scaling.width == std::vector<double>{100.0, 10.0});
    CHECK(p.output_scaling.kind == ScalingKind::z_score);
    CHECK(p.output_scaling.center == std::vector<double>{50.0});
    CHECK(p.step == std::chrono::minutes(1));
    // Row-major tensors become the right matrices: element [r, c] of lstm.weight_ih_l0 is value r·2 + c.
    const double first = static_cast<float>(0.1 * 1 / 7.0);
    const double second = static_cast<float>(0.1 * 2 / 7.0);
    CHECK(p.layers[0].weight_ih(0, 0) == first);
    CHECK(p.layers[0].weight_ih(0, 1) == second);
    // F64 tensors load too, and a single nn.Linear head needs no head metadata.
    FileBuilder single;
    single.add("lstm.weight_ih_l0", {4, 1}, 0.5, "F64").add("lstm.weight_hh_l0", {4, 1}, 0.5, "F64");
    single.add("lstm.bias_ih_l0", {4}, 0.1, "F64").add("lstm.bias_hh_l0", {4}, 0.1, "F64");
    single.add("head.weight", {1, 1}, 1.0, "F64").add("head.bias", {1}, 0.0, "F64");
    single.metadata = {{"window", "3"}};
    CHECK(parse_lstm<double>(single.bytes()).outputs() == 1);
}

TEST_CASE("container errors: truncation, header length, JSON") {
    const auto good = valid_model().bytes();
    check_error({}, "truncated file: 0 bytes");
    check_error(std::vector<std::byte>(good.begin(), good.begin() + 5), "truncated file: 5 bytes");
    {
        auto bytes = good;
        bytes.resize(200);  // cut inside the header
        check_error(bytes, "runs past the end of the file");
    }
    {
        auto bytes = good;
        bytes[7] = std::byte{0x7F};  // absurd length
        check_error(bytes, "exceeds the safetensors limit");
    }
    {
        auto bytes = good;
        bytes.resize(good.size() - 10);  // cut inside the data: the last tensor leaves the buffer
        check_error(bytes, "tensor head.2.bias: data_offsets");
    }
    check_error(FileBuilder::assemble("[1, 2]", ""), "does not start with '{'");
    check_error(FileBuilder::assemble("{\"a\": ", ""), "not valid JSON");
    check_error(FileBuilder::assemble("{\"a\": 1, \"a\": 2}", ""), "repeats the key \"a\"");
    check_error(FileBuilder::assemble("{\"x\": \"\xff\"}", ""), "not valid JSON");
    // Padding with spaces is allowed (the reference writer pads to 8 bytes).
    const auto [header, data] = valid_model().layout();
    CHECK(error_of(FileBuilder::assemble(header.dump() + "      ", data)) == "<loaded>");
}

TEST_CASE("offset errors: out of range, overlapping, gaps, trailing bytes, wrong sizes") {
    auto [header, data] = valid_model().layout();
    {
        auto h = header;
        h["head.2.bias"]["data_offsets"] = {data.size() - 8, data.size() + 8};
        check_error(FileBuilder::assemble(h.dump(), data), "tensor head.2.bias: data_offsets");
    }
    {
        auto h = header;
        const auto begin = h["lstm.weight_hh_l0"]["data_offsets"][0].get<std::size_t>();
        h["lstm.weight_hh_l0"]["data_offsets"] = {begin - 4, begin - 4 + 12 * 3 * 4};
        h["lstm.weight_ih_l0"]["data_offsets"] = {0, 12 * 2 * 4};
        check_error(FileBuilder::assemble(h.dump(), data), "tensors lstm.weight_ih_l0 [0, 96) and lstm.weight_hh_l0 [92, 236) overlap");
    }
    {
        auto h = header;
        h["lstm.weight_hh_l0"]["data_offsets"] = {0, 12 * 3 * 4};  // on top of lstm.weight_ih_l0
        check_error(FileBuilder::assemble(h.dump(), data), "tensors lstm.weight_ih_l0 [0, 96) and lstm.weight_hh_l0 [0, 144) overlap");
    }
    {
        auto h = header;  // tensor data shifted by 4: a gap at 0
        for (auto& [name, entry] : h.items()) {
            if (name == "__metadata__") continue;
            entry["data_offsets"] = {entry["data_offsets"][0].get<std::size_t>() + 4, entry["data_offsets"][1].get<std::size_t>() + 4};
        }
        check_error(FileBuilder::assemble(h.dump(), std::string(4, '\0') + data), "gap of 4 bytes before tensor lstm.weight_ih_l0");
    }
    check_error(FileBuilder::assemble(header.dump(), data + "xx"), "trailing bytes");
    {
        auto h = header;
        h["head.0.bias"]["shape"] = {5};
        check_error(FileBuilder::assemble(h.dump(), data), "tensor head.0.bias: data_offsets [");
    }
    {
        auto h = header;
        h["head.0.bias"]["data_offsets"] = {20, 4};
        check_error(FileBuilder::assemble(h.dump(), data), "tensor head.0.bias: data_offsets [20, 4) end before they begin");
    }
    {
        auto h = header;
        h["head.0.bias"].erase("data_offsets");
        check_error(FileBuilder::assemble(h.dump(), data), "tensor head.0.bias: entry needs");
    }
    {
        auto h = header;
        h["head.0.bias"]["shape"] = {-4};
        check_error(FileBuilder::assemble(h.dump(), data), "tensor head.0.bias: shape [-4]");
    }
}

TEST_CASE("tensor errors: dtype, missing, unexpected, rank, shapes that do not chain, NaN") {
    {
        auto [header, data] = valid_model().layout();
        header["lstm.bias_hh_l1"]["dtype"] = "F16";
        check_error(FileBuilder::assemble(header.dump(), data), "tensor lstm.bias_hh_l1: dtype \"F16\" is not supported");
        header["lstm.bias_hh_l1"]["dtype"] = "I32";
        check_error(FileBuilder::assemble(header.dump(), data), "tensor lstm.bias_hh_l1: dtype \"I32\" is not supported");
    }
    {
        auto b = valid_model();
        b.remove("lstm.bias_hh_l1");
        check_error(b.bytes(), "missing tensor lstm.bias_hh_l1");
    }
    {
        auto b = valid_model();
        b.remove("head.2.weight");
        check_error(b.bytes(), "missing tensor head.2.weight");
    }
    {
        auto b = valid_model();
        b.add("lstm.weight_ih_l0_reverse", {12, 2});
        check_error(b.bytes(), "unexpected tensor lstm.weight_ih_l0_reverse (bidirectional LSTMs are not supported)");
    }
    {
        auto b = valid_model();
        b.add("lstm.weight_hr_l0", {2, 3});
        check_error(b.bytes(), "unexpected tensor lstm.weight_hr_l0 (LSTMs with proj_size > 0 are not supported)");
    }
    {
        auto b = valid_model();
        b.entry("lstm.bias_ih_l0").shape = {12, 1};
        check_error(b.bytes(), "tensor lstm.bias_ih_l0 has rank 2 (shape [12, 1]), expected rank 1");
    }
    {
        auto b = valid_model();  // layer 1 expects 3 inputs (hidden of layer 0)
        auto& e = b.entry("lstm.weight_ih_l1");
        e.shape = {12, 4};
        e.values.resize(48, 0.1);
        check_error(b.bytes(), "tensor lstm.weight_ih_l1 has shape [12, 4], expected [12, 3]");
    }
    {
        auto b = valid_model();
        b.metadata.erase("hidden_size");
        auto& e = b.entry("lstm.weight_hh_l0");
        e.shape = {12, 4};
        e.values.resize(48, 0.1);
        check_error(b.bytes(), "tensor lstm.weight_hh_l0 has shape [12, 4], expected [12, 3]");
    }
    {
        auto b = valid_model();
        auto& e = b.entry("head.2.weight");
        e.shape = {2, 3};
        e.values.resize(6);
        check_error(b.bytes(), "tensor head.2.weight has shape [2, 3], expected [2, 4]");
    }
    {
        auto b = valid_model();
        auto& e = b.entry("lstm.weight_hh_l0");
        e.shape = {10, 3};
        e.values.resize(30);
        check_error(b.bytes(), "tensor lstm.weight_hh_l0 has 10 rows; expected 4 × hidden_size");
    }
    {
        auto b = valid_model();
        b.entry("lstm.weight_hh_l1").values[7] = std::nan("");
        check_error(b.bytes(), "tensor lstm.weight_hh_l1: value nan at flat index 7 is not finite");
    }
    {
        auto b = valid_model();
        b.entry("head.0.bias").values[1] = -INFINITY;
        check_error(b.bytes(), "tensor head.0.bias: value -inf at flat index 1 is not finite");
    }
    {
        auto b = valid_model();  // an F64 value too large for float
        auto& e = b.entry("head.0.bias");
        e.dtype = "F64";
        e.values[0] = 1e300;
        check_error(b.bytes(), "tensor head.0.bias: value 1e+300 at flat index 0 overflows the model's float type");
        CHECK(parse_lstm<double>(b.bytes()).outputs() == 2);  // fine in double
    }
}

TEST_CASE("metadata errors") {
    const auto with = [](const std::string& key, const std::string& value) {
        auto b = valid_model();
        b.metadata[key] = value;
        return b.bytes();
    };
    const auto without = [](const std::string& key) {
        auto b = valid_model();
        b.metadata.erase(key);
        return b.bytes();
    };
    check_error(without("window"), "missing __metadata__ window");
    check_error(with("window", "ten"), "__metadata__ window = \"ten\" is not a non-negative integer");
    check_error(with("window", "-3"), "is not a non-negative integer");
    check_error(with("window", "0"), "window must be >= 1");
    check_error(with("num_layers", "3"), "__metadata__ num_layers = 3 but the tensors give 2");
    check_error(with("hidden_size", "4"), "__metadata__ hidden_size = 4 but the tensors give 3");
    check_error(with("format", "keras"), "__metadata__ format is \"keras\"");
    check_error(without("head"), "no __metadata__ head describing an nn.Sequential head");
    check_error(with("head", "[\"linear\", \"tanh\", \"linear\"]"), "entry 1 is \"tanh\"");
    check_error(with("head", "[\"relu\", \"linear\", \"linear\"]"), "a relu before the first linear is not supported");
    check_error(with("head", "[\"linear\"]"), "unexpected tensor head.2.");
    check_error(with("head", "not json"), "__metadata__ head is not valid JSON");
    check_error(with("input_scaling", "log"), "__metadata__ input_scaling is \"log\"");
    check_error(with("input_max", "[100]"), "__metadata__ input_max has 1 value(s), expected 2 (one per input feature)");
    check_error(with("input_max", "[100, 5]"), "feature 1 has center 10 and width -5");
    check_error(with("input_min", "[0, \"a\"]"), "__metadata__ input_min must be a JSON array of numbers");
    check_error(without("output_std"), "__metadata__ output_scaling is z_score but output_std is missing");
    check_error(with("target_feature", "2"), "target_feature = 2 is not an input feature");
    {
        auto b = valid_model();
        auto [header, data] = b.layout();
        header["__metadata__"]["window"] = 5;  // a number, not a string
        check_error(FileBuilder::assemble(header.dump(), data), "__metadata__ value of \"window\" is not a string");
    }
}

TEST_CASE("load_lstm names the file on disk") {
    const auto dir = std::filesystem::temp_directory_path() / "continuum_test_lstm_loader";
    std::filesystem::create_directories(dir);
    const auto path = dir / "cut.safetensors";
    const auto bytes = valid_model().bytes();
    {
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), 100);
    }
    try {
        (void)load_lstm<float>(path);
        FAIL("expected a ParseError");
    } catch (const ParseError& e) {
        CHECK(std::string(e.what()).rfind(path.string() + ": header length", 0) == 0);
    }
    {
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    CHECK(load_lstm<float>(path).window() == 5);
    std::filesystem::remove_all(dir);
    try {
        (void)load_lstm<float>(dir / "missing.safetensors");
        FAIL("expected an InvalidArgument");
    } catch (const continuum::InvalidArgument& e) {
        CHECK(std::string(e.what()).find("missing.safetensors: cannot open") != std::string::npos);
    }
}

TEST_CASE("mutated files either load or throw a continuum::Error (never crash)") {
    const auto good = valid_model().bytes();
    std::mt19937_64 rng(20240601);
    int loaded = 0;
    int refused = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        auto bytes = good;
        const int kind = static_cast<int>(rng() % 3);
        if (kind == 0) {
            bytes.resize(rng() % bytes.size());  // truncation anywhere
        } else {
            const int flips = 1 + static_cast<int>(rng() % 4);
            for (int i = 0; i < flips; ++i) {
                // Flip bytes in the length field and header most of the time, the data sometimes.
                const std::size_t limit = kind == 1 ? std::min<std::size_t>(bytes.size(), 8 + 700) : bytes.size();
                bytes[rng() % limit] ^= static_cast<std::byte>(1u << (rng() % 8));
            }
        }
        try {
            auto model = parse_lstm<float>(bytes, "fuzz");
            std::vector<float> window(model.window() * model.features(), 1.0F);
            std::vector<float> out(model.outputs());
            model.predict(window, out);
            for (float v : out) CHECK(std::isfinite(v));
            ++loaded;
        } catch (const continuum::Error&) {
            ++refused;
        }
    }
    CHECK(refused > 1000);
    CHECK(loaded + refused == 3000);
}

#endif  // CONTINUUM_HAVE_NLOHMANN_JSON
