// LSTM inference with PyTorch nn.LSTM semantics (stacked layers, gate order i, f, g, o, both
// biases, zero initial state, batch_first windows) followed by a dense head of nn.Linear layers
// with optional ReLU. Seed 001 forecasts each namespace's CPU from a sliding window of the last
// 10 minutes with such a model; continuum runs it in Eigen, with weights trained elsewhere
// (see forecast/lstm_loader.hpp for safetensors files and docs/lstm.md for the file layout).
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/series.hpp>
#include <continuum/forecast/detail/lstm_cell.hpp>
#include <continuum/forecast/detail/state_checks.hpp>
#include <continuum/forecast/forecaster.hpp>
#include <continuum/forecast/lstm_model_state.hpp>  // LstmState, LstmModelState

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::forecast {

/// How raw values are mapped to the model's units, per feature: scaled = (raw − center) / width.
enum class ScalingKind {
    none,     ///< center 0, width 1
    min_max,  ///< center = min, width = max − min (raw [min, max] → [0, 1])
    z_score,  ///< center = mean, width = standard deviation
};

/// Per-feature affine scaling stored with a model so callers pass raw values (CPU %, cores).
struct Scaling {
    ScalingKind kind = ScalingKind::none;
    std::vector<double> center;  ///< one per feature
    std::vector<double> width;   ///< one per feature, finite and > 0

    /// No scaling for `features` features.
    [[nodiscard]] static Scaling identity(std::size_t features) {
        return {ScalingKind::none, std::vector<double>(features, 0.0), std::vector<double>(features, 1.0)};
    }
    /// Min-max scaling of each feature to [0, 1]. \throws InvalidArgument on sizes that differ,
    /// non-finite values or max <= min.
    template <typename = void>  // compiled only where called, as validate
    [[nodiscard]] static Scaling min_max(std::vector<double> minimum, const std::vector<double>& maximum) {
        if (minimum.size() != maximum.size()) {
            throw InvalidArgument(continuum::detail::message("min_max scaling: {} minima but {} maxima", minimum.size(), maximum.size()));
        }
        std::vector<double> width(minimum.size());
        for (std::size_t i = 0; i < minimum.size(); ++i) width[i] = maximum[i] - minimum[i];
        Scaling out{ScalingKind::min_max, std::move(minimum), std::move(width)};
        out.validate("min_max scaling", out.center.size());
        return out;
    }
    /// z-score scaling. \throws InvalidArgument on sizes that differ, non-finite values or std <= 0.
    template <typename = void>
    [[nodiscard]] static Scaling z_score(std::vector<double> mean, std::vector<double> standard_deviation) {
        if (mean.size() != standard_deviation.size()) {
            throw InvalidArgument(continuum::detail::message("z_score scaling: {} means but {} standard deviations", mean.size(),
                                                             standard_deviation.size()));
        }
        Scaling out{ScalingKind::z_score, std::move(mean), std::move(standard_deviation)};
        out.validate("z_score scaling", out.center.size());
        return out;
    }

    [[nodiscard]] std::size_t size() const { return center.size(); }
    [[nodiscard]] double scale(double raw, std::size_t feature) const { return (raw - center[feature]) / width[feature]; }
    [[nodiscard]] double unscale(double scaled, std::size_t feature) const { return scaled * width[feature] + center[feature]; }

    /// \throws InvalidArgument naming `what` unless there are `features` finite centers and finite
    ///         positive widths. A template so that its messages compile only in units that validate.
    template <typename = void>
    void validate(std::string_view what, std::size_t features) const {
        if (center.size() != features || width.size() != features) {
            throw InvalidArgument(continuum::detail::message("{}: expected {} value(s) per parameter (one per feature), got {} centers and {} widths",
                                                             what, features, center.size(), width.size()));
        }
        for (std::size_t i = 0; i < features; ++i) {
            if (!std::isfinite(center[i]) || !std::isfinite(width[i]) || !(width[i] > 0.0)) {
                throw InvalidArgument(continuum::detail::message("{}: feature {} has center {} and width {}; both must be finite and the width > 0",
                                                                 what, i, center[i], width[i]));
            }
        }
    }
};

/// One nn.LSTM layer, as in a PyTorch state_dict (`lstm.weight_ih_l{k}` ...): W_ih is 4H × input,
/// W_hh is 4H × H, both biases 4H, row blocks in gate order i, f, g, o.
template <std::floating_point T>
struct LstmLayer {
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> weight_ih;
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> weight_hh;
    Eigen::Matrix<T, Eigen::Dynamic, 1> bias_ih;
    Eigen::Matrix<T, Eigen::Dynamic, 1> bias_hh;
};

/// One nn.Linear layer of the head (weight out × in, bias out), optionally followed by a ReLU.
template <std::floating_point T>
struct DenseLayer {
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> weight;
    Eigen::Matrix<T, Eigen::Dynamic, 1> bias;
    bool relu_after = false;
    std::string name = "head";  ///< the state_dict prefix, for error messages ("head", "head.0", ...)
};

/// Everything an Lstm needs: weights, head, window length and scaling.
template <std::floating_point T>
struct LstmParameters {
    std::vector<LstmLayer<T>> layers;   ///< bottom layer first
    std::vector<DenseLayer<T>> head;    ///< applied to the top layer's last hidden state
    std::size_t window = 10;            ///< time steps per input window
    Scaling input_scaling;              ///< one entry per input feature (empty = none)
    Scaling output_scaling;             ///< one entry, applied to every head output (empty = none)
    std::size_t target_feature = 0;     ///< the input feature the head forecasts (for recursion)
    Duration step{0};                   ///< sampling step the model was trained on (0 = unknown)
};

template <std::floating_point T>
class Lstm;

/// Scratch buffers for Lstm inference, sized at construction (single window) and grown on the
/// first batch call. One per thread: Lstm's const predict functions are thread-safe when each
/// thread passes its own workspace.
template <std::floating_point T>
class LstmWorkspace {
public:
    LstmWorkspace() = default;

private:
    friend class Lstm<T>;
    using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    Matrix state;      ///< rows: [scaled input x_t ; h of layer 0 ; h of layer 1 ; ...], one column per window
    Matrix cell;       ///< rows: c of layer 0 ; c of layer 1 ; ...
    Matrix gates;      ///< 4·H_max rows
    Matrix head_a;     ///< head activations (ping)
    Matrix head_b;     ///< head activations (pong)
    Eigen::Index columns = 0;
};

/// A PyTorch-compatible LSTM forecaster: a stacked LSTM plus a dense head, with raw-value scaling.
///
/// Windows are `window() × features()` raw values, oldest first, row-major (time, feature), as a
/// `batch_first` PyTorch input. The head produces `outputs()` raw values: the next step, or the
/// next `outputs()` steps for a multi-output head.
///
/// As a Forecaster: `fit` does not train (weights come from a file) but validates the history
/// and keeps its last window; `forecast(h)` is direct for multi-output heads (h <= outputs()) and
/// recursive otherwise (each prediction is appended to the window). Prediction intervals are not
/// provided: a requested level returns the mean only, with `level` 0.
template <std::floating_point T>
class Lstm {
public:
    using Scalar = T;
    using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

    /// Validates and takes the parameters. `source` names them in error messages (a file name).
    /// \throws InvalidArgument when there is no layer or no head, when shapes do not chain (naming
    ///         the PyTorch tensor, e.g. `lstm.weight_hh_l1`, its shape and the expected one), when a
    ///         weight is NaN or infinite, when window is 0, the scaling is invalid or target_feature
    ///         is not an input feature.
    explicit Lstm(LstmParameters<T> parameters, std::string source = "lstm")
        : parameters_(std::move(parameters)), source_(std::move(source)) {
        validate();
        prepare();
        workspace_ = make_workspace();
        history_.assign(parameters_.window * features_, T(0));
    }

    using State = LstmState<T>;

    [[nodiscard]] State state() const { return {history_, fitted_}; }
    /// A copy of this model (same parameters) with `state`. \throws InvalidArgument when the
    ///         window does not hold window() x features() values or one is not finite.
    [[nodiscard]] Lstm with_state(const State& s) const {
        detail::require_state_size(s.window.size(), parameters_.window * features(), "lstm", "window");
        detail::require_state_values<T>(s.window, "lstm", "window");
        Lstm out = *this;
        out.history_ = s.window;
        out.fitted_ = s.fitted;
        return out;
    }
    /// The model with `parameters` and `state`. \throws InvalidArgument as the constructor and with_state.
    [[nodiscard]] static Lstm restore(LstmParameters<T> parameters, const State& s, std::string source = "lstm") {
        return Lstm(std::move(parameters), std::move(source)).with_state(s);
    }

    [[nodiscard]] std::size_t window() const { return parameters_.window; }
    [[nodiscard]] std::size_t features() const { return static_cast<std::size_t>(features_); }
    [[nodiscard]] std::size_t outputs() const { return static_cast<std::size_t>(outputs_); }
    [[nodiscard]] std::size_t num_layers() const { return parameters_.layers.size(); }
    /// Hidden size of layer `layer` (all equal for a model exported from nn.LSTM).
    [[nodiscard]] std::size_t hidden_size(std::size_t layer = 0) const {
        return static_cast<std::size_t>(parameters_.layers.at(layer).weight_hh.cols());
    }
    [[nodiscard]] std::size_t target_feature() const { return parameters_.target_feature; }
    [[nodiscard]] const LstmParameters<T>& parameters() const { return parameters_; }
    [[nodiscard]] const std::string& source() const { return source_; }
    /// The state with the parameters it cannot be restored without (a ForecasterState member).
    [[nodiscard]] LstmModelState<T> model_state() const { return {parameters_, state(), source_}; }

    /// A workspace sized for single-window calls (batch calls grow it once).
    [[nodiscard]] LstmWorkspace<T> make_workspace() const {
        LstmWorkspace<T> ws;
        reserve(ws, 1);
        return ws;
    }

    /// Predicts from one window of raw values into `out` (outputs() raw values). Allocates nothing.
    /// \throws InvalidArgument when the window does not hold window() × features() finite values,
    ///         `out` does not hold outputs() values, or the prediction is not finite.
    void predict(std::span<const T> window_values, std::span<T> out, LstmWorkspace<T>& workspace) const {
        require_window_size(window_values.size(), 1, "predict: window_values");
        require_output_size(out.size(), 1, "predict: out");
        ensure(workspace, 1);
        run<true>(window_values, 1, out, workspace);
    }
    /// As above with the model's own workspace (not thread-safe: one model per thread).
    void predict(std::span<const T> window_values, std::span<T> out) { predict(window_values, out, workspace_); }
    /// The first output (the next step) for one window, using the model's own workspace.
    /// Allocates nothing. \throws InvalidArgument as predict does.
    [[nodiscard]] T predict_next(std::span<const T> window_values) {
        require_window_size(window_values.size(), 1, "predict_next: window_values");
        run<true>(window_values, 1, std::span<T>(next_output_), workspace_);
        return next_output_[0];
    }

    /// Predicts many windows at once (one per namespace, say) with matrix-matrix products.
    /// `windows` holds count × window() × features() raw values (window-major, then time, then
    /// feature); `out` receives count × outputs() values, row-major (window, output).
    /// \throws InvalidArgument on sizes that do not match, a non-finite value (naming the window)
    ///         or a non-finite prediction.
    void predict_batch(std::span<const T> windows, std::span<T> out, LstmWorkspace<T>& workspace) const {
        const std::size_t per_window = parameters_.window * features();
        if (windows.size() % per_window != 0) {
            throw InvalidArgument(continuum::detail::message("predict_batch: windows holds {} values, not a multiple of window × features = {} × {}",
                                                             windows.size(), parameters_.window, features()));
        }
        const std::size_t count = windows.size() / per_window;
        require_output_size(out.size(), count, "predict_batch: out");
        if (count == 0) return;
        const auto chunk = static_cast<std::size_t>(std::min<Eigen::Index>(batch_chunk, static_cast<Eigen::Index>(count)));
        ensure(workspace, static_cast<Eigen::Index>(chunk));
        for (std::size_t first = 0; first < count; first += chunk) {
            const std::size_t n = std::min(chunk, count - first);
            run<false>(windows.subspan(first * per_window, n * per_window), n, out.subspan(first * outputs(), n * outputs()),
                       workspace, first);
        }
    }
    /// As above with the model's own workspace (not thread-safe: one model per thread).
    void predict_batch(std::span<const T> windows, std::span<T> out) { predict_batch(windows, out, workspace_); }
    /// Allocating convenience: count × outputs() values, row-major.
    [[nodiscard]] std::vector<T> predict_batch(std::span<const T> windows) const {
        const std::size_t per_window = parameters_.window * features();
        std::vector<T> out(per_window == 0 ? 0 : (windows.size() / per_window) * outputs());
        LstmWorkspace<T> ws;
        predict_batch(windows, out, ws);
        return out;
    }

    // ---- Forecaster ----

    /// Validates `history` and keeps its last window() values; the weights are not retrained.
    /// \throws InvalidArgument when the model takes more than one input feature (use predict), when
    ///         history is shorter than window(), or when its step differs from the model's.
    void fit(SeriesView history) {
        detail::require_observation_range(history, "lstm");
        if (features_ != 1) {
            throw InvalidArgument(continuum::detail::message("{}: fit feeds a single series but the model takes {} input features; "
                                                             "call predict with window × features values instead", source_, features_));
        }
        if (history.size() < parameters_.window) {
            throw InvalidArgument(continuum::detail::message("{}: fit needs at least window = {} observations, got {}", source_,
                                                             parameters_.window, history.size()));
        }
        if (parameters_.step.count() > 0 && history.step() != parameters_.step) {
            throw InvalidArgument(continuum::detail::message("{}: history step is {} s but the model was trained on a {} s step", source_,
                                                             to_seconds(history.step()), to_seconds(parameters_.step)));
        }
        const auto last = history.tail(parameters_.window);
        for (std::size_t i = 0; i < parameters_.window; ++i) history_[i] = static_cast<T>(last[i]);
        fitted_ = true;
    }

    /// Slides the window by one observation. \throws InvalidArgument before fit or on a non-finite value.
    void update(double value) {
        require_fitted("update");
        detail::require_finite_observation(value);
        std::rotate(history_.begin(), history_.begin() + 1, history_.end());
        history_.back() = static_cast<T>(value);
    }

    /// The next `horizon` steps after the fitted window (mean only; no interval).
    /// \throws InvalidArgument before fit, on horizon < 1 or a level outside {0} ∪ (0, 1).
    [[nodiscard]] Forecast forecast(int horizon, double level = 0.0) const {
        require_fitted("forecast");
        detail::require_horizon(horizon);
        detail::require_level(level);
        Forecast out;
        out.mean.reserve(static_cast<std::size_t>(horizon));
        std::vector<T> window_values = history_;
        std::vector<T> block(outputs());
        LstmWorkspace<T> ws = make_workspace();
        while (out.mean.size() < static_cast<std::size_t>(horizon)) {
            predict(window_values, block, ws);
            const std::size_t take = std::min(block.size(), static_cast<std::size_t>(horizon) - out.mean.size());
            for (std::size_t i = 0; i < take; ++i) out.mean.push_back(static_cast<double>(block[i]));
            // Recursive step: the predictions become the newest observations of the window.
            const std::size_t shift = std::min(take, window_values.size());
            std::rotate(window_values.begin(), window_values.begin() + static_cast<std::ptrdiff_t>(shift), window_values.end());
            std::copy(block.begin() + static_cast<std::ptrdiff_t>(take - shift), block.begin() + static_cast<std::ptrdiff_t>(take),
                      window_values.end() - static_cast<std::ptrdiff_t>(shift));
        }
        return out;
    }

    /// "LSTM(window=10, hidden=32x2, outputs=1)".
    [[nodiscard]] std::string name() const {
        return continuum::detail::message("LSTM(window={}, hidden={}x{}, outputs={})", parameters_.window, hidden_size(0), num_layers(), outputs_);
    }

    /// Columns processed together by predict_batch (bounds the workspace and keeps it in cache).
    static constexpr Eigen::Index batch_chunk = 256;

private:
    // ---------------- validation ----------------
    [[noreturn]] void fail(const std::string& message) const { throw InvalidArgument(continuum::detail::message("{}: {}", source_, message)); }

    template <typename M>
    void require_shape(const M& m, Eigen::Index rows, Eigen::Index cols, const std::string& tensor, std::string_view meaning) const {
        if (m.rows() != rows || m.cols() != cols) {
            if (cols == 1 && M::ColsAtCompileTime == 1) {
                fail(continuum::detail::message("tensor {} has shape [{}], expected [{}] ({})", tensor, m.rows(), rows, meaning));
            }
            fail(continuum::detail::message("tensor {} has shape [{}, {}], expected [{}, {}] ({})", tensor, m.rows(), m.cols(), rows, cols, meaning));
        }
    }

    template <typename M>
    void require_finite_tensor(const M& m, const std::string& tensor) const {
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            for (Eigen::Index i = 0; i < m.rows(); ++i) {
                if (!std::isfinite(m(i, j))) {
                    if constexpr (M::ColsAtCompileTime == 1) fail(continuum::detail::message("tensor {} has a non-finite value {} at [{}]", tensor, m(i, j), i));
                    fail(continuum::detail::message("tensor {} has a non-finite value {} at [{}, {}]", tensor, m(i, j), i, j));
                }
            }
        }
    }

    void validate() {
        auto& p = parameters_;
        if (p.layers.empty()) fail("the model has no LSTM layer (missing tensor lstm.weight_ih_l0)");
        if (p.head.empty()) fail("the model has no head layer (missing tensor head.weight)");
        if (p.window == 0) fail("window must be >= 1, got 0");
        Eigen::Index input = p.layers.front().weight_ih.cols();
        if (input <= 0) fail("tensor lstm.weight_ih_l0 has no columns (0 input features)");
        features_ = input;
        for (std::size_t k = 0; k < p.layers.size(); ++k) {
            const auto& layer = p.layers[k];
            const Eigen::Index gate_rows = layer.weight_hh.rows();
            if (gate_rows <= 0 || gate_rows % 4 != 0) {
                fail(continuum::detail::message("tensor lstm.weight_hh_l{} has {} rows; expected 4 × hidden_size > 0", k, gate_rows));
            }
            const Eigen::Index hidden = gate_rows / 4;
            require_shape(layer.weight_hh, 4 * hidden, hidden, continuum::detail::message("lstm.weight_hh_l{}", k), "4·hidden × hidden");
            require_shape(layer.weight_ih, 4 * hidden, input, continuum::detail::message("lstm.weight_ih_l{}", k),
                          k == 0 ? "4·hidden × input features" : "4·hidden × hidden of the layer below");
            require_shape(layer.bias_ih, 4 * hidden, 1, continuum::detail::message("lstm.bias_ih_l{}", k), "4·hidden");
            require_shape(layer.bias_hh, 4 * hidden, 1, continuum::detail::message("lstm.bias_hh_l{}", k), "4·hidden");
            require_finite_tensor(layer.weight_ih, continuum::detail::message("lstm.weight_ih_l{}", k));
            require_finite_tensor(layer.weight_hh, continuum::detail::message("lstm.weight_hh_l{}", k));
            require_finite_tensor(layer.bias_ih, continuum::detail::message("lstm.bias_ih_l{}", k));
            require_finite_tensor(layer.bias_hh, continuum::detail::message("lstm.bias_hh_l{}", k));
            input = hidden;
        }
        for (std::size_t j = 0; j < p.head.size(); ++j) {
            const auto& dense = p.head[j];
            const Eigen::Index out = dense.weight.rows();
            if (out <= 0) fail(continuum::detail::message("tensor {}.weight has no rows (0 outputs)", dense.name));
            require_shape(dense.weight, out, input, dense.name + ".weight",
                          j == 0 ? "outputs × hidden of the top LSTM layer" : "outputs × outputs of the previous head layer");
            require_shape(dense.bias, out, 1, dense.name + ".bias", "outputs");
            require_finite_tensor(dense.weight, dense.name + ".weight");
            require_finite_tensor(dense.bias, dense.name + ".bias");
            input = out;
        }
        outputs_ = input;
        if (p.input_scaling.size() == 0) p.input_scaling = Scaling::identity(features());
        if (p.output_scaling.size() == 0) p.output_scaling = Scaling::identity(1);
        try {
            p.input_scaling.validate("input scaling", features());
            p.output_scaling.validate("output scaling", 1);
        } catch (const InvalidArgument& e) {
            fail(e.what());
        }
        if (p.target_feature >= features()) {
            fail(continuum::detail::message("target_feature = {} is not an input feature (the model takes {})", p.target_feature, features()));
        }
        if (p.step.count() < 0) fail(continuum::detail::message("step must be >= 0 ms, got {}", p.step.count()));
    }

    /// Builds the fused per-layer weights [W_ih | W_hh] and summed biases, and the state offsets.
    void prepare() {
        fused_.clear();
        bias_.clear();
        state_offset_.clear();
        cell_offset_.clear();
        Eigen::Index offset = 0;
        Eigen::Index cell_offset = 0;
        max_gates_ = 0;
        for (const auto& layer : parameters_.layers) {
            const Eigen::Index hidden = layer.weight_hh.cols();
            const Eigen::Index input = layer.weight_ih.cols();
            Matrix fused(4 * hidden, input + hidden);
            fused.leftCols(input) = layer.weight_ih;
            fused.rightCols(hidden) = layer.weight_hh;
            fused_.push_back(std::move(fused));
            bias_.push_back(layer.bias_ih + layer.bias_hh);
            state_offset_.push_back(offset);  // this layer reads rows [offset, offset + input + hidden)
            cell_offset_.push_back(cell_offset);
            offset += input;
            cell_offset += hidden;
            max_gates_ = std::max(max_gates_, 4 * hidden);
        }
        state_rows_ = offset + parameters_.layers.back().weight_hh.cols();
        cell_rows_ = cell_offset;
        max_head_ = 0;
        for (const auto& dense : parameters_.head) max_head_ = std::max(max_head_, dense.weight.rows());
        next_output_.assign(outputs(), T(0));
    }

    /// Sizes `ws` for this model and at least `columns` windows (a workspace made by another model
    /// is resized, never indexed out of range); allocates only when it is too small.
    void ensure(LstmWorkspace<T>& ws, Eigen::Index columns) const {
        if (ws.columns < columns || ws.state.rows() != state_rows_ || ws.cell.rows() != cell_rows_ ||
            ws.gates.rows() != max_gates_ || ws.head_a.rows() != max_head_) {
            reserve(ws, std::max(columns, ws.columns));
        }
    }

    void reserve(LstmWorkspace<T>& ws, Eigen::Index columns) const {
        ws.state.resize(state_rows_, columns);
        ws.cell.resize(cell_rows_, columns);
        ws.gates.resize(max_gates_, columns);
        ws.head_a.resize(max_head_, columns);
        ws.head_b.resize(max_head_, columns);
        ws.columns = columns;
    }

    void require_window_size(std::size_t size, std::size_t count, std::string_view argument) const {
        if (size != count * parameters_.window * features()) {
            throw InvalidArgument(continuum::detail::message("{} holds {} values, expected window × features = {} × {} = {}", argument, size,
                                                             parameters_.window, features(), parameters_.window * features()));
        }
    }
    void require_output_size(std::size_t size, std::size_t count, std::string_view argument) const {
        if (size != count * outputs()) {
            throw InvalidArgument(continuum::detail::message("{} holds {} values, expected {} (outputs per window) × {} window(s)", argument, size,
                                                             outputs(), count));
        }
    }
    void require_fitted(std::string_view call) const {
        if (!fitted_) throw InvalidArgument(continuum::detail::message("{}: {} called before fit", source_, call));
    }

    // ---------------- inference ----------------

    /// Runs `count` windows (count <= workspace columns). Single = one column, evaluated with
    /// matrix-vector products on fixed one-column blocks (no temporaries, no allocation).
    template <bool Single>
    void run(std::span<const T> windows, std::size_t count, std::span<T> out, LstmWorkspace<T>& ws,
             std::size_t first_window = 0) const {
        const auto n = static_cast<Eigen::Index>(count);
        const auto cols = [n](auto& m) {
            if constexpr (Single) {
                (void)n;
                return m.col(0);
            } else {
                return m.leftCols(n);
            }
        };
        const std::size_t window = parameters_.window;
        const auto features = static_cast<std::size_t>(features_);
        const std::size_t per_window = window * features;
        const auto& scaling = parameters_.input_scaling;

        // Zero initial state (h and c of every layer).
        cols(ws.state).bottomRows(state_rows_ - features_).setZero();
        cols(ws.cell).setZero();
        for (std::size_t t = 0; t < window; ++t) {
            // Stage the scaled input x_t in the top rows of every column.
            for (std::size_t w = 0; w < count; ++w) {
                for (std::size_t f = 0; f < features; ++f) {
                    const T raw = windows[w * per_window + t * features + f];
                    if (!std::isfinite(raw)) {
                        throw InvalidArgument(continuum::detail::message("window {} value [time {}, feature {}] = {} is not finite",
                                                                         first_window + w, t, f, raw));
                    }
                    ws.state(static_cast<Eigen::Index>(f), static_cast<Eigen::Index>(w)) =
                        static_cast<T>(scaling.scale(static_cast<double>(raw), f));
                }
            }
            for (std::size_t k = 0; k < fused_.size(); ++k) {
                const Matrix& weight = fused_[k];
                const Eigen::Index hidden = weight.rows() / 4;
                const Eigen::Index input = weight.cols() - hidden;
                auto gates = cols(ws.gates).topRows(4 * hidden);
                auto z = cols(ws.state).middleRows(state_offset_[k], input + hidden);
                if constexpr (Single) {
                    gates = bias_[k];
                } else {
                    // Column by column: Eigen's replicate() indexes with a division per element.
                    for (Eigen::Index w = 0; w < n; ++w) gates.col(w) = bias_[k];
                }
                gates.noalias() += weight * z;
                detail::lstm_cell_update(gates, cols(ws.cell).middleRows(cell_offset_[k], hidden),
                                         cols(ws.state).middleRows(state_offset_[k] + input, hidden), hidden);
            }
        }

        // Dense head on the top layer's last hidden state.
        const Eigen::Index top_hidden = fused_.back().rows() / 4;
        auto current = cols(ws.state).bottomRows(top_hidden);
        Matrix* buffers[2] = {&ws.head_a, &ws.head_b};
        int which = 0;
        Eigen::Index rows = top_hidden;
        for (std::size_t j = 0; j < parameters_.head.size(); ++j) {
            const auto& dense = parameters_.head[j];
            auto dst = cols(*buffers[which]).topRows(dense.weight.rows());
            if constexpr (Single) {
                dst = dense.bias;
            } else {
                for (Eigen::Index w = 0; w < n; ++w) dst.col(w) = dense.bias;
            }
            if (j == 0) {
                dst.noalias() += dense.weight * current;
            } else {
                dst.noalias() += dense.weight * cols(*buffers[1 - which]).topRows(rows);
            }
            if (dense.relu_after) dst = dst.cwiseMax(T(0));
            rows = dense.weight.rows();
            which = 1 - which;
        }
        const auto result = cols(*buffers[1 - which]).topRows(rows);
        for (Eigen::Index w = 0; w < n; ++w) {
            for (Eigen::Index i = 0; i < rows; ++i) {
                const double raw = parameters_.output_scaling.unscale(static_cast<double>(result(i, w)), 0);
                if (!std::isfinite(raw) || !std::isfinite(static_cast<T>(raw))) {
                    throw InvalidArgument(continuum::detail::message("{}: prediction {} for window {} is not finite (input values too large?)", source_,
                                                                     raw, first_window + static_cast<std::size_t>(w)));
                }
                out[static_cast<std::size_t>(w * rows + i)] = static_cast<T>(raw);
            }
        }
    }

    LstmParameters<T> parameters_;
    std::string source_;
    Eigen::Index features_ = 0;
    Eigen::Index outputs_ = 0;
    std::vector<Matrix> fused_;
    std::vector<Vector> bias_;
    std::vector<Eigen::Index> state_offset_;
    std::vector<Eigen::Index> cell_offset_;
    Eigen::Index state_rows_ = 0;
    Eigen::Index cell_rows_ = 0;
    Eigen::Index max_gates_ = 0;
    Eigen::Index max_head_ = 0;
    LstmWorkspace<T> workspace_;
    std::vector<T> next_output_;
    std::vector<T> history_;
    bool fitted_ = false;
};

