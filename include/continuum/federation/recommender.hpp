// The Federation Recommender of seed 000 (Fig. 1, step 3): filters the offers a remote cluster
// advertises by label selector, required capabilities (GPU count, arch), fit and reachability,
// then ranks the rest by a CostModel with deterministic tie-breaking. Every offer gets a verdict,
// and a human-readable reason on demand (reasons are formatted lazily: ranking stays O(n log n)).
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/cost_model.hpp>
#include <continuum/federation/offer.hpp>
#include <continuum/federation/selector.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

/// What the offers must satisfy.
struct OfferRequirements {
    LabelSelector selector;        ///< on the offer's labels (empty: any)
    Resources request;             ///< must fit in one virtual node of the offer; also what MonetaryCost prices
    std::int64_t min_gpus = 0;     ///< nvidia.com/gpu per node, at least
    std::string arch;              ///< required kubernetes.io/arch label value ("" = any)
    bool allow_nat = true;         ///< false rejects offers behind a NAT

    /// \throws InvalidArgument on an invalid selector, a negative request or min_gpus < 0.
    void validate() const {
        selector.validate();
        if (request.any_negative()) throw InvalidArgument(fmt::format("offer requirements: request has a negative amount: {}", request));
        if (min_gpus < 0) throw InvalidArgument(fmt::format("offer requirements: min_gpus must be >= 0, got {}", min_gpus));
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

/// The ranking: `ranked` best first, `rejected` in input order; together they cover every offer once.
struct Recommendation {
    std::vector<ScoredOffer> ranked;
    std::vector<ScoredOffer> rejected;
    OfferRequirements requirements;
    std::string cost_model;

    /// Index of the best offer, if any passed.
    [[nodiscard]] std::optional<std::size_t> best() const {
        if (ranked.empty()) return std::nullopt;
        return ranked.front().offer_index;
    }

    /// A sentence explaining `entry` (an element of ranked or rejected), given the same offers that
    /// were ranked. \throws InvalidArgument when entry.offer_index is out of range for `offers`.
    [[nodiscard]] std::string reason(const ScoredOffer& entry, std::span<const Offer> offers) const {
        if (entry.offer_index >= offers.size()) {
            throw InvalidArgument(fmt::format("recommendation: offer index {} out of range for {} offers", entry.offer_index, offers.size()));
        }
        const Offer& offer = offers[entry.offer_index];
        switch (entry.verdict) {
            case Verdict::ranked: {
                std::size_t position = 0;
                while (position < ranked.size() && ranked[position].offer_index != entry.offer_index) ++position;
                std::string text = fmt::format("rank {} of {}: {} cost {:.6g}", position + 1, ranked.size(), cost_model, entry.score);
                const bool tied_before = position > 0 && position < ranked.size() && ranked[position - 1].score == entry.score;
                const bool tied_after = position + 1 < ranked.size() && ranked[position + 1].score == entry.score;
                if (tied_before || tied_after) text += " (tied on cost; ordered by whole-node price, then cluster id)";
                return text;
            }
            case Verdict::unreachable: return "behind a NAT and the requirements forbid NAT";
            case Verdict::wrong_arch: {
                const auto arch = offer.label(label_keys::arch);
                return fmt::format("arch is {}, required {}", arch.empty() ? "unknown (no kubernetes.io/arch label)" : arch, requirements.arch);
            }
            case Verdict::insufficient_gpus:
                return fmt::format("{} GPUs per node, required {}", offer.capacity.gpus(), requirements.min_gpus);
            case Verdict::selector_mismatch: return "labels fail the selector: " + requirements.selector.explain_mismatch(offer.labels);
            case Verdict::insufficient_capacity:
                return fmt::format("request {} does not fit one node of capacity {}", requirements.request, offer.capacity);
            case Verdict::unpriceable: return fmt::format("cost model {} cannot price this offer (a figure it needs is missing)", cost_model);
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
public:
    explicit Recommender(M model = M{}) : model_(std::move(model)) {}

    [[nodiscard]] const M& cost_model() const { return model_; }

    /// O(n log n) in the number of offers (plus selector matching).
    /// \throws InvalidArgument on invalid offers (see validate_offers: duplicate ids, negative prices,
    ///         zero capacity, ...), invalid requirements, or a cost model returning NaN or a negative value.
    [[nodiscard]] Recommendation recommend(std::span<const Offer> offers, const OfferRequirements& requirements) const {
        validate_offers(offers);
        requirements.validate();
        Recommendation out;
        out.requirements = requirements;
        out.cost_model = model_.name();
        out.ranked.reserve(offers.size());
        for (std::size_t i = 0; i < offers.size(); ++i) {
            const Offer& offer = offers[i];
            const Verdict verdict = filter(offer, requirements);
            if (verdict != Verdict::ranked) {
                out.rejected.push_back({i, 0.0, verdict});
                continue;
            }
            const double score = static_cast<double>(model_.cost(offer, requirements.request));
            if (std::isnan(score) || score < 0.0) {
                throw InvalidArgument(fmt::format("cost model {} returned {} for offer {} (must be >= 0, or +inf when it cannot price)", out.cost_model, score, offer.cluster_id));
            }
            if (std::isinf(score)) {
                out.rejected.push_back({i, 0.0, Verdict::unpriceable});
                continue;
            }
            out.ranked.push_back({i, score, Verdict::ranked});
        }
        // Sort compact keys (score, whole-node price, index); cluster ids are compared only on exact ties.
        struct Key {
            double score;
            double node_cost;
            std::size_t index;
        };
        std::vector<Key> keys;
        keys.reserve(out.ranked.size());
        for (const auto& e : out.ranked) keys.push_back({e.score, offers[e.offer_index].node_cost(), e.offer_index});
        std::sort(keys.begin(), keys.end(), [&](const Key& a, const Key& b) {
            if (a.score != b.score) return a.score < b.score;
            if (a.node_cost != b.node_cost) return a.node_cost < b.node_cost;
            return offers[a.index].cluster_id < offers[b.index].cluster_id;
        });
        for (std::size_t k = 0; k < keys.size(); ++k) out.ranked[k] = {keys[k].index, keys[k].score, Verdict::ranked};
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
