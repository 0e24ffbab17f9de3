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

}  // namespace continuum::detail
