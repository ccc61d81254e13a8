/**
 * What a PDF repeats on its pages rather than says: the running header and footer (a report's title above every
 * page, "Page 3 of 40" below it), and words hyphenated across a line break. Left in, a 40-page report's markdown holds
 * its header 40 times, and "in-\nformation" is two half words to a reader, a search index or an embedding.
 */

/** Lines looked at from each edge of a page: a header or footer is one or two lines. */
const EDGE_LINES = 2;
/** Lines a page needs for its edges to be looked at: a header or footer frames content. */
const MIN_LINES = 3;
/** Pages a line must repeat on, and the share of the pages, to be running (a short document has none). */
const MIN_PAGES = 3;
const MIN_SHARE = 0.5;

/**
 * A page number's words: none ("12", "- 12 -", "12 / 40"), or a word for page ("Page 12 of 40", "Seite 12", "Acme
 * Corp | p. 12"). A line that follows the page with other words only ("Question 12" atop each page of a form) is
 * content.
 */
const PAGE_NUMBER = /^(?:[^\p{L}]*|.*(?<!\p{L})(?:page|pg|p|seite|p[áa]gina)(?!\p{L}).*)$/iu;

/**
 * A page stamp's number: 5 digits or more ("ACME-000231", "DEF 0012345"), as a Bates number of a production set or a
 * document control number is written. A line whose number follows the page and is written so is furniture whatever
 * its words; one of fewer digits with words ("Question 12") is content.
 */
const STAMP_NUMBER = /(?<!\d)\d{5,}(?!\d)/;

/** A line as its page numbers aside: "Page 3 of 40", "- 3 -" and "3" repeat as "Page # of #", "- # -", "#". */
const shape = (line: string): string => line.trim().replace(/\d+/g, '#').replace(/\s+/g, ' ');

/** The indexes of a page's first and last `EDGE_LINES` lines with text (blank lines between blocks skipped). */
function edges(lines: readonly string[]): Set<number> {
  const filled = lines.flatMap((line, i) => (line.trim() ? [i] : []));
  if (filled.length < MIN_LINES) return new Set();
  return new Set([...filled.slice(0, EDGE_LINES), ...filled.slice(-EDGE_LINES)]);
}

/**
 * The numbers of a line less its page's index: a page number is off its page's index by the same amount on every page.
 */
const offsets = (line: string, page: number): Set<number> =>
  new Set((line.match(/\d+/g) ?? []).map((n) => Number(n) - page));

/**
 * The pages' markdown with their running headers and footers left out: a line at a page's top or bottom edge (its first
 * or last two) whose shape, numbers aside, is at an edge of at least 3 pages and half of them. One repeated as it is
 * (the report's title) is kept where it first appears, as it may be said nowhere else; one whose number follows the
 * page and reads as a page number (`PAGE_NUMBER`: "Page 3 of 40", "- 3 -") or a page stamp (`STAMP_NUMBER`: "Bates
 * ACME-000231") is dropped everywhere. A line whose numbers change otherwise ("Chapter 2" atop a few pages) is
 * content, and kept. Pages are kept in place ('' for a page without text).
 */
export function dropRunningLines(pages: readonly string[]): string[] {
  const split = pages.map((page) => (page ? page.split('\n') : []));
  const keep = runningLineMask(split);
  if (!keep) return [...pages];
  return split.map((lines, page) =>
    lines
      .filter((_, i) => keep[page]![i])
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/^\n+|\n+$/g, ''),
  );
}

/**
 * Which lines of the pages `dropRunningLines` keeps (true) and leaves out, by the same rules; undefined when it keeps
 * them all. Pages are given as their lines ([] for a page without text).
 */
