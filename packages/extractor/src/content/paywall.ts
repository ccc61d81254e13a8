// Paywall and sign-in prompts inside a story: the story stops there, the prompt and the plans after it are not text.
import { anyOf, phraseTable } from './phrases/phrase-table.js';

/** Headings of a paywall, whose section (plans, prices, perks) goes with them: at the heading's start. */
const PAYWALL_HEADINGS = phraseTable(String.raw`
  this (?:article|story|content|post|piece) is (?:exclusive|only available|available only|reserved) (?:to|for) (?:our )?(?:[\w+&.-]+ )?(?:subscribers|members)\b
  unlock (?:this|the full|the rest of this) (?:article|story|post)\b
  subscribe (?:now )?to (?:continue|keep) reading\b
  (?:continue|keep) reading with (?:a|an) [\w+ ]{0,30}subscription\b
  what(?:'s| is) included (?:in|with) (?:a|your|the) (?:subscription|membership)\??$
`);

const PAYWALL_HEADING = anyOf(PAYWALL_HEADINGS, '^');

/**
 * Short prompts of a paywall or sign-in box ("Already have an account? Log in", "Become a paid subscriber to …"): the
 * block's whole text.
 */
const PAYWALL_TEXTS = phraseTable(String.raw`
  already (?:have an account|a (?:subscriber|member))\?(?: (?:log|sign) ?in\.?)?
  to read the rest of this (?:article|story|post),? (?:please )?(?:subscribe|log in|sign in)\b.{0,60}
  become a paid (?:subscriber|member)\b.{0,120}
`);

const PAYWALL_TEXT = anyOf(PAYWALL_TEXTS, '^', '$');

export function isPaywallHeading(text: string): boolean {
  return PAYWALL_HEADING.test(text);
}

/** Whether a short block (up to the 200 characters of a reader prompt, `clean.ts`) is a paywall prompt. */
export function isPaywallPrompt(text: string): boolean {
  return PAYWALL_TEXT.test(text) || PAYWALL_HEADING.test(text);
}
