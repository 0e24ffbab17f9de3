// Fuzzes the CSV trace reader (sim::load_csv_column, used for the Alibaba 2018 replay): the bytes
// are written to a temporary file and read by column name or by position, with a row offset and
// limit taken from the first bytes. Accepted traces give a LoadProfile whose every value is
// finite and whose sampled Series has the expected length; everything else is a ParseError or
// InvalidArgument.
#include "fuzz_target.hpp"
#include "fuzz_support.hpp"

#include <continuum/sim/load_profile.hpp>

#include <fstream>
#include <string>
#include <unistd.h>

CONTINUUM_FUZZ_TARGET(csv_trace) {
    namespace sim = continuum::sim;
    if (size < 2) return 0;
    static const std::string path = "/tmp/continuum_fuzz_csv_" + std::to_string(::getpid()) + ".csv";
    const std::uint8_t control = data[0];
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
    }
    static const char* const columns[] = {"", "cpu_util_percent", "value", "timestamp"};
    const std::size_t first_row = control & 0x3;
    const std::size_t max_rows = (control >> 2) & 0x3;
    try {
        const auto profile = sim::load_csv_column(path, columns[(control >> 4) & 0x3], std::chrono::seconds(30), first_row, max_rows);
        const auto series = profile.sample(std::chrono::seconds(30));
        CONTINUUM_FUZZ_CHECK(!series.empty());
        CONTINUUM_FUZZ_CHECK(continuum::fuzz::all_finite(series.values()));
        // from_samples holds the last value one step further: n rows sample to n + 1 values
        if (max_rows != 0) CONTINUUM_FUZZ_CHECK(series.size() <= max_rows + 1);
    } catch (const continuum::InvalidArgument&) {
    }
    return 0;
}
