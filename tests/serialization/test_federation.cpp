// State of the federation area (Ledger, ScaleInTracker, FederatedClusterScaler): random runs saved
// at a random tick (through JSON), restored into a new object and continued give the same results
// as the run that never stopped; bad states and documents are rejected naming the field.
#include "state_testing.hpp"

#include <continuum/serialization/federation.hpp>

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

using namespace continuum;
using namespace continuum::federation;
using namespace std::chrono_literals;

namespace {

Offer offer(std::string id, std::int64_t cpu_millis, std::int64_t max_nodes = 1) {
    Offer o;
    o.cluster_id = std::move(id);
    o.capacity = Resources::from_units({{"cpu", cpu_millis}, {"memory", std::int64_t{4} << 30}});
    o.max_nodes = max_nodes;
    return o;
}

std::vector<Offer> three_offers() { return {offer("a", 4000), offer("b", 2000, 3), offer("c", 8000)}; }

/// One random ledger operation; returns a line describing its result, so two runs compare by text.
std::string ledger_step(Ledger& ledger, std::mt19937_64& rng, std::int64_t tick) {
    const char* ids[] = {"a", "b", "c"};
    const auto live = ledger.reservations();
    switch (rng() % 4) {
        case 0:
        case 1: {
            const std::string id = ids[rng() % 3];
            const auto amount = Resources::from_units({{"cpu", static_cast<std::int64_t>(100 + rng() % 2000)}});
            const std::optional<Time> expires = rng() % 2 ? std::optional<Time>(Time{(tick + 3) * 1000}) : std::nullopt;
            const auto r = ledger.try_reserve(fmt::format("consumer-{}", rng() % 3), id, amount, expires);
            return r ? fmt::format("reserved {}", *r) : "full";
        }
        case 2:
            if (live.empty()) return "none";
            ledger.commit(live[rng() % live.size()].id);
            return "committed";
        default:
            if (!live.empty() && rng() % 2) {
                ledger.release(live[rng() % live.size()].id);
                return "released";
            }
            return fmt::format("expired {}", ledger.expire(Time{tick * 1000}));
    }
}

std::string ledger_view(const Ledger& ledger) {
    std::string out;
    for (const auto& id : ledger.providers()) out += fmt::format("{}:{}/{};", id, ledger.held(id), ledger.available(id));
    return out + fmt::format("{}", ledger.reservations().size());
}

VirtualNode node(std::string name, std::int64_t cpu_millis, std::int64_t used_millis) {
    VirtualNode n;
    n.name = std::move(name);
    n.cluster_id = "a";
    n.allocatable = Resources::from_units({{"cpu", cpu_millis}, {"memory", std::int64_t{8} << 30}, {"pods", 110}});
    if (used_millis > 0) n.pods.push_back({n.name + "-pod", Resources::from_units({{"cpu", used_millis}}), true});
    return n;
}

std::vector<VirtualNode> random_nodes(std::mt19937_64& rng) {
    std::vector<VirtualNode> nodes;
    for (int i = 0; i < 5; ++i) nodes.push_back(node(fmt::format("n{}", i), 4000, static_cast<std::int64_t>(rng() % 4) * 700));
    return nodes;
}

std::string describe(const ScaleInDecision& d) {
    std::string out = d.reason;
    for (const auto& n : d.nodes) out += fmt::format("|{}:{}:{}", n.node, n.unneeded_for.count(), n.released);
    return out;
}

}  // namespace

