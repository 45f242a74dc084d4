/**
 * Office Math (OMML, ECMA-376 part 1 §22.1) to LaTeX: fractions, scripts, radicals, n-ary
 * operators, delimiters, matrices, equation arrays, functions, accents, limits and text runs,
 * with Greek letters and operators as LaTeX commands (docs/decisions.md, CP4).
 */
import { child, childElements, childrenNamed, type XmlElement } from "./ooxml-xml.js";

const SYMBOLS: Record<string, string> = {
  α: "\\alpha",
  β: "\\beta",
  γ: "\\gamma",
  δ: "\\delta",
  ε: "\\varepsilon",
  ϵ: "\\epsilon",
  ζ: "\\zeta",
  η: "\\eta",
  θ: "\\theta",
  ϑ: "\\vartheta",
  ι: "\\iota",
  κ: "\\kappa",
  λ: "\\lambda",
  μ: "\\mu",
  ν: "\\nu",
  ξ: "\\xi",
  π: "\\pi",
  ϖ: "\\varpi",
  ρ: "\\rho",
  ϱ: "\\varrho",
  σ: "\\sigma",
  ς: "\\varsigma",
  τ: "\\tau",
  υ: "\\upsilon",
  φ: "\\varphi",
  ϕ: "\\phi",
  χ: "\\chi",
  ψ: "\\psi",
  ω: "\\omega",
  Γ: "\\Gamma",
  Δ: "\\Delta",
  Θ: "\\Theta",
  Λ: "\\Lambda",
  Ξ: "\\Xi",
  Π: "\\Pi",
  Σ: "\\Sigma",
  Υ: "\\Upsilon",
  Φ: "\\Phi",
  Ψ: "\\Psi",
  Ω: "\\Omega",
  "≤": "\\leq",
  "≥": "\\geq",
  "≠": "\\neq",
  "≈": "\\approx",
  "≡": "\\equiv",
  "∼": "\\sim",
  "≅": "\\cong",
  "∝": "\\propto",
  "±": "\\pm",
  "∓": "\\mp",
  "×": "\\times",
  "÷": "\\div",
  "·": "\\cdot",
  "⋅": "\\cdot",
  "∘": "\\circ",
  "∗": "\\ast",
  "∞": "\\infty",
  "∂": "\\partial",
  "∇": "\\nabla",
  "∀": "\\forall",
  "∃": "\\exists",
  "∄": "\\nexists",
  "∅": "\\emptyset",
  "∈": "\\in",
  "∉": "\\notin",
  "∋": "\\ni",
  "⊂": "\\subset",
  "⊃": "\\supset",
  "⊆": "\\subseteq",
  "⊇": "\\supseteq",
  "∪": "\\cup",
  "∩": "\\cap",
  "∧": "\\wedge",
  "∨": "\\vee",
  "¬": "\\neg",
  "→": "\\rightarrow",
  "←": "\\leftarrow",
  "↔": "\\leftrightarrow",
  "⇒": "\\Rightarrow",
  "⇐": "\\Leftarrow",
  "⇔": "\\Leftrightarrow",
  "↦": "\\mapsto",
  "…": "\\ldots",
  "⋯": "\\cdots",
  "⋮": "\\vdots",
  "⋱": "\\ddots",
  ℝ: "\\mathbb{R}",
  ℕ: "\\mathbb{N}",
  ℤ: "\\mathbb{Z}",
  ℚ: "\\mathbb{Q}",
  ℂ: "\\mathbb{C}",
  ℏ: "\\hbar",
  ℓ: "\\ell",
  "′": "'",
  "″": "''",
  "−": "-",
  "∑": "\\sum",
  "∏": "\\prod",
  "∐": "\\coprod",
  "∫": "\\int",
  "∬": "\\iint",
  "∭": "\\iiint",
  "∮": "\\oint",
  "⋃": "\\bigcup",
  "⋂": "\\bigcap",
  "⟨": "\\langle",
  "⟩": "\\rangle",
  "⌊": "\\lfloor",
  "⌋": "\\rfloor",
  "⌈": "\\lceil",
  "⌉": "\\rceil",
  "‖": "\\|",
  "{": "\\{",
  "}": "\\}",
  "%": "\\%",
  "#": "\\#",
  "&": "\\&",
  $: "\\$",
  _: "\\_",
  "\\": "\\backslash",
  "^": "\\hat{}",
  "~": "\\sim",
};

