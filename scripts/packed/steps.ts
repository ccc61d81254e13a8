/**
 * What `pnpm test:packed` runs in the folder where the packed tarballs were installed with npm. Each step is a name
 * and a function that throws when the installed packages misbehave; a new check is one more entry here (a hostile
 * file: `refused(name, path, code, message)`), plus its file in `site.ts`. Steps run the installed code only: scripts
 * written into the folder import `crawlkit` from its node_modules, and the CLI is its `node_modules/.bin/crawlkit`.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { appSteps } from './app-steps.ts';
import { bundleSteps } from './bundle-steps.ts';
import { ocrDataSteps } from './ocr-data-steps.ts';
import { officeSteps } from './office-steps.ts';
import { oldestNode } from './oldest-node.ts';
import { oldestNodePaths } from './oldest-node-paths.ts';
import { otherRuntimes } from './runtimes.ts';
import type { Runtime } from './oldest-node-paths.ts';
import { run } from './run.ts';
import { startServe } from './serve.ts';
import { ARTICLE_TITLE } from './site.ts';
import { tarballSteps } from './tarball-steps.ts';
import { traceSteps } from './trace-steps.ts';

export interface StepContext {
  /** The folder with the npm install. */
  dir: string;
  /** The fixture site's origin. */
  site: string;
  /** Node that runs the steps (the workspace's Node 24). */
  node: string;
  /** A Node older than crawlkit needs, when the machine has one. */
  oldNode?: string;
  /** The oldest Node crawlkit promises (`oldest-node.ts`), or why it is not there. */
  oldestNode?: string;
  oldestNodeSkip?: string;
  /** Bun and Deno (`runtimes.ts`), those installed, and why the others are not. */
  runtimes?: Runtime[];
  runtimesSkip?: string;
  /** Installs more packages into `dir` with the npm (and cache) that installed the tarballs. */
  npmInstall(...specs: string[]): void;
}

export interface Step {
  name: string;
  run(ctx: StepContext): Promise<void>;
}

