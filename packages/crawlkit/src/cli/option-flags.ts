import { BODY_FLAGS } from './body-flags.js';

/**
 * Engine and server options the command line sets with a flag of its own: a message naming such an option by its
 * path (an `INVALID_OPTION`, a size limit) is told with that flag, which is what the user typed.
 */
const OPTION_FLAGS: Record<string, string> = {
  'http.limits.maxBodyBytes': '--max-body-bytes',
  'search.provider.url': '--searxng-url',
  'search.provider.apiKey': '--brave-api-key',
  'llm.baseUrl': '--model-base-url',
  'llm.model': '--model',
  proxies: '--proxy',
  cors: '--cors',
  urlPolicy: '--url-policy',
  concurrency: '--concurrency',
  extractionBudgetMs: '--extraction-budget',
  robotsTimeoutMs: '--robots-timeout',
  'workers.maxMemoryMb': '--worker-memory',
  engine: '--engine',
  storeDir: '--store',
  storeMigrationCopy: '--no-migration-copy',
  apiKeys: '--api-key',
  port: '--port',
  host: '--host',
  webhookSecret: '--webhook-secret',
  creditLimit: '--credit-limit',
  queueLimit: '--queue-limit',
  bodyLimit: '--body-limit',
  bodyTimeoutMs: '--body-timeout',
  parseFileLimit: '--parse-file-limit',
  closeTimeoutMs: '--close-timeout',
  readyMinFreeMb: '--ready-min-free',
  publicUrl: '--public-url',
  trustProxy: '--trust-proxy',
  jobResultTtlMs: '--job-ttl',
  resumeScanMs: '--resume-scan',
};

/** The body fields a boolean flag sets (`crawlEntireDomain`), with that flag (`--crawl-entire-domain`). */
// Built at first use: body-flags reaches this module again through its imports.
let switches: Map<string, string> | undefined;
const switchFlag = (key: string): string | undefined =>
  (switches ??= new Map(
    Object.values(BODY_FLAGS).flatMap(({ flags }) =>
      flags
        .filter((flag) => flag.kind === 'boolean')
        .map((flag) => [flag.key, flag.flags.split(/,\s*/).at(-1)!] as const),
    ),
  )).get(key);

/** The flag of an option path, by its longest known prefix (`proxies.basic.0` is `--proxy`). */
function flagOf(path: string): string | undefined {
  const parts = path.split('.');
  for (let length = parts.length; length > 0; length--) {
    const flag = OPTION_FLAGS[parts.slice(0, length).join('.')];
    if (flag) return flag;
  }
  return undefined;
}

/** A parser's object form in JavaScript (`{ type: 'pdf', mode: 'fast' }`): on the command line, `--parsers` JSON. */
const PARSER_OBJECT = /write \{ type: '(\w+)', mode: '(\w+)' \}/;
const PARSER_FORMS = /or an object: \{ type: 'pdf', maxPages\?, mode\?: ([^}]*) \} or \{ type: 'image' \}/;

/**
 * `message` with each option it names by path (`` `search.provider.url` ``, `(http.limits.maxBodyBytes)`) told with its
 * flag, and each body field it sets to true (`crawlEntireDomain=true`) with the flag that sets it.
 */
export function withFlags(message: string): string {
  // `name` followed by its flag, unless there is none or the message already says it.
  const toldWith = (name: string, flag: string | undefined) =>
    flag && !message.includes(`${name} (${flag})`) ? `${name} (${flag})` : name;
  return message
    .replace('(http.limits.maxBodyBytes)', '(--max-body-bytes)')
    .replace("set parsers: [{ type: 'pdf', maxPages }]", "set --pdf-max-pages (parsers: [{ type: 'pdf', maxPages }])")
    .replace(
      PARSER_OBJECT,
      (_, type: string, mode: string) => `write --parsers '[{"type":"${type}","mode":"${mode}"}]'`,
    )
    .replace(
      PARSER_FORMS,
      (_, rest: string) =>
        `or JSON: --parsers '[{"type":"pdf","mode":"fast"}]' (pdf's keys: maxPages, mode: ${rest.replace(/\?/g, '').trim()})`,
    )
    .replace(/`([\w.]+)`/g, (whole, path: string) => toldWith(whole, flagOf(path)))
    .replace(/\b(\w+)=true\b/g, (whole, key: string) => toldWith(whole, switchFlag(key)));
}
