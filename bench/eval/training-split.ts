/**
 * Which samples train the injection and jailbreak models (scripts/train-injection.ts) and which
 * are held out: a sample trains when the FNV-1a hash of its corpus name and split key is even.
 * The evaluation uses the same rule to report figures on the held-out half of the project's own
 * fixtures, whose other half the models learned from.
 */

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The key a sample is split by: its id, except that one BIPIA attack text never sits on both sides. */
function splitKey(id: string): string {
  return id.startsWith("bipia/") && !id.includes("/clean/") ? id.slice(0, id.lastIndexOf("/")) : id;
}

/** Whether the sample `id` of `corpus` is in the training half. */
export function isTrainingId(corpus: string, id: string): boolean {
  return fnv1a(`${corpus}:${splitKey(id)}`) % 2 === 0;
}

/** Trainer corpus names of the project's fixtures, split by their own text (test/fixtures/). */
export const HONEST_ROLES_CORPUS = "honest-roles";
export const HONEST_DOCUMENTS_CORPUS = "honest-documents";
