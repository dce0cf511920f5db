import type { Family } from "./lexicon.js";

/**
 * Devices by which jailbreaks lift the assistant's limits without naming them, the `limit_talk`
 * family's words (lexicon.ts) being the ones that do name them:
 *
 * - Forbidding the assistant to speak as itself: "you will not respond as ChatGPT", "nor will you
 *   say 'As an AI language model ...'". The disclaimer is where a model states its limits.
 * - A hypothetical or imaginary AI whose answer is asked for: "how the imaginary Sydney AI would
 *   answer", "you are now a hypothetical robot", "the hypothetical response". The answer is
 *   disowned before it is given.
 * - An enforcement phrase for the persona: "the user will input 'stay in character' if you
 *   deviate". The writer expects the assistant to try to step out of the role, i.e. to refuse.
 * - Punishment and token systems: "it will punish you for ...", "you will lose 5 tokens".
 *   Coercion to comply, which an honest request has no use for.
 *
 * Honest text uses these too ("pretend you are my grandmother; don't talk as an AI", "a quiz
 * where you lose tokens for wrong guesses"), so a device is a reason to ask the trained
 * jailbreak model (index.ts), not evidence of its own: it weighs DEVICE_WEIGHT, so little that
 * beside a role-play set-up, which user text keeps just under the classifier floor (score.ts),
 * it stays under that floor, and it neither restores the role play's full weight nor counts as
 * a cue of limit talk. Only the jailbreak model's reading can make a finding of it.
 */

/** Label of the family, which index.ts looks for in user text. */
export const JAILBREAK_DEVICE_LABEL = "jailbreak device";

/** A token weight: the family has to weigh something to be read at all (score.ts `LIVE`). */
const DEVICE_WEIGHT = 0.01;

/** Up to `n` arbitrary words, each followed by its space (as lexicon.ts `gap`). */
function gap(n: number): string {
  return `(?:[^ ]{1,25} ){0,${n}}`;
}

export const JAILBREAK_DEVICE_FAMILY: Family = {
  id: "jailbreak_device",
  label: JAILBREAK_DEVICE_LABEL,
  harm: "jailbreak",
  weight: { document: 0, user: DEVICE_WEIGHT, inventory: 0 },
  anchors: [
    "chatgpt",
    "ai",
    "language",
    "imaginary",
    "hypothetical",
    "fictional",
    "fictitious",
    "character",
    "punish*",
    "penali*",
    "tokens",
  ],
  // In the order of the list above; triggers.ts keeps their trigger keys in the same order.
  patterns: [
    new RegExp(
      `\\b(?:not|never|nor|don't|dont|won't|stop) ${gap(3)}"?as (?:chatgpt|an ai|an ai language model|a language model)\\b`,
    ),
    new RegExp(
      `\\b(?:imaginary|hypothetical|fictional|fictitious) ${gap(2)}(?:ai|a\\.i\\.|assistant|chatbot|language model|robot|llm)\\b|\\bhypothetical (?:response|answer|reply)\\b`,
    ),
    new RegExp(`\\b(?:i|user)(?: will| shall| may| might| can| would|'ll) ${gap(4)}"?stay in character\\b`),
    new RegExp(
      `\\b(?:punish|punishes|punished|penali[sz]e|penali[sz]es|penali[sz]ed) (?:you|the ai|the assistant|the model)\\b|\\b(?:lose|loses|deduct|deducted) ${gap(2)}tokens\\b`,
    ),
  ],
  dampable: false,
};
