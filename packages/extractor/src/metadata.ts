import { textContent } from 'domutils';
import type { Document } from 'domhandler';

import { canonicalUrls } from './dom/canonical.js';
import { parseHtml } from './dom/parse.js';
import { baseUrlOf, resolveUrl } from './dom/urls.js';
import { elements } from './dom/walk.js';
import { documentLanguageOf } from './language.js';

/**
 * Page-derived metadata: every meta tag under its raw key plus the named keys of the v2 Document, its `favicon` and
 * its `canonical` URL (absolute; a list when the page names several that differ).
 */
export type PageMetadata = Record<string, string | string[]>;

/** Well-known meta keys also exposed under a camelCase name (reference §9.1). */
const NAMED: Record<string, string> = {
  'og:title': 'ogTitle',
  'og:description': 'ogDescription',
  'og:url': 'ogUrl',
  'og:image': 'ogImage',
  'og:audio': 'ogAudio',
  'og:determiner': 'ogDeterminer',
  'og:locale': 'ogLocale',
  'og:locale:alternate': 'ogLocaleAlternate',
  'og:site_name': 'ogSiteName',
  'og:video': 'ogVideo',
  'article:section': 'articleSection',
  'article:tag': 'articleTag',
  'article:published_time': 'publishedTime',
  'article:modified_time': 'modifiedTime',
  'dcterms.keywords': 'dcTermsKeywords',
  'dc.description': 'dcDescription',
  'dc.subject': 'dcSubject',
  'dcterms.subject': 'dcTermsSubject',
  'dcterms.audience': 'dcTermsAudience',
  'dc.type': 'dcType',
  'dcterms.type': 'dcTermsType',
  'dc.date': 'dcDate',
  'dc.date.created': 'dcDateCreated',
  'dcterms.created': 'dcTermsCreated',
};

/** Always arrays, even with one value. */
const ALWAYS_ARRAY = new Set(['ogLocaleAlternate']);

/**
 * Keys with one value, as the v2 Document and the SDKs type them: the first `title` and `language` win (the
 * `<html lang>` before any `<meta name="language">` or `<meta http-equiv="content-language">`); repeated
 * `description` and `robots` tags are joined with `, ` (robots directives add up).
 */
const FIRST_WINS = new Set(['title', 'language']);
const JOINED = new Set(['description', 'robots']);

function push(meta: PageMetadata, key: string, value: string): void {
  const existing = meta[key];
  if (FIRST_WINS.has(key)) {
    if (existing === undefined) meta[key] = value;
    return;
  }
  if (JOINED.has(key)) {
    meta[key] = existing === undefined ? value : `${String(existing)}, ${value}`;
    return;
  }
  if (existing === undefined) meta[key] = ALWAYS_ARRAY.has(key) ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else meta[key] = [existing, value];
}

/** What `extractMetadata` reads beside the page. */
export interface MetadataOptions {
  /**
   * The document's character encoding, for its favicon's query (`ExtractPageOptions.encoding`).
   * @default 'utf-8'
   */
  encoding?: string | undefined;
  /**
   * The response's `Content-Language` header: the page's `language` when it names none
   * (`ExtractPageOptions.contentLanguage`).
   * @default undefined
   */
  contentLanguage?: string | undefined;
}

/** Extracts the metadata of a page at `url` from its raw HTML (or an already parsed, untouched document). */
export function extractMetadata(input: string | Document, url: string, options: MetadataOptions = {}): PageMetadata {
  const { encoding, contentLanguage } = options;
  const document = typeof input === 'string' ? parseHtml(input) : input;
  const base = baseUrlOf(document, url, encoding);
  const meta: PageMetadata = {};
  let title: string | undefined;
  let icon: string | undefined;
  let looseIcon: string | undefined;

  for (const el of elements(document)) {
    switch (el.name) {
      case 'html':
        if (el.attribs.lang) push(meta, 'language', el.attribs.lang.trim());
        break;
      case 'title':
        // An <svg> may hold its own <title>; the document title is the first outside of one.
        if (title === undefined && !hasSvgAncestor(el)) {
          const text = textContent(el).replace(/\s+/g, ' ').trim();
          if (text) title = text;
        }
        break;
      case 'meta': {
        // `<meta http-equiv="content-language" content="ja">`: the page's language when `<html lang>` names none.
        if (el.attribs['http-equiv']?.trim().toLowerCase() === 'content-language') {
          const language = documentLanguageOf(el.attribs.content);
          if (language) push(meta, 'language', language);
          break;
        }
        const key = el.attribs.name ?? el.attribs.property ?? el.attribs.itemprop;
        const content = el.attribs.content;
        if (!key || content === undefined) break;
        const value = content.trim();
        push(meta, key, value);
        const named = NAMED[key.toLowerCase()];
        if (named) push(meta, named, value);
        break;
      }
      case 'link': {
        const rel = (el.attribs.rel ?? '').toLowerCase().split(/\s+/);
        if (!el.attribs.href) break;
        if (rel.includes('icon') && icon === undefined) icon = el.attribs.href;
        else if (rel.some((r) => r.includes('icon')) && looseIcon === undefined) looseIcon = el.attribs.href;
        break;
      }
      default:
        break;
    }
  }

  if (meta.language === undefined) {
    const language = documentLanguageOf(contentLanguage);
    if (language) meta.language = language;
  }
  const fallbackTitle = first(meta['og:title']) ?? first(meta['twitter:title']);
  if (title !== undefined) meta.title = title;
  else if (fallbackTitle !== undefined) meta.title = fallbackTitle;
  else delete meta.title;
  // The page's canonical URL, absolute (the `<link rel=canonical>` of its head): several that differ are listed, in
  // order, as repeated meta tags are; a crawl folds the page into the first.
  const canonical = canonicalUrls(document, base, encoding);
  if (canonical.length === 1) meta.canonical = canonical[0]!;
  else if (canonical.length > 1) meta.canonical = canonical;
  const favicon = icon ?? looseIcon;
  if (favicon) {
    const resolved = resolveUrl(favicon, base, encoding);
    if (resolved) meta.favicon = resolved;
  }
  return meta;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function hasSvgAncestor(node: { parent: unknown }): boolean {
  let parent = node.parent as { name?: string; parent: unknown } | null;
  while (parent) {
    if (parent.name === 'svg') return true;
    parent = parent.parent as { name?: string; parent: unknown } | null;
  }
  return false;
}
