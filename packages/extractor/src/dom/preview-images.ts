// A progressive loader's blurred preview beside the image it stands for (Medium's `max/60/…?q=20` under the
// `max/1400/…` photo, a CDN's `w_60,e_blur` under its `w_1200`): two `<img>`s of the same file in one frame without
// text. A reader sees one picture, so the markdown and `images` keep one: the later, which a loader lays over the
// preview. Runs once before the main content, after the `<noscript>` copies stood in (`noscript-images.ts`).
import { isTag, type AnyNode, type Element, type ParentNode } from 'domhandler';

import { imageSource, imageSrcset } from './lazy-images.js';
import { parseSrcset } from './urls.js';
import { detachAll, elements, hasText } from './walk.js';

/** The most elements a frame may hold and still show one picture (Medium's holds 5 with its noscript copy). */
const SMALL_FRAME = 12;

/** Elements that make each image an item of its own (a gallery's links, a list's items, figures). */
const ITEM_TAGS: ReadonlySet<string> = new Set(['a', 'li', 'figure', 'button']);

interface ImageFile {
  /** The URL as the page wrote it. */
  url: string;
  host: string;
  dirs: string[];
  /** The last path segment, lower-cased: a file name with an extension. */
  file: string;
}

/** The host, directories and file name of the URL an `<img>` shows, when it names a file (`photo.jpeg`). */
function fileOf(img: Element): ImageFile | undefined {
  const srcset = imageSrcset(img.attribs);
  const url = imageSource(img.attribs) ?? (srcset ? parseSrcset(srcset)[0]?.url : undefined);
  if (!url || /^(?:data|blob):/i.test(url)) return undefined;
  const match = /^(?:[a-z][\w+.-]*:)?(\/\/[^/?#]*)?([^?#]*)/i.exec(url.trim());
  const segments = (match?.[2] ?? '').split('/').filter((s) => s !== '');
  const file = segments.pop()?.toLowerCase();
  if (!file || !/\.[a-z0-9]{2,5}$/.test(file)) return undefined;
  return { url: url.trim(), host: (match?.[1] ?? '').toLowerCase(), dirs: segments, file };
}

/**
 * Whether two URLs show the same picture at two sizes: one host and file name, directories that differ only where
 * both hold a number (a width, a quality: `max/60` and `max/1400`, `w_60,e_blur` and `w_1200`), read from the file
 * name back (a preview may sit under one more directory: `freeze/max/60`); queries may differ.
 */
function sameFile(a: ImageFile, b: ImageFile): boolean {
  // one URL twice is the page's own repetition (a rating's stars), not a preview
  if (a.url === b.url || a.host !== b.host || a.file !== b.file) return false;
  const shared = Math.min(a.dirs.length, b.dirs.length);
  for (let i = 1; i <= shared; i++) {
    const [x, y] = [a.dirs[a.dirs.length - i]!, b.dirs[b.dirs.length - i]!];
    if (x !== y && !(/\d/.test(x) && /\d/.test(y))) return false;
  }
  return true;
}

/** The nearest element holding both, when it is a small frame without text and neither image is an item of its own. */
function sharedFrame(a: Element, b: Element): Element | undefined {
  const above = new Set<ParentNode>();
  for (let p = a.parent; p; p = p.parent) above.add(p);
  let frame: ParentNode | null = b.parent;
  while (frame && !above.has(frame)) frame = frame.parent;
  if (!frame || !isTag(frame)) return undefined;
  for (const img of [a, b])
    for (let p = img.parent; p && p !== frame; p = p.parent) if (isTag(p) && ITEM_TAGS.has(p.name)) return undefined;
  let count = 0;
  for (const _ of elements(frame)) if (++count > SMALL_FRAME) return undefined;
  return hasText(frame) ? undefined : frame;
}

/**
 * The shown `<img>`s under `root` in document order. A `<noscript>` copy left beside an image with a source of its
 * own is never shown (the cleaning drops it), so no `<noscript>` is entered. A plain stack walk: this runs on every
 * page, and the generator of `elements` took 1.6 times as long here (WCXB dev, warm: 0.15 against 0.09 ms a page).
 */
function shownImages(root: ParentNode): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node) || node.name === 'noscript') continue;
    if (node.name === 'img') out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

/** Removes each image that an image of the same file after it in a small frame without text covers; how many. */
export function dropPreviewImages(root: ParentNode): number {
  const byFile = new Map<string, { img: Element; file: ImageFile }[]>();
  for (const img of shownImages(root)) {
    const file = fileOf(img);
    if (!file) continue;
    const key = `${file.host}/${file.file}`;
    const list = byFile.get(key);
    if (list) list.push({ img, file });
    else byFile.set(key, [{ img, file }]);
  }
  const previews: Element[] = [];
  for (const list of byFile.values()) {
    for (let i = 0; i + 1 < list.length; i++) {
      const [a, b] = [list[i]!, list[i + 1]!];
      if (!sameFile(a.file, b.file) || !sharedFrame(a.img, b.img)) continue;
      previews.push(a.img);
      // the preview's alt is the page's text for the picture when the image has none
      if (!b.img.attribs.alt && a.img.attribs.alt) b.img.attribs.alt = a.img.attribs.alt;
    }
  }
  detachAll(previews);
  return previews.length;
}
