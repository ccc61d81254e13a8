/**
 * Answers kept to what an agent's context holds. A host hands a tool's text to the model whole, and some refuse
 * an answer past their limit (Claude Code: 25,000 tokens), so a crawl's pages or a 2 MB page in one answer either
 * failed the call or filled the context. A job's pages are answered a slice at a time, and a text too long is cut;
 * each answer says which call reads on (`nextTool`, as firecrawl-mcp names the call that continues an answer).
 */
import type { ErrorResponse, JobStatusResponse, StatusPagination } from 'crawlkit';

/**
 * Characters of JSON text in one tool answer: firecrawl-mcp's inline budget (20,000 tokens, at 4 characters a token).
 */
export const DEFAULT_ANSWER_CHARS = 80_000;

/** Strings and lists shorter than this (characters of JSON) are never cut: titles, URLs, metadata. */
const SHORTEST_CUT = 2_000;
/** What the notes of a cut take in the answer, set aside from the budget. */
const NOTE_CHARS = 400;

/** The call that reads on from an answer, and what it holds. */
export interface ReadOn {
  nextTool?: { name: string; arguments: Record<string, unknown> };
  message: string;
}

/** The lists a scrape's `skip` reads on in (a page's formats of one entry per link or image). */
const LIST_FORMATS = ['links', 'images'];

/** A field an answer too long is cut in: a long string, or a long list of strings and numbers. */
interface Cuttable {
  holder: Record<string, unknown>;
  key: string;
  /** Its characters in the answer's JSON (a list's: its entries' with their indentation, about). */
  size: number;
}

/** Characters an entry of a list takes in the answer's JSON: itself, a comma, a line and its indentation (about). */
const entrySize = (entry: unknown) => JSON.stringify(entry).length + 10;

const isList = (field: unknown): field is (string | number)[] =>
  Array.isArray(field) && field.every((entry) => typeof entry === 'string' || typeof entry === 'number');
const listSize = (list: unknown[]) => list.reduce<number>((size, entry) => size + entrySize(entry), 0);

/** Every string of `value` at least `min` long and every list of strings and numbers as long, by its holder. */
function cuttables(value: unknown, min: number, out: Cuttable[] = []): Cuttable[] {
  if (Array.isArray(value)) value.forEach((item) => cuttables(item, min, out));
  else if (typeof value === 'object' && value !== null) {
    const holder = value as Record<string, unknown>;
    for (const [key, field] of Object.entries(holder)) {
      // A string's JSON, not its length: a page of short lines escapes a character per line, which the cut frees too.
      const size = typeof field === 'string' ? JSON.stringify(field).length - 2 : isList(field) ? listSize(field) : 0;
      if (size >= min) out.push({ holder, key, size });
      else cuttables(field, min, out);
    }
  }
  return out;
}

/** Where a scrape's answer started reading its page: characters of its texts, entries of its lists. */
export interface ReadFrom {
  offset?: number;
  skip?: number;
}

/** `field` cut to about `cap` characters of JSON, ending in a note of where it was cut and how to read on. */
function cut({ holder, key }: Cuttable, cap: number, { offset = 0, skip = 0 }: ReadFrom): void {
  const field = holder[key] as string | unknown[];
  if (typeof field === 'string') {
    if (field.length <= cap) return;
    const total = offset + field.length;
    holder[key] =
      `${field.slice(0, cap)}\n\n[cut: characters ${offset} to ${offset + cap} of ${total} shown, to keep the ` +
      `answer short. firecrawl_scrape this page with offset: ${offset + cap} reads on.]`;
    return;
  }
  let kept = 0;
  for (let size = 0; kept < field.length && (size += entrySize(field[kept])) <= cap;) kept++;
  if (kept === field.length) return;
  const shown = `[cut: entries ${skip} to ${skip + kept} of ${skip + field.length} shown, to keep the answer short.`;
  // Only a page's formats are read on by skip: another list (a json format's) has no call that reads its rest.
  const readOn = LIST_FORMATS.includes(key)
    ? ` firecrawl_scrape this page with formats: ["${key}"] and skip: ${skip + kept} reads on.]`
    : ' Ask for fewer.]';
  holder[key] = [...field.slice(0, kept), shown + readOn];
}

/**
 * `value` (a copy) with its longest strings and lists cut to one length, so that its JSON fits `budget` characters;
 * each cut one ends with a note of where it was cut (a list: its last entry). Answers `value` itself when it fits.
 * `from` is where the answer started in the page (a scrape read on from there): the note names the next call.
 */
export function cutToBudget<T>(value: T, budget: number, from: ReadFrom = {}): T {
  const measure = (answer: unknown) => JSON.stringify(answer, null, 2).length;
  const size = measure(value);
  if (size <= budget) return value;
  const sizes = cuttables(value, SHORTEST_CUT)
    .map((field) => field.size)
    .sort((a, b) => b - a);
  if (sizes.length === 0) return value;
  // The one length every longer field is cut to: the largest that frees what the answer is over by. A list's size
  // is reckoned, not measured, so the cut answer is measured, and cut shorter while it is still over.
  const excess = size - budget + NOTE_CHARS * sizes.length;
  for (let cap = sizes[0]!; ; cap = Math.max(SHORTEST_CUT, Math.floor(cap * 0.9))) {
    if (cap > SHORTEST_CUT && sizes.reduce((sum, length) => sum + Math.max(0, length - cap), 0) < excess) continue;
    const answer = structuredClone(value);
    for (const field of cuttables(answer, SHORTEST_CUT)) cut(field, cap, from);
    if (cap === SHORTEST_CUT || measure(answer) <= budget) return answer;
  }
}

