// span_of(v): a std::span over a vector's elements, built from data() and size() instead of through
// std::span's range constructor. That constructor's constraints (contiguous_range, sized_range,
// borrowed_range over the argument type) are evaluated once per argument type wherever a call
// converts, or only considers converting, a non-span to a span, at about 15 ms of g++ each; the
// umbrella's own code did so for 19 types (issue 21). Calls inside continuum's headers pass
// span_of(v) (or a span) where a span parameter meets a vector; users' calls are unchanged.
#pragma once

#include <span>
#include <vector>

namespace continuum::detail {

template <class T, class Allocator>
[[nodiscard]] std::span<const T> span_of(const std::vector<T, Allocator>& values) noexcept {
    return std::span<const T>(values.data(), values.size());
}

template <class T, class Allocator>
[[nodiscard]] std::span<T> mutable_span_of(std::vector<T, Allocator>& values) noexcept {
    return std::span<T>(values.data(), values.size());
}

}  // namespace continuum::detail
