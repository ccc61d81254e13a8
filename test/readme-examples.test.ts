/**
 * The README's quick start, run as written (test/readme-snippets.test.ts type-checks and parses every block; this one
 * runs them): the "Use" section's TypeScript and the package README's, the resumable batch script, the error handling
 * example, and the lines of the "Command line" block, with the built packages and command, against a site on
 * 127.0.0.1 that stands in for the hosts they name (only the host of each URL is replaced: `helpers/readme-run.ts`).
 * What each printed is held to what the README says it prints. A line added to the command block must be run here, or
 * named with why not, so that none rots unseen.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt } from './cli-helpers.ts';
import { readmeBlocks, type CodeBlock } from './helpers/readme-blocks.ts';
import {
  onSite,
  runLine,
  runModule,
  startExampleSite,
  type ExampleSite,
  type RunResult,
} from './helpers/readme-run.ts';
import { snippetModules } from './helpers/readme-typecheck.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const blocks = readmeBlocks(root);

/** The ```ts module (a block and the blocks that continue it) whose first block starts with `start`, as one text. */
function moduleOf(file: string, start: string): string {
  const found = snippetModules(blocks).find(
    (module) =>
      module.file === file && module.parts.some((part) => part.line === module.line && part.text.startsWith(start)),
  );
  if (!found) throw new Error(`${file}: no ts block starts with ${start}`);
  return found.parts.map((part) => part.text).join('\n');
}

/** The ```ts block of `file` that starts with `start`, alone (its `given` declarations left out). */
function blockOf(file: string, start: string): CodeBlock {
  const found = blocks.find((block) => block.file === file && block.lang === 'ts' && block.code.startsWith(start));
  if (!found) throw new Error(`${file}: no ts block starts with ${start}`);
  return found;
}

let site: ExampleSite;
let dir: string;
beforeAll(async () => {
  ensureBuilt();
  site = await startExampleSite();
  dir = mkdtempSync(join(tmpdir(), 'ck-readme-run-'));
}, 120_000);
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh working directory for one example. */
function workDir(name: string): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
}