/** Runs a module written into the install folder; resolves with its stdout, throws with its stderr on failure. */
export async function script(ctx: StepContext, name: string, source: string): Promise<string> {
  const file = join(ctx.dir, name);
  writeFileSync(file, source);
  const result = await run(ctx.node, [file], { cwd: ctx.dir });
  if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

const bin = (ctx: StepContext) => join(ctx.dir, 'node_modules/.bin/crawlkit');

/** A scrape through the library, with a store in the folder. */
const scrape: Step = {
  name: 'library scrape',
  run: async (ctx) => {
    const out = await script(
      ctx,
      'scrape.mjs',
      `import { Crawlkit } from 'crawlkit';
const ck = new Crawlkit({ storeDir: './store', engine: 'http' });
const page = await ck.scrape({ url: '${ctx.site}/article', formats: ['markdown', 'links'] });
await ck.close();
console.log(JSON.stringify(page));`,
    );
    const page = JSON.parse(out) as { success: boolean; data?: { markdown: string; metadata: { title: string } } };
    assert.equal(page.success, true, out);
    assert.equal(page.data?.metadata.title, ARTICLE_TITLE);
    assert.match(page.data?.markdown ?? '', /What users install is what we test/);
  },
};

/**
 * The extraction worker a thread starts is the bundle (`scripts/bundle-worker.ts`): a few dozen modules, where tsc's
 * output loaded ~260, most of a new thread's start. Counted with a load hook, as Node loads it from the install.
 */
const bundledWorker: Step = {
  name: 'the extraction worker is the bundle (few modules)',
  run: async (ctx) => {
    const out = await script(
      ctx,
      'worker-modules.mjs',
      `import { registerHooks } from 'node:module';
let count = 0;
registerHooks({ load: (url, context, next) => (count++, next(url, context)) });
await import(new URL('node_modules/crawlkit/dist/extraction/worker.js', import.meta.url).href);
console.log(count);`,
    );
    const count = Number(out.trim());
    assert.ok(count > 0 && count < 60, `the worker loaded ${count} modules (~260 unbundled)`);
  },
};

/** The CLI from node_modules/.bin. */
const cli: Step = {
  name: 'CLI scrape',
  run: async (ctx) => {
    // The command keeps its modules' compiled code in the temporary folder (a second run starts sooner).
    const tmp = join(ctx.dir, 'cli-tmp');
    mkdirSync(tmp);
    const env: NodeJS.ProcessEnv = { ...process.env, CRAWLKIT_STORE: join(ctx.dir, 'cli-store'), TMPDIR: tmp };
    delete env['NODE_COMPILE_CACHE'];
    delete env['NODE_DISABLE_COMPILE_CACHE'];
    const result = await run(ctx.node, [bin(ctx), 'scrape', `${ctx.site}/article`, '--engine', 'http'], {
      cwd: ctx.dir,
      env,
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /# What users install is what we test/);
    const cached = readdirSync(join(tmp, 'node-compile-cache'), { recursive: true });
    assert.ok(cached.length > 100, `compile cache holds ${cached.length} entries`);
  },
};

/** `crawlkit serve` (with @crawlkit/server installed beside crawlkit) answering a v2 scrape. */
const serve: Step = {
  name: 'serve + POST /v2/scrape',
  run: async (ctx) => {
    const env = { ...process.env, CRAWLKIT_STORE: join(ctx.dir, 'serve-store') };
    const served = await startServe(ctx.node, bin(ctx), ctx.dir, env);
    try {
      const response = await fetch(`${served.url}/v2/scrape`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${ctx.site}/article`, formats: ['markdown'] }),
      });
      const body = (await response.json()) as { success: boolean; data?: { markdown: string } };
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.match(body.data?.markdown ?? '', /What users install is what we test/);
    } finally {
      const { code, stderr } = await served.stop();
      assert.equal(code, 0, `serve stopped with ${code}: ${stderr}`);
    }
  },
};

/**
 * `crawlkit mcp` (with @crawlkit/mcp installed beside crawlkit) driven over stdio by the MCP SDK's own client, the one
 * npm installed with @crawlkit/mcp: the tools are listed, and `firecrawl_scrape` answers the page as v2 JSON.
 */
const mcp: Step = {
  name: 'mcp over stdio + firecrawl_scrape',
  run: async (ctx) => {
    const out = await script(
      ctx,
      'mcp.mjs',
      `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [${JSON.stringify(bin(ctx))}, 'mcp', '--engine', 'http', '--store', './mcp-store'],
  stderr: 'pipe',
});
let stderr = '';
transport.stderr?.on('data', (chunk) => (stderr += chunk));
const client = new Client({ name: 'packed-test', version: '1.0.0' });
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const answer = await client.callTool({
    name: 'firecrawl_scrape',
    arguments: { url: '${ctx.site}/article', formats: ['markdown'] },
  });
  console.log(JSON.stringify({ tools: tools.map((t) => t.name), answer }));
} catch (error) {
  console.error(String(error), stderr);
  process.exitCode = 1;
} finally {
  await client.close();
}`,
    );
    const { tools, answer } = JSON.parse(out) as {
      tools: string[];
      answer: { isError?: boolean; content: { type: string; text: string }[] };
    };
    assert.ok(tools.includes('firecrawl_scrape') && tools.includes('firecrawl_crawl'), tools.join(', '));
    assert.notEqual(answer.isError, true, JSON.stringify(answer));
    const page = JSON.parse(answer.content[0]!.text) as { markdown?: string; data?: { markdown?: string } };
    assert.match(page.markdown ?? page.data?.markdown ?? '', /What users install is what we test/);
  },
};

/**
 * The installed declarations type-check in a user's strict TypeScript project that checks libraries too
 * (`skipLibCheck: false`, the compiler's default): every package's surface imported, and the README's first example.
 * A type our `.d.ts` files import from a package without types of its own needs its `@types` package in
 * `dependencies`, or the user's build fails on our files. The workspace's TypeScript and `@types/node` do the check.
 */
const types: Step = {
  name: 'strict TypeScript over the installed types',
  run: async (ctx) => {
    const installed = JSON.parse(readFileSync(join(ctx.dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const names = Object.keys(installed.dependencies).filter(
      (name) => name === 'crawlkit' || name.startsWith('@crawlkit/'),
    );
    const source = [
      ...names.map((name, index) => `import * as surface${index} from '${name}';`),
      "import { Crawlkit } from 'crawlkit';",
      "const ck = new Crawlkit({ storeDir: './types-store' });",
      `const page = await ck.scrape({ url: '${ctx.site}/article', formats: ['markdown', 'links'] });`,
      'if (page.success) console.log(page.data.markdown, page.data.metadata.title);',
      'await ck.close();',
      `console.log(${names.map((_, index) => `surface${index}`).join(', ')});`,
      '',
    ].join('\n');
    writeFileSync(join(ctx.dir, 'user.ts'), source);
    // A CommonJS file of the same program: under nodenext, its import is a require() of our ES modules (Node 22.12+).
    const commonjs = [
      "import { Crawlkit, CrawlkitError, type ScrapeRequestInput, type JobStatusResponse } from 'crawlkit';",
      "const body: ScrapeRequestInput = { url: 'https://example.com' };",
      'export async function status(ck: Crawlkit, id: string): Promise<JobStatusResponse | undefined> {',
      '  try {',
      '    const found = await ck.getCrawlStatus(id);',
      '    return found.success ? found : undefined;',
      '  } catch (error) {',
      "    if (error instanceof CrawlkitError && error.code === 'ABORTED') return undefined;",
      '    throw error;',
      '  }',
      '}',
      'console.log(body);',
      '',
    ].join('\n');
    writeFileSync(join(ctx.dir, 'user-cjs.cts'), commonjs);
    const workspace = createRequire(import.meta.url);
    const config = {
      compilerOptions: {
        strict: true,
        target: 'es2023',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        noEmit: true,
        skipLibCheck: false,
        typeRoots: [join(workspace.resolve('@types/node/package.json'), '../..')],
        types: ['node'],
      },
      files: ['user.ts', 'user-cjs.cts'],
    };
    writeFileSync(join(ctx.dir, 'tsconfig.json'), JSON.stringify(config));
    const tsc = join(workspace.resolve('typescript/package.json'), '../bin/tsc');
    const result = await run(ctx.node, [tsc, '-p', join(ctx.dir, 'tsconfig.json')], { cwd: ctx.dir });
    assert.equal(result.status, 0, `tsc failed on the installed types:\n${result.stdout}${result.stderr}`);
  },
};

/**
 * A hostile file scraped through the installed library: it must be refused with `code` (its message matching
 * `message`) while the process grows by less than 512 MB (unbounded, each of these took a GiB or more).
 */
export function refused(name: string, path: string, code: string, message: RegExp): Step {
  return {
    name,
    run: async (ctx) => {
      const out = await script(
        ctx,
        `${path.replace(/\W/g, '_')}.mjs`,
        `import { Crawlkit } from 'crawlkit';
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const before = process.memoryUsage.rss();
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
const result = await ck.scrape({ url: '${ctx.site}${path}' });
clearInterval(sampler);
await ck.close();
console.log(JSON.stringify({ code: result.code, error: result.error, growthMb: (peak - before) / 1048576 }));`,
      );
      const result = JSON.parse(out) as { code?: string; error?: string; growthMb: number };
      assert.equal(result.code, code, out);
      assert.match(result.error ?? '', message);
      assert.ok(result.growthMb < 512, `RSS grew ${Math.round(result.growthMb)} MB`);
    },
  };
}

/** The 1 GiB PDF bomb, refused within the decode budget by the pdf.js worker that @crawlkit/extractor ships. */
const pdfBomb = refused(
  'PDF bomb (1 MB inflating to 1 GiB)',
  '/bomb.pdf',
  'SCRAPE_PDF_TOO_LARGE',
  /decompresses to more than 100 MiB/,
);

/** A DOCX zip bomb whose headers hide its size: @crawlkit/documents stops inflating it at 100 times the file. */
const zipBomb = refused(
  'zip bomb (DOCX inflating to 512 MiB)',
  '/zip-bomb.docx',
  'SCRAPE_DOCUMENT_TOO_LARGE',
  /more than 100 times its size/,
);

/** A DOCX whose XML declares a billion laughs: refused before any entity is expanded. */
const xmlBomb = refused(
  'XML bomb (billion laughs in a DOCX)',
  '/xml-bomb.docx',
  'SCRAPE_DOCUMENT_XML_ENTITIES',
  /entit/i,
);

/** An older Node is told what to install, by the CLI and by the library's import. */
const oldNode: Step = {
  name: 'an older Node is told what to install',
  run: async (ctx) => {
    if (!ctx.oldNode) throw new Error('skip: no Node older than 22.16 on this machine');
    const cliRun = await run(ctx.oldNode, [bin(ctx), 'scrape', `${ctx.site}/article`], { cwd: ctx.dir });
    assert.equal(cliRun.status, 1, cliRun.stderr);
    assert.match(cliRun.stderr, /crawlkit needs Node\.js 22\.16 or later.*\(NODE_UNSUPPORTED\)/s);
    const file = join(ctx.dir, 'old-import.mjs');
    writeFileSync(file, "import('crawlkit').then(() => console.log('loaded'), (e) => console.log(e.code));\n");
    const imported = await run(ctx.oldNode, [file], { cwd: ctx.dir });
    assert.equal(imported.stdout.trim(), 'NODE_UNSUPPORTED', imported.stderr);
    // From CommonJS too: the same error, not a module error, whether this Node loads ES modules with require()
    // (20.19+) or not (before 20.19, or with the flag).
    const required = join(ctx.dir, 'old-require.cjs');
    writeFileSync(required, "try { require('crawlkit'); console.log('loaded'); } catch (e) { console.log(e.code); }\n");
    for (const flags of [[], ['--no-experimental-require-module']]) {
      const requiredRun = await run(ctx.oldNode, [...flags, required], { cwd: ctx.dir });
      if (flags.length && /bad option/.test(requiredRun.stderr)) continue;
      assert.equal(requiredRun.stdout.trim(), 'NODE_UNSUPPORTED', `${flags.join(' ')} ${requiredRun.stderr}`);
    }
  },
};

export const STEPS: Step[] = [
  ...tarballSteps,
  scrape,
  bundledWorker,
  ...appSteps,
  ...bundleSteps,
  cli,
  types,
  serve,
  mcp,
  pdfBomb,
  zipBomb,
  xmlBomb,
  ...officeSteps,
  ...ocrDataSteps,
  ...traceSteps,
  oldNode,
  oldestNode,
  oldestNodePaths,
  otherRuntimes,
];
