// Operator-defined quota levels and snapping to them: the paper's GetNearestQuotaLevel (seed 001,
// Algorithm 1 line 15). With levels {20, 40, 60, 80, 100} a predicted usage of 77 gives 80, 42
// gives 60 and 19 gives 20: the smallest level that still covers the value (snap_up). A value
// above the top level is reported (a flag, or Infeasible: the caller's choice), never capped.
#pragma once

#include <continuum/core/detail/deferred.hpp>
#include <continuum/core/detail/message.hpp>
#include <continuum/core/error.hpp>
#include <continuum/core/resources.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace continuum::quota {

/// Where a value fell relative to the levels.
enum class SnapOutcome {
    on_level,      ///< `value` is a level
    above_top,     ///< the value exceeds the top level: `value` is the input, unchanged
    below_bottom,  ///< (snap_down only) the value is below the lowest level: `value` is the input, unchanged
};

/// Result of a reporting snap (try_snap_up, ...).
struct Snap {
    std::int64_t value = 0;
    SnapOutcome outcome = SnapOutcome::on_level;
    [[nodiscard]] bool on_level() const { return outcome == SnapOutcome::on_level; }
    friend bool operator==(const Snap&, const Snap&) = default;
};

/// Quota levels of one resource, in that resource's canonical units (millicores for cpu, bytes
/// for memory, counts otherwise): sorted, unique, positive.
template <typename Defer = void>
class BasicQuotaLevels {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    /// \throws InvalidArgument when `levels` is empty, has a value <= 0, or is not strictly increasing
    ///         (naming the index and value, as a quantity of `resource` when given).
    explicit BasicQuotaLevels(std::vector<std::int64_t> levels, std::string_view resource = {}) : levels_(std::move(levels)) { validate(resource); }
    BasicQuotaLevels(std::initializer_list<std::int64_t> levels) : levels_(levels) { validate({}); }

    /// Levels of `resource` written as Kubernetes quantities: parse("cpu", {"20", "40"}) holds
    /// 20000 and 40000 millicores.
    /// \throws ParseError for a malformed quantity; InvalidArgument as the constructor.
    static BasicQuotaLevels parse(std::string_view resource, std::span<const std::string> quantities) {
        Dep<std::vector<std::int64_t>> out;
        out.reserve(quantities.size());
        for (const auto& text : quantities) out.push_back(Resources{{resource, text}}.get(resource));
        return BasicQuotaLevels(std::move(out), resource);
    }
    static BasicQuotaLevels parse(std::string_view resource, std::initializer_list<std::string_view> quantities) {
        Dep<std::vector<std::string>> texts(quantities.begin(), quantities.end());
        return parse(resource, std::span<const std::string>(texts));
    }

    /// The smallest level >= value (GetNearestQuotaLevel): 77 -> 80, 42 -> 60, 19 -> 20.
    /// \throws InvalidArgument when value < 0; Infeasible when value is above the top level.
    [[nodiscard]] std::int64_t snap_up(std::int64_t value, std::string_view resource = {}) const {
        require_non_negative(value, "snap_up", resource);
        const auto it = std::lower_bound(levels_.begin(), levels_.end(), value);
        if (it == levels_.end()) throw above_top_error("snap_up", value, resource);
        return *it;
    }
    /// The largest level <= value.
    /// \throws InvalidArgument when value < 0; Infeasible when value is above the top level or below the lowest.
    [[nodiscard]] std::int64_t snap_down(std::int64_t value, std::string_view resource = {}) const {
        const Snap snap = try_snap_down(value, resource);
        if (snap.outcome == SnapOutcome::above_top) throw above_top_error("snap_down", value, resource);
        if (snap.outcome == SnapOutcome::below_bottom) {
            throw Infeasible(continuum::detail::message("snap_down: {} is below the lowest quota level {}", amount(value, resource), amount(levels_.front(), resource)));
        }
        return snap.value;
    }
    /// The level closest to value; a tie goes to the upper level (never under-provision on a tie).
    /// \throws InvalidArgument when value < 0; Infeasible when value is above the top level.
    [[nodiscard]] std::int64_t snap_nearest(std::int64_t value, std::string_view resource = {}) const {
        const Snap snap = try_snap_nearest(value, resource);
        if (snap.outcome == SnapOutcome::above_top) throw above_top_error("snap_nearest", value, resource);
        return snap.value;
    }

