// docs/getting-started.md: the first decision, how many nodes 40 pods need.
#include <continuum/continuum.hpp>

#include <fmt/core.h>

int main() {
    const continuum::Resources pod{{"cpu", "250m"}, {"memory", "512Mi"}};
    const continuum::Resources node{{"cpu", "4"}, {"memory", "16Gi"}};
    const auto nodes = continuum::ceil_div(pod * 40, node);  // cpu 10 / 4 -> 3, memory 20Gi / 16Gi -> 2: max 3
    fmt::print("40 x {} need {} nodes of {}\n", pod, nodes, node);
    return nodes == 3 ? 0 : 1;
}
