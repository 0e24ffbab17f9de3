// ScaledObject configuration and model (see scaled_object.hpp).
#include "scaled_object.hpp"

#include <continuum/core/error.hpp>
#include <continuum/core/series.hpp>
#include <continuum/forecast/holt_winters.hpp>
#include <continuum/forecast/lstm_loader.hpp>
#include <continuum/forecast/portfolio.hpp>
#include <continuum/serialization/forecast.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace keda_scaler {

using continuum::InvalidArgument;
namespace forecast = continuum::forecast;

namespace {

/// Prometheus answers at most 11,000 points per series and query; longer windows are read in parts.
constexpr std::int64_t max_points_per_query = 10'000;

std::optional<std::string> find(const std::map<std::string, std::string>& metadata, const std::string& key) {
    const auto it = metadata.find(key);
    if (it == metadata.end() || it->second.empty()) return std::nullopt;
    return it->second;
}

std::string require(const std::map<std::string, std::string>& metadata, const std::string& key) {
    auto value = find(metadata, key);
    if (!value) throw InvalidArgument(fmt::format("metadata {} is required", key));
    return *value;
}

double parse_number(const std::string& key, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(value)) {
        throw InvalidArgument(fmt::format("metadata {} = '{}' is not a finite number", key, text));
    }
    return value;
}

bool all_digits(const std::string& text) { return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos; }

std::int64_t steps_of(const std::string& key, std::int64_t seconds, std::int64_t step, bool exact) {
    if (exact && seconds % step != 0) {
        throw InvalidArgument(fmt::format("metadata {} = {} s is not a multiple of queryStep = {} s", key, seconds, step));
    }
    return (seconds + step - 1) / step;
}

forecast::AnyForecaster make_forecaster(const ScalerConfig& config) {
    if (config.model == "auto") {
        forecast::PortfolioOptions options;
        options.season_lengths = config.seasons;
        options.horizon = config.horizon_steps;
        return forecast::Portfolio(std::move(options));
    }
    if (config.model == "holt-winters") {
        forecast::HoltWintersSpec spec;
        spec.trend = forecast::Trend::additive;
        spec.damped = true;
        spec.seasonal = config.seasons.empty() ? forecast::Seasonality::none : forecast::Seasonality::additive;
        spec.season_length = config.seasons.empty() ? 2 : config.seasons.front();
        forecast::HoltWintersOptions options;
        // Long seasons (a day of 5-minute steps is 288) would otherwise optimise 288 initial states.
        if (spec.season_length > 48) options.initialization = forecast::Initialization::heuristic;
        return forecast::HoltWinters<double>(spec, options);
    }
    const std::string path = config.model.substr(5);  // "lstm:" checked by parse
    return forecast::load_lstm<float>(path);
}

}  // namespace

