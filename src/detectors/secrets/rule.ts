import type { Severity } from "../../../gen/guard/v1/types_pb.js";
import { shannonEntropy } from "./entropy.js";
import { isPlaceholder } from "./placeholder.js";

/**
 * One secret format. Patterns are literal-anchored, bounded and unambiguous so they run in
 * linear time on hostile input (test/unit/detectors/regex-safety.test.ts holds them to it).
 * Every pattern carries the `g` and `d` flags: `g` to walk all matches, `d` for the offsets
 * of the capture group that holds the secret.
 */
export interface SecretRule {
  /** Suffix of the category: `security.secret_leak.<id>`. */
  readonly id: string;
  /** Placeholder kind for redaction, upper case (`AWS_KEY`, `GITHUB_TOKEN`, ...). */
  readonly kind: string;
  /** Lower-case literals, one of which appears in any text the pattern can match. */
  readonly keywords: readonly string[];
  readonly pattern: RegExp;
  readonly severity: Severity;
  /** Confidence when the value passes validation, 0 to 1. */
  readonly score: number;
  readonly reason: string;
  /** Capture group holding the secret; defaults to 1 when the pattern has one, else 0. */
  readonly group?: number;
  /** Minimum Shannon entropy (bits per character) of the secret. */
  readonly minEntropy?: number;
  /** Format-specific rules with distinctive prefixes win overlaps against generic ones. */
  readonly priority?: number;
  /** Skips the placeholder check, for rules that make their own. */
  readonly ownPlaceholderCheck?: boolean;
  /**
   * Where a match can start, for rules whose keyword is common (`key`, `://`): offsets in
   * ascending order, found from the keyword's occurrences in `lower` (the lower-cased text).
   * The pattern is then tried at those offsets only instead of at every position of the
   * text; it must match nothing that starts elsewhere.
   */
  readonly locate?: (text: string, lower: string) => readonly number[];
  /**
   * Extra validation. Returns false to drop the match, true to keep it as matched, or a
   * hit that overrides span, severity or score (e.g. the private key block's full extent).
   */
  readonly accept?: (value: string, match: RegExpExecArray, text: string) => boolean | Partial<SecretHit>;
}

/** A validated match of one rule; offsets are UTF-16 indexes into the segment text. */
export interface SecretHit {
  readonly rule: SecretRule;
  readonly start: number;
  readonly end: number;
  readonly value: string;
  readonly severity: Severity;
  readonly score: number;
}

/** Sticky copies of the patterns of rules with `locate`, to try one offset at a time. */
const sticky = new WeakMap<SecretRule, RegExp>();

function stickyPattern(rule: SecretRule): RegExp {
  let pattern = sticky.get(rule);
  if (!pattern) {
    pattern = new RegExp(rule.pattern.source, `${rule.pattern.flags.replace("g", "")}y`);
    sticky.set(rule, pattern);
  }
  return pattern;
}

/** Runs one rule over `text` (lower-cased: `lower`) and returns its validated hits. */
export function runRule(rule: SecretRule, text: string, lower = text.toLowerCase()): SecretHit[] {
  if (rule.locate) return runAt(rule, text, rule.locate(text, lower));
  const hits: SecretHit[] = [];
  const pattern = rule.pattern;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    const hit = validate(rule, match, text);
    if (hit) hits.push(hit);
  }
  return hits;
}

/** Tries the rule at each candidate offset, skipping those inside a previous match. */
function runAt(rule: SecretRule, text: string, starts: readonly number[]): SecretHit[] {
  const hits: SecretHit[] = [];
  const pattern = stickyPattern(rule);
  let next = 0;
  for (const start of starts) {
    if (start < next) continue;
    pattern.lastIndex = start;
    const match = pattern.exec(text);
    if (match === null || match[0].length === 0) continue;
    next = match.index + match[0].length;
    const hit = validate(rule, match, text);
    if (hit) hits.push(hit);
  }
  return hits;
}

function validate(rule: SecretRule, match: RegExpExecArray, text: string): SecretHit | null {
  const group = rule.group ?? (match.length > 1 ? 1 : 0);
  const value = match[group];
  const span = match.indices?.[group];
  if (value === undefined || span === undefined) return null;
  if (!rule.ownPlaceholderCheck && isPlaceholder(value)) return null;
  // A value that runs into filler (`xoxp-5723...-####`) is a masked example.
  if (/^[-_]?[#*•]{2}/.test(text.slice(span[1], span[1] + 3))) return null;
  if (rule.minEntropy !== undefined && shannonEntropy(value) < rule.minEntropy) return null;
  const verdict = rule.accept ? rule.accept(value, match, text) : true;
  if (verdict === false) return null;
  const override = verdict === true ? {} : verdict;
  return {
    rule,
    start: override.start ?? span[0],
    end: override.end ?? span[1],
    value: override.value ?? value,
    severity: override.severity ?? rule.severity,
    score: override.score ?? rule.score,
  };
}
