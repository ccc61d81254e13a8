/**
 * The render judge: from a page fetched over plain HTTP (its HTML, URL and headers), whether its readable content is
 * there or a browser must run its scripts first, and why. A pure function of its input, cheap enough for every page
 * (one lexical pass, see `page-signals.ts`), so it can run on any thread.
 */
import { comparable, hydrationProse, probe, type ProseString } from './embedded-text.js';
import { decodeText } from '../http/charset.js';
import type { UndecodedText } from '../http/types.js';
import { pageSignals, type PageSignals } from './page-signals.js';
import { isRouteFragment } from '@crawlkit/options/route-fragment';

/** A page as the judge sees it. */
export interface JudgedPage {
  /** The URL asked for, with its fragment (a client-side route lives there). */
  url: string;
  status: number;
  contentType: string;
  headers?: Record<string, string>;
  /** The decoded body; absent for binary content. */
  text?: string;
  /** A textual body not decoded yet (`deferDecoding`), in place of `text`: the judge decodes it. */
  undecoded?: { body: Uint8Array } & UndecodedText;
}

/** What the judge decided about one page. */
export interface RenderVerdict {
  /**
   * Why the page needs a browser (`js-required:<signal>`), or `undefined` when its HTML holds the content (and for
   * responses that are not successful HTML).
   */
  reason?: string;
  /** Characters of the page's main-content candidate (text outside navigation, footer, dialogs, placeholders). */
  contentChars?: number;
}

/**
 * Decides whether a page needs rendering. The fetcher's default is `judgeRendering`; another judge (one that runs in
 * a worker thread, say) must stay a function of the page alone.
 */
export type RenderJudge<V extends RenderVerdict = RenderVerdict> = (
  page: JudgedPage,
  options?: JudgeOptions,
) => V | Promise<V>;

