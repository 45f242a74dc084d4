/**
 * The common query of the analytics endpoints (PLATFORM.md §14): `from`/`to` instants (default
 * the last 7 days up to now), at most 92 days, and the bucket (default `hour` up to 48 hours,
 * else `day`; `hour` over more than 7 days is refused). Failures are 400s naming the parameter.
 */
import { invalidRequest } from "@groundwork/core";
import { type AnalyticsBucket, DAY_MS, HOUR_MS } from "./time-buckets.js";

export const DEFAULT_SPAN_MS = 7 * DAY_MS;
export const MAX_SPAN_MS = 92 * DAY_MS;
export const MAX_HOURLY_SPAN_MS = 7 * DAY_MS;
export const HOURLY_DEFAULT_SPAN_MS = 48 * HOUR_MS;

export interface AnalyticsRange {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  bucket: AnalyticsBucket;
}

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):?(\d{2}))$/i;

/** An ISO 8601 instant with an offset or `Z` as epoch ms; null when `text` is not one. */
export function parseInstant(text: string): number | null {
  const match = INSTANT.exec(text);
  if (match === null) return null;
  const [, y, mo, d, h, mi, s, fraction, zone, zh, zm] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  date.setUTCFullYear(year); // Date.UTC reads years 0-99 as 1900-1999
  if (date.getUTCDate() !== day) return null; // 30 February and the like
  const millis = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  let offset = 0;
  if (zone !== undefined && zone.toUpperCase() !== "Z") {
    const hours = Number(zh);
    const minutes = Number(zm);
    if (hours > 23 || minutes > 59) return null;
    offset = (zone.startsWith("-") ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  return date.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 + millis - offset;
}

export interface RangeQuery {
  from?: string | undefined;
  to?: string | undefined;
  bucket?: string | undefined;
}

function instantParam(name: "from" | "to", text: string): number {
  const value = parseInstant(text);
  if (value === null) {
    throw invalidRequest(
      `${name} must be an ISO 8601 instant with an offset or Z, e.g. 2025-01-31T09:15:00.000Z`,
      { param: name },
    );
  }
  return value;
}

/** Applies the defaults and rules of the common query; `now` is epoch ms. */
export function resolveAnalyticsRange(query: RangeQuery, now: number): AnalyticsRange {
  const to = query.to === undefined ? now : instantParam("to", query.to);
  const from = query.from === undefined ? to - DEFAULT_SPAN_MS : instantParam("from", query.from);
  if (from >= to) throw invalidRequest("from must be before to", { param: "from" });
  if (to - from > MAX_SPAN_MS)
    throw invalidRequest("from and to may be at most 92 days apart", { param: "from" });
  if (query.bucket !== undefined && query.bucket !== "hour" && query.bucket !== "day") {
    throw invalidRequest("bucket must be hour or day", { param: "bucket" });
  }
  const bucket = query.bucket ?? (to - from <= HOURLY_DEFAULT_SPAN_MS ? "hour" : "day");
  if (bucket === "hour" && to - from > MAX_HOURLY_SPAN_MS) {
    throw invalidRequest("bucket hour is allowed for spans of at most 7 days; use day", { param: "bucket" });
  }
  return { from, to, bucket };
}
