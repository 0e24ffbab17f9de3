// Cost models: how the Federation Recommender (seed 000, Fig. 1 step 3) scores an offer for a
// request. A CostModel is any type with `cost(offer, request) -> double` and `name()`; provided are
// monetary (price of the request or of the whole offer), latency, energy / carbon (seed 003), a
// weighted sum, any user callable, and AnyCostModel for runtime choice and Python. The built-in
// models also price whole columns of an OfferCatalogue at once (ColumnarCostModel), with exactly
// the arithmetic of their per-offer cost, so both paths give bit-identical scores.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/offer.hpp>
#include <continuum/federation/offer_catalogue.hpp>

#include <cmath>
#include <concepts>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

/// Lower is better. `cost` returns a finite value >= 0, or +infinity when the model cannot price the
/// offer (a missing latency figure, say): the Recommender then rejects that offer with a reason.
template <typename M>
concept CostModel = requires(const M& model, const Offer& offer, const Resources& request) {
    { model.cost(offer, request) } -> std::convertible_to<double>;
    { model.name() } -> std::convertible_to<std::string>;
};

/// A CostModel that can also price the catalogue rows `rows` into `out` (same size) in one call:
/// `costs` returns false when it cannot (the caller then prices offer by offer with `cost`), and
/// when it returns true, out[j] equals cost(catalogue.offer(rows[j]), request) bit for bit.
template <typename M>
concept ColumnarCostModel = CostModel<M> && requires(const M& model, const OfferCatalogue& catalogue, const Resources& request, std::span<const std::uint32_t> rows,
                                                       std::span<double> out) {
    { model.costs(catalogue, request, rows, out) } -> std::same_as<bool>;
};

/// What MonetaryCost charges for.
enum class PriceBasis {
    requested,    ///< the price of a node reserving just the request (node_price + unit prices x request)
    whole_offer,  ///< the price of one whole node of the offer (node_price + unit prices x capacity)
};

/// Money per unit of time. With an empty request, `requested` charges the whole node.
struct MonetaryCost {
    PriceBasis basis = PriceBasis::requested;

    [[nodiscard]] double cost(const Offer& offer, const Resources& request) const {
        if (basis == PriceBasis::whole_offer || request.empty() || !offer.priced_per_unit()) return offer.node_cost();
        return offer.price_of(request);
    }
    /// Columnar cost: Offer::price_of's sum, term by term in resource-name order.
    template <typename = void>
    bool costs(const OfferCatalogue& catalogue, const Resources& request, std::span<const std::uint32_t> rows, std::span<double> out) const {
        const auto node_cost = catalogue.node_costs();
        if (basis == PriceBasis::whole_offer || request.empty()) {
            for (std::size_t j = 0; j < rows.size(); ++j) out[j] = node_cost[rows[j]];
            return true;
        }
        struct Term {
            std::span<const double> price;
            double amount;
            double unit;
        };
        // price_of adds unit_price * amount / unit over unit_prices in name order, for positive
        // amounts and prices: the request's names are in the same order.
        std::vector<std::vector<double>> scratch(request.size());
        std::vector<Term> terms;
        for (const auto& [name, amount] : request) {
            if (amount <= 0) continue;
            const auto prices = catalogue.unit_prices(name, scratch[terms.size()]);
            if (prices) terms.push_back({*prices, static_cast<double>(amount), static_cast<double>(price_unit_size(name))});
        }
        const auto per_unit = catalogue.priced_per_unit();
        const auto node_price = catalogue.node_prices();
        for (std::size_t j = 0; j < rows.size(); ++j) {
            const std::uint32_t r = rows[j];
            if (per_unit[r] == 0) {
                out[j] = node_cost[r];
                continue;
            }
            double price = node_price[r];
            for (const auto& t : terms) {
                const double unit_price = t.price[r];
                if (unit_price > 0.0) price += unit_price * t.amount / t.unit;
            }
            out[j] = price;
        }
        return true;
    }
    [[nodiscard]] std::string name() const { return basis == PriceBasis::requested ? "monetary(requested)" : "monetary(whole_offer)"; }
};

/// Round-trip latency in milliseconds; offers without a latency figure cannot be priced.
struct LatencyCost {
    [[nodiscard]] double cost(const Offer& offer, const Resources& /*request*/) const {
        return offer.latency_ms ? *offer.latency_ms : std::numeric_limits<double>::infinity();
    }
    template <typename = void>
    bool costs(const OfferCatalogue& catalogue, const Resources& /*request*/, std::span<const std::uint32_t> rows, std::span<double> out) const {
        const auto latency = catalogue.latency_ms();  // NaN when missing
        for (std::size_t j = 0; j < rows.size(); ++j) out[j] = std::isnan(latency[rows[j]]) ? std::numeric_limits<double>::infinity() : latency[rows[j]];
        return true;
    }
    [[nodiscard]] std::string name() const { return "latency"; }
};

