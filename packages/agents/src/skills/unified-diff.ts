/**
 * A unified diff of two texts (the `platform_skills_apply` preview, PLATFORM.md §6): Myers'
 * O(ND) line diff between the common prefix and suffix, hunks with 3 lines of context, cut
 * at a byte limit with a marker. When the texts differ in more lines than the search allows,
 * the differing middle is shown as removed and added whole (still a correct diff).
 */

const CONTEXT = 3;
/** Bounds the edit-script search (D); beyond it the middle is replaced whole. */
const MAX_EDIT_DISTANCE = 1000;

type Op = { kind: " " | "-" | "+"; line: string };

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Myers' greedy shortest edit script; null when it needs more than `MAX_EDIT_DISTANCE` edits. */
function myers(a: readonly string[], b: readonly string[]): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))) {
        x = v[offset + k + 1] as number;
      } else {
        x = (v[offset + k - 1] as number) + 1;
      }
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(next);
        return backtrack(a, b, trace, offset, d);
      }
    }
    v = next;
  }
  return null;
}

function backtrack(
  a: readonly string[],
  b: readonly string[],
  trace: Int32Array[],
  offset: number,
  dEnd: number,
): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const prevK =
      k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number)) ? k + 1 : k - 1;
    const prevX = v[offset + prevK] as number;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: " ", line: a[x - 1] as string });
      x--;
      y--;
    }
    if (x === prevX) ops.push({ kind: "+", line: b[y - 1] as string });
    else ops.push({ kind: "-", line: a[x - 1] as string });
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: " ", line: a[x - 1] as string });
    x--;
    y--;
  }
  return ops.reverse();
}

function lineOps(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle = myers(midA, midB) ?? [
    ...midA.map((line) => ({ kind: "-" as const, line })),
    ...midB.map((line) => ({ kind: "+" as const, line })),
  ];
  return [
    ...a.slice(0, start).map((line) => ({ kind: " " as const, line })),
    ...middle,
    ...a.slice(endA).map((line) => ({ kind: " " as const, line })),
  ];
}

function range(start: number, count: number): string {
  // An empty range names the line before it (GNU diff convention).
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

/**
 * `--- a/<path>` / `+++ b/<path>` and the hunks turning `before` into `after`; a null side is
 * an absent file (`/dev/null`). Cut at `maxBytes` (UTF-8) with a truncation marker line.
 */
export function unifiedDiff(
  path: string,
  before: string | null,
  after: string | null,
  maxBytes: number,
): string {
  const a = splitLines(before ?? "");
  const b = splitLines(after ?? "");
  const ops = lineOps(a, b);
  const out: string[] = [
    before === null ? "--- /dev/null" : `--- a/${path}`,
    after === null ? "+++ /dev/null" : `+++ b/${path}`,
  ];
  // Line numbers of each op in the old and new texts.
  let oldLine = 1;
  let newLine = 1;
  const positioned = ops.map((op) => {
    const at = { ...op, oldLine, newLine };
    if (op.kind !== "+") oldLine++;
    if (op.kind !== "-") newLine++;
    return at;
  });
  let i = 0;
  while (i < positioned.length) {
    while (i < positioned.length && positioned[i]?.kind === " ") i++;
    if (i >= positioned.length) break;
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    // Extend the hunk while changes are within 2 × context of each other.
    for (;;) {
      while (end < positioned.length && positioned[end]?.kind !== " ") end++;
      let gap = end;
      while (gap < positioned.length && positioned[gap]?.kind === " ") gap++;
      if (gap < positioned.length && gap - end <= 2 * CONTEXT) end = gap;
      else {
        end = Math.min(positioned.length, end + CONTEXT);
        break;
      }
    }
    const hunk = positioned.slice(start, end);
    const first = hunk[0] as (typeof positioned)[number];
    const oldCount = hunk.filter((op) => op.kind !== "+").length;
    const newCount = hunk.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${range(first.oldLine, oldCount)} +${range(first.newLine, newCount)} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
    i = end;
  }
  const text = `${out.join("\n")}\n`;
  return cutBytes(text, maxBytes);
}

/** The text cut to at most `maxBytes` UTF-8 bytes (on a character boundary) plus a marker line. */
export function cutBytes(text: string, maxBytes: number, what = "diff"): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.byteLength <= maxBytes) return text;
  let end = maxBytes;
  // Back up to the start of a UTF-8 character.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  const head = bytes.subarray(0, end).toString("utf8");
  return `${head}${head.endsWith("\n") ? "" : "\n"}[… ${what} truncated: ${bytes.byteLength} bytes, the first ${end} shown]\n`;
}
