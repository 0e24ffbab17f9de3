// Built by CI against an installed prefix, once through find_package and once through pkg-config.
#include <continuum/continuum.hpp>

#include <fmt/core.h>

int main() {
    const continuum::Resources pod{{"cpu", "250m"}, {"memory", "512Mi"}};
    const continuum::Resources node{{"cpu", "4"}, {"memory", "16Gi"}};
    const auto nodes = continuum::ceil_div(pod * 40, node);
    fmt::print("continuum {}: 40 pods of {} need {} nodes of {}\n", continuum::version_string, pod, nodes, node);
    return nodes == 3 ? 0 : 1;
}
