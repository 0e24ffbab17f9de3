// OfferCatalogue: a validated-once, columnar view of a list of offers, for hosts that rank or plan
// over the same offers on every tick (seed 000's Federation Recommender re-ranks on each CA loop).
// Each offer is validated once, with validate_offers' messages; resource and label names are
// interned once, so the Recommender filters and prices offers through dense integer / double
// columns instead of string-keyed lookups, and ties on cost are broken by a precomputed rank of
// (whole-node price, cluster id) instead of string comparisons.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/detail/span_of.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/federation/offer.hpp>
#include <continuum/federation/selector.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

namespace detail {

/// Strings to dense ids (the strings live in the catalogue's offers, which outlive the interner).
class Interner {
public:
    /// The id of `text`, adding it when new. (The interning members are templates so that only the
    /// units building a catalogue compile the map's insertion; likewise OfferCatalogue's building.)
    template <typename = void>
    std::uint32_t intern(std::string_view text) {
        const auto [it, inserted] = ids_.try_emplace(text, static_cast<std::uint32_t>(names_.size()));
        if (inserted) names_.push_back(text);
        return it->second;
    }
    /// intern(text), trying `hint` (the id seen at the same place in the previous offer) first.
    template <typename Defer = void>
    std::uint32_t intern(std::string_view text, std::uint32_t& hint) {
        if (hint < names_.size() && names_[hint] == text) return hint;
        hint = intern<Defer>(text);
        return hint;
    }
    [[nodiscard]] std::optional<std::uint32_t> find(std::string_view text) const {
        const auto it = ids_.find(text);
        if (it == ids_.end()) return std::nullopt;
        return it->second;
    }
    [[nodiscard]] std::size_t size() const { return names_.size(); }
    [[nodiscard]] std::string_view operator[](std::size_t id) const { return names_[id]; }

private:
    std::unordered_map<std::string_view, std::uint32_t> ids_;
    std::vector<std::string_view> names_;
};

/// One column of the catalogue: a value per offer (dense), or, when few offers have the name,
/// the rows that have it (ascending) and their values (sparse); other rows hold `absent`.
template <typename T>
struct CatalogueColumn {
    bool dense = true;
    std::vector<T> values;             ///< n values (dense) or one per entry of rows (sparse)
    std::vector<std::uint32_t> rows;   ///< sparse only

    /// The n values of the column: its own storage, or `scratch` filled in.
    [[nodiscard]] std::span<const T> all(std::size_t n, T absent, std::vector<T>& scratch) const {
        if (dense) return continuum::detail::span_of(values);
        scratch.assign(n, absent);
        for (std::size_t k = 0; k < rows.size(); ++k) scratch[rows[k]] = values[k];
        return continuum::detail::span_of(scratch);
    }
    [[nodiscard]] T at(std::size_t row, T absent) const {
        if (dense) return values[row];
        const auto it = std::lower_bound(rows.begin(), rows.end(), static_cast<std::uint32_t>(row));
        return it != rows.end() && *it == row ? values[static_cast<std::size_t>(it - rows.begin())] : absent;
    }
    /// Turns the (row, value) entries collected in rows/values into the final storage: dense when
    /// at least one offer in eight has the name (or the catalogue is small).
    void finish(std::size_t n, T absent) {
        if (rows.size() * 8 < n && n > 64) {
            dense = false;
            return;
        }
        std::vector<T> full(n, absent);
        for (std::size_t k = 0; k < rows.size(); ++k) full[rows[k]] = values[k];
        values = std::move(full);
        rows = {};
        dense = true;
    }
};

/// Tag: build a catalogue without the tie order (a one-shot ranking compares whole-node prices and
/// cluster ids instead; see OfferCatalogue::has_tie_order).
struct WithoutTieOrder {};

}  // namespace detail

/// A label selector resolved against one catalogue: each requirement is a lookup table indexed by
/// the interned value id of its key (so matching an offer costs a few array reads).
class CompiledSelector {
public:
    /// True when row `row` of the catalogue it was compiled for matches.
    [[nodiscard]] bool matches(std::size_t row) const {
        if (never_) return false;
        for (const auto& r : requirements_) {
            if (!r.table[static_cast<std::size_t>(r.column[row] + 1)]) return false;
        }
        return true;
    }
    [[nodiscard]] bool always() const { return !never_ && requirements_.empty(); }
    [[nodiscard]] bool never() const { return never_; }

private:
    friend class OfferCatalogue;
    struct Requirement {
        std::span<const std::int32_t> column;  ///< value id per row, -1 when the label is absent
        std::vector<std::uint8_t> table;       ///< [0]: absent; [id + 1]: value id
    };
    std::vector<Requirement> requirements_;
    std::vector<std::vector<std::int32_t>> scratch_;  // materialised sparse columns
    bool never_ = false;
};

