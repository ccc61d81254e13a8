import { Command, CommanderError, Option } from 'commander';

import { toErrorResponse } from '../errors.js';
import { ENGINE_DEFAULTS } from '../engine-defaults.js';
import { addBodyFlags } from './body-flags.js';
import { addExplainFlags, addMcpFlags, addParseFlags, addSearchFlags, addServeFlags } from './command-flags.js';
import type { CliIo, CommandContext, GlobalOptions } from './context.js';
import { CliError, EXIT, exitCodeFor } from './errors.js';
import { commanderUsage, errorLine } from './error-line.js';
import { EXAMPLES, examples } from './examples.js';
import { addEngineFlags } from './engine-flags.js';
import { addQuietFlag } from './log-flags.js';
import { addModelFlags } from './model-flags.js';
import { withFlags } from './option-flags.js';
import { addRedisFlags, type RedisFlags } from './redis-flags.js';
import { addScheduleFlags } from './schedule-commands.js';
import { addScheduleUpdateFlags } from './schedule-update-flags.js';
import type { ErrorResponse } from '../v2/types.js';
import { VERSION } from './version.js';
import { addWorkerCommand } from './worker-command.js';

/** A command's implementation: its module is loaded when it runs (see `createProgram`). */
type CommandFn = (ctx: CommandContext, ...args: never[]) => Promise<number>;

/**
 * What a command prints: `pages` (`--json`, `--ndjson`, and `--out` for their files), an `answer` (a list, a status:
 * `--json` and `--ndjson`; `--out` is refused, saying how to save it), or `none` (its own output).
 */
type Output = 'pages' | 'answer' | 'none';

/** The refusal of `--out` by a command that prints an answer, not pages: it would write nothing and say nothing. */
function outRefused(name: string): string {
  return (
    `--out DIR writes the files of scraped pages (scrape, crawl, batch, resume, replay, parse); ${name} prints its ` +
    `answer. Save it with --json -o ${name}.json (or --json > ${name}.json).`
  );
}

function addGlobalFlags(command: Command, output: Output): Command {
  addEngineFlags(
    command.option(
      '--store <dir>',
      `store directory (jobs, results, page cache), or memory to keep nothing (default ${ENGINE_DEFAULTS.storeDir}); env CRAWLKIT_STORE`,
    ),
  )
    .option('--concurrency <n>', `pages at once across the engine (default ${ENGINE_DEFAULTS.concurrency})`)
    .option(
      '--url-policy <policy>',
      'URL policy: strict (no private, loopback or metadata addresses) or a UrlPolicy as JSON (default: every address; serve and mcp on an interface other than loopback: strict); env CRAWLKIT_URL_POLICY',
    );
  addQuietFlag(command);
  if (output !== 'none') {
    command
      .option('--json', 'print the v2 response as JSON')
      .option('--ndjson', 'print one JSON document a line, as pages come');
  }
  if (output === 'pages') {
    command
      .option(
        '-o, --out <dir|file>',
        'write one file per page per format, plus manifest.json; a file name (page.md, out.json) saves the output in it',
      )
      .option('--strict', 'exit 3 when some pages (or files) failed, where a job done with failed pages exits 0');
  }
  if (output === 'answer') command.addOption(new Option('-o, --out <file>').hideHelp());
  return command;
}

