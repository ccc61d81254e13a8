/**
 * The engine's messages name the engine option that would help (`extractionBudgetMs`, `workers.maxMemoryMb`): right
 * for `new Crawlkit()`, and the CLI tells them by its flags (`cli/option-flags.ts`). A client of the v2 API cannot
 * send either: through `crawlkit serve` the message says they are the server's, and the flag its operator sets.
 */

/** Each engine option the engine's messages name, as a client of the server is told it. */
const OPERATOR_OPTIONS: Readonly<Record<string, { readonly what: string; readonly flag: string }>> = {
  extractionBudgetMs: { what: "the server's extraction budget", flag: '--extraction-budget' },
  'workers.maxMemoryMb': { what: "the server's memory for each extraction thread", flag: '--worker-memory' },
};

/** Any of them, as the messages write them. */
const NAMED = /extractionBudgetMs|workers\.maxMemoryMb/;

/** `text` with each engine option it names told as the server's setting, by the `crawlkit serve` flag that sets it. */
export function inServerWords(text: string): string {
  if (!NAMED.test(text)) return text;
  return (
    text
      // the value beside the budget's name: "(extractionBudgetMs: 1 ms)"
      .replace(/\(extractionBudgetMs: (\d+ ms)\)/g, '($1)')
      .replace(/more than workers\.maxMemoryMb \((\d+ MiB)\) of memory/g, 'more than the $1 of memory')
      .replace(/`(extractionBudgetMs|workers\.maxMemoryMb)`(?: \(an engine option\))?/g, (_, name: string) => {
        const { what, flag } = OPERATOR_OPTIONS[name]!;
        return `${what} (\`crawlkit serve ${flag}\`: its operator's setting, which no request changes)`;
      })
  );
}

/** A document's `warning` (or an answer's), in server words. */
function withWarning<T extends { warning?: unknown }>(item: T): T {
  if (typeof item.warning !== 'string') return item;
  const warning = inServerWords(item.warning);
  return warning === item.warning ? item : { ...item, warning };
}

/**
 * A v2 answer as a client of the server reads it: its `error`, its `warning` and each of its documents' `warning` in
 * server words (`inServerWords`), a search's results' too. Copied where it changes, never changed in place (a
 * document may be the engine's).
 */
export function answerInServerWords<T extends object>(body: T): T {
  const answer = body as { error?: unknown; warning?: unknown; data?: unknown };
  let out = withWarning(answer);
  if (typeof answer.error === 'string') {
    const error = inServerWords(answer.error);
    if (error !== answer.error) out = { ...out, error };
  }
  const { data } = answer;
  if (Array.isArray(data)) {
    const items = eachWithWarning(data);
    if (items !== data) out = { ...out, data: items };
  } else if (typeof data === 'object' && data !== null) {
    let item = withWarning(data);
    // a search's results: `data.web`, `data.news`, `data.images`, each a list of scraped documents
    for (const [key, value] of Object.entries(item)) {
      if (!Array.isArray(value)) continue;
      const items = eachWithWarning(value);
      if (items !== value) item = { ...item, [key]: items };
    }
    if (item !== data) out = { ...out, data: item };
  }
  return out as T;
}

/** `list` with each object's `warning` in server words: `list` itself when none changes. */
function eachWithWarning(list: unknown[]): unknown[] {
  const items = list.map((item) => (typeof item === 'object' && item !== null ? withWarning(item) : item));
  return items.some((item, i) => item !== list[i]) ? items : list;
}