namespace detail {

template <typename Matrix>
bool same_matrix(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() && std::equal(a.data(), a.data() + a.size(), b.data());
}
inline bool same_scaling(const Scaling& a, const Scaling& b) { return a.kind == b.kind && a.center == b.center && a.width == b.width; }

/// Equal weights, head, window, scaling, target feature and step.
template <std::floating_point T>
bool same_parameters(const LstmParameters<T>& a, const LstmParameters<T>& b) {
    if (a.layers.size() != b.layers.size() || a.head.size() != b.head.size()) return false;
    for (std::size_t i = 0; i < a.layers.size(); ++i) {
        const auto &x = a.layers[i], &y = b.layers[i];
        if (!same_matrix(x.weight_ih, y.weight_ih) || !same_matrix(x.weight_hh, y.weight_hh) || !same_matrix(x.bias_ih, y.bias_ih) ||
            !same_matrix(x.bias_hh, y.bias_hh)) {
            return false;
        }
    }
    for (std::size_t i = 0; i < a.head.size(); ++i) {
        const auto &x = a.head[i], &y = b.head[i];
        if (!same_matrix(x.weight, y.weight) || !same_matrix(x.bias, y.bias) || x.relu_after != y.relu_after || x.name != y.name) return false;
    }
    return a.window == b.window && same_scaling(a.input_scaling, b.input_scaling) && same_scaling(a.output_scaling, b.output_scaling) &&
           a.target_feature == b.target_feature && a.step == b.step;
}

/// What LstmParametersBox<T> (forecast/lstm_model_state.hpp) does with the parameters it holds.
template <std::floating_point T>
const LstmParametersOperations<T>& lstm_parameters_operations() {
    static constexpr LstmParametersOperations<T> operations{
        [](const LstmParameters<T>& p) { return new LstmParameters<T>(p); },
        [](LstmParameters<T>* p) noexcept { delete p; },
        [](const LstmParameters<T>& a, const LstmParameters<T>& b) { return same_parameters(a, b); },
        [](const LstmParameters<T>& p, const LstmState<T>& state, const std::string& source) -> AnyForecaster {
            return Lstm<T>::restore(p, state, source);
        },
        [](const AnyForecaster& prototype, const LstmParameters<T>& p, const LstmState<T>& state) -> std::optional<AnyForecaster> {
            // The configured model's weights must be the state's (another model's window means nothing to it).
            const auto* configured = prototype.target<Lstm<T>>();
            if (!configured) return std::nullopt;
            if (!same_parameters(configured->parameters(), p)) {
                throw InvalidArgument(continuum::detail::message("lstm restore: state.parameters (weights, head, window, scaling) differ from those of the configured model ({})",
                                                                 configured->source()));
            }
            return AnyForecaster(configured->with_state(state));
        },
    };
    return operations;
}

}  // namespace detail

}  // namespace continuum::forecast
