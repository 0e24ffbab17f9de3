// JSON documents for the forecasters' state values (the baselines, SES, Holt-Winters, Portfolio,
// ForecasterState) and for an LSTM's parameters (weights, head, scaling) and state. Doubles are
// written in their shortest round-trip form, so a model read back continues bit-identically.
#pragma once

#include <continuum/core/detail/message.hpp>
#include <continuum/forecast/forecaster_state.hpp>
#include <continuum/forecast/lstm.hpp>
#include <continuum/forecast/portfolio.hpp>
#include <continuum/serialization/detail/json_reader.hpp>

#include <concepts>
#include <limits>
#include <variant>

namespace continuum::serialization {

template <>
struct Schema<forecast::NaiveState> {
    static constexpr std::string_view name = "continuum.Naive";
    static constexpr int version = 1;
    static Json write(const forecast::NaiveState& s) {
        return {{"last", detail::number(s.last, "last")}, {"sum_squares", detail::number(s.sum_squares, "sum_squares")}, {"changes", s.changes}, {"fitted", s.fitted}};
    }
    static void stream(detail::Writer& w, const forecast::NaiveState& s) {
        w.key("last").number(s.last, "last");
        w.key("sum_squares").number(s.sum_squares, "sum_squares");
        w.key("changes").integer(s.changes);
        w.key("fitted").boolean(s.fitted);
    }
    static forecast::NaiveState read(const detail::Reader& r) {
        return {r["last"].number(), r["sum_squares"].non_negative_number(), r["changes"].uint64(), r["fitted"].boolean()};
    }
};

template <>
struct Schema<forecast::DriftState> {
    static constexpr std::string_view name = "continuum.Drift";
    static constexpr int version = 1;
    static Json write(const forecast::DriftState& s) {
        return {{"first", detail::number(s.first, "first")},
                {"last", detail::number(s.last, "last")},
                {"count", s.count},
                {"sum_squares", detail::number(s.sum_squares, "sum_squares")},
                {"fitted", s.fitted}};
    }
    static void stream(detail::Writer& w, const forecast::DriftState& s) {
        w.key("first").number(s.first, "first");
        w.key("last").number(s.last, "last");
        w.key("count").integer(s.count);
        w.key("sum_squares").number(s.sum_squares, "sum_squares");
        w.key("fitted").boolean(s.fitted);
    }
    static forecast::DriftState read(const detail::Reader& r) {
        return {r["first"].number(), r["last"].number(), r["count"].uint64(), r["sum_squares"].non_negative_number(), r["fitted"].boolean()};
    }
};

template <>
struct Schema<forecast::SimpleExponentialSmoothingState> {
    static constexpr std::string_view name = "continuum.SimpleExponentialSmoothing";
    static constexpr int version = 1;
    static Json write(const forecast::SimpleExponentialSmoothingState& s) {
        return {{"fixed_alpha", s.fixed_alpha ? detail::number(*s.fixed_alpha, "fixed_alpha") : Json(nullptr)},
                {"alpha", detail::number(s.alpha, "alpha")},
                {"level", detail::number(s.level, "level")},
                {"sse", detail::number(s.sse, "sse")},
                {"count", s.count},
                {"fitted", s.fitted}};
    }
    static void stream(detail::Writer& w, const forecast::SimpleExponentialSmoothingState& s) {
        w.key("fixed_alpha");
        if (s.fixed_alpha) {
            w.number(*s.fixed_alpha, "fixed_alpha");
        } else {
            w.null();
        }
        w.key("alpha").number(s.alpha, "alpha");
        w.key("level").number(s.level, "level");
        w.key("sse").number(s.sse, "sse");
        w.key("count").integer(s.count);
        w.key("fitted").boolean(s.fitted);
    }
    static forecast::SimpleExponentialSmoothingState read(const detail::Reader& r) {
        forecast::SimpleExponentialSmoothingState s;
        if (auto a = r.optional("fixed_alpha")) s.fixed_alpha = a->number_in(0.0, 1.0);
        s.alpha = r["alpha"].number_in(0.0, 1.0);
        s.level = r["level"].number();
        s.sse = r["sse"].non_negative_number();
        s.count = r["count"].uint64();
        s.fitted = r["fitted"].boolean();
        return s;
    }
};

template <>
struct Schema<forecast::SeasonalNaiveState> {
    static constexpr std::string_view name = "continuum.SeasonalNaive";
    static constexpr int version = 1;
    static Json write(const forecast::SeasonalNaiveState& s) {
        return {{"season_length", s.season_length},
                {"last_season", detail::numbers(s.last_season, "last_season")},
                {"next", s.next},
                {"sum_squares", detail::number(s.sum_squares, "sum_squares")},
                {"differences", s.differences},
                {"fitted", s.fitted}};
    }
    static void stream(detail::Writer& w, const forecast::SeasonalNaiveState& s) {
        w.key("season_length").integer(s.season_length);
        w.key("last_season").numbers(s.last_season, "last_season");
        w.key("next").integer(s.next);
        w.key("sum_squares").number(s.sum_squares, "sum_squares");
        w.key("differences").integer(s.differences);
        w.key("fitted").boolean(s.fitted);
    }
    static forecast::SeasonalNaiveState read(const detail::Reader& r) {
        return {r["season_length"].int32(), r["last_season"].numbers(),       r["next"].uint64(),
                r["sum_squares"].non_negative_number(), r["differences"].uint64(), r["fitted"].boolean()};
    }
};

template <>
struct Schema<forecast::SeasonalMedianState> {
    static constexpr std::string_view name = "continuum.SeasonalMedian";
    static constexpr int version = 1;
    static Json write(const forecast::SeasonalMedianState& s) {
        return {{"season_length", s.season_length},
                {"seasons", s.seasons},
                {"buffer", detail::numbers(s.buffer, "buffer")},
                {"next", s.next},
                {"sum_squares", detail::number(s.sum_squares, "sum_squares")},
                {"errors", s.errors},
                {"fitted", s.fitted}};
    }
    static forecast::SeasonalMedianState read(const detail::Reader& r) {
        return {r["season_length"].int32(), r["seasons"].int32(), r["buffer"].numbers(), r["next"].uint64(), r["sum_squares"].non_negative_number(),
                r["errors"].uint64(), r["fitted"].boolean()};
    }
};

template <>
struct Schema<forecast::MovingAverageState> {
    static constexpr std::string_view name = "continuum.MovingAverage";
    static constexpr int version = 1;
    static Json write(const forecast::MovingAverageState& s) {
        return {{"window", s.window},
                {"buffer", detail::numbers(s.buffer, "buffer")},
                {"next", s.next},
                {"sum", detail::number(s.sum, "sum")},
                {"sum_squares", detail::number(s.sum_squares, "sum_squares")},
                {"errors", s.errors},
                {"fitted", s.fitted}};
    }
    static forecast::MovingAverageState read(const detail::Reader& r) {
        return {r["window"].int32(), r["buffer"].numbers(), r["next"].uint64(), r["sum"].number(), r["sum_squares"].non_negative_number(),
                r["errors"].uint64(), r["fitted"].boolean()};
    }
};

template <>
struct Schema<forecast::MovingMedianState> {
    static constexpr std::string_view name = "continuum.MovingMedian";
    static constexpr int version = 1;
    static Json write(const forecast::MovingMedianState& s) {
        return {{"window", s.window},
                {"buffer", detail::numbers(s.buffer, "buffer")},
                {"next", s.next},
                {"sum_squares", detail::number(s.sum_squares, "sum_squares")},
                {"errors", s.errors},
                {"fitted", s.fitted}};
    }
    static forecast::MovingMedianState read(const detail::Reader& r) {
        return {r["window"].int32(), r["buffer"].numbers(), r["next"].uint64(), r["sum_squares"].non_negative_number(), r["errors"].uint64(), r["fitted"].boolean()};
    }
};

template <>
struct Schema<forecast::LinearRegressionState> {
    static constexpr std::string_view name = "continuum.LinearRegression";
    static constexpr int version = 1;
    static Json write(const forecast::LinearRegressionState& s) {
        return {{"window", s.window}, {"buffer", detail::numbers(s.buffer, "buffer")}, {"fitted", s.fitted}};
    }
    static forecast::LinearRegressionState read(const detail::Reader& r) { return {r["window"].int32(), r["buffer"].numbers(), r["fitted"].boolean()}; }
};

namespace detail {

inline Json holt_winters_spec(const forecast::HoltWintersSpec& spec) {
    return {{"trend", spec.trend == forecast::Trend::none ? "none" : "additive"},
            {"damped", spec.damped},
            {"seasonal", spec.seasonal == forecast::Seasonality::none ? "none" : (spec.seasonal == forecast::Seasonality::additive ? "additive" : "multiplicative")},
            {"season_length", spec.season_length},
            {"season_update", spec.season_update == forecast::SeasonUpdate::previous_level ? "previous_level" : "new_level"}};
}
inline forecast::HoltWintersSpec read_holt_winters_spec(const Reader& r) {
    forecast::HoltWintersSpec spec;
    spec.trend = r["trend"].one_of({"none", "additive"}) == 0 ? forecast::Trend::none : forecast::Trend::additive;
    spec.damped = r["damped"].boolean();
    spec.seasonal = static_cast<forecast::Seasonality>(r["seasonal"].one_of({"none", "additive", "multiplicative"}));
    spec.season_length = r["season_length"].int32();
    spec.season_update = r["season_update"].one_of({"previous_level", "new_level"}) == 0 ? forecast::SeasonUpdate::previous_level : forecast::SeasonUpdate::new_level;
    try {
        spec.validate();
    } catch (const InvalidArgument& e) {
        r.fail(e.what());
    }
    return spec;
}
/// Scalars of a float model go through double (exact both ways).
template <typename Scalar>
Json scalars(const std::vector<Scalar>& values, std::string_view field) {
    Json out = Json::array();
    for (const Scalar v : values) out.push_back(number(static_cast<double>(v), field));
    return out;
}
template <typename Scalar>
Scalar read_scalar(const Reader& r) {
    const double v = r.number();
    if constexpr (!std::is_same_v<Scalar, double>) {
        if (std::fabs(v) > static_cast<double>(std::numeric_limits<Scalar>::max())) r.fail(continuum::detail::message("{} does not fit the model's scalar type", v));
    }
    return static_cast<Scalar>(v);
}
template <typename Scalar>
std::vector<Scalar> read_scalars(const Reader& r) {
    return r.array([](const Reader& e) { return read_scalar<Scalar>(e); });
}

}  // namespace detail

template <std::floating_point Scalar>
struct Schema<forecast::HoltWintersState<Scalar>> {
    static constexpr std::string_view name = std::is_same_v<Scalar, double> ? "continuum.HoltWinters" : "continuum.HoltWinters<float>";
    static constexpr int version = 1;
    static Json write(const forecast::HoltWintersState<Scalar>& s) {
        const auto d = [](Scalar v, std::string_view field) { return detail::number(static_cast<double>(v), field); };
        const auto& p = s.params;
        return {{"spec", detail::holt_winters_spec(s.spec)},
                {"params",
                 {{"alpha", d(p.alpha, "params.alpha")},
                  {"beta", d(p.beta, "params.beta")},
                  {"gamma", d(p.gamma, "params.gamma")},
                  {"phi", d(p.phi, "params.phi")},
                  {"initial_level", d(p.initial_level, "params.initial_level")},
                  {"initial_trend", d(p.initial_trend, "params.initial_trend")},
                  {"initial_seasons", detail::scalars(p.initial_seasons, "params.initial_seasons")}}},
                {"level", d(s.level, "level")},
                {"trend", d(s.trend, "trend")},
                {"seasons", detail::scalars(s.seasons, "seasons")},
                {"phase", s.phase},
                {"replaced_season", d(s.replaced_season, "replaced_season")},
                {"sse", d(s.sse, "sse")},
                {"nobs", s.nobs},
                {"update_sse", detail::number(s.update_sse, "update_sse")},
                {"updates", s.updates},
                {"evaluations", s.evaluations},
                {"converged", s.converged},
                {"fitted", s.fitted}};
    }
    static forecast::HoltWintersState<Scalar> read(const detail::Reader& r) {
        forecast::HoltWintersState<Scalar> s;
        s.spec = detail::read_holt_winters_spec(r["spec"]);
        const auto p = r["params"];
        s.params.alpha = detail::read_scalar<Scalar>(p["alpha"]);
        s.params.beta = detail::read_scalar<Scalar>(p["beta"]);
        s.params.gamma = detail::read_scalar<Scalar>(p["gamma"]);
        s.params.phi = detail::read_scalar<Scalar>(p["phi"]);
        s.params.initial_level = detail::read_scalar<Scalar>(p["initial_level"]);
        s.params.initial_trend = detail::read_scalar<Scalar>(p["initial_trend"]);
        s.params.initial_seasons = detail::read_scalars<Scalar>(p["initial_seasons"]);
        s.level = detail::read_scalar<Scalar>(r["level"]);
        s.trend = detail::read_scalar<Scalar>(r["trend"]);
        s.seasons = detail::read_scalars<Scalar>(r["seasons"]);
        s.phase = r["phase"].uint64();
        s.replaced_season = detail::read_scalar<Scalar>(r["replaced_season"]);
        s.sse = detail::read_scalar<Scalar>(r["sse"]);
        s.nobs = r["nobs"].uint64();
        s.update_sse = r["update_sse"].non_negative_number();
        s.updates = r["updates"].uint64();
        s.evaluations = r["evaluations"].int64_in(0, std::numeric_limits<std::int64_t>::max());
        s.converged = r["converged"].boolean();
        s.fitted = r["fitted"].boolean();
        return s;
    }
};


namespace detail {

template <typename Matrix>
Json matrix(const Matrix& m, std::string_view field) {
    Json data = Json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        for (Eigen::Index j = 0; j < m.cols(); ++j) data.push_back(number(static_cast<double>(m(i, j)), field));
    }
    return {{"rows", m.rows()}, {"cols", m.cols()}, {"data", data}};
}
/// A rows x cols matrix written row-major; a vector is a matrix with one column.
template <typename Matrix>
Matrix read_matrix(const Reader& r) {
    using Scalar = typename Matrix::Scalar;
    const auto rows = r["rows"].int64_in(0, 1 << 20);
    const auto cols = r["cols"].int64_in(0, 1 << 20);
    const Reader data = r["data"];
    if (static_cast<std::int64_t>(data.size()) != rows * cols) data.fail(continuum::detail::message("has {} values, expected rows x cols = {}", data.size(), rows * cols));
    if (Matrix::ColsAtCompileTime == 1 && cols != 1) r["cols"].fail(continuum::detail::message("a vector has 1 column, got {}", cols));
    Matrix m(rows, cols);
    for (std::int64_t i = 0; i < rows; ++i) {
        for (std::int64_t j = 0; j < cols; ++j) m(i, j) = read_scalar<Scalar>(data.at(static_cast<std::size_t>(i * cols + j)));
    }
    return m;
}
inline Json scaling(const forecast::Scaling& s) {
    return {{"kind", s.kind == forecast::ScalingKind::none ? "none" : (s.kind == forecast::ScalingKind::min_max ? "min_max" : "z_score")},
            {"center", numbers(s.center, "scaling.center")},
            {"width", numbers(s.width, "scaling.width")}};
}
inline forecast::Scaling read_scaling(const Reader& r) {
    return {static_cast<forecast::ScalingKind>(r["kind"].one_of({"none", "min_max", "z_score"})), r["center"].numbers(), r["width"].numbers()};
}

}  // namespace detail