/** Pages of a job read first; what they weigh sizes the next reads. */
const FIRST_READ = 10;

type StatusReader = (pagination: StatusPagination) => Promise<JobStatusResponse | ErrorResponse>;

/**
 * `build(n)` for the most items `n` (at least one, at most `count`) whose JSON text fits `budget`. Measured on the
 * answer itself, notes and indentation included.
 */
function mostThatFit<T>(count: number, budget: number, build: (n: number) => T): T {
  const fits = (n: number) => JSON.stringify(build(n), null, 2).length <= budget;
  if (count <= 1 || fits(count)) return build(count);
  let low = 1;
  let high = count - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return build(low);
}

/**
 * A job's status with as many of its stored pages from `skip` as fit `budget` characters (at least one), and the
 * call that reads the next ones when some are left out: `tool` with `{ id, skip }`.
 */
export async function statusSlice(
  read: StatusReader,
  id: string,
  tool: string,
  skip: number,
  budget: number,
): Promise<(Omit<JobStatusResponse, 'next'> & Partial<ReadOn>) | ErrorResponse> {
  const first = await read({ skip, limit: FIRST_READ });
  if (!first.success) return first;
  const { next: _next, data: _data, ...status } = first;
  // The pages read until their compact JSON alone passes the budget: the answer holds fewer.
  const docs = [...first.data];
  let size = JSON.stringify(docs).length;
  let next = first.next;
  while (next !== undefined && size <= budget) {
    // As many more as the budget left holds at the mean size of those read, and one past it: a crawl of large pages
    // is read a slice at a time, not 100 pages (megabytes) for an answer of a few.
    const more = Math.ceil((budget - size) / (size / Math.max(1, docs.length))) + 1;
    const page = await read({ skip: skip + docs.length, limit: Math.min(100, more) });
    if (!page.success) return page;
    if (page.data.length === 0) break;
    docs.push(...page.data);
    size += JSON.stringify(page.data).length;
    next = page.next;
  }
  const more = next !== undefined;
  return mostThatFit(docs.length, budget, (n) => {
    const data = docs.slice(0, n);
    if (n === docs.length && !more) return { ...status, data };
    const shown = skip + n;
    return {
      ...status,
      data,
      message:
        `Pages ${skip + 1} to ${shown} of the ${status.completed} stored so far are in this answer (kept under ` +
        `${budget} characters). Call ${tool} with id and skip: ${shown} for the next ones.`,
      nextTool: { name: tool, arguments: { id, skip: shown } },
    };
  });
}

/**
 * A map's answer with as many of its links from `skip` as fit `budget` characters, and the call that reads the next
 * ones when some are left out: `firecrawl_map` with the same `args` and the next `skip`.
 */
export function linksSlice(answer: unknown, skip: number, budget: number, args: Record<string, unknown>): unknown {
  const links = (answer as { links?: unknown }).links;
  if (!Array.isArray(links)) return answer;
  const { links: _links, ...rest } = answer as { links: unknown[] };
  const after = links.slice(skip);
  return mostThatFit(after.length, budget, (n) => {
    const page = { ...rest, links: after.slice(0, n) };
    if (n === after.length) return page;
    const end = skip + n;
    return {
      ...page,
      message:
        `Links ${skip + 1} to ${end} of ${links.length} are in this answer (kept under ${budget} characters). Call ` +
        `firecrawl_map with the same arguments and skip: ${end} for the next ones, or narrow it with search.`,
      nextTool: { name: 'firecrawl_map', arguments: { ...args, skip: end } },
    };
  });
}

/** The text formats a scrape's `offset` reads on in. */
const TEXT_FORMATS = ['markdown', 'html', 'rawHtml'] as const;

/** A scrape's answer with its text formats from `offset` on and its lists from `skip` on (what an earlier one cut). */
export function readFrom(answer: unknown, { offset = 0, skip = 0 }: ReadFrom): unknown {
  const data = (answer as { success?: boolean; data?: Record<string, unknown> }).data;
  if ((offset === 0 && skip === 0) || typeof data !== 'object' || data === null) return answer;
  const texts = TEXT_FORMATS.filter((format) => typeof data[format] === 'string');
  const lists = LIST_FORMATS.filter((format) => Array.isArray(data[format]));
  const from: Record<string, unknown> = {};
  // Past the end, a note: an empty text or list would read as a page without any.
  for (const format of texts) {
    const text = data[format] as string;
    from[format] =
      offset > 0 && offset >= text.length
        ? `[end: offset ${offset} is past the ${text.length} characters of this page's ${format}; nothing is left to read.]`
        : text.slice(offset);
  }
  for (const format of lists) {
    const list = data[format] as unknown[];
    from[format] =
      skip > 0 && skip >= list.length
        ? [`[end: skip ${skip} is past the ${list.length} entries of this page's ${format}; nothing is left to read.]`]
        : list.slice(skip);
  }
  return { ...(answer as object), data: { ...data, ...from } };
}
