// "Where did my paragraph go?": every block of a page with its verdict, kept or dropped, and the rule that decided,
// through the same steps `extractPage` takes for markdown.
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';

import { removeBoilerplate } from '../clean/boilerplate.js';
import { excludesBeforeMain, NON_CONTENT, removeUnwanted, selectIncluded } from '../clean/transform.js';
import { traceMainContent } from '../content/extract.js';
import { DROP_RULES, Trace, type DropRule, type KeepRule } from '../content/trace.js';
import { parseHtml } from '../dom/parse.js';
import { selectSafe } from '../dom/select.js';
import { contains, detachAll, elements, hasText, textOf } from '../dom/walk.js';
import { pageBlocks } from './blocks.js';
import { Handles } from './handles.js';
import { suggestOptions, type Suggestion } from './suggest.js';

export interface ExplainOptions {
  /** The page URL (after redirects). */
  url: string;
  /** As `extractPage`'s: keep only the main content. @default true */
  onlyMainContent?: boolean;
  /** As `extractPage`'s: CSS selectors of the elements to keep (the main-content rules then do not run). */
  includeTags?: string[];
  /** As `extractPage`'s: CSS selectors of the elements to drop. */
  excludeTags?: string[];
  /**
   * Which blocks get a suggestion (options that keep a dropped block, checked by extracting the page again; or drop a
   * kept one). `true`: every dropped block of 60 characters or more; a function chooses. At most `MAX_SUGGESTIONS`
   * checks are made.
   * @default true
   */
  suggest?: boolean | ((block: ExplainedBlock) => boolean);
}

/** Rules that keep a block: the main-content rules (`KeepRule`), or the options that bypass them. */
export type ExplainKeepRule =
  | KeepRule
  /** kept by the page's includeTags */
  | 'include-tags'
  /** onlyMainContent is false: the whole page is kept */
  | 'whole-page';

/** A block of the page (an element with text of its own) and what became of it. */
export interface ExplainedBlock {
  /** Position among the page's blocks, in document order. */
  index: number;
  /** Its tag name. */
  tag: string;
  /** A CSS selector that matches it alone in the page. */
  selector: string;
  /** Its own text (not that of blocks inside it), whitespace collapsed. */
  text: string;
  verdict: 'kept' | 'dropped';
  /** The rule that decided: a `DROP_RULES` name when dropped, an `ExplainKeepRule` when kept. */
  rule: DropRule | ExplainKeepRule;
  /** What the rule says, in a sentence. */
  reason: string;
  /** The extractor module that holds a drop rule. */
  module?: string;
  /** The element the rule removed, when it is not the block itself (a section, a sidebar): its selector. */
  decidedAt?: string;
  /** Parts of a kept block's text that a rule dropped (a button, a link styled as one, a label) and the rule. */
  droppedParts?: { text: string; rule: DropRule }[];
  /** Options that would keep this dropped block (checked), or drop this kept one. */
  suggestion?: Suggestion;
}

/** Every block of a page with its verdict. */
export interface ExplainedPage {
  /**
   * How the output was chosen: `container` (one element of the page), `page` (no candidate: the whole page without
   * its chrome), `empty-main` (the main content came out empty, so the whole page is returned), `include-tags`,
   * `whole-page` (onlyMainContent false).
   */
  source: 'container' | 'page' | 'empty-main' | 'include-tags' | 'whole-page';
  /** Selectors of the page's elements the main content is made of (the container, its intro, its FAQ). */
  container: string[];
  blocks: ExplainedBlock[];
  /** As `extractPage`'s warnings (an invalid selector, ...). */
  warnings: string[];
}

/** What each keep rule says, for `reason`. */
const KEEP_REASONS: Record<ExplainKeepRule, string> = {
  container: 'inside the container chosen as the main content; no rule questioned it',
  page: 'no main-content candidate: the whole page without its chrome is kept',
  'large-chrome': "looks like chrome, but holds 40% or more of the page's text",
  'menu-needed': 'link-only chrome or an overlay, kept because too little text would remain without it',
  discussion: 'a comment section beside too little other prose: the page is its discussion',
  index: 'lists of short links that together are half of the container: an index',
  'large-section': 'a section under a furniture heading, but 30% or more of the container',
  'footnote-section': "a section under a furniture heading, but the text's footnote references point into it",
  'teaser-grid': 'teaser cards kept by the position and prose guards (a listing)',
  'item-grid': 'a grid of items above a longer block of prose (a collection above its description)',
  lede: "the story's intro between its title and the container",
  'list-heading': "a list page's one <h1>, just above the list, table or grid chosen as the main content",
  'title-heading': "a job posting's title heading, just before the main content, which the page title names",
  'story-shell': "a story page's <main> holding its headline but not its story (a script fills it): the rest is rails",
  'title-block': "the block holding the page's title, chosen over the rails and asides beside it",
  byline: 'a part of the byline, kept as one line ("By Jane Doe · March 3, 2025")',
  'hidden-page':
    "hidden, but holds most of the page's text: its content, shown by a script (a gate, a deferred render)",
  'include-tags': 'matched by includeTags',
  'whole-page': 'onlyMainContent is false: the whole page is kept',
};

