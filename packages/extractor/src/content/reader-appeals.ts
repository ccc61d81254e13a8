// Appeals to the reader after a story: follow, share, join a group, get notified, download, fund the newsroom.
import { anyOf, phraseTable } from './phrases/phrase-table.js';

/**
 * Short appeals that are about the site, not the story ("Stay connected with me!", "Would you like to receive
 * notifications about new posts?", "If you like it, please share it!", "This story is funded by readers like you").
 * The newsletter and follow-us prompts of `clean.ts` are the same kind, with the same limits (200 characters, under
 * half links); these are the other wordings.
 */
const APPEALS = phraseTable(String.raw`
  (?:stay|keep) (?:connected|in touch) with (?:me|us)\b
  join (?:the|our|my) [\w' ]{0,40}(?:facebook|discord|slack|telegram|whatsapp|reddit) (?:group|community|server|channel)\b
  would you like to receive notifications\b
  get the latest (?:updates|news) from\b
  join \w+ for free to get updates\b
  if you (?:like|liked|enjoyed) (?:it|this(?: article| post| story)?),? (?:please )?(?:share it|feel free to share)\b
  help (?:me|us) spread the word\b
  (?:this|our) (?:story|journalism|reporting|work) is (?:funded|supported|made possible) by (?:readers|people) like you\b
  get (?:the|your|our) free (?:e-?book|guide|checklist|download)\b
  share your story[.!]?$
`);

const APPEAL = anyOf(APPEALS, '^');

export function isReaderAppeal(text: string): boolean {
  return APPEAL.test(text);
}

/**
 * A prompt to add the site to the reader's preferred sources on Google ("Add Example News as a preferred source on
 * Google", "Add [logo] as a Reliable and Trusted News Source"). It is usually itself the link to Google's settings
 * page, so unlike the appeals above it goes whatever its share of links.
 */
const PREFERRED_SOURCE = /^add\b.{0,40}\bas an? (?:preferred|trusted|reliable)\b.{0,30}\bsources?\b/i;

/** Whether a short block's text asks the reader to make the site a preferred source on Google. */
export function isPreferredSourcePrompt(text: string): boolean {
  return PREFERRED_SOURCE.test(text);
}
