/**
 * A planted-span corpus: values placed at known positions (in code points) in generated text, in the
 * forms real documents use — case and whitespace changes, line-end hyphenation, numbers and dates
 * written differently, words interrupted by other words, repeated mentions, NFD storage, astral
 * characters, and near-miss decoys placed before the true mention. Deterministic (seeded).
 */

export type CaseKind =
  | "verbatim"
  | "case"
  | "whitespace"
  | "hyphenation"
  | "number"
  | "json-number"
  | "date"
  | "interrupted"
  | "repeat"
  | "nfd"
  | "astral"
  | "decoy"
  | "mixed";

export const CASE_KINDS: readonly CaseKind[] = [
  "verbatim",
  "case",
  "whitespace",
  "hyphenation",
  "number",
  "json-number",
  "date",
  "interrupted",
  "repeat",
  "nfd",
  "astral",
  "decoy",
  "mixed",
];

export interface PlantedCase {
  kind: CaseKind;
  text: string;
  /** One value per request, in order; the same value repeated asks for successive mentions. */
  values: Array<string | number>;
  /** The planted interval of each request, in code points. */
  truth: Array<{ start: number; end: number }>;
}

const FILLER = [
  "the",
  "payment",
  "terms",
  "apply",
  "to",
  "all",
  "deliveries",
  "under",
  "this",
  "agreement",
  "invoice",
  "total",
  "due",
  "within",
  "days",
  "of",
  "receipt",
  "signed",
  "by",
  "and",
];
const ASTRAL_FILLER = ["😀", "注文番号", "東京都", "🚚", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "株式会社"];
const NAME_WORDS = [
  "Acme",
  "Nordwind",
  "Bergmann",
  "Orion",
  "Helios",
  "Quantum",
  "Meridian",
  "Falkner",
  "Westbrook",
  "Sollberg",
];
const SUFFIXES = ["Holdings", "Logistics", "Partners", "Systems", "Industries", "Trading"];
const LONG_WORDS = ["International", "Transportation", "Logistikzentrum", "Verwaltungsgesellschaft"];
const INSERTS = ["(formerly", "Zenith)", "and", "Co.", "of", "Group", "-", "the"];
const ACCENTED = ["Müller", "Café", "Société", "Ærø", "Ångström", "Jürgen", "Crème", "Brûlée"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export function random(seed: number): () => number {
  // mulberry32
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Text assembled piece by piece, with the code-point offset of each planted piece recorded. */
class Builder {
  private readonly parts: string[] = [];
  private length = 0;

  constructor(private readonly next: () => number) {}

  filler(words: number, astral = false): void {
    for (let i = 0; i < words; i++) {
      const pool = astral && this.next() < 0.4 ? ASTRAL_FILLER : FILLER;
      this.add(`${pick(this.next, pool)}${this.next() < 0.1 ? ".\n" : " "}`);
    }
  }

  plant(text: string): { start: number; end: number } {
    const start = this.length;
    this.add(text);
    const span = { start, end: this.length };
    this.add(" ");
    return span;
  }

  add(text: string): void {
    this.parts.push(text);
    this.length += [...text].length;
  }

  text(): string {
    return this.parts.join("");
  }
}

function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)]!;
}

function companyName(next: () => number): string {
  const first = pick(next, NAME_WORDS);
  let second = pick(next, NAME_WORDS);
  while (second === first) second = pick(next, NAME_WORDS);
  return `${first} ${second} ${pick(next, SUFFIXES)}`;
}

function isoDate(next: () => number): { iso: string; year: number; month: number; day: number } {
  const year = 2000 + Math.floor(next() * 30);
  const month = 1 + Math.floor(next() * 12);
  const day = 1 + Math.floor(next() * 28);
  const iso = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return { iso, year, month, day };
}

function groupThousands(integer: string, mark: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, mark);
}

