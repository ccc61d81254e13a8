// What an element's tag, role, class and id say about it, before looking at its text.
import { isTag, type Element } from 'domhandler';

import { ownCopy } from '../dom/own-copy.js';
import { isItemHeader } from './item-header.js';
import { isJobPostingType } from './kind.js';
import { isQuoteAside } from './quote-asides.js';
import { CHROME_WORDS } from './phrases/class-words.js';
import { anyOf } from './phrases/phrase-table.js';

/** Class/id words of page chrome (split on spaces, hyphens and underscores): removed unless holding most text. */
const CHROME = anyOf(CHROME_WORDS, String.raw`(?:^|[\s_-])`, String.raw`(?:$|[\s_-])`);

/**
 * Class/id words of legal small print: disclaimers and disclosures (an investment product's risk notes, "Member FDIC",
 * an affiliate note), also on a `<p>`, whose other class words describe its text: `<p class="disclaimer">Copyright ©
 * …</p>` under a transcript is the site's, not the story's. Only a block's own name counts: a BEM element or modifier
 * (`disclosure__panel`, `disclosure--row`, `FooterEmail__Disclaimer`) is a part of something else, often the
 * disclosure widget of a shop's description panels.
 */
const LEGAL = /(?<![^\s_-])(?<!__)(?:disclaimers?|disclosures?)(?!__|--)(?![^\s_-])/i;

/** Class/id words of content containers. */
const CONTENT =
  /(?:^|[\s_-])(?:article|articles|content|entry|main|post|posts|story|body|text|thread|topic|message|messages|product|description|blog|prose|markdown|docs?|documentation|page-content|recipe)(?:$|[\s_-])/i;

/** `main` that only qualifies a chrome word (`main-navigation`, `main_menu`, `main-footer`) does not say content. */
const MAIN_OF_CHROME =
  /(?:^|(?<=[\s_-]))main[-_](?=(?:nav|navigation|navbar|menu|menubar|header|footer|sidebar)(?:$|[\s_-]))/gi;

/** Whether class/id words (`classAndId`) say content, leaving out a `main` that qualifies a chrome word. */
function saysContent(names: string): boolean {
  return CONTENT.test(names.includes('main') ? names.replace(MAIN_OF_CHROME, '') : names);
}

/** Class/id words of a comment section (kept on pages that are mostly discussion). */
const COMMENTS =
  /(?:^|[\s_-])(?:comments|comment-?(?:list|section|area|wrapper|container|thread)s?|commentlist|commentarea|disqus_thread|respond|reviews|review-?(?:list|section|container|widget)s?|product-?reviews|ratings-?reviews)(?:$|[\s_-])/i;

/**
 * Class words of per-post chrome in forum software: the poster's rank, banner and statistics ("Joined", "Posts:",
 * "Reaction score"), reaction/like summaries and signatures. Removed even inside `message`/`post` containers.
 */
const POST_CHROME =
  /(?:^|[\s_-])(?:user[-_]?(?:title|banners?|extras?|stats|statistics|rank)|userinfo[-_]?extra|author[-_]?(?:stats|statistics)|poster[-_]?(?:stats|rank)|member[-_]?(?:stats|rank|title)|profile[-_]?(?:rank|posts|joined)|reactions[-_]?(?:bar|list|summary)|likes[-_]?summary|signature|post[-_]?signature)(?:$|[\s_-])/i;

/** Whether class or id name the element as per-post chrome of a discussion (poster stats, reactions, signature). */
export function looksLikePostChrome(el: Element): boolean {
  return namesMatch(el, POST_CHROME);
}

/** Class/id words of a section of customer testimonials: a service page's content, reader furniture on an article. */
const TESTIMONIALS = /(?:^|[\s_-])testimonials?(?:$|[\s_-])/i;

/** Whether class or id name the element as a section of customer testimonials. */
export function looksLikeTestimonials(el: Element): boolean {
  return namesMatch(el, TESTIMONIALS);
}

/** Class/id words of a section of customer reviews (of a product or a service, never the page's own text). */
const REVIEWS =
  /(?:^|[\s_-])(?:reviews|review-?(?:list|section|container|widget|views)s?|product-?reviews|ratings-?reviews)(?:$|[\s_-])/i;

/** Whether class or id name the element as a section of customer reviews. */
export function looksLikeReviews(el: Element): boolean {
  return namesMatch(el, REVIEWS);
}

/** Whether class or id name the element as a comment section. */
export function looksLikeComments(el: Element): boolean {
  return namesMatch(el, COMMENTS);
}

