import { buildAnchorIndex } from "./anchors.js";
import { dictatesReply, findHiddenText, type HiddenSignal } from "./hidden-text.js";
import {
  type ChannelClass,
  DISCUSSION,
  DISCUSSION_DAMPING,
  FAMILIES,
  type Family,
  type Harm,
  LIMIT_TALK_LABEL,
} from "./lexicon.js";
import { type NormalisedText, normalise } from "./normalise.js";
import { type Prefilter, prefilter } from "./prefilter.js";
import { splitUnits, type Unit } from "./sentences.js";
import { findStrayQuestions } from "./stray-question.js";

/**
 * Turns lexicon hits and hidden-text signals into a score per harm.
 *
 * Each family counts once per text, at its strongest unit, and families combine by noisy-OR
 * (`1 - Π(1 - w)`): one unambiguous phrase ("ignore all previous instructions", 0.9) decides
 * alone, while a long jailbreak prompt that is only mildly suspicious in each sentence adds up
 * across independent families. Counting a family once keeps a long benign document that says
 * "your reply" ten times from scoring higher than one that says it once.
 */

/** Weight of each hiding trick on its own, whatever the hidden text says. */
const HIDDEN_WEIGHT: Readonly<Record<HiddenSignal["kind"], number>> = {
  tag_smuggling: 0.9,
  zero_width: 0.3,
  bidi_override: 0.45,
  encoded_text: 0.15,
};

/**
 * Weight when hidden or encoded text itself reads as an attempt: its lexicon score is at least
 * 0.3, or it dictates what to say (hidden-text.ts `dictatesReply`).
 */
const HIDDEN_INSTRUCTION_WEIGHT = 0.9;
/** Weight when a matched phrase was written with look-alikes, leetspeak or invisible splits. */
const EVASION_WEIGHT = 0.5;
/** Share of their weight the role-play families keep in user text without talk of limits. */
const ROLE_PLAY_ALONE = 0.75;
/** Labels of the role-play families (lexicon.ts): persona set-ups and dual-response formats. */
const ROLE_PLAY_LABELS: ReadonlySet<string> = new Set(
  FAMILIES.filter((f) => f.id === "persona" || f.id === "dual_response").map((f) => f.label),
);

/** Weight of an off-topic question inside a tool result (see stray-question.ts). */
const STRAY_QUESTION_WEIGHT: Readonly<Record<ChannelClass, number>> = {
  document: 0.5,
  inventory: 0,
  user: 0,
};

export interface HarmScore {
  /** 0..1, noisy-OR of the families of this harm. */
  readonly score: number;
  /** UTF-16 range in the source of the strongest evidence: its sentence or hidden blob. */
  readonly start: number;
  readonly end: number;
  /** Labels of contributing families, strongest first. */
  readonly evidence: readonly string[];
  /** Whether hidden or encoded text was part of the evidence. */
  readonly hidden: boolean;
}

export interface Assessment {
  readonly injection: HarmScore;
  readonly jailbreak: HarmScore;
  /** Noisy-OR of both harms. */
  readonly overall: number;
}

interface Contribution {
  readonly label: string;
  readonly weight: number;
  readonly start: number;
  readonly end: number;
  readonly hidden: boolean;
}

const ANCHORS = buildAnchorIndex(FAMILIES);

/** Per channel class, bits of the families that weigh anything there; the others are not read. */
const LIVE: Readonly<Record<ChannelClass, number>> = {
  document: liveMask("document"),
  inventory: liveMask("inventory"),
  user: liveMask("user"),
};

function liveMask(cls: ChannelClass): number {
  let mask = 0;
  FAMILIES.forEach((family, index) => {
    if (family.weight[cls] > 0) mask |= 1 << index;
  });
  return mask;
}

/**
 * True when the source slice differs from the match beyond case, spacing and quote style, and,
 * for a family whose words are written with accents (`spelledWithAccents`: "instruções",
 * "ignorez"), beyond accents: there they are spelling, while on an English phrase they are a
 * way round filters.
 */
function isObfuscated(source: string, normalisedMatch: string, spelledWithAccents: boolean): boolean {
  let plain = source
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, " ");
  if (spelledWithAccents) plain = plain.normalize("NFD").replace(/\p{M}/gu, "");
  return plain !== normalisedMatch && withoutPathTokens(plain) !== withoutPathTokens(normalisedMatch);
}

/**
 * The words of `text` but paths and identifiers (`/home/dev/.ssh/id_ed25519`, `api_v2`): the
 * leetspeak folding reads their digits as letters (`ed25519` as `ed2ssi9`), which is no sign of
 * evasion when a matched order names a key file.
 */