std::int64_t parse_duration(const std::string& key, const std::string& text) {
    static const std::map<std::string, std::int64_t> units{{"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400}, {"w", 604800}};
    std::int64_t total = 0;
    std::size_t at = 0;
    const auto bad = [&]() {
        return InvalidArgument(fmt::format("metadata {} = '{}' is not a duration such as 30s, 5m, 1h30m, 1d or 2w", key, text));
    };
    if (text.empty()) throw bad();
    while (at < text.size()) {
        const std::size_t digits = text.find_first_not_of("0123456789", at);
        if (digits == at || digits == std::string::npos) throw bad();
        const std::size_t unit_end = text.find_first_of("0123456789", digits);
        const auto unit = units.find(text.substr(digits, unit_end == std::string::npos ? std::string::npos : unit_end - digits));
        if (unit == units.end() || digits - at > 12) throw bad();
        total += std::stoll(text.substr(at, digits - at)) * unit->second;
        at = unit_end == std::string::npos ? text.size() : unit_end;
    }
    if (total <= 0) throw InvalidArgument(fmt::format("metadata {} = '{}' must be longer than 0 s", key, text));
    return total;
}

ScalerConfig ScalerConfig::parse(const std::map<std::string, std::string>& metadata, const std::string& default_server) {
    ScalerConfig c;
    c.server_address = find(metadata, "serverAddress").value_or(default_server);
    if (c.server_address.empty()) throw InvalidArgument("metadata serverAddress is required (no --prometheus default was given)");
    c.query = require(metadata, "query");
    if (auto step = find(metadata, "queryStep")) c.step_seconds = parse_duration("queryStep", *step);
    c.threshold = parse_number("threshold", require(metadata, "threshold"));
    if (!(c.threshold > 0.0)) throw InvalidArgument(fmt::format("metadata threshold = {} must be > 0", c.threshold));
    if (auto activation = find(metadata, "activationThreshold")) c.activation_threshold = parse_number("activationThreshold", *activation);
    c.horizon_steps = static_cast<int>(steps_of("predictHorizon", parse_duration("predictHorizon", require(metadata, "predictHorizon")), c.step_seconds, false));
    const auto history = parse_duration("historyTimeWindow", require(metadata, "historyTimeWindow"));
    c.history_points = static_cast<std::size_t>(history / c.step_seconds);
    if (c.history_points < 2) {
        throw InvalidArgument(fmt::format("metadata historyTimeWindow = {} s holds fewer than 2 steps of queryStep = {} s", history, c.step_seconds));
    }
    if (auto seasons = find(metadata, "seasons")) {
        std::size_t at = 0;
        while (at <= seasons->size()) {
            const auto comma = seasons->find(',', at);
            std::string item = seasons->substr(at, comma == std::string::npos ? std::string::npos : comma - at);
            item.erase(0, item.find_first_not_of(' '));
            item.erase(item.find_last_not_of(' ') + 1);
            const std::int64_t steps = all_digits(item) ? std::stoll(item) : steps_of("seasons", parse_duration("seasons", item), c.step_seconds, true);
            if (steps < 2 || steps > 100'000) {
                throw InvalidArgument(fmt::format("metadata seasons: '{}' is {} steps; a season must be 2 to 100000 steps of queryStep", item, steps));
            }
            c.seasons.push_back(static_cast<int>(steps));
            if (comma == std::string::npos) break;
            at = comma + 1;
        }
    }
    c.model = find(metadata, "model").value_or("auto");
    const bool lstm = c.model.rfind("lstm:", 0) == 0;
    if (c.model != "auto" && c.model != "holt-winters" && !(lstm && c.model.size() > 5)) {
        throw InvalidArgument(fmt::format("metadata model = '{}' is unknown; use auto, holt-winters or lstm:PATH", c.model));
    }
    if (auto level = find(metadata, "level")) {
        c.level = parse_number("level", *level);
        if (!(c.level > 0.0 && c.level < 1.0)) throw InvalidArgument(fmt::format("metadata level = {} must be in (0, 1), e.g. 0.9", c.level));
        if (lstm) throw InvalidArgument(fmt::format("metadata level = {}: the lstm model gives no prediction interval; remove level", c.level));
    }
    if (auto refit = find(metadata, "refitInterval")) c.refit_seconds = parse_duration("refitInterval", *refit);
    c.metric_name = find(metadata, "metricName").value_or(c.metric_name);
    return c;
}

std::string ScalerConfig::fingerprint() const {
    return fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}", server_address, query, step_seconds, horizon_steps, history_points, fmt::join(seasons, ","),
                       model, level, refit_seconds);
}

ScaledObjectModel::ScaledObjectModel(ScalerConfig config) : config_(std::move(config)), prototype_(make_forecaster(config_)) {}

void ScaledObjectModel::append(const std::vector<Sample>& samples, std::int64_t from) {
    const std::int64_t step = config_.step_seconds;
    for (const auto& s : samples) {
        if (s.time < from || (s.time - from) % step != 0) continue;  // off the grid: not ours
        if (buffer_.empty()) {
            buffer_start_ = s.time;
            buffer_.push_back(s.value);
            continue;
        }
        const std::int64_t last = buffer_start_ + static_cast<std::int64_t>(buffer_.size() - 1) * step;
        if (s.time <= last) continue;
        // Steps Prometheus had no sample for are interpolated linearly, so seasons stay aligned.
        const std::int64_t gap = (s.time - last) / step;
        const double previous = buffer_.back();
        for (std::int64_t k = 1; k < gap; ++k) {
            buffer_.push_back(previous + (s.value - previous) * static_cast<double>(k) / static_cast<double>(gap));
        }
        buffer_.push_back(s.value);
    }
}

void ScaledObjectModel::fit() {
    if (buffer_.size() > config_.history_points) {
        const std::size_t drop = buffer_.size() - config_.history_points;
        buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(drop));
        buffer_start_ += static_cast<std::int64_t>(drop) * config_.step_seconds;
    }
    forecast::AnyForecaster model = prototype_;
    try {
        model.fit(continuum::SeriesView(buffer_, continuum::Duration(config_.step_seconds * 1000)));
    } catch (const InvalidArgument& e) {
        throw FitFailed(fmt::format("cannot fit model {} on {} points of '{}': {}", config_.model, buffer_.size(), config_.query, e.what()));
    }
    forecaster_ = std::move(model);
    fit_end_ = buffer_.size();
    fitted_ = true;
    last_.refitted = true;
}

void ScaledObjectModel::compute_value() {
    const auto f = forecaster_.forecast(config_.horizon_steps, config_.level);
    const auto& values = config_.level > 0.0 && f.has_interval() ? f.upper : f.mean;
    last_.value = *std::max_element(values.begin(), values.end());
    last_.as_of = buffer_start_ + static_cast<std::int64_t>(buffer_.size() - 1) * config_.step_seconds;
    last_.model_name = forecaster_.name();
}

