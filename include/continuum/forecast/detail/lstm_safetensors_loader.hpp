// Internals of forecast/lstm_loader.hpp: a validating reader of the safetensors container
// (huggingface/safetensors README "Format" and safetensors/src/tensor.rs): 8-byte little-endian
// header length, JSON header parsed with nlohmann_json, contiguous tensor data. Not API.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast::detail {

/// The header may be at most this long (safetensors MAX_HEADER_SIZE).
inline constexpr std::uint64_t safetensors_max_header = 100'000'000;

enum class SafetensorsDtype { f32, f64 };

struct SafetensorsTensor {
    std::string name;
    SafetensorsDtype dtype = SafetensorsDtype::f32;
    std::vector<std::size_t> shape;
    std::size_t begin = 0;  ///< byte offsets into the data buffer, [begin, end)
    std::size_t end = 0;
    [[nodiscard]] std::size_t numel() const {
        std::size_t n = 1;
        for (auto d : shape) n *= d;  // checked against overflow when parsed
        return n;
    }
};

/// A parsed, validated safetensors file: every tensor is F32 or F64, has a consistent size and
/// lies inside the data buffer; tensors are contiguous, do not overlap and cover the buffer.
struct SafetensorsFile {
    std::string source;                              ///< file name, for messages
    std::span<const std::byte> data;                 ///< the byte buffer after the header
    std::map<std::string, SafetensorsTensor> tensors;
    std::map<std::string, std::string> metadata;     ///< `__metadata__` (string → string)

    [[nodiscard]] const SafetensorsTensor* find(const std::string& name) const {
        const auto it = tensors.find(name);
        return it == tensors.end() ? nullptr : &it->second;
    }
};

[[noreturn]] inline void safetensors_fail(const std::string& source, const std::string& message) {
    throw ParseError(continuum::detail::message("{}: {}", source, message));
}

inline std::string_view dtype_name(SafetensorsDtype dtype) { return dtype == SafetensorsDtype::f32 ? "F32" : "F64"; }
inline std::size_t dtype_size(SafetensorsDtype dtype) { return dtype == SafetensorsDtype::f32 ? 4 : 8; }

