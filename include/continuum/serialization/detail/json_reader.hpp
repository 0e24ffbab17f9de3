// The shared machinery of continuum's JSON state documents: the envelope ({"schema", "version"}),
// a Reader that walks a parsed document and throws ParseError naming the field path ($.a.b[3]) on
// a missing field, a wrong type or an out-of-range value, and writers for the common value types.
// Not API: include <continuum/serialization.hpp> or one of serialization/<area>.hpp.
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace continuum::serialization {

using Json = nlohmann::json;

/// Specialised per state type in serialization/<area>.hpp: `name` and `version` of its documents,
/// `write(value)` (the fields, without the envelope) and `read(reader)`.
template <typename T>
struct Schema;

namespace detail {

/// A position in a parsed document; every accessor throws ParseError naming path() on bad input.
class Reader {
public:
    Reader(const Json& value, std::string path) : value_(&value), path_(std::move(path)) {}

    [[nodiscard]] const Json& json() const { return *value_; }
    [[nodiscard]] const std::string& path() const { return path_; }

    [[noreturn]] void fail(std::string_view what) const { throw ParseError(fmt::format("state document: {}: {}", path_, what)); }

    /// A required member of an object.
    [[nodiscard]] Reader operator[](std::string_view key) const {
        require_object();
        const auto it = value_->find(key);
        if (it == value_->end()) throw ParseError(fmt::format("state document: {}.{}: missing field", path_, key));
        return Reader(*it, fmt::format("{}.{}", path_, key));
    }
    /// An optional member: nullopt when absent or null.
    [[nodiscard]] std::optional<Reader> optional(std::string_view key) const {
        require_object();
        const auto it = value_->find(key);
        if (it == value_->end() || it->is_null()) return std::nullopt;
        return Reader(*it, fmt::format("{}.{}", path_, key));
    }
    [[nodiscard]] bool has(std::string_view key) const {
        require_object();
        return value_->contains(key);
    }

    /// Array elements.
    [[nodiscard]] std::size_t size() const {
        require_array();
        return value_->size();
    }
    [[nodiscard]] Reader at(std::size_t i) const {
        require_array();
        return Reader((*value_)[i], fmt::format("{}[{}]", path_, i));
    }
    /// f(element reader) for every element.
    template <typename F>
    [[nodiscard]] auto array(F&& f) const {
        require_array();
        std::vector<decltype(f(std::declval<Reader>()))> out;
        out.reserve(value_->size());
        for (std::size_t i = 0; i < value_->size(); ++i) out.push_back(f(at(i)));
        return out;
    }
    /// f(key, member reader) for every member of an object, in key order.
    template <typename F>
    void members(F&& f) const {
        require_object();
        for (auto it = value_->begin(); it != value_->end(); ++it) f(it.key(), Reader(it.value(), fmt::format("{}.{}", path_, it.key())));
    }

    /// A finite number (integers are accepted and converted).
    [[nodiscard]] double number() const {
        if (!value_->is_number()) fail(fmt::format("expected a number, got {}", value_->type_name()));
        const double v = value_->get<double>();
        if (!std::isfinite(v)) fail(fmt::format("{} is not finite", v));
        return v;
    }
    [[nodiscard]] double number_in(double lo, double hi) const {
        const double v = number();
        if (!(v >= lo && v <= hi)) fail(fmt::format("{} is outside [{}, {}]", v, lo, hi));
        return v;
    }
    [[nodiscard]] double non_negative_number() const { return number_in(0.0, std::numeric_limits<double>::max()); }
    [[nodiscard]] std::int64_t int64() const {
        if (value_->is_number_unsigned()) {
            const auto v = value_->get<std::uint64_t>();
            if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) fail(fmt::format("{} does not fit in int64", v));
            return static_cast<std::int64_t>(v);
        }
        if (!value_->is_number_integer()) fail(fmt::format("expected an integer, got {}", value_->type_name()));
        return value_->get<std::int64_t>();
    }
    [[nodiscard]] std::int64_t int64_in(std::int64_t lo, std::int64_t hi) const {
        const std::int64_t v = int64();
        if (v < lo || v > hi) fail(fmt::format("{} is outside [{}, {}]", v, lo, hi));
        return v;
    }
    [[nodiscard]] std::uint64_t uint64() const {
        if (!value_->is_number_integer()) fail(fmt::format("expected an integer, got {}", value_->type_name()));
        if (!value_->is_number_unsigned() && value_->get<std::int64_t>() < 0) fail(fmt::format("{} is negative", value_->get<std::int64_t>()));
        return value_->get<std::uint64_t>();
    }
    [[nodiscard]] std::size_t size_value() const {
        const std::uint64_t v = uint64();
        if (v > std::numeric_limits<std::size_t>::max()) fail(fmt::format("{} does not fit in size_t", v));
        return static_cast<std::size_t>(v);
    }
    [[nodiscard]] int int32() const { return static_cast<int>(int64_in(std::numeric_limits<int>::min(), std::numeric_limits<int>::max())); }
    [[nodiscard]] bool boolean() const {
        if (!value_->is_boolean()) fail(fmt::format("expected true or false, got {}", value_->type_name()));
        return value_->get<bool>();
    }
    [[nodiscard]] std::string string() const {
        if (!value_->is_string()) fail(fmt::format("expected a string, got {}", value_->type_name()));
        return value_->get<std::string>();
    }
    [[nodiscard]] std::string non_empty_string() const {
        std::string s = string();
        if (s.empty()) fail("must not be empty");
        return s;
    }
    /// Milliseconds (Time or Duration).
    [[nodiscard]] Duration duration() const { return Duration(int64()); }
    [[nodiscard]] std::vector<double> numbers() const {
        return array([](const Reader& r) { return r.number(); });
    }
    [[nodiscard]] std::vector<std::string> strings() const {
        return array([](const Reader& r) { return r.string(); });
    }
    /// {"cpu": 1500, "memory": 1073741824}: canonical int64 amounts by resource name.
    [[nodiscard]] Resources resources() const {
        Resources out;
        members([&](const std::string& name, const Reader& amount) {
            if (name.empty()) fail("a resource name is empty");
            const std::int64_t v = amount.int64();
            if (v == 0) amount.fail("zero amounts are not written; a zero here is a corrupted document");
            out.set(name, v);
        });
        return out;
    }
    /// One of `names` (an enum written by name); returns its index.
    [[nodiscard]] std::size_t one_of(std::initializer_list<std::string_view> names) const {
        const std::string s = string();
        std::size_t i = 0;
        for (const auto name : names) {
            if (s == name) return i;
            ++i;
        }
        fail(fmt::format("unknown value {}", continuum::detail::quoted(s)));
    }

private:
    void require_object() const {
        if (!value_->is_object()) fail(fmt::format("expected an object, got {}", value_->type_name()));
    }
    void require_array() const {
        if (!value_->is_array()) fail(fmt::format("expected an array, got {}", value_->type_name()));
    }

    const Json* value_;
    std::string path_;
};

/// A finite double as a JSON number. \throws InvalidArgument on NaN or infinity (a state never
/// holds one; JSON has no spelling for it).
inline Json number(double v, std::string_view field) {
    if (!std::isfinite(v)) throw InvalidArgument(fmt::format("state document: field {} = {} is not finite and cannot be written", field, v));
    return Json(v);
}
inline Json numbers(const std::vector<double>& values, std::string_view field) {
    Json out = Json::array();
    for (const double v : values) out.push_back(number(v, field));
    return out;
}
inline Json resources(const Resources& r) {
    Json out = Json::object();
    for (const auto& [name, value] : r) out[name] = value;
    return out;
}
inline Json optional_time(const std::optional<Time>& t) { return t ? Json(t->count()) : Json(nullptr); }
inline std::optional<Time> read_optional_time(const Reader& r, std::string_view key) {
    if (auto v = r.optional(key)) return v->duration();
    return std::nullopt;
}

/// Checks the envelope of a document at `r` against T's schema.
template <typename T>
void check_envelope(const Reader& r) {
    const std::string schema = r["schema"].string();
    if (schema != Schema<T>::name) r["schema"].fail(fmt::format("expected {}, got {}", continuum::detail::quoted(Schema<T>::name), continuum::detail::quoted(schema)));
    const std::int64_t version = r["version"].int64();
    if (version != Schema<T>::version) {
        r["version"].fail(fmt::format("unsupported version {} of {} (this build reads version {})", version, Schema<T>::name, Schema<T>::version));
    }
}

}  // namespace detail

