// Lstm (forecast/lstm.hpp): PyTorch nn.LSTM semantics checked by hand on one-unit cells, parity
// with PyTorch on stored fixtures (tests/fixtures/gen_lstm.py: random and trained weights, hidden
// 8-128, 1-3 layers, 1-3 features; float <= 1e-5, double <= 1e-10), batch == single, the
// Forecaster contract, and no allocation per single-window call.
#include <continuum/forecast/any_forecaster.hpp>
#include <continuum/forecast/forecaster_state.hpp>
#include <continuum/forecast/lstm.hpp>
#if CONTINUUM_HAVE_NLOHMANN_JSON
#include <continuum/forecast/lstm_loader.hpp>
#include <nlohmann/json.hpp>
#endif

#include <doctest/doctest.h>

#include "test_paths.hpp"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <new>
#include <random>
#include <string>
#include <vector>

// Both precisions are Forecasters (checked here rather than in lstm.hpp, where the checks would
// instantiate Lstm<float> and Lstm<double> with their Eigen members in every unit including it).
static_assert(continuum::forecast::Forecaster<continuum::forecast::Lstm<float>>);
static_assert(continuum::forecast::Forecaster<continuum::forecast::Lstm<double>>);

// Counts heap allocations while `counting_allocations` is set (the zero-allocation test). The whole
// non-aligned operator new/delete family is replaced, consistently on malloc/free, so the rest of
// the test program is unaffected; under AddressSanitizer (which has its own) nothing is replaced
// and that test is skipped.
#if defined(__SANITIZE_ADDRESS__)
#define CONTINUUM_TEST_COUNT_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CONTINUUM_TEST_COUNT_ALLOCATIONS 0
#endif
#endif
#ifndef CONTINUUM_TEST_COUNT_ALLOCATIONS
#define CONTINUUM_TEST_COUNT_ALLOCATIONS 1
#endif

namespace {
std::atomic<bool> counting_allocations{false};
std::atomic<long> allocations{0};
}  // namespace

