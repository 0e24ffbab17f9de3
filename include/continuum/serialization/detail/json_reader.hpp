// The shared machinery of continuum's JSON state documents: the envelope ({"schema", "version"}),
// a Reader that walks a parsed document and throws ParseError naming the field path ($.a.b[3]) on
// a missing field, a wrong type or an out-of-range value, and writers for the common value types.
// Not API: include <continuum/serialization.hpp> or one of serialization/<area>.hpp.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>
#include <continuum/serialization/detail/json_document.hpp>
#include <continuum/serialization/detail/json_writer.hpp>

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
/// The document must outlive its readers.
class Reader {
public:
    Reader(const Document& doc, std::uint32_t index) : doc_(&doc), index_(index) {}

    [[nodiscard]] std::string path() const { return doc_->path_of(index_); }

    [[noreturn]] void fail(std::string_view what) const { throw ParseError(continuum::detail::message("state document: {}: {}", path(), what)); }

    /// A required member of an object.
    [[nodiscard]] Reader operator[](std::string_view key) const {
        if (const auto value = find(key)) return Reader(*doc_, *value);
        throw ParseError(continuum::detail::message("state document: {}.{}: missing field", path(), key));
    }
    /// An optional member: nullopt when absent or null.
    [[nodiscard]] std::optional<Reader> optional(std::string_view key) const {
        const auto value = find(key);
        if (!value || doc_->node(*value).kind == NodeKind::null) return std::nullopt;
        return Reader(*doc_, *value);
    }
    [[nodiscard]] bool has(std::string_view key) const { return find(key).has_value(); }

    /// Array elements.
    [[nodiscard]] std::size_t size() const {
        require(NodeKind::array);
        std::size_t n = 0;
        for (std::uint32_t i = index_ + 1; i < node().end; i = doc_->node(i).end) ++n;
        return n;
    }
    [[nodiscard]] Reader at(std::size_t i) const {
        require(NodeKind::array);
        std::uint32_t child = index_ + 1;
        for (std::size_t k = 0; k < i && child < node().end; ++k) child = doc_->node(child).end;
        if (child >= node().end) fail(continuum::detail::message("has no element {}", i));
        return Reader(*doc_, child);
    }
    /// f(element reader) for every element.
    template <typename F>
    [[nodiscard]] auto array(F&& f) const {
        std::vector<decltype(f(std::declval<Reader>()))> out;
        out.reserve(size());  // one allocation: the count is a walk over the siblings
        for (std::uint32_t i = index_ + 1; i < node().end; i = doc_->node(i).end) out.push_back(f(Reader(*doc_, i)));
        return out;
    }
    /// f(key, member reader) for every member of an object, in document order.
    template <typename F>
    void members(F&& f) const {
        require(NodeKind::object);
        for (std::uint32_t k = index_ + 1; k < node().end; k = doc_->node(k + 1).end) {
            f(std::string(doc_->text_of(doc_->node(k))), Reader(*doc_, k + 1));
        }
    }

    /// A finite number (integers are accepted and converted).
    [[nodiscard]] double number() const {
        const Node& n = node();
        switch (n.kind) {
            case NodeKind::floating: return n.number.floating;  // the parser refuses 1e999
            case NodeKind::integer: return static_cast<double>(n.number.integer);
            case NodeKind::unsigned_integer: return static_cast<double>(n.number.unsigned_integer);
            default: fail(continuum::detail::message("expected a number, got {}", type_name(n.kind)));
        }
    }
    [[nodiscard]] double number_in(double lo, double hi) const {
        const double v = number();
        if (!(v >= lo && v <= hi)) fail(continuum::detail::message("{} is outside [{}, {}]", v, lo, hi));
        return v;
    }
    [[nodiscard]] double non_negative_number() const { return number_in(0.0, std::numeric_limits<double>::max()); }
    [[nodiscard]] std::int64_t int64() const {
        const Node& n = node();
        if (n.kind == NodeKind::unsigned_integer) {
            const auto v = n.number.unsigned_integer;
            if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) fail(continuum::detail::message("{} does not fit in int64", v));
            return static_cast<std::int64_t>(v);
        }
        if (n.kind != NodeKind::integer) fail(continuum::detail::message("expected an integer, got {}", type_name(n.kind)));
        return n.number.integer;
    }
    [[nodiscard]] std::int64_t int64_in(std::int64_t lo, std::int64_t hi) const {
        const std::int64_t v = int64();
        if (v < lo || v > hi) fail(continuum::detail::message("{} is outside [{}, {}]", v, lo, hi));
        return v;
    }
    [[nodiscard]] std::uint64_t uint64() const {
        const Node& n = node();
        if (n.kind == NodeKind::unsigned_integer) return n.number.unsigned_integer;
        if (n.kind != NodeKind::integer) fail(continuum::detail::message("expected an integer, got {}", type_name(n.kind)));
        if (n.number.integer < 0) fail(continuum::detail::message("{} is negative", n.number.integer));
        return static_cast<std::uint64_t>(n.number.integer);
    }
    [[nodiscard]] std::size_t size_value() const {
        const std::uint64_t v = uint64();
        if (v > std::numeric_limits<std::size_t>::max()) fail(continuum::detail::message("{} does not fit in size_t", v));
        return static_cast<std::size_t>(v);
    }
    [[nodiscard]] int int32() const { return static_cast<int>(int64_in(std::numeric_limits<int>::min(), std::numeric_limits<int>::max())); }
    [[nodiscard]] bool boolean() const {
        if (node().kind != NodeKind::boolean) fail(continuum::detail::message("expected true or false, got {}", type_name(node().kind)));
        return node().flag;
    }
    /// The string's text, valid as long as the document.
    [[nodiscard]] std::string_view string_view() const {
        if (node().kind != NodeKind::string) fail(continuum::detail::message("expected a string, got {}", type_name(node().kind)));
        return doc_->text_of(node());
    }
    [[nodiscard]] std::string string() const { return std::string(string_view()); }
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
        const std::string_view s = string_view();
        std::size_t i = 0;
        for (const auto name : names) {
            if (s == name) return i;
            ++i;
        }
        fail(continuum::detail::message("unknown value {}", continuum::detail::quoted(s)));
    }