/// An LSTM's parameters: layers (PyTorch nn.LSTM tensors), head, window, scaling, target feature
/// and step. Shapes are checked by the Lstm constructor that takes them.
template <std::floating_point T>
struct Schema<forecast::LstmParameters<T>> {
    static constexpr std::string_view name = std::is_same_v<T, double> ? "continuum.LstmParameters<double>" : "continuum.LstmParameters";
    static constexpr int version = 1;
    static Json write(const forecast::LstmParameters<T>& p) {
        Json layers = Json::array();
        for (const auto& l : p.layers) {
            layers.push_back({{"weight_ih", detail::matrix(l.weight_ih, "weight_ih")},
                              {"weight_hh", detail::matrix(l.weight_hh, "weight_hh")},
                              {"bias_ih", detail::matrix(l.bias_ih, "bias_ih")},
                              {"bias_hh", detail::matrix(l.bias_hh, "bias_hh")}});
        }
        Json head = Json::array();
        for (const auto& h : p.head) {
            head.push_back({{"weight", detail::matrix(h.weight, "weight")}, {"bias", detail::matrix(h.bias, "bias")}, {"relu_after", h.relu_after}, {"name", h.name}});
        }
        return {{"layers", layers},
                {"head", head},
                {"window", p.window},
                {"input_scaling", detail::scaling(p.input_scaling)},
                {"output_scaling", detail::scaling(p.output_scaling)},
                {"target_feature", p.target_feature},
                {"step", p.step.count()}};
    }
    static forecast::LstmParameters<T> read(const detail::Reader& r) {
        using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
        using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
        forecast::LstmParameters<T> p;
        p.layers = r["layers"].array([](const detail::Reader& l) {
            return forecast::LstmLayer<T>{detail::read_matrix<Matrix>(l["weight_ih"]), detail::read_matrix<Matrix>(l["weight_hh"]),
                                          detail::read_matrix<Vector>(l["bias_ih"]), detail::read_matrix<Vector>(l["bias_hh"])};
        });
        p.head = r["head"].array([](const detail::Reader& h) {
            return forecast::DenseLayer<T>{detail::read_matrix<Matrix>(h["weight"]), detail::read_matrix<Vector>(h["bias"]), h["relu_after"].boolean(),
                                           h["name"].string()};
        });
        p.window = r["window"].size_value();
        p.input_scaling = detail::read_scaling(r["input_scaling"]);
        p.output_scaling = detail::read_scaling(r["output_scaling"]);
        p.target_feature = r["target_feature"].size_value();
        p.step = r["step"].duration();
        return p;
    }
};