/// Validated offers stored as columns. Row i is offers[i]. A catalogue built from a span views the
/// offers (they must outlive it, unchanged); OfferCatalogue::owning keeps its own copy. Copies
/// share the owned offers. Read-only after construction, so safe to share between threads.
class OfferCatalogue {
public:
    // No default constructor: `{}` must keep meaning "no offers" (a span) in overloaded calls such as
    // plan_scale_out(pods, {}, {}). An empty catalogue is OfferCatalogue(std::span<const Offer>{}).

    /// Validates `offers` (exactly as validate_offers, same messages) and builds the columns and
    /// the tie order. The offers must outlive the catalogue and not change.
    /// \throws InvalidArgument naming the offending offer (index and cluster id).
    template <typename Defer = void>  // templates down to build(), compiled only where a catalogue is built
    explicit OfferCatalogue(std::span<const Offer> offers) : offers_(offers) {
        build<Defer>(true);
    }

    /// As above, without the tie order (what a one-shot Recommender::recommend(span) uses).
    template <typename Defer = void>
    OfferCatalogue(std::span<const Offer> offers, detail::WithoutTieOrder /*tag*/) : offers_(offers) {
        build<Defer>(false);
    }

    /// A catalogue that owns its offers. \throws InvalidArgument as the view constructor.
    template <typename Defer = void>
    static OfferCatalogue owning(std::vector<Offer> offers) {
        auto owned = std::make_shared<const std::vector<Offer>>(std::move(offers));
        OfferCatalogue out{std::span<const continuum::detail::deferred_t<Offer, Defer>>(*owned)};  // dependent: see deferred.hpp
        out.owned_ = std::move(owned);
        return out;
    }

    [[nodiscard]] std::size_t size() const { return offers_.size(); }
    [[nodiscard]] bool empty() const { return offers_.empty(); }
    [[nodiscard]] std::span<const Offer> offers() const { return offers_; }
    /// \throws InvalidArgument when `row` is out of range.
    template <typename = void>
    [[nodiscard]] const Offer& offer(std::size_t row) const {
        if (row >= offers_.size()) throw InvalidArgument(continuum::detail::message("offer catalogue: row {} out of range for {} offers", row, offers_.size()));
        return offers_[row];
    }

    /// Offer::node_cost() of every row.
    [[nodiscard]] std::span<const double> node_costs() const { return continuum::detail::span_of(node_cost_); }
    /// Offer::node_price of every row.
    [[nodiscard]] std::span<const double> node_prices() const { return continuum::detail::span_of(node_price_); }
    /// Offer::priced_per_unit() of every row (0 or 1).
    [[nodiscard]] std::span<const std::uint8_t> priced_per_unit() const { return continuum::detail::span_of(per_unit_); }
    /// 1 for offers behind a NAT.
    [[nodiscard]] std::span<const std::uint8_t> behind_nat() const { return continuum::detail::span_of(nat_); }
    [[nodiscard]] std::span<const std::int64_t> max_nodes() const { return continuum::detail::span_of(max_nodes_); }
    /// Optional figures of every row, NaN when the offer has none (valid figures are finite).
    [[nodiscard]] std::span<const double> latency_ms() const { return continuum::detail::span_of(latency_); }
    [[nodiscard]] std::span<const double> bandwidth_mbps() const { return continuum::detail::span_of(bandwidth_); }
    [[nodiscard]] std::span<const double> power_watts() const { return continuum::detail::span_of(power_); }
    [[nodiscard]] std::span<const double> carbon_intensity() const { return continuum::detail::span_of(carbon_); }

