import { SEPARATOR_CODES } from "./normalize-text.js";

/** Called for a pattern marked for verification, with where its occurrence lies in the raw text. */
export type OccurrenceCheck = (patternId: number, rawStart: number, rawEnd: number) => void;

const NO_NODE = -1;

/**
 * Aho–Corasick automaton over the distinct normalized strings grounding looks for. It is built once
 * per extraction and scanned once over each text, so the cost is linear in the text plus the patterns,
 * where one `indexOf` per value rescans the whole input for every value.
 *
 * The scan reads the raw text through the separator normalisation on the fly (a run of separators is
 * fed as one space), so no normalized copy of the text is built, and a hit can still be located in the
 * raw text to check it for an exact match.
 *
 * Patterns must be distinct: a repeated pattern reports only its last id.
 *
 * It works on UTF-16 code units. Patterns and texts are both NFC, so a character is the same code-unit
 * sequence on both sides and an astral character (a surrogate pair) can only match as a whole pair.
 */
export class PatternMatcher {
  // Most steps over ordinary text are taken from the root, so its transitions are a flat table; the
  // other nodes keep their few edges in one sorted, contiguous list each.
  // No edge leads back to the root, so 0 in this table means "no edge: stay at the root".
  private readonly rootNext = new Int32Array(0x10000);
  private readonly edgeStart: Int32Array;
  private readonly edgeCode: Uint16Array;
  private readonly edgeTarget: Int32Array;
  private readonly fail: Int32Array;
  private readonly terminal: Int32Array;
  // Nearest node on the failure chain that ends a pattern, or NO_NODE.
  private readonly output: Int32Array;
  // A node's depth is the length of the pattern that ends there.
  private readonly depth: Int32Array;
  // The first node to report on reaching a node: itself when it ends a pattern, else `output`.
  private readonly reportFrom: Int32Array;