template <std::floating_point T>
struct Schema<forecast::LstmState<T>> {
    static constexpr std::string_view name = std::is_same_v<T, double> ? "continuum.Lstm<double>" : "continuum.Lstm";
    static constexpr int version = 1;
    static Json write(const forecast::LstmState<T>& s) { return {{"window", detail::scalars(s.window, "window")}, {"fitted", s.fitted}}; }
    static forecast::LstmState<T> read(const detail::Reader& r) { return {detail::read_scalars<T>(r["window"]), r["fitted"].boolean()}; }
};

/// An LSTM as a member of a ForecasterState: its parameters and state documents and its source.
template <std::floating_point T>
struct Schema<forecast::LstmModelState<T>> {
    static constexpr std::string_view name = std::is_same_v<T, double> ? "continuum.LstmModel<double>" : "continuum.LstmModel";
    static constexpr int version = 1;
    static Json write(const forecast::LstmModelState<T>& s) {
        return {{"parameters", to_json(*s.parameters)}, {"state", to_json(s.state)}, {"source", s.source}};
    }
    static forecast::LstmModelState<T> read(const detail::Reader& r) {
        return {from_json<forecast::LstmParameters<T>>(r["parameters"]), from_json<forecast::LstmState<T>>(r["state"]), r["source"].string()};
    }
};

