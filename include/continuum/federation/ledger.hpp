// The reservation ledger: the Federation Broker's consistency role in seed 000 ("keeping track of
// the resources that are currently used, to prevent inconsistencies derived from simultaneous
// access to the peer information"). Consumers reserve, commit and release amounts of an offer's
// capacity; a reservation never takes a provider past its capacity. Thread-safe (one mutex).
// Its state (capacities, live reservations, the last id) is a LedgerState value, so a restarted
// broker keeps every reservation (serialization/federation.hpp writes it as JSON).
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>
#include <continuum/federation/offer.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace continuum::federation {

/// Identifies a reservation; never reused within a Ledger.
using ReservationId = std::uint64_t;

enum class ReservationState {
    reserved,   ///< held, may expire or be released
    committed,  ///< in use (the peering exists); only release frees it
};

struct Reservation {
    ReservationId id = 0;
    std::string consumer;
    std::string cluster_id;
    Resources amount;
    ReservationState state = ReservationState::reserved;
    std::optional<Time> expires_at;  ///< uncommitted reservations past this time are dropped by expire()

    friend bool operator==(const Reservation&, const Reservation&) = default;
};

/// One provider of a LedgerState.
struct LedgerProvider {
    std::string cluster_id;
    Resources capacity;

    friend bool operator==(const LedgerProvider&, const LedgerProvider&) = default;
};

/// Everything a Ledger remembers: providers by id, live reservations by id, and the last id handed
/// out (ids are never reused, also across a restore). What each provider holds is the sum of its
/// reservations and is recomputed on restore.
struct LedgerState {
    std::vector<LedgerProvider> providers;
    std::vector<Reservation> reservations;
    ReservationId last_id = 0;

    friend bool operator==(const LedgerState&, const LedgerState&) = default;
};

template <typename Defer = void>
class BasicLedger {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    BasicLedger() = default;

    /// One provider per offer, with capacity x max_nodes.
    /// \throws InvalidArgument as validate_offers.
    explicit BasicLedger(std::span<const Offer> offers) {
        validate_offers<Defer>(offers);
        for (const auto& o : offers) providers_[o.cluster_id].capacity = o.capacity * o.max_nodes;
    }

    /// Rebuilds a ledger from its state (the configuration of a ledger is its providers, which the
    /// state holds). Everything is validated before anything is kept.
    /// \throws InvalidArgument naming the field: an empty or repeated provider id, a negative
    ///         capacity, a reservation with id 0, above last_id or repeated, an empty consumer, an
    ///         unknown provider, a negative or empty amount, or reservations summing beyond a capacity.
    explicit BasicLedger(const LedgerState& state) {
        Dep<std::map<std::string, Provider, std::less<>>> providers;
        for (std::size_t i = 0; i < state.providers.size(); ++i) {
            const auto& p = state.providers[i];
            if (p.cluster_id.empty()) throw InvalidArgument(continuum::detail::message("ledger restore: providers[{}].cluster_id is empty", i));
            if (p.capacity.any_negative()) throw InvalidArgument(continuum::detail::message("ledger restore: providers[{}].capacity has a negative amount: {}", i, p.capacity));
            if (!providers.emplace(p.cluster_id, Provider{p.capacity, {}}).second) {
                throw InvalidArgument(continuum::detail::message("ledger restore: providers[{}].cluster_id \"{}\" appears twice", i, p.cluster_id));
            }
        }
        Dep<std::map<ReservationId, Reservation>> reservations;
        for (std::size_t i = 0; i < state.reservations.size(); ++i) {
            const auto& r = state.reservations[i];
            if (r.id == 0 || r.id > state.last_id) {
                throw InvalidArgument(continuum::detail::message("ledger restore: reservations[{}].id = {} is not in [1, last_id = {}]", i, r.id, state.last_id));
            }
            if (r.consumer.empty()) throw InvalidArgument(continuum::detail::message("ledger restore: reservations[{}].consumer is empty", i));
            if (r.amount.any_negative() || r.amount.empty()) {
                throw InvalidArgument(continuum::detail::message("ledger restore: reservations[{}].amount must be positive, got {}", i, r.amount));
            }
            const auto p = providers.find(r.cluster_id);
            if (p == providers.end()) throw InvalidArgument(continuum::detail::message("ledger restore: reservations[{}].cluster_id \"{}\" is not a provider", i, r.cluster_id));
            p->second.held += r.amount;
            if (!reservations.emplace(r.id, r).second) throw InvalidArgument(continuum::detail::message("ledger restore: reservations[{}].id = {} appears twice", i, r.id));
        }
        for (const auto& [id, p] : providers) {
            if (!p.held.fits_in(p.capacity)) {
                throw InvalidArgument(continuum::detail::message("ledger restore: the reservations of provider {} hold {}, beyond its capacity {}", id, p.held, p.capacity));
            }
        }
        providers_ = std::move(providers);
        reservations_ = std::move(reservations);
        last_id_ = state.last_id;
    }

