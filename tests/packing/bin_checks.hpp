// Shared pieces of the 1-D exact-packing tests: reading a BPPLIB instance, the check that a list of
// bins is a packing (every item exactly once, no bin over capacity, at most `limit` bins) and
// Falkenauer's triplet construction of perfect packings (each bin one item in [380, 490] and two that
// fill it exactly, capacity 1000).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace continuum::packing::testing {

/// A 1-D instance in BPPLIB's text format: n, capacity, then n sizes.
struct BppInstance {
    std::vector<std::int64_t> sizes;
    std::int64_t capacity = 0;
};

/// Reads a BPPLIB instance file; a missing or short file fails the test.
inline BppInstance read_bpp_instance(const std::string& path) {
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), path);
    BppInstance instance;
    std::int64_t n = 0;
    in >> n >> instance.capacity;
    instance.sizes.resize(static_cast<std::size_t>(n));
    for (auto& s : instance.sizes) in >> s;
    REQUIRE_MESSAGE(in.good(), path);
    return instance;
}

inline void check_bins(const std::vector<std::vector<std::size_t>>& bins, const std::vector<std::int64_t>& sizes, std::int64_t capacity, std::size_t limit) {
    CHECK(bins.size() <= limit);
    std::vector<int> seen(sizes.size(), 0);
    for (const auto& bin : bins) {
        std::int64_t load = 0;
        for (const auto i : bin) {
            REQUIRE(i < sizes.size());
            ++seen[i];
            load += sizes[i];
        }
        CHECK(load <= capacity);
    }
    CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
}

/// `bins` random exact triplets of capacity 1000, shuffled.
inline std::vector<std::int64_t> triplet_sizes(std::mt19937_64& rng, int bins) {
    std::vector<std::int64_t> sizes;
    for (int b = 0; b < bins; ++b) {
        const std::int64_t first = std::uniform_int_distribution<std::int64_t>(380, 490)(rng);
        const std::int64_t second = std::uniform_int_distribution<std::int64_t>(250, 1000 - first - 250)(rng);
        sizes.insert(sizes.end(), {first, second, 1000 - first - second});
    }
    std::shuffle(sizes.begin(), sizes.end(), rng);
    return sizes;
}

}  // namespace continuum::packing::testing
