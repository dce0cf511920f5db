import type { Unit } from "./sentences.js";

/**
 * Task drift inside a document: a question whose subject appears nowhere else in the document.
 * An injected "What is the capital of Brazil?" in a bank e-mail, or "How do solar panels
 * work?" in a sports table, asks the model to do something the document is not about; a
 * question that belongs to the document ("How do I reset my password? Open Settings and
 * choose Password...") shares its words with the text around it. Only content words count
 * (four letters or more, not in a short list of function words), and a question needs at least
 * two of them, so short rhetorical questions ("Why does this happen?") are not judged at all.
 */

const QUESTION_START =
  /^(?:what|what's|whats|who|whom|whose|how|why|which|when|where|can you|could you|would you|will you)\b/;

const FUNCTION_WORDS = new Set([
  "about",
  "also",
  "been",
  "being",
  "between",
  "could",
  "does",
  "doing",
  "done",
  "each",
  "from",
  "have",
  "having",
  "into",
  "just",
  "like",
  "main",
  "make",
  "many",
  "more",
  "most",
  "much",
  "only",
  "other",
  "some",
  "such",
  "than",
  "that",
  "their",
  "them",
  "then",
  "there",
  "these",
  "they",
  "this",
  "those",
  "very",
  "were",
  "what",
  "what's",
  "whats",
  "when",
  "where",
  "which",
  "while",
  "whom",
  "whose",
  "will",
  "with",
  "would",
  "your",
  "you're",
  "should",
  "work",
  "works",
]);

const WORD = /[a-z][a-z'-]{3,24}/g;

/** Content words the rest of the text needs before a question can be off its topic. */
const MIN_CONTEXT_WORDS = 12;

function contentWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(WORD)) {
    const w = m[0].replace(/'s$/, "");
    if (w.length >= 4 && !FUNCTION_WORDS.has(w)) words.push(w);
  }
  return words;
}

function countWords(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of contentWords(text)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

/** Units of `text` that are off-topic questions: at least two content words, none shared. */
export function findStrayQuestions(text: string, units: readonly Unit[]): Unit[] {
  const candidates: Unit[] = [];
  for (const unit of units) {
    if (text.charCodeAt(unit.end - 1) !== 0x3f) continue; // "?"
    if (unit.end - unit.start > 200) continue;
    if (QUESTION_START.test(text.slice(unit.start, unit.end))) candidates.push(unit);
  }
  if (candidates.length === 0) return [];
  // One count over the whole text; a word is shared when it occurs more often than in the unit.
  const total = countWords(text);
  let words = 0;
  for (const n of total.values()) words += n;
  const stray: Unit[] = [];
  for (const unit of candidates) {
    const own = countWords(text.slice(unit.start, unit.end));
    if (own.size < 2) continue;
    // Off-topic needs a topic: a note of a line or two has too few words to tell a question
    // that belongs to it ("Could you bring ice and cups instead?") from one that does not.
    let ownWords = 0;
    for (const n of own.values()) ownWords += n;
    if (words - ownWords < MIN_CONTEXT_WORDS) continue;
    let shared = false;
    for (const [word, n] of own) if ((total.get(word) ?? 0) > n) shared = true;
    if (!shared) stray.push(unit);
  }
  return stray;
}
