// Main-content extraction: prune, measure, pick the best container, clean inside it, compact its byline.
import { Document, Element, isTag, type AnyNode, type ParentNode } from 'domhandler';

import { baseUrlOf } from '../dom/urls.js';
import { contains, detachAll, elements, hasText, relink } from '../dom/walk.js';
import { compactByline } from './byline.js';
import { findCandidate } from './candidate.js';
import { ARTICLE_COMMENTS_MIN_REST, removeChrome } from './chrome.js';
import { cleanContainer, type PageFacts } from './clean.js';
import { pageDeclarations } from './kind.js';
import { findLede, GRID_INTRO, isShortIntro } from './lede.js';
import { findListHeading } from './list-heading.js';
import { documentTitle, findTitleHeading } from './title-heading.js';
import { measureTree, type Measures } from './measure.js';
import { adoptStrayContent, findBody, prune } from './prune.js';
import { findItemBody, findMain, MAIN_PROSE_SHARE, totalProse } from './refine.js';
import { isGridContainer, itemGrids } from './item-grids.js';
import { selectContainer } from './select.js';
import { pageAddress } from './site-links.js';
import { namesStory } from './story-rails.js';
import { findPageForms } from './page-forms.js';
import { teaserCards } from './teaser-cards.js';
import { findTrailingFaq } from './trailing-faq.js';
import { ruleOff, Trace, type KeepRule } from './trace.js';

export interface MainContentOptions {
  /**
   * The page URL (after redirects): rails of other stories are told by their links' likeness to it. The extractor
   * works without it.
   * @default undefined
   */
  url?: string;
  /**
   * Also return the output's text grouped by the rule that kept it (`keptBy`): the benchmark's precision view.
   * @default false
   */
  explain?: boolean;
  /**
   * Keep figure captions (`<figcaption>`), which the main content drops by default (issue 42: they cost articles F1).
   * @default false
   */
  captions?: boolean;
  /**
   * Keep `<iframe src>`, `<video>` and `<audio>` for the markdown's link lines (`markdownOptions.embeds`).
   * @default false
   */
  embeds?: boolean;
}

/** What `findMainContent` found. */
export interface MainContent {
  /** A document holding `<body>` with the main content, in document order. */
  document: Document;
  /**
   * `container`: one element of the page was chosen as its main content. `page`: the page has no candidate (no
   * element holds its content), so this is the whole page without its chrome: a last resort, worth a warning.
   */
  source: 'container' | 'page';
  /** With `explain`: the visible text of the output, grouped by the rule that kept it. */
  keptBy?: Partial<Record<KeepRule, string>>;
}

/** A container with fewer characters than this, on a page with much more text, is a wrong pick. */
const MIN_CONTAINER = 150;

/** Returns a Document holding only the page's main content. May mutate `document`. */
export function extractMainContent(document: Document, options: MainContentOptions = {}): Document {
  return findMainContent(document, options).document;
}

/**
 * Finds the page's main content: the document holding it, and whether it is one container of the page or (no
 * candidate at all) the whole page without its chrome. May mutate `document`.
 */
export function findMainContent(document: Document, options: MainContentOptions = {}): MainContent {
  const {
    document: main,
    source,
    keptBy,
  } = traceMainContent(
    document,
    options.explain ? new Trace() : undefined,
    options.url,
    options.captions,
    options.embeds,
  );
  return keptBy ? { document: main, source, keptBy } : { document: main, source };
}

/** What `traceMainContent` found: `findMainContent`'s answer, and the page's elements it is made of. */
export interface TracedContent extends MainContent {
  /** The nodes of the page that make the main content, in order (the container, its intro, its FAQ). */
  parts: AnyNode[];
}

/**
 * `findMainContent`, recording in `trace` (when given) the rule that kept or dropped each part of the page. `url` is
 * the page's address (rails of other stories are told by their links' likeness to it); `captions` keeps figure
 * captions, `embeds` keeps embeds and players. May mutate `document`.
 */
