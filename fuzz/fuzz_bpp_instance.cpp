// Fuzzes one-dimensional bin packing through BPPLIB instance files ("n", "capacity", then n item
// sizes, whitespace separated: the format of tests/fixtures/packing/bpp/). The library has no
// instance reader of its own, so the strict reader lives here; every instance it accepts goes
// through NF/FF/BF/NFD/FFD/BFD, L1, L2 and the exact solver (small node budget), and the packings
// must be valid (every item exactly once, no bin over capacity, oversize items reported) with
// L1 <= L2 <= exact lower bound <= exact bins <= min(FFD, BFD) bins.
#include "fuzz_target.hpp"
#include "fuzz_support.hpp"

#include <continuum/packing/exact.hpp>
#include <continuum/packing/lower_bounds.hpp>
#include <continuum/packing/one_dimensional.hpp>

#include <charconv>
#include <optional>
#include <string_view>

namespace {

using continuum::packing::Packing;

struct Instance {
    std::int64_t capacity = 0;
    std::vector<std::int64_t> sizes;
};

/// BPPLIB text -> instance; nullopt for anything that is not exactly n, c and n integers.
std::optional<Instance> read_bpplib(std::string_view text) {
    std::vector<std::int64_t> numbers;
    std::size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\r' || text[pos] == '\t')) ++pos;
        if (pos == text.size()) break;
        std::int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), value);
        if (ec != std::errc()) return std::nullopt;
        pos = static_cast<std::size_t>(ptr - text.data());
        numbers.push_back(value);
        if (numbers.size() > 302) return std::nullopt;  // keep each run fast
    }
    if (numbers.size() < 2 || numbers[0] < 0 || static_cast<std::size_t>(numbers[0]) != numbers.size() - 2) return std::nullopt;
    return Instance{numbers[1], std::vector<std::int64_t>(numbers.begin() + 2, numbers.end())};
}

template <typename Bins>
void check_valid(const Bins& bins, const std::vector<std::size_t>& unplaced, const Instance& inst) {
    std::vector<int> seen(inst.sizes.size(), 0);
    for (const auto& bin : bins) {
        CONTINUUM_FUZZ_CHECK(!bin.empty());
        __int128 load = 0;
        for (const auto i : bin) {
            CONTINUUM_FUZZ_CHECK(i < inst.sizes.size());
            ++seen[i];
            load += inst.sizes[i];
        }
        CONTINUUM_FUZZ_CHECK(load <= inst.capacity);
    }
    for (const auto i : unplaced) {
        CONTINUUM_FUZZ_CHECK(i < inst.sizes.size());
        CONTINUUM_FUZZ_CHECK(inst.sizes[i] > inst.capacity);
        ++seen[i];
    }
    for (std::size_t i = 0; i < seen.size(); ++i) CONTINUUM_FUZZ_CHECK(seen[i] == 1);
}

}  // namespace

CONTINUUM_FUZZ_TARGET(bpp_instance) {
    namespace packing = continuum::packing;
    const auto inst = read_bpplib(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!inst) return 0;
    try {
        const std::int64_t l1 = packing::l1_bound(inst->sizes, inst->capacity);
        const std::int64_t l2 = packing::l2_bound(inst->sizes, inst->capacity);
        CONTINUUM_FUZZ_CHECK(0 <= l1 && l1 <= l2);
        std::size_t best_heuristic = std::numeric_limits<std::size_t>::max();
        using Heuristic = Packing (*)(std::span<const std::int64_t>, std::int64_t);
        const Heuristic heuristics[] = {&packing::first_fit_decreasing, &packing::best_fit_decreasing, &packing::next_fit,
                                        &packing::first_fit, &packing::best_fit, &packing::next_fit_decreasing};
        for (std::size_t k = 0; k < std::size(heuristics); ++k) {
            const Packing p = heuristics[k](inst->sizes, inst->capacity);
            check_valid(p.bins, p.unplaced, *inst);
            CONTINUUM_FUZZ_CHECK(static_cast<std::int64_t>(p.num_bins()) >= l2);
            if (k < 2) best_heuristic = std::min(best_heuristic, p.num_bins());  // FFD, BFD
        }
        continuum::Budget budget;
        budget.node_limit = 2000;
        const auto exact = packing::solve_exact(inst->sizes, inst->capacity, budget);
        check_valid(exact.bins, exact.unplaced, *inst);
        CONTINUUM_FUZZ_CHECK(l2 <= exact.lower_bound);
        CONTINUUM_FUZZ_CHECK(exact.lower_bound <= static_cast<std::int64_t>(exact.num_bins()));
        CONTINUUM_FUZZ_CHECK(exact.num_bins() <= best_heuristic);
        CONTINUUM_FUZZ_CHECK(std::isfinite(exact.gap) && exact.gap >= 0.0 && exact.gap <= 1.0);
        if (exact.optimal) CONTINUUM_FUZZ_CHECK(exact.lower_bound == static_cast<std::int64_t>(exact.num_bins()));
    } catch (const continuum::InvalidArgument&) {
        // capacity <= 0, a size <= 0, or a sum beyond int64: documented rejections.
    }
    return 0;
}