TEST_CASE("ledger state: a restored ledger continues exactly as the uninterrupted one") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        std::mt19937_64 rng_a(seed), rng_b(seed);
        const auto offers = three_offers();
        Ledger uninterrupted(offers);
        Ledger first_half(offers);
        const std::int64_t ticks = 60;
        const std::int64_t stop = static_cast<std::int64_t>(seed * 7 % ticks);
        for (std::int64_t t = 0; t < stop; ++t) {
            CHECK(ledger_step(uninterrupted, rng_a, t) == ledger_step(first_half, rng_b, t));
        }
        const LedgerState saved = testing::through_json(first_half.state());
        Ledger restored = Ledger::restore(offers, saved);
        CHECK(restored.state() == saved);
        CHECK(restored.audit().empty());
        for (std::int64_t t = stop; t < ticks; ++t) {
            CHECK(ledger_step(uninterrupted, rng_a, t) == ledger_step(restored, rng_b, t));
            CHECK(ledger_view(uninterrupted) == ledger_view(restored));
        }
        CHECK(uninterrupted.state() == restored.state());
    }
}

TEST_CASE("ledger state: ids are never reused after a restore, held is recomputed") {
    Ledger ledger(three_offers());
    const auto first = ledger.reserve("x", "a", Resources::from_units({{"cpu", 1000}}));
    ledger.release(first);
    const auto second = ledger.reserve("x", "b", Resources::from_units({{"cpu", 1500}}), Time{5s});
    ledger.commit(second);
    const Ledger restored(ledger.state());
    CHECK(restored.held("b") == Resources::from_units({{"cpu", 1500}}));
    CHECK(restored.reservations().front().state == ReservationState::committed);
    CHECK(restored.reservations().front().expires_at == Time{5s});
    Ledger copy(ledger.state());
    CHECK(copy.reserve("y", "a", Resources::from_units({{"cpu", 1}})) == 3);
    CHECK(serialization::to_json(ledger.state())["schema"] == "continuum.Ledger");
}

TEST_CASE("ledger state: bad states are rejected naming the field, and nothing is kept") {
    Ledger ledger(three_offers());
    (void)ledger.reserve("x", "a", Resources::from_units({{"cpu", 3000}}));
    const LedgerState good = ledger.state();

    auto bad = good;
    bad.reservations[0].id = 7;
    CHECK_THROWS_WITH_AS(Ledger{bad}, "ledger restore: reservations[0].id = 7 is not in [1, last_id = 1]", InvalidArgument);
    bad = good;
    bad.reservations[0].cluster_id = "zz";
    CHECK_THROWS_WITH_AS(Ledger{bad}, "ledger restore: reservations[0].cluster_id \"zz\" is not a provider", InvalidArgument);
    bad = good;
    bad.providers[0].capacity = Resources::from_units({{"cpu", 1000}});
    CHECK_THROWS_WITH_AS(Ledger{bad}, "ledger restore: the reservations of provider a hold {cpu: 3}, beyond its capacity {cpu: 1}", InvalidArgument);
    bad = good;
    bad.providers.push_back(bad.providers[0]);
    CHECK_THROWS_WITH_AS(Ledger{bad}, "ledger restore: providers[3].cluster_id \"a\" appears twice", InvalidArgument);
    bad = good;
    bad.reservations[0].consumer.clear();
    CHECK_THROWS_WITH_AS(Ledger{bad}, "ledger restore: reservations[0].consumer is empty", InvalidArgument);

    const std::vector<Offer> other = {offer("a", 4000), offer("b", 2000, 3), offer("d", 8000)};
    CHECK_THROWS_WITH_AS(Ledger::restore(other, good), "ledger restore: state.providers lacks offer \"d\" of the configuration", InvalidArgument);
    const std::vector<Offer> fewer = {offer("a", 4000), offer("b", 2000, 3)};
    CHECK_THROWS_WITH_AS(Ledger::restore(fewer, good), "ledger restore: state.providers[2] \"c\" is not one of the configuration's offers", InvalidArgument);
}

