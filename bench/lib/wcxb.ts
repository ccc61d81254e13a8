// Loads the WCXB dev split (WCXB v1.0 by Murrough Foley, CC-BY-4.0) from the shared datasets folder.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface WcxbPage {
  /** Four-digit file id, e.g. `0001`. */
  id: string;
  /** The page URL as fetched. */
  url: string;
  /** The page HTML (decoded as UTF-8). */
  html: string;
  /** The page type of the ground truth (article, forum, product, collection, listing, documentation, service). */
  type: string;
  /** The reviewed main text of the ground truth. */
  reference: string;
}

/** Which pages to read: all, the ids in a set, every Nth, or the pages of some types (only their HTML is read). */
export type WcxbSelection = ReadonlySet<string> | { every: number; offset?: number } | { types: readonly string[] };

/** The page type of a ground-truth file, as the scorer reads it (`category` is a collection). */
function pageType(gt: { _internal?: { page_type?: { primary?: string } | string } }): string {
  const pt = gt._internal?.page_type;
  const type = (typeof pt === 'string' ? pt : pt?.primary) ?? 'article';
  return type === 'category' ? 'collection' : type;
}

interface GroundTruth {
  url?: string;
  ground_truth?: { main_content?: string };
  _internal?: { page_type?: { primary?: string } | string };
}

/**
 * Reads the pages of `root` (`html/<id>.html.gz`, `ground-truth/<id>.json`) in id order: all, only the ids in a
 * set, every Nth (`{ every: 25 }` = ids 0, 25, 50, ... of the sorted list; `{ every: 25, offset: 12 }` = ids 12, 37,
 * 62, ..., none of them among the first), or the pages of the given types
 * (`{ types: ['product'] }`); only the selected pages' HTML is read.
 */
export function loadWcxbPages(root: string, only?: WcxbSelection): WcxbPage[] {
  const every = only && 'every' in only ? Math.max(1, Math.floor(only.every)) : 1;
  const offset = only && 'every' in only ? (only.offset ?? 0) % every : 0;
  const types = only && 'types' in only ? new Set(only.types) : undefined;
  const ids = fs
    .readdirSync(path.join(root, 'html'))
    .filter((f) => f.endsWith('.html.gz'))
    .map((f) => f.slice(0, -'.html.gz'.length))
    .sort()
    .filter((id, i) => (only instanceof Set ? only.has(id) : i % every === offset));
  const pages: WcxbPage[] = [];
  for (const id of ids) {
    const gt = JSON.parse(fs.readFileSync(path.join(root, 'ground-truth', `${id}.json`), 'utf8')) as GroundTruth;
    const type = pageType(gt);
    if (types && !types.has(type)) continue;
    const html = zlib.gunzipSync(fs.readFileSync(path.join(root, 'html', `${id}.html.gz`))).toString('utf8');
    pages.push({
      id,
      url: gt.url ?? `https://example.invalid/${id}`,
      html,
      type,
      reference: gt.ground_truth?.main_content ?? '',
    });
  }
  return pages;
}
