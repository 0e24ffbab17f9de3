// How a fuzz target is declared: CONTINUUM_FUZZ_TARGET(name) { ... } defines the function that checks
// one input (`data`, `size`) and registers it as fuzz_<name>. All targets are linked into one program,
// continuum_fuzz (fuzz_main.cpp), which runs the target named by the file it was started as
// (build/fuzz/fuzz_<name> is a link to it), so the library code they share is compiled once per group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace continuum::fuzz {

/// The check of one input: libFuzzer's LLVMFuzzerTestOneInput for one target.
using Target = int (*)(const std::uint8_t* data, std::size_t size);

/// Every registered target by its program name ("fuzz_quantity").
inline std::map<std::string, Target>& targets() {
    static std::map<std::string, Target> registry;
    return registry;
}

/// Registers `target` as `name`; true, so that a namespace-scope constant can hold the call.
inline bool register_target(const char* name, Target target) {
    targets().emplace(name, target);
    return true;
}

}  // namespace continuum::fuzz

/// Declares fuzz target fuzz_<name>; the braces that follow are its body, with `data` and `size`.
#define CONTINUUM_FUZZ_TARGET(name)                                                                                   \
    static int continuum_fuzz_##name(const std::uint8_t* data, std::size_t size);                                     \
    [[maybe_unused]] static const bool continuum_fuzz_registered_##name =                                             \
        ::continuum::fuzz::register_target("fuzz_" #name, &continuum_fuzz_##name);                                     \
    static int continuum_fuzz_##name(const std::uint8_t* data, std::size_t size)