    /// True when tie_ranks are available (every catalogue but recommend(span)'s one-shot ones).
    [[nodiscard]] bool has_tie_order() const { return tie_rank_.size() == offers_.size(); }
    /// Position of each row in the order (whole-node price, cluster id): the Recommender's
    /// tie-break after cost, precomputed so that ranking compares integers only.
    [[nodiscard]] std::span<const std::uint32_t> tie_ranks() const { return continuum::detail::span_of(tie_rank_); }

    /// Names of the resources some offer has capacity of (cpu, memory and nvidia.com/gpu always).
    template <typename Defer = void>
    [[nodiscard]] std::vector<std::string> resource_names() const {
        continuum::detail::deferred_t<std::vector<std::string>, Defer> out;
        for (std::size_t k = 0; k < resources_.size(); ++k) out.emplace_back(resources_[k]);
        return out;
    }
    /// Capacity of `name` per row (0 when absent); `scratch` holds it when the column is sparse.
    template <typename = void>
    [[nodiscard]] std::span<const std::int64_t> capacity(std::string_view name, std::vector<std::int64_t>& scratch) const {
        const auto id = resources_.find(name);
        if (!id) {
            scratch.assign(size(), 0);
            return continuum::detail::span_of(scratch);
        }
        return capacity_[*id].all(size(), 0, scratch);
    }
    /// Capacity of `name` in row `row` (0 when absent).
    template <typename = void>
    [[nodiscard]] std::int64_t capacity(std::size_t row, std::string_view name) const {
        const auto id = resources_.find(name);
        return id ? capacity_[*id].at(row, 0) : 0;
    }
    /// Unit price of `name` per row (0 when absent); nullopt when no offer prices `name`.
    template <typename = void>
    [[nodiscard]] std::optional<std::span<const double>> unit_prices(std::string_view name, std::vector<double>& scratch) const {
        const auto id = unit_names_.find(name);
        if (!id) return std::nullopt;
        return unit_price_[*id].all(size(), 0.0, scratch);
    }

    /// Resolves `selector` against this catalogue (the result refers to the catalogue: keep it alive).
    template <typename Defer = void>
    [[nodiscard]] CompiledSelector compile(const LabelSelector& selector) const {
        auto& self = continuum::detail::deferred<Defer>(*this);  // dependent: see deferred.hpp
        continuum::detail::deferred_t<CompiledSelector, Defer> out;
        const auto add = [&](std::string_view key, auto value_passes, bool absent_passes) {
            const auto id = self.label_keys_.find(key);
            if (!id) {  // the label is absent from every offer: the requirement is constant
                if (!absent_passes) out.never_ = true;
                return;
            }
            const auto& values = self.label_values_[*id];
            typename continuum::detail::deferred_t<CompiledSelector, Defer>::Requirement r;
            r.table.assign(values.size() + 1, 0);
            r.table[0] = absent_passes ? 1 : 0;
            for (std::size_t v = 0; v < values.size(); ++v) r.table[v + 1] = value_passes(values[v]) ? 1 : 0;
            out.scratch_.emplace_back();
            r.column = self.label_[*id].all(self.size(), -1, out.scratch_.back());
            out.requirements_.push_back(std::move(r));
        };
        for (const auto& entry : selector.match_labels) {
            const std::string_view wanted = entry.second;  // (clang 14 cannot capture structured bindings)
            add(entry.first, [wanted](std::string_view v) { return v == wanted; }, false);
        }
        for (const auto& requirement : selector.match_expressions) {
            // SelectorRequirement::matches, evaluated once per distinct value of the key.
            const auto listed = [&](std::string_view v) { return std::find(requirement.values.begin(), requirement.values.end(), v) != requirement.values.end(); };
            switch (requirement.op) {
                case SelectorOperator::in: add(requirement.key, listed, false); break;
                case SelectorOperator::not_in: add(requirement.key, [&](std::string_view v) { return !listed(v); }, true); break;
                case SelectorOperator::exists: add(requirement.key, [](std::string_view) { return true; }, false); break;
                case SelectorOperator::does_not_exist: add(requirement.key, [](std::string_view) { return false; }, true); break;
                case SelectorOperator::gt:
                case SelectorOperator::lt: {
                    std::int64_t bound = 0;
                    bool bounded = false;
                    if (requirement.values.size() == 1) {
                        if (const auto b = detail::parse_int64(requirement.values[0])) {
                            bound = *b;
                            bounded = true;
                        }
                    }
                    add(requirement.key,
                        [&](std::string_view v) {
                            const auto have = detail::parse_int64(v);
                            if (!have || !bounded) return false;
                            return requirement.op == SelectorOperator::gt ? *have > bound : *have < bound;
                        },
                        false);
                    break;
                }
            }
        }
        return out;
    }

