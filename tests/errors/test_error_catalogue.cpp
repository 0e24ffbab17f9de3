// One test per row of docs/errors.md: the public function, the bad input, and the exact exception
// type it must produce (checked with CHECK_THROWS_AS on the most derived documented type, and that
// it is not a more derived one where it matters: ParseError derives from InvalidArgument).
// Row ids (E01, ...) match the catalogue.
#include <continuum/capacity/activation.hpp>
#include <continuum/capacity/required_nodes.hpp>
#include <continuum/capacity/shortfall.hpp>
#include <continuum/core/budget.hpp>
#include <continuum/core/quantity.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/series.hpp>
#include <continuum/federation/expander_chain.hpp>
#include <continuum/federation/ledger.hpp>
#include <continuum/federation/selector.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/forecast/naive.hpp>
#include <continuum/packing/consolidation.hpp>
#include <continuum/packing/exact.hpp>
#include <continuum/packing/lower_bounds.hpp>
#include <continuum/packing/node_types.hpp>
#include <continuum/packing/one_dimensional.hpp>
#include <continuum/packing/vector_heuristics.hpp>
#include <continuum/quota/levels.hpp>
#include <continuum/quota/reactive.hpp>
#include <continuum/scalers/hpa.hpp>
#include <continuum/sim/load_profile.hpp>
#if CONTINUUM_HAVE_NLOHMANN_JSON
#include <continuum/forecast/lstm_loader.hpp>
#endif
#if CONTINUUM_HAVE_PRIORITY_CONFIG
#include <continuum/federation/priority_config.hpp>
#endif

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

using namespace continuum;

/// Throws exactly an InvalidArgument (not its ParseError subclass).
#define CHECK_THROWS_INVALID_ARGUMENT_ONLY(...)                                    \
    do {                                                                           \
        bool caught = false;                                                       \
        try {                                                                      \
            (void)(__VA_ARGS__);                                                   \
        } catch (const ParseError&) {                                              \
            FAIL("ParseError where a plain InvalidArgument is documented");       \
            caught = true;                                                         \
        } catch (const InvalidArgument&) {                                         \
            caught = true;                                                         \
        }                                                                          \
        CHECK(caught);                                                             \
    } while (0)

namespace {
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double infinity = std::numeric_limits<double>::infinity();
Resources cpu(std::int64_t millis) { return Resources::from_units({{"cpu", millis}}); }
}  // namespace

// ---- core ----
TEST_CASE("E01 Quantity::parse: malformed text -> ParseError") { CHECK_THROWS_AS((void)Quantity::parse("1.5.3Gi"), ParseError); }
TEST_CASE("E02 Quantity::parse: empty text -> ParseError") { CHECK_THROWS_AS((void)Quantity::parse(""), ParseError); }
TEST_CASE("E03 Quantity::parse: unknown suffix -> ParseError") { CHECK_THROWS_AS((void)Quantity::parse("5Gb"), ParseError); }
TEST_CASE("E04 Quantity::parse: beyond int64 -> ParseError") { CHECK_THROWS_AS((void)Quantity::parse("9223372036854775808"), ParseError); }
TEST_CASE("E05 parse_quantity: scaled value beyond int64 -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(parse_quantity("9223372036854775807", scale::milli));
}
TEST_CASE("E06 Resources{...}: malformed quantity -> ParseError") { CHECK_THROWS_AS((Resources{{"cpu", "two"}}), ParseError); }
TEST_CASE("E07 Resources{...}: duplicate name -> InvalidArgument") { CHECK_THROWS_INVALID_ARGUMENT_ONLY((Resources{{"cpu", "1"}, {"cpu", "2"}})); }
TEST_CASE("E08 Resources::from_units: empty name -> InvalidArgument") { CHECK_THROWS_INVALID_ARGUMENT_ONLY(Resources::from_units({{"", 1}})); }
TEST_CASE("E09 Resources::from_forecast: NaN -> InvalidArgument") { CHECK_THROWS_INVALID_ARGUMENT_ONLY(Resources::from_forecast("cpu", not_a_number)); }
TEST_CASE("E10 Resources::from_forecast: infinity -> InvalidArgument") { CHECK_THROWS_INVALID_ARGUMENT_ONLY(Resources::from_cores(infinity)); }
TEST_CASE("E11 Resources::from_forecast: negative -> InvalidArgument") { CHECK_THROWS_INVALID_ARGUMENT_ONLY(Resources::from_cores(-0.5)); }
TEST_CASE("E12 Resources::from_forecast: beyond int64 -> InvalidArgument") { CHECK_THROWS_INVALID_ARGUMENT_ONLY(Resources::from_cores(1e17)); }
TEST_CASE("E13 Resources operator+ / add: int64 overflow -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(cpu(std::numeric_limits<std::int64_t>::max()) + cpu(1));
}
TEST_CASE("E14 Resources operator*: overflow -> InvalidArgument") { CHECK_THROWS_INVALID_ARGUMENT_ONLY(cpu(std::int64_t{1} << 62) * 4); }
TEST_CASE("E15 SeriesView / Series: NaN value -> InvalidArgument") { CHECK_THROWS_INVALID_ARGUMENT_ONLY(Series(std::vector<double>{1.0, not_a_number})); }
TEST_CASE("E16 SeriesView / Series: step <= 0 -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(Series(std::vector<double>{1.0}, std::chrono::milliseconds(0)));
}
TEST_CASE("E17 Series::push_back: infinite value -> InvalidArgument") {
    Series s;
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(s.push_back(infinity));
}
TEST_CASE("E18 Budget::validate: node_limit < 1 -> InvalidArgument") { CHECK_THROWS_INVALID_ARGUMENT_ONLY((Budget{0, std::nullopt}.validate(), 0)); }
TEST_CASE("E19 Budget::validate: negative time_limit -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY((Budget{1, std::chrono::milliseconds(-1)}.validate(), 0));
}

