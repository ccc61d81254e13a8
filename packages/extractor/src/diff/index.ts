export { comparableText, isSameText } from './comparable-text.js';
export { diffMarkdown } from './git-diff.js';
export type { DiffChange, DiffChunk, DiffFile, MarkdownDiff, MarkdownDiffOptions } from './git-diff.js';
