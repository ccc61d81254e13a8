/**
 * The formats read straight off the extraction: markdown, html, the page as fetched, links and images. Each is a
 * field the extraction worker computes when asked (`ExtractionNeeds`); markdown is also computed for the formats
 * that read it (summary, json, change tracking) but returned only when asked for (reference §4).
 */
import { z } from 'zod';

import { defineFormat } from './format-module.js';

const plain = <T extends string>(type: T) => z.strictObject({ type: z.literal(type) });

export const markdownFormat = defineFormat({
  type: 'markdown',
  schema: plain('markdown'),
  extraction: () => ({ markdown: true }),
  produce: (_format, state) => {
    state.document.markdown = state.extraction.markdown ?? '';
  },
});

export const htmlFormat = defineFormat({
  type: 'html',
  schema: plain('html'),
  extraction: () => ({ html: true }),
  produce: (_format, state) => {
    state.document.html = state.extraction.html ?? '';
  },
});

export const rawHtmlFormat = defineFormat({
  type: 'rawHtml',
  schema: plain('rawHtml'),
  extraction: () => ({ rawHtml: true }),
  produce: (_format, state) => {
    // The worker sends the page's own text back only when the page crossed as bytes: otherwise it is here already.
    state.document.rawHtml = state.extraction.rawHtml ?? state.page.text ?? '';
  },
});

export const linksFormat = defineFormat({
  type: 'links',
  schema: plain('links'),
  extraction: () => ({ links: true }),
  produce: (_format, state) => {
    state.document.links = state.extraction.links ?? [];
  },
});

export const imagesFormat = defineFormat({
  type: 'images',
  schema: plain('images'),
  extraction: () => ({ images: true }),
  produce: (_format, state) => {
    state.document.images = state.extraction.images ?? [];
  },
});