export function traceMainContent(
  document: Document,
  trace?: Trace,
  url?: string,
  captions = false,
  embeds = false,
): TracedContent {
  const done = (nodes: AnyNode[], source: MainContent['source']): TracedContent => {
    const parts = [...nodes];
    const out: TracedContent = { document: wrap(nodes), source, parts };
    if (trace) out.keptBy = trace.textByRule(out.document, source);
    return out;
  };
  const declared = pageDeclarations(document);
  const kind = declared.kind;
  // a job posting's title, for the heading the walk leaves beside the posting
  const postingTitle = declared.jobPosting ? documentTitle(document) : '';
  // where the page is and what its links resolve against (its `<base href>`), read once
  const address = url ? (pageAddress(url, baseUrlOf(document, url)) ?? undefined) : undefined;
  const articleCommentsMinRest = kind === 'article' ? ARTICLE_COMMENTS_MIN_REST : null;
  const body = findBody(document);
  adoptStrayContent(document, body);
  const forms = findPageForms(body);
  prune(body, trace, true, embeds);
  const measures = measureTree(body);
  let total = 0;
  let totalValue = 0;
  for (const c of body.children) {
    if (!isTag(c)) continue;
    total += measures.get(c)?.text ?? 0;
    totalValue += measures.get(c)?.prose ?? 0;
  }
  if (total === 0) return done(body.children, 'page');
  removeChrome(body, measures, total, totalValue, articleCommentsMinRest, trace);
  // on a declared article, rows of teaser cards below the story are not its text (on other pages they may be the page)
  const cards = kind === 'article' ? teaserCards(measures) : undefined;
  // on other pages, a grid of items above a longer block of prose (a category's description) is the page's content
  const grids = kind === 'article' ? undefined : itemGrids(measures);
  const pageGrids: Element[] = [];
  const facts: PageFacts = { kind, forms, pageGrids, address, captions };
  let best =
    selectContainer(body, measures, { qa: kind === 'qa', cards, grids, trace, stoppedBy: pageGrids }) ??
    (isTag(body) ? body : null);
  if (!best) return done(body.children, 'page');
  // the walk stopped above the page's one <main>, which holds most of the prose: continue from there
  const main = findMain(body);
  if (main && main !== best && contains(best, main) && !ruleOff('main-element')) {
    const prose = totalProse(body, measures);
    if ((measures.get(main)?.prose ?? 0) >= MAIN_PROSE_SHARE * prose) best = main;
  }
  // the story's or product's own body inside the chosen column (headline block, share bars, buy box, teasers beside it)
  const inner = isTag(best) && !ruleOff('item-body') ? findItemBody(best, measures) : null;
  if (inner) best = inner;
  // no dominant child from the top, or a wrong pick far too small: the densest run of prose is the candidate
  const bestText = measures.get(best)?.text ?? 0;
  const tiny = bestText < MIN_CONTAINER && total - bestText > 4 * MIN_CONTAINER;
  if (best === body || tiny) {
    const candidate = ruleOff('dense-run') ? null : findCandidate(body, measures);
    const story = kind === 'article' && address !== undefined && namesStory(address.page);
    const shell = candidate || !story || ruleOff('story-shell') ? null : storyShell(body, main, measures);
    if (candidate && (!tiny || (measures.get(candidate)?.text ?? 0) > bestText)) best = candidate;
    else if (shell) {
      best = shell;
      trace?.mark(shell, 'story-shell');
    } else if (tiny) {
      // no candidate: the whole page is the answer, cleaned as a container would be
      if (isTag(body)) cleanContainer(body, measures, trace, facts);
      return done(body.children, 'page');
    }
  }
  // a closing FAQ that the walk left beside the story's body
  const faq = best !== body && !ruleOff('trailing-faq') ? findTrailingFaq(best, measures) : null;
  cleanContainer(best, measures, trace, facts);
  if (!hasText(best)) return done(body.children, 'page');
  if (faq) cleanContainer(faq, measures, trace, facts);
  if (best === body) return done(best.children, 'page');
  // the container's own head; the whole page's head is what is left of the site's header
  if (isTag(best)) compactByline(best, measures, trace);
  // the story's intro that the walk left beside its body, between the title and the container; above a grid of items,
  // a listing's or a collection's intro line
  let lede = ruleOff('lede') ? [] : findLede(best, measures, grids ? GRID_INTRO : undefined);
  if (grids && lede.length && isShortIntro(lede, measures) && !isGridContainer(best, measures, grids)) lede = [];
  for (const el of lede) trace?.mark(el, 'lede');
  const listHeading = ruleOff('list-heading') ? null : findListHeading(body, best, measures, grids, lede);
  const at = lede[0] ?? best;
  const titleHeading =
    listHeading || !isTag(at) || ruleOff('title-heading') ? null : findTitleHeading(at, postingTitle, measures);
  const heading = listHeading ?? titleHeading;
  if (heading) {
    trace?.mark(heading, listHeading ? 'list-heading' : 'title-heading');
    lede = [heading, ...lede.filter((el) => !contains(el, heading) && !contains(heading, el))];
  }
  return done(faq ? [...lede, best, faq] : [...lede, best], 'container');
}

/**
 * The head of a story whose HTML holds no story, on a declared article naming one story: the page's one `<main>` when
 * it holds the page's one `<h1>` and less than a container's worth of text (a script fills it, a paywall hides the
 * rest). Its rails are not its content; null otherwise.
 */
function storyShell(body: ParentNode, main: Element | null, measures: Measures): Element | null {
  if (!main || (measures.get(main)?.text ?? 0) >= MIN_CONTAINER) return null;
  let h1: Element | null = null;
  for (const el of elements(body)) {
    if (el.name !== 'h1') continue;
    if (h1) return null;
    h1 = el;
  }
  return h1 && contains(main, h1) ? main : null;
}

/** A new document whose body holds `nodes`, detached from where they were (one pass per parent, not per node). */
function wrap(nodes: AnyNode[]): Document {
  const kept = [...nodes];
  detachAll(kept);
  const body = new Element('body', {}, []);
  relink(body, kept);
  const doc = new Document([body]);
  body.parent = doc;
  return doc;
}
