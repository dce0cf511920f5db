/**
 * Features of the injection classifier: hashed word unigrams and bigrams of the normalised text
 * (`normaliseForFeatures` in normalise.ts), as a set of bucket indexes. The trainer (scripts/train-injection.ts) and the
 * detector both call `extractFeatures`, so the model always sees at inference what it saw in
 * training.
 *
 * Why these: injections and jailbreaks are recognised by their wording ("ignore ... instructions",
 * "you are going to act as"), which word pairs capture, and the normalised text already undoes
 * look-alikes, leetspeak and spacing. Hashing keeps the model a fixed, small array with no
 * vocabulary to ship. One pass over the text with integer arithmetic: linear, no regular
 * expression.
 */

/** log2 of the number of buckets. */
export const FEATURE_BITS = 12;
export const FEATURE_COUNT = 1 << FEATURE_BITS;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Salt that separates bigram buckets from unigram ones. */
const BIGRAM_SALT = 0x9e3779b9;

function isWordUnit(u: number): boolean {
  return (u >= 0x61 && u <= 0x7a) || (u >= 0x30 && u <= 0x39) || u === 0x27 || u >= 0x80;
}

/** Final avalanche (murmur3 fmix32), so that the low bits depend on every input bit. */
function mix(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

function bucket(h: number): number {
  return mix(h) >>> (32 - FEATURE_BITS);
}

/**
 * Sorted distinct buckets of the words and adjacent word pairs of `normalised` (lower-case text
 * from `normaliseForFeatures`). Presence, not counts: a long document repeating a word is not more hostile.
 */
export function extractFeatures(normalised: string): Uint16Array {
  const seen = new Uint8Array(FEATURE_COUNT);
  const found: number[] = [];
  const add = (b: number): void => {
    if (seen[b] === 0) {
      seen[b] = 1;
      found.push(b);
    }
  };
  let previous = 0;
  let h = FNV_OFFSET;
  let inWord = false;
  for (let i = 0; i <= normalised.length; i++) {
    const u = i < normalised.length ? normalised.charCodeAt(i) : 0x20;
    if (isWordUnit(u)) {
      h = Math.imul(h ^ u, FNV_PRIME);
      inWord = true;
      continue;
    }
    if (!inWord) continue;
    const word = h >>> 0;
    add(bucket(word));
    if (previous !== 0) add(bucket(Math.imul(previous ^ BIGRAM_SALT, FNV_PRIME) ^ word));
    previous = word;
    h = FNV_OFFSET;
    inWord = false;
  }
  return Uint16Array.from(found).sort();
}

/** Linear score of a feature set: bias plus the weights of its buckets over sqrt(size). */
export function linearScore(features: Uint16Array, weights: ArrayLike<number>, bias: number): number {
  if (features.length === 0) return bias;
  let sum = 0;
  for (const f of features) sum += weights[f] ?? 0;
  return bias + sum / Math.sqrt(features.length);
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}
