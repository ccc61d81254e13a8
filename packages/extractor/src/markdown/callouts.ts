// Admonitions and callouts ("Note", "Warning" boxes) as documentation generators write them, and how each is read:
// the rule table of `callout-frames.ts`. A callout whose kind is one of GitHub's five alerts is written as one
// (`> [!NOTE]`), any other as a quote with its title in bold (README "Callouts").

/** GitHub's alert kinds. */
export type AlertKind = 'NOTE' | 'TIP' | 'IMPORTANT' | 'WARNING' | 'CAUTION';

/**
 * The generators' kind words and the alert each is written as. A word not listed (MkDocs's `example`, `question`,
 * `bug`, `quote`; Sphinx's `seealso`; MDN's `deprecated`) keeps its callout a plain quote with its title.
 */
const ALERTS: ReadonlyMap<string, AlertKind> = new Map([
  ['note', 'NOTE'],
  ['info', 'NOTE'], // Docusaurus, VitePress, GitBook, MkDocs
  ['information', 'NOTE'],
  ['abstract', 'NOTE'], // MkDocs (with its aliases summary, tldr)
  ['summary', 'NOTE'],
  ['tldr', 'NOTE'],
  ['todo', 'NOTE'], // Sphinx, MkDocs
  ['tip', 'TIP'],
  ['hint', 'TIP'], // Sphinx, MkDocs
  ['success', 'TIP'], // GitBook, MkDocs (with check, done)
  ['check', 'TIP'],
  ['done', 'TIP'],
  ['important', 'IMPORTANT'],
  ['warning', 'WARNING'],
  ['warn', 'WARNING'],
  ['attention', 'WARNING'], // Sphinx
  ['caution', 'CAUTION'], // GitHub's own word; Docusaurus's legacy yellow "caution" too
  ['danger', 'CAUTION'], // Docusaurus, VitePress, GitBook, Sphinx, MkDocs
  ['error', 'CAUTION'], // Sphinx, MkDocs
  ['failure', 'CAUTION'], // MkDocs (with fail, missing)
  ['fail', 'CAUTION'],
  ['missing', 'CAUTION'],
]);

/** A callout found by the table: the generator's kind word, when it has one, and the alert it is written as. */
export interface Callout {
  word: string | undefined;
  alert: AlertKind | undefined;
}

interface CalloutRule {
  /** The class that makes the element a callout; its first group, when it matches, is the kind word. */
  marker: RegExp;
  /** Whether the kind is one of the element's other class words (`admonition note`) rather than in the marker. */
  kindInClasses: boolean;
  /** The marker alone is too common a class to make a callout (Drupal's `custom-block`): a kind word must be there. */
  needsKind?: boolean;
}

// Each row: the generator(s) that write it, and what their markup looks like.
const RULES: readonly CalloutRule[] = [
  // Python-Markdown / MkDocs Material and Sphinx/docutils: `<div class="admonition note"><p class="admonition-title">`;
  // Docusaurus 2 `<div class="admonition admonition-tip alert alert--success">` (kind in `admonition-tip`).
  { marker: /(?:^|\s)admonition(?:\s|$)/, kindInClasses: true },
  // Docusaurus 3: `<div class="theme-admonition theme-admonition-tip admonition_xJq3 alert alert--success">`.
  { marker: /(?:^|\s)theme-admonition-([a-z]+)(?:\s|$)/, kindInClasses: false },
  // VitePress (and VuePress): `<div class="tip custom-block"><p class="custom-block-title">TIP</p>`.
  { marker: /(?:^|\s)custom-block(?:\s|$)/, kindInClasses: true, needsKind: true },
  // GitHub (and markdown-it-github-alerts): `<div class="markdown-alert markdown-alert-note">`.
  { marker: /(?:^|\s)markdown-alert-([a-z]+)(?:\s|$)/, kindInClasses: false },
  // GitBook's hints: `<div class="hint hint-info">`, no title.
  { marker: /(?:^|\s)hint-(info|success|warning|danger)(?:\s|$)/, kindInClasses: false },
  // MDN: `<div class="notecard note"><p><strong>Note:</strong> …`, the title the first words of the text.
  { marker: /(?:^|\s)notecard(?:\s|$)/, kindInClasses: true },
  // Astro Starlight: `<aside class="starlight-aside starlight-aside--tip"><p class="starlight-aside__title">`.
  { marker: /(?:^|\s)starlight-aside--([a-z]+)(?:\s|$)/, kindInClasses: false },
  // Asciidoctor: `<div class="admonitionblock note"><table><tr><td class="icon"><div class="title">Note</div></td>
  // <td class="content">…`, the label in the first cell (or an icon font's `<i title="Note">`, no text at all).
  { marker: /(?:^|\s)admonitionblock(?:\s|$)/, kindInClasses: true },
];

/** Cheap pre-check before the table: a class word any row needs. */
const ANY_MARKER = /admonition|custom-block|markdown-alert|hint-|notecard|starlight-aside/;

/**
 * The title element directly inside a callout (its words become the alert's title, or are dropped when they only
 * name its kind): MkDocs/Sphinx `admonition-title`, Docusaurus's `admonitionHeading_…` (3) and `admonition-heading`
 * (2), VitePress's `custom-block-title`, GitHub's `markdown-alert-title`, Starlight's `starlight-aside__title`, Hugo
 * Docsy's (Bootstrap's) `alert-heading`.
 */
