// Umbrella header for continuum/policy: strategic policies, the utility U(S | P), the selector.
#pragma once

#include <continuum/policy/policy.hpp>
#include <continuum/policy/selector.hpp>
#include <continuum/policy/utility.hpp>
