/**
 * URL rules of the v2 body (reference §1): a missing scheme gets `http://`; the result must parse, use http(s),
 * have a host that is an IP literal, `localhost` or a dotted name with a TLD-shaped last label, and must not
 * carry a second scheme.
 */
const NON_WEB_SCHEME =
  /^(?:javascript|data|file|mailto|tel|ftp|ftps|ssh|telnet|blob|about|chrome|view-source|ws|wss):/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;

export type UrlCheck = { ok: true; url: string } | { ok: false; message: string };

export function checkV2Url(input: string): UrlCheck {
  const trimmed = input.trim();
  if (trimmed === '') return { ok: false, message: 'URL must not be empty' };
  if (NON_WEB_SCHEME.test(trimmed)) {
    return { ok: false, message: 'URL uses unsupported protocol' };
  }
  const withScheme = HAS_SCHEME.test(trimmed) ? trimmed : `http://${trimmed}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return { ok: false, message: 'Invalid URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, message: 'URL uses unsupported protocol' };
  }
  if (/^https?:\/\/https?:\/?\/?/i.test(withScheme) || /^https?:$/i.test(parsed.hostname)) {
    return { ok: false, message: 'Invalid URL' };
  }
  if (!isAcceptableHost(parsed.hostname)) {
    return { ok: false, message: 'URL must have a valid top-level domain or be a valid path or an IP address' };
  }
  return { ok: true, url: withScheme };
}

function isAcceptableHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (hostname.startsWith('[')) return true; // IPv6 literal (the URL parser validated it)
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname)) return true; // IPv4 (the URL parser normalised other spellings)
  const labels = hostname.replace(/\.$/, '').split('.');
  if (labels.length < 2 || labels.some((l) => l === '')) return false;
  return TLD.test(labels[labels.length - 1] ?? '');
}
