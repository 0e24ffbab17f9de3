// Python bindings for continuum/forecast/lstm.hpp (+ lstm_loader.hpp): continuum.forecast.Lstm,
// a PyTorch-compatible LSTM forecaster computed in double, loaded from safetensors.
#include "common.hpp"
#include "state.hpp"

#include <continuum/forecast/lstm.hpp>
#if CONTINUUM_HAVE_NLOHMANN_JSON
#include <continuum/forecast/lstm_loader.hpp>
#include <continuum/serialization/forecast.hpp>
#endif

#include <fmt/format.h>

#include <span>
#include <string>
#include <vector>

namespace py = pybind11;
// A namespace of its own per bind_<area>.cpp: its using-directives and file-local helpers stay out of
// the other files of a unity unit (CONTINUUM_PYTHON_UNITY), whichever files it is grouped with.
namespace continuum_bind_lstm {
using continuum::InvalidArgument;
using continuum::forecast::Lstm;

namespace {

using Model = Lstm<double>;
using InputArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// Raw window values as one contiguous buffer; checks the shape against the model.
std::span<const double> window_values(const Model& model, const InputArray& values, const char* argument) {
    const bool one_feature = model.features() == 1;
    const auto dims = values.ndim();
    const bool shape_ok = (dims == 1 && one_feature && static_cast<std::size_t>(values.shape(0)) == model.window()) ||
                          (dims == 2 && static_cast<std::size_t>(values.shape(0)) == model.window() &&
                           static_cast<std::size_t>(values.shape(1)) == model.features());
    if (!shape_ok) {
        throw InvalidArgument(fmt::format("{}: expected shape ({}{}), got an array with {} dimension(s) and {} values", argument,
                                          model.window(), one_feature ? "," : fmt::format(", {}", model.features()), dims,
                                          values.size()));
    }
    return {values.data(), static_cast<std::size_t>(values.size())};
}

py::object outputs_to_python(const std::vector<double>& out, std::size_t rows, std::size_t outputs, bool batch) {
    if (!batch && outputs == 1) return py::float_(out[0]);
    if (!batch) return py::array_t<double>(static_cast<py::ssize_t>(outputs), out.data());
    if (outputs == 1) return py::array_t<double>(static_cast<py::ssize_t>(rows), out.data());
    return py::array_t<double>({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(outputs)}, out.data());
}

}  // namespace

void bind(py::module_& m) {
    auto forecast = m.def_submodule("forecast", "Demand forecasters (continuum::forecast).");

    py::class_<Model>(forecast, "Lstm",
                      "A PyTorch nn.LSTM (+ Linear head) forecaster run in C++ (Eigen, float64), with the input/output\n"
                      "scaling stored in its safetensors file so it takes raw values (e.g. CPU %). See docs/lstm.md.")
#if CONTINUUM_HAVE_NLOHMANN_JSON
        .def_static(
            "load", [](const std::string& path) { return continuum::forecast::load_lstm<double>(path); }, py::arg("path"),
            "Loads a model written by continuum.forecast.export_torch (or any safetensors file with the same\n"
            "tensor names and metadata). Raises ParseError naming the file and tensor when it is malformed.")
        .def_static(
            "from_bytes",
            [](const py::bytes& data, const std::string& source) {
                const std::string bytes = data;
                return continuum::forecast::parse_lstm<double>(std::as_bytes(std::span<const char>(bytes)), source);
            },
            py::arg("data"), py::arg("source") = "<bytes>", "As load, from the bytes of a safetensors file.")
#endif
        .def_property_readonly("window", &Model::window, "Time steps per input window.")
        .def_property_readonly("features", &Model::features, "Input features per time step.")
        .def_property_readonly("outputs", &Model::outputs, "Values the head produces (steps ahead).")
        .def_property_readonly("num_layers", &Model::num_layers, "Stacked LSTM layers.")
        .def_property_readonly("hidden_size", [](const Model& model) { return model.hidden_size(0); }, "Hidden units per layer.")
        .def_property_readonly("target_feature", &Model::target_feature, "The input feature the head forecasts.")
        .def_property_readonly("name", &Model::name)
        .def(
            "predict",
            [](Model& model, const InputArray& values) {
                const auto window = window_values(model, values, "predict: window_values");
                std::vector<double> out(model.outputs());
                model.predict(window, out);
                return outputs_to_python(out, 1, model.outputs(), false);
            },
            py::arg("window_values"),
            "Predicts from one window of raw values, oldest first: shape (window,) for a one-feature model or\n"
            "(window, features). Returns a float, or an array of `outputs` values for a multi-step head.")
        .def(
            "predict_batch",
            [](const Model& model, const InputArray& windows) {
                const bool one_feature = model.features() == 1;
                const auto dims = windows.ndim();
                const bool shape_ok =
                    (dims == 2 && one_feature && static_cast<std::size_t>(windows.shape(1)) == model.window()) ||
                    (dims == 3 && static_cast<std::size_t>(windows.shape(1)) == model.window() &&
                     static_cast<std::size_t>(windows.shape(2)) == model.features());
                if (!shape_ok) {
                    throw InvalidArgument(fmt::format("predict_batch: windows must have shape (n, {}{}), got {} dimension(s)",
                                                      model.window(), one_feature ? "" : fmt::format(", {}", model.features()), dims));
                }
                const auto rows = static_cast<std::size_t>(windows.shape(0));
                std::vector<double> out(rows * model.outputs());
                {
                    py::gil_scoped_release release;
                    continuum::forecast::LstmWorkspace<double> workspace;
                    model.predict_batch(std::span<const double>(windows.data(), static_cast<std::size_t>(windows.size())), out,
                                        workspace);
                }
                return outputs_to_python(out, rows, model.outputs(), true);
            },
            py::arg("windows"),
            "Predicts many windows at once (matrix-matrix products, GIL released): shape (n, window) for a\n"
            "one-feature model or (n, window, features). Returns shape (n,) or (n, outputs).")
        .def(
            "forecast",
            [](Model& model, const InputArray& history, int horizon) {
                if (history.ndim() != 1) throw InvalidArgument("forecast: history must be a 1-D array");
                model.fit(continuum::SeriesView(std::span<const double>(history.data(), static_cast<std::size_t>(history.size())),
                                                std::chrono::milliseconds(model.parameters().step.count() > 0
                                                                              ? model.parameters().step.count()
                                                                              : 60'000),
                                                "history"));
                const auto result = model.forecast(horizon);
                return py::array_t<double>(static_cast<py::ssize_t>(result.mean.size()), result.mean.data());
            },
            py::arg("history"), py::arg("horizon"),
            "Forecasts `horizon` steps after the end of `history` (1-D raw values, at least `window` long):\n"
            "direct for a multi-output head, recursive beyond it. The weights are not retrained.")
        .def("__repr__", [](const Model& model) { return fmt::format("<continuum.forecast.Lstm {}>", model.name()); });
#if CONTINUUM_HAVE_NLOHMANN_JSON
    auto cls = py::reinterpret_borrow<py::class_<Model>>(forecast.attr("Lstm"));
    cls.def(py::init([](const std::string& parameters_json, std::string source) {
                return Model(continuum::serialization::parse<continuum::forecast::LstmParameters<double>>(parameters_json), std::move(source));
            }),
            py::arg("parameters_json"), py::arg("source") = "parameters_json",
            "Rebuilds a model from parameters_json() (weights, head, window and scaling); source names it in messages. Raises\n"
            "ParseError naming the field.")
        .def("parameters_json", [](const Model& model) { return continuum::serialization::dump(model.parameters()); },
             "The weights, head, window and scaling as a JSON document (schema continuum.LstmParameters<double>).");
    continuum::python::bind_state(
        m, cls, [](const Model& self) { return self.state(); }, [](const Model& self, const Model::State& state) { return self.with_state(state); },
        [](const Model& self) { return py::make_tuple(continuum::serialization::dump(self.parameters()), self.source()); });
#endif
}
}  // namespace continuum_bind_lstm

void bind_lstm(py::module_& m) { continuum_bind_lstm::bind(m); }
