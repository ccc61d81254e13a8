// Which rule kept, and which rule dropped, each part of a page: off by default, on for `explain` (the precision view
// of the extraction benchmark, `explainPage`).
import { isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';

import { elements } from '../dom/walk.js';

/**
 * Names of the rules that keep text in the output. `container`: inside the chosen container, no rule questioned it;
 * `page`: no candidate, the whole cleaned page; the others keep text that looks like furniture, for a reason.
 */
export type KeepRule =
  | 'container'
  | 'page'
  /** chrome (class, tag or role) holding 40% or more of the page's text */
  | 'large-chrome'
  /** link-only chrome or an overlay kept because too little would remain without it */
  | 'menu-needed'
  /** a comment or review section beside too little other prose (a discussion page) */
  | 'discussion'
  /** lists of short links that together are half of the container (an index) */
  | 'index'
  /** a section under a furniture heading that is 30% or more of the container */
  | 'large-section'
  /** a section under a furniture heading ("Footnotes") that the text's footnote references point into */
  | 'footnote-section'
  /** a grid of teaser cards kept by the position and prose guards (a listing) */
  | 'teaser-grid'
  /** a grid of items above a longer block of prose, where the container walk stopped (`item-grids.ts`) */
  | 'item-grid'
  /** intro paragraphs between the title and the container, outside it (`lede.ts`) */
  | 'lede'
  /** a list page's one `<h1>` just above the list, table or grid chosen as the container (`list-heading.ts`) */
  | 'list-heading'
  /** a job posting's heading just before the container (or its intro), named by the page title (`title-heading.ts`) */
  | 'title-heading'
  /** the page's `<main>` holding the headline of a story its HTML does not hold (`extract.ts`) */
  | 'story-shell'
  /** the block holding the page's one `<h1>`, chosen where no block dominates (`select.ts`) */
  | 'title-block'
  /** the byline's parts, kept as one line (`byline.ts`); the parts themselves are replaced by it */
  | 'byline'
  /** a hidden block holding most of the page's text: its content, hidden until a script shows it (`hidden-page.ts`) */
  | 'hidden-page';

/** A rule that drops part of a page: the module that holds it, and what it says in a sentence. */
export interface DropRuleInfo {
  module: string;
  says: string;
}

/** Every rule that drops part of a page, by name. `explainPage` reports these names. */
export const DROP_RULES = {
  // pass 1, prune.ts
  hidden: { module: 'hidden.ts', says: 'hidden from readers (hidden, aria-hidden, display:none, screen-reader-only)' },
  'not-text': {
    module: 'prune.ts',
    says: 'never readable text: script, style, template, svg, iframe, form controls, media, dialog',
  },
  'state-data': { module: 'state-data.ts', says: "a widget's JSON state written into the page's text" },
  // pass 3, chrome.ts
  chrome: {
    module: 'chrome.ts',
    says: 'page chrome by its tag, ARIA role or class/id words (navigation, header, footer, sidebar, share bar, ...)',
  },
  'post-chrome': {
    module: 'chrome.ts',
    says: "a forum post's chrome: poster rank and statistics, reactions, signature",
  },
  'author-box': { module: 'chrome.ts', says: "an author box: the writer's bio beside or under the story" },
  'desktop-only': { module: 'chrome.ts', says: 'a block whose class shows it only on large screens' },
  menu: {
    module: 'chrome.ts',
    says: 'link-only chrome or an overlay (mega menu, dialog, consent manager, page footer, navigation), whatever its size',
  },
  comments: {
    module: 'chrome.ts',
    says: "a comment or customer-review section, beside enough text of the page's own",
  },
  // passes 4 and 5, select.ts, candidate.ts, refine.ts
  'outside-container': { module: 'select.ts', says: 'outside the container chosen as the main content' },
  // pass 6, clean.ts and the rule modules it calls
  'empty-control': { module: 'clean.ts', says: 'a form, button or row of share icons without text' },
  'empty-item': { module: 'clean.ts', says: 'a list item without text or media (its icon or widget gone)' },
  caption: { module: 'clean.ts', says: 'a figure caption or photo credit (<figcaption>); the image stays' },
  'signup-widget': { module: 'signup-widgets.ts', says: 'a sign-up widget: its pitch, form and small print' },
  button: { module: 'furniture.ts', says: 'a button' },
  form: { module: 'furniture.ts', says: 'a form without prose (search, sign-up, filters)' },
  'furniture-text': {
    module: 'phrases/furniture-texts.ts',
    says: 'a short block whose whole text is a call to action, a label or a counter',
  },
  'reader-prompt': {
    module: 'phrases/prompts.ts',
    says: 'a prompt to follow, subscribe or share, or an appeal to the reader',
  },
  'related-link': { module: 'phrases/prompts.ts', says: 'a pointer to another story ("Related: <a>…</a>")' },
  'preferred-source': { module: 'reader-appeals.ts', says: 'a prompt to add the site as a preferred source' },
  'form-status': { module: 'signup-widgets.ts', says: "a form's status message" },
  'ad-label': { module: 'ad-labels.ts', says: 'the label of an ad slot' },
  paywall: { module: 'paywall.ts', says: 'a paywall or sign-in prompt' },
  'thread-label': { module: 'phrases/prompts.ts', says: "a thread's edit or membership label" },
  'photo-credit': { module: 'photo-credits.ts', says: 'a photo credit outside a caption' },
  'post-number': { module: 'furniture.ts', says: "a post's linked permalink number (#12)" },
  avatar: { module: 'furniture.ts', says: "a poster's avatar initials" },
  'link-button': { module: 'furniture.ts', says: 'a link styled as a button (a call to action)' },
  'vote-count': { module: 'furniture.ts', says: "a post's vote count on a Q&A page (a number standing alone)" },
  'page-control': {
    module: 'page-controls.ts',
    says: 'a page control: Hide/Show toggle, "Skip to", "Back to top", "Edit this page", "Add to Wish List" going nowhere',
  },
  'phone-cta': { module: 'phone-links.ts', says: 'a phone call to action (a tel: link standing alone)' },
  'info-icon': { module: 'info-icons.ts', says: 'an info icon in the text: a "?" or "ⓘ" that opens a tooltip' },
  'link-list': {
    module: 'link-lists.ts',
    says: 'a list of short links that is a small part of the container (table of contents, tag cloud)',
  },
  'furniture-heading': {
    module: 'sections.ts',
    says: 'a heading that opens a section of furniture ("Related articles", "Leave a comment", "References")',
  },
  'furniture-section': {
    module: 'sections.ts',
    says: 'the section under a furniture heading, a small part of the container',
  },
  'teaser-grid': { module: 'teasers.ts', says: 'a grid of teaser cards in the second half of an article' },
  'story-rail': {
    module: 'story-rails.ts',
    says: 'a rail of other stories after the story: 3+ headlines linking to pages shaped like this one',
  },
  'site-cards': {
    module: 'site-cards.ts',
    says: "cards of the site's other pages after a short story: 3+ title links, each with a line of teaser",
  },
  'deal-rail': {
    module: 'deal-rails.ts',
    says: 'a rail of links to other sites after the story, each with at most a short mark (deals, sponsored links)',
  },
  'subscribe-box': {
    module: 'subscribe-boxes.ts',
    says: "a short box after the story calling the reader to sign in or subscribe (a paywall's prompt)",
  },
  poll: {
    module: 'polls.ts',
    says: 'a poll after the story: its question, one group of radio buttons, a vote button and the count',
  },
  'product-cards': {
    module: 'product-cards.ts',
    says: "a row of other products' cards on a product's page (bought together, also viewed)",
  },
  'option-picker': {
    module: 'option-pickers.ts',
    says: "an option picker beside a price: a colour's or a size's radio buttons, a plan's, a quantity stepper",
  },
  'author-card': { module: 'author-cards.ts', says: "an author card: a link to the writer's page beside a bio" },
  'repeated-facts': {
    module: 'repeated-facts.ts',
    says: "a label and its value repeated in the lists of 3+ posts or cards (a poster's Posts: 4032, Joined …)",
  },
  'numbered-note': {
    module: 'numbered-notes.ts',
    says: 'small print after the story that opens with a superscript number (the notes of its figures)',
  },
  'pre-title-links': {
    module: 'pre-title-links.ts',
    says: "a block of links set above the page's title heading (a breadcrumb, a promotion bar, a help line)",
  },
  'age-line': {
    module: 'age-lines.ts',
    says: "a card's or a post's age standing alone as a line (3 days ago), while the ages are a small part of the text",
  },
  'closing-call': {
    module: 'closing-calls.ts',
    says: "a landing page's closing call: its last heading, a question, with a short pitch and a button after it",
  },
  repeat: { module: 'repeats.ts', says: 'a copy of an earlier block or wrapper, word for word' },
  'quoted-reply': { module: 'repeats.ts', says: 'a quote of an earlier post in a reply' },
  placeholder: { module: 'placeholders.ts', says: 'template filler (Lorem ipsum) and its unfilled cards' },
  // the page pipeline, page.ts
  'not-included': { module: 'page.ts', says: 'outside every includeTags match' },
  boilerplate: {
    module: 'clean/boilerplate.ts',
    says: 'a boilerplate selector of the v2 onlyMainContent with includeTags',
  },
  'exclude-tags': { module: 'page.ts', says: 'matched by excludeTags' },
} as const satisfies Record<string, DropRuleInfo>;

export type DropRule = keyof typeof DROP_RULES;

/**
 * Steps of `traceMainContent` that move the container rather than drop or keep a block: the page's one `<main>` when
 * the walk stopped above it, the item's own body inside the chosen column, the densest run of prose when no child
 * dominates, and a closing FAQ beside the story.
 */
export type Hook = 'main-element' | 'item-body' | 'dense-run' | 'trailing-faq';

/**
 * A rule or step the ablation bench can switch off. `teaser-grid` drops a grid of teasers; `teaser-grid-kept` is its
 * guard that keeps the grid (the keep rule of that name).
 */
export type Ablatable = DropRule | KeepRule | Hook | 'teaser-grid-kept';

/**
 * Rules switched off: the test-only injection point of the rule ablation bench (`bench/lib/rule-ablation.ts`), which
 * imports this module from the build. Not exported from the package's index, so no user option reaches it; empty,
 * each check is one size test.
 */
const OFF = new Set<Ablatable>();

/** Whether `rule` is switched off (only ever by the ablation bench). */
export function ruleOff(rule: Ablatable): boolean {
  return OFF.size !== 0 && OFF.has(rule);
}

/** Switches off exactly `rules` (none: every rule on). For the ablation bench only. */
export function switchOffRules(rules: Iterable<Ablatable>): void {
  OFF.clear();
  for (const r of rules) OFF.add(r);
}

/** Marks elements with the rule that kept them and nodes with the rule that dropped them; reads the output back. */
export class Trace {
  readonly #marks = new Map<Element, KeepRule>();
  readonly #drops = new Map<AnyNode, DropRule>();
  readonly #revealed = new Set<Element>();

  /** The first mark of an element wins (the outermost decision is made first). */
  mark(el: Element, rule: KeepRule): void {
    if (!this.#marks.has(el)) this.#marks.set(el, rule);
  }

  /** Records why a node is removed; the first rule to remove it wins. */
  drop(node: AnyNode, rule: DropRule): void {
    if (!this.#drops.has(node)) this.#drops.set(node, rule);
  }

  /**
   * Records a hidden block shown as the page's content (`hidden-page`), with every element under it: the container
   * may be chosen inside it, so its elements answer for it once it is out of the tree. Only the rare page whose
   * content is hidden fills it.
   */
  reveal(root: Element): void {
    this.#revealed.add(root);
    for (const el of elements(root)) this.#revealed.add(el);
  }

  /** Whether `el` was inside a hidden block shown as the page's content. */
  revealed(el: Element): boolean {
    return this.#revealed.has(el);
  }

  /** The rule that removed `node` itself, if one did. */
  droppedBy(node: AnyNode): DropRule | undefined {
    return this.#drops.get(node);
  }

  /** The rule that kept `el` itself, if one marked it. */
  keptBy(el: Element): KeepRule | undefined {
    return this.#marks.get(el);
  }

  /** Visible text under `root` grouped by the innermost marked element holding it (`rootRule` elsewhere). */
  textByRule(root: ParentNode, rootRule: KeepRule): Partial<Record<KeepRule, string>> {
    const out: Partial<Record<KeepRule, string>> = {};
    const stack: [AnyNode, KeepRule][] = [...root.children].reverse().map((c) => [c, rootRule]);
    while (stack.length) {
      const [node, rule] = stack.pop()!;
      if (isText(node)) {
        out[rule] = (out[rule] ?? '') + node.data;
      } else if (isTag(node)) {
        const own = this.#marks.get(node) ?? rule;
        // block boundaries separate words
        out[own] = (out[own] ?? '') + ' ';
        for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i]!, own]);
      }
    }
    return out;
  }
}

/** The nodes a pass removes; with a trace, each with the rule that removed it. */
export class Doomed extends Set<AnyNode> {
  readonly #trace: Trace | undefined;

  constructor(trace?: Trace) {
    super();
    this.#trace = trace;
  }

  /** Dooms `node` by `rule`. */
  drop(node: AnyNode, rule: DropRule): void {
    if (ruleOff(rule)) return;
    this.add(node);
    this.#trace?.drop(node, rule);
  }
}
