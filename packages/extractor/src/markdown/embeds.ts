// `MarkdownOptions.embeds`: an embedded frame (a YouTube player, a map, a podcast widget) and a `<video>` or
// `<audio>` written as a link line, where upstream's markdown leaves them out.
import type { Capture } from './capture.js';
import type { Container } from './container.js';
import { collapseWhitespace, escapeText } from './escape.js';
import { formatDestination, type UrlResolver } from './urls.js';

/** A URL a link line may point to: not empty, not `javascript:`, not a `blob:` or `data:` only the page can read. */
const LINKABLE = /^(?!\s*(?:javascript|blob|data|about):)\s*\S/i;

/**
 * Collects an embed's element (a player's `<source src>` children come after its start tag) and writes its link
 * line when it ends: `[label](src)`, the label the element's `title` or `aria-label`, else the URL's file name (a
 * player) or host (a frame).
 */
export class EmbedCapture implements Capture {
  readonly #name: string;
  readonly #attribs: Record<string, string>;
  readonly #urls: UrlResolver;
  readonly #pageUrl: string | undefined;
  #src: string | undefined;
  #depth = 0;

  constructor(name: string, attribs: Record<string, string>, urls: UrlResolver, pageUrl: string | undefined) {
    this.#name = name;
    this.#attribs = attribs;
    this.#urls = urls;
    this.#pageUrl = pageUrl;
    const src = attribs.src?.trim();
    if (src && LINKABLE.test(src)) this.#src = src;
  }

  open(name: string, attribs: Record<string, string>): boolean {
    if (name === this.#name) this.#depth++;
    const src = attribs.src?.trim();
    if (name === 'source' && this.#src === undefined && src && LINKABLE.test(src)) this.#src = src;
    return name !== 'source' && name !== 'track';
  }

  text(): void {}

  close(name: string): boolean {
    if (name !== this.#name) return false;
    return this.#depth-- === 0;
  }

  /** Writes the link line into `cur` (nothing when no source was found). */
  write(cur: Container): void {
    if (this.#src === undefined) return;
    const url = this.#absolute(this.#urls.resolve(this.#src));
    const label =
      collapseWhitespace(this.#attribs.title ?? this.#attribs['aria-label'] ?? '').trim() || this.#fallback(url);
    const line = `[${escapeText(label, '[', true, ']')}](${formatDestination(url)})`;
    if (cur.inlineOnly) cur.raw(line, true, true);
    else cur.pushBlock({ kind: 'other', text: line });
  }

  /** `url` made absolute against the page's URL (an attribute the URL pass left relative). */
  #absolute(url: string): string {
    try {
      return new URL(url, this.#pageUrl).href;
    } catch {
      return url;
    }
  }

  #fallback(url: string): string {
    try {
      const parsed = new URL(url);
      if (this.#name === 'iframe') return parsed.host;
      return decodeURIComponent(parsed.pathname.split('/').pop() ?? '') || parsed.host;
    } catch {
      return url;
    }
  }
}
