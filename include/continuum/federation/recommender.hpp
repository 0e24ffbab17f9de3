// The Federation Recommender of seed 000 (Fig. 1, step 3): filters the offers a remote cluster
// advertises by label selector, required capabilities (GPU count, arch), fit and reachability,
// then ranks the rest by a CostModel with deterministic tie-breaking. Every offer gets a verdict,
// and a human-readable reason on demand (reasons are formatted lazily: ranking stays O(n log n)).
// Ranking runs over an OfferCatalogue (columns, validated once): hosts that rank the same offers
// every tick build the catalogue once; recommend(offers) builds a throw-away one. Asking for the
// top k only sorts those k (O(n + k log k)).
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/cost_model.hpp>
#include <continuum/federation/offer.hpp>
#include <continuum/federation/offer_catalogue.hpp>
#include <continuum/federation/selector.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

namespace detail {
/// A ranking key: cost bits, tie rank, position (GCC / Clang extension, as packing's WideAmount).
__extension__ using RankKey = unsigned __int128;
}  // namespace detail

/// What the offers must satisfy.
struct OfferRequirements {
    LabelSelector selector;        ///< on the offer's labels (empty: any)
    Resources request;             ///< must fit in one virtual node of the offer; also what MonetaryCost prices
    std::int64_t min_gpus = 0;     ///< nvidia.com/gpu per node, at least
    std::string arch;              ///< required kubernetes.io/arch label value ("" = any)
    bool allow_nat = true;         ///< false rejects offers behind a NAT

    /// \throws InvalidArgument on an invalid selector, a negative request or min_gpus < 0.
    template <typename Defer = void>  // called as validate(): compiled only where called (issue 21)
    void validate() const {
        selector.template validate<Defer>();
        if (request.any_negative()) throw InvalidArgument(continuum::detail::message("offer requirements: request has a negative amount: {}", request));
        if (min_gpus < 0) throw InvalidArgument(continuum::detail::message("offer requirements: min_gpus must be >= 0, got {}", min_gpus));
    }
};

/// Why an offer is where it is.
enum class Verdict {
    ranked,                 ///< passed every filter; see score
    unreachable,            ///< behind a NAT while allow_nat is false
    wrong_arch,             ///< kubernetes.io/arch differs from the required arch
    insufficient_gpus,      ///< fewer GPUs per node than min_gpus
    selector_mismatch,      ///< labels fail the selector
    insufficient_capacity,  ///< the request does not fit one node
    unpriceable,            ///< the cost model returned +infinity (a figure is missing)
};

inline std::string_view to_string(Verdict v) {
    switch (v) {
        case Verdict::ranked: return "ranked";
        case Verdict::unreachable: return "unreachable";
        case Verdict::wrong_arch: return "wrong_arch";
        case Verdict::insufficient_gpus: return "insufficient_gpus";
        case Verdict::selector_mismatch: return "selector_mismatch";
        case Verdict::insufficient_capacity: return "insufficient_capacity";
        case Verdict::unpriceable: return "unpriceable";
    }
    return "?";
}

/// One offer's outcome. `score` is the cost (0 for rejected offers).
struct ScoredOffer {
    std::size_t offer_index = 0;
    double score = 0.0;
    Verdict verdict = Verdict::ranked;
};

/// The ranking: `ranked` best first, `rejected` in input order; together they cover every offer
/// once, unless only the top k were asked for: then `ranked` holds the best k of the `eligible`.
struct Recommendation {
    std::vector<ScoredOffer> ranked;
    std::vector<ScoredOffer> rejected;
    OfferRequirements requirements;
    std::string cost_model;
    std::size_t eligible = 0;  ///< offers that passed every filter (ranked.size() unless top-k)

    /// Index of the best offer, if any passed.
    [[nodiscard]] std::optional<std::size_t> best() const {
        if (ranked.empty()) return std::nullopt;
        return ranked.front().offer_index;
    }

