// How much of a subtree is teaser cards ("All reads on this topic": linked titles with their blurbs), for the
// container walk, which must not take a row of cards below a story for the story's own text.
import { isTag, type Element } from 'domhandler';

import { SubtreeMemo } from '../dom/subtree-memo.js';
import type { Measures } from './measure.js';
import { shapeOf } from './tags.js';
import { isLinkedTitle } from './teasers.js';

/** What a subtree holds of teaser cards: its linked titles, and the text and plain text of its cards. */
export interface CardTally {
  titles: number;
  text: number;
  plain: number;
}

/** The tally of a subtree without teaser cards. */
export const NO_CARDS: CardTally = { titles: 0, text: 0, plain: 0 };

/** A card holds at most this many characters: a title, a date and a blurb of a few sentences. */
const MAX_CARD = 1000;

/** A card's title has at least this many characters: the linked category label above it ("Airlines") is not one. */
const MIN_CARD_TITLE = 20;

/** At least this many sibling cards make a group... */
const MIN_CARDS = 3;

/** ...of which this many have a title, before a sibling of the same tag and class without one counts as a card. */
const MIN_TITLED = 2;

/** The cards are at least this share of their parent's text. */
const CARD_SHARE = 0.6;

/**
 * For every element, how much of its text sits in teaser cards: the children of a group of three or more sibling
 * cards, each holding exactly one linked title (`isLinkedTitle`, 20+ characters) and at most 1,000 characters,
 * together most of the group's text. A sibling of a card's tag and class whose title came out empty (a teaser
 * whose headline the template left blank) is a card too, once two of its siblings are and such blanks are at most
 * half as many as the titled cards. Memoised in one post-order
 * pass, so asking again at every level of the container walk stays linear.
 */
export function teaserCards(measures: Measures): SubtreeMemo<CardTally> {
  return new SubtreeMemo<CardTally>(
    (el, valueOf) => {
      let titles = 0;
      let text = 0;
      let plain = 0;
      let cards = 0;
      let cardText = 0;
      let cardPlain = 0;
      const templates = new Set<string>();
      const untitled: Element[] = [];
      for (const c of el.children) {
        if (!isTag(c)) continue;
        const t = valueOf(c);
        titles += t.titles;
        text += t.text;
        plain += t.plain;
        const m = measures.get(c);
        if (!m || m.text > MAX_CARD) continue;
        if (t.titles === 0) untitled.push(c);
        if (t.titles !== 1) continue;
        templates.add(shapeOf(c));
        cards++;
        cardText += m.text;
        cardPlain += m.text - m.link;
      }
      if (cards >= MIN_TITLED) {
        const twins = untitled.filter((c) => templates.has(shapeOf(c)));
        // a few blanks among titled cards; a run of same-template sections with a linked title here and there is not
        // a card group (a roundup of brands, three of them linking to a review)
        if (twins.length <= cards / 2) {
          for (const c of twins) {
            const m = measures.get(c)!;
            cards++;
            cardText += m.text;
            cardPlain += m.text - m.link;
          }
        }
      }
      const m = measures.get(el);
      // a card holds one title, so its own tally holds no card text: nothing is counted twice
      if (cards >= MIN_CARDS && m && cardText >= CARD_SHARE * m.text) {
        text += cardText;
        plain += cardPlain;
      }
      return titles === 0 ? NO_CARDS : { titles, text, plain };
    },
    (el) =>
      isLinkedTitle(el, measures) && measures.get(el)!.text >= MIN_CARD_TITLE
        ? { titles: 1, text: 0, plain: 0 }
        : undefined,
  );
}
