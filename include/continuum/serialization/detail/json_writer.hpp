// Writes a state document straight to JSON text, without building nlohmann_json's DOM first: the
// large documents (a hybrid scaler's 10,000 namespaces) are written in one pass into one string.
// Doubles use std::to_chars' shortest round-trip form (".0" kept on integral values so -0.0 and
// large doubles read back bit-identically as doubles). Not API: used by serialization::dump.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace continuum::serialization::detail {

class Writer {
public:
    explicit Writer(std::size_t reserve = 256) { out_.reserve(reserve); }

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }

    /// A member name (a field name of the schema: plain ASCII, written as is).
    Writer& key(std::string_view name) {
        separate();
        out_ += '"';
        out_ += name;
        out_ += "\":";
        comma_ = false;
        return *this;
    }

    /// A finite double. \throws InvalidArgument naming `field` on NaN or infinity.
    void number(double v, std::string_view field) {
        if (!std::isfinite(v)) throw InvalidArgument(continuum::detail::message("state document: field {} = {} is not finite and cannot be written", field, v));
        separate();
        char buffer[32];
        const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
        const std::string_view digits(buffer, static_cast<std::size_t>(end - buffer));
        out_ += digits;
        if (digits.find_first_of(".e") == std::string_view::npos) out_ += ".0";
        comma_ = true;
    }
    template <std::integral I>
        requires(!std::same_as<I, bool>)
    void integer(I v) {
        separate();
        char buffer[24];
        const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
        out_.append(buffer, end);
        comma_ = true;
    }
    void boolean(bool v) { scalar(v ? "true" : "false"); }
    void null() { scalar("null"); }

    /// A string value, escaped as JSON requires. \throws InvalidArgument when it is not valid UTF-8.
    void string(std::string_view s) {
        const bool plain = std::all_of(s.begin(), s.end(), [](char c) {
            const auto u = static_cast<unsigned char>(c);
            return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
        });
        if (plain) {
            separate();
            out_ += '"';
            out_ += s;
            out_ += '"';
            comma_ = true;
            return;
        }
        try {
            scalar(nlohmann::json(std::string(s)).dump());
        } catch (const nlohmann::json::exception&) {
            throw InvalidArgument(continuum::detail::message("state document: string {} is not valid UTF-8 and cannot be written", continuum::detail::quoted(s)));
        }
    }
    /// {"cpu": 1500, ...}: canonical int64 amounts by resource name.
    void resources(const Resources& r) {
        begin_object();
        for (const auto& [name, value] : r) {
            separate();
            comma_ = false;
            string(name);
            out_ += ':';
            comma_ = false;
            integer(value);
        }
        end_object();
    }
    void numbers(const std::vector<double>& values, std::string_view field) {
        begin_array();
        for (const double v : values) number(v, field);
        end_array();
    }
    /// Milliseconds, or null.
    void optional_time(const std::optional<Time>& t) {
        if (t) {
            integer(t->count());
        } else {
            null();
        }
    }
    /// A complete JSON value already written as text.
    void raw(std::string_view json) { scalar(json); }

    [[nodiscard]] std::string take() && { return std::move(out_); }

private:
    void separate() {
        if (comma_) out_ += ',';
    }
    void open(char c) {
        separate();
        out_ += c;
        comma_ = false;
    }
    void close(char c) {
        out_ += c;
        comma_ = true;
    }
    void scalar(std::string_view text) {
        separate();
        out_ += text;
        comma_ = true;
    }

    std::string out_;
    bool comma_ = false;
};

}  // namespace continuum::serialization::detail
