// Short blocks that speak to the reader about the site rather than the story (`furniture.ts`).
import { anyOf, phraseTable } from './phrase-table.js';

/**
 * Prompts to follow, subscribe or download ("Follow us on Telegram, Facebook and X …", "Sign up to our weekly
 * round-up …", "Not the answer you're looking for?"), at the start of a short block (200 characters at most, under
 * half of it links).
 */
const PROMPT_STARTS = phraseTable(String.raw`
  follow us (?:on|for)\b
  (?:like|follow) us on (?:facebook|twitter|instagram|x|linkedin|youtube)\b
  (?:subscribe|sign up) (?:to|for) (?:our|the) (?:free )?(?:daily |weekly )?(?:newsletter|mailing list)\b
  join (?:our|the) (?:mailing list|newsletter)\b
  download (?:our|the) (?:free )?app\b
  get (?:the|our) (?:latest|best)\b.{0,50}\b(?:in|to) your inbox\b
  the best of\b.{0,50}\bdelivered to your inbox\b
  (?:subscribe|sign up)\b.{0,120}\b(?:newsletters?|inbox|mailing list|emails?)\b
  .{0,120}\b(?:delivered|sent)(?: (?:right|straight|directly))? to your inbox\b
  by (?:subscribing|signing up)\b
  find the answer to your question by asking\b
  not the answer you'?re looking for\?
  you must (?:log ?in|sign ?in|register|be logged in)? ?to (?:answer|reply to|post in) this (?:question|thread|topic)\b
`);

export const PROMPT_TEXT = anyOf(PROMPT_STARTS, '^');

/**
 * Labels of a pointer to another story inside the text, before a colon and a linked title ("Related: <a>…</a>",
 * "Also read: <a>…</a>", "You might also like: <a>…</a>").
 */
const RELATED_LINK_LABELS = phraseTable(String.raw`
  you (?:may|might) (?:also )?(?:like|enjoy)
  related(?: (?:stories|story|articles?|posts?|reading|content|coverage|links?|guides?|reads?))?
  read (?:more|also|next)
  more to read
  also read
  recommended(?: read(?:ing)?)?
  next read
  read
  must read
  don'?t miss
  more
  further reading
`);

export const RELATED_LINK_LABEL = anyOf(RELATED_LINK_LABELS, '^', String.raw`\s*:`);

/**
 * A thread's edit and membership labels and a Q&A page's comment prompts ("Last edited by mod: Jul 3, 2024", "Last
 * edited by Ann on Tue Aug 27, 2019 10:03 pm, edited 1 time in total.", "Join Date: Aug 2008", "Registered:
 * 2024-01-27", "Add a comment"): the whole text of a block of up to 80 characters. The references of the dev split
 * never keep them; "Joined" and "Founded" without more are left alone (a seller's "Joined Feb 1999" on a shop page, a
 * company's "Founded: 1998" in an article are kept by the references).
 */
const THREAD_LABELS = phraseTable(String.raw`
  last edited(?: by [\w .-]{1,30})?:? .{0,30}
  last edited by [\w .-]{1,30} on .{1,40}, edited \d+ times? in total\.?
  join date:? .{0,20}
  registered: .{1,20}
  add a comment
  sign up to request clarification or add additional context in comments\.?
`);

export const THREAD_LABEL = anyOf(THREAD_LABELS, '^', '$');