function withoutPathTokens(text: string): string {
  return text
    .split(" ")
    .filter((token) => !token.includes("/") && !token.includes("_"))
    .join(" ");
}

/** Bit set of families whose anchors occur, per unit. */
function anchorMasks(norm: NormalisedText, units: readonly Unit[]): Int32Array {
  const masks = new Int32Array(units.length);
  let u = 0;
  for (const m of norm.text.matchAll(ANCHORS.pattern)) {
    while (u < units.length && (units[u]?.end ?? 0) <= m.index) u++;
    if (u >= units.length) break;
    if ((units[u]?.start ?? 0) <= m.index) masks[u] = (masks[u] ?? 0) | (ANCHORS.masks.get(m[0]) ?? 0);
  }
  return masks;
}

/**
 * Adds the lexicon contributions of `source` (a whole text, or a window of whole lines of it
 * starting at `offset`) to `best`, the strongest unit of each family so far. Only families whose
 * bit is set in `mask` run; windows are visited in text order, so the first of equally strong
 * units wins, as in one pass over the whole text.
 */
function addLexicon(
  best: Map<Family, Contribution>,
  source: string,
  norm: NormalisedText,
  units: readonly Unit[],
  cls: ChannelClass,
  mask: number,
  offset: number,
): void {
  const masks = anchorMasks(norm, units);
  for (let ui = 0; ui < units.length; ui++) {
    const unitMask = (masks[ui] ?? 0) & mask;
    if (unitMask === 0) continue;
    const unit = units[ui];
    if (!unit) continue;
    const text = norm.text.slice(unit.start, unit.end);
    let discussion: boolean | undefined;
    const unitStart = norm.from[unit.start] ?? 0;
    const unitEnd = norm.to[unit.end - 1] ?? source.length;
    for (let fi = 0; fi < FAMILIES.length; fi++) {
      if ((unitMask & (1 << fi)) === 0) continue;
      const family = FAMILIES[fi];
      if (!family) continue;
      let weight = family.weight[cls];
      if (weight <= 0) continue;
      const previous = best.get(family);
      if (previous && previous.weight >= weight) continue;
      for (const pattern of family.patterns) {
        const m = pattern.exec(text);
        if (!m) continue;
        if (family.dampable) {
          discussion ??= DISCUSSION.test(text);
          if (discussion) weight *= DISCUSSION_DAMPING;
        }
        if (!previous || weight > previous.weight) {
          const matchStart = norm.from[unit.start + m.index] ?? unitStart;
          const matchEnd = norm.to[unit.start + m.index + m[0].length - 1] ?? unitEnd;
          const evasive = isObfuscated(
            source.slice(matchStart, matchEnd),
            m[0],
            family.spelledWithAccents === true,
          );
          best.set(family, {
            label: family.label,
            weight,
            start: unitStart + offset,
            end: unitEnd + offset,
            hidden: evasive,
          });
        }
        break;
      }
    }
  }
}

function noisyOr(weights: Iterable<number>): number {
  let keep = 1;
  for (const w of weights) keep *= 1 - Math.min(1, Math.max(0, w));
  return 1 - keep;
}

function combine(contributions: readonly Contribution[]): HarmScore {
  if (contributions.length === 0) return { score: 0, start: 0, end: 0, evidence: [], hidden: false };
  // Families that share a label read the same evidence in two strengths: count it once.
  const strongest = new Map<string, Contribution>();
  for (const c of contributions) {
    const seen = strongest.get(c.label);
    if (!seen || c.weight > seen.weight) strongest.set(c.label, c);
  }
  const sorted = [...strongest.values()].sort((a, b) => b.weight - a.weight);
  const top = sorted[0] as Contribution;
  return {
    score: noisyOr(sorted.map((c) => c.weight)),
    start: top.start,
    end: top.end,
    evidence: sorted.map((c) => c.label),
    hidden: contributions.some((c) => c.hidden),
  };
}

type ByHarm = Record<Harm, Contribution[]>;

const ALL_FAMILIES = -1;

function byHarmOf(best: ReadonlyMap<Family, Contribution>): ByHarm {
  const byHarm: ByHarm = { injection: [], jailbreak: [] };
  for (const [family, c] of best) byHarm[family.harm].push(c);
  return byHarm;
}

function addStrayQuestion(
  byHarm: ByHarm,
  text: string,
  norm: NormalisedText,
  units: readonly Unit[],
  cls: ChannelClass,
): void {
  const strayWeight = STRAY_QUESTION_WEIGHT[cls];
  if (strayWeight <= 0) return;
  const stray = findStrayQuestions(norm.text, units)[0];
  if (!stray) return;
  byHarm.injection.push({
    label: "off-topic question",
    weight: strayWeight,
    start: norm.from[stray.start] ?? 0,
    end: norm.to[stray.end - 1] ?? text.length,
    hidden: false,
  });
}

