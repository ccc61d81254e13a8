import { createRequire } from 'node:module';

import { lazyRequire } from '@crawlkit/options/lazy-module';
import ct from 'countries-and-timezones';

/** What a browser in a country looks like: its time zone, position and language. */
export interface CountryProfile {
  /** ISO 3166-1 alpha-2 code, upper case. */
  code: string;
  /** IANA time zone of the capital (or the main population centre for multi-zone countries). */
  timezone: string;
  /** Geographic centre of the country, degrees. */
  latitude: number;
  longitude: number;
  /** Default BCP 47 locale, e.g. `de-DE`. */
  locale: string;
}

interface LocaleRecord {
  alpha2: string;
  default_locale: string;
  latitude?: string;
  longitude?: string;
  capital?: string;
}

/** Multi-zone countries whose capital's zone is not their main one, or whose capital has no zone of its own. */
const TIMEZONE_OVERRIDES: Record<string, string> = {
  US: 'America/New_York',
  CA: 'America/Toronto',
  AU: 'Australia/Sydney',
  BR: 'America/Sao_Paulo',
  NL: 'Europe/Amsterdam',
  CH: 'Europe/Zurich',
  IN: 'Asia/Kolkata',
  CN: 'Asia/Shanghai',
  TR: 'Europe/Istanbul',
  VN: 'Asia/Ho_Chi_Minh',
  NZ: 'Pacific/Auckland',
  ZA: 'Africa/Johannesburg',
  KZ: 'Asia/Almaty',
  AR: 'America/Argentina/Buenos_Aires',
  EC: 'America/Guayaquil',
  CD: 'Africa/Kinshasa',
  MY: 'Asia/Kuala_Lumpur',
  ID: 'Asia/Jakarta',
  PS: 'Asia/Gaza',
  IL: 'Asia/Jerusalem',
  BO: 'America/La_Paz',
  PG: 'Pacific/Port_Moresby',
  FM: 'Pacific/Pohnpei',
  KI: 'Pacific/Tarawa',
};

const require = createRequire(import.meta.url);
const countryList = lazyRequire(() => require('country-locale-map/countries.json') as LocaleRecord[]);
let records: Map<string, LocaleRecord> | undefined;
function localeRecords(): Map<string, LocaleRecord> {
  return (records ??= new Map(countryList().map((r) => [r.alpha2.toUpperCase(), r])));
}

/** v2's special location values (both mean the US) and the common `uk` alias, upper-cased. */
function canonicalCountry(country: string): string {
  const code = country.trim().toUpperCase();
  if (code === 'US-GENERIC' || code === 'US-WHITELIST') return 'US';
  return code === 'UK' ? 'GB' : code;
}

/**
 * Whether `country` is a location v2 accepts: an ISO 3166-1 alpha-2 code in any case, `us-generic` or
 * `us-whitelist`. The one list of countries (`country-locale-map`'s), shared by validation and the browser profile.
 */
export function isCountryCode(country: string): boolean {
  return localeRecords().has(canonicalCountry(country));
}

function primaryTimezone(code: string, capital: string | undefined): string | undefined {
  const override = TIMEZONE_OVERRIDES[code];
  if (override) return override;
  const zones = ct.getCountry(code)?.timezones ?? [];
  if (capital) {
    const city = capital
      .replace(/\s+/g, '_')
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '');
    const byCapital = zones.find((zone) => zone.endsWith(`/${city}`));
    if (byCapital) return byCapital;
  }
  return zones[0];
}

/**
 * The profile of `country` (ISO 3166-1 alpha-2, any case; v2's `us-generic` and `us-whitelist` mean US), or
 * `undefined` for an unknown code. Data: `countries-and-timezones` (zones) and `country-locale-map` (locale and
 * centre).
 */
export function countryProfile(country: string): CountryProfile | undefined {
  const code = canonicalCountry(country);
  const record = localeRecords().get(code);
  if (!record) return undefined;
  const timezone = primaryTimezone(code, record.capital);
  if (!timezone) return undefined;
  return {
    code,
    timezone,
    latitude: Number(record.latitude ?? 0),
    longitude: Number(record.longitude ?? 0),
    locale: record.default_locale.replace('_', '-'),
  };
}

/**
 * The language list Chromium turns into `Accept-Language` (it adds the q-values itself): the tags in order, each
 * regional tag followed by its bare language when the list lacks it (`de-DE` → `de-DE,de`).
 */
export function acceptLanguage(languages: readonly string[]): string {
  const tags: string[] = [];
  for (const raw of languages) {
    const tag = raw.trim().replace('_', '-');
    if (!tag) continue;
    if (!tags.includes(tag)) tags.push(tag);
    const base = tag.split('-')[0]!;
    if (base !== tag && !languages.includes(base) && !tags.includes(base)) tags.push(base);
  }
  return tags.join(',');
}