    /// A sentence explaining `entry` (an element of ranked or rejected), given the same offers that
    /// were ranked. \throws InvalidArgument when entry.offer_index is out of range for `offers`.
    [[nodiscard]] std::string reason(const ScoredOffer& entry, std::span<const Offer> offers) const {
        if (entry.offer_index >= offers.size()) {
            throw InvalidArgument(continuum::detail::message("recommendation: offer index {} out of range for {} offers", entry.offer_index, offers.size()));
        }
        const Offer& offer = offers[entry.offer_index];
        switch (entry.verdict) {
            case Verdict::ranked: {
                std::size_t position = 0;
                while (position < ranked.size() && ranked[position].offer_index != entry.offer_index) ++position;
                std::string text = continuum::detail::message("rank {} of {}: {} cost {:.6g}", position + 1, std::max(eligible, ranked.size()), cost_model, entry.score);
                const bool tied_before = position > 0 && position < ranked.size() && ranked[position - 1].score == entry.score;
                const bool tied_after = position + 1 < ranked.size() && ranked[position + 1].score == entry.score;
                if (tied_before || tied_after) text += " (tied on cost; ordered by whole-node price, then cluster id)";
                return text;
            }
            case Verdict::unreachable: return "behind a NAT and the requirements forbid NAT";
            case Verdict::wrong_arch: {
                const auto arch = offer.label(label_keys::arch);
                return continuum::detail::message("arch is {}, required {}", arch.empty() ? "unknown (no kubernetes.io/arch label)" : arch, requirements.arch);
            }
            case Verdict::insufficient_gpus:
                return continuum::detail::message("{} GPUs per node, required {}", offer.capacity.gpus(), requirements.min_gpus);
            case Verdict::selector_mismatch: return "labels fail the selector: " + requirements.selector.explain_mismatch(offer.labels);
            case Verdict::insufficient_capacity:
                return continuum::detail::message("request {} does not fit one node of capacity {}", requirements.request, offer.capacity);
            case Verdict::unpriceable: return continuum::detail::message("cost model {} cannot price this offer (a figure it needs is missing)", cost_model);
        }
        return {};
    }

    /// Reasons for every offer, indexed by offer index.
    [[nodiscard]] std::vector<std::string> reasons(std::span<const Offer> offers) const {
        std::vector<std::string> out(offers.size());
        for (const auto& e : ranked) out.at(e.offer_index) = reason(e, offers);
        for (const auto& e : rejected) out.at(e.offer_index) = reason(e, offers);
        return out;
    }
};

/// Ranks offers by a CostModel. Ties on cost go to the cheaper whole node, then the smaller cluster id,
/// so the order is total and the same on every platform.
template <CostModel M = MonetaryCost>
class Recommender {
private:
    /// T, spelled dependent on M: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, M>;

public:
    explicit Recommender(M model = M{}) : model_(std::move(model)) {}

    [[nodiscard]] const M& cost_model() const { return model_; }

    /// Every offer when passed as top_k.
    static constexpr std::size_t all = std::numeric_limits<std::size_t>::max();

    /// O(n log n) in the number of offers (plus selector matching). Builds a one-shot OfferCatalogue.
    /// \throws InvalidArgument on invalid offers (see validate_offers: duplicate ids, negative prices,
    ///         zero capacity, ...), invalid requirements, or a cost model returning NaN or a negative value.
    [[nodiscard]] Recommendation recommend(std::span<const Offer> offers, const OfferRequirements& requirements, std::size_t top_k = all) const {
        const OfferCatalogue catalogue(offers, continuum::detail::deferred_t<detail::WithoutTieOrder, M>{});  // dependent: built only where called
        return recommend(catalogue, requirements, top_k);
    }

