// Internals of forecast/lstm.hpp: the activation functions and the element-wise part of one
// PyTorch nn.LSTM cell step (gate rows i, f, g, o), written once for a single window (a column)
// and for a batch of windows (a block of columns). Not API.
#pragma once

#include <Eigen/Core>

#include <concepts>

namespace continuum::forecast::detail {

/// In place: x <- 1 / (1 + exp(-x)). Finite for every finite or infinite input (no NaN).
template <typename Block>
void sigmoid_in_place(Block&& x) {
    // Eigen's float logistic is a vectorised rational interpolant accurate to a few ulp; the
    // generic (double) one is 1 / (1 + exp(-x)) with Eigen's vectorised exp.
    x.array() = x.array().logistic();
}

/// In place: x <- tanh(x).
template <typename Block>
void tanh_in_place(Block&& x) {
    using Scalar = typename std::remove_cvref_t<Block>::Scalar;
    if constexpr (std::same_as<Scalar, float>) {
        x.array() = x.array().tanh();  // vectorised, clamped rational approximation (float only)
    } else {
        // Eigen 3.4 has no vectorised double tanh; tanh(x) = 2 sigmoid(2x) - 1 uses the vectorised
        // exp. Its absolute error stays within a few ulp of 1 (it loses relative accuracy only for
        // |x| < ~1e-8, where tanh(x) itself is below the tolerance that matters here).
        x.array() = (Scalar(2) * x.array()).logistic() * Scalar(2) - Scalar(1);
    }
}

/// One LSTM cell update for `hidden` units over the columns of `gates` (4·hidden rows holding the
/// pre-activations W_ih x + b_ih + W_hh h + b_hh in PyTorch's gate order i, f, g, o):
///   c <- σ(f) ⊙ c + σ(i) ⊙ tanh(g),   h <- σ(o) ⊙ tanh(c).
/// `gates` is overwritten (activated in place).
template <typename Gates, typename Cell, typename Hidden>
void lstm_cell_update(Gates&& gates, Cell&& cell, Hidden&& hidden_out, Eigen::Index hidden) {
    sigmoid_in_place(gates.topRows(2 * hidden));           // i, f
    tanh_in_place(gates.middleRows(2 * hidden, hidden));   // g
    sigmoid_in_place(gates.bottomRows(hidden));            // o
    cell.array() = gates.middleRows(hidden, hidden).array() * cell.array() +
                   gates.topRows(hidden).array() * gates.middleRows(2 * hidden, hidden).array();
    hidden_out = cell;
    tanh_in_place(hidden_out);
    hidden_out.array() *= gates.bottomRows(hidden).array();
}

}  // namespace continuum::forecast::detail
