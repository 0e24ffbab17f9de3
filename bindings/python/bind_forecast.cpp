// Python bindings for continuum/forecast (except the LSTM, bound in bind_lstm.cpp): baselines,
// Holt-Winters with statsmodels-compatible parameters, auto_ets, the Portfolio / auto forecaster
// and the accuracy metrics, all under continuum.forecast with numpy arrays in and out.
#include "common.hpp"
#include "forecasters.hpp"
#include "state.hpp"

#include <continuum/forecast/auto_ets.hpp>
#include <continuum/forecast/drift.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/forecast/holt_winters_batch.hpp>
#include <continuum/forecast/linear_regression.hpp>
#include <continuum/forecast/metrics.hpp>
#include <continuum/forecast/moving_average.hpp>
#include <continuum/forecast/naive.hpp>
#include <continuum/forecast/portfolio.hpp>
#include <continuum/forecast/seasonal_median.hpp>
#include <continuum/forecast/seasonal_naive.hpp>
#include <continuum/forecast/simple_exponential_smoothing.hpp>
#if CONTINUUM_HAVE_NLOHMANN_JSON
#include <continuum/serialization/forecast.hpp>
#endif

#include <fmt/format.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace py = pybind11;
// A namespace of its own per bind_<area>.cpp: its using-directives and file-local helpers stay out of
// the other files of a unity unit (CONTINUUM_PYTHON_UNITY), whichever files it is grouped with.
namespace continuum_bind_forecast {
using namespace continuum;
using namespace continuum::forecast;

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
using Matrix = Array;  // a 2-D array (rows = series), row-major after forcecast

std::span<const double> as_span(const Array& values, const char* argument) {
    if (values.ndim() != 1) throw InvalidArgument(fmt::format("{}: expected a 1-D array, got {} dimensions", argument, values.ndim()));
    return {values.data(), static_cast<std::size_t>(values.shape(0))};
}

py::array_t<double> to_array(const std::vector<double>& v) { return py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data()); }

/// fit / forecast / forecast_interval / update / name for any Forecaster class.
template <typename F, typename Class>
void bind_forecaster_methods(Class& cls) {
    cls.def(
           "fit",
           [](F& self, const Array& y) -> F& {
               const SeriesView view(as_span(y, "y"), std::chrono::minutes(1), "y");
               py::gil_scoped_release release;
               self.fit(view);
               return self;
           },
           py::arg("y"), py::return_value_policy::reference_internal, "Fits the history y (oldest first); returns self.")
        .def(
            "forecast", [](const F& self, int h) { return to_array(self.forecast(h).mean); }, py::arg("h"),
            "Point forecast of the next h steps as a numpy array.")
        .def(
            "forecast_interval",
            [](const F& self, int h, double level) {
                const auto f = self.forecast(h, level);
                return py::make_tuple(to_array(f.mean), to_array(f.lower), to_array(f.upper));
            },
            py::arg("h"), py::arg("level") = 0.95, "(mean, lower, upper) numpy arrays with a prediction interval at level in (0, 1).")
        .def("update", &F::update, py::arg("value"), "Absorbs one new observation without refitting.")
        .def_property_readonly("name", &F::name)
        .def("__repr__", [](const F& self) { return self.name(); });
#if !CONTINUUM_HAVE_NLOHMANN_JSON  // else python::bind_state defines them (through the state value)
    cls.def("__copy__", [](const F& self) { return F(self); })
        .def("__deepcopy__", [](const F& self, const py::dict&) { return F(self); }, py::arg("memo"),
             "An independent copy (fitted state included), e.g. one per namespace.");
#endif
}

Trend parse_trend(const std::optional<std::string>& trend) {
    if (!trend || *trend == "none") return Trend::none;
    if (*trend == "add" || *trend == "additive") return Trend::additive;
    throw InvalidArgument(fmt::format("trend must be None or \"add\", got \"{}\"", *trend));
}

