/**
 * Which pages of a crawl fold into their canonical: a page whose `rel=canonical` names another page of the crawl is
 * that page only when the two hold the same main content (`mainContentHash`). A thread's page 2 naming page 1, or a
 * CMS naming its home on every page, holds other text and is kept; a Discourse post URL or a `?replytocom=` copy
 * serving its topic's page folds. Each page records its hash under its own key and under the key its canonical
 * names (`TaskStore.claimAlias`), so whichever of the two is fetched first, the second compares with it, in any
 * process of the crawl and after a resume.
 */
import type { AliasClaim, Store } from '@crawlkit/store';

/** A fetched page, as the fold reads it. */
export interface FoldedPage {
  /** The key of the page's task. */
  taskKey: string;
  /** The key of the URL the page was fetched from (its task's, or its redirect target's). */
  key: string;
  /** The key of the other page its `rel=canonical` names, when it names one of the crawl. */
  canonicalKey?: string | undefined;
  /** The hash of its main content; undefined when it has none (nothing to compare: it is kept). */
  hash?: string | undefined;
}

/** Whether the page holds what another page of the crawl already holds under `key` or its canonical's key. */
export async function foldsByContent(store: Store, jobId: string, page: FoldedPage): Promise<boolean> {
  if (page.hash === undefined) return false;
  const claim: AliasClaim = { hash: page.hash, by: page.taskKey };
  const same = (found: AliasClaim | undefined) =>
    found !== undefined && found.by !== claim.by && found.hash === claim.hash;
  if (page.canonicalKey !== undefined && same(await store.tasks.claimAlias(jobId, page.canonicalKey, claim))) {
    return true;
  }
  return same(await store.tasks.claimAlias(jobId, page.key, claim));
}