  constructor(patterns: readonly string[]) {
    // Inserting the patterns in code-unit order means each one only branches off the previous one's
    // path, so the trie is built without any per-node lookup table, and every node's edges come out
    // already sorted.
    const order = patterns.map((_, id) => id).sort((a, b) => compareCodeUnits(patterns[a]!, patterns[b]!));
    // The trie has at most one node per pattern code unit (plus the root), so its arrays are allocated
    // once at that bound rather than grown push by push; only the used prefix is kept.
    let capacity = 1;
    let longest = 0;
    for (const pattern of patterns) {
      capacity += pattern.length;
      if (pattern.length > longest) longest = pattern.length;
    }
    const edgeParent = new Int32Array(capacity - 1);
    const edgeCodes = new Uint16Array(capacity - 1);
    const terminal = new Int32Array(capacity).fill(NO_NODE);
    const path = new Int32Array(longest + 1);
    let count = 1;
    let previous = "";
    for (const id of order) {
      const pattern = patterns[id]!;
      if (pattern.length === 0) continue;
      let shared = 0;
      const limit = Math.min(pattern.length, previous.length);
      while (shared < limit && pattern.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      for (let depth = shared; depth < pattern.length; depth++) {
        const child = count++;
        edgeParent[child - 1] = path[depth]!;
        edgeCodes[child - 1] = pattern.charCodeAt(depth);
        path[depth + 1] = child;
      }
      terminal[path[pattern.length]!] = id;
      previous = pattern;
    }

    // Edges were created child by child, so edge k leads to node k + 1; a stable counting sort by
    // parent lays them out contiguously per node.
    const edges = count - 1;
    this.terminal = terminal.slice(0, count);
    this.edgeStart = new Int32Array(count + 1);
    for (let edge = 0; edge < edges; edge++) this.edgeStart[edgeParent[edge]! + 1]!++;
    for (let node = 0; node < count; node++) this.edgeStart[node + 1]! += this.edgeStart[node]!;
    this.edgeCode = new Uint16Array(edges);
    this.edgeTarget = new Int32Array(edges);
    const cursor = this.edgeStart.slice(0, count);
    for (let edge = 0; edge < edges; edge++) {
      const parent = edgeParent[edge]!;
      const at = cursor[parent]!++;
      this.edgeCode[at] = edgeCodes[edge]!;
      this.edgeTarget[at] = edge + 1;
      if (parent === 0) this.rootNext[edgeCodes[edge]!] = edge + 1;
    }
    this.depth = new Int32Array(count);
    for (let edge = 0; edge < edges; edge++) this.depth[edge + 1] = this.depth[edgeParent[edge]!]! + 1;

    this.fail = new Int32Array(count);
    this.output = new Int32Array(count).fill(NO_NODE);
    const queue = new Int32Array(count);
    let head = 0;
    let tail = 0;
    for (let at = this.edgeStart[0]!; at < this.edgeStart[1]!; at++) queue[tail++] = this.edgeTarget[at]!;
    while (head < tail) {
      const node = queue[head++]!;
      for (let at = this.edgeStart[node]!; at < this.edgeStart[node + 1]!; at++) {
        const code = this.edgeCode[at]!;
        const child = this.edgeTarget[at]!;
        let candidate = this.fail[node]!;
        let target = this.step(candidate, code);
        while (target === NO_NODE && candidate !== 0) {
          candidate = this.fail[candidate]!;
          target = this.step(candidate, code);
        }
        const failTo = target === NO_NODE ? 0 : target;
        this.fail[child] = failTo;
        this.output[child] = this.terminal[failTo]! >= 0 ? failTo : this.output[failTo]!;
        queue[tail++] = child;
      }
    }
    this.reportFrom = this.terminal.map((id, node) => (id >= 0 ? node : this.output[node]!));
  }

  private step(node: number, code: number): number {
    if (node === 0) return this.rootNext[code] || NO_NODE;
    const end = this.edgeStart[node + 1]!;
    for (let at = this.edgeStart[node]!; at < end; at++) {
      const edge = this.edgeCode[at]!;
      if (edge === code) return this.edgeTarget[at]!;
      if (edge > code) return NO_NODE;
    }
    return NO_NODE;
  }

  /**
   * Sets `found[id] = 1` for every pattern occurring in the separator-normalized form of `text`, and
   * calls `check` for each occurrence of a pattern whose `verify[id]` is 1.
   */
  scan(text: string, found: Uint8Array, verify?: Uint8Array, check?: OccurrenceCheck): void {
    if (this.edgeStart[0] === this.edgeStart[1]) return;
    // Hand-inlined: this loop runs once per character of the input, which dominates grounding's cost.
    const { terminal, output, reportFrom, fail, rootNext, edgeStart, edgeCode, edgeTarget, depth } = this;
    const separators = SEPARATOR_CODES;
    let node = 0;
    let lastWasSeparator = false;
    const length = text.length;
    for (let i = 0; i < length; i++) {
      let code = text.charCodeAt(i);
      if (separators[code] === 1) {
        if (lastWasSeparator) continue;
        lastWasSeparator = true;
        code = 0x20;
      } else {
        lastWasSeparator = false;
      }

      for (;;) {
        if (node === 0) {
          node = rootNext[code]!;
          break;
        }
        const end = edgeStart[node + 1]!;
        let target = NO_NODE;
        for (let at = edgeStart[node]!; at < end; at++) {
          const edge = edgeCode[at]!;
          if (edge >= code) {
            if (edge === code) target = edgeTarget[at]!;
            break;
          }
        }
        if (target !== NO_NODE) {
          node = target;
          break;
        }
        node = fail[node]!;
      }

      let hit = reportFrom[node]!;
      while (hit !== NO_NODE) {
        const id = terminal[hit]!;
        found[id] = 1;
        if (verify !== undefined && check !== undefined && verify[id] === 1) {
          check(id, rawStart(text, i, depth[hit]!), i + 1);
        }
        hit = output[hit]!;
      }
    }
  }
}

/**
 * Raw offset where an occurrence of `length` normalized characters ending at raw offset `last` starts.
 * Walking back is cheaper than remembering offsets during the scan: it only happens for the few hits
 * that still need a verbatim check. A pattern never starts with a separator, so every separator run
 * inside the occurrence is whole and counts as one character.
 */
function rawStart(text: string, last: number, length: number): number {
  let position = last;
  for (let remaining = length; remaining > 0; remaining--) {
    if (SEPARATOR_CODES[text.charCodeAt(position)] === 1) {
      while (position > 0 && SEPARATOR_CODES[text.charCodeAt(position - 1)] === 1) position--;
    }
    position--;
  }
  return position + 1;
}

function compareCodeUnits(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
