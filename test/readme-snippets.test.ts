/**
 * The READMEs' code, checked as a user copies it (`README.md` and `packages/*\/README.md`):
 * - every ```ts block type-checks against the packages' built declarations, strict, as `import ... from 'crawlkit'`;
 * - every `crawlkit ...` line of a ```sh block (and an MCP client config's `args`) parses with the CLI's own program;
 * - every ```json block parses, and one marked `<!-- snippet crawlkit.config.json -->` passes `serve`'s file reader.
 * - the examples each command's `--help` prints (`EXAMPLES`) parse the same way;
 * - every source file named in backquotes (`src/options.ts`, `test/mcp.test.ts`) exists.
 *
 * How a block says what it needs, unseen by the reader (hidden HTML comments just above the fence; see
 * `helpers/readme-blocks.ts`): `<!-- snippet continues -->` (one module with the file's previous ```ts block),
 * `<!-- snippet given: declare const ck: Crawlkit; -->` (names from the surrounding text), `<!-- snippet skip: why -->`,
 * and `<!-- snippet synopsis -->` for a usage line (`[--flag]` brackets).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EXAMPLES } from '../packages/crawlkit/src/cli/examples.ts';
import { readServeFile } from '../packages/crawlkit/src/cli/serve-config.ts';
import { ensureBuilt } from './cli-helpers.ts';
import { codeBlocks, readmeBlocks, readmeFiles, type CodeBlock } from './helpers/readme-blocks.ts';
import { cliProblem, crawlkitInvocations } from './helpers/readme-cli.ts';
import { snippetModules, typecheckSnippets, type SnippetProblem } from './helpers/readme-typecheck.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const blocks = readmeBlocks(root);
/** A README with a mistake in each kind of block, to show each check fails, naming the line. */
const markdown = [
  '# x',
  '',
  '```ts',
  "import { Crawlkit } from 'crawlkit';",
  '',
  'const ck = new Crawlkit({ concurency: 4 });',
  '```',
  '',
  '<!-- snippet continues -->',
  '',
  '```ts',
  "await ck.scrape({ url: 'https://example.com', formats: ['markdwn'] });",
  '```',
  '',
  '```sh',
  'crawlkit scrape https://example.com --only-main 2>/dev/null   # a flag the CLI does not have',
  'cat urls.txt | crawlkit batchscrape -',
  '```',
  '',
  '<!-- snippet crawlkit.config.json -->',
  '',
  '```json',
  '{ "port": 3002, "apiKey": ["fc-a"] }',
  '```',
  '',
  '- a block in a list item, indented:',
  '',
  '  ```ts',
  "  import { explainPage } from '@crawlkit/extractor';",
  "  explainPage('<p>x</p>', { onlyMainContent: false });",
  '  ```',
].join('\n');
const wrongBlocks = codeBlocks('WRONG.md', markdown);

const checked = (lang: string) => blocks.filter((block) => block.lang === lang && block.skip === undefined);

/** The problems of the `crawlkit` command lines of one ```sh block, each with its README line. */
function shellProblems(block: CodeBlock): string[] {
  return block.code.split('\n').flatMap((line, index) =>
    crawlkitInvocations(line, block.kind === 'synopsis').flatMap((args) => {
      const problem = cliProblem(args);
      return problem ? [`${block.file}:${block.line + index}: ${problem}\n    ${line.trim()}`] : [];
    }),
  );
}

interface McpServer {
  command?: string;
  args?: string[];
}

/** The problems of a ```json block: JSON first, then what reads it. */
function jsonProblems(block: CodeBlock, dir: string): string[] {
  const where = `${block.file}:${block.line}`;
  let value: unknown;
  try {
    value = JSON.parse(block.code);
  } catch (error) {
    return [`${where}: not JSON: ${(error as Error).message}`];
  }
  if (block.kind === 'crawlkit.config.json') {
    const path = join(dir, `config-${block.line}.json`);
    writeFileSync(path, block.code);
    try {
      readServeFile({ config: path }, {}, dir);
      return [];
    } catch (error) {
      return [`${where}: crawlkit serve refuses it: ${(error as Error).message}`];
    }
  }
  const servers = (value as { mcpServers?: Record<string, McpServer> }).mcpServers ?? {};
  return Object.entries(servers).flatMap(([name, server]) => {
    // `command` is the crawlkit bin; with npx, its arguments come after the package options.
    const args = server.command?.endsWith('crawlkit') ? (server.args ?? []) : crawlkitArgsOfNpx(server);
    if (args === undefined) return [];
    const problem = cliProblem(args);
    return problem ? [`${where}: mcpServers.${name}: ${problem}`] : [];
  });
}

function crawlkitArgsOfNpx(server: McpServer): string[] | undefined {
  if (server.command !== 'npx') return undefined;
  const args = server.args ?? [];
  const at = args.indexOf('crawlkit', args.lastIndexOf('-p') + 2);
  return at < 0 ? undefined : args.slice(at + 1);
}

