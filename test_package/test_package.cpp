// The smallest real use of continuum: parse Kubernetes quantities and size a node count.
#include <continuum/continuum.hpp>

#include <fmt/core.h>

int main() {
    const continuum::Resources demand{{"cpu", "10"}, {"memory", "9Gi"}};
    const continuum::Resources node{{"cpu", "4"}, {"memory", "8Gi"}};
    const auto nodes = continuum::ceil_div(demand, node);
    fmt::print("continuum {}: {} needs {} nodes of {}\n", continuum::version_string, demand, nodes, node);
    return nodes == 3 ? 0 : 1;
}
