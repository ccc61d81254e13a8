import type { Format } from '../v2/formats.js';
import type { Parser, ThreatProtection } from '../v2/scrape-options.js';

/** The options of a scrape request this module reads. */
export interface FeatureRequest {
  formats: readonly Format[];
  parsers: readonly Parser[];
  redactPII?: unknown;
  profile?: { name: string } | undefined;
  threatProtection?: ThreatProtection | undefined;
  auditMetadata?: unknown;
  domainTools?: boolean | undefined;
  toolDetail?: string | undefined;
}

/** Formats of the hosted service that have no local counterpart, with why. */
const FORMATS: Partial<Record<Format['type'], string>> = {
  audio: 'the audio format needs the hosted media pipeline, which does not exist locally: the document has no audio',
  video: 'the video format needs the hosted media pipeline, which does not exist locally: the document has no video',
  menu: 'the menu format is not implemented by crawlkit: the document has no menu',
  deterministicJson:
    'the deterministicJson format needs the hosted deterministic extractor, which does not exist locally: the document has no json',
};

/**
 * The document warnings of the features a request asks for that cannot exist locally (hosted services, enterprise
 * team settings). They are accepted, never refused, and never dropped in silence: each gets a sentence here.
 */
export function unavailableFeatureWarnings(request: FeatureRequest): string[] {
  const warnings: string[] = [];
  const say = (text: string) => warnings.push(`${text[0]!.toUpperCase()}${text.slice(1)}.`);
  for (const type of new Set(request.formats.map((f) => f.type))) {
    const why = FORMATS[type];
    if (why) say(why);
  }
  if (request.redactPII !== undefined && request.redactPII !== false) {
    say('redactPII needs the hosted redaction models, which do not exist locally: the content is not redacted');
  }
  if (request.profile) {
    say(
      `persistent browser profiles (profile "${request.profile.name}") are a hosted feature: the page was ` +
        'fetched without stored browser state',
    );
  }
  const mode = request.threatProtection?.mode;
  if (mode === 'normal' || mode === 'zscaler') {
    say(
      `threatProtection mode "${mode}" scans URLs with a hosted provider, which does not exist locally: only its ` +
        'blacklist, whitelist and blocked TLDs apply',
    );
  }
  if (request.auditMetadata !== undefined)
    say('auditMetadata goes to the hosted audit log, which does not exist locally');
  if (request.domainTools || request.toolDetail !== undefined) {
    say(
      'domainTools and toolDetail list hosted Alexandria tools, which do not exist locally: the document has no tools',
    );
  }
  const pdf = request.parsers.find((p) => p.type === 'pdf');
  if (pdf?.mode === 'ocr')
    say('the pdf parser mode "ocr" needs OCR, which crawlkit does not have: the text layer is read');
  if (pdf?.blocks)
    say('the pdf parser option blocks (layout blocks) is not available locally: the document has no blocks');
  if (pdf?.pages || pdf?.pageMarkers) {
    say('the pdf parser options pages and pageMarkers are not available locally: the markdown is one piece');
  }
  return warnings;
}