let dir: string;
/** One TypeScript program for the READMEs' modules and the wrong copy's. */
let typeProblems: SnippetProblem[];
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-readme-'));
  typeProblems = typecheckSnippets(root, snippetModules([...blocks, ...wrongBlocks]));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README code blocks', () => {
  it('finds the blocks of every README, and few are skipped', () => {
    expect(checked('ts').length).toBeGreaterThanOrEqual(25);
    expect(checked('sh').length).toBeGreaterThanOrEqual(8);
    expect(new Set(checked('ts').map((block) => block.file)).size).toBeGreaterThanOrEqual(10);
    const skipped = blocks.filter((block) => block.skip !== undefined);
    expect(skipped.every((block) => block.skip!.length > 0)).toBe(true);
    expect(skipped.length).toBeLessThanOrEqual(3);
  });

  it('type-checks every ts block as a user module, strict', () => {
    const problems = typeProblems.filter((problem) => !problem.where.startsWith('WRONG.md'));
    expect(problems.map(({ where, message }) => `${where}: ${message}`).join('\n')).toBe('');
  });

  it('parses every crawlkit command line of the sh blocks with the CLI program', () => {
    const lines = checked('sh').flatMap((block) => block.code.split('\n').flatMap((line) => crawlkitInvocations(line)));
    expect(lines.length).toBeGreaterThanOrEqual(30);
    expect(checked('sh').flatMap(shellProblems).join('\n')).toBe('');
  });

  it("parses the examples of each command's --help with the CLI program too", () => {
    const problems = Object.entries(EXAMPLES).flatMap(([name, lines]) =>
      lines.flatMap((line) =>
        crawlkitInvocations(line).flatMap((args) => {
          const problem = cliProblem(args);
          return problem ? [`crawlkit ${name} --help: ${problem}\n    ${line}`] : [];
        }),
      ),
    );
    expect(Object.keys(EXAMPLES).length).toBeGreaterThanOrEqual(15);
    expect(problems.join('\n')).toBe('');
  });

  it('names only source files that exist (a module moved or renamed since)', () => {
    expect(missingSourceFiles().join('\n')).toBe('');
  });

  it('reads every json block: the MCP client config runs a known command, a config file passes serve', () => {
    expect(
      checked('json')
        .flatMap((block) => jsonProblems(block, dir))
        .join('\n'),
    ).toBe('');
  });
});

/** The source files a README names in backquotes (`src/options.ts`, `test/mcp.test.ts`), from its folder or the root. */
function missingSourceFiles(): string[] {
  return readmeFiles(root).flatMap((file) => {
    const dir = dirname(join(root, file));
    const named = readFileSync(join(root, file), 'utf8').matchAll(
      /`((?:src|test|bench|scripts|fixtures|examples|packages)\/[\w./-]+\.(?:ts|cts|mts|js))`/g,
    );
    return [...new Set([...named].map((match) => match[1]!))]
      .filter((path) => !existsSync(join(dir, path)) && !existsSync(join(root, path)))
      .map((path) => `${file}: ${path}`);
  });
}

/** The checks themselves, on wrong copies: each names the README line and what is wrong. */
describe('README checks catch mistakes', () => {
  it('a wrong option name and a wrong format fail the type check, at their lines, in a list item too', () => {
    const problems = typeProblems.filter((problem) => problem.where.startsWith('WRONG.md'));
    expect(problems.map((problem) => problem.where)).toEqual(['WRONG.md:6', 'WRONG.md:12', 'WRONG.md:30']);
    expect(problems[0]!.message).toMatch(/TS2561: .*'concurency' does not exist .*Did you mean to write 'concurrency'/);
    expect(problems[1]!.message).toMatch(/TS2820: Type '"markdwn"' is not assignable .*Did you mean '"markdown"'/);
    expect(problems[2]!.message).toMatch(/TS2345: .*Property 'url' is missing/);
  });

  it('an unknown flag and an unknown command fail the CLI check', () => {
    const [sh] = wrongBlocks.filter((block) => block.lang === 'sh');
    const problems = shellProblems(sh!);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^WRONG\.md:16: crawlkit scrape does not know the option --only-main\n/);
    expect(problems[1]).toMatch(/^WRONG\.md:17: unknown command "batchscrape"/);
    expect(cliProblem(['status'])).toBe('crawlkit status needs 1 argument(s), got 0');
  });

  it('a mistyped key fails the config file check', () => {
    const [json] = wrongBlocks.filter((block) => block.lang === 'json');
    expect(jsonProblems(json!, dir)).toEqual([
      expect.stringMatching(/^WRONG\.md:23: crawlkit serve refuses it: .*apiKey/),
    ]);
    const mcp = {
      ...json!,
      kind: undefined,
      code: '{ "mcpServers": { "ck": { "command": "crawlkit", "args": ["mpc"] } } }',
    };
    expect(jsonProblems(mcp, dir)).toEqual([expect.stringMatching(/mcpServers\.ck: unknown command "mpc"/)]);
  });
});
