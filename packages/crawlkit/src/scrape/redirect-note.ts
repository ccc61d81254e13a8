/** The statuses that ask the client to go elsewhere; `300` offers choices and `304` confirms a copy, so neither. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The note for a page that is a redirect its engine could not follow (no `Location` header, an empty one, or one
 * that is no URL): the page is kept as the server's body, which may be all it gives, and the note says so. Undefined
 * for any other page. Both engines follow every redirect they can, so a final page with a redirect status is one.
 */
export function redirectWithoutTargetNote(status: number, headers: Record<string, string>): string | undefined {
  if (!REDIRECT_STATUSES.has(status)) return undefined;
  const location = headers.location?.trim();
  const why = location ? `its \`Location\` header, \`${location.slice(0, 200)}\`, is no URL` : 'no `Location` header';
  return `The server answered ${status} (a redirect) without saying where to (${why}): the page is its body.`;
}
