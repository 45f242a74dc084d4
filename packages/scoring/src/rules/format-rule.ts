import IBAN from "iban";
import {
  display,
  forEachValue,
  jsonType,
  parseRulePointer,
  RuleConfigError,
  type RuleEvaluator,
} from "./rule-kit.js";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const EMAIL = /^[^\s@]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;
const HTTP_URL = /^(https?):\/\/([^/?#]*)(?:[/?#].*)?$/is;
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const IBAN_SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;

/** Strict ISO 8601 calendar date in extended form, YYYY-MM-DD, with a real day of the month. */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** Shape only: one `@`, a dotted domain, a top-level domain of two or more letters. */
export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/**
 * Absolute http(s) URL with a host. The host is checked on the raw text, because the WHATWG parser
 * would silently punycode an international name: such a host must arrive punycoded already.
 */
export function isHttpUrl(value: string): boolean {
  if (/[\s\\]/.test(value)) return false;
  const match = HTTP_URL.exec(value);
  if (match === null) return false;
  const authority = match[2]!;
  const hostAndPort = authority.slice(authority.lastIndexOf("@") + 1);
  let host: string;
  if (hostAndPort.startsWith("[")) {
    const end = hostAndPort.indexOf("]");
    if (end === -1) return false;
    host = hostAndPort.slice(0, end + 1);
    if (!/^(?::\d{1,5})?$/.test(hostAndPort.slice(end + 1))) return false;
  } else {
    const colon = hostAndPort.indexOf(":");
    host = colon === -1 ? hostAndPort : hostAndPort.slice(0, colon);
    if (colon !== -1 && !/^\d{1,5}$/.test(hostAndPort.slice(colon + 1))) return false;
    if (host === "" || !host.split(".").every((label) => HOST_LABEL.test(label))) return false;
  }
  try {
    return new URL(value).hostname !== "";
  } catch {
    return false;
  }
}

/** 15 to 34 characters, country code, check digits and the mod-97 checksum, after removing spaces. */
export function isIban(value: string): boolean {
  const compact = value.replace(/ /g, "").toUpperCase();
  return compact.length >= 15 && compact.length <= 34 && IBAN_SHAPE.test(compact) && IBAN.isValid(compact);
}

const FORMATS: Record<string, (value: string) => boolean> = {
  DATE_ISO: isIsoDate,
  EMAIL: isEmail,
  URL: isHttpUrl,
  IBAN: isIban,
};

/** FORMAT: the string at each location satisfies the named format. */
export const evaluateFormatRule: RuleEvaluator = (rule, document, emit) => {
  const pointer = parseRulePointer(rule.field, "field", true);
  const format = typeof rule.format === "string" && Object.hasOwn(FORMATS, rule.format) ? rule.format : null;
  if (format === null) throw new RuleConfigError(`unknown format ${display(rule.format)}`);
  const check = FORMATS[format]!;
  const expected = `format ${format}`;

  forEachValue(document, pointer, expected, emit, (value, field) => {
    if (typeof value !== "string") {
      emit.error(field, expected, `value is a ${jsonType(value)}, not a string`);
      return;
    }
    emit.verdict(field, check(value), expected, display(value));
  });
};
