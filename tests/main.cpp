// The doctest runner shared by every test executable (Debian's doctest ships no doctest_with_main), and
// the paths of tests/test_paths.hpp (this unit alone is compiled with them).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "test_paths.hpp"

namespace continuum_test {

std::string source_dir() { return CONTINUUM_SOURCE_DIR; }
std::string fixtures_dir() { return CONTINUUM_TEST_FIXTURES; }
std::string shared_dir() { return CONTINUUM_SHARED_DIR; }

}  // namespace continuum_test