    /// The ledger built from `offers` as it was when `state` was taken: the state's providers must
    /// be exactly the offers' cluster ids (capacities come from the state: set_capacity may have
    /// changed them). \throws InvalidArgument naming the provider missing on either side, or as
    /// Ledger(const LedgerState&).
    [[nodiscard]] static BasicLedger restore(std::span<const Offer> offers, const LedgerState& state) {
        validate_offers<Defer>(offers);
        for (const auto& o : offers) {
            const bool found = std::any_of(state.providers.begin(), state.providers.end(), [&](const LedgerProvider& p) { return p.cluster_id == o.cluster_id; });
            if (!found) throw InvalidArgument(continuum::detail::message("ledger restore: state.providers lacks offer \"{}\" of the configuration", o.cluster_id));
        }
        for (std::size_t i = 0; i < state.providers.size(); ++i) {
            const bool found = std::any_of(offers.begin(), offers.end(), [&](const Offer& o) { return o.cluster_id == state.providers[i].cluster_id; });
            if (!found) {
                throw InvalidArgument(continuum::detail::message("ledger restore: state.providers[{}] \"{}\" is not one of the configuration's offers", i, state.providers[i].cluster_id));
            }
        }
        return BasicLedger(state);
    }

    /// The whole state under one lock (providers and reservations by id).
    [[nodiscard]] LedgerState state() const {
        const std::lock_guard lock(mutex_);
        LedgerState out;
        for (const auto& [id, p] : providers_) out.providers.push_back({id, p.capacity});
        for (const auto& [id, r] : reservations_) out.reservations.push_back(r);
        out.last_id = last_id_;
        return out;
    }

    /// Sets (or adds) a provider's capacity.
    /// \throws InvalidArgument on an empty id, a negative amount, or a capacity below what is already held.
    void set_capacity(std::string_view cluster_id, const Resources& capacity) {
        if (cluster_id.empty()) throw InvalidArgument("ledger: cluster_id must not be empty");
        if (capacity.any_negative()) throw InvalidArgument(continuum::detail::message("ledger: capacity of {} has a negative amount: {}", cluster_id, capacity));
        const std::lock_guard lock(mutex_);
        auto& provider = providers_[std::string(cluster_id)];
        if (!provider.held.fits_in(capacity)) {
            throw InvalidArgument(continuum::detail::message("ledger: capacity {} of {} is below what is held, {}", capacity, cluster_id, provider.held));
        }
        provider.capacity = capacity;
    }

    /// Reserves `amount` of `cluster_id` for `consumer` if it fits in what is free; nullopt otherwise.
    /// \throws InvalidArgument on an unknown provider, an empty consumer, or a negative or empty amount.
    std::optional<ReservationId> try_reserve(std::string_view consumer, std::string_view cluster_id, const Resources& amount,
                                             std::optional<Time> expires_at = std::nullopt) {
        check_amount(consumer, amount);
        const std::lock_guard lock(mutex_);
        auto& provider = provider_locked(cluster_id);
        const Resources after = provider.held + amount;
        if (!after.fits_in(provider.capacity)) return std::nullopt;
        provider.held = after;
        const ReservationId id = ++last_id_;
        reservations_.emplace(id, Reservation{id, std::string(consumer), std::string(cluster_id), amount, ReservationState::reserved, expires_at});
        return id;
    }

    /// As try_reserve. \throws Infeasible naming what is free when the amount does not fit.
    ReservationId reserve(std::string_view consumer, std::string_view cluster_id, const Resources& amount, std::optional<Time> expires_at = std::nullopt) {
        if (auto id = try_reserve(consumer, cluster_id, amount, expires_at)) return *id;
        throw Infeasible(continuum::detail::message("ledger: {} cannot reserve {} of {}: only {} is free", consumer, amount, cluster_id, available(cluster_id)));
    }

    /// Marks a reservation as in use. \throws InvalidArgument for an unknown (or released) id.
    void commit(ReservationId id) {
        const std::lock_guard lock(mutex_);
        reservation_locked(id).state = ReservationState::committed;
    }