Seasonality parse_seasonal(const std::optional<std::string>& seasonal) {
    if (!seasonal || *seasonal == "none") return Seasonality::none;
    if (*seasonal == "add" || *seasonal == "additive") return Seasonality::additive;
    if (*seasonal == "mul" || *seasonal == "multiplicative") return Seasonality::multiplicative;
    throw InvalidArgument(fmt::format("seasonal must be None, \"add\" or \"mul\", got \"{}\"", *seasonal));
}

LaneInstructions parse_lane_instructions(const std::string& instructions) {
    for (auto path : {LaneInstructions::automatic, LaneInstructions::portable, LaneInstructions::avx2, LaneInstructions::avx512}) {
        if (instructions == lane_instructions_name(path)) return path;
    }
    throw InvalidArgument(fmt::format("instructions must be \"automatic\", \"portable\", \"avx2\" or \"avx512\", got \"{}\"", instructions));
}

#if CONTINUUM_HAVE_NLOHMANN_JSON
/// state() and with_state(): every built-in forecaster's state support (issue 17).
constexpr auto take_state = [](const auto& self) { return self.state(); };
constexpr auto give_state = [](const auto& self, const auto& state) { return self.with_state(state); };

/// HoltWinters' constructor arguments, in the order of its py::init.
py::tuple holt_winters_arguments(const HoltWinters<double>& self) {
    const auto& spec = self.spec();
    const auto& o = self.options();
    const char* initialization = o.initialization == Initialization::estimated ? "estimated" : (o.initialization == Initialization::heuristic ? "heuristic" : "simple");
    return py::make_tuple(spec.season_length, spec.has_trend() ? py::object(py::str("add")) : py::object(py::none()), spec.damped,
                          spec.seasonal == Seasonality::none ? py::object(py::none()) : py::object(py::str(spec.seasonal == Seasonality::additive ? "add" : "mul")),
                          spec.season_update == SeasonUpdate::new_level ? "new_level" : "previous_level", initialization, o.statsmodels_season_quirk,
                          o.simulation_paths, o.simulation_seed, o.budget.node_limit);
}
#endif

const double holt_winters_max_magnitude = HoltWinters<double>::max_magnitude();

HoltWintersOptions make_options(const std::string& initialization, bool quirk, int paths, std::uint64_t seed, std::int64_t max_evaluations) {
    HoltWintersOptions options;
    if (initialization == "estimated") options.initialization = Initialization::estimated;
    else if (initialization == "heuristic") options.initialization = Initialization::heuristic;
    else if (initialization == "simple") options.initialization = Initialization::simple;
    else throw InvalidArgument(fmt::format("initialization must be \"estimated\", \"heuristic\" or \"simple\", got \"{}\"", initialization));
    options.statsmodels_season_quirk = quirk;
    options.simulation_paths = paths;
    options.simulation_seed = seed;
    options.budget.node_limit = max_evaluations;
    return options;
}

py::dict params_dict(const HoltWinters<double>& model) {
    const auto& p = model.params();
    py::dict out;
    out["alpha"] = p.alpha;
    out["beta"] = p.beta;
    out["gamma"] = p.gamma;
    out["phi"] = p.phi;
    out["initial_level"] = p.initial_level;
    out["initial_trend"] = p.initial_trend;
    out["initial_seasons"] = to_array(p.initial_seasons);
    return out;
}

// PortfolioOptions::last_value_combination by its Python name ("off", "scored", "always").
const char* last_value_combination_name(LastValueCombination rule) {
    return rule == LastValueCombination::scored ? "scored" : rule == LastValueCombination::always ? "always" : "off";
}

LastValueCombination last_value_combination_from(const std::string& name) {
    for (const auto rule : {LastValueCombination::off, LastValueCombination::scored, LastValueCombination::always}) {
        if (name == last_value_combination_name(rule)) return rule;
    }
    throw InvalidArgument(fmt::format("last_value_combination must be \"off\", \"scored\" or \"always\", got \"{}\"", name));
}
}  // namespace

