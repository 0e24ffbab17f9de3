// Internal: Gilmore–Gomory column generation (placeholder: no bound yet).
#pragma once

#include <continuum/core/budget.hpp>
#include <continuum/packing/detail/dense.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace continuum::packing::detail {

struct ColumnGenerationResult {
    std::int64_t lower_bound = 0;
    std::vector<std::vector<std::size_t>> bins;
};

class ColumnGeneration {
public:
    ColumnGeneration(const DenseItems& items, std::span<const std::int64_t> capacity, const std::vector<std::size_t>& placeable, BudgetTracker& tracker)
        : items_(items), capacity_(capacity), placeable_(placeable), tracker_(tracker) {}
    ColumnGenerationResult solve(std::int64_t /*upper_bound*/) { return {}; }

private:
    [[maybe_unused]] const DenseItems& items_;
    [[maybe_unused]] std::span<const std::int64_t> capacity_;
    [[maybe_unused]] const std::vector<std::size_t>& placeable_;
    [[maybe_unused]] BudgetTracker& tracker_;
};

}  // namespace continuum::packing::detail