#if CONTINUUM_TEST_COUNT_ALLOCATIONS
namespace {
void* counted_malloc(std::size_t size) noexcept {
    if (counting_allocations.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size == 0 ? 1 : size);
}
}  // namespace
void* operator new(std::size_t size) {
    if (void* p = counted_malloc(size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
    if (void* p = counted_malloc(size)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted_malloc(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted_malloc(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
#endif

using continuum::InvalidArgument;
using continuum::Series;
using namespace continuum::forecast;

namespace {

template <typename T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <typename T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

/// One unit, one feature: gates = W_ih·x + b_ih + W_hh·h + b_hh with the given (i, f, g, o) values.
template <typename T>
LstmParameters<T> one_unit(std::array<double, 4> w_ih, std::array<double, 4> w_hh, std::array<double, 4> b_ih,
                           std::array<double, 4> b_hh, double head_weight, double head_bias, std::size_t window) {
    LstmParameters<T> p;
    LstmLayer<T> layer;
    layer.weight_ih = Mat<T>(4, 1);
    layer.weight_hh = Mat<T>(4, 1);
    layer.bias_ih = Vec<T>(4);
    layer.bias_hh = Vec<T>(4);
    for (int g = 0; g < 4; ++g) {
        layer.weight_ih(g, 0) = static_cast<T>(w_ih[static_cast<std::size_t>(g)]);
        layer.weight_hh(g, 0) = static_cast<T>(w_hh[static_cast<std::size_t>(g)]);
        layer.bias_ih(g) = static_cast<T>(b_ih[static_cast<std::size_t>(g)]);
        layer.bias_hh(g) = static_cast<T>(b_hh[static_cast<std::size_t>(g)]);
    }
    p.layers.push_back(layer);
    DenseLayer<T> head;
    head.weight = Mat<T>::Constant(1, 1, static_cast<T>(head_weight));
    head.bias = Vec<T>::Constant(1, static_cast<T>(head_bias));
    p.head.push_back(head);
    p.window = window;
    return p;
}

std::string message_of(auto&& call) {
    try {
        call();
    } catch (const continuum::Error& e) {
        return e.what();
    }
    return "<no continuum::Error>";
}
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("one LSTM unit follows PyTorch's cell equations (hand-computed)") {
    // Only g depends on x; i = f = o = σ(0) = 1/2 and h_{t-1} has no influence:
    //   c1 = ½·tanh(x1), c2 = ½·c1 + ½·tanh(x2), h2 = ½·tanh(c2), y = 2·h2 + 1.
    const auto p = one_unit<double>({0, 0, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, 2.0, 1.0, 2);
    Lstm<double> model(p);
    const std::vector<double> window = {std::atanh(0.6), std::atanh(-0.2)};
    const double c1 = 0.5 * 0.6;
    const double c2 = 0.5 * c1 + 0.5 * -0.2;
    CHECK(model.predict_next(window) == doctest::Approx(2.0 * 0.5 * std::tanh(c2) + 1.0).epsilon(1e-14));
    CHECK(model.window() == 2);
    CHECK(model.features() == 1);
    CHECK(model.outputs() == 1);
    CHECK(model.hidden_size() == 1);
    CHECK(model.num_layers() == 1);
}

TEST_CASE("the recurrent weight and both biases enter every gate") {
    // i = σ(0.3 + 0.2), f = σ(-0.1 + 0.4·h), g = tanh(x + 0.5·h), o = σ(1 + h), two steps.
    const auto p = one_unit<double>({0, 0, 1, 0}, {0, 0.4, 0.5, 1.0}, {0.3, -0.1, 0, 0.4}, {0.2, 0, 0, 0.6}, 1.0, 0.0, 2);
    Lstm<double> model(p);
    const std::vector<double> x = {0.7, -1.3};
    double h = 0.0;
    double c = 0.0;
    for (double xt : x) {
        const double i = sigmoid(0.3 + 0.2);
        const double f = sigmoid(-0.1 + 0.4 * h);
        const double g = std::tanh(xt + 0.5 * h);
        const double o = sigmoid(0.4 + 0.6 + 1.0 * h);
        c = f * c + i * g;
        h = o * std::tanh(c);
    }
    CHECK(model.predict_next(x) == doctest::Approx(h).epsilon(1e-14));
}

TEST_CASE("gate blocks are ordered i, f, g, o") {
    // Saturate i = 1, f = 0, o = 1 through the biases: the cell forgets everything, so the output
    // is tanh(tanh(x_last)). Any other block order gives a different number.
    const auto p = one_unit<double>({0, 0, 1, 0}, {0, 0, 0, 0}, {40, -40, 0, 40}, {0, 0, 0, 0}, 1.0, 0.0, 3);
    Lstm<double> model(p);
    const std::vector<double> x = {2.0, -3.0, 0.4};
    CHECK(model.predict_next(x) == doctest::Approx(std::tanh(std::tanh(0.4))).epsilon(1e-12));
    // Swap i and f: now f = 1 keeps everything and i = 0 adds nothing, so h stays 0.
    const auto swapped = one_unit<double>({0, 0, 1, 0}, {0, 0, 0, 0}, {-40, 40, 0, 40}, {0, 0, 0, 0}, 1.0, 0.0, 3);
    CHECK(std::abs(Lstm<double>(swapped).predict_next(x)) < 1e-12);
}

TEST_CASE("scaling maps raw values in and out") {
    // Identity-like cell (g = tanh(x)), head y = h; min-max input [0, 100], z-score output.
    auto p = one_unit<double>({0, 0, 1, 0}, {0, 0, 0, 0}, {40, -40, 0, 40}, {0, 0, 0, 0}, 1.0, 0.0, 1);
    p.input_scaling = Scaling::min_max({0.0}, {100.0});
    p.output_scaling = Scaling::z_score({50.0}, {10.0});
    Lstm<double> model(p);
    const std::vector<double> x = {25.0};
    CHECK(model.predict_next(x) == doctest::Approx(50.0 + 10.0 * std::tanh(std::tanh(0.25))).epsilon(1e-12));
    CHECK_THROWS_AS((void)Scaling::min_max({1.0}, {1.0}), InvalidArgument);
    CHECK_THROWS_AS((void)Scaling::z_score({1.0}, {-1.0}), InvalidArgument);
    CHECK_THROWS_AS((void)Scaling::min_max({0.0, 1.0}, {1.0}), InvalidArgument);
}

TEST_CASE("invalid parameters are refused, naming the tensor") {
    auto good = one_unit<float>({0, 0, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, 1.0, 0.0, 4);
    {
        auto p = good;
        p.layers[0].weight_hh = Mat<float>::Zero(4, 2);
        CHECK(contains(message_of([&] { Lstm<float> m(p, "model.safetensors"); }),
                       "model.safetensors: tensor lstm.weight_hh_l0 has shape [4, 2], expected [4, 1]"));
    }
    {
        auto p = good;
        p.layers[0].bias_hh = Vec<float>::Zero(3);
        CHECK(contains(message_of([&] { Lstm<float> m(p); }), "tensor lstm.bias_hh_l0 has shape [3], expected [4]"));
    }
    {
        auto p = good;
        p.layers.push_back(p.layers[0]);
        p.layers[1].weight_ih = Mat<float>::Zero(4, 3);  // layer below has hidden 1
        CHECK(contains(message_of([&] { Lstm<float> m(p); }), "lstm.weight_ih_l1 has shape [4, 3], expected [4, 1]"));
    }
    {
        auto p = good;
        p.head[0].weight = Mat<float>::Zero(1, 2);
        CHECK(contains(message_of([&] { Lstm<float> m(p); }), "tensor head.weight has shape [1, 2], expected [1, 1]"));
    }
    {
        auto p = good;
        p.layers[0].weight_ih(2, 0) = std::nanf("");
        CHECK(contains(message_of([&] { Lstm<float> m(p); }), "tensor lstm.weight_ih_l0 has a non-finite value nan at [2, 0]"));
    }
    {
        auto p = good;
        p.head.clear();
        CHECK(contains(message_of([&] { Lstm<float> m(p); }), "no head layer"));
    }
    {
        auto p = good;
        p.window = 0;
        CHECK(contains(message_of([&] { Lstm<float> m(p); }), "window must be >= 1"));
    }
    {
        auto p = good;
        p.target_feature = 1;
        CHECK(contains(message_of([&] { Lstm<float> m(p); }), "target_feature = 1 is not an input feature"));
    }
    {
        auto p = good;
        p.input_scaling = Scaling::min_max({0.0, 0.0}, {1.0, 1.0});
        CHECK(contains(message_of([&] { Lstm<float> m(p); }), "input scaling: expected 1 value(s)"));
    }
}

TEST_CASE("predict refuses bad windows and never returns a non-finite value") {
    Lstm<float> model(one_unit<float>({0, 0, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, 1.0, 0.0, 3));
    std::vector<float> out(1);
    CHECK(contains(message_of([&] { model.predict(std::vector<float>{1, 2}, out); }), "holds 2 values, expected window × features = 3 × 1"));
    CHECK(contains(message_of([&] { model.predict(std::vector<float>{1, NAN, 2}, out); }), "window 0 value [time 1, feature 0] = nan"));
    std::vector<float> wrong_out(2);
    CHECK_THROWS_AS(model.predict(std::vector<float>{1, 2, 3}, wrong_out), InvalidArgument);
    CHECK(contains(message_of([&] { (void)model.predict_batch(std::vector<float>{1, 2, 3, 4}); }), "not a multiple of window × features"));
    CHECK(contains(message_of([&] { (void)model.predict_batch(std::vector<float>{1, 2, 3, 4, 5, INFINITY}); }), "window 1 value [time 2"));
    // An overflowing input makes gates infinite/NaN: refused, not returned.
    auto p = one_unit<float>({1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, 1.0, 0.0, 1);
    p.layers[0].weight_ih(0, 0) = 0.0F;
    p.input_scaling = Scaling::z_score({0.0}, {1e-30});
    Lstm<float> overflowing(p);
    CHECK(contains(message_of([&] { (void)overflowing.predict_next(std::vector<float>{3e38F}); }), "for window 0 is not finite"));
}

TEST_CASE("a single-window prediction allocates nothing after construction" * doctest::skip(!CONTINUUM_TEST_COUNT_ALLOCATIONS)) {
    auto p = one_unit<float>({0.1, 0.2, 1, 0.3}, {0.5, 0.4, 0.3, 0.2}, {0, 0, 0, 0}, {0, 0, 0, 0}, 1.0, 0.0, 10);
    p.input_scaling = Scaling::min_max({0.0}, {100.0});
    Lstm<float> model(p);
    LstmWorkspace<float> workspace = model.make_workspace();
    const std::vector<float> window = {10, 20, 30, 40, 50, 60, 70, 80, 90, 95};
    std::vector<float> out(1);
    float sum = 0;
    allocations = 0;
    counting_allocations = true;
    for (int i = 0; i < 100; ++i) {
        sum += model.predict_next(window);
        model.predict(window, out);
        model.predict(window, out, workspace);
        sum += out[0];
    }
    counting_allocations = false;
    CHECK(allocations.load() == 0);
    CHECK(std::isfinite(sum));
}

TEST_CASE("Lstm is a Forecaster: fit validates, forecast recurses, update slides the window") {
    // y = h with i = f... a one-unit model with a recurrent weight so every value of the window matters.
    auto p = one_unit<double>({0.3, 0.2, 1.0, 0.1}, {0.5, -0.4, 0.3, 0.2}, {0.1, 0.2, 0, 0.3}, {0, 0, 0, 0}, 80.0, 20.0, 4);
    p.input_scaling = Scaling::min_max({0.0}, {100.0});
    p.step = std::chrono::minutes(1);
    Lstm<double> model(p);
    CHECK(contains(message_of([&] { (void)model.forecast(1); }), "forecast called before fit"));
    CHECK(contains(message_of([&] { model.update(1.0); }), "update called before fit"));
    CHECK(contains(message_of([&] { model.fit(Series({1.0, 2.0, 3.0})); }), "fit needs at least window = 4 observations, got 3"));
    CHECK(contains(message_of([&] { model.fit(Series({1.0, 2.0, 3.0, 4.0}, std::chrono::seconds(30))); }),
                   "history step is 30 s but the model was trained on a 60 s step"));

    const std::vector<double> history = {5, 50, 40, 30, 20, 35};
    model.fit(Series(history));
    const auto one = model.forecast(1);
    REQUIRE(one.horizon() == 1);
    CHECK(one.mean[0] == doctest::Approx(model.predict_next(std::vector<double>{40, 30, 20, 35})).epsilon(1e-15));
    // Recursive: each prediction is appended to the window.
    const auto three = model.forecast(3);
    std::vector<double> window = {40, 30, 20, 35};
    for (int step = 0; step < 3; ++step) {
        const double next = model.predict_next(window);
        CHECK(three.mean[static_cast<std::size_t>(step)] == doctest::Approx(next).epsilon(1e-15));
        window.erase(window.begin());
        window.push_back(next);
    }
    // A requested interval is not provided: mean only, level 0.
    const auto with_level = model.forecast(2, 0.9);
    CHECK(with_level.mean == model.forecast(2).mean);
    CHECK_FALSE(with_level.has_interval());
    CHECK(with_level.level == 0.0);
    CHECK_THROWS_AS((void)model.forecast(0), InvalidArgument);
    CHECK_THROWS_AS((void)model.forecast(1, 1.5), InvalidArgument);
    // update == fit on the longer history.
    Lstm<double> other(p);
    other.fit(Series(std::vector<double>(history.begin(), history.end() - 1)));
    other.update(history.back());
    CHECK(other.forecast(3).mean == three.mean);
    CHECK_THROWS_AS(other.update(NAN), InvalidArgument);
    CHECK(model.name() == "LSTM(window=4, hidden=1x1, outputs=1)");
    // Type erasure works.
    AnyForecaster any(model);
    CHECK(any.forecast(3).mean == three.mean);
}

#if CONTINUUM_HAVE_NLOHMANN_JSON

namespace {

struct Fixture {
    std::string name;
    nlohmann::json json;
    std::string weights;
    double tolerance;  // in model units; raw outputs are compared with tolerance × max(1, output width)
};

Fixture fixture(const std::string& name) {
    const std::string dir = continuum_test::fixtures_dir() + "/lstm/";
    std::ifstream in(dir + name + ".json");
    REQUIRE(in.good());
    Fixture f{name, nlohmann::json::parse(in), "", 0.0};
    f.weights = dir + f.json["weights"].get<std::string>();
    f.tolerance = f.json["dtype"] == "float32" ? 1e-5 : 1e-10;
    return f;
}

template <typename T>
std::vector<T> flat_windows(const Fixture& f) {
    std::vector<T> out;
    for (const auto& w : f.json["windows"]) {
        for (const auto& v : w) out.push_back(static_cast<T>(v.get<double>()));
    }
    return out;
}

/// Checks single-window and batch predictions against the fixture; returns the max abs error in
/// model units.
template <typename T>
double check_parity(const Fixture& f, double tolerance) {
    auto model = load_lstm<T>(f.weights);
    const auto window = f.json["window"].get<std::size_t>();
    const auto features = f.json["features"].get<std::size_t>();
    const auto outputs = f.json["outputs"].get<std::size_t>();
    const double width = std::max(1.0, f.json["output_width"].get<double>());
    REQUIRE(model.window() == window);
    REQUIRE(model.features() == features);
    REQUIRE(model.outputs() == outputs);
    const auto windows = flat_windows<T>(f);
    const auto& expected = f.json["expected"];
    const std::size_t count = expected.size();
    const auto batch = model.predict_batch(windows);
    REQUIRE(batch.size() == count * outputs);
    std::vector<T> single(outputs);
    double worst = 0.0;
    for (std::size_t w = 0; w < count; ++w) {
        model.predict(std::span<const T>(windows).subspan(w * window * features, window * features), single);
        for (std::size_t j = 0; j < outputs; ++j) {
            const double want = expected[w][j].get<double>();
            const double error_single = std::abs(static_cast<double>(single[j]) - want) / width;
            const double error_batch = std::abs(static_cast<double>(batch[w * outputs + j]) - want) / width;
            worst = std::max({worst, error_single, error_batch});
        }
    }
    INFO(f.name, " max abs error (model units) ", worst);
    CHECK(worst <= tolerance);
    return worst;
}

}  // namespace

TEST_CASE("parity with PyTorch nn.LSTM on stored fixtures") {
    for (const char* name : {"h8_l1_f1_f32", "h32_l2_f2_f32", "h48_l3_f3_f32", "h128_l1_f1_f32"}) {
        const auto f = fixture(name);
        CAPTURE(name);
        check_parity<float>(f, 1e-5);
        check_parity<double>(f, 1e-5);  // F32 weights widened, computed in double: same to float accuracy
    }
    for (const char* name : {"h16_l2_f1_f64", "h8_l3_f3_f64", "h32_l2_f2_f64", "h64_l1_f1_f64"}) {
        const auto f = fixture(name);
        CAPTURE(name);
        check_parity<double>(f, 1e-10);
    }
}

TEST_CASE("parity with PyTorch for the shipped trained model") {
    const auto f = fixture("trained_alibaba2018");
    check_parity<float>(f, 1e-5);
    check_parity<double>(f, 1e-5);
}

TEST_CASE("batches larger than a chunk match single-window predictions") {
    const auto f = fixture("h32_l2_f2_f32");
    auto model = load_lstm<float>(f.weights);
    const auto base = flat_windows<float>(f);
    const std::size_t per_window = model.window() * model.features();
    const std::size_t base_count = base.size() / per_window;
    // 600 windows (> 2 chunks): repeated fixture windows with a per-window offset.
    std::vector<float> windows;
    const std::size_t count = 600;
    for (std::size_t w = 0; w < count; ++w) {
        for (std::size_t i = 0; i < per_window; ++i) windows.push_back(base[(w % base_count) * per_window + i] + static_cast<float>(w % 7));
    }
    std::vector<float> batch(count * model.outputs());
    LstmWorkspace<float> workspace;
    model.predict_batch(windows, batch, workspace);
    std::vector<float> single(model.outputs());
    float worst = 0.0F;
    for (std::size_t w = 0; w < count; ++w) {
        model.predict(std::span<const float>(windows).subspan(w * per_window, per_window), single);
        for (std::size_t j = 0; j < single.size(); ++j) worst = std::max(worst, std::abs(single[j] - batch[w * single.size() + j]));
    }
    CHECK(worst <= 1e-5F);
    std::vector<float> empty_out;
    model.predict_batch(std::span<const float>(), empty_out, workspace);  // zero windows is fine
    // A workspace sized by another (smaller) model is resized, not overrun.
    auto small = load_lstm<float>(fixture("h8_l1_f1_f32").weights);
    LstmWorkspace<float> small_workspace = small.make_workspace();
    std::vector<float> from_small(model.outputs());
    model.predict(std::span<const float>(windows).subspan(0, per_window), from_small, small_workspace);
    model.predict(std::span<const float>(windows).subspan(0, per_window), single);
    CHECK(from_small == single);
    model.predict_batch(windows, batch, small_workspace);
}

TEST_CASE("permuting the gate blocks changes the output (the layout test)") {
    const auto f = fixture("h16_l2_f1_f64");
    const auto model = load_lstm<double>(f.weights);
    const auto windows = flat_windows<double>(f);
    const auto reference = model.predict_batch(windows);
    const Eigen::Index h = static_cast<Eigen::Index>(model.hidden_size());
    // Swap blocks (a, b) in every tensor of layer 0: any mistaken order gives other numbers.
    for (const auto& blocks : {std::pair{0, 1}, std::pair{1, 2}, std::pair{2, 3}, std::pair{0, 3}}) {
        const int a = blocks.first;
        const int b = blocks.second;
        auto p = model.parameters();
        auto& layer = p.layers[0];
        layer.weight_ih.middleRows(a * h, h).swap(layer.weight_ih.middleRows(b * h, h));
        layer.weight_hh.middleRows(a * h, h).swap(layer.weight_hh.middleRows(b * h, h));
        layer.bias_ih.segment(a * h, h).swap(layer.bias_ih.segment(b * h, h));
        layer.bias_hh.segment(a * h, h).swap(layer.bias_hh.segment(b * h, h));
        const auto permuted = Lstm<double>(p).predict_batch(windows);
        double difference = 0.0;
        for (std::size_t i = 0; i < permuted.size(); ++i) difference = std::max(difference, std::abs(permuted[i] - reference[i]));
        CAPTURE(a);
        CAPTURE(b);
        CHECK(difference > 1e-3);
    }
}

TEST_CASE("forecast is direct for a multi-output head and recursive beyond it") {
    const auto f = fixture("h128_l1_f1_f32");
    auto model = load_lstm<double>(f.weights);
    REQUIRE(model.outputs() == 5);
    const auto windows = flat_windows<double>(f);
    std::vector<double> history(windows.begin(), windows.begin() + 10);
    model.fit(Series(history));
    std::vector<double> direct(5);
    model.predict(history, direct);
    const auto three = model.forecast(3);
    CHECK(three.mean == std::vector<double>(direct.begin(), direct.begin() + 3));
    // h = 7: five direct steps, then the window shifted by five with those steps appended.
    const auto seven = model.forecast(7);
    std::vector<double> shifted(history.begin() + 5, history.end());
    shifted.insert(shifted.end(), direct.begin(), direct.end());
    std::vector<double> next(5);
    model.predict(shifted, next);
    REQUIRE(seven.horizon() == 7);
    for (std::size_t i = 0; i < 5; ++i) CHECK(seven.mean[i] == direct[i]);
    CHECK(seven.mean[5] == next[0]);
    CHECK(seven.mean[6] == next[1]);
    // A multi-feature model cannot be fed one series.
    auto multi = load_lstm<float>(fixture("h32_l2_f2_f32").weights);
    CHECK(contains(message_of([&] { multi.fit(Series(history)); }), "takes 2 input features"));
}

#endif  // CONTINUUM_HAVE_NLOHMANN_JSON

TEST_CASE("LstmParametersBox is a value over the weights (copies are deep, == compares them)") {
    const auto p = one_unit<double>({0, 0, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, 2.0, 1.0, 2);
    const LstmParametersBox<double> box = p;
    LstmParametersBox<double> copy = box;
    CHECK(copy == box);
    CHECK(&*copy != &*box);
    CHECK(copy->window == 2);
    CHECK(copy->head[0].bias(0) == 1.0);
    auto other = p;
    other.head[0].bias(0) = 1.5;
    CHECK_FALSE(LstmParametersBox<double>(other) == box);
    const LstmParametersBox<double> moved = std::move(copy);
    CHECK(moved == box);
    const LstmParametersBox<double> empty;
    CHECK(empty.empty());
    CHECK(empty == LstmParametersBox<double>{});
    CHECK_FALSE(empty == box);
    CHECK(message_of([&] { (void)empty->window; }) == "lstm model state: parameters: empty (no weights)");
}

TEST_CASE("an LSTM's ForecasterState goes through the box: state_of, restore_forecaster, with_state") {
    const auto p = one_unit<double>({0, 0, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, 2.0, 1.0, 2);
    Lstm<double> model(p, "unit");
    const std::vector<double> y{0.5, -0.25, 1.0};
    model.fit(continuum::SeriesView(y));
    const AnyForecaster any = model;
    const ForecasterState s = state_of(any);
    REQUIRE(std::holds_alternative<LstmModelState<double>>(s));
    const auto& lstm_state = std::get<LstmModelState<double>>(s);
    CHECK(lstm_state.source == "unit");
    CHECK(lstm_state.state == model.state());
    CHECK(lstm_state.parameters == LstmParametersBox<double>(model.parameters()));  // the model fills in identity scaling
    CHECK(restore_forecaster(s).forecast(3).mean == model.forecast(3).mean);
    CHECK(with_state(AnyForecaster(Lstm<double>(p, "unit")), s).forecast(3).mean == model.forecast(3).mean);
    auto retrained = p;
    retrained.head[0].bias(0) = 1.5;
    CHECK(contains(message_of([&] { (void)with_state(AnyForecaster(Lstm<double>(retrained, "retrained")), s); }),
                   "differ from those of the configured model (retrained)"));
    CHECK(contains(message_of([&] { (void)with_state(AnyForecaster(Naive{}), s); }), "the state is of a lstm model"));
    const AnyForecaster as_float = Lstm<float>(one_unit<float>({0, 0, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, 2.0, 1.0, 2));
    CHECK(std::holds_alternative<LstmModelState<float>>(state_of(as_float)));
    CHECK_FALSE(AnyForecaster(Naive{}).lstm_model_state(nullptr, nullptr));
}