/// Parses and validates `bytes` (the whole file). The returned view points into `bytes`.
/// \throws ParseError naming `source` and, where there is one, the tensor.
inline SafetensorsFile parse_safetensors(std::span<const std::byte> bytes, std::string source) {
    if (bytes.size() < 8) {
        safetensors_fail(source, continuum::detail::message("truncated file: {} bytes, shorter than the 8-byte header length", bytes.size()));
    }
    std::uint64_t header_length = 0;
    for (int i = 7; i >= 0; --i) header_length = (header_length << 8) | std::to_integer<std::uint64_t>(bytes[static_cast<std::size_t>(i)]);
    if (header_length > safetensors_max_header) {
        safetensors_fail(source, continuum::detail::message("header length {} exceeds the safetensors limit of {} bytes", header_length,
                                                            safetensors_max_header));
    }
    if (header_length > bytes.size() - 8) {
        safetensors_fail(source, continuum::detail::message("header length {} runs past the end of the file ({} bytes after the length field)",
                                                            header_length, bytes.size() - 8));
    }
    const auto header_size = static_cast<std::size_t>(header_length);
    const char* header_begin = reinterpret_cast<const char*>(bytes.data() + 8);
    if (header_size == 0 || header_begin[0] != '{') {
        safetensors_fail(source, "the JSON header does not start with '{' (not a safetensors file?)");
    }

    // Parse with nlohmann_json, rejecting duplicate keys (the last one would silently win).
    bool duplicate = false;
    std::string duplicate_key;
    std::vector<std::set<std::string>> keys_per_object;
    const nlohmann::json::parser_callback_t reject_duplicates = [&](int /*depth*/, nlohmann::json::parse_event_t event,
                                                                    nlohmann::json& parsed) {
        switch (event) {
        case nlohmann::json::parse_event_t::object_start: keys_per_object.emplace_back(); break;
        case nlohmann::json::parse_event_t::object_end:
            if (!keys_per_object.empty()) keys_per_object.pop_back();
            break;
        case nlohmann::json::parse_event_t::key:
            if (!keys_per_object.empty() && !keys_per_object.back().insert(parsed.get<std::string>()).second && !duplicate) {
                duplicate = true;
                duplicate_key = parsed.get<std::string>();
            }
            break;
        default: break;
        }
        return true;
    };
    nlohmann::json header;
    try {
        header = nlohmann::json::parse(header_begin, header_begin + header_size, reject_duplicates);
    } catch (const nlohmann::json::exception& e) {
        safetensors_fail(source, continuum::detail::message("the header is not valid JSON: {}", e.what()));
    }
    if (duplicate) safetensors_fail(source, continuum::detail::message("the header repeats the key \"{}\"", duplicate_key));
    if (!header.is_object()) safetensors_fail(source, "the header is not a JSON object");

    SafetensorsFile file;
    file.source = std::move(source);
    file.data = bytes.subspan(8 + header_size);
    const std::size_t buffer = file.data.size();

    for (const auto& item : header.items()) {
        const std::string name = item.key();
        const auto& entry = item.value();
        if (name == "__metadata__") {
            if (!entry.is_object()) safetensors_fail(file.source, "__metadata__ is not a JSON object");
            for (const auto& [key, value] : entry.items()) {
                if (!value.is_string()) safetensors_fail(file.source, continuum::detail::message("__metadata__ value of \"{}\" is not a string", key));
                file.metadata.emplace(key, value.get<std::string>());
            }
            continue;
        }
        const auto fail = [&](const std::string& message) { safetensors_fail(file.source, continuum::detail::message("tensor {}: {}", name, message)); };
        if (!entry.is_object()) fail("entry is not a JSON object");
        if (!entry.contains("dtype") || !entry.contains("shape") || !entry.contains("data_offsets")) {
            fail("entry needs \"dtype\", \"shape\" and \"data_offsets\"");
        }
        SafetensorsTensor tensor;
        tensor.name = name;
        const auto& dtype = entry["dtype"];
        if (!dtype.is_string()) fail("dtype is not a string");
        if (dtype == "F32") {
            tensor.dtype = SafetensorsDtype::f32;
        } else if (dtype == "F64") {
            tensor.dtype = SafetensorsDtype::f64;
        } else {
            fail(continuum::detail::message("dtype {} is not supported (only F32 and F64)", dtype.dump()));
        }
        const auto& shape = entry["shape"];
        if (!shape.is_array()) fail("shape is not an array");
        std::size_t numel = 1;
        for (const auto& dim : shape) {
            if (!dim.is_number_unsigned()) fail(continuum::detail::message("shape {} holds {}, not a non-negative integer", shape.dump(), dim.dump()));
            const auto d = dim.get<std::uint64_t>();
            if (d != 0 && numel > std::numeric_limits<std::size_t>::max() / 8 / d) fail(continuum::detail::message("shape {} is too large", shape.dump()));
            numel *= static_cast<std::size_t>(d);
            tensor.shape.push_back(static_cast<std::size_t>(d));
        }
        const auto& offsets = entry["data_offsets"];
        if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned()) {
            fail(continuum::detail::message("data_offsets {} is not a pair of non-negative integers", offsets.dump()));
        }
        const auto begin = offsets[0].get<std::uint64_t>();
        const auto end = offsets[1].get<std::uint64_t>();
        if (begin > end) fail(continuum::detail::message("data_offsets [{}, {}) end before they begin", begin, end));
        if (end > buffer) {
            fail(continuum::detail::message("data_offsets [{}, {}) lie outside the data buffer of {} bytes", begin, end, buffer));
        }
        tensor.begin = static_cast<std::size_t>(begin);
        tensor.end = static_cast<std::size_t>(end);
        const std::size_t expected = numel * dtype_size(tensor.dtype);
        if (tensor.end - tensor.begin != expected) {
            fail(continuum::detail::message("data_offsets [{}, {}) hold {} bytes but shape {} of {} needs {}", begin, end, tensor.end - tensor.begin,
                                            shape.dump(), dtype_name(tensor.dtype), expected));
        }
        file.tensors.emplace(name, std::move(tensor));
    }

    // Contiguous, non-overlapping, covering the buffer (as the reference reader requires).
    std::vector<const SafetensorsTensor*> by_offset;
    by_offset.reserve(file.tensors.size());
    for (const auto& [name, tensor] : file.tensors) by_offset.push_back(&tensor);
    std::sort(by_offset.begin(), by_offset.end(), [](const auto* a, const auto* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    std::size_t expected_begin = 0;
    const SafetensorsTensor* previous = nullptr;
    for (const auto* tensor : by_offset) {
        if (tensor->begin < expected_begin) {
            safetensors_fail(file.source, continuum::detail::message("tensors {} [{}, {}) and {} [{}, {}) overlap", previous->name, previous->begin,
                                                                     previous->end, tensor->name, tensor->begin, tensor->end));
        }
        if (tensor->begin > expected_begin) {
            safetensors_fail(file.source, continuum::detail::message("gap of {} bytes before tensor {} at offset {} (tensors must be contiguous)",
                                                                     tensor->begin - expected_begin, tensor->name, tensor->begin));
        }
        expected_begin = tensor->end;
        previous = tensor;
    }
    if (expected_begin != buffer) {
        safetensors_fail(file.source, continuum::detail::message("the data buffer holds {} bytes but the tensors cover only {} (trailing bytes)",
                                                                 buffer, expected_begin));
    }
    return file;
}

/// The values of `tensor` converted to T (row-major, as stored).
/// \throws ParseError naming the file and tensor on a NaN/inf value or one that overflows T.
template <typename T>
std::vector<T> read_tensor_values(const SafetensorsFile& file, const SafetensorsTensor& tensor) {
    const std::size_t n = tensor.numel();
    std::vector<T> out(n);
    const std::byte* base = file.data.data() + tensor.begin;
    const auto read = [&]<typename Stored>(Stored /*tag*/) {
        for (std::size_t i = 0; i < n; ++i) {
            std::array<std::byte, sizeof(Stored)> raw{};
            std::memcpy(raw.data(), base + i * sizeof(Stored), sizeof(Stored));
            if constexpr (std::endian::native == std::endian::big) std::reverse(raw.begin(), raw.end());
            const auto value = std::bit_cast<Stored>(raw);
            out[i] = static_cast<T>(value);
            if (!std::isfinite(value) || !std::isfinite(out[i])) {
                safetensors_fail(file.source, continuum::detail::message("tensor {}: value {} at flat index {} {}", tensor.name, value, i,
                                                                         std::isfinite(value) ? "overflows the model's float type" : "is not finite"));
            }
        }
    };
    if (tensor.dtype == SafetensorsDtype::f32) {
        read(float{});
    } else {
        read(double{});
    }
    return out;
}

}  // namespace continuum::forecast::detail
