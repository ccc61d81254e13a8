/**
 * The search benchmark's corpus: pages of seeded Zipf prose (~300 words from a 5,000-word vocabulary, rank r with
 * probability ~ 1/r), the same for every process that builds it with the same size.
 */
import { prng } from './generated-site.ts';

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'sa',
  'tu',
  'vel',
  'dor',
  'an',
  'is',
  'por',
  'que',
  'bri',
  'zen',
  'ul',
  'gar',
];

/** The vocabulary, most frequent first. */
export const VOCABULARY: readonly string[] = Array.from({ length: 5_000 }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});

const HARMONIC = VOCABULARY.reduce((sum, _, i) => sum + 1 / (i + 1), 0);

export interface CorpusPage {
  key: string;
  url: string;
  title: string;
  description: string;
  text: string;
}

/** `size` pages on 50 hosts: a title of 5 words, a description of 14, six paragraphs of four 12-word sentences. */
export function searchCorpus(size: number): CorpusPage[] {
  const random = prng(39);
  const zipfWord = (): string => {
    let x = random() * HARMONIC;
    for (let i = 0; i < VOCABULARY.length; i++) {
      x -= 1 / (i + 1);
      if (x <= 0) return VOCABULARY[i]!;
    }
    return VOCABULARY.at(-1)!;
  };
  const sentence = (n: number) => `${Array.from({ length: n }, zipfWord).join(' ')}.`;
  return Array.from({ length: size }, (_, i) => {
    const host = `site${i % 50}.example`;
    const paragraphs = Array.from({ length: 6 }, () => Array.from({ length: 4 }, () => sentence(12)).join(' '));
    return {
      key: `k${i}`,
      url: `https://${host}/page/${i}`,
      title: sentence(5).slice(0, -1),
      description: sentence(14),
      text: paragraphs.join('\n\n'),
    };
  });
}
