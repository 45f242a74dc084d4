/** The knowledge-base benches' corpus generator (shared by kb-bench.ts and kb-keyword-bench.ts). */
// Deterministic synthetic text: pseudo-words with a Zipf-like frequency, ~60 words per chunk.
let seed = 42;
export function random(): number {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 4294967296;
}
const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "sto",
  "va",
  "qu",
  "tor",
  "bel",
  "dia",
  "fen",
  "gro",
  "hul",
  "jin",
  "pra",
  "sel",
];
const VOCABULARY = Array.from({ length: 6000 }, () => {
  const length = 2 + Math.floor(random() * 3);
  return Array.from({ length }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join("");
});
export function word(): string {
  return VOCABULARY[Math.floor(VOCABULARY.length * random() ** 2.2)] as string;
}
export function sentence(words: number): string {
  return `${Array.from({ length: words }, word).join(" ")}.`;
}