// ---- forecast ----
TEST_CASE("E20 HoltWinters(spec): season_length < 2 -> InvalidArgument") {
    forecast::HoltWintersSpec spec;
    spec.season_length = 1;
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(forecast::HoltWinters<double>(spec));
}
TEST_CASE("E21 HoltWinters(spec): damped without trend -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(forecast::HoltWinters<double>(forecast::HoltWintersSpec{forecast::Trend::none, true, forecast::Seasonality::none, 2}));
}
TEST_CASE("E22 HoltWinters::fit: shorter than two seasons -> InvalidArgument") {
    forecast::HoltWinters<double> model;  // additive season of 24
    CHECK_THROWS_INVALID_ARGUMENT_ONLY((model.fit(Series(std::vector<double>(30, 1.0))), 0));
}
TEST_CASE("E23 HoltWinters::fit: non-positive data with a multiplicative season -> InvalidArgument") {
    forecast::HoltWinters<double> model(forecast::HoltWintersSpec{forecast::Trend::none, false, forecast::Seasonality::multiplicative, 2});
    CHECK_THROWS_INVALID_ARGUMENT_ONLY((model.fit(Series(std::vector<double>{1, 0, 1, 2, 1, 2})), 0));
}
TEST_CASE("E24 HoltWinters::forecast: before fit -> InvalidArgument") {
    const forecast::HoltWinters<double> model;
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(model.forecast(1));
}
TEST_CASE("E25 Forecaster::forecast: horizon < 1 -> InvalidArgument") {
    forecast::Naive model;
    model.fit(Series(std::vector<double>{1, 2, 3}));
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(model.forecast(0));
}
TEST_CASE("E26 Forecaster::forecast: level outside {0} U (0, 1) -> InvalidArgument") {
    forecast::Naive model;
    model.fit(Series(std::vector<double>{1, 2, 3}));
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(model.forecast(1, 1.0));
}
TEST_CASE("E27 Forecaster::update: non-finite value -> InvalidArgument") {
    forecast::Naive model;
    model.fit(Series(std::vector<double>{1, 2, 3}));
    CHECK_THROWS_INVALID_ARGUMENT_ONLY((model.update(not_a_number), 0));
}
#if CONTINUUM_HAVE_NLOHMANN_JSON
TEST_CASE("E28 parse_lstm: truncated bytes -> ParseError") {
    const std::array<std::byte, 4> bytes{};
    CHECK_THROWS_AS((void)forecast::parse_lstm<float>(bytes), ParseError);
}
TEST_CASE("E29 parse_lstm: header JSON that does not parse -> ParseError") {
    std::vector<std::byte> bytes(8 + 5);
    bytes[0] = std::byte{5};
    for (std::size_t i = 0; i < 5; ++i) bytes[8 + i] = std::byte{'{'};
    CHECK_THROWS_AS((void)forecast::parse_lstm<float>(bytes), ParseError);
}
TEST_CASE("E30 load_lstm: file that cannot be opened -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(forecast::load_lstm<float>("/nonexistent/weights.safetensors"));
}
#endif

