// docs/lstm.md: load the shipped LSTM (10 minutes of CPU % -> the next minute) and predict one
// window, a batch of windows, and 5 minutes ahead as a Forecaster. Run from the repository root.
#include <continuum/forecast/lstm_loader.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <vector>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "check.hpp"

int main() {
    using namespace continuum::forecast;
    auto model = load_lstm<float>("models/alibaba2018_cpu_lstm.safetensors");  // Lstm<float>
    CHECK(model.window() == 10 && model.features() == 1 && model.outputs() == 1);

    const std::array<float, 10> last_10_minutes = {41.2f, 40.8f, 43.0f, 44.1f, 42.9f,
                                                   41.7f, 40.2f, 39.9f, 41.5f, 42.0f};
    const float next_minute = model.predict_next(last_10_minutes);  // raw CPU %, allocates nothing
    fmt::print("{}: next minute {:.2f} %\n", model.name(), next_minute);
    CHECK(std::abs(next_minute - 41.85f) < 0.01f);  // the same model in PyTorch: 41.847

    // Many namespaces at once: count x window values in, count x outputs() values out.
    std::vector<float> windows(last_10_minutes.begin(), last_10_minutes.end());
    for (float v : last_10_minutes) windows.push_back(v + 5.0f);  // a second namespace, 5 points busier
    std::vector<float> next(windows.size() / model.window());
    model.predict_batch(windows, next);
    fmt::print("batch: {::.2f}\n", next);
    CHECK(std::abs(next[0] - next_minute) < 1e-4f && next[1] > next[0]);

    // As a Forecaster: fit keeps the last window (the weights are not retrained), forecast(5) runs
    // 5 one-step predictions, update slides the window.
    const std::vector<double> history(last_10_minutes.begin(), last_10_minutes.end());
    model.fit(continuum::SeriesView(history, std::chrono::minutes(1)));  // the model's step: 60 s
    const Forecast f = model.forecast(5);
    fmt::print("5 minutes ahead: {::.2f}\n", f.mean);
    CHECK(f.horizon() == 5 && std::abs(f.mean[0] - next_minute) < 1e-4);
    model.update(42.5);
}
