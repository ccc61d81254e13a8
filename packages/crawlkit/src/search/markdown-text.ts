/**
 * The text of a page's markdown as the search index keeps it: what a reader reads, line by line (so passages can be
 * cut from it), without link targets, images or emphasis marks.
 */
const IMAGE = /!\[([^\]]*)\]\([^)]*\)/g;
const LINK = /\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g;
const REFERENCE = /^\s*\[[^\]]+\]:\s+\S+.*$/gm;
const EMPHASIS = /(\*{1,3}|_{2,3})(?=\S)([^*_\n]+?)\1/g;
const HTML_TAG = /<\/?[a-zA-Z][^>\n]*>/g;
const FENCE = /^\s*(?:`{3,}|~{3,}).*$/gm;
const HEADING = /^\s{0,3}#{1,6}\s+/gm;

export function markdownText(markdown: string): string {
  return markdown
    .replace(IMAGE, '$1')
    .replace(LINK, '$1')
    .replace(REFERENCE, '')
    .replace(EMPHASIS, '$2')
    .replace(HTML_TAG, '')
    .replace(FENCE, '')
    .replace(HEADING, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
