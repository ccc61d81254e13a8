import * as fs from 'node:fs/promises';
import { join } from 'node:path';

import { readCaptureUrl } from '@crawlkit/actions/capture-url';
import { redactUrl } from '@crawlkit/fetcher/analysis';

import type { Document, ErrorResponse } from '../v2/types.js';
import { outputUnwritable } from './errors.js';

/**
 * The directory's writes, a failure told as `OUTPUT_UNWRITABLE` naming the file (a full disk, a folder removed), where
 * it was the file system's bare error, answered as `UNKNOWN_ERROR`.
 */
function unwritable(path: string): (error: unknown) => never {
  return (error) => {
    throw outputUnwritable(`--out could not be written: ${path}`, error);
  };
}
const writeFile = (path: string, data: string | Uint8Array): Promise<void> =>
  fs.writeFile(path, data).catch(unwritable(path));
const rename = (from: string, to: string): Promise<void> => fs.rename(from, to).catch(unwritable(to));
const mkdir = (dir: string): Promise<void> => fs.mkdir(dir, { recursive: true }).then(() => undefined, unwritable(dir));

/** One page of `manifest.json`. */
export interface ManifestPage {
  url: string;
  finalUrl?: string;
  statusCode: number;
  title?: string;
  /** File names (relative to the directory) by format. */
  files: Record<string, string>;
}

/** `manifest.json` of an `--out` directory. */
export interface Manifest {
  tool: 'crawlkit';
  version: string;
  command: string;
  input: string | string[];
  jobId?: string;
  status: string;
  startedAt: string;
  finishedAt?: string;
  total?: number;
  completed?: number;
  creditsUsed?: number;
  pages: ManifestPage[];
  /** A batch's lines skipped as invalid URLs (`--ignore-invalid-urls`), as they were written. */
  invalidURLs?: string[];
  /** What the job's status warned of (a robots.txt or sitemap it could not read, pages robots.txt disallowed). */
  warning?: string;
  /** A crawl's pages that robots.txt disallowed, not crawled (`getCrawlErrors`' `robotsBlocked`). */
  robotsBlocked?: string[];
  /** Pages that failed; `files` holds the evidence of a failed action (its screenshots, the page when it failed). */
  errors: { url: string; code?: string; error: string; files?: Record<string, string> }[];
}

/** Text formats, each written to its own file: [document key, file suffix]. */
const TEXT_FILES: [keyof Document, string][] = [
  ['markdown', '.md'],
  ['summary', '.summary.md'],
  ['html', '.html'],
  ['rawHtml', '.raw.html'],
];

const FILE_TYPES: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'application/pdf': '.pdf',
};

/** Longest slug, in UTF-8 bytes: room left for a suffix and a `-2` under the 255 bytes of a file name. */
const SLUG_BYTES = 120;

// Made when a slug is cut: building ICU's grapheme breaker costs ~20 ms, which every page command paid at start.
let graphemes: Intl.Segmenter | undefined;

/**
 * `/docs/getting-started.html?x=1` → `docs-getting-started-x-1`; `/` → `index`. The path is read as it is written
 * (percent-encoding undone, so `/wiki/%E6%97%A5%E6%9C%AC` → `wiki-日本`): letters, their marks and digits of any
 * script are kept, anything else becomes `-`, cut to whole characters within 120 bytes.
 */
export function pathSlug(url: string): string {
  let path: string;
  try {
    const u = new URL(url);
    path = `${u.pathname.replace(/\.html?$/, '')}${u.search}`;
  } catch {
    path = url;
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // percent-encoding of another charset than UTF-8: its bytes stay as they are written
  }
  const words = path
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  if (Buffer.byteLength(words) <= SLUG_BYTES) return words || 'index';
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let slug = '';
  let bytes = 0;
  for (const { segment } of graphemes.segment(words)) {
    bytes += Buffer.byteLength(segment);
    if (bytes > SLUG_BYTES) break;
    slug += segment;
  }
  return slug.replace(/-+$/, '') || 'index';
}

/** A screenshot's or a PDF's `data:` URL as its bytes and file suffix. */
function decodeFile(value: string): { bytes: Buffer; suffix: string } | undefined {
  const capture = readCaptureUrl(value);
  if (!capture) return undefined;
  return { bytes: Buffer.from(capture.base64, 'base64'), suffix: FILE_TYPES[capture.mimeType] ?? '.img' };
}

/**
 * Writes each page as one file per format (`<path-slug>.md`, `.html`, `.raw.html`, `.summary.md`, screenshots as
 * images, the actions' screenshots and PDFs, and `.json` with everything else: metadata, links, images, json, change
 * tracking, the other action results) plus `manifest.json`.
 */
export class OutDir {
  readonly #dir: string;
  readonly #manifest: Manifest;
  /** The slugs taken; `manifest` is the run's own (a page at `/manifest` is `manifest-2`, not `manifest.json`). */
  readonly #slugs = new Set<string>(['manifest']);
  readonly #seen = new Map<string, { index: number; slug: string }>();
  #ready: Promise<void> | undefined;
  #lastManifestWrite = 0;

  constructor(dir: string, manifest: Omit<Manifest, 'pages' | 'errors' | 'tool'>) {
    this.#dir = dir;
    // The command line's URLs may carry a password: the manifest names them without it.
    const input =
      typeof manifest.input === 'string' ? redactUrl(manifest.input) : manifest.input.map((u) => redactUrl(u));
    this.#manifest = { tool: 'crawlkit', ...manifest, input, pages: [], errors: [] };
  }