const TITLE_CLASS =
  /(?:^|\s)(?:admonition-title|admonition-heading|admonitionHeading_\w*|custom-block-title|markdown-alert-title|starlight-aside__title|alert-heading)(?:\s|$)/;

function kindWord(cls: string): { word: string; alert: AlertKind } | undefined {
  for (const raw of cls.split(/\s+/)) {
    const word = raw.toLowerCase().replace(/^(?:admonition|alert)-/, '');
    const alert = ALERTS.get(word);
    if (alert) return { word, alert };
  }
  return undefined;
}

/**
 * The callout an element is, if any: a block (`div`, `aside`, `section`, `blockquote`) with a generator's callout
 * class, ARIA's `role="note"` with a kind word among its classes, or a `details` whose class is a kind word (MkDocs's
 * collapsible admonitions, `<details class="note"><summary>Title</summary>`: pymdownx.details). VitePress's
 * collapsible `details custom-block` is not one: "details" is no kind, and its `<summary>` stays as it is.
 */
export function calloutOf(name: string, attribs: Record<string, string>): Callout | undefined {
  const cls = attribs.class;
  if (name === 'details') {
    const found = cls !== undefined ? kindWord(cls) : undefined;
    return found && !/(?:^|\s)custom-block(?:\s|$)/.test(cls!) ? found : undefined;
  }
  if (name !== 'div' && name !== 'aside' && name !== 'section' && name !== 'blockquote') return undefined;
  if (cls !== undefined && ANY_MARKER.test(cls)) {
    for (const rule of RULES) {
      const match = rule.marker.exec(cls);
      if (!match) continue;
      const found = rule.kindInClasses ? kindWord(cls) : undefined;
      if (rule.needsKind && found === undefined) continue;
      const word = match[1] ?? found?.word ?? otherWord(cls, match[0]);
      return { word, alert: found?.alert ?? (word !== undefined ? ALERTS.get(word) : undefined) };
    }
  }
  // ARIA's note role with a kind in its classes: Hugo Docsy's `<div class="alert alert-info" role="note">`. Without a
  // kind it is no callout: slider plugins put it on every slide (Smart Slider's `n2-ss-slide--focus`)
  if (attribs.role === 'note' && cls !== undefined) {
    const found = kindWord(cls);
    if (found) return { word: found.word, alert: found.alert };
  }
  return undefined;
}

/** The kind word among classes of a `kindInClasses` row with no known kind (`admonition seealso` → `seealso`). */
function otherWord(cls: string, marker: string): string | undefined {
  const words = cls.replace(marker, ' ').trim().split(/\s+/);
  return words.length === 1 && /^[a-z]+$/.test(words[0]!) ? words[0] : undefined;
}

/** Whether an element is a callout's title element (`TITLE_CLASS`, or a collapsible callout's `summary`). */
export function isCalloutTitle(name: string, cls: string | undefined): boolean {
  return name === 'summary' || (cls !== undefined && TITLE_CLASS.test(cls));
}

/** Whether a title says no more than the callout's kind ("Note", "TIP", "Danger:"): then it is dropped. */
export function titleRepeatsKind(title: string, callout: Callout): boolean {
  const word = title
    .replace(/[^\p{L}\s]/gu, '')
    .trim()
    .toLowerCase();
  if (word === '') return true;
  if (word === callout.word) return true;
  return callout.alert !== undefined && (word === callout.alert.toLowerCase() || ALERTS.get(word) === callout.alert);
}

/** A leading `**Note:**` (MDN's title, in the text) that only names the kind. */
const LEADING_LABEL = /^\*\*([^*\n]{1,20}?):?\*\*:?[ \t]*/;
/** A first paragraph of a word or two (Asciidoctor's label, in a cell before the content): dropped if a kind. */
const LEADING_KIND = /^([^\n]{1,20})(?:\n\n|$)/;

/**
 * The callout's markdown: `> [!KIND]` (with `> **Title**` when the title says more than the kind) or `> **Title**`,
 * then its content, every line quoted. Empty when it has neither title nor content.
 */
export function renderCallout(callout: Callout, title: string, body: string): string {
  let content = body;
  if (title === '' && callout.alert !== undefined) {
    const label = LEADING_LABEL.exec(content) ?? LEADING_KIND.exec(content);
    if (label && titleRepeatsKind(label[1]!, callout)) content = content.slice(label[0].length);
  }
  const heading =
    title !== '' && !(callout.alert !== undefined && titleRepeatsKind(title, callout)) ? `**${title}**` : '';
  const parts: string[] = [];
  if (callout.alert !== undefined) parts.push(`[!${callout.alert}]` + (heading !== '' ? `\n${heading}` : ''));
  else if (heading !== '') parts.push(heading);
  if (content !== '') parts.push(content);
  if (parts.length === 0 || (callout.alert !== undefined && content === '' && heading === '')) return '';
  return quote(parts.join('\n\n').replace(/^(\[![A-Z]+\])\n\n/, '$1\n'));
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '>' : '> ' + line))
    .join('\n');
}
