/**
 * PowerPoint (PPTX) and OpenDocument presentations (ODP): one section per slide, with its speaker notes; a hidden
 * slide's heading says `(hidden)` (`hidden-parts.ts`).
 */
import type { OfficeContentNode } from 'officeparser';

import { DEFAULT_LIMITS } from '../limits.js';
import { nodeText, officeHtml, officeMarkdown, officeMetadata, parseOffice } from '../office.js';
import type { ConvertedDocument, ConvertOptions, Converter } from '../types.js';
import { HIDING_PARTS, hiddenSlides } from './hidden-parts.js';

/** A notes paragraph that only holds the slide number field. */
const SLIDE_NUMBER = /^\s*(\d+|<number>)\s*$/;

async function presentation(bytes: Uint8Array, format: 'pptx' | 'odp', options: ConvertOptions) {
  const { ast, warnings, parts } = await parseOffice(bytes, format, options, { parts: HIDING_PARTS[format] });
  const slides = ast.content.filter((node) => node.type === 'slide');
  const hidden = hiddenSlides(parts, format);
  const max = options.maxSlides ?? DEFAULT_LIMITS.maxSlides;
  if (slides.length > max) {
    warnings.push(`Only the first ${max} of ${slides.length} slides were converted (the limit of slides).`);
  }
  const sections: string[] = [];
  let timedOut = false;
  for (const [index, slide] of slides.slice(0, max).entries()) {
    if (options.deadline !== undefined && Date.now() > options.deadline) {
      warnings.push(`Only the first ${index} of ${slides.length} slides were converted before the time ran out.`);
      timedOut = true;
      break;
    }
    const body = await officeMarkdown(ast, format, { content: slide.children ?? [] });
    const notes = notesOf(slide);
    const noteText = notes.length ? await officeMarkdown(ast, format, { content: notes }) : '';
    sections.push(
      [
        `## Slide ${index + 1}${hidden.has(index + 1) ? ' (hidden)' : ''}`,
        body,
        noteText ? `### Notes\n\n${noteText}` : '',
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
  }
  const metadata = { ...officeMetadata(ast), numSlides: slides.length };
  delete metadata.numPages;
  const document: ConvertedDocument = { format, markdown: sections.join('\n\n'), metadata, warnings };
  if (timedOut) document.timedOut = true;
  if (options.html) document.html = await officeHtml(ast, format);
  return document;
}

function notesOf(slide: OfficeContentNode): OfficeContentNode[] {
  const notes = (slide as { notes?: OfficeContentNode[] }).notes ?? [];
  return notes
    .flatMap((note) => note.children ?? [])
    .filter((paragraph) => !SLIDE_NUMBER.test(nodeText(paragraph)) && nodeText(paragraph).trim() !== '');
}

export const pptx: Converter = { format: 'pptx', convert: (bytes, options) => presentation(bytes, 'pptx', options) };
export const odp: Converter = { format: 'odp', convert: (bytes, options) => presentation(bytes, 'odp', options) };
