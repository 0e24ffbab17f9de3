// docs/core.md: quantities and resources.
#include <continuum/core.hpp>

#include <fmt/core.h>

#include "check.hpp"

int main() {
    using namespace continuum;

    // Kubernetes quantities, parsed exactly as apimachinery does.
    CHECK(Quantity::parse("1.5Gi").to_string() == "1536Mi");
    CHECK(Quantity::parse("1.5").to_string() == "1500m");
    CHECK(Quantity::parse("0.0001").milli_value() == 1);  // rounded away from zero
    CHECK(parse_quantity("250m", scale::milli) == 250);
    CHECK(format_quantity(1610612736, scale::unit, QuantityFormat::binary_si) == "1536Mi");
    // Ordering and exact arithmetic, as resource.Quantity's Cmp, Add, Mul, RoundUp and MarshalJSON.
    const Quantity request = Quantity::parse("250m") * 3 + Quantity::parse("0.5");
    CHECK(request.to_string() == "1250m");
    CHECK(request < Quantity::parse("2"));
    CHECK(Quantity::parse("9.01").round_up(scale::unit).quantity.to_string() == "10");
    CHECK(Quantity::parse("1Mi").to_json() == "\"1Mi\"");

    // Resources: exact, sparse, canonical units (millicores, bytes, counts).
    const Resources node{{"cpu", "4"}, {"memory", "16Gi"}};
    const Resources pod{{"cpu", "250m"}, {"memory", "512Mi"}};
    const auto nodes = ceil_div(pod * 40, node);       // max over resources of the per-resource ceil
    const double share = dominant_share(pod, node);
    const auto forecast = Resources::from_cores(2.31);  // the one door from doubles, rounding up
    fmt::print("pod {} fits: {}, 40 pods need {} nodes, dominant share {}, 2.31 cores = {}m\n",
               pod, pod.fits_in(node), nodes, share, forecast.cpu_millis());
    CHECK(pod.fits_in(node));
    CHECK(nodes == 3);
    CHECK(share == 0.0625);
    CHECK(forecast.cpu_millis() == 2310);
    CHECK(fmt::format("{}", pod) == "{cpu: 250m, memory: 512Mi}");

    // Bad input throws a continuum::Error naming the value.
    try {
        (void)Quantity::parse("5Zi");
        return 1;
    } catch (const ParseError& e) {
        fmt::print("ParseError: {}\n", e.what());
    }
    return 0;
}
