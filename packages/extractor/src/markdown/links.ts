import { Container } from './container.js';
import { isPermalinkText, samePage } from './permalinks.js';
import type { Stack } from './stack.js';
import { formatDestination, formatTitle, type UrlResolver } from './urls.js';

const SKIP_LINK_TEXT =
  /^skip (?:to (?:the )?(?:main |primary |page )?(?:content|navigation|menu|search)|navigation|search)$/i;
/** Link text nothing of which shows: empty, or only zero-width and other format characters (`\u200b`). */
const INVISIBLE_TEXT = /^[\p{Cf}\s]*$/u;

export interface LinkContext {
  urls: UrlResolver;
  /** The page's own URL; absent: the base URL. */
  pageUrl: string | undefined;
  /** Raw-HTML mode keeps links with invisible text. */
  rawHtml: boolean;
}

/**
 * Opens an `<a href>` (not a footnote's): its text is collected until its end tag, then written `[text](url)`, as
 * its words alone when it is a heading's or term's link to itself, or dropped (an invisible link, a skip link, a
 * heading's permalink mark). `selfId` is the `id` of the heading or `<dt>` it is in.
 */
export function openLink(
  stack: Stack,
  context: LinkContext,
  href: string,
  fragment: string,
  attribs: Record<string, string>,
  cur: Container,
  selfId: string | undefined,
  inCell: boolean,
): boolean {
  // A heading's permalink (`<a class="hash-link" href="#usage">#</a>`, Sphinx's `¶`): a link from the heading to a
  // place in the same page, its text a symbol. Its text in the heading would be noise to a reader and to a chunker.
  const permalink =
    (cur.kind === 'heading' || fragment === selfId) && fragment !== '' && samePage(href, context.pageUrl, context.urls);
  // a heading or term that links to itself as a whole (MDN's `<h2 id="syntax"><a href="#syntax">Syntax</a>`)
  const self = permalink && fragment === selfId;
  const breakText = cur.kind === 'heading' ? ' ' : inCell ? '<br>' : '\\\n';
  const link = new Container('link', breakText);
  stack.push(link);
  stack.frames.push({
    close: () => {
      stack.pop();
      const text = link.finishInline(']');
      const parent = stack.cur;
      if (
        (INVISIBLE_TEXT.test(text) && !context.rawHtml) ||
        (fragment !== '' && SKIP_LINK_TEXT.test(text)) ||
        (permalink && isPermalinkText(text))
      ) {
        if (link.leadingSpace || link.trailingSpace) parent.space();
        parent.droppedLink = true;
        return;
      }
      if (self) {
        parent.raw(text, link.leadingSpace, link.trailingSpace);
        return;
      }
      const destination = formatDestination(context.urls.resolve(href));
      parent.raw(`[${text}](${destination}${formatTitle(attribs.title)})`, link.leadingSpace, link.trailingSpace);
    },
  });
  return true;
}
