/**
 * A sentence: up to `.`, `!`, `?` or the Arabic `؟` before whitespace or the end (one inside a number or a name,
 * `2.5`, `acme.test`, does not end it), or up to a full stop that ends a sentence wherever it is: CJK `。！？`, the
 * Devanagari danda `। ॥`, the Urdu `۔`, the Ethiopic `።`, the Armenian `։` and the Burmese `။`.
 */
const SENTENCE = /(?:[^.!?؟。！？।॥۔።։။\n]|[.!?؟](?!\s|$))+(?:[.!?؟]+(?=\s|$)|[。！？।॥۔።։။]+)/g;
/** Scripts written without spaces between words: sentence length is judged in characters. */
const DENSE_SCRIPT = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

function isSubstantial(sentence: string): boolean {
  return DENSE_SCRIPT.test(sentence) ? sentence.length >= 12 : sentence.split(' ').length >= 6;
}

/**
 * A summary without a model: the page's first substantial sentences (lead-based, a strong baseline for news and
 * documentation), capped near `maxChars` characters. Headings, code, images, tables and short fragments such as
 * bylines are left out; link text is kept.
 */
export function summarizeExtractive(markdown: string, maxChars = 600): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^\s*#{1,6}\s.*$/gm, '')
    .replace(/^\s*\|.*$/gm, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/^\s*([-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`|>]/g, ' ');
  const sentences: string[] = [];
  let length = 0;
  for (const match of text.matchAll(SENTENCE)) {
    const sentence = match[0].replace(/\s+/g, ' ').trim();
    if (!isSubstantial(sentence)) continue;
    if (length + sentence.length > maxChars && sentences.length > 0) break;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  if (sentences.length > 0) return sentences.join(' ');
  // No prose: the start of the text, headings included (a page of only headings still gets its words).
  const fallback = text.trim() ? text : markdown.replace(/^\s*#{1,6}\s+/gm, '').replace(/[*_`|>#]/g, ' ');
  return fallback.replace(/\s+/g, ' ').trim().slice(0, maxChars);
}