private:
    [[nodiscard]] const Node& node() const { return doc_->node(index_); }
    void require(NodeKind kind) const {
        if (node().kind != kind) fail(continuum::detail::message("expected an {}, got {}", type_name(kind), type_name(node().kind)));
    }
    /// The value node of member `key` (the last one if the key repeats, as nlohmann_json's DOM keeps).
    [[nodiscard]] std::optional<std::uint32_t> find(std::string_view key) const {
        require(NodeKind::object);
        std::optional<std::uint32_t> found;
        for (std::uint32_t k = index_ + 1; k < node().end; k = doc_->node(k + 1).end) {
            if (doc_->text_of(doc_->node(k)) == key) found = k + 1;
        }
        return found;
    }

    const Document* doc_;
    std::uint32_t index_;
};

/// A finite double as a JSON number. \throws InvalidArgument on NaN or infinity (a state never
/// holds one; JSON has no spelling for it).
inline Json number(double v, std::string_view field) {
    if (!std::isfinite(v)) throw InvalidArgument(continuum::detail::message("state document: field {} = {} is not finite and cannot be written", field, v));
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
    const std::string_view schema = r["schema"].string_view();
    if (schema != Schema<T>::name) {
        r["schema"].fail(continuum::detail::message("expected {}, got {}", continuum::detail::quoted(Schema<T>::name), continuum::detail::quoted(schema)));
    }
    const std::int64_t version = r["version"].int64();
    if (version != Schema<T>::version) {
        r["version"].fail(continuum::detail::message("unsupported version {} of {} (this build reads version {})", version, Schema<T>::name, Schema<T>::version));
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
    const auto parsed = detail::Document::parse(doc.dump());
    return from_json<T>(detail::Reader(parsed, parsed.root()));
}

namespace detail {

/// A schema that writes its fields straight to text (Schema<T>::stream(writer, value)); the others
/// are written through to_json's DOM.
template <typename T>
concept Streamed = requires(Writer& w, const T& v) { Schema<T>::stream(w, v); };

/// The complete document of `value` (envelope and fields) appended to `w`.
template <typename T>
void write_document(Writer& w, const T& value) {
    if constexpr (Streamed<T> && requires { Schema<T>::dispatches; }) {
        Schema<T>::stream(w, value);  // a variant: the alternative's own document
    } else if constexpr (Streamed<T>) {
        w.begin_object();
        w.key("schema").string(Schema<T>::name);
        w.key("version").integer(Schema<T>::version);
        Schema<T>::stream(w, value);
        w.end_object();
    } else {
        w.raw(to_json(value).dump());
    }
}

}  // namespace detail

/// The document of `value` as compact text, written in one pass for the streamed schemas (doubles
/// in their shortest round-trip form). \throws InvalidArgument when a double of the state is not
/// finite or a string is not valid UTF-8.
template <typename T>
[[nodiscard]] std::string dump(const T& value) {
    if constexpr (detail::Streamed<T>) {
        std::size_t hint = 256;
        if constexpr (requires { Schema<T>::size_hint(value); }) hint = Schema<T>::size_hint(value);
        detail::Writer w(hint);
        detail::write_document(w, value);
        return std::move(w).take();
    } else {
        return to_json(value).dump();
    }
}

/// Parses text written by dump. \throws ParseError on malformed JSON (with nlohmann's message) or
/// as from_json.
template <typename T>
[[nodiscard]] T parse(std::string_view text) {
    const auto doc = detail::Document::parse(text);
    return from_json<T>(detail::Reader(doc, doc.root()));
}

}  // namespace continuum::serialization