/// Energy (watts drawn by the share of a node the request takes: power_watts x dominant share of
/// the request in the node's capacity, the whole node for an empty request) or, with
/// `carbon = true`, grams of CO2 per hour (watts x carbon_intensity / 1000). Offers without the
/// figures cannot be priced.
struct EnergyCost {
    bool carbon = false;

    [[nodiscard]] double cost(const Offer& offer, const Resources& request) const {
        if (!offer.power_watts || (carbon && !offer.carbon_intensity)) return std::numeric_limits<double>::infinity();
        double share = 1.0;
        if (!request.empty()) {
            share = 0.0;
            for (const auto& [name, amount] : request) {
                const std::int64_t cap = offer.capacity.get(name);
                if (amount <= 0) continue;
                if (cap <= 0) return std::numeric_limits<double>::infinity();
                share = std::max(share, static_cast<double>(amount) / static_cast<double>(cap));
            }
        }
        const double watts = *offer.power_watts * share;
        return carbon ? watts * *offer.carbon_intensity / 1000.0 : watts;
    }
    template <typename = void>
    bool costs(const OfferCatalogue& catalogue, const Resources& request, std::span<const std::uint32_t> rows, std::span<double> out) const {
        struct Term {
            std::span<const std::int64_t> capacity;
            std::int64_t amount;
        };
        std::vector<std::vector<std::int64_t>> scratch(request.size());
        std::vector<Term> terms;
        for (const auto& [name, amount] : request) {
            if (amount > 0) terms.push_back({catalogue.capacity(name, scratch[terms.size()]), amount});
        }
        const auto power = catalogue.power_watts();
        const auto intensity = catalogue.carbon_intensity();
        constexpr double unpriceable = std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < rows.size(); ++j) {
            const std::uint32_t r = rows[j];
            out[j] = unpriceable;
            if (std::isnan(power[r]) || (carbon && std::isnan(intensity[r]))) continue;
            double share = request.empty() ? 1.0 : 0.0;
            bool fits = true;
            for (const auto& t : terms) {
                const std::int64_t cap = t.capacity[r];
                if (cap <= 0) {
                    fits = false;
                    break;
                }
                share = std::max(share, static_cast<double>(t.amount) / static_cast<double>(cap));
            }
            if (!fits) continue;
            const double watts = power[r] * share;
            out[j] = carbon ? watts * intensity[r] / 1000.0 : watts;
        }
        return true;
    }
    [[nodiscard]] std::string name() const { return carbon ? "carbon" : "energy"; }
};

/// A named user callable `double(const Offer&, const Resources&)` as a CostModel.
template <typename F>
struct CallableCost {
    std::string label;
    F function;

    [[nodiscard]] double cost(const Offer& offer, const Resources& request) const { return static_cast<double>(function(offer, request)); }
    [[nodiscard]] std::string name() const { return label; }
};

/// CallableCost from a name and a callable.
template <typename F>
CallableCost<std::decay_t<F>> make_cost_model(std::string name, F&& function) {
    return {std::move(name), std::forward<F>(function)};
}

/// One term of a weighted sum: weight x model.
template <CostModel M>
struct Weighted {
    double weight = 1.0;
    M model;
};

/// Sum of weight_i x cost_i over compile-time terms (no virtual calls). Weights are finite and
/// >= 0 and the host chooses them to make the units commensurable ($/min vs ms).
template <CostModel... Ms>
class WeightedCost {
public:
    /// \throws InvalidArgument on a negative or non-finite weight.
    explicit WeightedCost(Weighted<Ms>... terms) : terms_(std::move(terms)...) {
        std::apply([](const auto&... t) { (check_weight(t.weight), ...); }, terms_);
    }

    [[nodiscard]] double cost(const Offer& offer, const Resources& request) const {
        return std::apply([&](const auto&... t) { return (0.0 + ... + term(t.weight, t.model.cost(offer, request))); }, terms_);
    }
    /// Columnar when every term is: the same left-to-right sum as cost.
    bool costs(const OfferCatalogue& catalogue, const Resources& request, std::span<const std::uint32_t> rows, std::span<double> out) const
        requires(ColumnarCostModel<Ms> && ...)
    {
        std::fill(out.begin(), out.end(), 0.0);
        std::vector<double> values(rows.size());
        bool ok = true;
        std::apply(
            [&](const auto&... t) {
                const auto add = [&](const auto& one) {
                    if (!ok) return;
                    if (one.weight != 0.0 && !one.model.costs(catalogue, request, rows, values)) {
                        ok = false;
                        return;
                    }
                    for (std::size_t j = 0; j < rows.size(); ++j) out[j] = out[j] + term(one.weight, values[j]);
                };
                (add(t), ...);
            },
            terms_);
        return ok;
    }
    [[nodiscard]] std::string name() const {
        std::string out;
        std::apply([&](const auto&... t) { ((out += (out.empty() ? "" : "+") + continuum::detail::message("{}*{}", t.weight, t.model.name())), ...); }, terms_);
        return out;
    }

private:
    static void check_weight(double w) {
        if (!std::isfinite(w) || w < 0.0) throw InvalidArgument(continuum::detail::message("weighted cost: weight must be finite and >= 0, got {}", w));
    }
    // 0 x infinity is 0: a zero-weight term never makes an offer unpriceable.
    static double term(double weight, double value) { return weight == 0.0 ? 0.0 : weight * value; }

