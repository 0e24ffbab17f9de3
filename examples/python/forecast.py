"""docs/forecast.md: fit Holt-Winters on 13 days of hourly CPU, forecast the 14th, compare with the
seasonal naive baseline, then let auto_ets and the portfolio choose a model."""
import numpy as np

from continuum import forecast

t = np.arange(14 * 24)
cpu = 40 + 10 * np.sin(2 * np.pi * t / 24) + 0.05 * t + 1.5 * np.sin(2.3 * t)  # hourly CPU %
history, next_day = cpu[:-24], cpu[-24:]

hw = forecast.HoltWinters(season_length=24, trend="add", damped=True, seasonal="add").fit(history)
mean, lower, upper = hw.forecast_interval(24, level=0.95)
naive = forecast.SeasonalNaive(24).fit(history).forecast(24)
smape_hw, smape_naive = forecast.smape(next_day, mean), forecast.smape(next_day, naive)
print(f"{hw.name}: peak {mean.max():.1f}, sMAPE {smape_hw:.2f} % (seasonal naive {smape_naive:.2f} %)")
print("fitted parameters:", {k: v for k, v in hw.params.items() if k != "initial_seasons"})
assert np.all(lower < mean) and np.all(mean < upper)
assert abs(mean.max() - 67.1) < 2.0  # the true mean peaks at 40 + 10 + 0.05 * 342
assert smape_hw < smape_naive
assert forecast.owa(history, next_day, mean, naive, 24) < 1.0  # M4's OWA: < 1 beats the reference

hw.update(next_day[0])  # O(1): absorbs one observation without refitting

# statsmodels' initialization_method="known": smoothing only, nothing fitted.
known = forecast.HoltWinters(24, trend="add", seasonal="add").fit_known(
    history, alpha=0.3, beta=0.1, gamma=0.2, initial_level=40.0, initial_trend=0.0,
    initial_seasons=10 * np.sin(2 * np.pi * np.arange(24) / 24))
assert known.params["alpha"] == 0.3 and np.isfinite(known.sse)

best = forecast.auto_ets(history, 24)  # AICc choice over 9 trend x season models
p = forecast.auto(history, season_lengths=[24])  # rolling-origin portfolio
print("auto_ets:", best.name, "| portfolio members:", p.members)
assert forecast.smape(next_day, p.forecast(24)) < smape_naive
