// Cleaning inside the chosen container: sections of related links, link lists, calls to action, forms.
import { isTag, type AnyNode, type Element, type ParentNode } from 'domhandler';

import { SubtreeMemo } from '../dom/subtree-memo.js';
import { contains, detachAll, elements, textOf } from '../dom/walk.js';
import { BOLD_LABEL_LEVEL, boldLabelText } from './bold-labels.js';
import { looksLikeAvatar } from './hints.js';
import { isItemForm } from './item-forms.js';
import { AD_HEADING, isAdLabel, MAX_AD_LABEL } from './ad-labels.js';
import { AnnouncedLists, isAnnouncedList } from './announced-lists.js';
import { findLinkRuns } from './link-runs.js';
import { findAuthorCards } from './author-cards.js';
import type { Measure } from './measure.js';
import { isPageControl } from './page-controls.js';
import { ShortTexts } from './short-texts.js';
import { isPaywallHeading, isPaywallPrompt } from './paywall.js';
import { phoneCallToAction } from './phone-links.js';
import { isPhotoCredit, MAX_PHOTO_CREDIT } from './photo-credits.js';
import { dropPlaceholders } from './placeholders.js';
import { isQuestionToggle } from './question-toggles.js';
import { doomCopies, type TextBlock } from './repeat-runs.js';
import { isPreferredSourcePrompt, isReaderAppeal } from './reader-appeals.js';
import { isFormStatus, MAX_FORM_STATUS, MAX_SIGNUP_TEXT, signupHolders } from './signup-widgets.js';
import { dropTeaserGroups } from './teasers.js';
import { HEADING_TAGS } from './tags.js';
import type { KeepTrace } from './trace.js';

/** Headings that open a section of page furniture rather than content. */
const FURNITURE_HEADING =
  /^(?:related\b|you (?:may|might) (?:also )?(?:like|enjoy|be interested)|recommended|more (?:from|stories|articles|posts|news|like this|to (?:read|discover|explore))|read (?:more|next)|popular\b|trending|latest (?:news|posts|articles|stories)|most (?:read|popular|viewed)|further reading|keep reading|share (?:this|on)|follow us|about the authors?|newsletter|subscribe|sign up|leave a (?:comment|reply)|comments?\b|\d+ comments?|table of contents|contents$|in this article|on this page|tags?:?$|categories:?$|(?:people|customers|shoppers|guests|others)(?: like you)?(?: who (?:viewed|bought)[\w ]*)? also (?:viewed|bought|liked|purchased)|frequently bought together|similar (?:items|products)|(?:complete|shop) the look|recently viewed)/i;

/**
 * Furniture words that also open headings of the text ("Popular red wines", "Recommended courses:"): the section after
 * them goes only when it looks like teasers, 10% of it links, as after a label.
 */
const AMBIGUOUS_HEADING = /^(?:popular|recommended)\b/i;

