// A route of the fixture server answering one small HTML page: a title and a paragraph of text, as search tests
// store and look for.
import type { RouteHandler } from '../../fixtures/server.ts';

/** A 200 HTML page titled `title` (also its heading) whose main content is the paragraph `text`. */
export function textPage(title: string, text: string): RouteHandler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`,
    );
  };
}
