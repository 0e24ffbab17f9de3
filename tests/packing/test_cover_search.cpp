#include <continuum/packing/detail/cover_search.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <vector>

namespace {

using continuum::packing::detail::CoverSearch;
using continuum::packing::detail::SparsePattern;

/// The plainest cover on the engine: candidate bins, no reduced costs, no further vectors, the
/// children in the bins' order, the types scanned by index, and a node cap.
class PlainCover : private CoverSearch<PlainCover> {
    using Base = CoverSearch<PlainCover>;
    friend Base;

public:
    PlainCover(std::vector<std::int64_t> weight, std::vector<std::int64_t> demand, std::int64_t capacity, std::vector<SparsePattern> bins, std::int64_t node_cap)
        : Base(std::move(weight), std::move(demand), capacity), node_cap_(node_cap) {
        bins_ = std::move(bins);
        index_bins();
        for (const auto& bin : bins_) {
            std::int64_t load = 0;
            for (const auto& [j, c] : bin) load += c * weight_[j];
            waste_.push_back(capacity_ - load);
        }
        order_.resize(weight_.size());
        std::iota(order_.begin(), order_.end(), std::size_t{0});
    }

    /// 1: a cover by at most `target` bins (packing() holds it), 0: none, -1: the node cap ran out.
    int run(std::int64_t target) {
        std::int64_t load = 0;
        for (std::size_t j = 0; j < demand_.size(); ++j) load += weight_[j] * demand_[j];
        this->start_search(load);
        if (cover(target, 0, 0, bins_.size())) return 1;
        return stopped_ ? -1 : 0;
    }
    [[nodiscard]] std::vector<std::vector<std::int64_t>> packing() const { return chosen_packing<void>(); }
    [[nodiscard]] std::int64_t nodes() const { return cover_nodes_; }

private:
    static constexpr bool has_reduced = false;
    static constexpr bool keeps_banned = false;

    bool count() { return nodes_++ < node_cap_; }
    void order_children(std::size_t branch, std::size_t, std::size_t begin, std::size_t end, std::vector<std::size_t>& out) const {
        for (std::size_t k = begin; k < end; ++k) {
            if (holds(alive_[k], branch)) out.push_back(alive_[k]);
        }
    }

    std::int64_t node_cap_ = 0;
    std::int64_t nodes_ = 0;
};

/// The fewest candidate bins whose sum is exactly `demand` (a large value when none), by memoised search.
std::int64_t fewest_bins_brute(const std::vector<SparsePattern>& bins, const std::vector<std::int64_t>& demand, std::map<std::vector<std::int64_t>, std::int64_t>& memo) {
    bool zero = true;
    for (const auto d : demand) zero = zero && d == 0;
    if (zero) return 0;
    if (const auto it = memo.find(demand); it != memo.end()) return it->second;
    std::int64_t best = 1'000'000;
    for (const auto& bin : bins) {
        auto rest = demand;
        bool fits = true;
        for (const auto& [j, c] : bin) {
            rest[j] -= c;
            fits = fits && rest[j] >= 0;
        }
        if (fits) best = std::min(best, 1 + fewest_bins_brute(bins, rest, memo));
    }
    memo[demand] = best;
    return best;
}

}  // namespace

TEST_CASE("Cover search: a cover by m candidate bins exactly when the brute force finds one") {
    // Capacity 10, types of weights (6, 5, 4, 3, 2) with small random demands; the candidates are a random
    // subset of the feasible bins. The engine must agree with a brute force on whether m bins suffice, for
    // m from the brute force's minimum − 1 to it, and its packing must sum to the demand.
    const std::vector<std::int64_t> weight = {6, 5, 4, 3, 2};
    std::vector<SparsePattern> all;
    for (std::int64_t a = 0; a <= 1; ++a)
        for (std::int64_t b = 0; b <= 2; ++b)
            for (std::int64_t c = 0; c <= 2; ++c)
                for (std::int64_t d = 0; d <= 3; ++d)
                    for (std::int64_t e = 0; e <= 5; ++e) {
                        const std::vector<std::int64_t> copies = {a, b, c, d, e};
                        std::int64_t load = 0;
                        SparsePattern bin;
                        for (std::size_t j = 0; j < copies.size(); ++j) {
                            load += copies[j] * weight[j];
                            if (copies[j] > 0) bin.emplace_back(j, copies[j]);
                        }
                        if (load <= 10 && !bin.empty()) all.push_back(bin);
                    }
    REQUIRE(all.size() > 20);
    std::mt19937_64 random(20);
    int solved = 0, proved_none = 0;
    for (int round = 0; round < 60; ++round) {
        std::vector<std::int64_t> demand(weight.size());
        for (auto& d : demand) d = static_cast<std::int64_t>(random() % 4);
        if (std::accumulate(demand.begin(), demand.end(), std::int64_t{0}) == 0) demand[4] = 1;
        std::vector<SparsePattern> bins;
        for (const auto& bin : all) {
            bool within = random() % 3 != 0;
            for (const auto& [j, c] : bin) within = within && c <= demand[j];
            if (within) bins.push_back(bin);
        }
        std::map<std::vector<std::int64_t>, std::int64_t> memo;
        const auto fewest = fewest_bins_brute(bins, demand, memo);
        if (fewest >= 1'000'000) {
            PlainCover cover(weight, demand, 10, bins, 1'000'000);
            CHECK(cover.run(20) == 0);
            ++proved_none;
            continue;
        }
        PlainCover below(weight, demand, 10, bins, 1'000'000);
        CHECK(below.run(fewest - 1) == 0);
        PlainCover at(weight, demand, 10, bins, 1'000'000);
        REQUIRE(at.run(fewest) == 1);
        const auto packing = at.packing();
        CHECK(static_cast<std::int64_t>(packing.size()) == fewest);
        std::vector<std::int64_t> sum(weight.size(), 0);
        for (const auto& pattern : packing) {
            std::int64_t load = 0;
            for (std::size_t j = 0; j < pattern.size(); ++j) {
                sum[j] += pattern[j];
                load += pattern[j] * weight[j];
            }
            CHECK(load <= 10);
        }
        CHECK(sum == demand);
        ++solved;
    }
    CHECK(solved > 20);
    CHECK(proved_none > 0);
}

TEST_CASE("Cover search: a node cap that runs out gives no answer") {
    // Items 3 × 3 and 1 × 4 (weights 3 and 4, capacity 10): one bin {3, 3, 4} and one {3}, or {3, 3, 3}
    // and {4}: 2 bins. Proving that 1 bin does not do takes a node; with no node allowed the search
    // stops, and with enough it answers both.
    const std::vector<std::int64_t> weight = {3, 4}, demand = {3, 1};
    const std::vector<SparsePattern> bins = {{{0, 2}, {1, 1}}, {{0, 1}}, {{0, 3}}, {{1, 1}}, {{0, 1}, {1, 1}}, {{0, 2}}};
    PlainCover capped(weight, demand, 10, bins, 0);
    CHECK(capped.run(2) == -1);
    PlainCover one(weight, demand, 10, bins, 100);
    CHECK(one.run(1) == 0);  // 13 > 10: the waste budget is negative at the root
    CHECK(one.nodes() == 1);
    PlainCover two(weight, demand, 10, bins, 100);
    REQUIRE(two.run(2) == 1);
    CHECK(two.packing().size() == 2);
}
