// Internal: a bin pattern over item types (copies per type, as the column generation's columns) kept
// sparse, as (type, copies) pairs for the types it holds, and back. The column pool, the LDS dive's
// memo of residual LPs, the LP-bounded completion and the reduced-cost proof store patterns this way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

/// (type, copies) for every type with copies > 0, by type.
using SparsePattern = std::vector<std::pair<std::size_t, std::int64_t>>;

/// The types `pattern` holds (copies > 0), in type order.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
SparsePattern sparse_pattern(const std::vector<std::int64_t>& pattern) {
    SparsePattern sparse;
    for (std::size_t j = 0; j < pattern.size(); ++j) {
        if (pattern[j] > 0) sparse.emplace_back(j, pattern[j]);
    }
    return sparse;
}

/// Copies per type over `types` types.
template <typename Defer = void>  // compiled only where used (see core/detail/deferred.hpp)
std::vector<std::int64_t> dense_pattern(const SparsePattern& sparse, std::size_t types) {
    std::vector<std::int64_t> pattern(types, 0);
    for (const auto& [j, copies] : sparse) pattern[j] = copies;
    return pattern;
}

}  // namespace continuum::packing::detail