/** What the fetcher gives a judge beside the page. */
export interface JudgeOptions {
  /** The request's signal (its timeout): a judge that runs elsewhere should stop waiting when it aborts. */
  signal?: AbortSignal;
  /**
   * Count the content of the whole page: the verdict's `contentChars` is compared with the rendered page's
   * (`renderingGain`). `false` lets the judge stop reading once the page holds more content than any reason allows
   * (`SETTLED_CONTENT`, 500 characters, unless the URL's fragment is a client-side route): the verdict's reason is
   * the same, and `contentChars` is then what was counted by that point. @default true
   */
  countAll?: boolean;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const NOSCRIPT_WALL =
  /\b(?:enable|turn on|activate|allow|switch on)\s+(?:your\s+)?javascript\b|\bjavascript\s+(?:is\s+)?(?:required|disabled|needed|turned off|must be enabled|is not enabled)|\b(?:requires?|needs?)\s+javascript\b|without\s+javascript\b/i;

/** A fragment that is a client-side route: the server sends the same shell for every route (rendered). */
export { isRouteFragment };

function fragmentOf(url: string): string {
  const at = url.indexOf('#');
  return at < 0 ? '' : url.slice(at);
}

/** Thresholds of the judge, in characters of text. */
const LIMITS = {
  /** An empty mount point with less content than this is an app shell. */
  appShell: 200,
  /** A `<noscript>` JavaScript wall with less other content than this. */
  noscriptWall: 300,
  /** Loading placeholders next to less content than this. */
  placeholder: 500,
  /** A main-content candidate this small next to heavy scripts. */
  thin: 60,
  /** Hydration text missing from the visible HTML must be at least this long... */
  hydration: 300,
  /** Scripts with no more text than this. */
  scriptOnly: 40,
  /** Script weight that makes a tiny page an app (an external script counts 2,000). */
  scriptWeight: 2_000,
};

/**
 * Content past which no reason holds but the hash route and the meta refresh (read in the `<head>`, before the
 * content): every other reason needs the content, the main-content candidate or the text (never less than the
 * candidate) under one of these thresholds.
 */
const SETTLED_CONTENT = Math.max(
  LIMITS.appShell,
  LIMITS.noscriptWall,
  LIMITS.placeholder,
  LIMITS.thin,
  LIMITS.scriptOnly,
);

/**
 * Hydration prose the visible text lacks, in characters: the eight longest prose strings of the state are looked
 * for (a five-word run of each) in the visible and `<noscript>` text.
 */
function missingHydrationChars(signals: PageSignals): number {
  if (signals.dataScripts.length === 0 && signals.stateScripts.length === 0) return 0;
  const strings: ProseString[] = hydrationProse(signals);
  if (strings.length === 0) return 0;
  const longest = strings.sort((a, b) => b.text.length - a.text.length).slice(0, 8);
  const candidateChars = longest.reduce((n, s) => n + s.text.length, 0);
  if (candidateChars < LIMITS.hydration) return 0;
  const visible = ` ${comparable(`${signals.visibleText()} ${signals.noscriptText}`)} `.replace(/\s+/g, ' ');
  let missing = 0;
  for (const s of longest) if (!visible.includes(probe(s.text))) missing += s.text.length;
  return missing;
}

/**
 * Whether `page` needs a browser to show its content, and why (the first signal that holds wins):
 * - `js-required:empty-body`: an empty response body (a document with markup but neither text nor scripts has nothing a
 *   browser could add);
 * - `js-required:hash-route`: the URL's fragment is a client-side route (`#/…`, `#!…`, `#docs/…`) and the page has
 *   scripts: only they can show that route;
 * - `js-required:app-shell`: an empty client-side mount point (`<div id="root"></div>`, `__next`, `<app-root>`, ...)
 *   and under 200 characters of content;
 * - `js-required:noscript-wall`: a `<noscript>` asking to enable JavaScript and under 300 characters of content;
 * - `js-required:hydration`: the hydration state (`__NEXT_DATA__`, `__NUXT__`, `window.__INITIAL_STATE__`,
 *   `<script type="application/json">`) holds 300+ characters of prose the visible HTML lacks, and the page under
 *   200 characters of content (a search index of other pages beside a short page is no reason);
 * - `js-required:placeholder`: loading placeholders ("Loading…", skeleton and spinner classes, `aria-busy`) next to
 *   under 500 characters of content;
 * - `js-required:script-only`: scripts and under 40 characters of text;
 * - `js-required:thin-content`: a main-content candidate under 60 characters (not a sentence) next to scripts of
 *   2,000+ characters (an external script counts 2,000);
 * - `js-required:meta-refresh`: a `<meta http-equiv="refresh">` that sends the page at once to another URL (a
 *   redirect stub: "Redirecting…"), whatever its content: a browser shows the target's page, and follows it.
 *
 * Content is the visible text outside navigation, header, footer, sidebars, dialogs, cookie bars, buttons and
 * placeholders, plus the text of a `<noscript>` that is not a JavaScript wall (the extractor reads it). Only
 * successful (2xx) HTML responses are judged.
 */
export function judgeRendering(page: JudgedPage, { countAll = true }: JudgeOptions = {}): RenderVerdict {
  if (page.status < 200 || page.status >= 300) return {};
  const type = page.contentType;
  const html =
    page.text ??
    (page.undecoded &&
      decodeText(page.undecoded.body, type, page.undecoded.declaredCharset, page.undecoded.contentLanguage).text);
  if (html === undefined) return {};
  if (!HTML_TYPES.has(type) && !(type === '' && /^\s*</.test(html))) return {};
  if (html.trim() === '') return { reason: 'js-required:empty-body', contentChars: 0 };

  const routed = isRouteFragment(fragmentOf(page.url));
  const signals = pageSignals(html, countAll || routed ? {} : { enoughContent: SETTLED_CONTENT });
  const wall = isNoscriptWall(signals);
  const content = contentOf(signals);
  const verdict = (reason?: string): RenderVerdict =>
    reason ? { reason, contentChars: content } : { contentChars: content };
  const scripted = signals.scripts > 0;

  if (scripted && routed) return verdict('js-required:hash-route');
  if (signals.emptyMount && content < LIMITS.appShell) return verdict('js-required:app-shell');
  if (wall && signals.contentChars < LIMITS.noscriptWall) return verdict('js-required:noscript-wall');
  if (content < LIMITS.appShell) {
    const missing = missingHydrationChars(signals);
    if (missing >= LIMITS.hydration && missing >= 2 * content) return verdict('js-required:hydration');
  }
  if (scripted && placeholderOnly(signals, content)) return verdict('js-required:placeholder');
  if (scripted && signals.textChars + signals.noscriptText.length < LIMITS.scriptOnly) {
    return verdict('js-required:script-only');
  }
  if (scripted && content < LIMITS.thin && scriptWeight(signals) >= LIMITS.scriptWeight) {
    return verdict('js-required:thin-content');
  }
  if (signals.immediateRefresh !== undefined && leavesPage(signals.immediateRefresh, page.url)) {
    return verdict('js-required:meta-refresh');
  }
  return verdict();
}

function isNoscriptWall(signals: PageSignals): boolean {
  return signals.noscriptText !== '' && NOSCRIPT_WALL.test(signals.noscriptText);
}

/** The page's content: its main-content candidate, plus the text of a `<noscript>` that is not a JavaScript wall. */
function contentOf(signals: PageSignals): number {
  return signals.contentChars + (isNoscriptWall(signals) ? 0 : signals.noscriptText.length);
}

/** Loading placeholders next to under 500 characters of content: the page says it is still loading its content. */
function placeholderOnly(signals: PageSignals, content: number): boolean {
  return signals.placeholders > 0 && content < LIMITS.placeholder;
}

/**
 * Whether a rendered page still shows only a loading placeholder ("Loading…", a skeleton or spinner, `aria-busy`)
 * where its content will be: the `js-required:placeholder` rule applied to the DOM as shown. The browser's smart wait
 * goes on waiting while it holds, so that an app which renders its content on a timer after its network went quiet
 * is not captured as "Loading…". Reads the page up to the rule's 500 characters of content.
 */
export function showsLoadingPlaceholder(html: string): boolean {
  const signals = pageSignals(html, { enoughContent: LIMITS.placeholder });
  return placeholderOnly(signals, contentOf(signals));
}

/**
 * Whether a rendered page shows nothing yet but its empty mount point or its scripts: the `js-required:app-shell`
 * and `js-required:script-only` rules applied to the DOM as shown. The smart wait goes on waiting while it holds and
 * a request of the page is still open (an app that renders once its `fetch()` answers, 2 s after load), where the
 * quiet network alone would have let it capture the empty shell.
 */
export function showsEmptyShell(html: string): boolean {
  const signals = pageSignals(html, { enoughContent: LIMITS.appShell });
  const content = contentOf(signals);
  if (signals.emptyMount && content < LIMITS.appShell) return true;
  return signals.scripts > 0 && signals.textChars + signals.noscriptText.length < LIMITS.scriptOnly;
}

/** Whether a refresh to `target` (as written in the page) leads away from `url` (a refresh to itself reloads it). */
function leavesPage(target: string, url: string): boolean {
  try {
    const to = new URL(target, url);
    const from = new URL(url);
    to.hash = '';
    from.hash = '';
    return to.href !== from.href && (to.protocol === 'http:' || to.protocol === 'https:');
  } catch {
    return false;
  }
}

/** Characters of script a page runs, counting an external script as 2,000 (a small bundle, conservatively). */
function scriptWeight(signals: PageSignals): number {
  return signals.inlineScriptChars + 2_000 * signals.externalScripts;
}

/**
 * What rendering a page showed, from the judge's verdicts on its HTML and on its rendered DOM: `browser` when the
 * rendered main-content candidate is more than half as large again as the HTML's, plus 100 characters (content the
 * HTML lacked), `http` when it is not (the HTML had it). Without measures (a custom judge), a page the judge sent to
 * the browser counts as `browser`, and nothing is known otherwise.
 */
export function renderingGain(html: RenderVerdict, rendered: RenderVerdict): 'http' | 'browser' | undefined {
  if (html.contentChars === undefined || rendered.contentChars === undefined) {
    return html.reason ? 'browser' : undefined;
  }
  return rendered.contentChars > 1.5 * html.contentChars + 100 ? 'browser' : 'http';
}