/** The `crawlkit` command line. `run` receives each command's exit code. */
export function createProgram(io: CliIo, signal: AbortSignal, setExit: (code: number) => void): Command {
  const program = new Command('crawlkit')
    .description(
      'Scrape, crawl, batch-scrape and map websites locally, with the Firecrawl v2 request and response shapes.\n' +
        `Jobs live in the store (--store, default ${ENGINE_DEFAULTS.storeDir}): an interrupted crawl resumes with \`crawlkit resume <id>\`.`,
    )
    .version(VERSION, '-v, --version')
    .configureOutput(commanderOutput(io))
    .exitOverride()
    .addHelpText(
      'after',
      `\nExamples:\n${['scrape', 'crawl', 'batch', 'map']
        .map((name) => `  $ ${EXAMPLES[name]![0]}`)
        .join(
          '\n',
        )}\n\nExit codes: 0 done, 1 failed, 2 bad input, 3 some pages failed (--strict), 130 Ctrl-C, 141 output's reader gone, 143 SIGTERM (all resumable).\n`,
    );

  /** The commands that write pages, and so take `--out`. */
  const pageCommands = new WeakSet<Command>();

  /**
   * The command that `load` resolves to as an action; `model`: the command runs pages, with the model of `--model` or
   * the environment; `redis`: the command reads the jobs of `--redis` when given; `stores: false`: the command keeps
   * nothing, so it makes no store unless one is named (`CommandContext.storeNothing`). The command's module and its
   * context are loaded here, when the command runs, and the engine by the command once it has read its input
   * (`CommandContext.load`): a start (`--help`, `--version`, a usage mistake) loads only commander and the flags.
   */
  const run =
    (load: () => Promise<CommandFn>, { model = false, redis = false, stores = true } = {}) =>
    async (...args: unknown[]): Promise<void> => {
      const command = args.at(-1) as Command;
      const [{ CommandContext }, fn] = await Promise.all([import('./context.js'), load()]);
      const ctx = new CommandContext(io, command.opts<GlobalOptions>(), signal);
      ctx.command = command;
      if (!stores) ctx.storeNothing();
      try {
        // A directory of pages; a file name (`status ID -o status.json`) saves any command's answer.
        if (ctx.options.out !== undefined && !pageCommands.has(command)) {
          setExit(ctx.fail({ success: false, code: 'CLI_USAGE', error: outRefused(command.name()) }));
          return;
        }
        const llm = model
          ? await (await import('./serve-model.js')).commandModel(command.opts(), process.env, process.cwd())
          : undefined;
        if (llm) ctx.configure({ llm });
        if (redis) await (await import('./redis-settings.js')).useRedis(ctx, command.opts<RedisFlags>());
        // Commander passes the arguments, then the parsed options, then the command.
        const positional = args.slice(0, -2);
        setExit(
          await (fn as (ctx: CommandContext, ...rest: unknown[]) => Promise<number>)(ctx, ...positional, command),
        );
      } finally {
        await ctx.end();
      }
    };
  const commands = () => import('./commands.js');

  const subcommand = (name: string, description: string, output: Output = 'answer') => {
    const command = program.command(name).description(description).exitOverride();
    if (output === 'pages') pageCommands.add(command);
    command.configureOutput(commanderOutput(io));
    addGlobalFlags(command, output);
    command.addHelpText('after', examples(name.split(' ')[0]!));
    return command;
  };

  addModelFlags(
    addBodyFlags(subcommand('scrape [url]', 'scrape one page (prints its markdown)', 'pages'), 'recordedScrape'),
  ).action(run(async () => (await commands()).scrapeCommand, { model: true }));
  const submitTo =
    "a distributed deployment's Redis: the job goes there, its `crawlkit worker`s run it and this prints its pages";
  addRedisFlags(
    addModelFlags(
      addScheduleFlags(
        addBodyFlags(subcommand('crawl [url]', 'crawl a site, following links and sitemaps', 'pages'), 'crawl'),
      ),
    ),
    submitTo,
  ).action(run(async () => (await commands()).crawlCommand, { model: true, redis: true }));
  addRedisFlags(
    addModelFlags(
      addBodyFlags(
        subcommand(
          'batch <file>',
          'scrape a list of URLs: one a line, a JSON array, or a v2 body; - reads stdin',
          'pages',
        ),
        'batch',
      ),
    ),
    submitTo,
  ).action(run(async () => (await commands()).batchCommand, { model: true, redis: true }));
  addModelFlags(
    addBodyFlags(
      subcommand('replay <files...>', 're-extract a recording (WARC files of --record) with no network', 'pages'),
      'scrape',
    ),
  ).action(run(async () => (await import('./replay.js')).replayCommand, { model: true }));
  addParseFlags(
    subcommand(
      'parse <files...>',
      'convert local files (PDF, Office, OpenDocument, RTF, EPUB, CSV, image by OCR); a directory, its files',
      'pages',
    ),
  ).action(run(async () => (await import('./parse.js')).parseCommand, { stores: false }));
  addBodyFlags(subcommand('map [url]', 'list the URLs of a site without scraping them'), 'map').action(
    run(async () => (await commands()).mapCommand, { stores: false }),
  );
  const jobsIn = 'the Redis of a distributed deployment holding the job (instead of --store)';
  addRedisFlags(
    subcommand('status <id>', 'show a crawl or batch job; --json prints the v2 status with results'),
    jobsIn,
  )
    .option('--skip <n>', 'results to skip (with --json)')
    .option('--limit <n>', 'results per page (with --json)')
    .option('--errors', "the job's failed pages, one a line: URL, code, message (tab-separated); --json: the v2 errors")
    .action(run(async () => (await commands()).statusCommand, { redis: true }));
  addRedisFlags(subcommand('cancel <id>', 'cancel a crawl or batch job (scraped pages are kept)'), jobsIn).action(
    run(async () => (await commands()).cancelCommand, { redis: true }),
  );
  addModelFlags(
    addRedisFlags(
      subcommand('resume <id>', 'go on with an unfinished job in this process and follow it', 'pages'),
      `${jobsIn}: its workers run it, this command follows it`,
    )
      .option('--all', 'print every page of the job, not only those completed after the resume (of an ended job too)')
      .addHelpText(
        'after',
        '\nStdout (text, --ndjson, --json data) has the pages completed after the resume: the interrupted run printed ' +
          'the\nothers, so output appended to its file has each page once. --all prints the whole job; --out always ' +
          'ends\nwith the whole job (files and manifest.json). A job that has ended (completed, failed, cancelled) ' +
          'has\nnothing to resume: --all prints its pages all the same, and without it the command exits 1 ' +
          '(JOB_NOT_RESUMABLE).\n',
      ),
  ).action(run(async () => (await commands()).resumeCommand, { model: true, redis: true }));
  addRedisFlags(
    addModelFlags(
      addScheduleUpdateFlags(
        subcommand(
          'schedules <action> [id]',
          'list, update <id>, pause <id>, resume <id>, delete <id>, run <id> now, or run them all on their clocks ' +
            '(crawl --every)',
        ),
      ),
    ),
    "a distributed deployment's Redis holding the schedules: their crawls run on its `crawlkit worker`s",
  ).action(run(async () => (await import('./schedule-commands.js')).schedulesCommand, { model: true, redis: true }));
  subcommand('cache <action>', 'clear or prune the page cache, or vacuum the store file', 'none')
    .option('--max-age <ms>', 'prune: also remove pages older than this')
    .option('--history-max-age <ms>', 'prune: also remove the change history of pages not scraped for this long')
    .action(run(async () => (await commands()).cacheCommand));
  subcommand(
    'store <action>',
    "info: the store's schema version, and what an upgrade or a roll-back does to it",
  ).action(run(async () => (await import('./store-info.js')).storeCommand));
  addExplainFlags(
    addBodyFlags(subcommand('explain [url]', 'show why each block of a page is kept or dropped', 'none'), 'scrape'),
  ).action(run(async () => (await import('./explain.js')).explainCommand));
  addModelFlags(
    addSearchFlags(subcommand('search <words...>', 'search the pages crawlkit stored (and the web, with a provider)')),
  ).action(run(async () => (await import('./search.js')).searchCommand, { model: true }));
  addMcpFlags(subcommand('mcp', 'serve the MCP tools of firecrawl-mcp (stdio, or --http)', 'none')).action(
    run(async () => (await import('./mcp.js')).mcpCommand),
  );
  addServeFlags(
    subcommand('serve', 'serve the Firecrawl v2 HTTP API locally (the official SDKs and curl work unchanged)', 'none'),
  ).action(run(async () => (await import('./serve.js')).serveCommand));
  addWorkerCommand(program, io, signal, setExit);
  return program;
}

