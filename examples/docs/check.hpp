// CHECK(condition) for the docs examples (examples/docs/*.cpp): each example checks the values the
// page promises, so ctest fails (exit status 1, the failed condition on stderr) when they change.
#pragma once

#include <cstdio>
#include <cstdlib>

#define CHECK(condition)                                                                   \
    do {                                                                                   \
        if (!(condition)) {                                                                \
            std::fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #condition); \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (false)
