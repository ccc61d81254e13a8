import { FetchError, SSL_ERROR_MESSAGE } from './errors.js';

/** Node's (OpenSSL's) and Chromium's codes of a certificate out of its dates. */
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_CERT_DATE_INVALID']);
/** ... of a certificate for another name. */
const OTHER_HOST = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH', 'ERR_CERT_COMMON_NAME_INVALID']);
/** ... of a certificate whose issuer is not trusted (self-signed, or a private CA). */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'ERR_CERT_AUTHORITY_INVALID',
]);

/**
 * The v2 `SCRAPE_SSL_ERROR` (its message first, as upstream words it), followed by what was wrong with the
 * certificate and what to do: `code` is Node's (`CERT_HAS_EXPIRED`) for the HTTP engine, Chromium's
 * (`ERR_CERT_DATE_INVALID`) for the browser, which does not read `NODE_EXTRA_CA_CERTS`.
 */
export function sslError(
  code: string,
  engine: 'http' | 'browser',
  url: string,
  cause?: unknown,
  failure?: unknown,
): FetchError {
  let detail: string;
  if (EXPIRED.has(code)) detail = `The site's certificate has expired, or is not valid yet (${code}).`;
  else if (OTHER_HOST.has(code)) {
    const names = certificateNames(failure);
    detail = names
      ? `The site's certificate is for ${names}, not ${hostOf(url)} (${code}).`
      : `The site's certificate is for another host name (${code}).`;
  } else if (UNTRUSTED.has(code)) {
    detail =
      engine === 'http'
        ? `The site's certificate is signed by an authority Node does not trust (${code}): put a company CA in a PEM file named by NODE_EXTRA_CA_CERTS (read when the process starts).`
        : `The site's certificate is signed by an authority the browser does not trust (${code}): Chromium does not read NODE_EXTRA_CA_CERTS (only the HTTP engine does), so fetch such a site with engine 'http', or set skipTlsVerification: true.`;
  } else detail = `(${code || 'TLS handshake failed'})`;
  return new FetchError('SCRAPE_SSL_ERROR', `${SSL_ERROR_MESSAGE} ${detail}`, {
    url,
    ...(cause !== undefined ? { cause } : {}),
  });
}

/**
 * The names a certificate is for, from Node's host-name check failure (`cert.subjectaltname`, `DNS:a, IP Address:b`,
 * else its common name): `a, b`. Undefined when the failure does not carry them (Chromium's never does).
 */
function certificateNames(failure: unknown): string | undefined {
  const cert = (failure as { cert?: { subjectaltname?: unknown; subject?: { CN?: unknown } } } | undefined)?.cert;
  if (typeof cert?.subjectaltname === 'string' && cert.subjectaltname) {
    return cert.subjectaltname
      .split(', ')
      .map((name) => name.replace(/^(DNS|IP Address):/, ''))
      .join(', ');
  }
  return typeof cert?.subject?.CN === 'string' ? cert.subject.CN : undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
