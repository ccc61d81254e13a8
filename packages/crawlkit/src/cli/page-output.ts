import type { Document } from '../v2/types.js';
import type { CommandContext } from './context.js';
import type { OutDir } from './out-dir.js';

/** The text a page prints as in the default mode: its markdown, else the first other format it has. */
export function pageText(document: Document): string {
  if (typeof document.markdown === 'string') return document.markdown;
  if (typeof document.summary === 'string') return document.summary;
  if (typeof document.html === 'string') return document.html;
  if (typeof document.rawHtml === 'string') return document.rawHtml;
  if (document.links) return document.links.join('\n');
  if (document.images) return document.images.join('\n');
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
    if (this.#outDir) await this.#outDir.page(document);
    const mode = this.#ctx.mode;
    if (mode === 'json') this.documents.push(document);
    else if (mode === 'ndjson') this.#ctx.write(`${JSON.stringify(document)}\n`);
    else if (!this.#outDir) {
      const text = pageText(document).replace(/\n*$/, '\n');
      this.#ctx.write(this.#multi ? `<!-- ${document.metadata.sourceURL} -->\n\n${text}\n` : text);
    }
  }
}
