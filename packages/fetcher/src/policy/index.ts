// Public surface of the URL policy (issue 13).
export { STRICT_URL_POLICY, checkUrlAgainstPolicy, isBlockedAddress, redactUrl, type UrlPolicy } from './url-policy.js';
export { guardLookup } from './guarded-lookup.js';
