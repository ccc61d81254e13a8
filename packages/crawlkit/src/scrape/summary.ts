const SENTENCE = /[^.!?\n]+[.!?]+(?=\s|$)/g;

/**
 * A summary without a model: the page's first substantial sentences (lead-based, which is a strong baseline for
 * news and documentation), capped near `maxChars`.
 */
export function summarizeExtractive(markdown: string, maxChars = 600): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*(#{1,6}|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`|>]/g, ' ');
  const sentences: string[] = [];
  let length = 0;
  for (const match of text.matchAll(SENTENCE)) {
    const sentence = match[0].replace(/\s+/g, ' ').trim();
    if (sentence.split(' ').length < 6) continue;
    if (length + sentence.length > maxChars && sentences.length > 0) break;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  if (sentences.length === 0) return text.replace(/\s+/g, ' ').trim().slice(0, maxChars);
  return sentences.join(' ');
}
