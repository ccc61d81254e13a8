import { isTag, type Document, type Element } from 'domhandler';
import render from 'dom-serializer';

import { extractAttributes, type AttributeSelector, type AttributeValues } from './attributes.js';
import {
  absolutize,
  discoveryLinks,
  excludesBeforeMain,
  removeExcluded,
  removeUnwanted,
  selectIncluded,
} from './clean/transform.js';
import { removeBoilerplate } from './clean/boilerplate.js';
import { dropOrphanPunctuation } from './clean/orphan-punctuation.js';
import { findMainContent } from './content/index.js';
import { canonicalOf } from './dom/canonical.js';
import { standInNoscriptImages } from './dom/noscript-images.js';
import { fillPictureImages } from './dom/picture-sources.js';
import { dropPreviewImages } from './dom/preview-images.js';
import { parseHtml } from './dom/parse.js';
import { baseUrlOf } from './dom/urls.js';
import { htmlToMarkdown } from './markdown/index.js';
import { extractMetadata, type PageMetadata } from './metadata.js';
import { contentFrames, namedFrames } from './content-frames.js';
import { frameWarning, isPageWarning, pageWarning, type ExtractionWarning } from './page-warnings.js';

export { EMPTY_MAIN_WARNING, WHOLE_PAGE_WARNING } from './page-warnings.js';

export interface ExtractPageOptions {
  /** Final page URL (after redirects): the base for relative URLs, unless the page has a `<base href>`. */
  url: string;
  /**
   * The document's character encoding (its WHATWG name, as the fetch decoded it: `windows-1252`, `shift_jis`): a
   * browser percent-encodes the non-ASCII characters of a link's query in it, so links, images and crawl discovery
   * ask the server for what a browser asks (`?q=Müller` is `?q=M%FCller` on a windows-1252 page).
   * @default 'utf-8'
   */
  encoding?: string;
  /**
   * The response's `Content-Language` header: the page's `metadata.language` when neither its `<html lang>` nor a
   * `<meta http-equiv="content-language">` names one (the HTML standard's order), if it names a single language.
   */
  contentLanguage?: string;
  /** Keep only the main content. @default true */
  onlyMainContent?: boolean;
  /** CSS selectors: keep only the matching elements (already iframe-rewritten by the caller). */
  includeTags?: string[];
  /** CSS selectors: remove the matching elements. */
  excludeTags?: string[];
  /** Replace `data:` image URLs in the markdown with a placeholder (reference §10.6). @default true */
  removeBase64Images?: boolean;
  /** Markdown in raw-HTML mode (`MarkdownOptions.rawHtml`). @default false */
  markdownRawHtml?: boolean;
  /**
   * Keep figure captions in the main content, written as an italic line under the image (`MarkdownOptions.captions`).
   * @default false
   */
  markdownCaptions?: boolean;
  /**
   * Write an `<iframe src>`, a `<video>` and an `<audio>` as a link line, kept in the main content
   * (`MarkdownOptions.embeds`).
   * @default false
   */
  markdownEmbeds?: boolean;
  /** Which outputs to compute; the others cost nothing. */
  formats: {
    markdown?: boolean;
    html?: boolean;
    links?: boolean;
    images?: boolean;
    metadata?: boolean;
    /** Every link of the whole page (crawl discovery), whatever the content options. */
    discoveryLinks?: boolean;
    /** The `attributes` format: these attributes of the elements these selectors match in the whole page. */
    attributes?: readonly AttributeSelector[];
  };
  /** Epoch ms after which markdown conversion gives up (the converter's cooperative budget). */
  deadline?: number;
}

export interface ExtractedPage {
  markdown?: string;
  html?: string;
  links?: string[];
  images?: string[];
  metadata?: PageMetadata;
  /** Every link of the raw page, when `formats.discoveryLinks` was asked. */
  discoveryLinks?: string[];
  /** The `attributes` format's values, when `formats.attributes` was asked. */
  attributes?: AttributeValues[];
  /** The page's `<link rel=canonical>`, absolute, when metadata was asked. */
  canonical?: string;
  /** In order; the main-content ones carry their code (`PageWarning`), the others are their text. */
  warnings: ExtractionWarning[];
}

/** Serialises the cleaned tree as a whole document (reference §21 item 21). */
function serialize(root: Document): string {
  const html = root.children.find((n): n is Element => isTag(n) && n.name === 'html');
  if (html) return render(html, { encodeEntities: 'utf8' });
  const body = root.children.find((n): n is Element => isTag(n) && n.name === 'body');
  if (body) return `<html>${render(body, { encodeEntities: 'utf8' })}</html>`;
  return `<html><body>${render(root.children, { encodeEntities: 'utf8' })}</body></html>`;
}

