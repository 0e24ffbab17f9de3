// Fuzzes the safetensors LSTM weights loader (forecast::parse_lstm, float and double): any bytes
// either load or throw ParseError (truncation, bad header JSON, dtype, offsets, shapes, NaN
// weights, scaling). A model that loads must forecast finite values from a finite window:
// fit() on a constant series, then a short recursive forecast.
#include "fuzz_target.hpp"
#include "fuzz_support.hpp"

#include <continuum/forecast/lstm_loader.hpp>

#include <span>

namespace {

template <typename T>
void exercise(std::span<const std::byte> bytes) {
    namespace forecast = continuum::forecast;
    std::optional<forecast::Lstm<T>> model;
    try {
        model.emplace(forecast::parse_lstm<T>(bytes, "fuzz"));
    } catch (const continuum::ParseError&) {
        return;
    }
    if (model->features() != 1 || model->window() > 4096) return;
    const std::vector<double> history(model->window(), 50.0);
    const auto step = model->parameters().step.count() > 0 ? model->parameters().step : std::chrono::milliseconds(std::chrono::minutes(1));
    model->fit(continuum::SeriesView(history, step));
    const auto f = model->forecast(3);
    CONTINUUM_FUZZ_CHECK(f.mean.size() == 3);
    CONTINUUM_FUZZ_CHECK(continuum::fuzz::all_finite(f.mean));
}

}  // namespace

CONTINUUM_FUZZ_TARGET(lstm_loader) {
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    exercise<float>(bytes);
    exercise<double>(bytes);
    return 0;
}