const FUNCTIONS = new Set([
  "sin",
  "cos",
  "tan",
  "cot",
  "sec",
  "csc",
  "arcsin",
  "arccos",
  "arctan",
  "sinh",
  "cosh",
  "tanh",
  "log",
  "ln",
  "lg",
  "exp",
  "lim",
  "max",
  "min",
  "sup",
  "inf",
  "det",
  "gcd",
  "arg",
  "deg",
  "dim",
  "ker",
]);

const ACCENTS: Record<string, string> = {
  "\u0302": "\\hat",
  "^": "\\hat",
  "\u0303": "\\tilde",
  "~": "\\tilde",
  "\u0304": "\\bar",
  "\u0305": "\\bar",
  "¯": "\\bar",
  "\u0307": "\\dot",
  "\u0308": "\\ddot",
  "\u20d7": "\\vec",
  "\u20d6": "\\overleftarrow",
  "\u030c": "\\check",
  "\u0301": "\\acute",
  "\u0300": "\\grave",
  "\u0306": "\\breve",
};

/** A command needs a space before a following letter; other characters stand as they are. */
function symbols(text: string): string {
  let out = "";
  for (const char of text) {
    const command = SYMBOLS[char];
    if (command === undefined) {
      if (/[A-Za-z]/.test(char) && /\\[A-Za-z]+$/.test(out)) out += " ";
      out += char;
    } else out += command;
  }
  return out;
}

/** Delimiters stay plain characters (`(x)`, not `\left(x\right)`): the same words as the source. */
function delimiter(char: string | undefined, fallback: string): string {
  const value = char ?? fallback;
  return SYMBOLS[value] ?? value;
}

function prop(element: XmlElement, propName: string, name: string): string | undefined {
  const props = child(element, propName);
  return props === undefined ? undefined : child(props, name)?.attrs["m:val"];
}

function arg(element: XmlElement, name: string): string {
  const part = child(element, name);
  return part === undefined ? "" : mathOf(part);
}

function group(latex: string): string {
  return latex.length === 1 || /^\\[A-Za-z]+$/.test(latex) ? latex : `{${latex}}`;
}

function run(element: XmlElement): string {
  let text = "";
  for (const node of element.children) {
    if (typeof node === "string") continue;
    if (node.name === "m:t" || node.name === "w:t")
      text += node.children.filter((c) => typeof c === "string").join("");
  }
  if (text === "") return "";
  const nor = child(child(element, "m:rPr") ?? element, "m:nor");
  const normal = nor !== undefined && !["0", "off", "false"].includes(nor.attrs["m:val"] ?? "");
  if (normal) return `\\text{${text.replace(/[{}\\]/g, (c) => `\\${c}`)}}`;
  if (FUNCTIONS.has(text)) return `\\${text}`;
  return symbols(text);
}

function nary(element: XmlElement): string {
  const chr = prop(element, "m:naryPr", "m:chr") ?? "∫";
  const operator = SYMBOLS[chr] ?? chr;
  const sub = arg(element, "m:sub");
  const sup = arg(element, "m:sup");
  return `${operator}${sub === "" ? "" : `_${group(sub)}`}${sup === "" ? "" : `^${group(sup)}`} ${arg(element, "m:e")}`;
}

function rows(elements: XmlElement[], cells: (row: XmlElement) => string[]): string {
  return elements.map((row) => cells(row).join(" & ")).join(" \\\\ ");
}

/** The LaTeX of an OMML element and everything below it. */
export function mathOf(element: XmlElement): string {
  let out = "";
  for (const node of childElements(element)) {
    const piece = mathElement(node);
    if (piece === "") continue;
    // Keep a command from swallowing the letters that follow it (`\alpha x`, not `\alphax`).
    if (/\\[A-Za-z]+$/.test(out) && /^[A-Za-z]/.test(piece)) out += " ";
    out += piece;
  }
  return out;
}

