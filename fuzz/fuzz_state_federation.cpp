// Fuzzes the federation state documents (Ledger, ScaleInTracker, FederatedClusterScaler): see
// state_fuzz_support.hpp for the invariants.
#include "fuzz_target.hpp"
#include "state_fuzz_support.hpp"

#include <cstddef>
#include <cstdint>

using namespace continuum;

CONTINUUM_FUZZ_TARGET(state_federation) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    fuzzing::check_document<federation::LedgerState>(text, [](const federation::LedgerState& s) {
        const federation::Ledger ledger(s);
        if (!ledger.audit().empty() || !(ledger.state() == s || ledger.state().reservations.size() == s.reservations.size())) std::abort();
    });
    fuzzing::check_document<federation::ScaleInTrackerState>(text, [](const auto& s) { (void)federation::ScaleInTracker({}, s); });
    fuzzing::check_document<federation::FederatedClusterScalerState>(text, [](const auto& s) { (void)federation::FederatedClusterScaler({}, {}, s); });
    return 0;
}
