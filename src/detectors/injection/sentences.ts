/**
 * Splits normalised text into sentence-sized units, the grain at which phrases are matched and
 * findings are reported. A finding that spans the triggering sentence tells a reviewer what was
 * said without quoting a whole document, and matching per unit keeps each regular expression's
 * work bounded by the unit length, so the total stays linear.
 */

/**
 * Longest unit; longer runs without punctuation are cut at the end of an HTML tag in the second
 * half of the run, or else at the last space. A table or page on one line has no full stops, and
 * a cut at a space can fall inside the sentence of one cell; a cell or paragraph boundary is
 * where a sentence ends anyway.
 */
export const MAX_UNIT_CHARS = 600;

export interface Unit {
  /** Range in the normalised text. */
  readonly start: number;
  readonly end: number;
}

function isTerminator(u: number): boolean {
  return u === 0x2e || u === 0x21 || u === 0x3f; // . ! ?
}

function isClosing(u: number): boolean {
  return u === 0x22 || u === 0x27 || u === 0x29 || u === 0x5d; // " ' ) ]
}

/** Sentence units of normalised `text` (spaces already collapsed, lines kept as `\n`). */
export function splitUnits(text: string): Unit[] {
  const units: Unit[] = [];
  let start = 0;
  let lastSpace = -1;
  let lastTagEnd = -1;
  const emit = (end: number): void => {
    let s = start;
    while (s < end && (text.charCodeAt(s) === 0x20 || text.charCodeAt(s) === 0x0a)) s++;
    let e = end;
    while (e > s && (text.charCodeAt(e - 1) === 0x20 || text.charCodeAt(e - 1) === 0x0a)) e--;
    if (e > s) units.push({ start: s, end: e });
  };
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    if (u === 0x0a) {
      emit(i);
      start = i + 1;
      lastSpace = -1;
      lastTagEnd = -1;
      continue;
    }
    if (u === 0x20) lastSpace = i;
    else if (u === 0x3e) lastTagEnd = i + 1; // ">"
    if (isTerminator(u)) {
      let end = i + 1;
      while (end < text.length && (isTerminator(text.charCodeAt(end)) || isClosing(text.charCodeAt(end))))
        end++;
      const next = text.charCodeAt(end);
      if (end === text.length || next === 0x20 || next === 0x0a) {
        emit(end);
        start = end;
        lastSpace = -1;
        lastTagEnd = -1;
        i = end - 1;
        continue;
      }
    }
    if (i - start >= MAX_UNIT_CHARS) {
      const cut = lastTagEnd > start + MAX_UNIT_CHARS / 2 ? lastTagEnd : lastSpace > start ? lastSpace : i;
      emit(cut);
      start = cut;
      lastSpace = -1;
      lastTagEnd = -1;
    }
  }
  emit(text.length);
  return units;
}
