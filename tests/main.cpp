// The doctest runner shared by every test executable (Debian's doctest ships no doctest_with_main).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
