// Public surface of the URL policy (issue 13).
export {
  STRICT_URL_POLICY,
  checkUrlAgainstPolicy,
  isAllowedByPolicy,
  isBlockedAddress,
  redactUrl,
  tightenUrlPolicy,
  type UrlPolicy,
} from './url-policy.js';
export { sameHeaderSite } from './header-site.js';
export { checksAddresses, guardLookup, resolveChecked } from './guarded-lookup.js';
