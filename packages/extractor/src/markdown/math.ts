import type { Capture } from './capture.js';

interface MathNode {
  name: string;
  attribs: Record<string, string>;
  children: (MathNode | string)[];
}

/** Deeper MathML than this is rendered as its plain text (the LaTeX conversion recurses). */
const MAX_DEPTH = 64;

// prettier-ignore
const SYMBOLS: Record<string, string> = {
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ε: '\\epsilon', ϵ: '\\epsilon', ζ: '\\zeta', η: '\\eta',
  θ: '\\theta', ϑ: '\\vartheta', ι: '\\iota', κ: '\\kappa', λ: '\\lambda', μ: '\\mu', ν: '\\nu', ξ: '\\xi',
  π: '\\pi', ρ: '\\rho', σ: '\\sigma', ς: '\\varsigma', τ: '\\tau', υ: '\\upsilon', φ: '\\phi', ϕ: '\\phi',
  χ: '\\chi', ψ: '\\psi', ω: '\\omega', Γ: '\\Gamma', Δ: '\\Delta', Θ: '\\Theta', Λ: '\\Lambda', Ξ: '\\Xi',
  Π: '\\Pi', Σ: '\\Sigma', Υ: '\\Upsilon', Φ: '\\Phi', Ψ: '\\Psi', Ω: '\\Omega',
  '×': '\\times', '÷': '\\div', '±': '\\pm', '∓': '\\mp', '·': '\\cdot', '⋅': '\\cdot', '∗': '\\ast',
  '≤': '\\leq', '≥': '\\geq', '≠': '\\neq', '≈': '\\approx', '≡': '\\equiv', '∼': '\\sim', '≅': '\\cong',
  '∝': '\\propto', '∞': '\\infty', '∑': '\\sum', '∏': '\\prod', '∫': '\\int', '∮': '\\oint', '∂': '\\partial',
  '∇': '\\nabla', '∈': '\\in', '∉': '\\notin', '⊂': '\\subset', '⊆': '\\subseteq', '⊃': '\\supset',
  '⊇': '\\supseteq', '∪': '\\cup', '∩': '\\cap', '∅': '\\emptyset', '∀': '\\forall', '∃': '\\exists',
  '¬': '\\neg', '∧': '\\wedge', '∨': '\\vee', '→': '\\to', '←': '\\leftarrow', '↔': '\\leftrightarrow',
  '⇒': '\\Rightarrow', '⇐': '\\Leftarrow', '⇔': '\\Leftrightarrow', '↦': '\\mapsto', '…': '\\ldots',
  '⋯': '\\cdots', '′': "'", '″': "''", '°': '^\\circ', 'ℝ': '\\mathbb{R}', 'ℕ': '\\mathbb{N}', 'ℤ': '\\mathbb{Z}',
  'ℚ': '\\mathbb{Q}', 'ℂ': '\\mathbb{C}', '⟨': '\\langle', '⟩': '\\rangle', '∣': '\\mid', '∥': '\\parallel',
  '⊥': '\\perp', '∠': '\\angle', '√': '\\surd', '⊕': '\\oplus', '⊗': '\\otimes', '∘': '\\circ',
  '{': '\\{', '}': '\\}', '%': '\\%', '#': '\\#', '&': '\\&', $: '\\$', _: '\\_',
  '\u2061': '', '\u2062': '', '\u2063': '', '\u2064': '',
};

// prettier-ignore
const FUNCTIONS = new Set([
  'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'log', 'ln', 'lg',
  'exp', 'lim', 'max', 'min', 'sup', 'inf', 'det', 'gcd', 'deg', 'dim', 'ker', 'arg', 'Pr',
]);

// prettier-ignore
const OVER_ACCENTS: Record<string, string> = {
  '¯': '\\overline', '‾': '\\overline', '^': '\\hat', ˆ: '\\hat', '~': '\\tilde', '˜': '\\tilde', '→': '\\vec',
  '⃗': '\\vec', '˙': '\\dot', '¨': '\\ddot', '⏞': '\\overbrace',
};
const UNDER_ACCENTS: Record<string, string> = { _: '\\underline', '̲': '\\underline', '⏟': '\\underbrace' };
const BIG_OPERATORS = new Set(['∑', '∏', '∫', '∮', '⋃', '⋂', 'lim', '\\sum', '\\prod', '\\int', '\\lim']);

