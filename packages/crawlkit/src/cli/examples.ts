/** The examples of each command, printed after its `--help`; the program's own help shows the first of a few. */
export const EXAMPLES: Record<string, string[]> = {
  scrape: [
    'crawlkit scrape https://example.com',
    'crawlkit scrape https://example.com --format markdown,links --json',
    'crawlkit scrape https://example.com --format screenshot --out shots/',
    'crawlkit scrape --body request.json',
  ],
  crawl: [
    'crawlkit crawl https://example.com/docs --limit 50 --out docs/',
    'crawlkit crawl https://example.com --include-path "^/blog/" --max-discovery-depth 2 --ndjson > pages.ndjson',
    'crawlkit crawl https://example.com --crawl-entire-domain --format markdown,html --out site/',
    'crawlkit crawl https://example.com/docs --every 6h --webhook https://hooks.example.com/changes',
  ],
  batch: [
    'crawlkit batch urls.txt --out pages/',
    'cat urls.txt | crawlkit batch - --format links --ndjson',
    'crawlkit batch body.json --json        # a file with a whole v2 batch body',
  ],
  map: ['crawlkit map https://example.com', 'crawlkit map https://example.com --search pricing --limit 20 --json'],
  status: [
    'crawlkit status 01935c6e-…',
    'crawlkit status 01935c6e-… --json --limit 100',
    'crawlkit status 01935c6e-… --errors > failed.tsv',
  ],
  cancel: ['crawlkit cancel 01935c6e-…'],
  resume: [
    'crawlkit resume 01935c6e-… --out docs/',
    "crawlkit resume 01935c6e-… --ndjson >> pages.ndjson   # the pages to come, after the interrupted run's",
    'crawlkit resume 01935c6e-… --all --json > job.json     # every page of the job, running or ended',
  ],
  store: ['crawlkit store info', 'crawlkit store info --store /var/lib/crawlkit --json'],
  cache: [
    'crawlkit cache clear',
    'crawlkit cache prune --max-age 86400000',
    'crawlkit cache prune --history-max-age 2592000000',
    'crawlkit cache vacuum',
  ],
  schedules: [
    'crawlkit schedules list',
    'crawlkit schedules run 83bc7ff8-…   # that schedule now, then exit with its changes',
    'crawlkit schedules run              # every schedule of the store on its clock, until Ctrl-C',
    'crawlkit schedules pause 83bc7ff8-…    # no firing until resume; its runs and last crawls are kept',
    'crawlkit schedules resume 83bc7ff8-…',
    'crawlkit schedules delete 83bc7ff8-…',
  ],
  search: [
    'crawlkit search "proxy server" --site docs.example.com',
    'crawlkit search install pnpm --limit 10 --json',
    'crawlkit search news --source web --searxng-url http://127.0.0.1:8888',
  ],
  serve: [
    'crawlkit serve                      # http://127.0.0.1:3002, keyless, loopback only',
    'crawlkit serve --port 0 --store ./jobs',
    'OPENAI_BASE_URL=http://127.0.0.1:11434/v1 MODEL_NAME=qwen3 crawlkit serve   # json, summary, question formats',
    'CRAWLKIT_API_KEY=fc-secret crawlkit serve --host 0.0.0.0   # strict URL policy beyond loopback',
    'crawlkit serve --config ./crawlkit.config.json',
    'crawlkit serve --redis redis://10.0.0.5:6379   # jobs in Redis, run by `crawlkit worker --redis …` processes',
  ],
  mcp: [
    'crawlkit mcp                          # stdio, for Claude Desktop, Cursor, ...',
    'crawlkit mcp --http --port 3003       # streamable HTTP at http://127.0.0.1:3003/mcp',
    'CRAWLKIT_API_KEY=secret crawlkit mcp --http --host 0.0.0.0',
  ],
  parse: [
    'crawlkit parse report.docx',
    'crawlkit parse scan.pdf --pdf-mode ocr',
    'crawlkit parse sheet.xlsx --format markdown,html --json',
    'crawlkit parse notes.txt --content-type text/csv',
    'crawlkit parse share/ --out markdown/       # every file under share/, one .md each',
    'crawlkit parse docs/*.pdf --ndjson',
  ],
  explain: [
    'crawlkit explain https://example.com/story',
    'crawlkit explain https://example.com/story --find "the paragraph I miss"',
    'crawlkit explain https://example.com/story --exclude-tags .promo --json',
    'crawlkit explain https://example.com/story --html saved-page.html',
  ],
  replay: [
    'crawlkit crawl https://example.com/docs --limit 50 --record   # prints where the WARC file is',
    'crawlkit replay .crawlkit/warc/01935c6e-….warc.gz --out docs/',
    'crawlkit replay a.warc.gz b.warc.gz --format markdown,links --ndjson',
  ],
  worker: [
    'crawlkit worker --redis redis://127.0.0.1:6379',
    'CRAWLKIT_REDIS_URL=redis://queue.internal:6379 crawlkit worker --concurrency 32 --engine http',
    'CRAWLKIT_SECRET_KEY=$(cat /run/secrets/crawlkit-key) crawlkit worker   # jobs with headers need the shared key',
    'crawlkit worker --url-policy strict   # no private addresses, whatever the jobs allow',
  ],
};

/** A command's examples, as the end of its help. */
export function examples(name: string): string {
  return `\nExamples:\n${(EXAMPLES[name] ?? []).map((line) => `  $ ${line}`).join('\n')}\n`;
}