    std::tuple<Weighted<Ms>...> terms_;
};

/// A type-erased CostModel (runtime configuration, Python).
class AnyCostModel {
public:
    /// Monetary, by request.
    template <typename Defer = void>
    AnyCostModel() : AnyCostModel(continuum::detail::deferred_t<MonetaryCost, Defer>{}) {}

    template <CostModel M>
        requires(!std::same_as<std::decay_t<M>, AnyCostModel>)
    AnyCostModel(M model)  // NOLINT(google-explicit-constructor): any model converts
        : self_(std::make_shared<Model<M>>(std::move(model))) {}

    [[nodiscard]] double cost(const Offer& offer, const Resources& request) const { return self_->cost(offer, request); }
    /// Columnar when the wrapped model is (false otherwise).
    template <typename = void>
    bool costs(const OfferCatalogue& catalogue, const Resources& request, std::span<const std::uint32_t> rows, std::span<double> out) const {
        return self_->costs(catalogue, request, rows, out);
    }
    [[nodiscard]] std::string name() const { return self_->name(); }

private:
    struct Concept {
        virtual ~Concept() = default;
        [[nodiscard]] virtual double cost(const Offer&, const Resources&) const = 0;
        virtual bool costs(const OfferCatalogue&, const Resources&, std::span<const std::uint32_t>, std::span<double>) const = 0;
        [[nodiscard]] virtual std::string name() const = 0;
    };
    template <typename M>
    struct Model final : Concept {
        explicit Model(M m) : model(std::move(m)) {}
        [[nodiscard]] double cost(const Offer& offer, const Resources& request) const override { return static_cast<double>(model.cost(offer, request)); }
        bool costs(const OfferCatalogue& catalogue, const Resources& request, std::span<const std::uint32_t> rows, std::span<double> out) const override {
            if constexpr (ColumnarCostModel<M>) {
                return model.costs(catalogue, request, rows, out);
            } else {
                return false;
            }
        }
        [[nodiscard]] std::string name() const override { return model.name(); }
        M model;
    };
    std::shared_ptr<const Concept> self_;
};

/// A weighted sum chosen at run time: sum of weight_i x model_i.
class WeightedSum {
public:
    WeightedSum() = default;
    /// \throws InvalidArgument on a negative or non-finite weight.
    explicit WeightedSum(std::vector<std::pair<double, AnyCostModel>> terms) : terms_(std::move(terms)) {
        for (const auto& [w, m] : terms_) {
            if (!std::isfinite(w) || w < 0.0) throw InvalidArgument(continuum::detail::message("weighted sum: weight of {} must be finite and >= 0, got {}", m.name(), w));
        }
    }
    [[nodiscard]] double cost(const Offer& offer, const Resources& request) const {
        double total = 0.0;
        for (const auto& [w, m] : terms_) {
            if (w != 0.0) total += w * m.cost(offer, request);
        }
        return total;
    }
    /// Columnar when every term is: the same sum as cost.
    template <typename = void>
    bool costs(const OfferCatalogue& catalogue, const Resources& request, std::span<const std::uint32_t> rows, std::span<double> out) const {
        std::fill(out.begin(), out.end(), 0.0);
        std::vector<double> values(rows.size());
        for (const auto& [w, m] : terms_) {
            if (w == 0.0) continue;
            if (!m.costs(catalogue, request, rows, continuum::detail::mutable_span_of(values))) return false;
            for (std::size_t j = 0; j < rows.size(); ++j) out[j] += w * values[j];
        }
        return true;
    }
    [[nodiscard]] std::string name() const {
        std::string out;
        for (const auto& [w, m] : terms_) out += (out.empty() ? "" : "+") + continuum::detail::message("{}*{}", w, m.name());
        return out.empty() ? "zero" : out;
    }

private:
    std::vector<std::pair<double, AnyCostModel>> terms_;
};

static_assert(CostModel<MonetaryCost> && CostModel<LatencyCost> && CostModel<EnergyCost> && CostModel<AnyCostModel> && CostModel<WeightedSum>);
static_assert(ColumnarCostModel<MonetaryCost> && ColumnarCostModel<LatencyCost> && ColumnarCostModel<EnergyCost> && ColumnarCostModel<AnyCostModel> &&
              ColumnarCostModel<WeightedSum>);

}  // namespace continuum::federation
