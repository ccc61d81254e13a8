// Runs of teaser titles without a list around them: paragraph after paragraph holding only a link ("Average costs in
// Austin", "Average costs in Boston", …), which the link-list rule cannot see as there is no list element.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';

import { holdersOf } from '../dom/walk.js';
import { isAnnouncedList } from './announced-lists.js';
import type { Measures } from './measure.js';
import { PICTURE_TAGS } from './tags.js';

/** Blocks that hold one title each in such a run. */
const RUN_TAGS: ReadonlySet<string> = new Set(['p', 'div', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** A run is this many link-only blocks in a row, or more. */
const MIN_RUN = 5;

/** A block of a run holds at most this many characters: a title, not a paragraph that happens to be linked. */
const MAX_TITLE = 150;

/** Share of a block's text that is link text, at least. */
const LINK_SHARE = 0.9;

/**
 * The runs of `MIN_RUN` or more sibling blocks under `container` that each hold only a linked title (`RUN_TAGS`, at
 * most `MAX_TITLE` characters, `LINK_SHARE` of them links, no picture), empty blocks not breaking a run. A picture
 * breaks it: titles with their pictures are cards or a roundup's items, which the teaser rules judge. A run that a
 * lead-in announces ("Our guides for other cities:", `isAnnouncedList`) is the text's, and is not returned.
 */
export function findLinkRuns(container: Element, measures: Measures, doomed: ReadonlySet<AnyNode>): Element[][] {
  const runs: Element[][] = [];
  let run: Element[] = [];
  const flush = () => {
    if (run.length >= MIN_RUN && !isAnnouncedList(run[0]!, measures)) runs.push(run);
    run = [];
  };
  const withPicture = holdersOf(container, PICTURE_TAGS);
  // blocks inside a link are the fields of a card (a job's place, type and pay), not titles
  // the walk's stack, and beside it whether each element is inside a link (two arrays: no pair an element)
  const stack: Element[] = [container];
  const inLinks: boolean[] = [false];
  while (stack.length) {
    const parent = stack.pop()!;
    const inLink = inLinks.pop()!;
    if (doomed.has(parent)) continue;
    for (const c of parent.children) {
      if (isTag(c)) {
        stack.push(c);
        inLinks.push(inLink || c.name === 'a');
      }
    }
    if (inLink) continue;
    for (const c of parent.children) {
      if (!isTag(c)) {
        if (isText(c) && c.data.trim() !== '') flush();
        continue;
      }
      const m = measures.get(c);
      const picture = withPicture.has(c);
      if (!picture && (!m || m.text === 0)) continue;
      if (
        !picture &&
        !doomed.has(c) &&
        RUN_TAGS.has(c.name) &&
        m!.own === m!.text &&
        m!.text <= MAX_TITLE &&
        m!.link >= LINK_SHARE * m!.text
      )
        run.push(c);
      else flush();
    }
    flush();
  }
  return runs;
}
