/**
 * The engine's messages name the engine option that would help (`extractionBudgetMs`, `workers.maxMemoryMb`): right
 * for `new Crawlkit()`, and the CLI tells them by its flags (`cli/option-flags.ts`). A caller of `crawlkit serve` (a v2
 * client, a webhook's receiver) or of `crawlkit mcp` (an agent) can set neither: there the message says they are the
 * server's, and the flag its operator sets. Every surface that speaks to such a caller words them here.
 */

/**
 * How a message names the engine options it mentions: `engine` by their own names (the function API), `serve` and
 * `mcp` as that command's settings, by the flag its operator sets.
 */
export type OptionNames = (typeof OPTION_NAMES)[number];
export const OPTION_NAMES = ['engine', 'serve', 'mcp'] as const;

/** Each command that answers callers who cannot set the engine's options: whose setting it is, what no call changes. */
const COMMANDS: Readonly<Record<Exclude<OptionNames, 'engine'>, { readonly owner: string; readonly call: string }>> = {
  serve: { owner: "the server's", call: 'request' },
  mcp: { owner: "the MCP server's", call: 'tool call' },
};

/** Each engine option the engine's messages name: what it is, and the flag that sets it. */
const OPERATOR_OPTIONS: Readonly<Record<string, { readonly what: string; readonly flag: string }>> = {
  extractionBudgetMs: { what: 'extraction budget', flag: '--extraction-budget' },
  'workers.maxMemoryMb': { what: 'memory for each extraction thread', flag: '--worker-memory' },
};

/** Any of them, as the messages write them. */
const NAMED = /extractionBudgetMs|workers\.maxMemoryMb/;

/**
 * `text` with each engine option it names told as the setting of the command's operator, by the flag that sets it
 * (`` `extractionBudgetMs` `` through `serve`: "the server's extraction budget (`crawlkit serve --extraction-budget`:
 * its operator's setting, which no request changes)"); `text` itself with `engine`, or when it names none.
 */
export function inOperatorWords(text: string, names: OptionNames): string {
  if (names === 'engine' || !NAMED.test(text)) return text;
  const { owner, call } = COMMANDS[names];
  return (
    text
      // the value beside the budget's name: "(extractionBudgetMs: 1 ms)"
      .replace(/\(extractionBudgetMs: (\d+ ms)\)/g, '($1)')
      .replace(/more than workers\.maxMemoryMb \((\d+ MiB)\) of memory/g, 'more than the $1 of memory')
      .replace(/`(extractionBudgetMs|workers\.maxMemoryMb)`(?: \(an engine option\))?/g, (_, name: string) => {
        const { what, flag } = OPERATOR_OPTIONS[name]!;
        return `${owner} ${what} (\`crawlkit ${names} ${flag}\`: its operator's setting, which no ${call} changes)`;
      })
  );
}

/** `item` with its `warning` in operator words: `item` itself when it is unchanged. */
function withWarning<T extends { warning?: unknown }>(item: T, names: OptionNames): T {
  if (typeof item.warning !== 'string') return item;
  const warning = inOperatorWords(item.warning, names);
  return warning === item.warning ? item : { ...item, warning };
}

/** `list` with each object's `warning` in operator words: `list` itself when none changes. */
function eachWithWarning(list: unknown[], names: OptionNames): unknown[] {
  const items = list.map((item) => (typeof item === 'object' && item !== null ? withWarning(item, names) : item));
  return items.some((item, i) => item !== list[i]) ? items : list;
}

/**
 * A v2 answer (or a webhook event, a job WebSocket message's `data`) with its `error`, its `warning` and each of its
 * documents' `warning` in operator words (`inOperatorWords`), a search's results' too. Copied where it changes, never
 * changed in place (a document may be the engine's): `body` itself when nothing changes.
 */
export function answerInOperatorWords<T extends object>(body: T, names: OptionNames): T {
  if (names === 'engine') return body;
  const answer = body as { error?: unknown; warning?: unknown; data?: unknown };
  let out = withWarning(answer, names);
  if (typeof answer.error === 'string') {
    const error = inOperatorWords(answer.error, names);
    if (error !== answer.error) out = { ...out, error };
  }
  const { data } = answer;
  if (Array.isArray(data)) {
    const items = eachWithWarning(data, names);
    if (items !== data) out = { ...out, data: items };
  } else if (typeof data === 'object' && data !== null) {
    let item = withWarning(data, names);
    // a search's results: `data.web`, `data.news`, `data.images`, each a list of scraped documents
    for (const [key, value] of Object.entries(item)) {
      if (!Array.isArray(value)) continue;
      const items = eachWithWarning(value, names);
      if (items !== value) item = { ...item, [key]: items };
    }
    if (item !== data) out = { ...out, data: item };
  }
  return out as T;
}

/**
 * A document's JSON as stored (a job WebSocket's catch-up sends them unparsed) with its `warning` in operator words:
 * parsed only when the text names an option, and `json` itself when its warning does not.
 */
export function storedDocumentInOperatorWords(json: string, names: OptionNames): string {
  if (names === 'engine' || !NAMED.test(json)) return json;
  const document: unknown = JSON.parse(json);
  if (typeof document !== 'object' || document === null) return json;
  const told = withWarning(document, names);
  return told === document ? json : JSON.stringify(told);
}