Evaluation ScaledObjectModel::evaluate(std::int64_t now, const SampleReader& read) {
    const std::int64_t step = config_.step_seconds;
    const std::int64_t end = now - ((now % step) + step) % step;
    const auto read_all = [&](std::int64_t start) {
        std::vector<Sample> out;
        for (std::int64_t from = start; from <= end; from += max_points_per_query * step) {
            std::vector<Sample> part;
            try {
                part = read(from, std::min(end, from + (max_points_per_query - 1) * step));
            } catch (const PrometheusNoData&) {
                if (from + max_points_per_query * step <= end) continue;  // an empty early part of a long window
                if (out.empty()) throw;
            }
            out.insert(out.end(), part.begin(), part.end());
        }
        return out;
    };
    last_.refitted = false;
    const std::int64_t newest = buffer_.empty() ? 0 : buffer_start_ + static_cast<std::int64_t>(buffer_.size() - 1) * step;
    const std::int64_t window_start = end - static_cast<std::int64_t>(config_.history_points - 1) * step;
    if (!fitted_ || newest < window_start) {  // first call, or the history left the window entirely
        const auto samples = read_all(window_start);
        buffer_.clear();
        append(samples, window_start);
        fit();
        compute_value();
        return last_;
    }
    if (end <= newest) return last_;  // no new step yet
    std::vector<Sample> samples;
    try {
        samples = read_all(newest + step);
    } catch (const PrometheusNoData&) {
        return last_;  // nothing new scraped yet: the last forecast stands (as_of tells its age)
    }
    const std::size_t before = buffer_.size();
    append(samples, newest + step);
    if (buffer_.size() == before) return last_;
    const std::int64_t fitted_at = buffer_start_ + static_cast<std::int64_t>(fit_end_ - 1) * step;
    const std::int64_t updated_to = buffer_start_ + static_cast<std::int64_t>(buffer_.size() - 1) * step;
    if (updated_to - fitted_at >= config_.refit_seconds) {
        fit();
    } else {
        for (std::size_t i = before; i < buffer_.size(); ++i) forecaster_.update(buffer_[i]);
    }
    compute_value();
    return last_;
}

namespace {

/// The fitted forecaster's state document (continuum's state values, issue 17): a Portfolio (model
/// "auto") gives its PortfolioState, the other models their ForecasterState.
nlohmann::json forecaster_state(const forecast::AnyForecaster& model) {
    if (const auto* portfolio = model.target<forecast::Portfolio>()) return continuum::serialization::to_json(portfolio->state());
    return continuum::serialization::to_json(forecast::state_of(model));
}

/// The configured `prototype` with the state of `doc`. \throws continuum::ParseError /
/// InvalidArgument naming the field when the document is malformed or does not fit the prototype.
forecast::AnyForecaster forecaster_with_state(const forecast::AnyForecaster& prototype, const nlohmann::json& doc) {
    if (const auto* portfolio = prototype.target<forecast::Portfolio>()) {
        return forecast::AnyForecaster(portfolio->with_state(continuum::serialization::from_json<forecast::PortfolioState>(doc)));
    }
    return forecast::with_state(prototype, continuum::serialization::from_json<forecast::ForecasterState>(doc));
}

}  // namespace

nlohmann::json ScaledObjectModel::state() const {
    nlohmann::json out{{"version", 2},      {"fingerprint", config_.fingerprint()}, {"step_seconds", config_.step_seconds},
                       {"fitted", fitted_}, {"buffer_start", buffer_start_},        {"fit_end", fit_end_},
                       {"values", buffer_}};
    if (fitted_) out["forecaster"] = forecaster_state(forecaster_);
    return out;
}

ScaledObjectModel ScaledObjectModel::restore(ScalerConfig config, const nlohmann::json& state) {
    ScaledObjectModel out(std::move(config));
    try {
        if (state.at("version").get<int>() != 2) throw InvalidArgument(fmt::format("state version {} is not 2", state.at("version").dump()));
        if (state.at("fingerprint").get<std::string>() != out.config_.fingerprint()) {
            throw InvalidArgument("state was saved for other metadata (fingerprint differs)");
        }
        out.buffer_start_ = state.at("buffer_start").get<std::int64_t>();
        out.buffer_ = state.at("values").get<std::vector<double>>();
        out.fit_end_ = state.at("fit_end").get<std::size_t>();
        if (!state.at("fitted").get<bool>()) return out;
        if (out.fit_end_ < 1 || out.fit_end_ > out.buffer_.size()) {
            throw InvalidArgument(fmt::format("state: fit_end = {} outside [1, {}]", out.fit_end_, out.buffer_.size()));
        }
        // The fitted forecaster itself, as the library's state value: no refit on restart (a
        // Portfolio's fit is the costly part), and the same forecasts bit for bit.
        out.forecaster_ = forecaster_with_state(out.prototype_, state.at("forecaster"));
    } catch (const nlohmann::json::exception& e) {
        throw InvalidArgument(fmt::format("state: {}", e.what()));
    } catch (const continuum::ParseError& e) {
        throw InvalidArgument(fmt::format("state.forecaster: {}", e.what()));
    }
    out.fitted_ = true;
    out.compute_value();
    return out;
}

}  // namespace keda_scaler
