// Quota levels as the bindings take them from Python: QuotaLevelsOf (continuum.quota.QuotaLevels, the
// levels with the resource that names their unit) and to_quota_levels (a QuotaLevels or a list of
// amounts). Used by bind_quota.cpp and bind_sim.cpp.
#pragma once

#include "common.hpp"

#include <continuum/quota/levels.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace continuum::python {

/// Quota levels of one resource as Python holds them: the resource names the unit of the numbers
/// given and returned (QuotaLevels([2, 4, 8, 16]) are cores of cpu), the levels are canonical.
struct QuotaLevelsOf {
    std::string resource;
    quota::QuotaLevels levels;
};

/// Quota levels of `resource` from a QuotaLevels (of the same resource) or a sequence of amounts.
inline quota::QuotaLevels to_quota_levels(const py::handle& value, const std::string& resource, const std::string& argument) {
    if (py::isinstance<QuotaLevelsOf>(value)) {
        const auto& given = py::cast<const QuotaLevelsOf&>(value);
        if (given.resource != resource) {
            throw InvalidArgument(argument + ": QuotaLevels of resource \"" + given.resource + "\" given for \"" + resource + "\"");
        }
        return given.levels;
    }
    if (py::isinstance<py::str>(value) || !py::isinstance<py::iterable>(value)) {
        throw InvalidArgument(argument + ": expected a continuum.quota.QuotaLevels or a list of amounts, got " + type_name(value));
    }
    std::vector<std::int64_t> canonical;
    for (const auto& level : py::reinterpret_borrow<py::iterable>(value)) {
        canonical.push_back(amount_from_python(resource, level, argument + "[" + std::to_string(canonical.size()) + "]"));
    }
    return quota::QuotaLevels(std::move(canonical), resource);
}
}  // namespace continuum::python
