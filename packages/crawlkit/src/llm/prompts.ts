import type { JsonSchema } from './schema.js';

const JSON_ONLY = 'Answer with a single JSON value and nothing else: no prose, no code fences.';

export function extractionSystem(schema: JsonSchema | undefined): string {
  const lines = [
    'You extract structured data from one web page, given as markdown.',
    JSON_ONLY,
    'Use only facts stated on the page. When the page does not state a value, use null if the schema allows it, ' +
      'else the empty value of its type ("", 0, false, [] or {}).',
  ];
  if (schema) lines.push(`The JSON must validate against this JSON Schema:\n${JSON.stringify(schema)}`);
  else lines.push('Choose clear camelCase keys; return an object.');
  return lines.join('\n');
}

export function extractionPrompt(instruction: string | undefined, markdown: string): string {
  const ask = instruction?.trim() || 'Extract the main structured information of this page.';
  return `${ask}\n\n<page>\n${markdown}\n</page>`;
}

export const SUMMARY_SYSTEM =
  'You summarise web pages. Write a concise summary of the page given as markdown: two to four sentences, under 100 ' +
  "words, in the page's language, covering what the page is and its key points. Plain text only, no preamble.";

export function summaryPrompt(markdown: string): string {
  return `<page>\n${markdown}\n</page>`;
}

export const ANSWER_SYSTEM =
  'You answer a question about one web page from passages quoted from it. Use only the passages: when they do not ' +
  'answer the question, say that the page does not say. Answer in one short paragraph of plain text, in the ' +
  "question's language, with no preamble.";

/** The question and the page's passages that best answer it (the `question` and `query` formats). */
export function answerPrompt(question: string, passages: string): string {
  return `Question: ${question}\n\n<page>\n${passages}\n</page>`;
}

export const COMPARE_SYSTEM = [
  'You compare two versions of one web page, given as markdown, and describe what changed.',
  JSON_ONLY,
  'Return an object. Unless the request says otherwise, map each changed item to { "previous": ..., "current": ... }.',
].join('\n');

export function comparePrompt(instruction: string | undefined, previous: string, current: string): string {
  const ask = instruction?.trim() || 'Describe the changes between the previous and the current version.';
  return `${ask}\n\n<previous>\n${previous}\n</previous>\n\n<current>\n${current}\n</current>`;
}

export function crawlOptionsSystem(schema: JsonSchema): string {
  return [
    'You turn a plain-language description of a web crawl into crawler options.',
    JSON_ONLY,
    'Return an object with only the options the description implies; leave every other option out. Options:',
    '- includePaths / excludePaths: JavaScript regular expressions matched against the URL path (e.g. "^/blog/").',
    '- maxDiscoveryDepth: how many links away from the start page to follow (0 = only the start page).',
    '- crawlEntireDomain: true to follow sibling and parent paths, not only paths under the start URL.',
    '- allowSubdomains / allowExternalLinks: follow links to subdomains / other sites.',
    '- sitemap: "include" (use the sitemap and links), "skip" (links only) or "only" (sitemap only).',
    '- ignoreQueryParameters: treat URLs that differ only in their query as one page.',
    '- limit: most pages to crawl. delay: seconds to wait between pages.',
    'Base the paths on the site structure below when it is given.',
    `The JSON must validate against this JSON Schema:\n${JSON.stringify(schema)}`,
  ].join('\n');
}

export function crawlOptionsPrompt(url: string, prompt: string, siteUrls: readonly string[]): string {
  const structure = siteUrls.length ? `\n\nWEBSITE STRUCTURE (URLs found on the site):\n${siteUrls.join('\n')}` : '';
  return `Start URL: ${url}\nCrawl request: ${prompt}${structure}`;
}