    /// snap_up that reports instead of throwing: above the top level, {value, above_top}.
    /// \throws InvalidArgument when value < 0.
    [[nodiscard]] Snap try_snap_up(std::int64_t value, std::string_view resource = {}) const {
        require_non_negative(value, "try_snap_up", resource);
        const auto it = std::lower_bound(levels_.begin(), levels_.end(), value);
        if (it == levels_.end()) return {value, SnapOutcome::above_top};
        return {*it, SnapOutcome::on_level};
    }
    /// snap_down that reports: above the top level {value, above_top}; below the lowest {value, below_bottom}.
    /// \throws InvalidArgument when value < 0.
    [[nodiscard]] Snap try_snap_down(std::int64_t value, std::string_view resource = {}) const {
        require_non_negative(value, "try_snap_down", resource);
        if (value > levels_.back()) return {value, SnapOutcome::above_top};
        const auto it = std::upper_bound(levels_.begin(), levels_.end(), value);
        if (it == levels_.begin()) return {value, SnapOutcome::below_bottom};
        return {*std::prev(it), SnapOutcome::on_level};
    }
    /// snap_nearest that reports: above the top level {value, above_top}.
    /// \throws InvalidArgument when value < 0.
    [[nodiscard]] Snap try_snap_nearest(std::int64_t value, std::string_view resource = {}) const {
        require_non_negative(value, "try_snap_nearest", resource);
        const auto it = std::lower_bound(levels_.begin(), levels_.end(), value);
        if (it == levels_.end()) return {value, SnapOutcome::above_top};
        if (*it == value || it == levels_.begin()) return {*it, SnapOutcome::on_level};
        const std::int64_t upper = *it;
        const std::int64_t lower = *std::prev(it);
        return {upper - value <= value - lower ? upper : lower, SnapOutcome::on_level};
    }

    [[nodiscard]] const std::vector<std::int64_t>& levels() const { return levels_; }
    [[nodiscard]] std::size_t size() const { return levels_.size(); }
    [[nodiscard]] std::int64_t top() const { return levels_.back(); }
    [[nodiscard]] std::int64_t bottom() const { return levels_.front(); }
    friend bool operator==(const BasicQuotaLevels&, const BasicQuotaLevels&) = default;

private:
    // Messages show an amount as a Kubernetes quantity of `resource` ("14500m", "8") when the caller
    // names the resource, else as the canonical integer it passed.
    static std::string amount(std::int64_t value, std::string_view resource) {
        return resource.empty() ? fmt::to_string(value) : format_resource(resource, value);
    }
    [[nodiscard]] std::string shown_levels(std::string_view resource) const {
        Dep<std::vector<std::string>> shown;
        shown.reserve(levels_.size());
        for (const auto level : levels_) shown.push_back(amount(level, resource));
        return continuum::detail::message("[{}]", fmt::join(shown, ", "));
    }
    void validate(std::string_view resource) const {
        if (levels_.empty()) throw InvalidArgument("quota levels: the list of levels is empty");
        for (std::size_t i = 0; i < levels_.size(); ++i) {
            if (levels_[i] <= 0) throw InvalidArgument(continuum::detail::message("quota levels: level [{}] = {} must be > 0", i, amount(levels_[i], resource)));
            if (i > 0 && levels_[i] <= levels_[i - 1]) {
                throw InvalidArgument(continuum::detail::message("quota levels must be sorted and unique: level [{}] = {} follows {}", i, amount(levels_[i], resource),
                                                                 amount(levels_[i - 1], resource)));
            }
        }
    }
    static void require_non_negative(std::int64_t value, std::string_view what, std::string_view resource) {
        if (value < 0) throw InvalidArgument(continuum::detail::message("{}: value must be >= 0, got {}", what, amount(value, resource)));
    }
    [[nodiscard]] Infeasible above_top_error(std::string_view what, std::int64_t value, std::string_view resource) const {
        return Infeasible(continuum::detail::message("{}: {}{} is above the top quota level {} (levels {})", what, resource.empty() ? "" : continuum::detail::message("{} ", resource),
                                                     amount(value, resource), amount(levels_.back(), resource), shown_levels(resource)));
    }