/// Any built-in model's state: written as that model's own document, read by its schema field.
template <>
struct Schema<forecast::ForecasterState> {
    static constexpr bool dispatches = true;
    static Json write(const forecast::ForecasterState& s) {
        return std::visit([](const auto& alternative) { return to_json(alternative); }, s);
    }
    static void stream(detail::Writer& w, const forecast::ForecasterState& s) {
        std::visit([&w](const auto& alternative) { detail::write_document(w, alternative); }, s);
    }
    static forecast::ForecasterState read(const detail::Reader& r) {
        const std::string schema = r["schema"].string();
        forecast::ForecasterState out;
        bool found = false;
        read_if(r, schema, out, found, std::make_index_sequence<std::variant_size_v<forecast::ForecasterState>>{});
        if (!found) r["schema"].fail(continuum::detail::message("{} is not a forecaster state schema", continuum::detail::quoted(schema)));
        return out;
    }

private:
    template <std::size_t... I>
    static void read_if(const detail::Reader& r, const std::string& schema, forecast::ForecasterState& out, bool& found, std::index_sequence<I...>) {
        (
            [&] {
                using S = std::variant_alternative_t<I, forecast::ForecasterState>;
                if (!found && schema == Schema<S>::name) {
                    out = from_json<S>(r);
                    found = true;
                }
            }(),
            ...);
    }
};

