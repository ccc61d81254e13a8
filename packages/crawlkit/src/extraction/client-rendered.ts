import { extractPage, type ExtractPageOptions, type ExtractedPage } from '@crawlkit/extractor';
import { embeddedContent, pageSignals, type EmbeddedSource } from '@crawlkit/fetcher/analysis';

/** What the page's data is called in the warning. */
const SOURCE_NAMES: Record<EmbeddedSource, string> = {
  'json-ld': 'its JSON-LD (articleBody, text)',
  hydration: 'its hydration state (__NEXT_DATA__, __NUXT__, window.__INITIAL_STATE__, JSON data scripts)',
};

/** Why a page that looks client-rendered was served over plain HTTP, from its `engineReason`. */
function withoutBrowserBecause(engineReason: string | undefined): string {
  if (engineReason?.endsWith('+browser-unavailable')) return 'the browser is not available';
  if (engineReason === 'engine:http') return "the engine is 'http'";
  return 'fastMode';
}

/**
 * The extraction of a page the render judge found client-rendered (`clientRendered`) but that was served over plain
 * HTTP. When the page embeds its text (JSON-LD `articleBody`/`text`, or the hydration state) and that holds more
 * than the HTML gave, markdown and html come from it; either way a warning says what happened. Links, images and
 * metadata stay those of the page itself.
 */
export function clientRenderedPage(
  page: ExtractedPage,
  html: string,
  options: ExtractPageOptions,
  fetched: { clientRendered: string; engineReason?: string },
): ExtractedPage {
  const seen = `This page looks client-rendered (${fetched.clientRendered}) and was fetched without a browser (${withoutBrowserBecause(fetched.engineReason)})`;
  const wantsText = options.formats.markdown === true || options.formats.html === true;
  const embedded = wantsText ? embeddedContent(pageSignals(html)) : undefined;
  if (!embedded || embedded.chars <= (page.markdown?.length ?? 0)) {
    page.warnings.push(`${seen}: its content may be incomplete.`);
    return page;
  }
  const head = /<head\b[\s\S]*?<\/head\s*>/i.exec(html)?.[0] ?? '';
  const document = `<!doctype html><html>${head}<body><main>${embedded.html}</main></body></html>`;
  const fromData = extractPage(document, {
    ...options,
    onlyMainContent: false,
    includeTags: [],
    formats: { markdown: options.formats.markdown === true, html: options.formats.html === true },
  });
  page.markdown = fromData.markdown;
  page.html = fromData.html;
  page.warnings.push(`${seen}: its text was taken from ${SOURCE_NAMES[embedded.source]}.`, ...fromData.warnings);
  return page;
}