    /// The same ranking over a catalogue (offer_index = catalogue row), keeping only the best
    /// `top_k` in `ranked` (all by default): O(n) filtering and pricing through the catalogue's
    /// columns, then O(m + k log k) selection and sorting of the m eligible offers.
    /// \throws InvalidArgument on invalid requirements or a cost model returning NaN or a negative value.
    [[nodiscard]] Recommendation recommend(const OfferCatalogue& catalogue, const OfferRequirements& requirements, std::size_t top_k = all) const {
        requirements.validate();
        Recommendation out;
        out.requirements = requirements;
        out.cost_model = model_.name();
        const std::size_t n = catalogue.size();

        // 1. Filters, in Recommender::filter's order, through the columns.
        Dep<std::vector<Verdict>> verdict(n, Verdict::ranked);
        Dep<std::vector<std::uint32_t>> rows;
        rows.reserve(n);
        {
            const auto nat = catalogue.behind_nat();
            Dep<std::vector<std::int32_t>> arch_scratch;
            std::span<const std::int32_t> arch_column;
            std::int32_t arch_id = -2;
            if (!requirements.arch.empty()) {
                if (const auto column = catalogue.label_ids(label_keys::arch, arch_scratch)) arch_column = *column;
                arch_id = catalogue.label_value_id(label_keys::arch, requirements.arch);
            }
            Dep<std::vector<std::int64_t>> gpu_scratch;
            const auto gpus = catalogue.capacity(resource_names::gpu, gpu_scratch);
            const auto selector = catalogue.template compile<continuum::detail::deferred_t<void, M>>(requirements.selector);
            struct Need {
                std::span<const std::int64_t> capacity;
                std::int64_t amount;
            };
            Dep<std::vector<std::vector<std::int64_t>>> need_scratch(requirements.request.size());
            Dep<std::vector<Need>> needs;
            for (const auto& [name, amount] : requirements.request) needs.push_back({catalogue.capacity(name, need_scratch[needs.size()]), amount});
            for (std::size_t row = 0; row < n; ++row) {
                Verdict v = Verdict::ranked;
                if (!requirements.allow_nat && nat[row] != 0) {
                    v = Verdict::unreachable;
                } else if (!requirements.arch.empty() && (arch_column.empty() || arch_column[row] != arch_id)) {
                    v = Verdict::wrong_arch;
                } else if (gpus[row] < requirements.min_gpus) {
                    v = Verdict::insufficient_gpus;
                } else if (!selector.matches(row)) {
                    v = Verdict::selector_mismatch;
                } else {
                    for (const auto& need : needs) {
                        if (need.amount > need.capacity[row]) {
                            v = Verdict::insufficient_capacity;
                            break;
                        }
                    }
                }
                verdict[row] = v;
                if (v == Verdict::ranked) rows.push_back(static_cast<std::uint32_t>(row));
            }
        }

        // 2. Costs of the offers that passed (columnar when the model supports it).
        Dep<std::vector<double>> score(rows.size());
        bool priced = false;
        if constexpr (ColumnarCostModel<M>) priced = model_.costs(catalogue, requirements.request, rows, score);
        for (std::size_t j = 0; j < rows.size(); ++j) {
            if (!priced) score[j] = static_cast<double>(model_.cost(catalogue.offers()[rows[j]], requirements.request));
            if (std::isnan(score[j]) || score[j] < 0.0) {
                throw InvalidArgument(continuum::detail::message("cost model {} returned {} for offer {} (must be >= 0, or +inf when it cannot price)", out.cost_model, score[j],
                                                                 catalogue.offers()[rows[j]].cluster_id));
            }
        }

        // 3. Verdicts in input order; the eligible offers' positions j in rows / score.
        Dep<std::vector<std::uint32_t>> eligible;
        eligible.reserve(rows.size());
        out.rejected.reserve(n - rows.size());
        for (std::size_t row = 0, j = 0; row < n; ++row) {
            if (verdict[row] != Verdict::ranked) {
                out.rejected.push_back({row, 0.0, verdict[row]});
            } else if (std::isinf(score[j++])) {
                out.rejected.push_back({row, 0.0, Verdict::unpriceable});
            } else {
                eligible.push_back(static_cast<std::uint32_t>(j - 1));
            }
        }
        out.eligible = eligible.size();

        // 4. Order by (cost, whole-node price, cluster id): a total order, so the best k are the
        //    prefix of the full ranking. With the catalogue's tie ranks the key is one 128-bit
        //    integer: the cost's bits (order-preserving for doubles >= 0), the tie rank, j.
        const auto select = [&](auto& keys, const auto& less) {
            if (top_k >= keys.size()) {
                std::sort(keys.begin(), keys.end(), less);
            } else {
                const auto kth = keys.begin() + static_cast<std::ptrdiff_t>(top_k);
                std::nth_element(keys.begin(), kth, keys.end(), less);
                keys.resize(top_k);
                std::sort(keys.begin(), keys.end(), less);
            }
        };
        const auto score_bits = [](double s) { return s == 0.0 ? std::uint64_t{0} : std::bit_cast<std::uint64_t>(s); };
        Dep<std::vector<std::uint32_t>> best;  // positions j, best first
        if (catalogue.has_tie_order()) {
            const auto tie = catalogue.tie_ranks();
            Dep<std::vector<detail::RankKey>> keys;
            keys.reserve(eligible.size());
            for (const auto j : eligible) keys.push_back(detail::RankKey(score_bits(score[j])) << 64 | detail::RankKey(tie[rows[j]]) << 32 | j);
            select(keys, std::less<>{});
            for (const auto k : keys) best.push_back(static_cast<std::uint32_t>(k & 0xffffffffU));
        } else {
            const auto offers = catalogue.offers();
            const auto node_cost = catalogue.node_costs();
            select(eligible, [&](std::uint32_t a, std::uint32_t b) {
                if (score[a] != score[b]) return score[a] < score[b];
                const std::uint32_t ra = rows[a], rb = rows[b];
                if (node_cost[ra] != node_cost[rb]) return node_cost[ra] < node_cost[rb];
                return offers[ra].cluster_id < offers[rb].cluster_id;
            });
            best = std::move(eligible);
        }
        out.ranked.reserve(best.size());
        for (const auto j : best) out.ranked.push_back({rows[j], score[j], Verdict::ranked});
        return out;
    }

    /// The filter verdict of one offer (ranked when it passes).
    [[nodiscard]] static Verdict filter(const Offer& offer, const OfferRequirements& requirements) {
        if (!requirements.allow_nat && offer.reachability == Reachability::nat) return Verdict::unreachable;
        if (!requirements.arch.empty() && offer.label(label_keys::arch) != requirements.arch) return Verdict::wrong_arch;
        if (offer.capacity.gpus() < requirements.min_gpus) return Verdict::insufficient_gpus;
        if (!requirements.selector.matches(offer.labels)) return Verdict::selector_mismatch;
        if (!requirements.request.fits_in(offer.capacity)) return Verdict::insufficient_capacity;
        return Verdict::ranked;
    }

private:
    M model_;
};

}  // namespace continuum::federation
