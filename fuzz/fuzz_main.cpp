// The entry points of continuum_fuzz, the one program holding every fuzz target: libFuzzer calls
// LLVMFuzzerInitialize with the command line, which picks the target named by the program's file name
// (build/fuzz/fuzz_quantity, a link to continuum_fuzz, runs fuzz_quantity) or, for the program started
// under its own name, by CONTINUUM_FUZZ_TARGET=fuzz_<name>; LLVMFuzzerTestOneInput runs that target.
#include "fuzz_target.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
continuum::fuzz::Target selected = nullptr;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    std::string name = *argc > 0 ? (*argv)[0] : "";
    if (const auto slash = name.rfind('/'); slash != std::string::npos) name.erase(0, slash + 1);
    if (const char* chosen = std::getenv("CONTINUUM_FUZZ_TARGET"); chosen != nullptr && name == "continuum_fuzz") name = chosen;
    const auto& targets = continuum::fuzz::targets();
    if (const auto found = targets.find(name); found != targets.end()) {
        selected = found->second;
        return 0;
    }
    std::fprintf(stderr, "continuum_fuzz: no fuzz target named \"%s\"; run it as one of these (a link of that name, or CONTINUUM_FUZZ_TARGET=NAME):\n", name.c_str());
    for (const auto& target : targets) std::fprintf(stderr, "  %s\n", target.first.c_str());
    std::exit(2);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { return selected(data, size); }
