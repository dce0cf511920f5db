import { Channel, Severity } from "../../../gen/guard/v1/types_pb.js";
import { boundSubject, type Detection, type Detector } from "../detector.js";
import { classifierProbability, jailbreakProbability } from "./classifier.js";
import { JAILBREAK_DEVICE_LABEL } from "./devices.js";
import { type ChannelClass, LIMIT_TALK_LABEL, limitTalkCues } from "./lexicon.js";
import { normaliseForFeatures } from "./normalise.js";
import { type Assessment, assess, type HarmScore } from "./score.js";

/**
 * Prompt injection and jailbreak (`security.prompt_injection`, `security.jailbreak`): an
 * explainable scorer over normalised text (see prefilter.ts, normalise.ts, lexicon.ts,
 * hidden-text.ts, score.ts), seconded by a small trained classifier (classifier.ts, model.json).
 *
 * Channels and thresholds. Tool results are untrusted data in which any instruction to the
 * model is out of place, so they are judged strictly (0.5). Tool descriptions (inventory)
 * legitimately tell the model how to use the tool, so directives there weigh less and the
 * threshold is 0.55. User text is the principal speaking; it may ask for translations or say
 * "ignore the previous instructions" about its own earlier request, so it needs a clear
 * override or jailbreak to cross 0.6. System prompts and the model's own output are not read.
 *
 * Score (0..1). The heuristic score is the noisy-OR of the weights of the independent phrase
 * families and hidden-text signals found. The classifier never decides alone: it is consulted
 * only for a borderline text, whose heuristic score is at least CLASSIFIER_FLOOR but under the
 * threshold (some evidence, not enough), and when its probability is at least CLASSIFIER_RAISE
 * the score becomes the noisy-OR of the heuristic score and CLASSIFIER_WEIGHT x probability,
 * which crosses the threshold. Texts without evidence (almost all benign text) never pay for it
 * and cannot be flagged by it; that is what keeps false positives on clean documents down.
 *
 * Role play and limit talk (user text only). Users set up personas, games and formats all the
 * time ("act as a Linux terminal", "you are a patient maths tutor", "stay in character as
 * Sherlock", "answer in two ways"); what makes a jailbreak of such a set-up is the aim of lifting
 * the assistant's limits: no rules or filters, never refusing, whatever is asked, illegal or
 * explicit content, freedom from its makers. So in user text the role-play families count at a
 * fraction of their weight unless the text also talks of limits (the `limit_talk` family; see
 * score.ts), which keeps a persona alone under CLASSIFIER_FLOOR, and only text with limit talk
 * goes further here: the talk weighs LIMIT_TALK_STEP per distinct cue (at most LIMIT_TALK_MAX_CUES),
 * and a second trained model, which learned jailbreaks against benign text, honest role set-ups
 * and system prompts, reads the whole text. When its probability is at least JAILBREAK_RAISE it
 * joins the jailbreak harm with weight JAILBREAK_WEIGHT x probability, which with one cue crosses
 * the user threshold from JAILBREAK_RAISE and with any number stays under HIGH_SCORE: the model
 * with limit talk alone yields a MEDIUM finding, HIGH needs phrases too. A jailbreak device
 * (devices.ts: forbidding the assistant to speak as itself, an imaginary AI's answer, a persona's
 * enforcement phrase, punishments) also has the model read the text, without counting as limit
 * talk: it only gives the model its say. Neither is read for tool results or tool descriptions,
 * where a jailbreak in data is judged as an injection by the scorer above.
 * A score at the threshold reads "more likely an attempt than not"; 0.85 and above means an
 * unambiguous phrase or several independent signals; 0.95 and above, several strong ones.
 *
 * Severity: MEDIUM from the threshold up (reads as an attempt), HIGH from 0.85 (an unambiguous
 * phrase or several independent signals), CRITICAL when an instruction was hidden from human
 * eyes (tag characters, encoded text) or written to evade filters, which has no honest
 * explanation.
 *
 * Findings. In tool results and inventory every attempt is `security.prompt_injection`. In
 * user text the two categories overlap (a jailbreak usually opens by overriding the
 * instructions, an override usually installs a persona), so once the combined score crosses the
 * threshold each category with evidence of its own (at least SUPPORT) is reported, and the
 * stronger one when neither has. Offsets span the strongest sentence (or hidden blob); the
 * subject is that sentence, bounded.
 */