template <>
struct Schema<forecast::PortfolioState> {
    static constexpr std::string_view name = "continuum.Portfolio";
    static constexpr int version = 1;
    static Json write(const forecast::PortfolioState& s) {
        Json members = Json::array();
        for (const auto& m : s.members) members.push_back(to_json(m));
        Json scores = Json::array();
        for (const auto& c : s.scores) {
            scores.push_back({{"name", c.name},
                              {"smape", detail::number(c.smape, "scores.smape")},
                              {"mase", detail::number(c.mase, "scores.mase")},
                              {"owa", std::isinf(c.owa) && c.owa > 0 ? Json(nullptr) : detail::number(c.owa, "scores.owa")},  // null: the candidate failed
                              {"selected", c.selected}});
        }
        return {{"members", members},
                {"scores", scores},
                {"reference_season", s.reference_season},
                {"shift_detected", s.shift_detected},
                {"validation_owa", detail::number(s.validation_owa, "validation_owa")},
                {"fitted", s.fitted},
                {"guard_scale", detail::number(s.guard_scale, "guard_scale")},
                {"guard_errors", detail::numbers(s.guard_errors, "guard_errors")},
                {"error_correction", detail::numbers(s.error_correction, "error_correction")},
                {"error_correction_limit", detail::number(s.error_correction_limit, "error_correction_limit")},
                {"bucket_ends", s.bucket_ends},
                {"bucket_members", s.bucket_members}};
    }
    static forecast::PortfolioState read(const detail::Reader& r) {
        forecast::PortfolioState s;
        s.members = r["members"].array([](const detail::Reader& m) { return from_json<forecast::ForecasterState>(m); });
        s.scores = r["scores"].array([](const detail::Reader& c) {
            forecast::PortfolioScore score;
            score.name = c["name"].string();
            score.smape = c["smape"].non_negative_number();
            score.mase = c["mase"].non_negative_number();
            const auto owa = c.optional("owa");
            if (!c.has("owa")) (void)c["owa"];  // throws: missing field
            score.owa = owa ? owa->non_negative_number() : std::numeric_limits<double>::infinity();
            score.selected = c["selected"].boolean();
            return score;
        });
        s.reference_season = r["reference_season"].int32();
        s.shift_detected = r["shift_detected"].boolean();
        s.validation_owa = r["validation_owa"].non_negative_number();
        s.fitted = r["fitted"].boolean();
        // The level guard (issue 19) came after version 1: a document without it restores with the guard off.
        if (auto g = r.optional("guard_scale")) s.guard_scale = g->non_negative_number();
        if (auto g = r.optional("guard_errors")) s.guard_errors = g->numbers();
        if (auto c = r.optional("error_correction")) s.error_correction = c->numbers();  // later still: absent = off
        if (auto c = r.optional("error_correction_limit")) s.error_correction_limit = c->non_negative_number();
        // Horizon buckets (session 16), absent = one choice for every step. Their values are checked by
        // Portfolio::with_state (increasing ends >= 1, member positions in range).
        if (auto b = r.optional("bucket_ends")) s.bucket_ends = b->array([](const detail::Reader& e) { return e.int32(); });
        if (auto b = r.optional("bucket_members")) {
            s.bucket_members = b->array([](const detail::Reader& group) { return group.array([](const detail::Reader& j) { return j.int32(); }); });
        }
        return s;
    }
};

}  // namespace continuum::serialization