    Dep<std::vector<std::int64_t>> levels_;
};

/// `QuotaLevels` is `BasicQuotaLevels<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using QuotaLevels = BasicQuotaLevels<>;

/// Result of snapping a whole Resources up.
struct ResourcesSnap {
    Resources value;                          ///< snapped resources (above-top ones keep their input value)
    std::vector<std::string> above_top;       ///< resources whose value exceeded their top level
};

/// Quota levels per resource name. Resources without levels are left as they are when snapping.
template <typename Defer = void>
class BasicResourceQuotaLevels {
private:
    /// T, spelled dependent on Defer: what the members name is compiled only where the class is (see
    /// core/detail/deferred.hpp; clang compiles non-dependent expressions of templates at once).
    template <typename T>
    using Dep = continuum::detail::deferred_t<T, Defer>;

public:
    BasicResourceQuotaLevels() = default;

    /// Sets (or replaces) the levels of `resource`.
    /// \throws InvalidArgument on an empty resource name.
    BasicResourceQuotaLevels& set(std::string_view resource, QuotaLevels levels) {
        if (resource.empty()) throw InvalidArgument("quota levels: resource name must not be empty");
        const auto it = lower(resource);
        if (it != entries_.end() && it->first == resource) {
            it->second = std::move(levels);
        } else {
            entries_.emplace(it, std::string(resource), std::move(levels));
        }
        return *this;
    }
    /// The levels of `resource`, or nullptr when it has none.
    [[nodiscard]] const QuotaLevels* find(std::string_view resource) const {
        const auto it = std::lower_bound(entries_.begin(), entries_.end(), resource,
                                         [](const auto& e, std::string_view n) { return e.first < n; });
        return it != entries_.end() && it->first == resource ? &it->second : nullptr;
    }
    [[nodiscard]] bool empty() const { return entries_.empty(); }
    [[nodiscard]] const std::vector<std::pair<std::string, QuotaLevels>>& entries() const { return entries_; }

    /// Every resource that has levels snapped up; the others unchanged.
    /// \throws InvalidArgument for a negative amount; Infeasible naming the resource above its top level.
    [[nodiscard]] Resources snap_up(const Resources& value) const {
        ResourcesSnap snap = try_snap_up(value);
        if (!snap.above_top.empty()) {
            const std::string& name = snap.above_top.front();
            throw Infeasible(continuum::detail::message("snap_up: {} {} is above the top quota level {}", name, format_resource(name, value.get(name)),
                                                        format_resource(name, find(name)->top())));
        }
        return std::move(snap.value);
    }
    /// snap_up that reports resources above their top level instead of throwing.
    /// \throws InvalidArgument for a negative amount (naming the resource).
    [[nodiscard]] ResourcesSnap try_snap_up(const Resources& value) const {
        ResourcesSnap out{value, {}};
        for (const auto& [name, amount] : value) {
            const QuotaLevels* levels = find(name);
            if (amount < 0) throw InvalidArgument(continuum::detail::message("snap_up: resource \"{}\" must be >= 0, got {}", name, format_resource(name, amount)));
            if (levels == nullptr) continue;
            const Snap snap = levels->try_snap_up(amount);
            if (snap.outcome == SnapOutcome::above_top) out.above_top.push_back(name);
            out.value.set(name, snap.value);
        }
        return out;
    }

private:
    std::vector<std::pair<std::string, QuotaLevels>>::iterator lower(std::string_view resource) {
        return std::lower_bound(entries_.begin(), entries_.end(), resource, [](const auto& e, std::string_view n) { return e.first < n; });
    }
    Dep<std::vector<std::pair<std::string, QuotaLevels>>> entries_;
};

/// `ResourceQuotaLevels` is `BasicResourceQuotaLevels<>`; the parameter only keeps the members from compiling in a unit that does
/// not use them (issue 21).
using ResourceQuotaLevels = BasicResourceQuotaLevels<>;

}  // namespace continuum::quota