/** Class/id words of a forum's thread, even when it sits in a comment section (`DiscussionBoard`, `forum-posts`). */
const FORUM = /discussion|forum|board/i;

/** Whether class or id name the element as the posts of a forum thread (its content, not reader comments). */
export function looksLikeForum(el: Element): boolean {
  return namesMatch(el, FORUM);
}

/** Roles of chrome landmarks. */
const CHROME_ROLES: ReadonlySet<string> = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
]);

/** Elements whose class words describe their text (`language-ts`, `table-share`), never page chrome. */
const NEVER_CHROME: ReadonlySet<string> = new Set([
  'pre',
  'code',
  'p',
  'table',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

const CHROME_TAGS: ReadonlySet<string> = new Set(['nav', 'aside', 'footer', 'header']);

/** Class tokens that name a taxonomy term (WordPress `category-reviews`, `tag-share`), not the element's role. */
const TAXONOMY = /^(?:category|tag|post_tag|format|status|type|topic|product_cat|product_tag|pa)[-_]/i;

/** Class attributes without their taxonomy tokens, by attribute value (pages repeat their class strings). */
const classWords = new Map<string, string>();
/** Entries `classWords` keeps before it starts over: a bound on memory across pages, far above one page's. */
const CLASS_WORDS_MAX = 20_000;

/** A `class` attribute without its taxonomy tokens. */
function classWordsOf(cls: string): string {
  // only a token with a hyphen or an underscore can be a taxonomy term
  if (!cls.includes('-') && !cls.includes('_')) return cls;
  let words = classWords.get(cls);
  if (words === undefined) {
    // The map outlives the page, and the attribute's value is a slice of the page's text, which V8 keeps whole for
    // as long as a slice of it lives: the entry is made of a copy (and the words of it), else every page met stays.
    const own = ownCopy(cls);
    words = own
      .split(/\s+/)
      .filter((t) => !TAXONOMY.test(t))
      .join(' ');
    if (classWords.size >= CLASS_WORDS_MAX) classWords.clear();
    classWords.set(own, words);
  }
  return words;
}

/** `class` (without taxonomy tokens) and `id` of an element as one string. */
export function classAndId(el: Element): string {
  // a cache by class string rather than by element: the rule tests ask about most elements several times, and a
  // WeakMap's inserts (and the garbage collector's tracing of them) cost more than the rest of this function
  const cls = el.attribs['class'];
  const id = el.attribs['id'];
  if (cls === undefined) return id ?? '';
  const words = classWordsOf(cls);
  return words && id ? `${words} ${id}` : words || (id ?? '');
}

/**
 * Whether `pattern` matches the element's class/id words (`classAndId`). The raw `class` and `id` are tested first:
 * the words are the class's tokens less the taxonomy ones, joined by spaces, so a pattern that matches within one
 * token and takes whitespace, or either end, as a boundary (as every pattern here does) cannot match the words when
 * it matches neither attribute, and most elements are answered without building them.
 */
function namesMatch(el: Element, pattern: RegExp): boolean {
  return attributesMatch(el, pattern) && pattern.test(classAndId(el));
}

/** Whether `pattern` matches the raw `class` or `id` of the element. */
function attributesMatch(el: Element, pattern: RegExp): boolean {
  const cls = el.attribs['class'];
  if (cls !== undefined && pattern.test(cls)) return true;
  const id = el.attribs['id'];
  return id !== undefined && pattern.test(id);
}

/**
 * Class/id words of an author box: the writer's bio and photo under (or beside) an article ("About the author",
 * `author-box`, `author-bio`, `post-author-card`, WordPress author-box plugins). `author-<name>` alone is a
 * taxonomy token of a post (and a short byline stays: see `AUTHOR_BOX_MIN`).
 */
const AUTHOR_BOX =
  /(?:^|[\s_-])(?:about[-_]?(?:the[-_]?)?authors?|authors?[-_]*(?:box|bio|biography|card|section|block|wrap|wrapper|about|details|profile|popover|description)|abh_box|saboxplugin-wrap)(?:$|[\s_-])/i;

/** Whether class or id name the element as an author box (bio, photo, links to the writer's other posts). */
export function looksLikeAuthorBox(el: Element): boolean {
  if (NEVER_CHROME.has(el.name)) return false;
  return namesMatch(el, AUTHOR_BOX);
}

/** Class words of a person's avatar: a picture, or the initials of a member without one ("K"). */
const AVATAR = /(?:^|[\s_-])avatar(?:$|[\s_-])/i;

/** Whether class or id name the element as an avatar (a poster's or an author's picture or initials). */
export function looksLikeAvatar(el: Element): boolean {
  return namesMatch(el, AVATAR);
}

/**
 * Class/id words of a byline or a dateline, split on spaces, hyphens and underscores (`post-meta`, `article__byline`,
 * `entry-date`, `posted-on`, `reading-time`); `byline` also inside a camel-case name (`articleByline`).
 */
const BYLINE =
  /(?:^|[\s_-])(?:by-?lines?|authors?|author-?name|writers?|date-?line|dates?|pub-?date|published|posted|posted-?(?:on|by)|time-?stamp|time|meta|read-?time|reading-?time|updated)(?:$|[\s_-])|byline/i;

/** schema.org properties of an item's author and dates (microdata). */
const BYLINE_PROPS: ReadonlySet<string> = new Set([
  'author',
  'creator',
  'datePublished',
  'dateModified',
  'dateCreated',
]);

/**
 * Whether attributes, whatever the class words, mark the element as an author's name or a date in a machine-readable
 * way: `datetime`, `rel="author"`, `itemprop="author"` / `datePublished` / ...
 */
export function marksAuthorOrDate(el: Element): boolean {
  const a = el.attribs;
  if (a['datetime'] !== undefined) return true;
  const rel = a['rel'];
  if (rel !== undefined && /(?:^|\s)author(?:$|\s)/i.test(rel)) return true;
  const prop = a['itemprop'];
  return prop !== undefined && BYLINE_PROPS.has(prop);
}

/**
 * Whether tag, attributes or class/id words mark the element as a byline or a dateline, or a part of one (`<time>`,
 * `<address>`, `marksAuthorOrDate`, `byline`, `author`, `date`, `meta`, `posted-on`, ...). Read only in the head of
 * the chosen content (`byline.ts`).
 */
export function looksLikeByline(el: Element): boolean {
  if (el.name === 'time' || el.name === 'address' || marksAuthorOrDate(el)) return true;
  return namesMatch(el, BYLINE);
}

/** Whether tag, role, class or id mark the element as page chrome (navigation, banners, share bars, ...). */
export function looksLikeChrome(el: Element): boolean {
  if (CHROME_TAGS.has(el.name) && !isItemHeader(el) && !isQuoteAside(el)) return true;
  if (NEVER_CHROME.has(el.name)) return el.name === 'p' && saysLegal(el);
  const role = el.attribs['role'];
  if (role && CHROME_ROLES.has(role.toLowerCase())) return true;
  // the words can only say chrome when an attribute does (`namesMatch`)
  if (!attributesMatch(el, CHROME) && !attributesMatch(el, LEGAL) && !attributesMatch(el, LANGUAGE)) return false;
  const names = classAndId(el);
  if (names === '' || saysContent(names)) return false;
  return CHROME.test(names) || saysLegal(el) || (LANGUAGE.test(names) && !holdsCode(el));
}

/** A component's own footer (`banner__footer`, `card__footer`): a BEM element, not the page's footer. */
const BEM_FOOTER = /(?<=\w)__footer(?=$|\s)/g;

/**
 * Whether the element's only chrome word is a BEM element `__footer` (`banner__footer`): the footer of a component,
 * which a story's call-out box fills with its text and a forum post with its buttons. The caller reads its text.
 */
export function isComponentFooter(el: Element): boolean {
  const names = classAndId(el);
  if (!names.includes('__footer')) return false;
  return !CHROME.test(names.replace(BEM_FOOTER, ' '));
}

/**
 * Whether class or id name the element as legal small print (`LEGAL`). `<details>` and `<summary>` are the HTML
 * disclosure widget (a shop's "Description" and "Specifications" panels, `details.disclosure`), not a disclosure.
 */
function saysLegal(el: Element): boolean {
  if (el.name === 'details' || el.name === 'summary') return false;
  return namesMatch(el, LEGAL);
}

/**
 * Class words of a block shown only on large screens (Elementor's `elementor-hidden-mobile`, Bootstrap 3's
 * `hidden-xs` and `visible-lg`, Bootstrap 4's `hidden-sm-down`, `hide-on-mobile`, `desktop-only`): a sidebar's contact
 * widget, a second copy of a grid laid out for wide screens. A page's main content is shown on every screen.
 */
const DESKTOP_ONLY =
  /(?:^|\s)(?:elementor-hidden-(?:mobile|phone)|hidden-(?:xs|phone|mobile)|hidden-sm-down|hide-(?:on-)?mobile|hide-(?:for|on)-small(?:-only)?|is-hidden-mobile|mobile-hidden|desktop-only|visible-(?:lg|desktop)|show-(?:for|on)-(?:desktop|large|medium)(?:-up)?)(?:$|\s)/i;

/**
 * Whether the element is a block whose class hides it on phones (`DESKTOP_ONLY`). Only blocks that group others
 * count: a phrase hidden on phones is the long form of a label ("Detroit Pistons" beside "DET" in a table's cell), and
 * a table cell or column is still the table's data.
 */
export function looksDesktopOnly(el: Element): boolean {
  if (!GROUPING_BLOCKS.has(el.name)) return false;
  const cls = el.attribs['class'];
  return cls !== undefined && DESKTOP_ONLY.test(cls);
}

const GROUPING_BLOCKS: ReadonlySet<string> = new Set(['div', 'section', 'aside', 'ul', 'ol', 'dl', 'figure', 'form']);

/** A language picker's class word; also the wrapper class of highlighted code (`language-bash highlighter-rouge`). */
const LANGUAGE = /(?:^|[\s_-])language(?:$|[\s_-])/i;

/** Whether a `<pre>` is under `el` (a code block's wrapper, not a language picker). */
function holdsCode(el: Element): boolean {
  const stack = [...el.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (node.name === 'pre') return true;
    for (const c of node.children) stack.push(c);
  }
  return false;
}

/** Class/id words of overlays that are never the page's content, whatever their size (consent managers, modals). */
const OVERLAY =
  /(?:^|[\s_-])(?:cookies?|consent|gdpr|cc-banner|onetrust|cookiebot|modal|popup|popover|lightbox)(?:$|[\s_-])/i;

/**
 * Whether the element is an overlay shown on top of the page (a dialog, `aria-modal`, a cookie consent manager, a
 * modal), the page footer (`<footer>`, `role="contentinfo"`) or navigation (`<nav>`, `role="navigation"`). Their text
 * (privacy policies, cookie purposes, legal footnotes, menu flyouts) is never the page's main content, however much of
 * the page it is.
 */
export function looksLikeOverlay(el: Element): boolean {
  const a = el.attribs;
  const role = a['role']?.toLowerCase();
  if (role === 'dialog' || role === 'alertdialog' || a['aria-modal'] === 'true') return true;
  if (el.name === 'footer' || role === 'contentinfo' || el.name === 'nav' || role === 'navigation') return true;
  if (NEVER_CHROME.has(el.name)) return false;
  return namesMatch(el, OVERLAY) && !saysContent(classAndId(el));
}

/**
 * Class/id words of the body of the page's one item: an article or post (`entry-content`, `article__body`,
 * `post-text`, `articleBody`, `blog-rich-text`, also behind namespaces: `c-entry-content`, a page builder's
 * `elementor-widget-theme-post-content`) without its headline block, share bars and
 * teasers, or a product's description (`product__description`, `product-desc`) without its buy box and upsells.
 */
const ITEM_BODY =
  /(?:^|[\s_-])(?:(?:article|entry|post|story|blog)[-_]{0,2}(?:rich-?)?(?:body|content|text)|product[-_]{0,2}(?:description|desc|text))(?:$|\s)/i;

/** Schema.org properties of an item's body text (microdata). */
const ITEM_BODY_PROPS: ReadonlySet<string> = new Set(['articleBody', 'description']);

/**
 * Whether the element names itself the body of an article, a post or a product (microdata or its class/id). A job
 * posting's `description` is not: the posting's title, employer, place and salary beside it are its text too.
 */
export function looksLikeItemBody(el: Element): boolean {
  const prop = el.attribs['itemprop'];
  if (prop !== undefined && ITEM_BODY_PROPS.has(prop)) return !describesJobPosting(el);
  return namesMatch(el, ITEM_BODY);
}

/** Whether the element's item (its nearest `itemscope` ancestor) is a `JobPosting`. */
function describesJobPosting(el: Element): boolean {
  for (let p = el.parent; p && isTag(p); p = p.parent) {
    if (p.attribs['itemscope'] !== undefined) return isJobPostingType(p.attribs['itemtype'] ?? '');
  }
  return false;
}

/** Whether class or id name the element as content. */
export function looksLikeContent(el: Element): boolean {
  if (el.name === 'article' || el.name === 'main') return true;
  const role = el.attribs['role'];
  if (role === 'main' || role === 'article') return true;
  const names = classAndId(el);
  return names !== '' && saysContent(names);
}
