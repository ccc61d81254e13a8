import { z } from 'zod';

/**
 * The unknown parser's message: the names and the object form, and for a mode written into the name (`pdf:fast`)
 * where the mode goes. Without it a string said "expected object, received string".
 */
function unknownParser(input: unknown): string {
  const type = typeof input === 'object' && input !== null && 'type' in input ? input.type : undefined;
  const mode = typeof type === 'string' ? /^pdf[:_-](fast|auto|ocr)$/i.exec(type)?.[1] : undefined;
  if (mode) return `Unknown parser '${String(type)}': write { type: 'pdf', mode: '${mode.toLowerCase()}' }.`;
  return (
    "Unknown parser. Use 'pdf' or 'image', or an object: { type: 'pdf', maxPages?, mode?: 'fast' | 'auto' | " +
    "'ocr', pages?, blocks?, pageMarkers? } or { type: 'image' }."
  );
}

/**
 * A file parser: `pdf` (`mode` `fast`: the text layer only; `auto`: OCR of pages without one; `ocr`: OCR of every
 * page; the 2026 options `pages`, `blocks` and `pageMarkers` are accepted, with `pageMarkdown` a silent alias of
 * `pages`) or `image` (OCR of PNG, JPEG, TIFF and WebP images; opt-in: not in the default parsers).
 */
export const parserSchema = z.preprocess(
  (v) => (typeof v === 'string' ? { type: v } : v),
  z.discriminatedUnion(
    'type',
    [
      z
        .strictObject({
          type: z.literal('pdf'),
          maxPages: z.number().int().min(1).max(10_000).optional(),
          mode: z.enum(['fast', 'auto', 'ocr']).optional(),
          pages: z.boolean().optional(),
          pageMarkdown: z.boolean().optional(),
          blocks: z.boolean().optional(),
          pageMarkers: z.boolean().optional(),
        })
        .transform(({ pageMarkdown, ...parser }): Parser =>
          pageMarkdown !== undefined && parser.pages === undefined ? { ...parser, pages: pageMarkdown } : parser,
        ),
      z.strictObject({ type: z.literal('image') }).transform((parser): Parser => parser),
    ],
    { error: (issue) => (issue.code === 'invalid_union' ? unknownParser(issue.input) : undefined) },
  ),
);

/** A validated `parsers` entry (one shape for both types, so that readers need not narrow). */
export interface Parser {
  type: 'pdf' | 'image';
  maxPages?: number;
  mode?: 'fast' | 'auto' | 'ocr';
  pages?: boolean;
  blocks?: boolean;
  pageMarkers?: boolean;
}