    /// Frees a reservation, committed or not. \throws InvalidArgument for an unknown (or released) id.
    void release(ReservationId id) {
        const std::lock_guard lock(mutex_);
        auto& r = reservation_locked(id);
        providers_.at(r.cluster_id).held -= r.amount;
        reservations_.erase(id);
    }

    /// Releases every uncommitted reservation whose expires_at is <= now; returns how many.
    std::size_t expire(Time now) {
        const std::lock_guard lock(mutex_);
        std::size_t count = 0;
        for (auto it = reservations_.begin(); it != reservations_.end();) {
            const auto& r = it->second;
            if (r.state == ReservationState::reserved && r.expires_at && *r.expires_at <= now) {
                providers_.at(r.cluster_id).held -= r.amount;
                it = reservations_.erase(it);
                ++count;
            } else {
                ++it;
            }
        }
        return count;
    }

    /// Capacity minus what is held. \throws InvalidArgument on an unknown provider.
    [[nodiscard]] Resources available(std::string_view cluster_id) const {
        const std::lock_guard lock(mutex_);
        const auto& p = provider_locked(cluster_id);
        return p.capacity - p.held;
    }
    /// Reserved plus committed. \throws InvalidArgument on an unknown provider.
    [[nodiscard]] Resources held(std::string_view cluster_id) const {
        const std::lock_guard lock(mutex_);
        return provider_locked(cluster_id).held;
    }
    [[nodiscard]] Resources capacity(std::string_view cluster_id) const {
        const std::lock_guard lock(mutex_);
        return provider_locked(cluster_id).capacity;
    }
    /// All live reservations, by id; or only those of one consumer.
    [[nodiscard]] std::vector<Reservation> reservations(std::optional<std::string_view> consumer = std::nullopt) const {
        const std::lock_guard lock(mutex_);
        Dep<std::vector<Reservation>> out;
        for (const auto& [id, r] : reservations_) {
            if (!consumer || r.consumer == *consumer) out.push_back(r);
        }
        return out;
    }
    [[nodiscard]] std::vector<std::string> providers() const {
        const std::lock_guard lock(mutex_);
        Dep<std::vector<std::string>> out;
        for (const auto& [id, p] : providers_) out.push_back(id);
        return out;
    }

    /// Consistency check under one lock: for every provider, held == sum of live reservations and
    /// held fits in capacity. Returns an empty string when consistent, else what is wrong.
    [[nodiscard]] std::string audit() const {
        const std::lock_guard lock(mutex_);
        Dep<std::map<std::string, Resources, std::less<>>> sums;
        for (const auto& [id, r] : reservations_) sums[r.cluster_id] += r.amount;
        for (const auto& [id, p] : providers_) {
            const auto it = sums.find(id);
            const Resources sum = it == sums.end() ? Resources{} : it->second;
            if (!(sum == p.held)) return continuum::detail::message("{}: held {} but reservations sum to {}", id, p.held, sum);
            if (!p.held.fits_in(p.capacity)) return continuum::detail::message("{}: held {} exceeds capacity {}", id, p.held, p.capacity);
        }
        return {};
    }

private:
    struct Provider {
        Resources capacity;
        Resources held;
    };

    static void check_amount(std::string_view consumer, const Resources& amount) {
        if (consumer.empty()) throw InvalidArgument("ledger: consumer must not be empty");
        if (amount.any_negative() || amount.empty()) throw InvalidArgument(continuum::detail::message("ledger: {} must reserve a positive amount, got {}", consumer, amount));
    }
    Provider& provider_locked(std::string_view cluster_id) {
        const auto it = providers_.find(cluster_id);
        if (it == providers_.end()) throw InvalidArgument(continuum::detail::message("ledger: unknown provider \"{}\"", cluster_id));
        return it->second;
    }
    [[nodiscard]] const Provider& provider_locked(std::string_view cluster_id) const {
        const auto it = providers_.find(cluster_id);
        if (it == providers_.end()) throw InvalidArgument(continuum::detail::message("ledger: unknown provider \"{}\"", cluster_id));
        return it->second;
    }
    Reservation& reservation_locked(ReservationId id) {
        const auto it = reservations_.find(id);
        if (it == reservations_.end()) throw InvalidArgument(continuum::detail::message("ledger: unknown or released reservation {}", id));
        return it->second;
    }

    mutable std::mutex mutex_;
    Dep<std::map<std::string, Provider, std::less<>>> providers_;
    Dep<std::map<ReservationId, Reservation>> reservations_;
    ReservationId last_id_ = 0;
};

/// `Ledger` is `BasicLedger<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using Ledger = BasicLedger<>;

}  // namespace continuum::federation
