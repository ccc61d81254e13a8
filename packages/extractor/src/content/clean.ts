// Cleaning inside the chosen container: one walk that asks each block, outermost first, whether it is furniture.
// The rules live in their own modules: short furniture texts (`furniture.ts`), sections under furniture headings
// (`sections.ts`), lists of short links (`link-lists.ts`), copies (`repeats.ts`), and the small rule modules below.
import { isTag, type Element } from 'domhandler';

import { detachAll, elements } from '../dom/walk.js';
import { dropAgeLines } from './age-lines.js';
import { AnnouncedLists, isAnnouncedList } from './announced-lists.js';
import { findAuthorCards } from './author-cards.js';
import { dropClosingCalls } from './closing-calls.js';
import { dropDealRails } from './deal-rails.js';
import { isFigureButton } from './figure-buttons.js';
import { furnitureRule, isShareIcons, MAX_PROMPT } from './furniture.js';
import { isInfoIcon } from './info-icons.js';
import { isItemForm } from './item-forms.js';
import type { DeclaredKind } from './kind.js';
import { LINK_LISTS_MAX_SHARE, LinkCounts, isLinkList } from './link-lists.js';
import { findLinkRuns } from './link-runs.js';
import type { Measures } from './measure.js';
import { dropNumberedNotes } from './numbered-notes.js';
import { dropOptionPickers } from './option-pickers.js';
import { isPageControl } from './page-controls.js';
import { NO_FORMS, type PageForms } from './page-forms.js';
import { phoneCallToAction } from './phone-links.js';
import { dropPlaceholders } from './placeholders.js';
import { dropPolls } from './polls.js';
import { dropPreTitleLinks } from './pre-title-links.js';
import { dropProductCardRows } from './product-cards.js';
import { dropRepeatedFacts } from './repeated-facts.js';
import { dropRepeats } from './repeats.js';
import { dropFurnitureSection, isListLabel, type SectionContext } from './sections.js';
import { ShortTexts } from './short-texts.js';
import { MAX_SIGNUP_TEXT, signupHolders } from './signup-widgets.js';
import { isSoleAction } from './sole-action.js';
import type { PageAddress } from './site-links.js';
import { dropSiteCards } from './site-cards.js';
import { dropStoryRails } from './story-rails.js';
import { dropSubscribeBoxes } from './subscribe-boxes.js';
import { CODE_TAGS, PICTURE_TAGS } from './tags.js';
import { dropTeaserGroups } from './teasers.js';
import { Doomed, ruleOff, type Trace } from './trace.js';

/** What the cleaning of a container knows of the page around it. */
export interface PageFacts {
  /** What the page declares itself to be. @default null */
  kind?: DeclaredKind;
  /** Its sign-up and poll forms, found before the prune step. @default none */
  forms?: PageForms;
  /** Its grids of items (`item-grids.ts`). @default [] */
  pageGrids?: readonly Element[];
  /** Its address and base: rails and boxes after the story are told by where their links go. @default undefined */
  address?: PageAddress | undefined;
  /** Keep figure captions (`MainContentOptions.captions`). @default false */
  captions?: boolean;
}

/** What an item without text may still show: a picture, a video's poster, a formula, a task's checkbox. */
const MEDIA_TAGS: ReadonlySet<string> = new Set([...PICTURE_TAGS, 'video', 'math', 'input']);

function holdsMedia(el: Element): boolean {
  for (const e of elements(el)) if (MEDIA_TAGS.has(e.name)) return true;
  return false;
}