// ---- capacity and quota ----
TEST_CASE("E31 shortfall: negative amount -> InvalidArgument") { CHECK_THROWS_INVALID_ARGUMENT_ONLY(capacity::shortfall(cpu(-1), cpu(1))); }
TEST_CASE("E32 required_nodes: resource the node lacks -> Infeasible") {
    CHECK_THROWS_AS((void)capacity::required_nodes(Resources::from_units({{"nvidia.com/gpu", 1}}), cpu(4000)), Infeasible);
}
TEST_CASE("E33 validate_pool / choose_nodes_to_activate: duplicate node name -> InvalidArgument") {
    const std::vector<capacity::WaitingNode> pool{{"a", cpu(1000), {}, 0.0}, {"a", cpu(1000), {}, 0.0}};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(capacity::choose_nodes_to_activate(cpu(500), pool));
}
TEST_CASE("E34 validate_pool: negative or NaN cost -> InvalidArgument") {
    const std::vector<capacity::WaitingNode> pool{{"a", cpu(1000), {}, not_a_number}};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY((capacity::validate_pool(pool), 0));
}
TEST_CASE("E35 QuotaLevels: empty or not strictly increasing -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(quota::QuotaLevels(std::vector<std::int64_t>{}));
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(quota::QuotaLevels(std::vector<std::int64_t>{20, 10}));
}
TEST_CASE("E36 QuotaLevels::parse: malformed quantity -> ParseError") { CHECK_THROWS_AS((void)quota::QuotaLevels::parse("cpu", {"20", "x"}), ParseError); }
TEST_CASE("E37 QuotaLevels::snap_up: above the top level -> Infeasible") {
    CHECK_THROWS_AS((void)quota::QuotaLevels(std::vector<std::int64_t>{10, 20}).snap_up(21), Infeasible);
}
TEST_CASE("E38 QuotaLevels::snap_up: negative value -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(quota::QuotaLevels(std::vector<std::int64_t>{10, 20}).snap_up(-1));
}
TEST_CASE("E39 reactive_quota_step: negative request -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(quota::reactive_quota_step(quota::ReactiveSnapshot{cpu(-1), cpu(1), cpu(1), {}}));
}

// ---- packing ----
TEST_CASE("E40 1-D heuristics (next/first/best fit[ decreasing]): capacity <= 0 -> InvalidArgument") {
    const std::vector<std::int64_t> sizes{1};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(packing::first_fit_decreasing(sizes, 0));
}
TEST_CASE("E41 1-D heuristics: a size <= 0 -> InvalidArgument") {
    const std::vector<std::int64_t> sizes{3, 0};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(packing::best_fit(sizes, 10));
}
TEST_CASE("E42 l1_bound / l2_bound / solve_exact (1-D): sum beyond int64 -> InvalidArgument") {
    const std::vector<std::int64_t> sizes{std::numeric_limits<std::int64_t>::max(), 1};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(packing::l1_bound(sizes, std::numeric_limits<std::int64_t>::max()));
}
TEST_CASE("E43 vector heuristics / lower_bound / solve_exact: all-zero item -> InvalidArgument") {
    const std::vector<Resources> items{Resources{}};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(packing::first_fit_decreasing(items, cpu(1000)));
}
TEST_CASE("E44 vector heuristics: capacity with a negative amount -> InvalidArgument") {
    const std::vector<Resources> items{cpu(1)};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(packing::solve_exact(items, cpu(-1)));
}
TEST_CASE("E45 solve_exact: invalid budget -> InvalidArgument") {
    const std::vector<std::int64_t> sizes{1};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(packing::solve_exact(sizes, 10, Budget{0, std::nullopt}));
}
TEST_CASE("E46 cheapest_node_mix: no node types -> InvalidArgument") {
    const std::vector<Resources> items{cpu(1)};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(packing::cheapest_node_mix(items, std::span<const packing::NodeType>{}));
}
TEST_CASE("E47 cheapest_node_mix: NaN cost -> InvalidArgument") {
    const std::vector<Resources> items{cpu(1)};
    const std::vector<packing::NodeType> types{{"t", cpu(10), not_a_number, packing::unlimited}};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(packing::cheapest_node_mix(items, types));
}
TEST_CASE("E48 plan_consolidation: duplicate node names -> InvalidArgument") {
    const std::vector<packing::NodeState> nodes{{"n", cpu(10), 1.0, {}}, {"n", cpu(10), 1.0, {}}};
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(packing::plan_consolidation(nodes));
}

