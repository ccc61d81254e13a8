import type { Document } from '../v2/types.js';
import type { CommandContext } from './context.js';
import type { OutDir } from './out-dir.js';

/** Fields of a document that are not a format's output: they never decide how a page prints. */
const NOT_OUTPUTS = new Set(['metadata', 'warning', 'actions']);

/**
 * The text a page prints as in the default mode. One format prints as itself (markdown, a summary, html, links one a
 * line…); several print as the page's JSON, as firecrawl-cli does, so that none is left out.
 */
export function pageText(document: Document): string {
  const outputs = Object.entries(document).filter(([key, value]) => !NOT_OUTPUTS.has(key) && value !== undefined);
  const [only] = outputs.length === 1 ? outputs : [];
  if (only) {
    const [, value] = only;
    if (typeof value === 'string' && only[0] !== 'screenshot' && only[0] !== 'rawBase64') return value;
    if ((only[0] === 'links' || only[0] === 'images') && Array.isArray(value)) return value.join('\n');
    if (only[0] === 'json') return JSON.stringify(value, null, 2);
  }
  return JSON.stringify(document, null, 2);
}

/**
 * Sends pages where the flags say: stdout as text (markdown), as NDJSON (one document a line, as they come), or
 * collected for one JSON at the end; and to the `--out` directory.
 */
export class PageOutput {
  readonly #ctx: CommandContext;
  readonly #multi: boolean;
  readonly #outDir: OutDir | undefined;
  readonly documents: Document[] = [];

  constructor(ctx: CommandContext, options: { multi: boolean; outDir?: OutDir }) {
    this.#ctx = ctx;
    this.#multi = options.multi;
    this.#outDir = options.outDir;
  }

  async page(document: Document): Promise<void> {
    await this.file(document);
    const mode = this.#ctx.mode;
    if (mode === 'json') this.documents.push(document);
    else if (mode === 'ndjson') await this.#ctx.writeFlushed(`${JSON.stringify(document)}\n`);
    else if (!this.#outDir) {
      const text = pageText(document).replace(/\n*$/, '\n');
      await this.#ctx.writeFlushed(this.#multi ? `<!-- ${document.metadata.sourceURL} -->\n\n${text}\n` : text);
    }
  }

  /** Writes a page to the `--out` directory only (a resumed job's earlier page: stdout had it from the first run). */
  async file(document: Document): Promise<void> {
    if (this.#outDir) await this.#outDir.page(document);
  }
}
