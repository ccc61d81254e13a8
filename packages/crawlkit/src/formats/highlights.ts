/**
 * The `highlights` format (2026): the passages of a page's markdown that answer a query, verbatim, with no model.
 * Passages are sentences, fenced code blocks and table rows; they are ranked by Okapi BM25 against the query, with
 * the search index's own words (lower-cased, diacritics folded, Porter-stemmed; stop words dropped) and formula
 * (`@crawlkit/store`'s `bm25`), the best kept, and returned in page order. Search results carry the same field.
 */
import {
  bm25 as bm25Score,
  inverseFrequency,
  searchStem,
  searchWords,
  searchWordWeight,
  STOP_WORDS,
} from '@crawlkit/store';
import { z } from 'zod';

import { defineFormat } from './format-module.js';

/** Passages a `highlights` answer holds at most (also what `question` shows the model). */
export const MAX_HIGHLIGHTS = 5;

/** A passage of the page: its verbatim text and about where it starts (for page order). */
export interface Passage {
  text: string;
  index: number;
}

/** The search terms of a text: the index's words (folded), stop words dropped, stemmed. */
export function terms(text: string): string[] {
  return searchWords(text)
    .filter((w) => !STOP_WORDS.has(w.word))
    .map((w) => searchStem(w.word));
}

/**
 * The terms of a query: a text's, without the last character of runs of unspaced script (`地铁` is the pair `地铁`,
 * as the search index reads a query: its tail `铁` would match every passage with a word ending in it).
 */
function queryTerms(query: string): string[] {
  return searchWords(query)
    .filter((w) => !STOP_WORDS.has(w.word) && w.unspaced !== 'tail')
    .map((w) => searchStem(w.word));
}

/**
 * Words of a passage as a reader counts them: what spaces part, and in a run of unspaced script (Chinese, Japanese,
 * Thai...) one word every two characters (its pairs and last character count a half each).
 */
function wordCount(text: string): number {
  const found = searchWords(text);
  if (!found.some((w) => w.unspaced)) return text.split(/\s+/).length;
  return found.reduce((sum, w) => sum + searchWordWeight(w), 0);
}

// Made on first use: building ICU's sentence breaker costs ~10 ms, which every `import('crawlkit')` paid.
let sentences: Intl.Segmenter | undefined;

const FENCE = /^\s*(`{3,}|~{3,})/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const HEADING = /^\s{0,3}#{1,6}\s/;
/** A line that starts a new block inside a paragraph run: a list item or a quote. */
const BLOCK_START = /^\s*(?:[-*+]\s|\d+[.)]\s|>)/;

/** The sentences of a paragraph's text, trimmed; those shorter than three words are dropped (labels, crumbs). */
function sentencesOf(text: string, index: number, into: Passage[]): void {
  sentences ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  for (const { segment } of sentences.segment(text)) {
    const sentence = segment.trim();
    if (wordCount(sentence) >= 3) into.push({ text: sentence, index: index + text.indexOf(segment) });
  }
}

/**
 * The passages of a markdown page in page order: each fenced code block whole, each table row (not the header
 * rule), and each sentence of paragraphs and list items. Headings are not passages: they name a topic, they do not
 * answer.
 */
export function passagesOf(markdown: string): Passage[] {
  const passages: Passage[] = [];
  const lines = markdown.split('\n');
  let offset = 0;
  let paragraph: { text: string; index: number } | undefined;
  const flush = () => {
    if (paragraph) sentencesOf(paragraph.text, paragraph.index, passages);
    paragraph = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const start = offset;
    offset += line.length + 1;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const block = [line];
      const marker = fence[1]!;
      while (i + 1 < lines.length) {
        const next = lines[++i]!;
        offset += next.length + 1;
        block.push(next);
        if (next.trim().startsWith(marker)) break;
      }
      passages.push({ text: block.join('\n'), index: start });
    } else if (TABLE_ROW.test(line)) {
      flush();
      if (!TABLE_RULE.test(line)) passages.push({ text: line.trim(), index: start });
    } else if (line.trim() === '' || HEADING.test(line)) {
      flush();
    } else {
      if (paragraph && BLOCK_START.test(line)) flush();
      const text = line.replace(/^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s?)/, '');
      if (paragraph) paragraph.text += ` ${text.trim()}`;
      else paragraph = { text: text.trim(), index: start + (line.length - line.trimStart().length) };
    }
  }
  flush();
  return passages;
}

/** Okapi BM25 score of each document (a list of terms) for the query terms, by the search index's formula. */
export function bm25(documents: readonly string[][], query: readonly string[]): number[] {
  const n = documents.length;
  if (n === 0) return [];
  const average = documents.reduce((sum, d) => sum + d.length, 0) / n;
  const unique = [...new Set(query)];
  const idfs = unique.map((term) => inverseFrequency(n, documents.filter((d) => d.includes(term)).length));
  return documents.map((document) =>
    bm25Score(
      unique.map((term) => document.filter((t) => t === term).length),
      idfs,
      document.length,
      average,
    ),
  );
}

/**
 * The passages of `markdown` that best answer `query` (at most `limit`, only those sharing a term with it), verbatim
 * and in page order. Empty when nothing matches.
 */
export function highlights(markdown: string, query: string, limit = MAX_HIGHLIGHTS): Passage[] {
  const asked = queryTerms(query);
  if (asked.length === 0) return [];
  const passages = passagesOf(markdown);
  const scores = bm25(
    passages.map((p) => terms(p.text)),
    asked,
  );
  return passages
    .map((passage, i) => ({ passage, score: scores[i]! }))
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score || a.passage.index - b.passage.index)
    .slice(0, limit)
    .map((p) => p.passage)
    .sort((a, b) => a.index - b.index);
}

/** The `highlights` field of a document: the passages, verbatim, separated by blank lines. */
export function highlightsText(passages: readonly Passage[]): string {
  return passages.map((p) => p.text).join('\n\n');
}

/** The 2026 surcharge of the formats that answer a query (`highlights`, `question`, `query`), as upstream bills. */
export const ANSWER_SURCHARGE = 4;

/** `highlights` (`{ query }`): the page's passages that answer `query`, verbatim, with no model. */
export const highlightsFormat = defineFormat({
  type: 'highlights',
  schema: z.strictObject({ type: z.literal('highlights'), query: z.string().min(1).max(10_000) }),
  extraction: () => ({ markdown: true }),
  credits: () => ({ surcharge: ANSWER_SURCHARGE }),
  produce: (format, state) => {
    state.document.highlights = highlightsText(highlights(state.extraction.markdown ?? '', format.query));
  },
});