// ---- federation ----
TEST_CASE("E49 LabelSelector::parse: malformed selector -> ParseError") { CHECK_THROWS_AS((void)federation::parse_label_selector("zone in (a,"), ParseError); }
TEST_CASE("E50 LabelSelector::validate: Gt with a non-integer -> InvalidArgument") {
    federation::LabelSelector s;
    s.match_expressions.push_back({"size", federation::SelectorOperator::gt, {"big"}});
    CHECK_THROWS_INVALID_ARGUMENT_ONLY((s.validate(), 0));
}
TEST_CASE("E51 ExpanderChain::parse: unknown expander -> ParseError") { CHECK_THROWS_AS((void)federation::ExpanderChain::parse("cheapest"), ParseError); }
TEST_CASE("E52 ExpanderChain: repeated expander or random not last -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(federation::ExpanderChain::parse("random,price"));
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(federation::ExpanderChain({federation::ExpanderKind::price, federation::ExpanderKind::price}));
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(federation::ExpanderChain(std::vector<federation::ExpanderKind>{}));
}
#if CONTINUUM_HAVE_PRIORITY_CONFIG
TEST_CASE("E53 PriorityTiers::parse: malformed YAML, not a mapping of integer to patterns, a pattern RE2 rejects -> ParseError") {
    CHECK_THROWS_AS((void)federation::PriorityTiers::parse("- .*\n"), ParseError);
    CHECK_THROWS_AS((void)federation::PriorityTiers::parse("10:\n  - \"[a-\"\n"), ParseError);
    CHECK_THROWS_AS((void)federation::PriorityTiers::parse("10:\n  - (a)\\1\n"), ParseError);
}
#else
TEST_CASE("E53 PriorityTiers::parse: skipped, yaml-cpp or RE2 not found" * doctest::skip()) {}
#endif
TEST_CASE("E54 PricingModel::linear: negative or non-finite rate -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(federation::PricingModel::linear(-1.0, 0.0));
}
TEST_CASE("E55 ExpanderChain::choose: option with negative node_count -> InvalidArgument") {
    std::vector<federation::ExpansionOption> options(1);
    options[0].node_group = "g";
    options[0].node_count = -1;
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(federation::ExpanderChain::parse("most-pods").choose(options, {}));
}
TEST_CASE("E56 Ledger::reserve: does not fit -> Infeasible, unknown provider -> InvalidArgument") {
    federation::Ledger ledger;
    ledger.set_capacity("a", cpu(1000));
    CHECK_THROWS_AS((void)ledger.reserve("c", "a", cpu(2000)), Infeasible);
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(ledger.reserve("c", "missing", cpu(1)));
}
TEST_CASE("E57 Ledger::set_capacity: below what is held -> InvalidArgument") {
    federation::Ledger ledger;
    ledger.set_capacity("a", cpu(1000));
    (void)ledger.reserve("c", "a", cpu(800));
    CHECK_THROWS_INVALID_ARGUMENT_ONLY((ledger.set_capacity("a", cpu(500)), 0));
}
TEST_CASE("E58 Ledger::release: unknown or released id -> InvalidArgument") {
    federation::Ledger ledger;
    ledger.set_capacity("a", cpu(1000));
    const auto id = ledger.reserve("c", "a", cpu(1));
    ledger.release(id);
    CHECK_THROWS_INVALID_ARGUMENT_ONLY((ledger.release(id), 0));
}

// ---- scalers ----
TEST_CASE("E59 Hpa(spec): max < min or no metrics -> InvalidArgument") {
    scalers::HpaSpec spec;
    spec.metrics.emplace_back();
    spec.min_replicas = 5;
    spec.max_replicas = 4;
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(scalers::Hpa(spec));
    spec.max_replicas = 5;
    spec.metrics.clear();
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(scalers::Hpa(spec));
}
TEST_CASE("E60 Hpa::decide: time going backwards or negative counts -> InvalidArgument") {
    scalers::HpaSpec spec;
    spec.metrics.emplace_back();
    scalers::Hpa hpa(spec);
    (void)hpa.decide(scalers::ScaleTargetState{}, Time(std::chrono::seconds(30)));
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(hpa.decide(scalers::ScaleTargetState{}, Time(std::chrono::seconds(15))));
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(hpa.decide(scalers::ScaleTargetState{-1, 1, 1}, Time(std::chrono::seconds(45))));
}

// ---- sim ----
TEST_CASE("E61 load_csv_column: missing file -> InvalidArgument, missing column, non-numeric or NaN cell -> ParseError") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(sim::load_csv_column("/nonexistent/trace.csv", "", std::chrono::seconds(30)));
    const std::string path = (std::filesystem::temp_directory_path() / "continuum-errors-catalogue-trace.csv").string();
    const auto write = [&](const char* text) { std::ofstream(path) << text; };
    write("value\n1\n");
    CHECK_THROWS_AS((void)sim::load_csv_column(path, "cpu", std::chrono::seconds(30)), ParseError);
    write("value\n1\nabc\n");
    CHECK_THROWS_AS((void)sim::load_csv_column(path, "value", std::chrono::seconds(30)), ParseError);
    write("value\nnan\n");
    CHECK_THROWS_AS((void)sim::load_csv_column(path, "value", std::chrono::seconds(30)), ParseError);
    std::remove(path.c_str());
}
TEST_CASE("E62 LoadProfile::sample / from_samples: step <= 0 or no samples -> InvalidArgument") {
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(sim::LoadProfile::from_samples({}, std::chrono::seconds(1)));
    CHECK_THROWS_INVALID_ARGUMENT_ONLY(sim::LoadProfile::from_samples({1.0}, std::chrono::seconds(1)).sample(std::chrono::seconds(0)));
}
