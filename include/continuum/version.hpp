// continuum's version: the single source of truth. CMake parses the three macros below
// (CMakeLists.txt), and the Python package exposes them as continuum.__version__.
#pragma once

#define CONTINUUM_VERSION_MAJOR 0
#define CONTINUUM_VERSION_MINOR 1
#define CONTINUUM_VERSION_PATCH 0

#define CONTINUUM_VERSION (CONTINUUM_VERSION_MAJOR * 10000 + CONTINUUM_VERSION_MINOR * 100 + CONTINUUM_VERSION_PATCH)

namespace continuum {
/// The library version as "major.minor.patch".
inline constexpr const char* version_string = "0.1.0";
}  // namespace continuum