    /// 1 for the rows whose labels match `selector`, else 0.
    template <typename Defer = void>
    [[nodiscard]] std::vector<std::uint8_t> matching(const LabelSelector& selector) const {
        const auto compiled = compile<Defer>(selector);
        std::vector<std::uint8_t> out(size());
        for (std::size_t row = 0; row < size(); ++row) out[row] = compiled.matches(row) ? 1 : 0;
        return out;
    }

    /// Value of label `key` per row as an interned id (-1 when absent) and the id's text; nullopt
    /// when no offer has the key. `scratch` holds the ids when the column is sparse.
    template <typename = void>
    [[nodiscard]] std::optional<std::span<const std::int32_t>> label_ids(std::string_view key, std::vector<std::int32_t>& scratch) const {
        const auto id = label_keys_.find(key);
        if (!id) return std::nullopt;
        return label_[*id].all(size(), -1, scratch);
    }
    /// The interned id of `value` for label `key`, or -2 (matches no row) when no offer has it.
    template <typename = void>
    [[nodiscard]] std::int32_t label_value_id(std::string_view key, std::string_view value) const {
        const auto id = label_keys_.find(key);
        if (!id) return -2;
        const auto v = label_values_[*id].find(value);
        return v ? static_cast<std::int32_t>(*v) : -2;
    }

