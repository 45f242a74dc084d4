/** Analytics answers as the API shows them (PLATFORM.md §14): instants as ISO strings with milliseconds. */
import type { AnalyticsErrors, AnalyticsQualityTrend, AnalyticsTimeseries } from "@groundwork/platform";

const iso = (ms: number) => new Date(ms).toISOString();

/** `from` and `to` of any answer. */
export function renderRange<T extends { from: number; to: number }>(answer: T) {
  return { ...answer, from: iso(answer.from), to: iso(answer.to) };
}

/** Time series: each point's bucket start too. */
export function renderSeries<T extends AnalyticsTimeseries | AnalyticsQualityTrend>(answer: T) {
  return {
    ...renderRange(answer),
    points: answer.points.map((point) => ({ ...point, start: iso(point.start) })),
  };
}

export function renderErrors(answer: AnalyticsErrors) {
  return {
    ...renderRange(answer),
    errors: answer.errors.map((group) => ({ ...group, lastAt: iso(group.lastAt) })),
  };
}