export function runningLineMask(split: readonly (readonly string[])[]): boolean[][] | undefined {
  const withText = split.filter((lines) => lines.length > 0).length;
  if (withText < MIN_PAGES) return undefined;
  /** By shape: the pages it is at an edge of, its texts, and the offsets to the page index its numbers all share. */
  const found = new Map<string, { pages: number; texts: Set<string>; offsets: Set<number> | undefined }>();
  split.forEach((lines, page) => {
    const seen = new Set<string>();
    for (const i of edges(lines)) {
      const text = lines[i]!.trim();
      const key = shape(text);
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      const entry = found.get(key) ?? { pages: 0, texts: new Set(), offsets: undefined };
      const own = offsets(text, page);
      entry.pages++;
      entry.texts.add(text);
      entry.offsets = entry.offsets ? new Set([...entry.offsets].filter((o) => own.has(o))) : own;
      found.set(key, entry);
    }
  });
  /** Running shapes: `once` keeps the first occurrence (a title), otherwise every one goes (a page number). */
  const running = new Map<string, 'once' | 'never'>();
  for (const [key, entry] of found) {
    if (entry.pages < MIN_PAGES || entry.pages < withText * MIN_SHARE) continue;
    if (entry.texts.size === 1) running.set(key, 'once');
    else if (
      entry.offsets!.size > 0 &&
      (PAGE_NUMBER.test(key) || [...entry.texts].every((t) => STAMP_NUMBER.test(t)))
    ) {
      running.set(key, 'never');
    }
  }
  const numbered = pageNumbered(split, withText);
  if (running.size === 0 && numbered.size === 0) return undefined;
  const kept = new Set<string>();
  return split.map((lines, page) => {
    const edge = edges(lines);
    return lines.map((line, i) => {
      if (numbered.has(`${page}:${i}`)) return false;
      const key = shape(line);
      const rule = edge.has(i) ? running.get(key) : undefined;
      if (rule === undefined) return true;
      if (rule === 'never' || kept.has(key)) return false;
      kept.add(key);
      return true;
    });
  });
}

/** A number opening or closing a line, and the rest of the line: where a page number sits in a header or footer. */
const END_NUMBER = /^(\d{1,4})(?!\d)\s*(.*)$|^(.*?)\s*(?<!\d)(\d{1,4})$/su;

/**
 * Edge lines that carry the page's number at their start or end, found where `runningLineMask`'s shapes miss them
 * (`page:line` keys): a page number printed on only some pages (not on a chapter's first), and a running header
 * that names its chapter ("Chapter 2: Setup 17"), whose text changes from one chapter to the next. Their numbers
 * follow the page (the same offset from the page's index) on at least 3 pages. A bare number (or one with a word for
 * page) goes on those pages. A line with other words goes when it repeats, its number aside, on consecutive pages, and
 * such lines name at least two chapters over half the pages: one text over the whole document ("Question 3" atop each
 * page of a form) is content.
 */
function pageNumbered(split: readonly (readonly string[])[], withText: number): Set<string> {
  type Found = { page: number; line: number; rest: string };
  const byOffset = new Map<number, Found[]>();
  split.forEach((lines, page) => {
    for (const line of edges(lines)) {
      const match = END_NUMBER.exec(lines[line]!.trim());
      if (!match) continue;
      const number = Number(match[1] ?? match[4]);
      const rest = (match[2] ?? match[3] ?? '').replace(/\s+/g, ' ');
      const offset = number - page;
      const group = byOffset.get(offset) ?? [];
      group.push({ page, line, rest });
      byOffset.set(offset, group);
    }
  });
  const drop = new Set<string>();
  for (const found of byOffset.values()) {
    const bare = found.filter((f) => PAGE_NUMBER.test(f.rest));
    if (new Set(bare.map((f) => f.page)).size >= MIN_PAGES) for (const f of bare) drop.add(`${f.page}:${f.line}`);
    const pagesOf = new Map<string, Set<number>>();
    for (const f of found) pagesOf.set(f.rest, (pagesOf.get(f.rest) ?? new Set()).add(f.page));
    const runs = found.filter(
      (f) =>
        !PAGE_NUMBER.test(f.rest) && (pagesOf.get(f.rest)!.has(f.page - 1) || pagesOf.get(f.rest)!.has(f.page + 1)),
    );
    const chapters = new Set(runs.map((f) => f.rest)).size;
    const pages = new Set(runs.map((f) => f.page)).size;
    if (chapters >= 2 && pages >= MIN_PAGES && pages >= withText * MIN_SHARE) {
      for (const f of runs) drop.add(`${f.page}:${f.line}`);
    }
  }
  return drop;
}

/**
 * A block's lines with the words hyphenated across a line break joined: a line ending in a lower-case letter and `-`
 * takes the next line when it starts with a lower-case letter ("the in-" / "formation was" is "the information
 * was"). A hyphen before a capital or a digit ("COVID-" / "19", "North-" / "East") is kept, with the line break. A
 * compound broken at its own hyphen ("well-" / "known") loses it: the price of the common case.
 */
export function joinHyphenated(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const last = out.length - 1;
    if (last >= 0 && /\p{Ll}-$/u.test(out[last]!) && /^\p{Ll}/u.test(line)) out[last] = out[last]!.slice(0, -1) + line;
    else out.push(line);
  }
  return out;
}
