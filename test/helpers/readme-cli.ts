/**
 * Checks the `crawlkit ...` command lines of the READMEs' ```sh blocks (and of an MCP client config's `args`) against
 * the CLI's own Commander program, without running anything: the command exists, Commander's parser knows every
 * flag, and the arguments fill what the command declares.
 */
import { PassThrough } from 'node:stream';

import { createProgram } from '../../packages/crawlkit/src/cli/program.ts';

/** Commander's `Command` (commander is the crawlkit package's dependency, not the root's). */
type Command = ReturnType<typeof createProgram>;

/**
 * The words of each command of a shell line, quotes removed; `#` starts a comment outside quotes. Enough for README
 * lines. In a usage `synopsis`, the brackets of optional parts are dropped.
 */
export function shellWords(line: string, synopsis = false): string[][] {
  const commands: string[][] = [[]];
  let word: string | undefined;
  let quote: string | undefined;
  const end = () => {
    if (word !== undefined) commands.at(-1)!.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else word = (word ?? '') + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (char === '#' && word === undefined) {
      break;
    } else if (/\s/.test(char)) {
      end();
    } else if ('|;&'.includes(char)) {
      end();
      if (line[i + 1] === char) i++;
      commands.push([]);
    } else if (synopsis && (char === '[' || char === ']')) {
      end();
    } else if (char === '<' && /^<[^<>\s]+>/.test(line.slice(i))) {
      // A placeholder (`<id>`), not a redirection.
      const placeholder = /^<[^<>\s]+>/.exec(line.slice(i))![0];
      word = (word ?? '') + placeholder;
      i += placeholder.length - 1;
    } else if (char === '>' || char === '<') {
      end();
      // A redirection's target is not an argument.
      while (line[i + 1] === ' ' || line[i + 1] === '>') i++;
      while (i + 1 < line.length && !/\s/.test(line[i + 1]!)) i++;
    } else {
      word = (word ?? '') + char;
    }
  }
  end();
  return commands.filter((words) => words.length > 0);
}

/** The arguments after `crawlkit` of each command of the line that runs it (`pnpm crawlkit`, `VAR=x crawlkit`, …). */
export function crawlkitInvocations(line: string, synopsis = false): string[][] {
  return shellWords(line, synopsis).flatMap((words) => {
    const at = words.findIndex((word) => word === 'crawlkit' || word.endsWith('/.bin/crawlkit'));
    const before = words.slice(0, Math.max(at, 0));
    const launcher = before.every((word) => /^\w+=/.test(word) || ['pnpm', 'npx', 'exec', 'sudo'].includes(word));
    return at >= 0 && launcher ? [words.slice(at + 1)] : [];
  });
}

let program: Command | undefined;

function crawlkitProgram(): Command {
  const sink = new PassThrough();
  sink.resume();
  const io = { stdout: sink, stderr: sink as unknown as NodeJS.WriteStream, stdin: new PassThrough() };
  program ??= createProgram(io, new AbortController().signal, () => {});
  return program;
}

/** What is wrong with `crawlkit <args>` for the CLI's parser, or undefined. */
export function cliProblem(args: string[]): string | undefined {
  const root = crawlkitProgram();
  if (args.length === 0) return 'no command';
  if (args.length === 1 && ['--help', '-h', '--version', '-v'].includes(args[0]!)) return undefined;
  const [name, ...rest] = args;
  const command = root.commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name!));
  if (!command) return `unknown command "${name}" (the CLI has ${root.commands.map((c) => c.name()).join(', ')})`;
  if (rest.includes('--help') || rest.includes('-h')) return undefined;
  let parsed: { operands: string[]; unknown: string[] };
  try {
    parsed = command.parseOptions(rest);
  } catch (error) {
    return `crawlkit ${name}: ${(error as Error).message}`;
  }
  const { operands, unknown } = parsed;
  if (unknown.length > 0) return `crawlkit ${name} does not know the option ${unknown[0]}`;
  const declared = command.registeredArguments;
  const required = declared.filter((argument) => argument.required).length;
  if (operands.length < required) return `crawlkit ${name} needs ${required} argument(s), got ${operands.length}`;
  if (!declared.at(-1)?.variadic && operands.length > declared.length) {
    return `crawlkit ${name} takes ${declared.length} argument(s), got ${operands.length}: ${operands.join(' ')}`;
  }
  return undefined;
}
