// docs/capacity.md: how much is missing, how many new nodes cover it, and which waiting
// (hibernated) nodes to wake for each objective.
#include <continuum/capacity.hpp>

#include <chrono>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "check.hpp"

int main() {
    using namespace continuum;
    using std::chrono::seconds;

    const Resources required{{"cpu", "15"}, {"memory", "40Gi"}};
    const Resources available{{"cpu", "8"}, {"memory", "48Gi"}};
    const Resources missing = capacity::shortfall(required, available);  // only what is short
    const auto nodes = capacity::required_nodes(missing, Resources{{"cpu", "4"}, {"memory", "16Gi"}});
    fmt::print("shortfall {} -> {} new nodes\n", missing, nodes);
    CHECK(missing == (Resources{{"cpu", "7"}}));
    CHECK(nodes == 2);

    const std::vector<capacity::WaitingNode> pool{
        {"small-a", Resources{{"cpu", "4"}, {"memory", "16Gi"}}, seconds(10), 1.0},
        {"small-b", Resources{{"cpu", "4"}, {"memory", "16Gi"}}, seconds(10), 1.0},
        {"big", Resources{{"cpu", "8"}, {"memory", "32Gi"}}, seconds(40), 2.5}};
    const Resources need{{"cpu", "8"}};
    const auto fewest = capacity::choose_nodes_to_activate(need, pool);  // fewest_nodes by default
    const auto cheap = capacity::choose_nodes_to_activate(need, pool, capacity::ActivationObjective::cheapest);
    const auto fast = capacity::choose_nodes_to_activate(need, pool, capacity::ActivationObjective::fastest);
    fmt::print("fewest {} | cheapest {} (cost {}) | fastest {} ({} s)\n", fewest.names, cheap.names, cheap.cost,
               fast.names, std::chrono::duration_cast<seconds>(fast.resume_latency).count());
    CHECK(fewest.names == std::vector<std::string>{"big"} && fewest.optimal);
    CHECK((cheap.names == std::vector<std::string>{"small-a", "small-b"}) && cheap.cost == 2.0);
    CHECK(fast.names == cheap.names && fast.resume_latency == seconds(10));

    // More than the whole pool: the plan wakes everything and says what is still missing.
    const auto short_plan = capacity::choose_nodes_to_activate(Resources{{"cpu", "20"}}, pool);
    fmt::print("20 cpu: covers {}, still missing {}: {}\n", short_plan.covers(), short_plan.still_missing,
               short_plan.reason);
    CHECK(!short_plan.covers() && short_plan.count() == 3);
    CHECK(short_plan.still_missing == (Resources{{"cpu", "4"}}));
}
