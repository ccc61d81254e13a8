import { imageSource } from '../dom/lazy-images.js';
import { collapseWhitespace, escapeText } from './escape.js';
import { formatDestination, formatTitle, type UrlResolver } from './urls.js';

/** What a base64 image's URL becomes with `removeBase64Images` (reference §10.6). */
const BASE64_REMOVED = '<Base64-Image-Removed>';

/** A `data:` image URL as written: the placeholder for a base64 one when `removeBase64Images`, else itself. */
export function dataImage(url: string, removeBase64Images: boolean): string {
  const comma = url.indexOf(',');
  const base64 = comma > 0 && /;base64$/i.test(url.slice(0, comma));
  return base64 && removeBase64Images ? BASE64_REMOVED : url;
}

/** An `<img>` as `![alt](src "title")`; undefined when it has no source. */
export function imageMarkdown(
  attribs: Record<string, string>,
  urls: UrlResolver,
  removeBase64Images: boolean,
): string | undefined {
  const src = imageSource(attribs);
  if (!src) return undefined;
  const data = /^data:/i.test(src) ? dataImage(src, removeBase64Images) : undefined;
  const destination = data === BASE64_REMOVED ? data : formatDestination(data ?? urls.resolve(src));
  // escaped as link text is, between the `[` and `]` around it: an alt's `*`, `_` or backticks are its own characters
  const alt = attribs.alt ? escapeText(collapseWhitespace(attribs.alt).trim(), '[', true, ']') : '';
  return `![${alt}](${destination}${formatTitle(attribs.title)})`;
}
