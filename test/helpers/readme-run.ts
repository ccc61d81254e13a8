/**
 * Runs the READMEs' examples as a user copies them, for `test/readme-examples.test.ts` and
 * `scripts/readme-examples.ts`: only the host of each URL is replaced, by a site on 127.0.0.1 that answers the paths
 * the examples name (`https://example.com/docs` becomes `http://127.0.0.1:<port>/docs`). A ```ts block runs as a
 * module of its own in a child Node (type stripping) against the BUILT packages (`crawlkit` resolves to
 * `packages/crawlkit/dist`, as an install has it); a `crawlkit …` line runs under `sh` with the built command.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const BUILT_CLI = join(root, 'packages/crawlkit/dist/cli.js');

/** The hosts the examples name; each gets a server of its own, so that its URLs stay distinct. */
export const EXAMPLE_HOSTS = [
  'example.com',
  'docs.example.com',
  'a.example',
  'b.example',
  'shop.example',
  'careers.example',
  'forum.example',
  'hooks.example.com',
] as const;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title>` +
  `<meta name="description" content="${title}: a page of the README examples' site"></head>` +
  `<body><nav><a href="/">Home</a> <a href="/docs">Docs</a> <a href="/pricing">Pricing</a></nav>` +
  `<main><article><h1>${title}</h1>${body}</article></main><footer>© Example</footer></body></html>`;

const para = (text: string) => `<p>${text}</p>`;
const filler =
  'This page is part of the small site the README examples run against, on the loopback interface only. ' +
  'It holds enough text in its article for the main-content rules to keep it as the content of the page.';

/** The pages of every example host, by path. */
const PAGES: Record<string, string> = {
  '/': page(
    'Example Domain',
    para('This domain is for use in documentation examples without needing permission.') +
      para(filler) +
      para(
        '<a href="/docs">Read the docs</a>, see the <a href="/pricing">pricing</a> or a <a href="/p/42">product</a>.',
      ),
  ),
  '/docs': page(
    'Docs',
    para('The documentation of the example product.') +
      para(filler) +
      para('<a href="/docs/install">Install</a> and <a href="/docs/proxy-server">Proxy server</a>.'),
  ),
  '/docs/install': page(
    'Install',
    para('Installing the product takes one command, then a restart of the service.') + para(filler),
  ),
  '/docs/proxy-server': page(
    'Proxy server',
    para('The proxy server forwards requests; its auth settings take a user and a password.') +
      para('A dead letter queue keeps the messages the proxy server could not deliver.') +
      para(filler),
  ),
  '/pricing': page('Pricing', para('What does it cost? The basic plan costs 10 dollars a month.') + para(filler)),
  '/p/42': page('Widget 42', para('The Widget 42 costs 19.99 dollars.') + para(filler)),
  '/product/42': page('Widget 42', para('The Widget 42 costs 19.99 dollars.') + para(filler)),
  '/app': page('App', para(filler) + '<button id="load-more" onclick="this.after(\'More items\')">Load more</button>'),
  '/story': page(
    'A story',
    para('Once upon a time a crawler read a page.') +
      para('Here is the paragraph I miss in the markdown.') +
      para(filler),
  ),
};

export interface ExampleSite {
  /** `https://example.com` → `http://127.0.0.1:<port>`, for every host of `EXAMPLE_HOSTS`. */
  origins: Map<string, string>;
  /** Requests seen, `host path`. */
  requests: string[];
  close(): Promise<void>;
}

/** The example hosts' servers on 127.0.0.1, each answering `PAGES` (404 for any other path). */
export async function startExampleSite(): Promise<ExampleSite> {
  const requests: string[] = [];
  const servers: Server[] = [];
  const origins = new Map<string, string>();
  for (const host of EXAMPLE_HOSTS) {
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/(.)\/$/, '$1');
      requests.push(`${host} ${req.url}`);
      const html = PAGES[path];
      res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html ?? page('Not found', para('No such page.')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    origins.set(`https://${host}`, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  return {
    origins,
    requests,
    close: async () => {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/**
 * `code` with the example hosts replaced by the site's origins. Any other http(s) URL left in it would reach another
 * machine: that is an error, unless it is a loopback one.
 */
export function onSite(code: string, site: ExampleSite): string {
  let out = code;
  // Longest first: docs.example.com before example.com.
  for (const [from, to] of [...site.origins].sort((a, b) => b[0].length - a[0].length)) {
    out = out.replace(new RegExp(`${from.replaceAll('.', '\\.')}(?![\\w.-])`, 'g'), to);
  }
  const foreign = [...out.matchAll(/https?:\/\/([\w.-]+)/g)].filter(
    // `.invalid` never resolves (RFC 2606): an example that names it reaches no one.
    ([, host]) => !['127.0.0.1', 'localhost'].includes(host!) && !host!.endsWith('.invalid'),
  );
  if (foreign.length > 0) throw new Error(`an example would reach another host: ${foreign[0]![0]}`);
  return out;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let modules = 0;

/**
 * Runs `code` as a TypeScript module (Node's type stripping) in `cwd`: the file sits in the repository, so that
 * `crawlkit` and `@crawlkit/*` resolve to the workspace's built packages; it is removed after.
 */
export async function runModule(
  code: string,
  cwd: string,
  options: { timeoutMs?: number; at?: string; env?: Record<string, string> } = {},
): Promise<RunResult> {
  const file = join(root, options.at ?? 'test', `.readme-run-${process.pid}-${modules++}.ts`);
  writeFileSync(file, code);
  try {
    return await run(process.execPath, [file], cwd, options.timeoutMs ?? 60_000, undefined, options.env);
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * Runs a shell line in `cwd` with `crawlkit` being the built command (`node packages/crawlkit/dist/cli.js`, which
 * takes the shell's place). A command that runs until stopped (`--every`, `serve`) is sent SIGINT, as Ctrl-C, once
 * its output matches `until`.
 */
export function runLine(line: string, cwd: string, until?: RegExp, timeoutMs = 60_000): Promise<RunResult> {
  const script = `crawlkit() { exec "${process.execPath}" "${BUILT_CLI}" "$@"; }\n${line}`;
  return run('sh', ['-c', script], cwd, timeoutMs, until);
}

function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  until?: RegExp,
  env: Record<string, string> = {},
): Promise<RunResult> {
  const child = spawn(command, args, {
    cwd,
    // No variable of the test's own: no DEBUG, no CRAWLKIT_* settings, as on a user's machine.
    env: Object.fromEntries([
      ...['PATH', 'HOME', 'TMPDIR'].flatMap((name) => {
        const value = process.env[name];
        return value === undefined ? [] : [[name, value] as const];
      }),
      ...Object.entries(env),
    ]),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let stopped = false;
  const stopOnMatch = () => {
    if (until && !stopped && until.test(`${stdout}${stderr}`)) stopped = child.kill('SIGINT');
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    stopOnMatch();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    stopOnMatch();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise<RunResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