function oneCase(kind: CaseKind, next: () => number): PlantedCase {
  const text = new Builder(next);
  const values: Array<string | number> = [];
  const truth: Array<{ start: number; end: number }> = [];
  const plant = (value: string | number, written: string) => {
    values.push(value);
    truth.push(text.plant(written));
  };
  text.filler(5 + Math.floor(next() * 40), kind === "astral");
  switch (kind) {
    case "verbatim": {
      const value = companyName(next);
      plant(value, value);
      break;
    }
    case "case": {
      const value = companyName(next);
      const written = next() < 0.5 ? value.toUpperCase() : value.toLowerCase();
      plant(value, written);
      break;
    }
    case "whitespace": {
      const value = companyName(next);
      const written = value.split(" ").join(pick(next, ["  ", "\n", " \n ", "\t", "\u00a0"]));
      plant(value, written);
      break;
    }
    case "hyphenation": {
      const word = pick(next, LONG_WORDS);
      const value = `${pick(next, NAME_WORDS)} ${word} ${pick(next, SUFFIXES)}`;
      const cut = 3 + Math.floor(next() * (word.length - 6));
      plant(value, value.replace(word, `${word.slice(0, cut)}-\n${word.slice(cut)}`));
      break;
    }
    case "number":
    case "json-number": {
      const integer = String(1000 + Math.floor(next() * 999_000));
      const cents = String(Math.floor(next() * 100)).padStart(2, "0");
      const european = next() < 0.5;
      const written = european
        ? `${groupThousands(integer, ".")},${cents}`
        : `${groupThousands(integer, ",")}.${cents}`;
      const canonical = Number(`${integer}.${cents}`);
      plant(kind === "number" ? String(canonical) : canonical, written);
      break;
    }
    case "date": {
      const { iso, year, month, day } = isoDate(next);
      const name = MONTHS[month - 1]!;
      const written = pick(next, [
        `${day} ${name} ${year}`,
        `${name} ${day}, ${year}`,
        `${String(day).padStart(2, "0")}.${String(month).padStart(2, "0")}.${year}`,
        `${year}/${String(month).padStart(2, "0")}/${String(day).padStart(2, "0")}`,
        `${day}. ${name.slice(0, 3)}. ${year}`,
      ]);
      plant(iso, written);
      break;
    }
    case "interrupted": {
      const value = companyName(next);
      const words = value.split(" ");
      const inserted = 1 + Math.floor(next() * 3);
      const extra = Array.from({ length: inserted }, () => pick(next, INSERTS)).join(" ");
      const at = 1 + Math.floor(next() * (words.length - 1));
      plant(value, [...words.slice(0, at), extra, ...words.slice(at)].join(" "));
      break;
    }
    case "repeat": {
      const value = companyName(next);
      const times = 2 + Math.floor(next() * 3);
      for (let i = 0; i < times; i++) {
        plant(value, i % 2 === 1 ? value.toUpperCase() : value);
        text.filler(2 + Math.floor(next() * 10));
      }
      break;
    }
    case "nfd": {
      const value = `${pick(next, ACCENTED)} ${pick(next, ACCENTED)} ${pick(next, SUFFIXES)}`;
      plant(value, value.normalize("NFD"));
      break;
    }
    case "astral": {
      const value = `${pick(next, ASTRAL_FILLER)}${companyName(next)}`;
      plant(value.replace(/^\S+/, "").trim(), value.replace(/^\S+/, "").trim());
      break;
    }
    case "decoy": {
      const value = `${pick(next, NAME_WORDS)} ${pick(next, SUFFIXES)}`;
      const number = `${Math.floor(next() * 900_000) + 100_000}.${Math.floor(next() * 9) + 1}`;
      if (next() < 0.5) {
        // The value inside a longer word, then the value itself.
        text.add(`${value}gesellschaft `);
        text.filler(3);
        plant(value, value);
      } else {
        // The number inside a longer number ("948566.20" holds "948566.2"), then the number itself.
        text.add(`${number}0 `);
        text.filler(3);
        plant(number, number);
      }
      break;
    }
    case "mixed": {
      // One value mentioned several times, each in another form, with the first word alone as a decoy.
      const word = pick(next, LONG_WORDS);
      const value = `${pick(next, NAME_WORDS)} ${word} ${pick(next, SUFFIXES)}`;
      text.add(`${value.split(" ")[0]} `);
      text.filler(2);
      const forms = [
        value,
        value.toUpperCase(),
        value.split(" ").join(" \n  "),
        value.replace(word, `${word.slice(0, 4)}-\n${word.slice(4)}`),
        value.normalize("NFD").toLowerCase(),
      ];
      const times = 2 + Math.floor(next() * 3);
      for (let i = 0; i < times; i++) {
        plant(value, pick(next, forms));
        text.filler(1 + Math.floor(next() * 6));
      }
      break;
    }
  }
  text.filler(5 + Math.floor(next() * 30), kind === "astral");
  return { kind, text: text.text(), values, truth };
}

export function plantedCorpus(perKind: number, seed = 27): PlantedCase[] {
  const next = random(seed);
  return CASE_KINDS.flatMap((kind) => Array.from({ length: perKind }, () => oneCase(kind, next)));
}
