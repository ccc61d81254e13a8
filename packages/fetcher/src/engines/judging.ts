import type { PageRequest, PageResult } from '../page.js';
import type { RenderJudge, RenderVerdict } from '../render/judge.js';

/**
 * The render judge's verdict on `result`, fetched for `request`: the request's own judge, else `fallback` (the
 * fetcher's). The verdict is attached to the result (`PageResult.verdict`), so whoever receives that page knows what
 * its judge made of it (a judge that extracted the page meanwhile, say), and no other page carries it.
 */
export async function judgePage<V extends RenderVerdict>(
  request: PageRequest<V>,
  result: PageResult<V>,
  fallback: RenderJudge,
  /** Whether the verdict's `contentChars` will be compared with another page's (`JudgeOptions.countAll`). */
  countAll: boolean,
): Promise<V> {
  const page = {
    url: withFragment(result.url, request.url),
    status: result.status,
    contentType: result.contentType,
    headers: result.headers,
    ...(result.text !== undefined ? { text: result.text } : {}),
    ...(result.undecodedText ? { undecoded: { body: result.body, ...result.undecodedText } } : {}),
  };
  // Without a judge of its own the request's verdicts are the fallback's (`V` is then `RenderVerdict`).
  const judge = request.renderJudge ?? (fallback as RenderJudge<V>);
  const verdict = await judge(page, request.signal ? { signal: request.signal, countAll } : { countAll });
  result.verdict = verdict;
  return verdict;
}

/** `url` with the fragment of `requested` (a redirect keeps the fragment the client asked for). */
function withFragment(url: string, requested: string): string {
  const at = requested.indexOf('#');
  if (at < 0 || url.includes('#')) return url;
  return url + requested.slice(at);
}