function mathElement(node: XmlElement): string {
  switch (node.name) {
    case "m:r":
    case "w:r":
      return run(node);
    case "m:f": {
      const type = prop(node, "m:fPr", "m:type");
      const num = arg(node, "m:num");
      const den = arg(node, "m:den");
      if (type === "lin") return `${group(num)}/${group(den)}`;
      if (type === "noBar") return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
      return `\\frac{${num}}{${den}}`;
    }
    case "m:sSup":
      return `${group(arg(node, "m:e"))}^${group(arg(node, "m:sup"))}`;
    case "m:sSub":
      return `${group(arg(node, "m:e"))}_${group(arg(node, "m:sub"))}`;
    case "m:sSubSup":
      return `${group(arg(node, "m:e"))}_${group(arg(node, "m:sub"))}^${group(arg(node, "m:sup"))}`;
    case "m:sPre":
      return `{}_${group(arg(node, "m:sub"))}^${group(arg(node, "m:sup"))}${group(arg(node, "m:e"))}`;
    case "m:rad": {
      const hidden = prop(node, "m:radPr", "m:degHide");
      const degree = hidden === "1" || hidden === "on" || hidden === "true" ? "" : arg(node, "m:deg");
      return degree === "" ? `\\sqrt{${arg(node, "m:e")}}` : `\\sqrt[${degree}]{${arg(node, "m:e")}}`;
    }
    case "m:nary":
      return nary(node);
    case "m:d": {
      const open = delimiter(prop(node, "m:dPr", "m:begChr"), "(");
      const close = delimiter(prop(node, "m:dPr", "m:endChr"), ")");
      const separator = delimiter(prop(node, "m:dPr", "m:sepChr"), "|");
      const inner = childrenNamed(node, "m:e").map(mathOf).join(separator);
      return `${open}${inner}${close}`;
    }
    case "m:m":
      return `\\begin{matrix}${rows(childrenNamed(node, "m:mr"), (row) => childrenNamed(row, "m:e").map(mathOf))}\\end{matrix}`;
    case "m:eqArr":
      return `\\begin{aligned}${childrenNamed(node, "m:e").map(mathOf).join(" \\\\ ")}\\end{aligned}`;
    case "m:func": {
      const name = arg(node, "m:fName");
      return `${name}${/^\\[A-Za-z]+$/.test(name) ? " " : ""}${group(arg(node, "m:e"))}`;
    }
    case "m:acc": {
      const chr = prop(node, "m:accPr", "m:chr") ?? "\u0302";
      return `${ACCENTS[chr] ?? "\\hat"}{${arg(node, "m:e")}}`;
    }
    case "m:bar":
      return prop(node, "m:barPr", "m:pos") === "top"
        ? `\\overline{${arg(node, "m:e")}}`
        : `\\underline{${arg(node, "m:e")}}`;
    case "m:groupChr": {
      const top = prop(node, "m:groupChrPr", "m:pos") === "top";
      return top ? `\\overbrace{${arg(node, "m:e")}}` : `\\underbrace{${arg(node, "m:e")}}`;
    }
    case "m:limLow": {
      const base = arg(node, "m:e");
      const limit = arg(node, "m:lim");
      return /^\\(lim|max|min|sup|inf)$/.test(base)
        ? `${base}_${group(limit)}`
        : `\\underset{${limit}}{${base}}`;
    }
    case "m:limUpp":
      return `\\overset{${arg(node, "m:lim")}}{${arg(node, "m:e")}}`;
    case "m:box":
    case "m:borderBox":
    case "m:phant":
    case "m:e":
    case "m:oMath":
      return mathOf(node);
    case "m:oMathPara":
      return childrenNamed(node, "m:oMath").map(mathOf).join(" \\\\ ");
    default:
      // Properties (`m:*Pr`, `w:rPr`), bookmarks and anything unknown carry no math.
      return node.name.endsWith("Pr") ? "" : mathOf(node);
  }
}

/** `$…$` for inline math, `$$…$$` for a display equation (an `m:oMathPara`). */
export function latexOf(element: XmlElement): string {
  const latex = mathElement(element).replace(/\s+/g, " ").trim();
  if (latex === "") return "";
  return element.name === "m:oMathPara" ? `$$${latex}$$` : `$${latex}$`;
}
