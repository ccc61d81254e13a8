// Headings that open a section of page furniture, or announce one, rather than the text (`sections.ts`).
import { anyOf, phraseTable } from './phrase-table.js';

/**
 * Headings that open a section of furniture when they start with one of these: related stories, sharing, sign-up,
 * comments, tables of contents, shop upsells. Matched at the heading's start.
 */
const FURNITURE_HEADING_STARTS = phraseTable(String.raw`
  related\b
  you (?:may|might) (?:also )?(?:like|enjoy|be interested)
  recommended
  more (?:from|stories|articles|posts|news|like this|to (?:read|discover|explore))
  read (?:more|next)
  popular\b
  trending
  latest (?:news|posts|articles|stories)
  most (?:read|popular|viewed)
  further reading
  keep reading
  share (?:this|on)
  follow us
  about the authors?
  newsletter
  subscribe
  sign up
  leave a (?:comment|reply)
  comments?\b
  \d+ comments?
  table of contents
  contents$
  in this article
  on this page
  tags?:?$
  categories:?$
  (?:people|customers|shoppers|guests|others)(?: like you)?(?: who (?:viewed|bought)[\w ]*)? also (?:viewed|bought|liked|purchased)
  frequently bought together
  similar (?:items|products)
  (?:complete|shop) the look
  recently viewed
`);

/**
 * Furniture headings recognised by a phrase anywhere in them ("Other posts you may enjoy", "Join our newsletter"):
 * each phrase carries its own anchor (`^` for a whole-heading wording, `\b` for a phrase inside the heading).
 */
const FURNITURE_HEADING_PHRASES = phraseTable(String.raw`
  ^more in\b
  ^latest(?: (?:from|in|headlines|updates|videos?))?:?$
  ^top stories\b
  ^editor'?s'? (?:picks|choice)
  ^don'?t miss\b
  ^what to read next
  ^you (?:may|might) have missed
  ^around the (?:web|site)
  ^from (?:our|the) partners?
  ^popular (?:now|today|this week)
  \byou (?:may|might) (?:also )?(?:like|enjoy)
  \bjoin (?:our|the) [\w ]*newsletter
  ^like this:?$
  ^written by\b
  ^trending searches$
  ^top posters\b
  \bsign in to (?:comment|reply)
  ^about the (?:reviewers?|writers?|editors?|experts?|contributors?)$
  ^meet the (?:authors?|writers?|experts?)$
  ^disclaimers?:?$
  ^also (?:in|on) (?:the )?news\b
  ^more (?:news|headlines)$
  ^(?:good |more |other )?(?:articles|posts|stories) to read\b
  ^(?:explore|shop|discover|see) (?:related|similar)\b
  ^featured (?:products|items)$
  ^sponsored (?:products|items)\b
  ^where to buy:?$
  ^(?:(?:article|story|post) )?(?:references|footnotes|endnotes|sources|bibliography|works cited|literature cited|citations|reference list)(?: and (?:notes|sources|further reading))?:?$
  ^help (?:us )?improve\b
  ^was this (?:page|article|post|guide|information|content) (?:helpful|useful)\??$
  ^did (?:you find )?this (?:page|article) help
  ^(?:give |send us )?feedback$
  ^rate this (?:page|article)\b
  ^how (?:was|did you like|would you rate) (?:this|today'?s|this week'?s) (?:issue|newsletter|edition|email|article|post)\??$
`);

/** Headings that open a section of furniture (`FURNITURE_HEADING_STARTS`). */
export const FURNITURE_HEADING = anyOf(FURNITURE_HEADING_STARTS, '^');

/** Headings that open a section of furniture by a phrase anywhere in them (`FURNITURE_HEADING_PHRASES`). */
export const FURNITURE_HEADING_PHRASE = anyOf(FURNITURE_HEADING_PHRASES);

/**
 * Furniture words that also open headings of the text ("Popular red wines", "Recommended courses:"): the section after
 * them goes only when it looks like teasers, 10% of it links, as after a label.
 */
const AMBIGUOUS_HEADING_STARTS = phraseTable(String.raw`
  popular
  recommended
`);

export const AMBIGUOUS_HEADING = anyOf(AMBIGUOUS_HEADING_STARTS, '^', '\\b');

/** Headings of a reader comment section ("Reader comments (23)", "Join the conversation", "14 thoughts on …"). */
const COMMENT_HEADINGS = phraseTable(String.raw`
  (?:reader|readers'?|user|your|latest|top|all) comments?\b
  comments?(?: \(\d+\)|:)?$
  \d+ (?:comments?|responses?|replies|thoughts) on\b
  \d+ (?:comments?|responses?)$
  (?:join|start) the (?:conversation|discussion)
  leave a (?:comment|reply)
  what do you think\??$
`);

export const COMMENTS_HEADING = anyOf(COMMENT_HEADINGS, '^');

/**
 * Furniture headings that announce links (to other stories, to the page's own sections: "Related", "Read more",
 * "Table of contents", "In this article"): their section is a run of links, and a paragraph of prose without links
 * after them is the text again (the intro a table of contents sits in, the story going on after a related box).
 * "Popular" and "Recommended" are guarded as ambiguous headings instead.
 */
const POINTER_HEADING_STARTS = phraseTable(String.raw`
  related\b
  you (?:may|might) (?:also )?(?:like|enjoy|be interested)
  more\b
  read (?:more|next)
  trending
  latest\b
  most (?:read|popular|viewed)
  further reading
  keep reading
  table of contents
  contents$
  in this article
  on this page
  top stories
  editor'?s'? (?:picks|choice)
  don'?t miss
  what to read next
  you (?:may|might) have missed
  around the (?:web|site)
  (?:good |other )?(?:articles|posts|stories) to read
  (?:explore|see) (?:related|similar)
`);

export const POINTER_HEADING = anyOf(POINTER_HEADING_STARTS, '^');

/** Cross-reference labels before a list of links ("See also:"), as a whole lead-in. */
const SEE_ALSO_LABELS = phraseTable(String.raw`
  see also
  also see
`);

export const SEE_ALSO = anyOf(SEE_ALSO_LABELS, '^', '$');

/**
 * Headings of the text's own notes ("Footnotes", PMC's `fn-group`): the section stays when the text's footnote
 * references point into it. Not "References": a bibliography the text cites goes (issue 42), cited or not.
 */
const NOTES_HEADINGS = phraseTable(String.raw`
  footnotes
  endnotes
`);

export const NOTES_HEADING = anyOf(NOTES_HEADINGS, '^', ':?$');
