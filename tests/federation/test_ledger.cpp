#include <continuum/federation/ledger.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <thread>

using namespace continuum;
using namespace continuum::federation;
using namespace std::chrono_literals;

namespace {
Offer offer(std::string id, std::string cpu, std::int64_t max_nodes = 1) {
    Offer o;
    o.cluster_id = std::move(id);
    o.capacity = Resources{{"cpu", cpu}, {"memory", "4Gi"}};
    o.max_nodes = max_nodes;
    return o;
}
Resources cpu(std::string amount) { return Resources{{"cpu", amount}}; }
}  // namespace

TEST_CASE("ledger: reserve, commit, release, expire") {
    const std::vector<Offer> offers = {offer("low-1", "2"), offer("high-1", "4", 2)};
    Ledger ledger(offers);
    CHECK(ledger.capacity("high-1") == Resources{{"cpu", "8"}, {"memory", "8Gi"}});
    const auto a = ledger.reserve("ca-1", "low-1", cpu("1500m"));
    CHECK(ledger.available("low-1") == Resources{{"cpu", "500m"}, {"memory", "4Gi"}});
    CHECK_FALSE(ledger.try_reserve("ca-2", "low-1", cpu("1")));
    CHECK_THROWS_WITH_AS(ledger.reserve("ca-2", "low-1", cpu("1")), "ledger: ca-2 cannot reserve {cpu: 1} of low-1: only {cpu: 500m, memory: 4Gi} is free", Infeasible);
    const auto b = ledger.reserve("ca-2", "low-1", cpu("500m"), Time{1min});
    ledger.commit(a);
    CHECK(ledger.expire(Time{30s}) == 0);
    CHECK(ledger.expire(Time{1min}) == 1);  // b expired, a is committed
    CHECK(ledger.held("low-1") == cpu("1500m"));
    CHECK_THROWS_AS(ledger.commit(b), InvalidArgument);
    ledger.release(a);
    CHECK(ledger.held("low-1").empty());
    CHECK_THROWS_AS(ledger.release(a), InvalidArgument);
    CHECK(ledger.audit().empty());
    CHECK(ledger.reservations().empty());

    CHECK_THROWS_AS(ledger.reserve("ca", "nope", cpu("1")), InvalidArgument);
    CHECK_THROWS_AS(ledger.reserve("", "low-1", cpu("1")), InvalidArgument);
    CHECK_THROWS_AS(ledger.reserve("ca", "low-1", Resources{}), InvalidArgument);
    CHECK_THROWS_AS(ledger.reserve("ca", "low-1", cpu("-1")), InvalidArgument);
    const auto c = ledger.reserve("ca", "high-1", cpu("6"));
    CHECK(ledger.reservations("ca").size() == 1);
    CHECK_THROWS_AS(ledger.set_capacity("high-1", cpu("4")), InvalidArgument);  // below what is held
    ledger.release(c);
    ledger.set_capacity("edge-1", Resources{{"cpu", "1"}, {"nvidia.com/gpu", "1"}});
    CHECK(ledger.try_reserve("ca", "edge-1", Resources{{"nvidia.com/gpu", "1"}}));
    CHECK_FALSE(ledger.try_reserve("ca", "edge-1", Resources{{"nvidia.com/gpu", "1"}}));
}

TEST_CASE("ledger: property - concurrent consumers never over-commit a provider") {
    const std::vector<Offer> offers = {offer("p0", "4"), offer("p1", "3"), offer("p2", "2500m")};
    Ledger ledger(offers);
    constexpr int consumers = 6;
    constexpr int operations = 3000;
    std::atomic<bool> stop{false};
    std::atomic<int> violations{0};
    std::atomic<long> granted{0};
    std::thread watcher([&] {
        while (!stop.load()) {
            for (const auto& o : offers) {
                if (!ledger.held(o.cluster_id).fits_in(ledger.capacity(o.cluster_id))) ++violations;
            }
            if (!ledger.audit().empty()) ++violations;
        }
    });
    std::vector<std::thread> threads;
    for (int t = 0; t < consumers; ++t) {
        threads.emplace_back([&, t] {
            std::uint64_t state = 1000 + static_cast<std::uint64_t>(t);
            const auto next = [&] {
                state = state * 6364136223846793005ULL + 1442695040888963407ULL;
                return state >> 33;
            };
            std::vector<ReservationId> mine;
            const std::string name = fmt::format("consumer-{}", t);
            for (int i = 0; i < operations; ++i) {
                const auto op = next() % 10;
                if (op < 5 || mine.empty()) {
                    const auto& o = offers[next() % offers.size()];
                    const auto amount = Resources::from_units({{"cpu", static_cast<std::int64_t>(100 + next() % 1500)}});
                    if (auto id = ledger.try_reserve(name, o.cluster_id, amount)) {
                        mine.push_back(*id);
                        ++granted;
                    }
                } else if (op < 7) {
                    ledger.commit(mine[next() % mine.size()]);
                } else {
                    const auto k = next() % mine.size();
                    ledger.release(mine[k]);
                    mine.erase(mine.begin() + static_cast<std::ptrdiff_t>(k));
                }
            }
            for (const auto id : mine) ledger.release(id);
        });
    }
    for (auto& t : threads) t.join();
    stop = true;
    watcher.join();
    CHECK(violations.load() == 0);
    CHECK(granted.load() > 1000);  // the ledger was really contended
    CHECK(ledger.audit().empty());
    for (const auto& o : offers) CHECK(ledger.held(o.cluster_id).empty());
}
