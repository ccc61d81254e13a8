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

/** Strings shorter than this are never cut (titles, URLs, metadata). */
const SHORTEST_CUT = 2_000;
/** What the notes of a cut take in the answer, set aside from the budget. */
const NOTE_CHARS = 400;

/** The call that reads on from an answer, and what it holds. */
export interface ReadOn {
  nextTool?: { name: string; arguments: Record<string, unknown> };
  message: string;
}

/** Every string of `value` at least `min` long, by reference to its holder. */
function longStrings(value: unknown, min: number, out: { holder: Record<string, unknown>; key: string }[] = []) {
  if (Array.isArray(value)) value.forEach((item) => longStrings(item, min, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, field] of Object.entries(value)) {
      if (typeof field === 'string' && field.length >= min) out.push({ holder: value as Record<string, unknown>, key });
      else longStrings(field, min, out);
    }
  }
  return out;
}

/**
 * `value` (a copy) with its longest strings cut to one length, so that its JSON fits `budget` characters; each cut
 * string ends with a note of where it was cut. Answers the copy and the length kept, or `value` itself when it fits.
 * `offset` is where the strings started in the page (a scrape read on from there): the note names the next one.
 */
export function cutToBudget<T>(value: T, budget: number, offset = 0): { value: T; kept?: number } {
  const size = JSON.stringify(value, null, 2).length;
  if (size <= budget) return { value };
  const copy = structuredClone(value);
  const strings = longStrings(copy, SHORTEST_CUT);
  if (strings.length === 0) return { value };
  const lengths = strings.map(({ holder, key }) => (holder[key] as string).length).sort((a, b) => b - a);
  // The one length every longer string is cut to: the largest that frees what the answer is over by.
  const excess = size - budget + NOTE_CHARS * strings.length;
  let kept = SHORTEST_CUT;
  for (let cap = lengths[0]!; cap >= SHORTEST_CUT; cap = Math.floor(cap * 0.9)) {
    const freed = lengths.reduce((sum, length) => sum + Math.max(0, length - cap), 0);
    if (freed >= excess) {
      kept = cap;
      break;
    }
  }
  for (const { holder, key } of strings) {
    const text = holder[key] as string;
    if (text.length <= kept) continue;
    const total = offset + text.length;
    holder[key] =
      `${text.slice(0, kept)}\n\n[cut: characters ${offset} to ${offset + kept} of ${total} shown, to keep the ` +
      `answer short. firecrawl_scrape this page with offset: ${offset + kept} reads on.]`;
  }
  return { value: copy, kept };
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

/** A scrape's answer with its text formats from `offset` on (the rest of a page an earlier answer cut). */
export function readFrom(answer: unknown, offset: number): unknown {
  const data = (answer as { success?: boolean; data?: Record<string, unknown> }).data;
  if (offset === 0 || typeof data !== 'object' || data === null) return answer;
  const texts = TEXT_FORMATS.filter((format) => typeof data[format] === 'string');
  const from = Object.fromEntries(texts.map((format) => [format, (data[format] as string).slice(offset)]));
  return { ...(answer as object), data: { ...data, ...from } };
}
