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

/**
 * Reads the pages of `root` (`html/<id>.html.gz`, `ground-truth/<id>.json`) in id order: all, only the ids in a
 * set, or every Nth (`{ every: 25 }` = ids 0, 25, 50, ... of the sorted list; only those files are read).
 */
export function loadWcxbPages(root: string, only?: ReadonlySet<string> | { every: number }): WcxbPage[] {
  const every = only && 'every' in only ? Math.max(1, Math.floor(only.every)) : 1;
  const ids = fs
    .readdirSync(path.join(root, 'html'))
    .filter((f) => f.endsWith('.html.gz'))
    .map((f) => f.slice(0, -'.html.gz'.length))
    .sort()
    .filter((id, i) => (only instanceof Set ? only.has(id) : i % every === 0));
  return ids.map((id) => {
    const html = zlib.gunzipSync(fs.readFileSync(path.join(root, 'html', `${id}.html.gz`))).toString('utf8');
    const gt = JSON.parse(fs.readFileSync(path.join(root, 'ground-truth', `${id}.json`), 'utf8')) as {
      url?: string;
      ground_truth?: { main_content?: string };
      _internal?: { page_type?: { primary?: string } | string };
    };
    const pt = gt._internal?.page_type;
    const type = (typeof pt === 'string' ? pt : pt?.primary) ?? 'article';
    return {
      id,
      url: gt.url ?? `https://example.invalid/${id}`,
      html,
      type: type === 'category' ? 'collection' : type,
      reference: gt.ground_truth?.main_content ?? '',
    };
  });
}
