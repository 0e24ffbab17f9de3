// The run-time formatting path of continuum::detail::message (core/detail/message.hpp), which the
// library uses when CONTINUUM_CHECK_MESSAGE_FORMATS is not defined (the tests define it, so the
// library's calls here take the compile-time checked path: this file calls the run-time one directly).
#include <continuum/core/detail/message.hpp>
#include <continuum/core/resources.hpp>

#include <doctest/doctest.h>

#include <fmt/ranges.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace message_test {
namespace runtime = continuum::detail::runtime_format;
}  // namespace message_test

TEST_CASE("the run-time message path formats what fmt::format formats") {
    using message_test::runtime::message;
    const std::string name = "pool-a";
    const std::vector<int> sizes{4, 8, 16};
    CHECK(message("no arguments") == "no arguments");
    CHECK(message("{} has {} nodes", name, 3) == "pool-a has 3 nodes");
    CHECK(message("{:.2f} {:>5}|{:<4}|", 3.14159, 7, "ab") == "3.14     7|ab  |");
    CHECK(message("{} {} {}", std::string_view("view"), std::string("temporary"), 'c') == "view temporary c");
    CHECK(message("[{}]", fmt::join(sizes, ", ")) == "[4, 8, 16]");
    CHECK(message("{1} before {0}", "second", "first") == "first before second");
    const continuum::Resources r{{"cpu", "2"}, {"memory", "4Gi"}};
    CHECK(message("request {} of {}", r, name) == "request {cpu: 2, memory: 4Gi} of pool-a");
    CHECK(message("{} {}", std::int64_t{-9'000'000'000}, std::uint64_t{18'000'000'000}) == "-9000000000 18000000000");
    // more arguments than fmt packs into one word (15): the list is always passed unpacked
    CHECK(message("{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}", 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, "x") ==
          "1234567890123456x");
    // each result equals fmt::format's
    CHECK(message("{:08.3f}|{:x}|{}", 2.5, 255, true) == fmt::format("{:08.3f}|{:x}|{}", 2.5, 255, true));
}

TEST_CASE("the run-time message path reports a format string that does not fit its arguments") {
    using message_test::runtime::message;
    CHECK_THROWS_AS(message("{} and {}", 1), fmt::format_error);
    CHECK_THROWS_AS(message("{:d}", std::string("text")), fmt::format_error);
}
