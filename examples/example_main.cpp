// The examples as one program (examples/CMakeLists.txt, CONTINUUM_EXAMPLES_ONE_PROGRAM): runs the
// example named by the file name the program was started as (build/examples/example_quickstart, a link
// to continuum_examples, ...) or by its first argument (`continuum_examples doc_example_packing`), and
// exits with its status. Each example's main() is compiled as continuum_run_<name> in a generated unit
// of several examples.
#include <cstdio>
#include <string_view>

namespace {
struct ContinuumExample {
    std::string_view name;
    int (*run)();
};
}  // namespace

#include "examples_table.inc"

int main(int argc, char** argv) {
    std::string_view name = argc > 1 ? argv[1] : (argc > 0 ? argv[0] : "");
    if (argc <= 1) {
        if (const auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
    }
    for (const auto& example : continuum_examples) {
        if (example.name == name) return example.run();
    }
    std::fprintf(stderr, "continuum_examples: no example named '%.*s'; the examples are:\n",
                 static_cast<int>(name.size()), name.data());
    for (const auto& example : continuum_examples) {
        std::fprintf(stderr, "  %.*s\n", static_cast<int>(example.name.size()), example.name.data());
    }
    return 2;
}