/**
 * Explains what `extractPage` keeps of a page for markdown: every block (an element holding text of its own) with
 * its verdict and the rule that decided, the main-content container, and for dropped blocks the includeTags that
 * would keep them (checked by extracting again). Never throws for any HTML.
 */
export function explainPage(html: string, options: ExplainOptions): ExplainedPage {
  const warnings: string[] = [];
  const onlyMainContent = options.onlyMainContent ?? true;
  const includeTags = options.includeTags?.filter((t) => t.trim() !== '') ?? [];
  // the page as parsed, never changed: selectors are made on it; `work` goes through the extraction
  const reference = parseHtml(html);
  const work = parseHtml(html);
  const twin = twins(work, reference);
  const handles = new Handles(reference);
  const blocks = pageBlocks(work);
  const trace = new Trace();
  let output: Document;
  let source: ExplainedPage['source'];
  let parts: AnyNode[] = [];
  if (includeTags.length) {
    output = selectIncluded(work, includeTags, warnings);
    parts = [...output.children];
    if (onlyMainContent) removeBoilerplate(output.children, warnings);
    source = 'include-tags';
  } else if (onlyMainContent) {
    // as `extractPage`: excludeTags match the page as served, before the main content is chosen
    excludeTraced(work, options.excludeTags, trace, warnings);
    const found = traceMainContent(work, trace, options.url);
    output = found.document;
    parts = found.parts;
    source = found.source;
  } else {
    output = work;
    source = 'whole-page';
  }
  const excludedFirst = excludesBeforeMain(includeTags, onlyMainContent);
  exclude(output, excludedFirst ? undefined : options.excludeTags, trace, warnings);
  if (onlyMainContent && !includeTags.length && !hasText(output)) source = 'empty-main';

  // the element each dropped block's rule removed (in `reference`), when it is not the block itself
  const decisions: (Element | undefined)[] = [];
  const explained = blocks.map(({ el, text, inline }, index): ExplainedBlock => {
    const base = { index, tag: el.name, selector: handles.path(twin.get(el)!), text };
    if (source === 'empty-main') return { ...base, verdict: 'kept', rule: 'page', reason: KEEP_REASONS.page };
    const { root, dropped, kept } = follow(el, trace);
    if (dropped) {
      const rule = dropped.rule;
      const at = isTag(dropped.node) && dropped.node !== el ? twin.get(dropped.node) : undefined;
      decisions[index] = at;
      return {
        ...base,
        verdict: 'dropped',
        rule,
        reason: DROP_RULES[rule].says,
        module: DROP_RULES[rule].module,
        ...(at ? { decidedAt: handles.path(at) } : {}),
      };
    }
    if (root === output || kept === 'byline') {
      const rule: ExplainKeepRule =
        kept ??
        (source === 'include-tags' || source === 'whole-page' ? source : source === 'page' ? 'page' : 'container');
      const lost = partsDropped(inline, trace);
      // a block whose every word went with its inline parts (a screen-reader label inside a dropped button) is dropped
      const whole = lost && wholeText(lost) === text.replace(/\s+/g, '') ? lost[0] : undefined;
      if (whole) {
        const at = twin.get(whole.el)!;
        decisions[index] = at;
        const { rule: partRule } = whole;
        const { says, module } = DROP_RULES[partRule];
        return { ...base, verdict: 'dropped', rule: partRule, reason: says, module, decidedAt: handles.path(at) };
      }
      const droppedParts = lost?.map(({ text, rule }) => ({ text, rule }));
      return { ...base, verdict: 'kept', rule, reason: KEEP_REASONS[rule], ...(droppedParts ? { droppedParts } : {}) };
    }
    // still in the page as parsed: outside the container (or outside every includeTags match); detached by no rule
    // of the trace: the v2 boilerplate selectors of includeTags
    const rule: DropRule =
      source === 'include-tags' ? (root === work ? 'not-included' : 'boilerplate') : 'outside-container';
    return { ...base, verdict: 'dropped', rule, reason: DROP_RULES[rule].says, module: DROP_RULES[rule].module };
  });
  const containerElements = parts.filter(isTag).map((p) => twin.get(p) ?? p);
  const containerHandles = containerElements.map((el) => handles.of(el));

  // excludeTags apply where `extractPage` matches them: the page as served for the main content, else the output
  const outputHandles = excludedFirst ? undefined : new Handles(output);
  suggestOptions(html, options, explained, {
    handles,
    excludeHandleOf: (i) => (outputHandles ? outputHandles.of(blocks[i]!.el) : handles.of(twin.get(blocks[i]!.el)!)),
    containerHandles,
    containerElements,
    // a block outside the container is suggested with its region: the largest wrapper around it beside the container
    targetOf: (i) =>
      decisions[i] ??
      (explained[i]!.rule === 'outside-container'
        ? regionOf(twin.get(blocks[i]!.el)!, containerElements)
        : twin.get(blocks[i]!.el)!),
  });
  return { source, container: containerHandles, blocks: explained, warnings };
}