function textOf(node: MathNode | string): string {
  if (typeof node === 'string') return node;
  let out = '';
  const stack: (MathNode | string)[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n === 'string') out += n;
    else for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

function symbols(text: string): string {
  let out = '';
  for (const ch of text) out += SYMBOLS[ch] ?? ch;
  return out;
}

/** Concatenates LaTeX pieces, keeping a command name apart from a following letter. */
function join(parts: readonly string[]): string {
  let out = '';
  for (const part of parts) {
    if (part === '') continue;
    if (/\\[A-Za-z]+$/.test(out) && /^[A-Za-z]/.test(part)) out += ' ';
    out += part;
  }
  return out;
}

/** Braces around anything longer than one symbol. */
const group = (s: string): string => (s.length === 1 || /^\\[A-Za-z]+$/.test(s) ? s : `{${s}}`);

/** MediaWiki's style wrapper at the start of a formula's TeX: `{\displaystyle `, `{\textstyle `, … */
const STYLE_WRAPPER = /^\{\s*\\(?:displaystyle|textstyle|scriptstyle|scriptscriptstyle)(?![A-Za-z])\s*/;

/**
 * The TeX without MediaWiki's style wrapper (`{\displaystyle x^{2}}` is `x^{2}`): the page's markup sets the
 * formula's size, the wrapper only repeats it. Only a wrapper whose brace closes at the very end is taken off
 * (`{\displaystyle a}+b` stays as it is); `\{` and `\}` are not braces.
 */
function withoutStyleWrapper(tex: string): string {
  const wrapper = STYLE_WRAPPER.exec(tex);
  if (!wrapper) return tex;
  let depth = 0;
  for (let i = 0; i < tex.length; i++) {
    const ch = tex[i];
    if (ch === '\\') i++;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) {
      const inner = i === tex.length - 1 ? tex.slice(wrapper[0].length, -1).trim() : '';
      return inner || tex;
    }
  }
  return tex;
}

function elementsOf(node: MathNode): MathNode[] {
  return node.children.filter((c): c is MathNode => typeof c !== 'string');
}

function toLatex(node: MathNode | string, depth: number): string {
  if (typeof node === 'string') return symbols(node.trim());
  if (depth > MAX_DEPTH) return symbols(textOf(node).trim());
  const kids = elementsOf(node);
  const arg = (i: number): string => (kids[i] ? toLatex(kids[i], depth + 1) : '');
  const all = (): string => join(node.children.map((c) => toLatex(c, depth + 1)));
  switch (node.name) {
    case 'semantics': {
      const tex = kids.find(
        (k) => k.name === 'annotation' && /^(?:application\/x-tex|text\/x-latex)$/i.test(k.attribs.encoding ?? ''),
      );
      return tex ? withoutStyleWrapper(textOf(tex).trim()) : arg(0);
    }
    case 'annotation':
    case 'annotation-xml':
    case 'none':
    case 'mprescripts':
      return '';
    case 'mi': {
      const t = textOf(node).trim();
      return t.length > 1 && FUNCTIONS.has(t) ? `\\${t}` : symbols(t);
    }
    case 'mn':
    case 'mo':
      return symbols(textOf(node).trim());
    case 'mtext': {
      const t = textOf(node);
      return t.trim() === '' ? '\\ ' : `\\text{${t.replace(/[{}\\]/g, '\\$&')}}`;
    }
    case 'ms':
      return `\\text{"${textOf(node)}"}`;
    case 'mspace':
      return '\\ ';
    case 'mfrac':
      return `\\frac{${arg(0)}}{${arg(1)}}`;
    case 'msqrt':
      return `\\sqrt{${all()}}`;
    case 'mroot':
      return `\\sqrt[${arg(1)}]{${arg(0)}}`;
    case 'msup':
      return `${group(arg(0))}^${group(arg(1))}`;
    case 'msub':
      return `${group(arg(0))}_${group(arg(1))}`;
    case 'msubsup':
      return `${group(arg(0))}_${group(arg(1))}^${group(arg(2))}`;
    case 'mover': {
      const accent = OVER_ACCENTS[textOf(kids[1] ?? '').trim()];
      return accent ? `${accent}{${arg(0)}}` : `\\overset{${arg(1)}}{${arg(0)}}`;
    }
    case 'munder': {
      const base = arg(0);
      const accent = UNDER_ACCENTS[textOf(kids[1] ?? '').trim()];
      if (accent) return `${accent}{${base}}`;
      return BIG_OPERATORS.has(base) ? `${base}_${group(arg(1))}` : `\\underset{${arg(1)}}{${base}}`;
    }
    case 'munderover': {
      const base = arg(0);
      if (BIG_OPERATORS.has(base)) return `${base}_${group(arg(1))}^${group(arg(2))}`;
      return `\\overset{${arg(2)}}{\\underset{${arg(1)}}{${base}}}`;
    }
    case 'mfenced': {
      const open = node.attribs.open ?? '(';
      const close = node.attribs.close ?? ')';
      const separator = node.attribs.separators?.trim()[0] ?? ',';
      const inner = kids.map((k) => toLatex(k, depth + 1)).join(separator);
      return `\\left${open === '{' ? '\\{' : open || '.'}${inner}\\right${close === '}' ? '\\}' : close || '.'}`;
    }
    case 'mtable':
      return `\\begin{matrix}${kids.map((row) => toLatex(row, depth + 1)).join(' \\\\ ')}\\end{matrix}`;
    case 'mtr':
    case 'mlabeledtr':
      return elementsOf(node)
        .map((cell) => toLatex(cell, depth + 1))
        .join(' & ');
    default:
      return all();
  }
}

/** `<math>`: MathML converted to LaTeX (or its TeX annotation, when it carries one). */
export class MathCapture implements Capture {
  readonly display: boolean;
  readonly #root: MathNode;
  readonly #stack: MathNode[];

  constructor(attribs: Record<string, string>) {
    this.display = attribs.display === 'block' || attribs.mode === 'display';
    this.#root = { name: 'math', attribs, children: [] };
    this.#stack = [this.#root];
  }

  open(name: string, attribs: Record<string, string>): boolean {
    const node: MathNode = { name, attribs, children: [] };
    this.#stack[this.#stack.length - 1]!.children.push(node);
    this.#stack.push(node);
    return true;
  }

  text(data: string): void {
    this.#stack[this.#stack.length - 1]!.children.push(data);
  }

  close(): boolean {
    this.#stack.pop();
    return this.#stack.length === 0;
  }

  /** The LaTeX source, without delimiters. */
  finish(): string {
    const alt = this.#root.attribs.alttext?.trim();
    const semantics = elementsOf(this.#root);
    const hasTex = semantics.some((k) => k.name === 'semantics');
    if (alt && !hasTex) return withoutStyleWrapper(alt);
    return toLatex(this.#root, 0).trim();
  }
}