const shown = (result: RunResult) => `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;

// Each run is a process of its own in a folder of its own: they run at once.
describe.concurrent('README examples', () => {
  describe('README "Use": the quick start runs as written', () => {
    it('scrape, crawl, batch and map print what the README says', async () => {
      const code = onSite(
        moduleOf('README.md', "import { Crawlkit } from 'crawlkit';\n\nconst ck = new Crawlkit(); //"),
        site,
      );
      const result = await runModule(code, workDir('use'));
      expect(result.code, shown(result)).toBe(0);
      checkUse(result);
    }, 90_000);

    it("the package README's example prints the page's markdown", async () => {
      const code = onSite(blockOf('packages/crawlkit/README.md', "import { Crawlkit } from 'crawlkit';").code, site);
      const result = await runModule(code, workDir('package'));
      expect(result.code, shown(result)).toBe(0);
      expect(result.stdout).toContain('# Example Domain');
    }, 90_000);
  });

  describe('README: the scripts beside the quick start run as written', () => {
    it('the resumable batch stores each page once in pages.ndjson, run again after it ended', async () => {
      const block = blockOf(
        'README.md',
        "import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';",
      );
      const urls = ['https://example.com/', 'https://example.com/pricing', 'https://example.com/docs'];
      // The block's `given` declares `urls`: here it is the site's.
      const code = onSite(`const urls = ${JSON.stringify(urls)};\n${block.code}`, site);
      const cwd = workDir('resume');
      const first = await runModule(code, cwd);
      expect(first.code, shown(first)).toBe(0);
      const again = await runModule(code, cwd); // the job had ended: resumeJob answers JOB_NOT_RESUMABLE, watch skips
      expect(again.code, shown(again)).toBe(0);
      const pages = readFileSync(join(cwd, 'pages.ndjson'), 'utf8').trimEnd().split('\n');
      const stored = pages.map(
        (line) => new URL((JSON.parse(line) as { metadata: { sourceURL: string } }).metadata.sourceURL),
      );
      expect(stored.map((url) => url.pathname).sort()).toEqual(['/', '/docs', '/pricing']);
    }, 90_000);

    it("the errors example prints a failed page's code, status and action, and watch()'s code", async () => {
      const block = blockOf('README.md', "import { ERROR_CODES, hasCrawlkitCode, httpStatusOf } from 'crawlkit';");
      // The block's `given`: an engine, a URL nothing listens at, an id no job has, a save().
      const given = [
        "import { Crawlkit, type Document } from 'crawlkit';",
        "const ck = new Crawlkit({ store: 'memory' });",
        "const url = 'http://127.0.0.1:9/';",
        "const id = '01935c6e-0000-7000-8000-000000000000';",
        'function save(doc: Document): void { void doc; }',
      ].join('\n');
      const result = await runModule(`${given}\n${block.code}\nawait ck.close();\n`, workDir('errors'));
      expect(result.code, shown(result)).toBe(0);
      const [scrape, watch] = result.stderr.trimEnd().split('\n');
      expect(scrape).toMatch(/^SCRAPE_[A-Z_]+ \d{3} \S/);
      expect(watch).toBe('JOB_NOT_FOUND');
    }, 90_000);
  });

  /** What the "Use" blocks print: the page's markdown and title, the crawl's URLs, the finished batch, the map. */
  function checkUse(result: RunResult): void {
    const origin = site.origins.get('https://example.com')!;
    expect(result.stdout).toContain('# Example Domain');
    expect(result.stdout).toMatch(/ Example Domain$/m); // console.log(markdown, title): the title after the markdown
    for (const path of ['/docs', '/docs/install', '/docs/proxy-server']) {
      expect(result.stdout).toMatch(new RegExp(`^${origin}${path}$`, 'm'));
    }
    expect(result.stdout).toContain("status: 'completed'");
    expect(result.stdout).toContain(`url: '${origin}/pricing'`);
  }

  /** What a run of the command block has learnt so far: the crawl's id, the recording's path. */
  interface LineState {
    cwd: string;
    crawlId?: string;
    warc?: string;
  }

  interface LineCheck {
    /** The line's start, as the README writes it (after `crawlkit `). */
    line: string;
    /** Why the line is not run here; else `check` is. */
    notRun?: string;
    prepare?: (state: LineState) => void;
    /** The line needs no job or page of the lines before it: it runs beside them, in a folder of its own. */
    alone?: boolean;
    /** A command that runs until Ctrl-C gets it once its output matches this. */
    until?: RegExp;
    check?: (results: RunResult[], state: LineState) => void;
  }

  const json = (result: RunResult) => JSON.parse(result.stdout) as Record<string, unknown>;

  /** Every line of the README's command block (README.md, "Command line"), in its order. */
  const COMMAND_LINES: LineCheck[] = [
    {
      line: 'scrape https://example.com  ',
      alone: true,
      check: ([result]) => {
        expect(result!.stdout).toContain('# Example Domain'); // markdown on stdout
        expect(result!.stdout.trimStart()).not.toMatch(/^\{/);
      },
    },
    {
      line: 'scrape https://example.com --format markdown,links --json',
      alone: true,
      check: ([result]) => {
        const answer = json(result!) as { success: boolean; data: { markdown: string; links: string[] } };
        expect(answer.success).toBe(true);
        expect(answer.data.markdown).toContain('# Example Domain');
        expect(answer.data.links).toContain(`${site.origins.get('https://example.com')}/docs`);
      },
    },
    {
      line: 'crawl https://example.com/docs --limit 50 --out docs/',
      check: ([result], state) => {
        state.crawlId = /crawl (\S+) started/.exec(result!.stderr)?.[1];
        expect(state.crawlId, result!.stderr).toBeDefined();
        // one file per page per format + manifest.json
        const manifest = JSON.parse(readFileSync(join(state.cwd, 'docs/manifest.json'), 'utf8')) as {
          pages: { url: string; files: Record<string, string> }[];
        };
        expect(manifest.pages.map((page) => new URL(page.url).pathname).sort()).toEqual([
          '/docs',
          '/docs/install',
          '/docs/proxy-server',
        ]);
        const files = readdirSync(join(state.cwd, 'docs'));
        for (const page of manifest.pages) for (const file of Object.values(page.files)) expect(files).toContain(file);
      },
    },
    {
      line: 'batch urls.txt --ndjson > pages.ndjson',
      alone: true,
      prepare: ({ cwd }) =>
        writeFileSync(join(cwd, 'urls.txt'), onSite('https://example.com/\nhttps://example.com/pricing\n', site)),
      check: (_, { cwd }) => {
        const lines = readFileSync(join(cwd, 'pages.ndjson'), 'utf8').trimEnd().split('\n');
        const pages = lines.map((line) => JSON.parse(line) as { markdown: string; metadata: { sourceURL: string } });
        expect(pages.map((page) => new URL(page.metadata.sourceURL).pathname).sort()).toEqual(['/', '/pricing']);
      },
    },
    {
      line: 'map https://example.com --search pricing',
      alone: true,
      check: ([result]) => expect(result!.stdout.split('\n')[0]).toMatch(/\/pricing$/),
    },
    {
      line: 'status <id> | crawlkit cancel <id> | crawlkit resume <id>',
      check: ([status, cancel, resume]) => {
        expect(status!.stdout).toMatch(/completed/);
        expect(cancel!.code, shown(cancel!)).not.toBe(2);
        // A job that has ended has nothing to resume: exit 1, JOB_NOT_RESUMABLE and the --all command.
        expect(resume!.code).toBe(1);
        expect(resume!.stderr).toMatch(/JOB_NOT_RESUMABLE/);
        expect(resume!.stderr).toMatch(/--all/);
      },
    },
    { line: 'status <id> --redis', notRun: 'needs a Redis deployment (Running workers has its own tests)' },
    {
      line: 'cache clear | crawlkit cache prune --max-age 86400000 --history-max-age 2592000000',
      check: (results) => expect(results.map((result) => result.code)).toEqual([0, 0]),
    },
    {
      line: 'cache vacuum',
      // the file's size before and after
      check: ([result]) => expect(result!.stdout).toMatch(/: \d+ bytes before, \d+ bytes after/),
    },
    { line: 'store info', check: ([result]) => expect(result!.stdout).toMatch(/^schema: +\d+/m) }, // its schema version
    {
      line: 'crawl https://example.com/docs --every 6h',
      // a schedule: crawl now (its changes printed), then every 6 h, until Ctrl-C
      until: /changes (since crawl \S+|first run of this lineage):/,
      check: ([result]) => {
        expect(result!.stderr).toMatch(/changes (since crawl \S+|first run of this lineage): \d+ new/);
        expect(result!.code).toBe(0); // a command that runs until stopped ends on Ctrl-C (Exit codes)
      },
    },
    {
      line: 'search "proxy server" --site docs.example.com',
      check: ([result]) => expect(result!.stdout).toMatch(/\/docs\/proxy-server/),
    },
    { line: 'serve --port 3002', notRun: 'runs until stopped: test/serve-cli.test.ts' },
    { line: 'serve --redis', notRun: 'needs a Redis deployment' },
    { line: 'mcp  ', notRun: 'stdio for an MCP client: test/mcp.test.ts' },
    { line: 'parse report.docx', notRun: 'a DOCX of your own: test/documents.test.ts' },
    { line: 'parse scan.pdf --pdf-mode ocr --json', notRun: 'OCR of a scan takes seconds of CPU: test/ocr*.test.ts' },
    {
      line: 'parse share/ --out markdown/',
      alone: true,
      prepare: ({ cwd }) => {
        mkdirSync(join(cwd, 'share/sub'), { recursive: true });
        writeFileSync(join(cwd, 'share/prices.csv'), 'plan,price\nbasic,10\n');
        writeFileSync(join(cwd, 'share/sub/notes.csv'), 'note\nhello\n');
      },
      check: ([result], { cwd }) => {
        expect(result!.code, shown(result!)).toBe(0);
        const written = readdirSync(join(cwd, 'markdown'), { recursive: true }).map(String);
        expect(written.filter((file) => file.endsWith('.md'))).toHaveLength(2);
      },
    },
    {
      line: 'explain https://example.com/story --find "the paragraph I miss"',
      alone: true,
      check: ([result]) => {
        expect(result!.stdout).toContain('the paragraph I miss');
        expect(result!.stdout).toMatch(/kept/);
      },
    },
    {
      line: 'crawl https://example.com/docs --record',
      check: ([result], state) => {
        state.warc = /(\S+\.warc\.gz)/.exec(`${result!.stdout}${result!.stderr}`)?.[1];
        expect(state.warc, shown(result!)).toBeDefined();
        expect(existsSync(join(state.cwd, state.warc!)) || existsSync(state.warc!)).toBe(true);
      },
    },
    {
      line: 'replay .crawlkit/warc/<id>.warc.gz --out docs/',
      check: ([result], { cwd }) => {
        const manifest = JSON.parse(readFileSync(join(cwd, 'docs/manifest.json'), 'utf8')) as { pages: unknown[] };
        expect(manifest.pages).toHaveLength(3);
        expect(result!.code, shown(result!)).toBe(0);
      },
    },
    { line: 'scrape https://example.com/p/42 -f json', notRun: 'needs a model server: test/llm*.test.ts' },
  ];

  /** The `crawlkit …` commands of a README line: `a | crawlkit b` lists alternatives, each run on its own. */
  function commandsOf(line: string, state: LineState): string[] {
    const code = line.replace(/\s+#.*$/, '').trim();
    return code.split(/ \| (?=crawlkit )/).map((command) => {
      let out = onSite(command, site).replaceAll('--site docs.example.com', '--site 127.0.0.1');
      if (state.warc) out = out.replace(/\.crawlkit\/warc\/<id>\.warc\.gz/, state.warc);
      if (state.crawlId) out = out.replaceAll('<id>', state.crawlId);
      return out;
    });
  }

  /** Runs one line of the command block (each of its `a | crawlkit b` alternatives) and holds it to its check. */
  async function runChecked(entry: LineCheck, state: LineState): Promise<void> {
    const lines = commandBlock.code.split('\n');
    const line = lines.find((candidate) => candidate.startsWith(`crawlkit ${entry.line}`));
    if (line === undefined) throw new Error(`README.md:${commandBlock.line}: no line "crawlkit ${entry.line}…" now`);
    entry.prepare?.(state);
    const results: RunResult[] = [];
    for (const command of commandsOf(line, state)) results.push(await runLine(command, state.cwd, entry.until));
    try {
      entry.check!(results, state);
    } catch (error) {
      const where = `README.md:${commandBlock.line + lines.indexOf(line)}: ${line}\n${results.map(shown).join('\n')}`;
      throw new Error(`${where}\n${(error as Error).message}`, { cause: error });
    }
  }

  const commandBlock = blocks.find(
    (block) => block.file === 'README.md' && block.lang === 'sh' && block.code.startsWith('crawlkit scrape '),
  )!;

  describe('README "Command line": every line runs as written', () => {
    it('each line of the block is run here, or named with why not', () => {
      const lines = commandBlock.code.split('\n').filter((line) => line.trim() !== '');
      const unmatched = lines.filter(
        (line) => !COMMAND_LINES.some((entry) => line.startsWith(`crawlkit ${entry.line}`)),
      );
      expect(unmatched, `README.md:${commandBlock.line}: lines no entry runs or names`).toEqual([]);
      expect(lines).toHaveLength(COMMAND_LINES.length);
    });

    it('prints what the README says, line after line', async () => {
      // The lines about one store's jobs in order on it; the others, each whole by itself, at once in a folder of
      // their own.
      const run = async (cwd: string, entries: LineCheck[]) => {
        const state: LineState = { cwd };
        for (const entry of entries) await runChecked(entry, state);
      };
      const checked = COMMAND_LINES.filter((entry) => entry.check);
      await Promise.all([
        run(
          workDir('cli-store'),
          checked.filter((entry) => !entry.alone),
        ),
        run(
          workDir('cli-alone'),
          checked.filter((entry) => entry.alone),
        ),
      ]);
    }, 240_000);
  });

  /** The checks themselves, on wrong copies of the README: a misspelt option fails them. */
  describe('README runs catch mistakes', () => {
    it('a misspelt option of the quick start fails its run', async () => {
      const code = moduleOf('README.md', "import { Crawlkit } from 'crawlkit';\n\nconst ck = new Crawlkit(); //");
      expect(code).toContain('limit: 100');
      const result = await runModule(onSite(code.replace('limit: 100', 'limt: 100'), site), workDir('wrong-use'));
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/limt/);
    }, 90_000);

    it("a misspelt flag of a command line fails that line's check", async () => {
      const entry = COMMAND_LINES.find((candidate) =>
        candidate.line.startsWith('crawl https://example.com/docs --limit'),
      )!;
      const state: LineState = { cwd: workDir('wrong-cli') };
      const line = onSite('crawlkit crawl https://example.com/docs --limt 50 --out docs/', site);
      const result = await runLine(line, state.cwd);
      expect(result.code).toBe(2);
      expect(() => entry.check!([result], state)).toThrow();
    }, 90_000);
  });
});