  get manifest(): Readonly<Manifest> {
    return this.#manifest;
  }

  /** Writes the files of one page. A page seen again (a resumed job replays its results) keeps its file names. */
  async page(document: Document): Promise<void> {
    await (this.#ready ??= mkdir(this.#dir));
    const url = document.metadata.sourceURL;
    const known = this.#seen.get(url);
    const slug = known?.slug ?? this.#uniqueSlug(pathSlug(url));
    const files: Record<string, string> = {};
    const rest: Record<string, unknown> = { ...document };

    for (const [key, suffix] of TEXT_FILES) {
      const value = document[key];
      if (typeof value !== 'string') continue;
      files[key] = `${slug}${suffix}`;
      await writeFile(join(this.#dir, files[key]), value);
      delete rest[key];
    }
    if (document.screenshot) {
      const image = decodeFile(document.screenshot);
      if (image) {
        files.screenshot = `${slug}${image.suffix}`;
        await writeFile(join(this.#dir, files.screenshot), image.bytes);
        delete rest.screenshot;
      }
    }
    if (document.actions) rest.actions = await this.#actionFiles(document.actions, slug, files);
    files.json = `${slug}.json`;
    await writeFile(join(this.#dir, files.json), `${JSON.stringify(rest, null, 2)}\n`);

    const title = document.metadata.title;
    const entry: ManifestPage = {
      url,
      ...(document.metadata.url ? { finalUrl: document.metadata.url } : {}),
      statusCode: document.metadata.statusCode,
      ...(title !== undefined ? { title: Array.isArray(title) ? title.join(' ') : title } : {}),
      files,
    };
    if (known) this.#manifest.pages[known.index] = entry;
    else {
      this.#seen.set(url, { index: this.#manifest.pages.length, slug });
      this.#manifest.pages.push(entry);
    }
    // Keep the manifest current (at most once a second) so that a killed run still leaves one.
    if (Date.now() - this.#lastManifestWrite > 1000) await this.writeManifest();
  }

  /**
   * Records a page that failed. A failed action's evidence (`details` of `SCRAPE_ACTION_ERROR` or `SCRAPE_TIMEOUT`:
   * the screenshots and PDFs of the actions before it, the page when it failed) is written as files, as a page's
   * are (`<slug>.action-<n>.png`, `<slug>.failed.png`), and the error with the rest as `<slug>.error.json`.
   * Answers whether files were written.
   */
  async failure(url: string, error: ErrorResponse): Promise<boolean> {
    const entry: Manifest['errors'][number] = {
      url: redactUrl(url),
      ...(error.code ? { code: error.code } : {}),
      error: error.error,
    };
    this.#manifest.errors.push(entry);
    const details = error.details as { actions?: Document['actions']; screenshot?: unknown } | undefined;
    if (typeof details !== 'object' || details === null || details.actions === undefined) return false;
    await (this.#ready ??= mkdir(this.#dir));
    const slug = this.#uniqueSlug(pathSlug(url));
    const files: Record<string, string> = {};
    const rest: Record<string, unknown> = {
      ...details,
      actions: await this.#actionFiles(details.actions, slug, files),
    };
    const shot = typeof details.screenshot === 'string' ? decodeFile(details.screenshot) : undefined;
    if (shot) {
      files['details.screenshot'] = `${slug}.failed${shot.suffix}`;
      await writeFile(join(this.#dir, files['details.screenshot']), shot.bytes);
      delete rest.screenshot;
    }
    files.json = `${slug}.error.json`;
    await writeFile(join(this.#dir, files.json), `${JSON.stringify({ ...error, details: rest }, null, 2)}\n`);
    entry.files = files;
    return true;
  }

  /** Records the final state and writes `manifest.json`. */
  async finish(patch: Partial<Manifest>): Promise<void> {
    Object.assign(this.#manifest, patch);
    await this.writeManifest();
  }

  async writeManifest(): Promise<void> {
    await (this.#ready ??= mkdir(this.#dir));
    this.#lastManifestWrite = Date.now();
    const path = join(this.#dir, 'manifest.json');
    // Written beside and renamed, so a reader never sees half a manifest.
    await writeFile(`${path}.tmp`, `${JSON.stringify(this.#manifest, null, 2)}\n`);
    await rename(`${path}.tmp`, path);
  }

  /**
   * Writes the screenshots and PDFs of the page's actions (`<slug>.action-<n>.png`, `.pdf`) into `files`; answers the
   * actions left for the `.json` (those written are not repeated there in base64).
   */
  async #actionFiles(
    actions: NonNullable<Document['actions']>,
    slug: string,
    files: Record<string, string>,
  ): Promise<Document['actions'] | undefined> {
    const left: Record<string, unknown> = { ...actions };
    for (const key of ['screenshots', 'pdfs'] as const) {
      const kept: string[] = [];
      for (const [i, value] of (actions[key] ?? []).entries()) {
        const file = decodeFile(value);
        if (!file) {
          kept.push(value);
          continue;
        }
        files[`actions.${key}.${i}`] = `${slug}.action-${i + 1}${file.suffix}`;
        await writeFile(join(this.#dir, files[`actions.${key}.${i}`]!), file.bytes);
      }
      if (kept.length) left[key] = kept;
      else delete left[key];
    }
    return Object.keys(left).length ? left : undefined;
  }

  #uniqueSlug(base: string): string {
    let slug = base;
    for (let n = 2; this.#slugs.has(slug); n++) slug = `${base}-${n}`;
    this.#slugs.add(slug);
    return slug;
  }
}
