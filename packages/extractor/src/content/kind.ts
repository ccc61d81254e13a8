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

/**
 * `qa` when the page declares itself a question with its answers (a schema.org QAPage, in JSON-LD or microdata);
 * else `article` when it declares itself an article (`og:type` article, or a schema.org Article type in JSON-LD)
 * and nothing declares it a discussion (a forum thread, a Q&A page, whose comments are its content); otherwise null.
 * Reads the whole document before pruning: JSON-LD lives in scripts.
 */
export function declaredKind(document: Document): DeclaredKind {
  let article = false;
  let discussion = false;
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
    if (itemtype !== undefined && DISCUSSION_MICRODATA.test(itemtype)) {
      if (QA_MICRODATA.test(itemtype)) return 'qa';
      discussion = true;
    }
    if (el.name === 'script') {
      if (a['type']?.toLowerCase() === 'application/ld+json') {
        const json = scriptText(el);
        if (QA_TYPE.test(json)) return 'qa';
        if (DISCUSSION_TYPE.test(json)) discussion = true;
        if (ARTICLE_TYPE.test(json)) article = true;
      }
      continue;
    }
    for (const c of el.children) stack.push(c);
  }
  return article && !discussion ? 'article' : null;
}

function scriptText(el: Element): string {
  let out = '';
  for (const c of el.children) if (isText(c)) out += c.data;
  return out;
}

/** schema.org's job posting, in JSON-LD or microdata. */
const POSTING_TYPE = /"@type"\s*:\s*\[?\s*"JobPosting"/;
const POSTING_MICRODATA = /schema\.org\/JobPosting\b/i;

/** Whether the page declares itself a job posting (a schema.org `JobPosting`, in JSON-LD or microdata). */
export function declaresJobPosting(document: Document): boolean {
  const stack: AnyNode[] = [...document.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    const itemtype = node.attribs['itemtype'];
    if (itemtype !== undefined && POSTING_MICRODATA.test(itemtype)) return true;
    if (node.name === 'script') {
      if (node.attribs['type']?.toLowerCase() === 'application/ld+json' && POSTING_TYPE.test(scriptText(node)))
        return true;
      continue;
    }
    for (const c of node.children) stack.push(c);
  }
  return false;
}