TEST_CASE("ledger state: documents with a wrong schema, version, field or type are ParseErrors naming the path") {
    Ledger ledger(three_offers());
    (void)ledger.reserve("x", "a", Resources::from_units({{"cpu", 3000}}));
    const auto doc = serialization::to_json(ledger.state());
    using serialization::from_json;
    auto bad = doc;
    bad["version"] = 2;
    CHECK_THROWS_WITH_AS(from_json<LedgerState>(bad), "state document: $.version: unsupported version 2 of continuum.Ledger (this build reads version 1)", ParseError);
    bad = doc;
    bad["schema"] = "continuum.Hpa";
    CHECK_THROWS_WITH_AS(from_json<LedgerState>(bad), "state document: $.schema: expected \"continuum.Ledger\", got \"continuum.Hpa\"", ParseError);
    bad = doc;
    bad["reservations"][0].erase("consumer");
    CHECK_THROWS_WITH_AS(from_json<LedgerState>(bad), "state document: $.reservations[0].consumer: missing field", ParseError);
    bad = doc;
    bad["reservations"][0]["amount"]["cpu"] = "3";
    CHECK_THROWS_WITH_AS(from_json<LedgerState>(bad), "state document: $.reservations[0].amount.cpu: expected an integer, got string", ParseError);
    bad = doc;
    bad["reservations"][0]["state"] = "pending";
    CHECK_THROWS_WITH_AS(from_json<LedgerState>(bad), "state document: $.reservations[0].state: unknown value \"pending\"", ParseError);
    bad = doc;
    bad["last_id"] = -1;
    CHECK_THROWS_WITH_AS(from_json<LedgerState>(bad), "state document: $.last_id: -1 is negative", ParseError);
    CHECK_THROWS_AS(serialization::parse<LedgerState>("{\"schema\": "), ParseError);
    CHECK_THROWS_WITH_AS(serialization::parse<LedgerState>("[1]"), "state document: $: expected an object, got array", ParseError);
}

TEST_CASE("scale-in state: a restored tracker continues exactly as the uninterrupted one") {
    ScaleInOptions options;
    options.unneeded_time = 3min;
    options.delay_after_add = 2min;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        std::mt19937_64 rng_a(seed), rng_b(seed);
        FederatedClusterScaler uninterrupted({}, options);
        FederatedClusterScaler first_half({}, options);
        const int ticks = 40;
        const int stop = static_cast<int>(seed * 3 % ticks);
        const auto step = [](FederatedClusterScaler& s, std::mt19937_64& rng, int t) {
            const auto nodes = random_nodes(rng);
            if (rng() % 9 == 0) s.observe_scale_out(Time{std::chrono::minutes(t)});
            return describe(s.scale_in(nodes, Time{std::chrono::minutes(t)}));
        };
        for (int t = 0; t < stop; ++t) CHECK(step(uninterrupted, rng_a, t) == step(first_half, rng_b, t));
        const auto saved = testing::through_json(first_half.state());
        FederatedClusterScaler restored({}, options, saved);
        CHECK(restored.state() == saved);
        for (int t = stop; t < ticks; ++t) CHECK(step(uninterrupted, rng_a, t) == step(restored, rng_b, t));
        CHECK(restored.state() == uninterrupted.state());
    }
}

TEST_CASE("scale-in state: bad states are rejected naming the field") {
    ScaleInTrackerState s;
    s.unneeded_since["n1"] = Time{5min};
    CHECK_THROWS_WITH_AS(ScaleInTracker({}, s), "scale-in restore: state.unneeded_since[\"n1\"] = 300000 ms is not before state.last_decision", InvalidArgument);
    s.last_decision = Time{6min};
    const ScaleInTracker ok({}, s);
    CHECK(ok.unneeded_since("n1") == Time{5min});
    s.unneeded_since[""] = Time{1min};
    CHECK_THROWS_WITH_AS(ScaleInTracker({}, s), "scale-in restore: state.unneeded_since has an empty node name", InvalidArgument);
    auto doc = serialization::to_json(FederatedClusterScalerState{ok.state()});
    doc["scale_in"]["unneeded_since"]["n1"] = 1.5;
    CHECK_THROWS_WITH_AS(serialization::from_json<FederatedClusterScalerState>(doc),
                         "state document: $.scale_in.unneeded_since.n1: expected an integer, got number", ParseError);
}
