/**
 * Page text that ships inside the HTML without being shown by it: hydration state (`__NEXT_DATA__`, `__NUXT__`,
 * `window.__INITIAL_STATE__`, `<script type="application/json">`) and JSON-LD (`articleBody`, `text`). The render
 * judge asks whether the visible HTML lacks that text; a page served without a browser can be extracted from it.
 */
import type { PageSignals } from './page-signals.js';

/** Where embedded text was found. */
export type EmbeddedSource = 'hydration' | 'json-ld';

/** Text a page carries in its data, as HTML the extractor can read. */
export interface EmbeddedContent {
  source: EmbeddedSource;
  /** The text as an HTML fragment: HTML strings as they are, plain text as paragraphs and headings. */
  html: string;
  /** Characters of text (tags stripped). */
  chars: number;
}

const STRING = /"((?:[^"\\]|\\.){60,})"/g;
const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z]+\d*);/gi;
const MAX_SCAN = 4 * 1024 * 1024;

/** The text of `value` without tags, white space collapsed. */
function plain(value: string): string {
  const text = /<[a-z!/]/i.test(value) ? value.replace(/<[^>]*>/g, ' ') : value;
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether `text` (tags stripped) reads as prose: 60+ characters, 8+ words, mostly letters, not code or a URL. */
function isProse(text: string): boolean {
  if (text.length < 60 || /^(?:https?:|data:|\/\/)/.test(text)) return false;
  let spaces = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 32) spaces++;
  if (spaces < 7 || text.length / (spaces + 1) > 14) return false;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < text.length * 0.6) return false;
  const code = text.match(/[{}();=<>$\\|]/g)?.length ?? 0;
  return code <= text.length * 0.01;
}

/** One string value of the page's data that reads as prose. */
export interface ProseString {
  /** The value as written (may hold HTML). */
  raw: string;
  /** Its text, tags stripped. */
  text: string;
}

/** The prose strings of a JSON or JavaScript text, in order (a JSON document inside a string is read too). */
function proseStrings(source: string, out: ProseString[], depth = 0): void {
  STRING.lastIndex = 0;
  const scanned = source.length > MAX_SCAN ? source.slice(0, MAX_SCAN) : source;
  const matches = [...scanned.matchAll(STRING)];
  for (const m of matches) {
    let value: string;
    try {
      value = String(JSON.parse(`"${m[1]}"`));
    } catch {
      continue;
    }
    const head = value.trimStart()[0];
    if ((head === '{' || head === '[') && depth === 0) {
      proseStrings(value, out, depth + 1);
      continue;
    }
    const text = plain(value);
    if (isProse(text)) out.push({ raw: value, text });
  }
}

/** Prose strings of the page's hydration state (data scripts and state assignments). */
export function hydrationProse(signals: Pick<PageSignals, 'dataScripts' | 'stateScripts'>): ProseString[] {
  const out: ProseString[] = [];
  for (const body of signals.dataScripts) proseStrings(body, out);
  for (const body of signals.stateScripts) proseStrings(body, out);
  return out;
}

/** `articleBody` and `text` values of the JSON-LD blocks, in order. */
export function jsonLdProse(signals: Pick<PageSignals, 'jsonLd'>): ProseString[] {
  const out: ProseString[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 32 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'articleBody' || key === 'text') && typeof value === 'string') {
        const text = plain(value);
        if (isProse(text)) out.push({ raw: value, text });
      } else if (typeof value === 'object') visit(value, depth + 1);
    }
  };
  for (const body of signals.jsonLd) {
    try {
      visit(JSON.parse(body), 0);
    } catch {
      // A broken JSON-LD block holds nothing we can read.
    }
  }
  return out;
}

/** Lower-case letters and digits separated by single spaces: what two renderings of one text have in common. */
export function comparable(text: string): string {
  return text
    .replace(ENTITY, ' ')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ');
}

/** A run of five words from the middle of `text`, comparable with `comparable(visible)`. */
export function probe(text: string): string {
  const words = comparable(text).trim().split(' ');
  const from = words.length > 10 ? Math.floor(words.length / 2) - 2 : 0;
  return ` ${words.slice(from, from + 5).join(' ')} `;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A string of the data as HTML: HTML as it is, plain text (or simple markdown) as headings and paragraphs. */
function toHtml(value: string): string {
  if (/<(?:p|div|h[1-6]|ul|ol|li|br|section|article|span|a|strong|em|blockquote|pre|table)\b[^>]*>/i.test(value)) {
    return value;
  }
  return value
    .split(/\n\s*\n|\r\n\s*\r\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      const heading = /^(#{1,6})\s+(.*)$/.exec(block);
      if (heading) return `<h${heading[1]!.length}>${escapeHtml(heading[2]!)}</h${heading[1]!.length}>`;
      return `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`;
    })
    .join('\n');
}

/** The strings worth keeping: the longest alone when it holds half the text, else all of them without repeats. */
function mainStrings(strings: ProseString[]): ProseString[] {
  if (strings.length === 0) return strings;
  const total = strings.reduce((n, s) => n + s.text.length, 0);
  const longest = strings.reduce((a, b) => (b.text.length > a.text.length ? b : a));
  if (longest.text.length * 2 >= total) return [longest];
  const kept: ProseString[] = [];
  const seen = new Set<string>();
  for (const s of strings) {
    const key = comparable(s.text);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(s);
  }
  return kept.filter(
    (s) => !kept.some((other) => other !== s && other.text.length > s.text.length && other.text.includes(s.text)),
  );
}

/**
 * The page text held by JSON-LD (`articleBody`, `text`) or the hydration state, as HTML, or `undefined` when
 * neither holds 200+ characters of prose. JSON-LD is preferred: it names the article body.
 */
export function embeddedContent(
  signals: Pick<PageSignals, 'dataScripts' | 'stateScripts' | 'jsonLd'>,
): EmbeddedContent | undefined {
  const sources: [EmbeddedSource, ProseString[]][] = [
    ['json-ld', mainStrings(jsonLdProse(signals))],
    ['hydration', mainStrings(hydrationProse(signals))],
  ];
  for (const [source, strings] of sources) {
    const chars = strings.reduce((n, s) => n + s.text.length, 0);
    if (chars >= 200) return { source, html: strings.map((s) => toHtml(s.raw)).join('\n'), chars };
  }
  return undefined;
}
