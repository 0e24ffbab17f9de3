// Internal: the inverse of a simplex basis by Gauss–Jordan elimination with partial pivoting, in a
// fixed order of floating-point operations. The column generation and the Ryan–Foster nodes
// refactorise their explicit basis inverse with it instead of Eigen's PartialPivLU::inverse():
// Eigen's blocked LU and triangular solves split their sums by blocking sizes computed from the
// CPU's cache sizes (read at run time), so the same node budget proved different Hard28 instances
// on machines that report other caches (BPP645 proved or open at 200,000 nodes with only
// Eigen::setCpuCacheSizes changed). Here every update is an element-wise rank-1 update (each entry
// a - c·r, no reduction), so the result is the same bits on every x86-64 build without FMA
// contraction, whatever the cache, the vector width or the thread.
#pragma once

#include <Eigen/Core>

#include <cmath>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

/// Replaces `a` (square) by its inverse; returns false, leaving `a` unspecified, when a pivot is 0
/// (singular, or not finite). O(n³) at worst; each pivot's element-wise updates run over the
/// non-zeros of its column and row only.
template <typename Matrix>
bool invert_in_place(Matrix& a) {
    using Index = Eigen::Index;
    using Scalar = typename Matrix::Scalar;
    const Index n = a.rows();
    std::vector<Index> swapped_with(static_cast<std::size_t>(n));
    Eigen::Matrix<Scalar, Eigen::Dynamic, 1> column(n);
    Eigen::Matrix<Scalar, 1, Eigen::Dynamic> row(n);
    std::vector<Index> nonzero_rows;
    nonzero_rows.reserve(static_cast<std::size_t>(n));
    for (Index k = 0; k < n; ++k) {
        // Partial pivoting: the largest |a(i, k)| among the rows not yet pivoted, the first on ties.
        Index pivot_row = k;
        Scalar largest = std::abs(a(k, k));
        for (Index i = k + 1; i < n; ++i) {
            if (std::abs(a(i, k)) > largest) {
                largest = std::abs(a(i, k));
                pivot_row = i;
            }
        }
        if (!(largest > 0) || !std::isfinite(largest)) return false;
        swapped_with[static_cast<std::size_t>(k)] = pivot_row;
        if (pivot_row != k) a.row(k).swap(a.row(pivot_row));
        const Scalar pivot = a(k, k);
        // In place: row k becomes row k / pivot with 1 / pivot at (k, k); every other row i
        // subtracts its old a(i, k) times that row, with 0 in place of its old a(i, k).
        column = a.col(k);
        column(k) = 0;
        a.col(k).setZero();
        a(k, k) = 1;
        a.row(k) /= pivot;
        row = a.row(k);
        // An outer product: each entry a(i, j) - column(i)·row(j), over the non-zeros of column and
        // row only (a basis matrix stays sparse under elimination: about 20 of 130 entries on
        // Hard28); an entry with a zero factor would only subtract ±0.
        nonzero_rows.clear();
        for (Index i = 0; i < n; ++i) {
            if (column(i) != 0) nonzero_rows.push_back(i);
        }
        for (Index j = 0; j < n; ++j) {
            const Scalar r = row(j);
            if (r == 0) continue;
            for (const Index i : nonzero_rows) a(i, j) -= column(i) * r;
        }
    }
    // The row swaps of the elimination are column swaps of the inverse, undone in reverse order.
    for (Index k = n - 1; k >= 0; --k) {
        const Index other = swapped_with[static_cast<std::size_t>(k)];
        if (other != k) a.col(k).swap(a.col(other));
    }
    return true;
}

/// a -= u·row (each entry a(i, j) - u(i)·row(j), the simplex's rank-1 update of a basis inverse),
/// skipping the columns where row(j) is 0: those entries would only subtract ±0. Column by column,
/// so each column's update is one vectorised axpy, in the same element-wise arithmetic as Eigen's
/// outer product.
template <typename Matrix, typename Column, typename Row>
void rank_one_update(Matrix& a, const Column& u, const Row& row) {
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
        const auto r = row(j);
        if (r == 0) continue;
        a.col(j) -= r * u;
    }
}

}  // namespace continuum::packing::detail
