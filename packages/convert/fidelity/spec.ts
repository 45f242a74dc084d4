/**
 * The structure a corpus document is generated from, and its ground truth: the Markdown the
 * document's structure stands for. Every corpus file is written from one of these specs, so its
 * ground truth is known by construction (decision CF5).
 */

export type SpecBlock =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; ordered: boolean; items: string[] }
  /** `rows[0]` is the header row; `""` marks a cell covered by a merged cell (its text is in the covering cell). */
  | { kind: "table"; rows: string[][]; ruled: boolean; merges?: Merge[] }
  /** A right-to-left paragraph (Arabic or Hebrew), ground truth in logical order. */
  | { kind: "rtl"; lang: "ar" | "he"; text: string; heading?: number }
  /** An equation: LaTeX in the ground truth, `inline` with the paragraph text before it. */
  | { kind: "equation"; latex: string; before: string }
  /** Text inside a text box, read where the box is anchored. */
  | { kind: "textbox"; text: string };

export interface Merge {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

export interface DocSpec {
  name: string;
  title: string;
  blocks: SpecBlock[];
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

export function markdownTable(rows: string[][]): string {
  const width = Math.max(...rows.map((row) => row.length));
  const line = (row: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => escapeCell(row[i] ?? "")).join(" | ")} |`;
  const [header = [], ...body] = rows;
  return [line(header), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n");
}

/** Ground-truth Markdown of a spec: ATX headings, GFM tables, `-`/`1.` lists, `$…$` equations. */
export function groundTruth(spec: DocSpec): string {
  const parts: string[] = [];
  for (const block of spec.blocks) {
    switch (block.kind) {
      case "heading":
        parts.push(`${"#".repeat(block.level)} ${block.text}`);
        break;
      case "paragraph":
        parts.push(block.text);
        break;
      case "list":
        parts.push(block.items.map((item, i) => `${block.ordered ? `${i + 1}.` : "-"} ${item}`).join("\n"));
        break;
      case "table":
        parts.push(markdownTable(block.rows));
        break;
      case "rtl":
        parts.push(block.heading === undefined ? block.text : `${"#".repeat(block.heading)} ${block.text}`);
        break;
      case "equation":
        parts.push(`${block.before} $${block.latex}$`);
        break;
      case "textbox":
        parts.push(block.text);
        break;
    }
  }
  return `${parts.join("\n\n")}\n`;
}

/** Seeded generator (mulberry32) so the corpus is reproducible byte for byte. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = `the of and to in is that for it as with was on be by this are from at or an which have not
they has were their one all been more when there can an will other about into some than its time only
these two may then first any new like our over such through where most after also made many before
must through back years much your way well down should because each just those people how too little
state good very make world still own see men work long get here between both life being under never
day same another know while last might great old year off come since against go came right used take
three system report market energy water policy budget region growth network sample method result
analysis figure model value average measure supply demand storage sensor protocol quarterly revenue
forecast baseline survey customer contract invoice payment account balance transfer review audit
compliance schedule delivery shipment vendor warehouse inventory capacity throughput latency
bandwidth cluster server database index query cache memory processor thread kernel module library
package release version feature request response client service gateway document section chapter
appendix summary abstract introduction conclusion discussion evaluation experiment treatment control
patient dosage clinical trial outcome hospital nurse doctor school student teacher course lecture
river mountain forest ocean island village harbor bridge tower castle garden meadow valley canyon`
  .split(/\s+/)
  .filter((w) => w !== "");

const HEBREW = `שלום עולם ספר בית ילד אדם מים אור זמן שנה יום לילה עיר ארץ דרך מקום עבודה חברה משפחה
מדינה ממשלה חוק שפה מילה תשובה שאלה מחקר תוצאה נתונים מערכת תכנית פרויקט לקוח שירות מוצר מחיר
שוק כסף בנק חשבון תשלום חוזה מסמך פרק סעיף סיכום מבוא דיון ניסוי`
  .split(/\s+/)
  .filter((w) => w !== "");

const ARABIC = `مرحبا عالم كتاب بيت ولد انسان ماء نور وقت سنة يوم ليل مدينة ارض طريق مكان عمل شركة عائلة
دولة حكومة قانون لغة كلمة جواب سؤال بحث نتيجة بيانات نظام برنامج مشروع عميل خدمة منتج سعر سوق
مال بنك حساب دفع عقد وثيقة فصل قسم ملخص مقدمة نقاش تجربة`
  .split(/\s+/)
  .filter((w) => w !== "");

export class TextMaker {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = random(seed);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  words(n: number, from: readonly string[] = WORDS): string {
    return Array.from({ length: n }, () => this.pick(from)).join(" ");
  }
  sentence(min = 8, max = 18): string {
    const text = this.words(this.int(min, max));
    return `${text[0]?.toUpperCase()}${text.slice(1)}.`;
  }
  paragraph(sentences = this.int(2, 5)): string {
    return Array.from({ length: sentences }, () => this.sentence()).join(" ");
  }
  title(n = this.int(2, 4)): string {
    const text = this.words(n);
    return `${text[0]?.toUpperCase()}${text.slice(1)}`;
  }
  rtl(lang: "ar" | "he", n: number): string {
    return this.words(n, lang === "ar" ? ARABIC : HEBREW);
  }
  number(): string {
    return String(this.int(1, 9999));
  }
  /** A table with a word header, a word first column and numbers elsewhere. */
  table(rows: number, cols: number): string[][] {
    const header = Array.from({ length: cols }, (_, i) => (i === 0 ? "Item" : this.title(1)));
    const body = Array.from({ length: rows - 1 }, () =>
      Array.from({ length: cols }, (_, i) => (i === 0 ? this.title(this.int(1, 2)) : this.number())),
    );
    return [header, ...body];
  }
}
