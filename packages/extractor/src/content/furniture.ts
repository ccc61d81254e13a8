// Short blocks of page furniture inside the container: calls to action, labels, prompts, counters, share icons.
import { isTag, type Element, type ParentNode } from 'domhandler';

import { elements } from '../dom/walk.js';
import { isAdLabel, MAX_AD_LABEL } from './ad-labels.js';
import { looksLikeAvatar } from './hints.js';
import type { Measure } from './measure.js';
import { inSentence } from './in-sentence.js';
import { isPaywallPrompt } from './paywall.js';
import { isPhotoCredit, MAX_PHOTO_CREDIT } from './photo-credits.js';
import { FURNITURE_TEXT } from './phrases/furniture-texts.js';
import { PROMPT_TEXT, RELATED_LINK_LABEL, THREAD_LABEL } from './phrases/prompts.js';
import { isQuestionToggle } from './question-toggles.js';
import { isPreferredSourcePrompt, isReaderAppeal } from './reader-appeals.js';
import type { ShortTexts } from './short-texts.js';
import { isFormStatus, MAX_FORM_STATUS } from './signup-widgets.js';
import { HEADING_TAGS } from './tags.js';
import type { DropRule } from './trace.js';

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
export const MAX_PROMPT = 200;

/** Where share buttons point: share dialogs of social networks, mail and messaging links. */
const SHARE_HREF =
  /^(?:mailto:|sms:|whatsapp:)|[/.](?:share|sharer|sharing|intent|sharearticle)\b|[?&](?:share|u|url)=http|\bshare(?:\.php)?\?/i;

/** A row of links holding only icons (no text), three or more of them (and most) to share dialogs: a share bar. */
export function isShareIcons(el: Element): boolean {
  let links = 0;
  let share = 0;
  for (const a of elements(el)) {
    if (a.name !== 'a') continue;
    links++;
    if (SHARE_HREF.test(a.attribs['href'] ?? '')) share++;
  }
  return share >= 3 && share >= (2 / 3) * links;
}

/** A post's vote count on a Q&A page ("13", "-2", "1.2k"): a number standing alone as a block. */
const VOTE_COUNT = /^[+\-\u2212]?\d[\d,.]*k?$/i;
const MAX_VOTE_COUNT = 8;

/** Whether a table or a list holds `el` (a number there is data: a cell, a step). */
function inTableOrList(el: Element): boolean {
  for (let p: ParentNode | null = el; p && isTag(p); p = p.parent) {
    if (p.name === 'td' || p.name === 'th' || p.name === 'li' || p.name === 'table') return true;
  }
  return false;
}

/** Links styled as buttons are calls to action. */
const BUTTON_CLASS = /(?:^|[\s_-])(?:btn|button|cta)(?:$|[\s_-])/i;

/**
 * Whether a block is page furniture by what it is (a button, a form without prose) or by its whole short text (a call
 * to action, a label, a prompt, a counter): the tables of `phrases/` and the small rule modules. Answers the rule, or
 * null.
 */
export function furnitureRule(el: Element, m: Measure, total: number, texts: ShortTexts, qa = false): DropRule | null {
  // a FAQ's question in the toggle of its answer stays
  if (el.name === 'button') return m.text < 0.5 * total && !isQuestionToggle(el) && !inSentence(el) ? 'button' : null;
  // forms without prose: search, sign-up, filters (forum software wraps whole threads in a form)
  if (el.name === 'form') return m.value < 200 ? 'form' : null;
  if (m.text > MAX_PROMPT) return null;
  // every test below reads a short block's text: read it once
  const text = texts.get(el);
  if (inSentence(el, text)) return null;
  if (m.text <= 40 && el.name !== 'h1' && FURNITURE_TEXT.test(text)) return 'furniture-text';
  if (m.link < 0.5 * m.text && (PROMPT_TEXT.test(text) || isReaderAppeal(text))) return 'reader-prompt';
  if (isRelatedLink(text, m)) return 'related-link';
  if (isPreferredSourcePrompt(text)) return 'preferred-source';
  if (m.text <= MAX_FORM_STATUS && isFormStatus(text)) return 'form-status';
  // an ad's heading is left to the heading rule, which takes the ad under it
  if (m.text <= MAX_AD_LABEL && !HEADING_TAGS.has(el.name) && isAdLabel(text)) return 'ad-label';
  // a paywall heading is left to the heading rule, which takes its section (plans, prices) with it
  if (!HEADING_TAGS.has(el.name) && isPaywallPrompt(text)) return 'paywall';
  if (m.text <= MAX_THREAD_LABEL && THREAD_LABEL.test(text)) return 'thread-label';
  // a photo credit outside a `<figcaption>` (which goes whole above) describes the image, not the text
  if (m.text <= MAX_PHOTO_CREDIT && m.link === 0 && isPhotoCredit(text)) return 'photo-credit';
  if (m.text <= 6 && m.link === m.text && POST_NUMBER.test(text)) return 'post-number';
  if (m.text <= MAX_INITIALS && looksLikeAvatar(el)) return 'avatar';
  if (el.name === 'a' && m.text <= 50 && BUTTON_CLASS.test(el.attribs['class'] ?? '')) return 'link-button';
  if (qa && m.text <= MAX_VOTE_COUNT && m.link === 0 && VOTE_COUNT.test(text) && !inTableOrList(el))
    return 'vote-count';
  return null;
}