/** Removes page furniture inside `container` (which itself is kept). */
export function cleanContainer(
  container: Element,
  measures: Measures,
  trace: Trace | undefined,
  page: PageFacts = {},
): void {
  const { kind = null, forms = NO_FORMS, pageGrids = [], address } = page;
  const total = measures.get(container)?.text ?? 0;
  if (total === 0) return;
  const article = kind === 'article';
  const doomed = new Doomed(trace);
  // lists of short links are furniture (tables of contents, tag clouds) unless together they are the page (an index)
  const linkLists: Element[] = [];
  let linkListText = 0;
  const signups = signupHolders(container, forms.signups);
  const announced = new AnnouncedLists(measures, isListLabel);
  const linkCounts = new LinkCounts();
  const texts = new ShortTexts(measures, MAX_PROMPT);
  const sections: SectionContext = { measures, container, total, article, doomed, trace };
  const stack: Element[] = [];
  for (const c of container.children) if (isTag(c)) stack.push(c);
  while (stack.length) {
    const el = stack.pop()!;
    const m = measures.get(el);
    if (!m) continue;
    if (isInfoIcon(el, m) && !ruleOff('info-icon')) {
      doomed.drop(el, 'info-icon');
      continue;
    }
    if (m.text === 0) {
      // empty wrappers and images stay; empty forms, buttons (but a lightbox's figure) and rows of share icons go
      if (el.name === 'form' || (el.name === 'button' && !isFigureButton(el)) || isShareIcons(el))
        doomed.drop(el, 'empty-control');
      // an item that would be written as a bare `-` (a price slot left blank, an icon's item)
      else if (el.name === 'li' && !holdsMedia(el) && !ruleOff('empty-item')) doomed.drop(el, 'empty-item');
      continue;
    }
    if (doomed.has(el) || CODE_TAGS.has(el.name)) continue;
    // captions and photo credits describe an image (which stays, with its alt text); they are not the text
    if (el.name === 'figcaption' && !page.captions && !ruleOff('caption')) {
      doomed.drop(el, 'caption');
      continue;
    }
    // a sign-up widget goes whole: its pitch and small print with its form
    if (signups.has(el) && m.text <= MAX_SIGNUP_TEXT && m.text < 0.3 * total && !ruleOff('signup-widget')) {
      doomed.drop(el, 'signup-widget');
      continue;
    }
    if (el.name === 'form' && isItemForm(el, m, container)) {
      for (const c of el.children) if (isTag(c)) stack.push(c);
      continue;
    }
    const furniture = furnitureRule(el, m, total, texts, kind === 'qa');
    if (furniture && !ruleOff(furniture) && !(furniture === 'link-button' && isSoleAction(el, container, address))) {
      doomed.drop(el, furniture);
      continue;
    }
    if (isPageControl(el, m, measures, texts) && !ruleOff('page-control')) {
      doomed.drop(el, 'page-control');
      continue;
    }
    const phoneCta = el.name === 'a' ? phoneCallToAction(el, measures, container) : null;
    if (phoneCta && !ruleOff('phone-cta')) {
      doomed.drop(phoneCta, 'phone-cta');
      continue;
    }
    if (
      !ruleOff('link-list') &&
      isLinkList(el, m, total, linkCounts) &&
      !isAnnouncedList(el, measures, isListLabel) &&
      !announced.holds(el)
    ) {
      linkLists.push(el);
      linkListText += m.text;
      continue;
    }
    if (!ruleOff('furniture-heading') && dropFurnitureSection(el, m, sections)) continue;
    for (const c of el.children) if (isTag(c)) stack.push(c);
  }
  for (const run of ruleOff('link-list') ? [] : findLinkRuns(container, measures, doomed)) {
    for (const el of run) {
      linkLists.push(el);
      linkListText += measures.get(el)!.text;
    }
  }
  if (linkListText < LINK_LISTS_MAX_SHARE * total || ruleOff('index'))
    for (const l of linkLists) doomed.drop(l, 'link-list');
  else {
    // the lists are the page (an index, a product grid): their items stay, their buttons and labels go
    for (const l of linkLists) {
      trace?.mark(l, 'index');
      for (const el of elements(l)) {
        const m = measures.get(el);
        const furniture = m && m.text > 0 ? furnitureRule(el, m, total, texts) : null;
        if (furniture) doomed.drop(el, furniture);
      }
    }
  }
  dropTeaserGroups(container, measures, total, doomed, trace);
  dropStoryRails(container, measures, address, doomed);
  // on a declared article only: elsewhere a short intro above described links to the site's pages is a hub (a doc's)
  if (article) dropSiteCards(container, measures, address, doomed);
  dropDealRails(container, measures, address, doomed);
  dropSubscribeBoxes(container, measures, address, doomed);
  dropPolls(container, measures, forms.polls, doomed);
  // on a declared article, card rows are teasers (above); elsewhere priced cards beside the content are suggestions
  if (!article) dropProductCardRows(container, measures, total, doomed, pageGrids);
  if (!article) dropOptionPickers(container, measures, forms.pickers, doomed);
  for (const card of findAuthorCards(container, measures)) doomed.drop(card, 'author-card');
  dropRepeatedFacts(container, measures, doomed);
  dropNumberedNotes(container, measures, doomed);
  dropPreTitleLinks(container, measures, doomed);
  const blocks = dropRepeats(container, measures, doomed);
  dropPlaceholders(blocks, container, measures, total, doomed);
  dropAgeLines(container, measures, doomed);
  // on every page: service pages' templates declare themselves articles too (a story's closing question before a
  // form or a button stays)
  dropClosingCalls(container, measures, doomed);
  detachAll(doomed);
}
