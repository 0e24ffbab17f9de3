// deferred_t<T, Defer> is T, spelled so that it depends on the template parameter Defer. Inside a
// template with a defaulted `typename Defer = void` parameter, an expression naming
// deferred_t<HeavyType, Defer> is compiled only when the template is instantiated: clang (unlike
// g++) instantiates what a template's non-dependent expressions name even if the template never is.
#pragma once

namespace continuum::detail {

template <typename T, typename Defer>
struct Deferred {
    using type = T;
};

template <typename T, typename Defer>
using deferred_t = typename Deferred<T, Defer>::type;

/// `value`, as an expression that depends on Defer: inside a member template of a class that is not
/// a template, `auto& self = deferred<Defer>(*this);` and `self.member_...` are compiled only when
/// the member template is instantiated (clang instantiates the constexpr members of std::vector and
/// std::string that a non-dependent expression names at once, instantiated or not).
template <typename Defer, typename T>
constexpr T& deferred(T& value) noexcept {
    return value;
}

}  // namespace continuum::detail
