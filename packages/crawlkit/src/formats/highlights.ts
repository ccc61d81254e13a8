/**
 * The `highlights` format (2026): the passages of a page's markdown that answer a query, verbatim, with no model.
 * Passages are sentences, fenced code blocks and table rows; they are ranked by Okapi BM25 against the query (terms
 * lower-cased, stop words dropped, Porter-stemmed), the best kept, and returned in page order.
 */
import { stemmer } from 'stemmer';
import { z } from 'zod';

import { defineFormat } from './format-module.js';

/** Passages a `highlights` answer holds at most (also what `question` shows the model). */
export const MAX_HIGHLIGHTS = 5;

/** BM25's term-frequency saturation and length normalisation (the usual values). */
const K1 = 1.2;
const B = 0.75;

/** A passage of the page: its verbatim text and about where it starts (for page order). */
export interface Passage {
  text: string;
  index: number;
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to was we were what when ' +
    'where which who whom why will with would you your about after all also any before between both each more ' +
    'most other over same should some such only own too very just'
  ).split(' '),
);

/** The search terms of a text: words lower-cased, stop words dropped, stemmed. */
export function terms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => !STOP_WORDS.has(w)).map((w) => stemmer(w));
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

const FENCE = /^\s*(`{3,}|~{3,})/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const HEADING = /^\s{0,3}#{1,6}\s/;
/** A line that starts a new block inside a paragraph run: a list item or a quote. */
const BLOCK_START = /^\s*(?:[-*+]\s|\d+[.)]\s|>)/;

/** The sentences of a paragraph's text, trimmed; runs shorter than three words are dropped (labels, crumbs). */
function sentencesOf(text: string, index: number, into: Passage[]): void {
  for (const { segment } of sentences.segment(text)) {
    const sentence = segment.trim();
    if (sentence.split(/\s+/).length >= 3) into.push({ text: sentence, index: index + text.indexOf(segment) });
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

/** Okapi BM25 score of each document (a list of terms) for the query terms. */
export function bm25(documents: readonly string[][], query: readonly string[]): number[] {
  const n = documents.length;
  if (n === 0) return [];
  const average = documents.reduce((sum, d) => sum + d.length, 0) / n || 1;
  const unique = [...new Set(query)];
  const idf = new Map<string, number>();
  for (const term of unique) {
    const containing = documents.filter((d) => d.includes(term)).length;
    idf.set(term, Math.log((n - containing + 0.5) / (containing + 0.5) + 1));
  }
  return documents.map((document) => {
    const counts = new Map<string, number>();
    for (const term of document) counts.set(term, (counts.get(term) ?? 0) + 1);
    let score = 0;
    for (const term of unique) {
      const tf = counts.get(term) ?? 0;
      if (tf === 0) continue;
      score += (idf.get(term)! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * document.length) / average));
    }
    return score;
  });
}

/**
 * The passages of `markdown` that best answer `query` (at most `limit`, only those sharing a term with it), verbatim
 * and in page order. Empty when nothing matches.
 */
export function highlights(markdown: string, query: string, limit = MAX_HIGHLIGHTS): Passage[] {
  const queryTerms = terms(query);
  if (queryTerms.length === 0) return [];
  const passages = passagesOf(markdown);
  const scores = bm25(
    passages.map((p) => terms(p.text)),
    queryTerms,
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
