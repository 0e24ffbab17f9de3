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
#include <type_traits>
#include <utility>
#include <vector>

namespace continuum::packing::detail {

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define CONTINUUM_PACKING_RANK_ONE_AVX 1
/// a(·, j) -= row(j)·u for each column j of the column-major `rows` × `cols` matrix at `a` whose
/// row(j) is not 0, four entries at a time in 256-bit AVX registers (GCC/Clang vector extensions, no
/// intrinsics header). No FMA: each entry is the product row(j)·u(i) rounded, then the difference
/// rounded, the two roundings of the scalar and SSE2 code, so the same bits. Only called when the CPU
/// has AVX (rank_one_update checks at run time).
__attribute__((target("avx"))) inline void rank_one_update_avx(double* a, Eigen::Index rows, Eigen::Index cols, const double* u, const double* row) {
    typedef double Four __attribute__((vector_size(32)));
    for (Eigen::Index j = 0; j < cols; ++j) {
        const double r = row[j];
        if (r == 0) continue;
        double* column = a + j * rows;
        const Four factor = {r, r, r, r};
        Eigen::Index i = 0;
        for (; i + 4 <= rows; i += 4) {
            Four x, y;
            __builtin_memcpy(&x, column + i, sizeof(x));
            __builtin_memcpy(&y, u + i, sizeof(y));
            x = x - factor * y;
            __builtin_memcpy(column + i, &x, sizeof(x));
        }
        for (; i < rows; ++i) column[i] -= r * u[i];
    }
}
/// Whether the CPU running this has AVX (and the OS saves its registers), read once.
inline bool cpu_has_avx() {
    static const bool has = __builtin_cpu_supports("avx") != 0;
    return has;
}
#endif

/// a -= u·row (each entry a(i, j) - u(i)·row(j), the simplex's rank-1 update of a basis inverse),
/// skipping the columns where row(j) is 0: those entries would only subtract ±0. Column by column,
/// so each column's update is one vectorised axpy, in the same element-wise arithmetic as Eigen's
/// outer product (each entry a − r·u(i) with two roundings, no fused multiply-add), so the result is
/// the same bits whatever the vector width: four doubles at a time with AVX when the CPU has it
/// (chosen at run time, the library is not built for it; the update is a sixth to a third of the
/// slowest Hard28 proofs' CPU), else Eigen's SSE2 code.
template <typename Matrix, typename Column, typename Row>
void rank_one_update(Matrix& a, const Column& u, const Row& row) {
#ifdef CONTINUUM_PACKING_RANK_ONE_AVX
    if constexpr (std::is_same_v<Matrix, Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>> && std::is_same_v<Column, Eigen::Matrix<double, Eigen::Dynamic, 1>> &&
                  std::is_same_v<Row, Eigen::Matrix<double, 1, Eigen::Dynamic>>) {
        if (cpu_has_avx() && u.size() == a.rows() && row.size() == a.cols()) {
            rank_one_update_avx(a.data(), a.rows(), a.cols(), u.data(), row.data());
            return;
        }
    }
#endif
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
        const auto r = row(j);
        if (r == 0) continue;
        a.col(j) -= r * u;
    }
}

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
        // Hard28); an entry with a zero factor would only subtract ±0. Once a quarter of the column
        // is non-zero, whole columns at a time (rank_one_update: with AVX, four entries per step)
        // cost less than the gathered entries, with the same values.
        nonzero_rows.clear();
        for (Index i = 0; i < n; ++i) {
            if (column(i) != 0) nonzero_rows.push_back(i);
        }
        if (4 * static_cast<Index>(nonzero_rows.size()) >= n) {
            rank_one_update(a, column, row);
            continue;
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

}  // namespace continuum::packing::detail
