// The reservation ledger: the Federation Broker's consistency role in seed 000 ("keeping track of
// the resources that are currently used, to prevent inconsistencies derived from simultaneous
// access to the peer information"). Consumers reserve, commit and release amounts of an offer's
// capacity; a reservation never takes a provider past its capacity. Thread-safe (one mutex).
#pragma once

#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>
#include <continuum/core/time.hpp>
#include <continuum/federation/offer.hpp>

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
};

class Ledger {
public:
    Ledger() = default;

    /// One provider per offer, with capacity x max_nodes.
    /// \throws InvalidArgument as validate_offers.
    explicit Ledger(std::span<const Offer> offers) {
        validate_offers(offers);
        for (const auto& o : offers) providers_[o.cluster_id].capacity = o.capacity * o.max_nodes;
    }

    /// Sets (or adds) a provider's capacity.
    /// \throws InvalidArgument on an empty id, a negative amount, or a capacity below what is already held.
    void set_capacity(std::string_view cluster_id, const Resources& capacity) {
        if (cluster_id.empty()) throw InvalidArgument("ledger: cluster_id must not be empty");
        if (capacity.any_negative()) throw InvalidArgument(fmt::format("ledger: capacity of {} has a negative amount: {}", cluster_id, capacity));
        const std::lock_guard lock(mutex_);
        auto& provider = providers_[std::string(cluster_id)];
        if (!provider.held.fits_in(capacity)) {
            throw InvalidArgument(fmt::format("ledger: capacity {} of {} is below what is held, {}", capacity, cluster_id, provider.held));
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
        throw Infeasible(fmt::format("ledger: {} cannot reserve {} of {}: only {} is free", consumer, amount, cluster_id, available(cluster_id)));
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
        std::vector<Reservation> out;
        for (const auto& [id, r] : reservations_) {
            if (!consumer || r.consumer == *consumer) out.push_back(r);
        }
        return out;
    }
    [[nodiscard]] std::vector<std::string> providers() const {
        const std::lock_guard lock(mutex_);
        std::vector<std::string> out;
        for (const auto& [id, p] : providers_) out.push_back(id);
        return out;
    }

    /// Consistency check under one lock: for every provider, held == sum of live reservations and
    /// held fits in capacity. Returns an empty string when consistent, else what is wrong.
    [[nodiscard]] std::string audit() const {
        const std::lock_guard lock(mutex_);
        std::map<std::string, Resources, std::less<>> sums;
        for (const auto& [id, r] : reservations_) sums[r.cluster_id] += r.amount;
        for (const auto& [id, p] : providers_) {
            const auto it = sums.find(id);
            const Resources sum = it == sums.end() ? Resources{} : it->second;
            if (!(sum == p.held)) return fmt::format("{}: held {} but reservations sum to {}", id, p.held, sum);
            if (!p.held.fits_in(p.capacity)) return fmt::format("{}: held {} exceeds capacity {}", id, p.held, p.capacity);
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
        if (amount.any_negative() || amount.empty()) throw InvalidArgument(fmt::format("ledger: {} must reserve a positive amount, got {}", consumer, amount));
    }
    Provider& provider_locked(std::string_view cluster_id) {
        const auto it = providers_.find(cluster_id);
        if (it == providers_.end()) throw InvalidArgument(fmt::format("ledger: unknown provider \"{}\"", cluster_id));
        return it->second;
    }
    [[nodiscard]] const Provider& provider_locked(std::string_view cluster_id) const {
        const auto it = providers_.find(cluster_id);
        if (it == providers_.end()) throw InvalidArgument(fmt::format("ledger: unknown provider \"{}\"", cluster_id));
        return it->second;
    }
    Reservation& reservation_locked(ReservationId id) {
        const auto it = reservations_.find(id);
        if (it == reservations_.end()) throw InvalidArgument(fmt::format("ledger: unknown or released reservation {}", id));
        return it->second;
    }

    mutable std::mutex mutex_;
    std::map<std::string, Provider, std::less<>> providers_;
    std::map<ReservationId, Reservation> reservations_;
    ReservationId last_id_ = 0;
};

}  // namespace continuum::federation
