// Fuzzes the forecaster state documents (every ForecasterState alternative, Portfolio, LSTM
// parameters): see state_fuzz_support.hpp; a restored model must also forecast without crashing.
#include "fuzz_target.hpp"
#include "state_fuzz_support.hpp"

#include <cstddef>
#include <cstdint>

using namespace continuum;
namespace fc = continuum::forecast;

CONTINUUM_FUZZ_TARGET(state_forecast) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    fuzzing::check_document<fc::ForecasterState>(text, [](const fc::ForecasterState& s) {
        fc::AnyForecaster model = fc::restore_forecaster(s);
        try {
            (void)model.forecast(3, 0.9);
            model.update(1.0);
        } catch (const InvalidArgument&) {  // unfitted, or an update the model rejects
        }
    });
    fuzzing::check_document<fc::PortfolioState>(text, [](const auto& s) { (void)fc::Portfolio{}.with_state(s); });
    fuzzing::check_document<fc::LstmParameters<float>>(text, [](const auto& p) { (void)fc::Lstm<float>(p); });
    return 0;
}