/** A region suggested whole holds at most this many characters of text. */
const MAX_REGION = 5000;

/**
 * The largest element holding `el` but no part of the main content (a sidebar, an author box beside the story), as
 * long as it holds at most `MAX_REGION` characters; `el` itself otherwise.
 */
function regionOf(el: Element, container: readonly Element[]): Element {
  let region = el;
  for (let p = el.parent; p && isTag(p) && p.name !== 'body'; p = p.parent) {
    if (container.some((c) => c === p || contains(p, c))) break;
    if (textOf(p).length > MAX_REGION) break;
    region = p;
  }
  return region;
}

/** Maps each element of `work` to the element at the same place of `reference` (two parses of the same HTML). */
function twins(work: Document, reference: Document): Map<Element, Element> {
  const map = new Map<Element, Element>();
  const a = elements(work);
  const b = elements(reference);
  for (let x = a.next(), y = b.next(); !x.done && !y.done; x = a.next(), y = b.next()) map.set(x.value, y.value);
  return map;
}

/** Walks up from `el` to its root: the innermost rule that dropped a node on the way, and the innermost keep mark. */
function follow(
  el: Element,
  trace: Trace,
): { root: AnyNode; dropped?: { node: AnyNode; rule: DropRule }; kept?: KeepRule } {
  let dropped: { node: AnyNode; rule: DropRule } | undefined;
  let kept: KeepRule | undefined;
  let node: AnyNode = el;
  for (;;) {
    const rule = trace.droppedBy(node);
    if (rule && !dropped) dropped = { node, rule };
    if (isTag(node) && !kept) kept = trace.keptBy(node);
    if (!node.parent) break;
    node = node.parent;
  }
  // a block of a hidden part shown as the page's content, when no keep rule of its own says more
  if (!kept && trace.revealed(el)) kept = 'hidden-page';
  return { root: node, ...(dropped ? { dropped } : {}), ...(kept ? { kept } : {}) };
}

interface DroppedPart {
  el: Element;
  text: string;
  rule: DropRule;
}

/** The text of dropped parts without whitespace, to compare with their block's. */
const wholeText = (parts: DroppedPart[]): string => parts.map((p) => p.text.replace(/\s+/g, '')).join('');

/** The inline elements of a kept block that a rule dropped (each once: not those inside a dropped one). */
function partsDropped(inline: Element[], trace: Trace): DroppedPart[] | undefined {
  const out: DroppedPart[] = [];
  let last: Element | null = null;
  for (const el of inline) {
    if (last && contains(last, el)) continue;
    const rule = trace.droppedBy(el);
    if (!rule) continue;
    last = el;
    const text = textOf(el);
    if (text) out.push({ el, text, rule });
  }
  return out.length ? out : undefined;
}

/** `extractPage`'s last cleaning: tags that never hold content, then excludeTags; each removal recorded. */
function exclude(output: Document, excludeTags: readonly string[] | undefined, trace: Trace, warnings: string[]): void {
  for (const el of elements(output)) if (NON_CONTENT.has(el.name)) trace.drop(el, 'not-text');
  removeUnwanted(output, undefined, warnings);
  excludeTraced(output, excludeTags, trace, warnings);
}

/** Removes the `excludeTags` matches of `root`, each recorded. */
function excludeTraced(
  root: Document,
  excludeTags: readonly string[] | undefined,
  trace: Trace,
  warnings: string[],
): void {
  for (const selector of excludeTags ?? []) {
    const matches = selectSafe(selector, root, warnings, 'excludeTags');
    for (const m of matches) trace.drop(m, 'exclude-tags');
    detachAll(matches);
  }
}
