// Internal: the test the exact covers (reduced_cost_proof.hpp, multi_dual_cover.hpp) run on every
// candidate bin at every node, whether each of its reduced costs under several dual vectors fits that
// vector's budget left: one pass without a branch per vector (on the Hard28 proofs, 65 vectors and
// most bins passing, the early-exit loop was about half of the covers' CPU).
#pragma once

#include <cstddef>
#include <cstdint>

namespace continuum::packing::detail {

/// Whether costs[r] ≤ budgets[r] for every r < n, when every cost and budget is in [0, 2^62] (so that
/// each budget − cost is exact, negative exactly when the cost exceeds the budget): the sign of the OR
/// of the differences, two at a time in 128-bit vectors with GCC/Clang (SSE2 on x86-64).
inline bool within_budgets(const std::int64_t* costs, const std::int64_t* budgets, std::size_t n) {
    std::int64_t any = 0;
    std::size_t r = 0;
#if defined(__GNUC__) || defined(__clang__)
    typedef std::int64_t Two __attribute__((vector_size(16)));
    Two both = {0, 0};
    for (; r + 2 <= n; r += 2) {
        Two cost, budget;
        __builtin_memcpy(&cost, costs + r, sizeof(cost));
        __builtin_memcpy(&budget, budgets + r, sizeof(budget));
        both |= budget - cost;
    }
    std::int64_t lanes[2];
    __builtin_memcpy(lanes, &both, sizeof(lanes));
    any = lanes[0] | lanes[1];
#endif
    for (; r < n; ++r) any |= budgets[r] - costs[r];
    return any >= 0;
}

}  // namespace continuum::packing::detail