void bind(py::module_& m) {
    auto forecast = m.def_submodule("forecast", "Demand forecasters (continuum::forecast).");

    // ---- baselines ----------------------------------------------------------------------------
    {
        py::class_<Naive> cls(forecast, "Naive", "Every future step equals the last observation.");
        cls.def(py::init<>());
        bind_forecaster_methods<Naive>(cls);
#if CONTINUUM_HAVE_NLOHMANN_JSON
        python::bind_state(m, cls, take_state, give_state, [](const Naive&) { return py::make_tuple(); });
#endif
    }
    {
        py::class_<SeasonalNaive> cls(forecast, "SeasonalNaive", "Step h repeats the observation one season earlier.");
        cls.def(py::init<int>(), py::arg("season_length"));
        bind_forecaster_methods<SeasonalNaive>(cls);
#if CONTINUUM_HAVE_NLOHMANN_JSON
        python::bind_state(m, cls, take_state, give_state, [](const SeasonalNaive& s) { return py::make_tuple(s.season_length()); });
#endif
    }
    {
        py::class_<SeasonalMedian> cls(forecast, "SeasonalMedian", "Median of the same phase over the last `seasons` seasons.");
        cls.def(py::init<int, int>(), py::arg("season_length"), py::arg("seasons") = 5);
        bind_forecaster_methods<SeasonalMedian>(cls);
#if CONTINUUM_HAVE_NLOHMANN_JSON
        python::bind_state(m, cls, take_state, give_state, [](const SeasonalMedian& s) {
            const auto state = s.state();
            return py::make_tuple(state.season_length, state.seasons);
        });
#endif
    }
    {
        py::class_<Drift> cls(forecast, "Drift", "The line through the first and last observations, extended.");
        cls.def(py::init<>());
        bind_forecaster_methods<Drift>(cls);
#if CONTINUUM_HAVE_NLOHMANN_JSON
        python::bind_state(m, cls, take_state, give_state, [](const Drift&) { return py::make_tuple(); });
#endif
    }
    {
        py::class_<MovingAverage> cls(forecast, "MovingAverage", "The mean of the last `window` observations.");
        cls.def(py::init<int>(), py::arg("window"));
        bind_forecaster_methods<MovingAverage>(cls);
#if CONTINUUM_HAVE_NLOHMANN_JSON
        python::bind_state(m, cls, take_state, give_state, [](const MovingAverage& s) { return py::make_tuple(s.state().window); });
#endif
    }
    {
        py::class_<MovingMedian> cls(forecast, "MovingMedian", "The median of the last `window` observations (a robust level).");
        cls.def(py::init<int>(), py::arg("window"));
        bind_forecaster_methods<MovingMedian>(cls);
#if CONTINUUM_HAVE_NLOHMANN_JSON
        python::bind_state(m, cls, take_state, give_state, [](const MovingMedian& s) { return py::make_tuple(s.state().window); });
#endif
    }
    {
        py::class_<LinearRegression> cls(forecast, "LinearRegression",
                                         "OLS line over the last `window` observations, extrapolated (the PHPA linear model).");
        cls.def(py::init<int>(), py::arg("window"));
        bind_forecaster_methods<LinearRegression>(cls);
#if CONTINUUM_HAVE_NLOHMANN_JSON
        python::bind_state(m, cls, take_state, give_state, [](const LinearRegression& s) { return py::make_tuple(s.state().window); });
#endif
    }
    {
        py::class_<SimpleExponentialSmoothing> cls(forecast, "SimpleExponentialSmoothing",
                                                   "SES with a given alpha, or alpha fitted by minimum SSE when alpha is None.");
        cls.def(py::init<std::optional<double>>(), py::arg("alpha") = py::none());
        cls.def_property_readonly("alpha", &SimpleExponentialSmoothing::alpha);
        cls.def_property_readonly("sse", [](const SimpleExponentialSmoothing& self) { return self.sse(); });
        bind_forecaster_methods<SimpleExponentialSmoothing>(cls);
#if CONTINUUM_HAVE_NLOHMANN_JSON
        python::bind_state(m, cls, take_state, give_state, [](const SimpleExponentialSmoothing& s) { return py::make_tuple(s.state().fixed_alpha); });
#endif
    }

    // ---- Holt-Winters -------------------------------------------------------------------------
    // Registered before HoltWinters so fit_many's signature names it (its methods come after).
    py::class_<HoltWintersBatch<double>> batch_class(forecast, "HoltWintersBatch",
                                                     "The fitted models of HoltWinters.fit_many: batch[i] is row i's HoltWinters.");
    {
        py::class_<HoltWinters<double>> cls(
            forecast, "HoltWinters",
            "Holt-Winters exponential smoothing, smoothing like statsmodels' ExponentialSmoothing (0.13) and\n"
            "fitted by minimum SSE under statsmodels' bounds (L-BFGS with exact gradients).\n"
            "trend: None or 'add'; damped: bool; seasonal: None, 'add' or 'mul';\n"
            "season_update: 'previous_level' (statsmodels, FPP) or 'new_level' (R's HoltWinters);\n"
            "initialization: 'estimated' (initial states optimised), 'heuristic' or 'simple' (kept fixed).");
        cls.def(py::init([](int season_length, std::optional<std::string> trend, bool damped, std::optional<std::string> seasonal,
                            const std::string& season_update, const std::string& initialization, bool statsmodels_season_quirk,
                            int simulation_paths, std::uint64_t seed, std::int64_t max_evaluations) {
                    HoltWintersSpec spec{parse_trend(trend), damped, parse_seasonal(seasonal), season_length};
                    if (season_update == "new_level") spec.season_update = SeasonUpdate::new_level;
                    else if (season_update != "previous_level") {
                        throw InvalidArgument(fmt::format("season_update must be \"previous_level\" or \"new_level\", got \"{}\"", season_update));
                    }
                    return HoltWinters<double>(spec, make_options(initialization, statsmodels_season_quirk, simulation_paths, seed, max_evaluations));
                }),
                py::arg("season_length") = 24, py::arg("trend") = py::none(), py::arg("damped") = false, py::arg("seasonal") = py::none(),
                py::arg("season_update") = "previous_level", py::arg("initialization") = "estimated",
                py::arg("statsmodels_season_quirk") = false, py::arg("simulation_paths") = 2000, py::arg("seed") = 0,
                py::arg("max_evaluations") = 20000);
        bind_forecaster_methods<HoltWinters<double>>(cls);
#if CONTINUUM_HAVE_NLOHMANN_JSON
        python::bind_state(m, cls, take_state, give_state, std::function<py::tuple(const HoltWinters<double>&)>(&holt_winters_arguments));
#endif
        cls.def(
               "fit_known",
               [](HoltWinters<double>& self, const Array& y, double alpha, double beta, double gamma, double phi, double initial_level,
                  double initial_trend, std::optional<Array> initial_seasons) -> HoltWinters<double>& {
                   HoltWintersParameters<double> p{alpha, beta, gamma, phi, initial_level, initial_trend, {}};
                   if (initial_seasons) {
                       const auto s = as_span(*initial_seasons, "initial_seasons");
                       p.initial_seasons.assign(s.begin(), s.end());
                   }
                   self = HoltWinters<double>::known(self.spec(), std::move(p), self.options());
                   const SeriesView view(as_span(y, "y"), std::chrono::minutes(1), "y");
                   self.fit(view);
                   return self;
               },
               py::arg("y"), py::arg("alpha"), py::kw_only(), py::arg("beta") = 0.0, py::arg("gamma") = 0.0, py::arg("phi") = 1.0,
               py::arg("initial_level"), py::arg("initial_trend") = 0.0, py::arg("initial_seasons") = py::none(),
               py::return_value_policy::reference_internal,
               "Smooths y with known parameters and initial states (statsmodels initialization_method='known',\n"
               "fit(optimized=False)); returns self. Later fit() calls keep using these parameters.")
            .def_property_readonly("params", &params_dict,
                                   "dict: alpha, beta, gamma, phi, initial_level, initial_trend, initial_seasons (numpy array).")
            .def_property_readonly("sse", [](const HoltWinters<double>& self) { return self.sse(); })
            .def_property_readonly("aic", &HoltWinters<double>::aic)
            .def_property_readonly("aicc", &HoltWinters<double>::aicc)
            .def_property_readonly("bic", &HoltWinters<double>::bic)
            .def_property_readonly("sigma", &HoltWinters<double>::sigma)
            .def_property_readonly("fittedvalues", [](const HoltWinters<double>& self) {
                const auto v = self.fitted_values();
                return to_array(std::vector<double>(v.begin(), v.end()));
            })
            .def_property_readonly("level", &HoltWinters<double>::level)
            .def_property_readonly("trend", &HoltWinters<double>::trend)
            .def_property_readonly("seasons", [](const HoltWinters<double>& self) { return to_array(self.seasons()); },
                                   "The m current seasonal values in the order they will be used.")
            .def_property_readonly("evaluations", &HoltWinters<double>::evaluations)
            .def_property_readonly("model", [](const HoltWinters<double>& self) { return self.spec().code(); }, "ETS code, e.g. 'A,Ad,A'.")
            .def(
                "refit",
                [](HoltWinters<double>& self, const Array& y) -> HoltWinters<double>& {
                    const SeriesView view(as_span(y, "y"), std::chrono::minutes(1), "y");
                    py::gil_scoped_release release;
                    self.refit(view);
                    return self;
                },
                py::arg("y"), py::return_value_policy::reference_internal,
                "Fits y again starting from the current fitted parameters (a warm start: one L-BFGS run, no starting\n"
                "grid): several times cheaper than fit() for a history that extends the one fitted. Before any fit, fit().\n"
                "Returns self.")
            .def_readonly_static("max_magnitude", &holt_winters_max_magnitude,
                                 "Largest |observation| fit() and update() accept (about 1.3e150): beyond it squared errors overflow.")
            .def(
                "fit_many",
                [](const HoltWinters<double>& self, const Matrix& y, const std::string& instructions) {
                    if (y.ndim() != 2) throw InvalidArgument(fmt::format("y: expected a 2-D array (series, points), got {} dimensions", y.ndim()));
                    const auto series = static_cast<std::size_t>(y.shape(0));
                    const std::span<const double> values(y.data(), series * static_cast<std::size_t>(y.shape(1)));
                    const LaneInstructions path = parse_lane_instructions(instructions);
                    py::gil_scoped_release release;
                    return self.fit_many(values, series, path);
                },
                py::arg("y"), py::kw_only(), py::arg("instructions") = "automatic",
                "Fits every row of y (a 2-D array: series x points) with this model's settings, evaluating many series\n"
                "together in SIMD lanes; each row gets the fit fit() gives it alone. Returns a HoltWintersBatch.\n"
                "instructions: 'automatic' (AVX2 when the CPU has it), or force 'portable', 'avx2' or 'avx512'\n"
                "(the same fits on every path). Raises continuum.InvalidArgument naming the row when one fails\n"
                "fit()'s checks, or when the forced instructions are not supported here.");
    }
    {
        auto& cls = batch_class;
        cls.def("__len__", &HoltWintersBatch<double>::size)
            .def(
                "__getitem__",
                [](const HoltWintersBatch<double>& self, py::ssize_t i) {
                    const auto n = static_cast<py::ssize_t>(self.size());
                    if (i < 0) i += n;
                    if (i < 0 || i >= n) throw py::index_error(fmt::format("index {} out of range for {} series", i, n));
                    return self[static_cast<std::size_t>(i)];
                },
                py::arg("i"), "Row i's fitted model (a copy).")
            .def(
                "forecast",
                [](const HoltWintersBatch<double>& self, int h) {
                    const auto f = self.forecast(h);
                    py::array_t<double> out({static_cast<py::ssize_t>(self.size()), static_cast<py::ssize_t>(h)});
                    std::copy(f.begin(), f.end(), out.mutable_data());
                    return out;
                },
                py::arg("h"), "Point forecasts of every series: an (n, h) numpy array.")
            .def_property_readonly("sse", [](const HoltWintersBatch<double>& self) {
                std::vector<double> out;
                for (const auto& model : self.models()) out.push_back(model.sse());
                return to_array(out);
            }, "Every series' SSE (numpy array).")
            .def_property_readonly("instructions", [](const HoltWintersBatch<double>& self) { return std::string(lane_instructions_name(self.instructions())); },
                                   "str: the instructions the lanes ran with, 'portable', 'avx2' or 'avx512'.")
            .def("__repr__", [](const HoltWintersBatch<double>& self) {
                return fmt::format("HoltWintersBatch({} series x {} points, {}, {})", self.size(), self.length(),
                                   self.size() ? self[0].name() : std::string("empty"), lane_instructions_name(self.instructions()));
            });
    }
    forecast.def(
        "auto_ets",
        [](const Array& y, int season_length, bool allow_damped, bool allow_multiplicative_season) {
            const SeriesView view(as_span(y, "y"), std::chrono::minutes(1), "y");
            AutoEtsOptions options;
            options.allow_damped = allow_damped;
            options.allow_multiplicative_season = allow_multiplicative_season;
            py::gil_scoped_release release;
            return auto_ets<double>(view, season_length, options);
        },
        py::arg("y"), py::arg("season_length"), py::arg("allow_damped") = true, py::arg("allow_multiplicative_season") = true,
        "Fits every Holt-Winters model (trend N/A/Ad x season N/A/M) and returns the fitted one with the lowest AICc.");

    // ---- Portfolio ----------------------------------------------------------------------------
    {
        py::class_<Portfolio> cls(forecast, "Portfolio",
                                  "Candidates scored by rolling-origin validation relative to seasonal naive; the best one,\n"
                                  "or the mean of the best k <= combine when that validates better, forecasts.");
        cls.def(py::init([](std::vector<int> season_lengths, int horizon, int origins, int combine, double recency_decay, double shift_factor,
                            int partial_origins, const std::string& validation, int walk_forward_points, double level_guard, int level_guard_points,
                            bool error_correction, int min_walk_forward_origins, double naive_test, const std::string& last_value_combination,
                            int moving_median_window, std::vector<int> horizon_buckets, double bucket_margin) {
                    PortfolioOptions options;
                    options.season_lengths = std::move(season_lengths);
                    options.horizon = horizon;
                    options.origins = origins;
                    options.combine = combine;
                    options.recency_decay = recency_decay;
                    options.shift_factor = shift_factor;
                    options.partial_origins = partial_origins;
                    if (validation == "blocks") options.validation = PortfolioValidation::blocks;
                    else if (validation == "walk_forward") options.validation = PortfolioValidation::walk_forward;
                    else if (validation != "automatic") {
                        throw InvalidArgument(fmt::format("validation must be \"automatic\", \"blocks\" or \"walk_forward\", got \"{}\"", validation));
                    }
                    options.walk_forward_points = walk_forward_points;
                    options.level_guard = level_guard;
                    options.level_guard_points = level_guard_points;
                    options.error_correction = error_correction;
                    options.min_walk_forward_origins = min_walk_forward_origins;
                    options.naive_test = naive_test;
                    options.last_value_combination = last_value_combination_from(last_value_combination);
                    options.moving_median_window = moving_median_window;
                    options.horizon_buckets = std::move(horizon_buckets);
                    options.bucket_margin = bucket_margin;
                    return Portfolio(std::move(options));
                }),
                py::arg("season_lengths") = std::vector<int>{24, 168}, py::arg("horizon") = 0, py::arg("origins") = 7,
                py::arg("combine") = 3, py::arg("recency_decay") = 1.0, py::arg("shift_factor") = 2.0, py::arg("partial_origins") = 3,
                py::arg("validation") = "automatic", py::arg("walk_forward_points") = 0, py::arg("level_guard") = 0.0, py::arg("level_guard_points") = 3,
                py::arg("error_correction") = true, py::arg("min_walk_forward_origins") = 96, py::arg("naive_test") = 0.0,
                py::arg("last_value_combination") = std::string(last_value_combination_name(PortfolioOptions{}.last_value_combination)),
                py::arg("moving_median_window") = PortfolioOptions{}.moving_median_window,
                py::arg("horizon_buckets") = PortfolioOptions{}.horizon_buckets, py::arg("bucket_margin") = PortfolioOptions{}.bucket_margin,
                "season_lengths: season lengths to consider (the first feasible one is the seasonal-naive / MASE reference);\n"
                "horizon: validation horizon, 0 = the reference season length; origins: rolling validation blocks;\n"
                "combine: at most this many of the best candidates are averaged; recency_decay: weight of a block k\n"
                "blocks before the newest is recency_decay**k, in (0, 1]; shift_factor: when seasonal naive's MAE on the\n"
                "newest block exceeds shift_factor x the median over the earlier blocks, partial_origins origins inside\n"
                "that block join the validation (weighted by their length); 0 disables; partial_origins: >= 0;\n"
                "validation: 'automatic' (walk-forward below the reference season, blocks otherwise), 'blocks' (a refit per\n"
                "block) or 'walk_forward' (one fit per candidate, then every recent point an origin); walk_forward_points:\n"
                "origins of the walk-forward validation, 0 = max(origins x horizon, reference season); level_guard (walk-forward\n"
                "only): when the last level_guard_points one-step errors share a sign and each exceeds level_guard x the median\n"
                "absolute one-step error of the validation, forecasts add the smallest of them (see level_offset); 0 (the\n"
                "default) disables; error_correction (walk-forward only): the forecast i steps ahead adds b_i x the members'\n"
                "latest one-step error, b_i in [0, 1] fitted on the validation window (how much of an error persisted);\n"
                "min_walk_forward_origins: the walk-forward window has at least min(this, half the history) points, and the\n"
                "error correction needs this many origins; 0 = neither; naive_test (walk-forward only): the choice replaces the\n"
                "last value only when a Diebold-Mariano test of its per-origin MASE against naive reaches this (1.645: one-sided\n"
                "5 %); 0 (the default) disables; last_value_combination (walk-forward only): 'scored' = the means of the best k\n"
                "candidates with the last value added compete with those without it on the validation, 'always' = the last\n"
                "value always joins the chosen mean, 'off' = never; moving_median_window (walk-forward only): MovingMedian of\n"
                "this many points is one more candidate (a robust level); 0 = none; horizon_buckets (walk-forward only, with at\n"
                "least min_walk_forward_origins origins): the last step of each bucket of steps ahead, increasing (e.g. [1, 3]:\n"
                "steps 1, 2-3 and 4 on); each bucket forecasts with its own best candidate or mean on its steps' validation\n"
                "errors, kept when its OWA there is below (1 - bucket_margin) x the whole horizon's choice's; [] = one choice\n"
                "for every step; bucket_margin: in [0, 1).\n"
                "Raises continuum.InvalidArgument on out-of-range options.");
        bind_forecaster_methods<Portfolio>(cls);
#if CONTINUUM_HAVE_NLOHMANN_JSON
        python::bind_state(m, cls, take_state, give_state, [](const Portfolio& s) {
            const auto& o = s.options();
            const char* validation = o.validation == PortfolioValidation::blocks ? "blocks" : o.validation == PortfolioValidation::walk_forward ? "walk_forward" : "automatic";
            return py::make_tuple(o.season_lengths, o.horizon, o.origins, o.combine, o.recency_decay, o.shift_factor, o.partial_origins, validation,
                                  o.walk_forward_points, o.level_guard, o.level_guard_points, o.error_correction, o.min_walk_forward_origins, o.naive_test,
                                  last_value_combination_name(o.last_value_combination), o.moving_median_window, o.horizon_buckets, o.bucket_margin);
        });
#endif
        cls.def_property_readonly("scores", [](const Portfolio& self) {
               py::list out;
               for (const auto& s : self.scores()) {
                   py::dict d;
                   d["name"] = s.name;
                   d["smape"] = s.smape;
                   d["mase"] = s.mase;
                   d["owa"] = s.owa;
                   d["selected"] = s.selected;
                   out.append(d);
               }
               return out;
           })
            .def_property_readonly("members", [](const Portfolio& self) {
                std::vector<std::string> names;
                for (const auto& member : self.members()) names.push_back(member.name());
                return names;
            })
            .def_property_readonly("validation_owa", &Portfolio::validation_owa)
            .def_property_readonly("shift_detected", &Portfolio::shift_detected,
                                   "Whether the last fit saw a shift in its newest validation block and used the partial origins.")
            .def_property_readonly("level_offset", &Portfolio::level_offset,
                                   "The level guard's current correction added to every forecast (0 when the guard is off).")
            .def_property_readonly("validation_horizon", &Portfolio::validation_horizon,
                                   "The horizon the last fit validated at (horizon, or the reference season when 0).")
            .def_property_readonly("walk_forward", &Portfolio::walk_forward,
                                   "Whether the last fit validated walk-forward (horizon below the reference season: one fit per\n"
                                   "candidate, then every recent point an origin).")
            .def("plan_for_horizon", &Portfolio::plan_for_horizon, py::arg("horizon"),
                 "Tells the portfolio the horizon its forecasts will be used at: when horizon was 0 (not given), later fits\n"
                 "validate at it; an explicit horizon is kept. Raises continuum.InvalidArgument when horizon < 1.");
    }
    // auto_forecaster is the C++ name; auto, the short name the docs and examples use, is the same function.
    for (const char* name : {"auto_forecaster", "auto"}) {
        forecast.def(
            name,
            [](const Array& y, std::vector<int> season_lengths, int horizon) {
                const SeriesView view(as_span(y, "y"), std::chrono::minutes(1), "y");
                py::gil_scoped_release release;
                return auto_forecaster(view, horizon, std::move(season_lengths));
            },
            py::arg("y"), py::arg("season_lengths") = std::vector<int>{24, 168}, py::arg("horizon") = 0,
            "A Portfolio with default candidates, fitted on y and validated at horizon steps ahead (the look-ahead its\n"
            "forecasts will be used at; 0 = one season). Raises continuum.InvalidArgument when horizon < 0.\n"
            "auto_forecaster (the C++ name) and auto are the same function.");
    }

    // ---- metrics ------------------------------------------------------------------------------
    forecast.def("mae", [](const Array& y, const Array& f) { return mae(as_span(y, "y"), as_span(f, "f")); }, py::arg("y"), py::arg("f"),
                 "Mean absolute error.");
    forecast.def("rmse", [](const Array& y, const Array& f) { return rmse(as_span(y, "y"), as_span(f, "f")); }, py::arg("y"), py::arg("f"),
                 "Root mean squared error.");
    forecast.def("mape", [](const Array& y, const Array& f) { return mape(as_span(y, "y"), as_span(f, "f")); }, py::arg("y"), py::arg("f"),
                 "Mean absolute percentage error, percent.");
    forecast.def("smape", [](const Array& y, const Array& f) { return smape(as_span(y, "y"), as_span(f, "f")); }, py::arg("y"), py::arg("f"),
                 "Symmetric MAPE (M4), percent in [0, 200].");
    forecast.def(
        "mase", [](const Array& y_train, const Array& y, const Array& f, int m) { return mase(as_span(y_train, "y_train"), as_span(y, "y"), as_span(f, "f"), m); },
        py::arg("y_train"), py::arg("y"), py::arg("f"), py::arg("m") = 1, "Mean absolute scaled error (scale: in-sample seasonal naive MAE).");
    forecast.def(
        "owa",
        [](const Array& y_train, const Array& y, const Array& f, const Array& f_reference, int m) {
            return owa(as_span(y_train, "y_train"), as_span(y, "y"), as_span(f, "f"), as_span(f_reference, "f_reference"), m);
        },
        py::arg("y_train"), py::arg("y"), py::arg("f"), py::arg("f_reference"), py::arg("m") = 1,
        "Overall weighted average (M4) of sMAPE and MASE relative to the reference forecast.");
}
}  // namespace continuum_bind_forecast

void bind_forecast(py::module_& m) { continuum_bind_forecast::bind(m); }
