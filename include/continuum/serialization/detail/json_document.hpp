// A parsed state document as one flat array of nodes (a "tape"): nlohmann_json's SAX parser fills it
// without building its DOM of maps and vectors, so a 10,000-namespace document is read with a few
// large allocations instead of hundreds of thousands of small ones. Field paths ($.a.b[3]) are
// computed only when an error names one. Not API: used by serialization::detail::Reader.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace continuum::serialization::detail {

enum class NodeKind : std::uint8_t { null, boolean, integer, unsigned_integer, floating, string, key, object, array };

/// One value (or, inside an object, one key followed by its value's nodes). `end` is one past the
/// last node of the value's subtree, so siblings are found by jumping.
struct Node {
    NodeKind kind = NodeKind::null;
    bool flag = false;          // boolean value
    std::uint32_t end = 0;      // one past this subtree
    std::uint32_t text = 0;     // string / key: offset into Document::strings
    std::uint32_t length = 0;   // string / key: length
    union {
        double floating;
        std::int64_t integer;
        std::uint64_t unsigned_integer;
    } number{0.0};
};

class Document {
public:
    /// \throws ParseError on malformed JSON (nlohmann's message, with the byte position).
    static Document parse(std::string_view text) {
        Document doc;
        doc.nodes_.reserve(text.size() / 6 + 16);
        doc.strings_.reserve(text.size() / 3 + 16);
        Builder builder{doc, {}};
        // nlohmann's JSON parser alone: basic_json::sax_parse takes the input format at run time, so
        // calling it compiles the CBOR, MessagePack, UBJSON, BSON and BJData readers into every unit.
        auto input = nlohmann::detail::input_adapter(text);
        nlohmann::detail::parser<nlohmann::json, decltype(input)>(std::move(input), nullptr, true, false).sax_parse(&builder, true);
        return doc;
    }

    [[nodiscard]] const Node& node(std::uint32_t i) const { return nodes_[i]; }
    [[nodiscard]] std::string_view text_of(const Node& n) const { return std::string_view(strings_).substr(n.text, n.length); }
    [[nodiscard]] std::uint32_t root() const { return 0; }

    /// The path of node i from the root: $.namespaces[3].models[0].alpha.
    [[nodiscard]] std::string path_of(std::uint32_t target) const {
        std::string path = "$";
        std::uint32_t at = 0;
        while (at != target) {
            const Node& container = nodes_[at];
            std::uint32_t child = at + 1;
            std::size_t index = 0;
            bool descended = false;
            while (child < container.end) {
                if (container.kind == NodeKind::object) {
                    const std::uint32_t value = child + 1;
                    if (target >= value && target < nodes_[value].end) {
                        path += '.';
                        path += text_of(nodes_[child]);
                        at = value;
                        descended = true;
                        break;
                    }
                    child = nodes_[value].end;
                } else {
                    if (target >= child && target < nodes_[child].end) {
                        path += continuum::detail::message("[{}]", index);
                        at = child;
                        descended = true;
                        break;
                    }
                    child = nodes_[child].end;
                    ++index;
                }
            }
            if (!descended) break;  // not reached for a node of this document
        }
        return path;
    }

private:
    using Json = nlohmann::json;

    struct Builder {
        Document& doc;
        std::vector<std::uint32_t> open;

        std::uint32_t add(NodeKind kind) {
            Node n;
            n.kind = kind;
            n.end = static_cast<std::uint32_t>(doc.nodes_.size() + 1);
            doc.nodes_.push_back(n);
            return static_cast<std::uint32_t>(doc.nodes_.size() - 1);
        }
        void add_text(NodeKind kind, const std::string& s) {
            Node& n = doc.nodes_[add(kind)];
            n.text = static_cast<std::uint32_t>(doc.strings_.size());
            n.length = static_cast<std::uint32_t>(s.size());
            doc.strings_ += s;
        }
        bool null() {
            add(NodeKind::null);
            return true;
        }
        bool boolean(bool v) {
            doc.nodes_[add(NodeKind::boolean)].flag = v;
            return true;
        }
        bool number_integer(Json::number_integer_t v) {
            doc.nodes_[add(NodeKind::integer)].number.integer = v;
            return true;
        }
        bool number_unsigned(Json::number_unsigned_t v) {
            doc.nodes_[add(NodeKind::unsigned_integer)].number.unsigned_integer = v;
            return true;
        }
        bool number_float(Json::number_float_t v, const std::string&) {
            doc.nodes_[add(NodeKind::floating)].number.floating = v;
            return true;
        }
        bool string(std::string& s) {
            add_text(NodeKind::string, s);
            return true;
        }
        bool binary(Json::binary_t&) { return false; }  // not produced by the JSON parser
        bool key(std::string& s) {
            add_text(NodeKind::key, s);
            return true;
        }
        bool start_object(std::size_t) {
            open.push_back(add(NodeKind::object));
            return true;
        }
        bool start_array(std::size_t) {
            open.push_back(add(NodeKind::array));
            return true;
        }
        bool end_object() { return close(); }
        bool end_array() { return close(); }
        bool close() {
            doc.nodes_[open.back()].end = static_cast<std::uint32_t>(doc.nodes_.size());
            open.pop_back();
            return true;
        }
        bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
            throw ParseError(continuum::detail::message("state document: not valid JSON: {}", e.what()));
        }
    };

    std::vector<Node> nodes_;
    std::string strings_;
};

/// The JSON type name used in error messages (as nlohmann_json's type_name()).
inline std::string_view type_name(NodeKind kind) {
    switch (kind) {
        case NodeKind::null: return "null";
        case NodeKind::boolean: return "boolean";
        case NodeKind::integer:
        case NodeKind::unsigned_integer:
        case NodeKind::floating: return "number";
        case NodeKind::string:
        case NodeKind::key: return "string";
        case NodeKind::object: return "object";
        case NodeKind::array: return "array";
    }
    return "value";
}

}  // namespace continuum::serialization::detail
