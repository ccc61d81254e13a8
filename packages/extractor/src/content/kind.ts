// What the page says it is, in its metadata: an article (og:type, schema.org types) or a discussion.
import { isTag, isText, type AnyNode, type Document, type Element } from 'domhandler';

/** schema.org types of an article: news, blog posts, reports. */
const ARTICLE_TYPE =
  /"@type"\s*:\s*\[?\s*"(?:Article|NewsArticle|BlogPosting|Report|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|TechArticle|ScholarlyArticle|LiveBlogPosting)"/;

/** schema.org types of a discussion, where comments are the content: forum threads, Q&A pages, social posts. */
const DISCUSSION_TYPE = /"@type"\s*:\s*\[?\s*"(?:DiscussionForumPosting|QAPage|Question|SocialMediaPosting)"/;

const DISCUSSION_MICRODATA = /schema\.org\/(?:DiscussionForumPosting|QAPage|Question|SocialMediaPosting)\b/i;

/** schema.org's question-and-answer page (not `Question` alone, which FAQ pages use for each of their entries). */
const QA_TYPE = /"@type"\s*:\s*\[?\s*"QAPage"/;

const QA_MICRODATA = /schema\.org\/QAPage\b/i;

/** What a page declares itself in its metadata: an article, a question with its answers, or nothing of either. */
export type DeclaredKind = 'article' | 'qa' | null;

/** What a page declares in its metadata, read in one walk of the document (`pageDeclarations`). */
export interface PageDeclarations {
  /** An article, a question with its answers, or neither (`declaredKind`). */
  kind: DeclaredKind;
  /** Whether it declares a schema.org `JobPosting`, in JSON-LD or microdata. */
  jobPosting: boolean;
}

/** schema.org's job posting, in JSON-LD. */
const POSTING_TYPE = /"@type"\s*:\s*\[?\s*"JobPosting"/;
/** ... and as a microdata item type (`itemtype`). */
const POSTING_MICRODATA = /schema\.org\/JobPosting\b/i;

/** Whether a microdata `itemtype` names a schema.org `JobPosting`. */
export function isJobPostingType(itemtype: string): boolean {
  return POSTING_MICRODATA.test(itemtype);
}

/**
 * The page's kind: `qa` when it declares itself a question with its answers (a schema.org QAPage, in JSON-LD or
 * microdata); else `article` when it declares itself an article (`og:type` article, or a schema.org Article type in
 * JSON-LD) and nothing declares it a discussion (a forum thread, a Q&A page, whose comments are its content);
 * otherwise null. And whether it declares a job posting. Reads the whole document before pruning: JSON-LD lives in
 * scripts.
 */
export function pageDeclarations(document: Document): PageDeclarations {
  let article = false;
  let discussion = false;
  let qa = false;
  let jobPosting = false;
  const stack: AnyNode[] = [...document.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    const el: Element = node;
    const a = el.attribs;
    if (el.name === 'meta' && (a['property'] ?? a['name'])?.toLowerCase() === 'og:type') {
      if (a['content']?.trim().toLowerCase() === 'article') article = true;
      continue;
    }
    const itemtype = a['itemtype'];
    if (itemtype !== undefined) {
      if (DISCUSSION_MICRODATA.test(itemtype)) {
        if (QA_MICRODATA.test(itemtype)) qa = true;
        discussion = true;
      }
      if (isJobPostingType(itemtype)) jobPosting = true;
    }
    if (el.name === 'script') {
      if (a['type']?.toLowerCase() === 'application/ld+json') {
        const json = scriptText(el);
        if (QA_TYPE.test(json)) qa = true;
        if (DISCUSSION_TYPE.test(json)) discussion = true;
        if (ARTICLE_TYPE.test(json)) article = true;
        if (POSTING_TYPE.test(json)) jobPosting = true;
      }
      continue;
    }
    for (const c of el.children) stack.push(c);
  }
  return { kind: qa ? 'qa' : article && !discussion ? 'article' : null, jobPosting };
}

/** The page's kind alone (`pageDeclarations`). */
export function declaredKind(document: Document): DeclaredKind {
  return pageDeclarations(document).kind;
}

function scriptText(el: Element): string {
  let out = '';
  for (const c of el.children) if (isText(c)) out += c.data;
  return out;
}
