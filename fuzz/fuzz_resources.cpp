// Fuzzes Resources construction and arithmetic from arbitrary bytes: "name=quantity" pairs split on
// ';'. Every accepted Resources prints, re-parses to itself, and a - a is empty.
#include "fuzz_target.hpp"

#include <continuum/core/resources.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

CONTINUUM_FUZZ_TARGET(resources) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::pair<std::string, std::string>> pairs;
    std::size_t start = 0;
    while (start <= text.size() && pairs.size() < 16) {
        std::size_t end = text.find(';', start);
        if (end == std::string_view::npos) end = text.size();
        const auto item = text.substr(start, end - start);
        const auto eq = item.find('=');
        if (eq != std::string_view::npos) pairs.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
        start = end + 1;
    }
    try {
        const auto r = continuum::Resources::from_quantities(pairs);
        if (!(r - r).empty()) std::abort();
        std::vector<std::pair<std::string, std::string>> printed;
        for (const auto& [name, value] : r) printed.emplace_back(name, continuum::format_resource(name, value));
        if (!(continuum::Resources::from_quantities(printed) == r)) std::abort();
        (void)(r + r);
        (void)r.fits_in(r);
        (void)continuum::ceil_div(r, r + r);
    } catch (const continuum::Error&) {
    }
    return 0;
}
