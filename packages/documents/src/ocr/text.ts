/** Tesseract's text as markdown: blank-line separated paragraphs, wrapped lines joined, stray spacing removed. */
export function ocrMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .join('\n'),
    )
    .filter(Boolean)
    .join('\n\n');
}
