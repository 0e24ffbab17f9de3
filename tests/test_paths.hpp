// Where the tests find their data: the repository (data/, models/), tests/fixtures and ../shared beside
// the repository. Defined in main.cpp, the one unit compiled with these paths (as -D values): the test
// units carry no absolute path of the checkout, so a compiler cache reuses them across clones
// (ccache's base_dir rewrites paths in arguments, not inside a -D value).
#pragma once

#include <string>

namespace continuum_test {

std::string source_dir();    ///< the repository's root
std::string fixtures_dir();  ///< tests/fixtures
std::string shared_dir();    ///< ../shared beside the repository

}  // namespace continuum_test