const THRESHOLD: Readonly<Record<ChannelClass, number>> = { document: 0.5, inventory: 0.55, user: 0.6 };

const HIGH_SCORE = 0.85;

/** Least heuristic score for which the classifier is consulted. */
const CLASSIFIER_FLOOR = 0.35;
/** Least classifier probability that raises a borderline score. */
const CLASSIFIER_RAISE = 0.9;
/** Weight of the classifier's probability in the noisy-OR with the heuristic score. */
const CLASSIFIER_WEIGHT = 0.5;

/** Evidence a category needs of its own to be reported beside the other one in user text. */
const SUPPORT = 0.3;

/** Weight of each distinct limit-talk cue in user text (the family's own weight is the first). */
const LIMIT_TALK_STEP = 0.1;
/** Most distinct cues that count: the limit talk weighs at most 0.3, however many it holds. */
const LIMIT_TALK_MAX_CUES = 3;

/** Least jailbreak-model probability that counts, in user text only. */
const JAILBREAK_RAISE = 0.8;
/** Weight of the jailbreak model's probability: JAILBREAK_RAISE x this = the user threshold. */
const JAILBREAK_WEIGHT = 0.75;

function channelClass(channel: Channel): ChannelClass | undefined {
  switch (channel) {
    case Channel.USER:
      return "user";
    case Channel.TOOL_RESULT:
      return "document";
    case Channel.TOOL_INVENTORY:
      return "inventory";
    default:
      return undefined;
  }
}

function severity(score: number, hidden: boolean): Severity {
  if (hidden) return Severity.CRITICAL;
  return score >= HIGH_SCORE ? Severity.HIGH : Severity.MEDIUM;
}

const WHERE: Readonly<Record<ChannelClass, string>> = {
  document: "tool result",
  inventory: "tool description",
  user: "user text",
};

function detection(
  text: string,
  cls: ChannelClass,
  category: "security.prompt_injection" | "security.jailbreak",
  harm: HarmScore,
  score: number,
): Detection {
  const what = category === "security.jailbreak" ? "jailbreak attempt" : "prompt injection";
  return {
    category,
    severity: severity(score, harm.hidden && score >= THRESHOLD[cls]),
    start: harm.start,
    end: harm.end,
    score: Math.round(score * 1000) / 1000,
    subject: boundSubject(text.slice(harm.start, harm.end)),
    placeholderKind: category === "security.jailbreak" ? "JAILBREAK" : "PROMPT_INJECTION",
    reason: `${what} in ${WHERE[cls]}: ${harm.evidence.slice(0, 3).join(", ")}`,
  };
}

/** The heuristic score, raised by the classifier for a borderline text (see the scale above). */
function combinedScore(
  text: string,
  cls: ChannelClass,
  heuristic: number,
): { score: number; label?: string } {
  if (heuristic < CLASSIFIER_FLOOR || heuristic >= THRESHOLD[cls]) return { score: heuristic };
  const p = classifierProbability(text);
  if (p < CLASSIFIER_RAISE) return { score: heuristic };
  return {
    score: 1 - (1 - heuristic) * (1 - CLASSIFIER_WEIGHT * p),
    label: `trained classifier ${Math.round(p * 100) / 100}`,
  };
}

function withLabel(harm: HarmScore, label: string | undefined): HarmScore {
  return label ? { ...harm, evidence: [...harm.evidence, label] } : harm;
}