/** Furniture headings recognised by a phrase anywhere in them ("Other posts you may enjoy", "Join our newsletter"). */
const FURNITURE_HEADING_PHRASE =
  /(?:^more in\b|^latest(?: (?:from|in|headlines|updates|videos?))?:?$|^top stories\b|^editor'?s'? (?:picks|choice)|^don'?t miss\b|^what to read next|^you (?:may|might) have missed|^around the (?:web|site)|^from (?:our|the) partners?|^popular (?:now|today|this week)|\byou (?:may|might) (?:also )?(?:like|enjoy)|\bjoin (?:our|the) [\w ]*newsletter|^(?:customer |product )?reviews$|^like this:?$|^written by\b|^trending searches$|^top posters\b|\bsign in to (?:comment|reply)|^about the (?:reviewers?|writers?|editors?|experts?|contributors?)$|^meet the (?:authors?|writers?|experts?)$|^disclaimers?:?$|^also (?:in|on) (?:the )?news\b|^more (?:news|headlines)$|^(?:good |more |other )?(?:articles|posts|stories) to read\b|^(?:explore|shop|discover|see) (?:related|similar)\b|^featured (?:products|items)$|^sponsored (?:products|items)\b|^where to buy:?$|^(?:(?:article|story|post) )?(?:references|footnotes|endnotes|sources|bibliography|works cited|literature cited|citations|reference list)(?: and (?:notes|sources|further reading))?:?$|^help (?:us )?improve\b|^was this (?:page|article|post|guide|information|content) (?:helpful|useful)\??$|^did (?:you find )?this (?:page|article) help|^(?:give |send us )?feedback$|^rate this (?:page|article)\b|^how (?:was|did you like|would you rate) (?:this|today'?s|this week'?s) (?:issue|newsletter|edition|email|article|post)\??$)/i;

/** Headings of a reader comment section ("Reader comments (23)", "Join the conversation", "14 thoughts on …"). */
const COMMENTS_HEADING =
  /^(?:(?:reader|readers'?|user|your|latest|top|all) comments?\b|comments?(?: \(\d+\)|:)?$|\d+ (?:comments?|responses?|replies|thoughts) on\b|\d+ (?:comments?|responses?)$|(?:join|start) the (?:conversation|discussion)|leave a (?:comment|reply)|what do you think\??$)/i;

/**
 * Furniture headings that announce links (to other stories, to the page's own sections: "Related", "Read more",
 * "Table of contents", "In this article"): their section is a run of links, and a paragraph of prose without links
 * after them is the text again (the intro a table of contents sits in, the story going on after a related box).
 * "Popular" and "Recommended" are guarded as ambiguous headings instead.
 */
const POINTER_HEADING =
  /^(?:related\b|you (?:may|might) (?:also )?(?:like|enjoy|be interested)|more\b|read (?:more|next)|trending|latest\b|most (?:read|popular|viewed)|further reading|keep reading|table of contents|contents$|in this article|on this page|top stories|editor'?s'? (?:picks|choice)|don'?t miss|what to read next|you (?:may|might) have missed|around the (?:web|site)|(?:good |other )?(?:articles|posts|stories) to read|(?:explore|see) (?:related|similar))/i;

function isFurnitureHeading(text: string): boolean {
  return (
    FURNITURE_HEADING.test(text) ||
    FURNITURE_HEADING_PHRASE.test(text) ||
    isPaywallHeading(text) ||
    AD_HEADING.test(text)
  );
}

/** Cross-reference labels before a list of links ("See also:"). */
const SEE_ALSO = /^(?:see also|also see)$/i;

/** Whether a list's short lead-in names furniture ("Related posts:", "See also:"), not the text's own list. */
function isListLabel(text: string): boolean {
  return isFurnitureHeading(text) || SEE_ALSO.test(text) || RELATED_LINK_LABEL.test(`${text}:`);
}

/** Short blocks whose whole text is a call to action or a label of page furniture. */
const FURNITURE_TEXT =
  /^(?:breaking(?: news)?|developing(?: story)?|live(?: updates)?|listen to (?:this )?(?:article|story)|\d+ min(?:ute)?s?\.? read|read(?:ing)? time:? \d+ min(?:ute)?s?|hide (?:all|details)|show details|advertisements?|sponsored|skip to (?:main |primary )?(?:content|navigation|product information)|share(?: this)?(?: (?:article|post|story|page))?:?|print|email|tweet|pin it|back to (?:top|blog|news|articles?)|(?:sign|log) ?(?:in|up|out)(?: (?:free|now|for free|today))?|register|subscribe(?: now)?|(?:read|learn|load|show|see|view) (?:more|all|less)|continue reading|add to (?:cart|bag|basket|wishlist|list|favorites)|buy (?:it )?now|shop (?:now|all)|save|follow|reply|report|like|share on \w+|get (?:started|in touch|a (?:quote|demo))(?: (?:today|now|for free|free))?|contact (?:us|sales)(?: today)?|(?:book|schedule|request|get|watch) (?:a |your )?(?:free )?(?:demo|call|consultation|quote)(?: today)?|book now|start (?:your )?(?:free )?trial|try (?:it )?(?:for )?free|(?:in|out of) stock|select (?:a )?(?:size|color|colour)|write a review|free shipping.*|notify me.*|loading(?:(?: [\w-]+){1,4}(?:\.\.\.|…)|(?:\.\.\.|…))?|verified (?:buyer|purchase)|rated \d(?:\.\d)? out of 5(?: stars)?|was this (?:review |article )?helpful\??|quick (?:shop|view|add)|(?:add to )?compare|calculate shipping|top rated|best ?sell(?:er|ing)|new arrivals?|back-?order|sort (?:and|&) filter|sort by:?|filters?|reply with quote|improve this (?:question|answer)|pick ?up in store|expand description|submit (?:a )?correction|donate(?: today| now)?!?|see (?:all )?(?:plans|pricing|case studies|details)|click to (?:expand|shrink)\.*|original poster|author|code: select all|showing \d+(?:\s*[-–]\s*\d+)? of [\d,]+(?: results| products| items)?|[\d,]+ (?:results|products|items)|page \d+ of \d+|filters? (?:&|and) sort|(?:sort|view) options|open in app|pin (?:this |it )?for later|watch this (?:topic|thread)|report(?: inappropriate content| post| this)?|upvote|downvote|sign in now|privacy policy|terms (?:of (?:use|service)|(?:and|&) conditions)|cookie (?:policy|settings|preferences)|talk to (?:our |an )?(?:experts?|sales)|start (?:a )?(?:free )?trial|print this (?:page|article)|opens? in a new (?:window|tab)|thanks for signing up|be the first to know|press enter or click to view image in full size|check (?:the )?price (?:at|on) [\w.]+(?: on sale)?|(?:see|view|compare) (?:the )?(?:price|prices|deals?|offers?)(?: (?:at|on) [\w.]+(?: site)?)?|(?:article|story) continues (?:below|after (?:the )?(?:ad|advertisement))|jump to (?:the )?(?:list|recipe)|scroll to continue(?: with content)?|continue reading below|(?:read|see) (?:the |our )?(?:full )?(?:review|rating)|[•·|-]? ?sponsored ?[•·|-]?|[\d,.]+k? (?:likes?|replies|views|posts|answers)|(?:likes?|replies|views|posts):? [\d,.]+k?|sorted by:?(?: reset to default)?|start asking to get answers|(?:explore|see) (?:related|similar) questions(?: with these tags)?)[.!:]?$/i;

/** Short blocks that invite the reader to follow, subscribe or download ("Follow us on Telegram, Facebook and X ..."). */
const PROMPT_TEXT =
  /^(?:follow us (?:on|for)\b|(?:like|follow) us on (?:facebook|twitter|instagram|x|linkedin|youtube)\b|(?:subscribe|sign up) (?:to|for) (?:our|the) (?:free )?(?:daily |weekly )?(?:newsletter|mailing list)\b|join (?:our|the) (?:mailing list|newsletter)\b|download (?:our|the) (?:free )?app\b|get (?:the|our) (?:latest|best)\b.{0,50}\b(?:in|to) your inbox\b|the best of\b.{0,50}\bdelivered to your inbox\b|(?:subscribe|sign up)\b.{0,120}\b(?:newsletters?|inbox|mailing list|emails?)\b|.{0,120}\b(?:delivered|sent)(?: (?:right|straight|directly))? to your inbox\b|by (?:subscribing|signing up)\b|find the answer to your question by asking\b|not the answer you'?re looking for\?|you must (?:log ?in|sign ?in|register|be logged in)? ?to (?:answer|reply to|post in) this (?:question|thread|topic)\b)/i;

/**
 * A pointer to another story inside the text: a label and a colon, then a linked title ("Related: <a>…</a>", "Also
 * read: <a>…</a>", "You might also like: <a>…</a>").
 */
const RELATED_LINK_LABEL =
  /^(?:you (?:may|might) (?:also )?(?:like|enjoy)|related(?: (?:stories|story|articles?|posts?|reading|content|coverage|links?|guides?|reads?))?|read (?:more|also|next)|more to read|also read|recommended(?: read(?:ing)?)?|next read|read|must read|don'?t miss|more|further reading)\s*:/i;

/**
 * A thread's edit and membership labels and a Q&A page's comment prompts ("Last edited by mod: Jul 3, 2024", "Join
 * Date: Aug 2008", "Add a comment"), longer than the short labels of `FURNITURE_TEXT`.
 */
const THREAD_LABEL =
  /^(?:last edited(?: by [\w .-]{1,30})?:? .{0,30}|join date:? .{0,20}|add a comment|sign up to request clarification or add additional context in comments\.?)$/i;

/** Avatar initials hold at most this many characters; an avatar holding a name stays with the post. */
const MAX_INITIALS = 2;

/** A post's permalink number in a thread ("#12"); unlinked, such a number is a rank in a list and stays. */
const POST_NUMBER = /^#\d{1,5}$/;

/** A thread label holds at most this many characters. */
const MAX_THREAD_LABEL = 80;

/** Whether the block is a pointer to another story: a related-link label, then mostly link text (a linked title). */
function isRelatedLink(text: string, m: Measure): boolean {
  return m.text <= MAX_PROMPT && m.link >= 0.5 * m.text && RELATED_LINK_LABEL.test(text);
}

/** A reader prompt holds at most this many characters (a sentence or two, not a paragraph of the story). */
const MAX_PROMPT = 200;

/** Where share buttons point: share dialogs of social networks, mail and messaging links. */
const SHARE_HREF =
  /^(?:mailto:|sms:|whatsapp:)|[/.](?:share|sharer|sharing|intent|sharearticle)\b|[?&](?:share|u|url)=http|\bshare(?:\.php)?\?/i;

/** A row of links holding only icons (no text), three or more of them (and most) to share dialogs: a share bar. */
function isShareIcons(el: Element): boolean {
  let links = 0;
  let share = 0;
  for (const a of elements(el)) {
    if (a.name !== 'a') continue;
    links++;
    if (SHARE_HREF.test(a.attribs['href'] ?? '')) share++;
  }
  return share >= 3 && share >= (2 / 3) * links;
}

/** Links styled as buttons are calls to action. */
const BUTTON_CLASS = /(?:^|[\s_-])(?:btn|button|cta)(?:$|[\s_-])/i;

/** Class words of a block that titles a section without a heading tag (`<div class="mainColumnLabel">`). */
const LABEL_CLASS = /(?:title|heading|label|header)(?:$|[\s_-])/i;
const LABEL_TAGS: ReadonlySet<string> = new Set(['div', 'span', 'p', 'strong', 'b']);

/** A label titling a section (a text-only block whose class says so) counts as a second-rank heading. */
function labelLevel(el: Element, m: Measure): number {
  if (!LABEL_TAGS.has(el.name) || m.own !== m.text || m.link >= 0.5 * m.text) return 0;
  return LABEL_CLASS.test(el.attribs['class'] ?? '') ? 2 : 0;
}

function headingLevel(el: Element): number {
  return HEADING_TAGS.has(el.name) ? Number(el.name[1]) : 0;
}

/** Removes page furniture inside `container` (which itself is kept). */
export function cleanContainer(
  container: Element,
  measures: Map<Element, Measure>,
  trace?: KeepTrace,
  article = false,
  signupForms: ReadonlySet<Element> = new Set(),
): void {
  const total = measures.get(container)?.text ?? 0;
  if (total === 0) return;
  const doomed = new Set<AnyNode>();
  // lists of short links are furniture (tables of contents, tag clouds) unless together they are the page (an index)
  const linkLists: Element[] = [];
  let linkListText = 0;
  const signups = signupHolders(container, signupForms);
  const announced = new AnnouncedLists(measures, isListLabel);
  const linkCounts = new LinkCounts();
  const texts = new ShortTexts(measures, MAX_PROMPT);
  const stack: Element[] = [];
  for (const c of container.children) if (isTag(c)) stack.push(c);
  while (stack.length) {
    const el = stack.pop()!;
    const m = measures.get(el);
    if (!m) continue;
    if (m.text === 0) {
      // empty wrappers and images stay; empty forms, buttons and rows of share icons go
      if (el.name === 'form' || el.name === 'button' || isShareIcons(el)) doomed.add(el);
      continue;
    }
    if (doomed.has(el)) continue;
    // captions and photo credits describe an image (which stays, with its alt text); they are not the text
    if (el.name === 'figcaption') {
      doomed.add(el);
      continue;
    }
    // a sign-up widget goes whole: its pitch and small print with its form
    if (signups.has(el) && m.text <= MAX_SIGNUP_TEXT && m.text < 0.3 * total) {
      doomed.add(el);
      continue;
    }
    if (el.name === 'form' && isItemForm(el, m, container)) {
      for (const c of el.children) if (isTag(c)) stack.push(c);
      continue;
    }
    if (isFurniture(el, m, total, texts)) {
      doomed.add(el);
      continue;
    }
    if (isPageControl(el, m, measures, texts)) {
      doomed.add(el);
      continue;
    }
    const phoneCta = el.name === 'a' ? phoneCallToAction(el, measures, container) : null;
    if (phoneCta) {
      doomed.add(phoneCta);
      continue;
    }
    if (isLinkList(el, m, total, linkCounts) && !isAnnouncedList(el, measures, isListLabel) && !announced.holds(el)) {
      linkLists.push(el);
      linkListText += m.text;
      continue;
    }
    const level = headingLevel(el) || labelLevel(el, m);
    // on an article, a bold paragraph titling a furniture section ("You might also like:") is a heading of the lowest rank
    const bold = level === 0 && article ? boldLabelText(el, m) : null;
    if (bold !== null && isFurnitureHeading(bold)) {
      doomed.add(el);
      dropSection(el, BOLD_LABEL_LEVEL, measures, ARTICLE_SECTION_SHARE * total, container, doomed, trace);
      continue;
    }
    if (level > 0 && m.text < 60) {
      const heading = textOf(el);
      // on an article, its readers' comments go whatever their length
      const comments = article && COMMENTS_HEADING.test(heading);
      if (!comments && !isFurnitureHeading(heading)) {
        for (const c of el.children) if (isTag(c)) stack.push(c);
        continue;
      }
      // on an article, a section of teaser links after a furniture heading goes whatever its share (a short story)
      const limit = comments ? Infinity : article ? ARTICLE_SECTION_SHARE * total : 0.3 * total;
      const ambiguous = !comments && AMBIGUOUS_HEADING.test(heading);
      const pointer = !comments && !ambiguous && POINTER_HEADING.test(heading);
      // an ambiguous heading whose section is not teasers titles the text and stays with it
      if (dropSection(el, level, measures, limit, container, doomed, trace, ambiguous, pointer) || !ambiguous) {
        doomed.add(el);
      }
      continue;
    }
    for (const c of el.children) if (isTag(c)) stack.push(c);
  }
  for (const run of findLinkRuns(container, measures, doomed)) {
    for (const el of run) {
      linkLists.push(el);
      linkListText += measures.get(el)!.text;
    }
  }
  if (linkListText < LINK_LISTS_MAX_SHARE * total) for (const l of linkLists) doomed.add(l);
  else {
    // the lists are the page (an index, a product grid): their items stay, their buttons and labels go
    for (const l of linkLists) {
      trace?.mark(l, 'index');
      for (const el of elements(l)) {
        const m = measures.get(el);
        if (m && m.text > 0 && isFurniture(el, m, total, texts)) doomed.add(el);
      }
    }
  }
  dropTeaserGroups(container, measures, total, doomed, trace);
  for (const card of findAuthorCards(container, measures)) doomed.add(card);
  const blocks = dropRepeats(container, measures, doomed);
  dropPlaceholders(blocks, container, measures, total, doomed);
  detachAll(doomed);
}

/** On an article, a section under a furniture heading goes when it holds less than this share of the container. */
const ARTICLE_SECTION_SHARE = 0.6;

/** Blocks whose exact repetition later in the container is a copy (mobile and desktop renderings, sticky bars). */
const REPEATABLE: ReadonlySet<string> = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const MIN_REPEAT = 25;
/** A quote of part of an earlier block goes when it holds this many characters. */
const MIN_QUOTED = 40;

/** Wrappers whose repetition is a copy only when they hold this many characters (a product block rendered twice). */
const MIN_REPEAT_GROUP = 80;

/** Items of lists and tables repeat legitimately (the same feature in every pricing tier): never compared whole. */
const NEVER_REPEAT: ReadonlySet<string> = new Set([
  'ul',
  'ol',
  'li',
  'dl',
  'dd',
  'dt',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'blockquote',
  'pre',
  'code',
]);

/**
 * Drops paragraphs and headings that repeat an earlier one word for word, and wrappers of several blocks that
 * repeat an earlier wrapper (lists, tables, quotes and code excepted). A paragraph inside a quote that repeats an
 * earlier one is a reply quoting an earlier post: it goes too. Answers the container's text blocks in order.
 */
function dropRepeats(container: Element, measures: Map<Element, Measure>, doomed: Set<AnyNode>): TextBlock[] {
  const seen = new Set<string>();
  // the container's text blocks in order, judged as copies or item boilerplate once all are met
  const blocks: TextBlock[] = [];
  // wrappers are compared by their measure first, by their text only when the measures collide
  const groups = new Map<string, RepeatGroup>();
  // the text of every block seen outside quotes, to find quotes of part of an earlier post
  let earlier = '';
  // characters those searches may scan in all: far above any real page, it keeps a page of thousands of quotes linear
  let scanBudget = QUOTE_SCAN_BUDGET;
  const stack: [Element, boolean][] = [[container, false]];
  while (stack.length) {
    const [el, inQuote] = stack.pop()!;
    if (doomed.has(el)) continue;
    const m = measures.get(el);
    // a div (or a quote) holding only inline text is a paragraph by another name
    const leaf = m !== undefined && m.text > 0 && m.own === m.text;
    const quoted = inQuote || el.name === 'blockquote';
    if (REPEATABLE.has(el.name) || (leaf && (el.name === 'div' || el.name === 'blockquote'))) {
      const text = textOf(el);
      if (text.length >= MIN_REPEAT) {
        // the outermost block speaks for its text: a paragraph inside an item is not a repeat of the item
        const search = quoted && text.length >= MIN_QUOTED && scanBudget > 0;
        if (search) scanBudget -= earlier.length;
        const repeat = seen.has(text);
        // a reply quoting an earlier post
        if (quoted && (repeat || (search && earlier.includes(text)))) doomed.add(el);
        else {
          // a repeated heading or link is a copy or a per-post label ("Re: <thread title>"), never an item's text
          const label = HEADING_TAGS.has(el.name) || (m !== undefined && m.link >= 0.5 * m.text);
          blocks.push({ el, text, repeat, judged: true, label });
          seen.add(text);
          if (!quoted) earlier += `${text}\n`;
        }
        continue;
      }
    } else if (el !== container && !NEVER_REPEAT.has(el.name)) {
      if (m && m.text >= MIN_REPEAT_GROUP && m.blocks >= 2 && isRepeatGroup(el, m, groups)) {
        doomed.add(el);
        continue;
      }
    }
    if (leaf) {
      // short blocks (a title, a price, a list item) are not judged, but they end or extend a run of repeats
      const text = textOf(el);
      blocks.push({ el, text, repeat: seen.has(text), judged: false, label: false });
      seen.add(text);
      continue;
    }
    const c = el.children;
    for (let i = c.length - 1; i >= 0; i--) {
      const n = c[i]!;
      if (isTag(n)) stack.push([n, quoted]);
    }
  }
  doomCopies(blocks, doomed);
  return blocks;
}

/** Characters that searching quotes in earlier text may scan on one page (see `dropRepeats`). */
const QUOTE_SCAN_BUDGET = 64 * 1024 * 1024;

/** Wrappers of one measure: the first not read yet, the others by their text (each read once). */
interface RepeatGroup {
  unread: Element[];
  byText: Map<string, Element[]>;
}

/** Whether `el` repeats the text of an earlier wrapper that is not its ancestor; registers it otherwise. */
function isRepeatGroup(el: Element, m: Measure, groups: Map<string, RepeatGroup>): boolean {
  const key = `${m.text}:${m.link}:${m.blocks}`;
  const group = groups.get(key);
  if (!group) {
    groups.set(key, { unread: [el], byText: new Map() });
    return false;
  }
  // code samples repeat legitimately in documentation (the same response shown for two calls)
  if (hasTag(el, 'pre')) return false;
  for (const e of group.unread) addTo(group.byText, textOf(e), e);
  group.unread.length = 0;
  const text = textOf(el);
  for (const e of group.byText.get(text) ?? []) if (!contains(e, el)) return true;
  addTo(group.byText, text, el);
  return false;
}

function addTo(map: Map<string, Element[]>, key: string, el: Element): void {
  const list = map.get(key);
  if (list) list.push(el);
  else map.set(key, [el]);
}

function hasTag(root: Element, name: string): boolean {
  for (const el of elements(root)) if (el.name === name) return true;
  return false;
}

function isFurniture(el: Element, m: Measure, total: number, texts: ShortTexts): boolean {
  // a FAQ's question in the toggle of its answer stays
  if (el.name === 'button') return m.text < 0.5 * total && !isQuestionToggle(el);
  // forms without prose: search, sign-up, filters (forum software wraps whole threads in a form)
  if (el.name === 'form') return m.value < 200;
  if (m.text > MAX_PROMPT) return false;
  // every test below reads a short block's text: read it once
  const text = texts.get(el);
  if (m.text <= 40 && FURNITURE_TEXT.test(text)) return true;
  if (m.link < 0.5 * m.text && (PROMPT_TEXT.test(text) || isReaderAppeal(text))) return true;
  if (isRelatedLink(text, m)) return true;
  if (isPreferredSourcePrompt(text)) return true;
  if (m.text <= MAX_FORM_STATUS && isFormStatus(text)) return true;
  // an ad's heading is left to the heading rule, which takes the ad under it
  if (m.text <= MAX_AD_LABEL && !HEADING_TAGS.has(el.name) && isAdLabel(text)) return true;
  // a paywall heading is left to the heading rule, which takes its section (plans, prices) with it
  if (!HEADING_TAGS.has(el.name) && isPaywallPrompt(text)) return true;
  if (m.text <= MAX_THREAD_LABEL && THREAD_LABEL.test(text)) return true;
  // a photo credit outside a `<figcaption>` (which goes whole above) describes the image, not the text
  if (m.text <= MAX_PHOTO_CREDIT && m.link === 0 && isPhotoCredit(text)) return true;
  if (m.text <= 6 && m.link === m.text && POST_NUMBER.test(text)) return true;
  if (m.text <= MAX_INITIALS && looksLikeAvatar(el)) return true;
  if (el.name === 'a' && m.text <= 50 && BUTTON_CLASS.test(el.attribs['class'] ?? '')) return true;
  return false;
}

/** Share of the container above which its lists of short links are its content (an index, a category page). */
const LINK_LISTS_MAX_SHARE = 0.5;

/** A list of short links (table of contents, tag cloud, "more" links) that is not the bulk of the container. */
function isLinkList(el: Element, m: Measure, total: number, links: LinkCounts): boolean {
  if (m.link >= 0.7 * m.text && m.text < 0.3 * total && (el.name === 'ul' || el.name === 'ol' || el.name === 'div')) {
    const count = links.count(el);
    return count >= 3 && m.link / count < 30;
  }
  return false;
}

/**
 * The links under each element (an `<a>` counts once, what is in it not at all), each element counted once however
 * many wrappers ask: the cleaning enters wrappers that hold an announced list, and asks again at each level of a
 * chain of them. The tree must not change while it is used.
 */
class LinkCounts {
  readonly #memo = new SubtreeMemo<number>(
    (el, valueOf) => {
      let n = 0;
      for (const c of el.children) if (isTag(c)) n += valueOf(c);
      return n;
    },
    (el) => (el.name === 'a' ? 1 : undefined),
  );

  count(root: Element): number {
    return this.#memo.get(root);
  }
}

/**
 * After a furniture heading: drop the rest of its section, i.e. the following siblings up to the next heading of
 * the same or a higher level, when they hold fewer than `limit` characters. Answers false when the section is kept
 * because it does not look like furniture (the guard of wrapped, label and ambiguous headings). After a `pointer`
 * heading (one announcing links) the section ends where prose without links starts, when what follows from there is
 * text rather than more teasers.
 */
function dropSection(
  heading: Element,
  level: number,
  measures: Map<Element, Measure>,
  limit: number,
  container: Element,
  doomed: Set<AnyNode>,
  trace?: KeepTrace,
  ambiguous = false,
  pointer = false,
): boolean {
  // page builders wrap each heading alone (`<div class="widget"><div><h2>`): the section is what follows the wrapper
  const own = measures.get(heading)?.text ?? 0;
  let start: Element = heading;
  while (isTag(start.parent!) && start.parent !== container && measures.get(start.parent)?.text === own) {
    start = start.parent;
  }
  const parent: ParentNode | null = start.parent;
  if (!parent) return true;
  // a wrapped heading, a label or an ambiguous heading is less sure than a heading tag in the flow of the text: its
  // section must be furniture-like too (linked titles, not a story's intro or a live blog's updates)
  const label = headingLevel(heading) === 0;
  const guarded = start !== heading || label || ambiguous;
  const pm = isTag(parent) ? measures.get(parent) : undefined;
  // the heading opens its own wrapper: drop the wrapper when it is small
  if (pm && isTag(parent) && parent !== container && pm.text < limit && firstTag(parent) === start) {
    if (!label || pm.link >= WRAPPED_SECTION_LINKS * (pm.text - (measures.get(start)?.text ?? 0))) doomed.add(parent);
    return true;
  }
  if (start !== heading) doomed.add(start);
  let size = 0;
  let links = 0;
  const run: AnyNode[] = [];
  // where a pointer heading's links end in prose, and the text and links from there on
  let stop = -1;
  let tailSize = 0;
  let tailLinks = 0;
  let tailProse = 0;
  for (let n = start.next; n; n = n.next) {
    if (isTag(n)) {
      const e = n;
      const l = leadingHeadingLevel(e, measures);
      if (l > 0 && l <= level) break;
      // past a wrapped heading, a sibling holding a heading of its rank is the next section, not furniture
      if (guarded && holdsHeading(e, level)) break;
      // after a heading announcing links, a paragraph of prose without links may be the text going on
      if (pointer && stop < 0 && isLinklessProse(e, measures)) stop = run.length;
      if (stop >= 0) {
        tailSize += measures.get(e)?.text ?? 0;
        tailLinks += measures.get(e)?.link ?? 0;
        tailProse += measures.get(e)?.prose ?? 0;
      }
      size += measures.get(e)?.text ?? 0;
      links += measures.get(e)?.link ?? 0;
    }
    run.push(n);
  }
  // not teasers: the section stays (and an ambiguous heading with it)
  if (guarded && links < WRAPPED_SECTION_LINKS * size) return false;
  // the links end where the text goes on (prose that is not itself teasers): only the links go
  if (stop >= 0 && (tailLinks < POINTER_TAIL_LINKS * tailSize || tailProse >= POINTER_TAIL_PROSE)) {
    size -= tailSize;
    run.length = stop;
  }
  if (size < limit) for (const n of run) doomed.add(n);
  else for (const n of run) if (isTag(n)) trace?.mark(n, 'large-section');
  return true;
}

/** A block of prose (sentence punctuation or a long run of text) with under 10% links: not a pointer's links. */
function isLinklessProse(el: Element, measures: Map<Element, Measure>): boolean {
  const m = measures.get(el);
  return m !== undefined && m.text >= POINTER_PROSE_MIN && m.prose > 0 && m.link < 0.1 * m.text;
}

/** The text after a pointer heading's links is the text going on when under this share of it is links. */
const POINTER_TAIL_LINKS = 0.2;

/** ...or when it holds this much prose (an article's worth: a box of teasers holds less). */
const POINTER_TAIL_PROSE = 1000;

/** A paragraph ending a pointer heading's section holds at least this many characters. */
const POINTER_PROSE_MIN = 40;

/** After a heading wrapped alone, the section goes only when this share of its text is links. */
const WRAPPED_SECTION_LINKS = 0.1;

/** Whether `el` holds a heading of `level` or higher. */
function holdsHeading(el: Element, level: number): boolean {
  for (const e of elements(el)) {
    const l = headingLevel(e);
    if (l > 0 && l <= level) return true;
  }
  return false;
}

/** The level of `el` when it is a heading, or a wrapper whose text is one heading's (a page builder's widget). */
function leadingHeadingLevel(el: Element, measures: Map<Element, Measure>): number {
  const text = measures.get(el)?.text ?? 0;
  let e: Element | null = el;
  while (e) {
    const level = headingLevel(e);
    if (level > 0) return level;
    let next: Element | null = null;
    for (const c of e.children) {
      if (isTag(c) && measures.get(c)?.text === text) {
        next = c;
        break;
      }
    }
    e = text > 0 ? next : null;
  }
  return 0;
}

function firstTag(parent: ParentNode): Element | null {
  for (const c of parent.children) if (isTag(c)) return c;
  return null;
}
