/**
 * Which pages of a crawl fold into their canonical: a page whose `rel=canonical` names another page of the crawl is
 * that page only when the two hold the same main content (`mainContentHash`). A thread's page 2 naming page 1, or a
 * CMS naming its home on every page, holds other text and is kept; a Discourse post URL or a `?replytocom=` copy
 * serving its topic's page folds. A page records its hash under the key its canonical names, its own when it names
 * itself (`TaskStore.claimAlias`), so whichever of the two is fetched first, the second compares with it, in any
 * process of the crawl and after a resume.
 */
import type { AliasClaim, Store } from '@crawlkit/store';

/** A fetched page, as the fold reads it. */
export interface FoldedPage {
  /** The key of the page's task. */
  taskKey: string;
  /**
   * The key its `rel=canonical` names when that is a page of the crawl: its own key (the page says it is the page),
   * or another page's. Undefined when it names none: the page is neither compared nor recorded.
   */
  canonicalKey?: string | undefined;
  /** The hash of its main content; undefined when it has none (nothing to compare: it is kept). */
  hash?: string | undefined;
}

/**
 * Whether the page holds what another page of the crawl holds under the key its canonical names. A page naming itself
 * records its hash under its own key (its copies compare with it), a page naming another page under that page's; a
 * page naming none costs no store call (most of a site without canonicals), so a copy naming a page that names no
 * canonical is kept beside it.
 */
export async function foldsByContent(store: Store, jobId: string, page: FoldedPage): Promise<boolean> {
  if (page.hash === undefined || page.canonicalKey === undefined) return false;
  const claim: AliasClaim = { hash: page.hash, by: page.taskKey };
  const found = await store.tasks.claimAlias(jobId, page.canonicalKey, claim);
  return found !== undefined && found.by !== claim.by && found.hash === claim.hash;
}
