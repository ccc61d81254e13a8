/**
 * The language a `Content-Language` value names for a whole document, as the HTML standard reads it (the
 * `<meta http-equiv="content-language">` pragma and the HTTP header, when the page's `<html lang>` names none): one
 * language tag (`ja-JP`), else none. A list (`de, en`) names the languages of the audience, not the page's.
 */
export function documentLanguageOf(contentLanguage: string | undefined): string | undefined {
  const value = contentLanguage?.trim();
  if (!value || value.includes(',')) return undefined;
  // A BCP 47 tag: letters, digits and hyphens (`zh-Hant-TW`, `x-klingon`), nothing else.
  return /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(value) ? value : undefined;
}
