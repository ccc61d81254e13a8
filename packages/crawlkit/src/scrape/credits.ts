import type { Format } from '../v2/formats.js';

export interface CreditInput {
  formats: readonly Format[];
  proxyUsed: 'basic' | 'stealth';
  /** Pages parsed from a PDF (absent for other content or when PDF parsing is off). */
  pdfPagesParsed?: number;
  zeroDataRetention: boolean;
}

/** Credits of a `map` call (reference §15: 1 per call). */
export const MAP_CREDITS = 1;

/** Formats upstream bills 4 credits more for (2026): answers and highlights. */
const ANSWER_FORMATS = new Set(['question', 'highlights', 'query']);

/**
 * Credits of one successful document (reference §18): 1 per page; a `json` extraction (or json change tracking)
 * makes it 5 in total; `question`, `highlights` or `query` add 4 (once); the stealth proxy adds 4; a parsed PDF adds
 * 1 per page after the first; zero data retention adds 1. Nothing is charged: this is accounting for callers who
 * budget.
 */
export function documentCredits(input: CreditInput): number {
  const json = input.formats.some(
    (f) => f.type === 'json' || (f.type === 'changeTracking' && f.modes.includes('json')),
  );
  let credits = json ? 5 : 1;
  if (input.formats.some((f) => ANSWER_FORMATS.has(f.type))) credits += 4;
  if (input.proxyUsed === 'stealth') credits += 4;
  if (input.pdfPagesParsed !== undefined && input.pdfPagesParsed > 1) credits += input.pdfPagesParsed - 1;
  if (input.zeroDataRetention) credits += 1;
  return credits;
}
