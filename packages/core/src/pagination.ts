/**
 * Pagination of list endpoints: `page` is 0-based, `size` defaults to 20 and is
 * capped at 100. The envelope is documented in docs/decisions.md.
 */
import { invalidRequest } from "./errors.js";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  page: number;
  size: number;
}

export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

/** Reads `page` and `size` from query parameters; bad values are a 400 naming the parameter. */
export function parsePageRequest(query: {
  page?: string | undefined;
  size?: string | undefined;
}): PageRequest {
  return {
    page: readInteger(query.page, "page", 0, 0, Number.MAX_SAFE_INTEGER),
    size: readInteger(query.size, "size", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
  };
}

function readInteger(
  raw: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) {
    throw invalidRequest(`Query parameter "${name}" must be an integer`, { param: name });
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw invalidRequest(`Query parameter "${name}" must be between ${min} and ${max}`, { param: name });
  }
  return value;
}

export function toPage<T>(content: T[], request: PageRequest, totalElements: number): Page<T> {
  return {
    content,
    page: request.page,
    size: request.size,
    totalElements,
    totalPages: Math.ceil(totalElements / request.size),
  };
}

/** SQL-style offset of the first element of the requested page. */
export function pageOffset(request: PageRequest): number {
  return request.page * request.size;
}
