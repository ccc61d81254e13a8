/**
 * Type-checks the ```ts blocks of the READMEs as a user's modules: one program over in-memory files placed at the
 * repository's root, with the repository's `tsconfig.json` (strict, NodeNext), `crawlkit` and `@crawlkit/*` resolved
 * to the packages' built declarations (`dist/*.d.ts`, what an install ships): run `ensureBuilt()` first.
 */
import { join } from 'node:path';

import ts from 'typescript';

import type { CodeBlock } from './readme-blocks.ts';

interface Part {
  text: string;
  /** The README line of the part's first line. */
  line: number;
}

export interface SnippetModule {
  file: string;
  /** The README line of the module's first block. */
  line: number;
  parts: Part[];
}

export interface SnippetProblem {
  /** `README.md:57`: where to fix it. */
  where: string;
  message: string;
}

/** The modules the ```ts blocks make: one per block, or with the blocks that continue it. */
export function snippetModules(blocks: CodeBlock[]): SnippetModule[] {
  const modules: SnippetModule[] = [];
  const last = new Map<string, SnippetModule>();
  for (const block of blocks) {
    if (block.lang !== 'ts' || block.skip !== undefined) continue;
    const previous = last.get(block.file);
    if (block.continues && !previous) throw new Error(`${block.file}:${block.line}: continues no earlier ts block`);
    const module = block.continues ? previous! : { file: block.file, line: block.line, parts: [] };
    // The hidden declarations come first in the module, so a continued block may declare what it takes too.
    module.parts.unshift(...block.given.map((text) => ({ text, line: block.line - 1 })));
    module.parts.push({ text: block.code, line: block.line });
    if (!block.continues) modules.push(module);
    last.set(block.file, module);
  }
  return modules;
}

function compilerOptions(root: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json could not be read');
  // The packages' built declarations, as a user's install has them (and twice as fast to load as their sources).
  const paths = Object.fromEntries(
    Object.entries(parsed.options.paths ?? {}).map(([name, targets]) => [
      name,
      targets.map((target) => target.replace('/src/', '/dist/').replace(/\.ts$/, '.d.ts')),
    ]),
  );
  // Each snippet is a module of its own even with no import, so their top-level names never meet.
  return { ...parsed.options, paths, noEmit: true, moduleDetection: ts.ModuleDetectionKind.Force };
}

/** Type-checks `modules` in one program; answers each error with its README line and TypeScript's message. */
export function typecheckSnippets(root: string, modules: SnippetModule[]): SnippetProblem[] {
  const sources = new Map<string, { text: string; module: SnippetModule; starts: number[] }>();
  modules.forEach((module, index) => {
    const slug = module.file.replaceAll('/', '-').replace(/\.md$/, '');
    const path = join(root, 'test', `.readme-snippet-${index}-${slug}-L${module.line}.ts`);
    const starts: number[] = [];
    let lineCount = 0;
    for (const part of module.parts) {
      starts.push(lineCount);
      lineCount += part.text.split('\n').length;
    }
    sources.set(path, { text: module.parts.map((part) => part.text).join('\n'), module, starts });
  });

  const options = compilerOptions(root);
  const host = ts.createCompilerHost(options, true);
  const real = { ...host };
  host.fileExists = (name) => sources.has(name) || real.fileExists(name);
  host.readFile = (name) => sources.get(name)?.text ?? real.readFile(name);
  host.getSourceFile = (name, language, onError, create) => {
    const source = sources.get(name);
    return source
      ? ts.createSourceFile(name, source.text, language, true)
      : real.getSourceFile(name, language, onError, create);
  };
  const program = ts.createProgram({ rootNames: [...sources.keys()], options, host });

  const problems: SnippetProblem[] = [];
  for (const [path, { module, starts }] of sources) {
    const file = program.getSourceFile(path)!;
    const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    for (const diagnostic of diagnostics) {
      const at = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
      let index = starts.length - 1;
      while (index > 0 && starts[index]! > at) index--;
      const part = module.parts[index]!;
      problems.push({
        where: `${module.file}:${part.line + at - starts[index]!}`,
        message: `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
      });
    }
  }
  return problems;
}