/**
 * In user text a role-play set-up ("act as a Linux terminal", "stay in character", "answer in
 * two ways") is what people ask assistants for every day; it reads as a jailbreak only beside
 * talk of lifting limits. Without that talk the role-play families weigh ROLE_PLAY_ALONE of
 * their weight: still evidence beside an override, but under the classifier floor on their own.
 */
function dampRolePlay(byHarm: ByHarm): void {
  if (byHarm.jailbreak.some((c) => c.label === LIMIT_TALK_LABEL)) return;
  byHarm.jailbreak = byHarm.jailbreak.map((c) =>
    ROLE_PLAY_LABELS.has(c.label) ? { ...c, weight: c.weight * ROLE_PLAY_ALONE } : c,
  );
}

/** Scores the lexicon over the whole text, with no prefilter: used on decoded hidden text. */
function assessPlain(text: string, cls: ChannelClass): ByHarm {
  const best = new Map<Family, Contribution>();
  const norm = normalise(text);
  const units = splitUnits(norm.text);
  addLexicon(best, text, norm, units, cls, ALL_FAMILIES, 0);
  const byHarm = byHarmOf(best);
  addStrayQuestion(byHarm, text, norm, units, cls);
  return byHarm;
}

/**
 * The same scores as `assessPlain`, reading only what the prefilter marked: the lines where a
 * family may match, and the whole text for stray questions only when some line may hold one.
 */
function assessMarked(text: string, cls: ChannelClass, pre: Prefilter): ByHarm {
  const best = new Map<Family, Contribution>();
  for (const w of pre.windows) {
    const mask = w.mask & LIVE[cls];
    if (mask === 0) continue;
    const source = text.slice(w.start, w.end);
    const norm = normalise(source);
    addLexicon(best, source, norm, splitUnits(norm.text), cls, mask, w.start);
  }
  const byHarm = byHarmOf(best);
  if (pre.question && STRAY_QUESTION_WEIGHT[cls] > 0) {
    const norm = normalise(text);
    addStrayQuestion(byHarm, text, norm, splitUnits(norm.text), cls);
  }
  return byHarm;
}

/** The prefilter found nothing any step could read: no line, question or hidden text. */
function nothingMarked(pre: Prefilter, cls: ChannelClass): boolean {
  return (
    !pre.full &&
    !pre.windows.some((w) => (w.mask & LIVE[cls]) !== 0) &&
    !(pre.question && STRAY_QUESTION_WEIGHT[cls] > 0) &&
    !pre.tags &&
    !pre.controls &&
    !pre.encoded
  );
}

/**
 * Scores one text for the given channel class; linear in its length. `usePrefilter: false`
 * reads every line whatever the prefilter says: the same result, slower; the tests compare both.
 */
export function assess(text: string, cls: ChannelClass, usePrefilter = true): Assessment {
  const pre = usePrefilter ? prefilter(text) : undefined;
  if (pre && nothingMarked(pre, cls)) {
    // What the steps below come to when nothing was marked, without building them.
    const none = combine([]);
    return { injection: none, jailbreak: combine([]), overall: noisyOr([none.score, none.score]) };
  }
  const byHarm = !pre || pre.full ? assessPlain(text, cls) : assessMarked(text, cls, pre);
  if (cls === "user") dampRolePlay(byHarm);
  const evasive = [...byHarm.injection, ...byHarm.jailbreak].find((c) => c.hidden && c.weight >= 0.3);
  if (evasive) {
    byHarm.injection.push({ ...evasive, label: "obfuscated phrasing", weight: EVASION_WEIGHT, hidden: true });
  }
  for (const signal of findHiddenText(text, !pre || pre.full ? undefined : pre)) {
    const label = signal.kind.replace("_", " ");
    byHarm.injection.push({
      label,
      weight: HIDDEN_WEIGHT[signal.kind],
      start: signal.start,
      end: signal.end,
      hidden: true,
    });
    if (signal.decoded) {
      const inner = assessPlain(signal.decoded, cls);
      const innerScore = noisyOr([...inner.injection, ...inner.jailbreak].map((c) => c.weight));
      if (innerScore >= 0.3 || dictatesReply(signal.decoded)) {
        byHarm.injection.push({
          label: `instruction hidden as ${label}`,
          weight: Math.max(HIDDEN_INSTRUCTION_WEIGHT, innerScore),
          start: signal.start,
          end: signal.end,
          hidden: true,
        });
      }
    }
  }
  const injection = combine(byHarm.injection);
  const jailbreak = combine(byHarm.jailbreak);
  return { injection, jailbreak, overall: noisyOr([injection.score, jailbreak.score]) };
}