/**
 * Where commander writes: help and `--version` to stdout; its usage mistakes are not written by it but thrown
 * (`exitOverride`) and told by `main` in the one form of every failing line (`errorLine`), ending in `(CLI_USAGE)`.
 */
function commanderOutput(io: CliIo) {
  return {
    writeOut: (text: string) => io.stdout.write(text),
    writeErr: (text: string) => io.stderr.write(text),
    outputError: () => {},
  };
}

/** Runs the CLI with `argv` (without `node` and the script) and resolves to the exit code. */
export async function main(argv: string[], io: CliIo, signal: AbortSignal): Promise<number> {
  let code: number = EXIT.ok;
  const program = createProgram(io, signal, (c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0; a usage mistake (or no command at all) is bad input.
      if (error.exitCode === 0) return EXIT.ok;
      const words = commanderUsage(error);
      answerJson(argv, io, { success: false, code: 'CLI_USAGE', error: words });
      io.stderr.write(errorLine(words, 'CLI_USAGE'));
      return EXIT.badInput;
    }
    if (error instanceof CliError) {
      answerJson(argv, io, { success: false, code: error.code, error: error.message });
      if (!error.told) io.stderr.write(errorLine(error.message, error.code, { bare: error.code === 'UNKNOWN_ERROR' }));
      return error.exitCode;
    }
    if (signal.aborted) return EXIT.interrupted;
    const response = toErrorResponse(error);
    answerJson(argv, io, response);
    io.stderr.write(errorLine(withFlags(response.error), response.code));
    return exitCodeFor(response.code);
  }
}

/**
 * A command that stops before it runs (a usage mistake, a flag it cannot read) still answers the v2 error shape on
 * stdout under `--json` or `--ndjson`, as its failures once running do: a script reading stdout gets JSON either way.
 */
function answerJson(argv: string[], io: CliIo, error: ErrorResponse): void {
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  if (flags.includes('--json')) io.stdout.write(`${JSON.stringify(error, null, 2)}\n`);
  else if (flags.includes('--ndjson')) io.stdout.write(`${JSON.stringify(error)}\n`);
}
