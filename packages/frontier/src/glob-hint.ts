/**
 * What a Crawlee user's glob (`/docs/**`, `**\/*.html`) is as the regular expression `includePaths` and `excludePaths`
 * take: the hint a refused pattern's message gives. Crawlee's `globs` match the whole URL; crawl patterns match the
 * URL's path (unless `regexOnFullURL`), so a glob's scheme and host are left out.
 */

/** Whether a pattern reads as a glob: `**`, or a `*` with nothing before it to repeat (start, `/`, `(`, `|`). */
export function looksLikeGlob(source: string): boolean {
  return source.includes('**') || /(^|[/(|])\*/.test(source);
}

const SPECIAL = /[.+^$()|[\]\\]/;

/**
 * The regular expression a glob means, on the URL's path: `**` any characters, `*` and `?` any within one segment,
 * `{a,b}` either. A glob ending in `**` (or `/**`) matches the paths under it, so no `$`; a glob starting with `/`
 * is anchored with `^`, one starting with `**` is not.
 */
export function globToPathRegex(glob: string): string {
  let source = glob.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  if (source === '') source = '/**';
  const anchored = source.startsWith('/');
  source = source.replace(/^\*\*\/?/, '');
  const open = /\*\*$/.test(source);
  source = source.replace(/\*\*$/, '');
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '*' && source[i + 1] === '*') {
      out += source[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += source[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') out += '(?:';
    else if (c === '}') out += ')';
    else if (c === ',' && out.lastIndexOf('(?:') > out.lastIndexOf(')')) out += '|';
    else out += SPECIAL.test(c) ? `\\${c}` : c;
  }
  return `${anchored ? '^' : ''}${out}${open ? '' : '$'}`;
}

/** The sentence a refused pattern's message ends with when it reads as a glob, else ''. */
export function globHint(source: string): string {
  if (!looksLikeGlob(source)) return '';
  return (
    `. includePaths and excludePaths are regular expressions on the URL's path (with regexOnFullURL, the whole ` +
    `URL), not globs: for the glob ${JSON.stringify(source)} write ${JSON.stringify(globToPathRegex(source))}`
  );
}