function content(rawHtml: string, options: ExtractPageOptions, onlyMainContent: boolean, out: ExtractedPage): void {
  const { formats } = options;
  let document = parseHtml(rawHtml);
  const { encoding } = options;
  const base = baseUrlOf(document, options.url, encoding);
  if (formats.metadata) {
    out.metadata = extractMetadata(document, options.url, { encoding, contentLanguage: options.contentLanguage });
    const canonical = canonicalOf(document, base, encoding);
    if (canonical) out.canonical = canonical;
  }
  if (formats.discoveryLinks) out.discoveryLinks = discoveryLinks(document, base, encoding);
  if (formats.attributes?.length) out.attributes = extractAttributes(document, formats.attributes, out.warnings);
  if (!formats.markdown && !formats.html && !formats.links && !formats.images) return;
  standInNoscriptImages(document);
  fillPictureImages(document);
  dropPreviewImages(document);

  const includeTags = options.includeTags?.filter((t) => t.trim() !== '') ?? [];
  if (includeTags.length) {
    document = selectIncluded(document, includeTags, out.warnings);
    if (onlyMainContent) removeBoilerplate(document.children, out.warnings);
  } else if (onlyMainContent) {
    // v2's order: excludeTags match the page as served (`body > main > p`), before the main content is lifted out
    removeExcluded(document, options.excludeTags, out.warnings);
    const main = findMainContent(document, {
      url: options.url,
      captions: options.markdownCaptions ?? false,
      embeds: options.markdownEmbeds ?? false,
    });
    document = main.document;
    if (main.source === 'page') out.warnings.push(pageWarning('NO_MAIN_CONTENT'));
  }
  const excludeAfter = excludesBeforeMain(includeTags, onlyMainContent) ? undefined : options.excludeTags;
  removeUnwanted(document, excludeAfter, out.warnings);
  dropOrphanPunctuation(document);
  const collect = {
    links: !!formats.links,
    images: !!formats.images,
    mediaAttributes: !!formats.html || (!!formats.markdown && !!(options.markdownRawHtml || options.markdownEmbeds)),
  };
  const urls = absolutize(document, base, options.url, collect, encoding);
  if (formats.links) out.links = urls.links;
  if (formats.images) out.images = urls.images;
  if (formats.html) out.html = serialize(document);
  if (formats.markdown) {
    out.markdown = htmlToMarkdown(document, {
      baseUrl: base,
      pageUrl: options.url,
      removeBase64Images: options.removeBase64Images ?? true,
      rawHtml: options.markdownRawHtml ?? false,
      captions: options.markdownCaptions ?? false,
      embeds: options.markdownEmbeds ?? false,
      ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
    });
  }
}

/**
 * Turns a page's raw HTML into the requested outputs from one parse: cleaned html, markdown, links, images and
 * metadata (reference §9–§10). With `onlyMainContent`, a page without a main-content candidate, or whose main content
 * is empty, comes back whole, with a warning that says so (the last resort: a short article is still an article). A
 * page whose markdown is (nearly) empty while it shows a frame gets a warning naming the frame's URL to scrape.
 */
export function extractPage(rawHtml: string, options: ExtractPageOptions): ExtractedPage {
  const out: ExtractedPage = { warnings: [] };
  const onlyMainContent = options.onlyMainContent ?? true;
  content(rawHtml, options, onlyMainContent, out);
  if (onlyMainContent && options.formats.markdown && out.markdown?.trim() === '' && rawHtml.trim() !== '') {
    wholePageInstead(rawHtml, options, out);
  }
  if (out.markdown !== undefined) {
    const frames = contentFrames(rawHtml, out.markdown, options.url, options.encoding);
    if (frames.length) out.warnings.push(frameWarning(namedFrames(frames)));
  }
  return out;
}

/** The whole page's outputs in `out`, for a page whose main content came out empty (with the warning that says so). */
function wholePageInstead(rawHtml: string, options: ExtractPageOptions, out: ExtractedPage): void {
  // The raw page is parsed again rather than kept: main-content extraction mutates its tree, so keeping it would
  // mean cloning every page's tree (measured on WCXB dev: a clone costs about 30% of a parse) to save one parse on
  // the pages whose main content comes out empty (1 in 499).
  const retry: ExtractedPage = { warnings: [] };
  content(
    rawHtml,
    { ...options, formats: { ...options.formats, metadata: false, discoveryLinks: false, attributes: [] } },
    false,
    retry,
  );
  out.warnings = out.warnings.filter((w) => !isPageWarning(w, 'NO_MAIN_CONTENT'));
  // A page with no text at all has nothing more to give: it stays empty, without a warning about main content.
  if (!retry.markdown?.trim()) return;
  out.markdown = retry.markdown;
  out.warnings.push(pageWarning('EMPTY_MAIN_CONTENT'));
  if (retry.html !== undefined) out.html = retry.html;
  if (retry.links !== undefined) out.links = retry.links;
  if (retry.images !== undefined) out.images = retry.images;
  out.warnings.push(...retry.warnings);
}
