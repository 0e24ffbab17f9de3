// The README's C++ example: parse a pod request, size the nodes that cover a shortfall.
#include <continuum/continuum.hpp>

#include <fmt/core.h>

int main() {
    using continuum::Resources;
    const Resources pod{{"cpu", "250m"}, {"memory", "512Mi"}};
    const Resources node{{"cpu", "4"}, {"memory", "16Gi"}};
    const Resources demand = pod * 40;                     // 40 replicas
    const Resources forecast = Resources::from_cores(7.31); // a forecast enters rounded up: 7310m
    const auto nodes = continuum::ceil_div(max(demand, forecast), node);
    fmt::print("demand {} -> {} nodes of {}\n", demand, nodes, node);
    return nodes == 3 ? 0 : 1;
}
