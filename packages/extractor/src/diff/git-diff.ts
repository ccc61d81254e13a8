import { lazyModule } from '@crawlkit/options/lazy-module';

/** The `diff` library: loaded with the first diff (only `changeTracking` with `git-diff` needs it). */
const diffLibrary = lazyModule(() => import('diff'));

/** One line of a hunk, as the v2 `changeTracking.diff.json` has it. */
export interface DiffChange {
  /** `'add'`, `'del'` or `'normal'` (context). */
  type: 'add' | 'del' | 'normal';
  add?: true;
  del?: true;
  normal?: true;
  /** Line number in the version the line belongs to (added: current, deleted: previous). */
  ln?: number;
  /** Context lines: line number in the previous version. */
  ln1?: number;
  /** Context lines: line number in the current version. */
  ln2?: number;
  /** The line with its `+`, `-` or ` ` prefix. */
  content: string;
}

export interface DiffChunk {
  /** The hunk header, `@@ -a,b +c,d @@`. */
  content: string;
  changes: DiffChange[];
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export interface DiffFile {
  from: string | null;
  to: string | null;
  chunks: DiffChunk[];
  additions: number;
  deletions: number;
}

/** `changeTracking.diff`: a git-style unified diff and the same diff as data. */
export interface MarkdownDiff {
  text: string;
  json: { files: DiffFile[] };
}

export interface MarkdownDiffOptions {
  /**
   * File name shown in the diff headers (`diff --git a/<name> b/<name>`).
   * @default 'page.md'
   */
  fileName?: string;
  /**
   * Unchanged lines kept around each change.
   * @default 3
   */
  context?: number;
}

const withNewline = (text: string) => (text.endsWith('\n') || text === '' ? text : `${text}\n`);

/**
 * A git-style unified diff of two markdown versions (line-based, through the `diff` library) and its parsed form:
 * files, chunks (hunks) and changes with line numbers, in the shape v2 returns as `changeTracking.diff.json`.
 * Both versions are given a final newline so that a missing one is not reported as a change.
 */
export async function diffMarkdown(
  previous: string,
  current: string,
  options: MarkdownDiffOptions = {},
): Promise<MarkdownDiff> {
  const { formatPatch, structuredPatch } = await diffLibrary();
  const name = options.fileName ?? 'page.md';
  const patch = structuredPatch(
    `a/${name}`,
    `b/${name}`,
    withNewline(previous),
    withNewline(current),
    undefined,
    undefined,
    { context: options.context ?? 3 },
  );
  if (patch.hunks.length === 0) return { text: '', json: { files: [] } };
  const text = formatPatch({ ...patch, isGit: true });

  // Hunk headers as the library formats them (it has its own convention for empty ranges).
  const headers = text.split('\n').filter((line) => line.startsWith('@@'));
  let additions = 0;
  let deletions = 0;
  const chunks = patch.hunks.map((hunk, index): DiffChunk => {
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    const changes: DiffChange[] = [];
    for (const line of hunk.lines) {
      const mark = line[0];
      if (mark === '+') {
        changes.push({ type: 'add', add: true, ln: newLine++, content: line });
        additions++;
      } else if (mark === '-') {
        changes.push({ type: 'del', del: true, ln: oldLine++, content: line });
        deletions++;
      } else if (mark === ' ') {
        changes.push({ type: 'normal', normal: true, ln1: oldLine++, ln2: newLine++, content: line });
      }
      // `\ No newline at end of file` cannot occur: both versions end with a newline.
    }
    return {
      content: headers[index] ?? `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
      changes,
      oldStart: hunk.oldStart,
      oldLines: hunk.oldLines,
      newStart: hunk.newStart,
      newLines: hunk.newLines,
    };
  });
  return { text, json: { files: [{ from: name, to: name, chunks, additions, deletions }] } };
}