/** Whether user text talks of lifting limits or uses a jailbreak device: the model reads it. */
function asksForJailbreakModel(assessment: Assessment): boolean {
  const { evidence } = assessment.jailbreak;
  return evidence.includes(LIMIT_TALK_LABEL) || evidence.includes(JAILBREAK_DEVICE_LABEL);
}

/**
 * User text that talks of lifting limits or uses a jailbreak device (see the scale above): the
 * talk weighs by its number of distinct cues, and the jailbreak model's reading joins the
 * jailbreak harm by noisy-OR when its probability is at least JAILBREAK_RAISE. `normalised` is
 * the features' form of the text (`normaliseForFeatures`), which both readings were tuned on.
 */
function withJailbreakModel(text: string, result: Assessment, normalised: string): Assessment {
  const { injection } = result;
  let { jailbreak } = result;
  const cues = Math.min(limitTalkCues(normalised), LIMIT_TALK_MAX_CUES);
  if (cues > 1) {
    // The family already counted one cue: add what the others bring to reach cues x STEP.
    const extra = 1 - (1 - cues * LIMIT_TALK_STEP) / (1 - LIMIT_TALK_STEP);
    jailbreak = { ...jailbreak, score: 1 - (1 - jailbreak.score) * (1 - extra) };
  }
  const p = jailbreakProbability(text, normalised);
  if (p >= JAILBREAK_RAISE) {
    jailbreak = {
      ...jailbreak,
      score: 1 - (1 - jailbreak.score) * (1 - JAILBREAK_WEIGHT * p),
      evidence: [...jailbreak.evidence, `trained jailbreak model ${Math.round(p * 100) / 100}`],
    };
  }
  if (jailbreak === result.jailbreak) return result;
  return { injection, jailbreak, overall: 1 - (1 - injection.score) * (1 - jailbreak.score) };
}

/** Findings for one text in one channel class; exported for the evaluation scripts. */
export function judge(text: string, cls: ChannelClass): Detection[] {
  let result: Assessment;
  if (cls === "user") {
    const assessment = assess(text, cls);
    result = asksForJailbreakModel(assessment)
      ? withJailbreakModel(text, assessment, normaliseForFeatures(text))
      : assessment;
  } else {
    result = assess(text, cls);
  }
  const threshold = THRESHOLD[cls];
  if (result.overall < CLASSIFIER_FLOOR) return [];
  const { score, label } = combinedScore(text, cls, result.overall);
  if (score < threshold) return [];
  if (cls !== "user") {
    const harm = result.injection.score >= result.jailbreak.score ? result.injection : result.jailbreak;
    const merged: HarmScore = {
      ...harm,
      evidence: [...new Set([...harm.evidence, ...result.injection.evidence, ...result.jailbreak.evidence])],
      hidden: result.injection.hidden || result.jailbreak.hidden,
    };
    return [detection(text, cls, "security.prompt_injection", withLabel(merged, label), score)];
  }
  const found: Detection[] = [];
  if (result.injection.score >= SUPPORT) {
    found.push(detection(text, cls, "security.prompt_injection", withLabel(result.injection, label), score));
  }
  if (result.jailbreak.score >= SUPPORT) {
    found.push(detection(text, cls, "security.jailbreak", withLabel(result.jailbreak, label), score));
  }
  if (found.length === 0) {
    const jailbreak = result.jailbreak.score > result.injection.score;
    const harm = withLabel(jailbreak ? result.jailbreak : result.injection, label);
    found.push(
      detection(text, cls, jailbreak ? "security.jailbreak" : "security.prompt_injection", harm, score),
    );
  }
  return found;
}

export const injectionDetector: Detector = {
  name: "injection",
  version: "8",
  categories: ["security.prompt_injection", "security.jailbreak"],
  channels: [Channel.USER, Channel.TOOL_RESULT, Channel.TOOL_INVENTORY],
  detect(segment) {
    const cls = channelClass(segment.channel);
    return cls === undefined ? [] : judge(segment.text, cls);
  },
};