/// The document of `value`: {"schema": ..., "version": ..., fields...}.
/// \throws InvalidArgument when a double of the state is not finite.
template <typename T>
[[nodiscard]] Json to_json(const T& value) {
    if constexpr (requires { Schema<T>::dispatches; }) {
        return Schema<T>::write(value);  // a variant: the alternative's own document
    } else {
        Json doc = Schema<T>::write(value);
        doc["schema"] = std::string(Schema<T>::name);
        doc["version"] = Schema<T>::version;
        return doc;
    }
}

/// Reads a document at a position of a larger one (nested states).
template <typename T>
[[nodiscard]] T from_json(const detail::Reader& r) {
    if constexpr (requires { Schema<T>::dispatches; }) {
        return Schema<T>::read(r);  // a variant: chooses the alternative by the schema field
    } else {
        detail::check_envelope<T>(r);
        return Schema<T>::read(r);
    }
}

/// Reads a document written by to_json. \throws ParseError naming the field path on another schema,
/// an unknown version, a missing field, a wrong type or an out-of-range value.
template <typename T>
[[nodiscard]] T from_json(const Json& doc) {
    return from_json<T>(detail::Reader(doc, "$"));
}

/// to_json as compact text (doubles in their shortest round-trip form).
template <typename T>
[[nodiscard]] std::string dump(const T& value) {
    return to_json(value).dump();
}

/// Parses text written by dump. \throws ParseError on malformed JSON (with nlohmann's message) or
/// as from_json.
template <typename T>
[[nodiscard]] T parse(std::string_view text) {
    Json doc;
    try {
        doc = Json::parse(text);
    } catch (const Json::exception& e) {
        throw ParseError(fmt::format("state document: not valid JSON: {}", e.what()));
    }
    return from_json<T>(doc);
}

}  // namespace continuum::serialization