    /// Interned ids of cpu, memory and nvidia.com/gpu in the capacity columns.
    static constexpr std::uint32_t cpu_id = 0, memory_id = 1, gpu_id = 2;

private:
    template <typename Defer>
    void build(bool with_tie_order) {
        auto& self = continuum::detail::deferred<Defer>(*this);  // dependent: see deferred.hpp
        using Hints = continuum::detail::deferred_t<std::vector<std::uint32_t>, Defer>;
        const std::size_t n = self.offers_.size();
        if (n >= std::numeric_limits<std::uint32_t>::max()) {
            throw InvalidArgument(continuum::detail::message("offer catalogue: at most {} offers, got {}", std::numeric_limits<std::uint32_t>::max() - 1, n));
        }
        // cpu, memory and nvidia.com/gpu first, so that their ids are fixed.
        for (const auto name : {resource_names::cpu, resource_names::memory, resource_names::gpu}) {
            self.resources_.intern(name);
            self.capacity_.emplace_back();
        }
        self.node_cost_.resize(n);
        self.node_price_.resize(n);
        self.per_unit_.resize(n);
        self.nat_.resize(n);
        self.max_nodes_.resize(n);
        self.latency_.resize(n);
        self.bandwidth_.resize(n);
        self.power_.resize(n);
        self.carbon_.resize(n);
        Hints capacity_hint, unit_hint, label_hint;
        continuum::detail::deferred_t<std::vector<std::uint8_t>, Defer> key_valid;
        continuum::detail::deferred_t<std::vector<std::vector<std::uint8_t>>, Defer> value_valid;
        Hints value_hint;
        const double missing = std::numeric_limits<double>::quiet_NaN();
        for (std::size_t i = 0; i < n; ++i) {
            const Offer& o = self.offers_[i];
            const auto row = static_cast<std::uint32_t>(i);
            // The checks of Offer::validate, with label syntax checked once per distinct key / value;
            // on any failure Offer::validate itself produces the message.
            bool ok = !o.cluster_id.empty();
            std::size_t j = 0;
            for (const auto& [key, value] : o.labels) {
                if (j == label_hint.size()) label_hint.push_back(std::numeric_limits<std::uint32_t>::max());
                const auto k = self.label_keys_.intern(key, label_hint[j++]);
                if (k == self.label_.size()) {
                    self.label_.emplace_back();
                    self.label_values_.emplace_back();
                    key_valid.push_back(detail::is_label_key(key) ? 1 : 0);
                    value_valid.emplace_back();
                    value_hint.push_back(std::numeric_limits<std::uint32_t>::max());
                }
                const auto v = self.label_values_[k].intern(value, value_hint[k]);
                if (v == value_valid[k].size()) value_valid[k].push_back(detail::is_label_value(value) ? 1 : 0);
                ok = ok && key_valid[k] != 0 && value_valid[k][v] != 0;
                self.label_[k].rows.push_back(row);
                self.label_[k].values.push_back(static_cast<std::int32_t>(v));
            }
            j = 0;
            std::int64_t cpu = 0, memory = 0;
            for (const auto& [name, amount] : o.capacity) {
                if (j == capacity_hint.size()) capacity_hint.push_back(std::numeric_limits<std::uint32_t>::max());
                const auto k = self.resources_.intern(name, capacity_hint[j++]);
                if (k == self.capacity_.size()) self.capacity_.emplace_back();
                ok = ok && amount >= 0;
                if (k == cpu_id) cpu = amount;
                if (k == memory_id) memory = amount;
                self.capacity_[k].rows.push_back(row);
                self.capacity_[k].values.push_back(amount);
            }
            ok = ok && cpu > 0 && memory > 0 && o.max_nodes >= 1 && std::isfinite(o.node_price) && o.node_price >= 0.0;
            j = 0;
            bool per_unit = false;
            for (const auto& [name, price] : o.unit_prices) {
                if (j == unit_hint.size()) unit_hint.push_back(std::numeric_limits<std::uint32_t>::max());
                const auto k = self.unit_names_.intern(name, unit_hint[j++]);
                if (k == self.unit_price_.size()) self.unit_price_.emplace_back();
                ok = ok && !name.empty() && std::isfinite(price) && price >= 0.0;
                per_unit = per_unit || price > 0.0;
                self.unit_price_[k].rows.push_back(row);
                self.unit_price_[k].values.push_back(price);
            }
            const auto figure = [&](const std::optional<double>& f) {
                if (!f) return missing;
                ok = ok && std::isfinite(*f) && *f >= 0.0;
                return *f;
            };
            self.latency_[i] = figure(o.latency_ms);
            self.bandwidth_[i] = figure(o.bandwidth_mbps);
            self.power_[i] = figure(o.power_watts);
            self.carbon_[i] = figure(o.carbon_intensity);
            if (!ok) {
                try {
                    o.template validate<Defer>();
                } catch (const InvalidArgument& e) {
                    throw InvalidArgument(continuum::detail::message("offers[{}]: {}", i, e.what()));
                }
            }
            self.node_price_[i] = o.node_price;
            self.node_cost_[i] = o.node_cost();
            self.per_unit_[i] = per_unit ? 1 : 0;
            self.nat_[i] = o.reachability == Reachability::nat ? 1 : 0;
            self.max_nodes_[i] = o.max_nodes;
        }
        for (auto& c : self.capacity_) c.finish(n, 0);
        for (auto& c : self.unit_price_) c.finish(n, 0.0);
        for (auto& c : self.label_) c.finish(n, -1);
        if (const auto dup = detail::first_duplicate_cluster_id(self.offers_)) {
            throw InvalidArgument(continuum::detail::message("offers[{}]: duplicate cluster_id \"{}\"", *dup, self.offers_[*dup].cluster_id));
        }
        if (with_tie_order) {
            Hints order(n);
            std::iota(order.begin(), order.end(), std::uint32_t{0});
            std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
                if (self.node_cost_[a] != self.node_cost_[b]) return self.node_cost_[a] < self.node_cost_[b];
                return self.offers_[a].cluster_id < self.offers_[b].cluster_id;
            });
            self.tie_rank_.resize(n);
            for (std::size_t k = 0; k < n; ++k) self.tie_rank_[order[k]] = static_cast<std::uint32_t>(k);
        }
    }

    std::span<const Offer> offers_;
    std::shared_ptr<const std::vector<Offer>> owned_;
    std::vector<double> node_cost_, node_price_, latency_, bandwidth_, power_, carbon_;
    std::vector<std::uint8_t> per_unit_, nat_;
    std::vector<std::int64_t> max_nodes_;
    std::vector<std::uint32_t> tie_rank_;
    detail::Interner resources_, unit_names_, label_keys_;
    std::vector<detail::CatalogueColumn<std::int64_t>> capacity_;
    std::vector<detail::CatalogueColumn<double>> unit_price_;
    std::vector<detail::CatalogueColumn<std::int32_t>> label_;
    std::vector<detail::Interner> label_values_;
};

}  // namespace continuum::federation
