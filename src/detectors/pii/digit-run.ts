import type { NumberRun } from "./candidates.js";
import { codeAt, isDigit } from "./chars.js";

/**
 * Runs of digit groups joined by single separators, e.g. `4012-8888-8888-1881` or
 * `078 05 1123`, and the windows of consecutive groups that may be one number. Cards and
 * SSNs start from such runs; scanning them by hand keeps the cost one pass over the text
 * with no regex backtracking, and nothing is allocated for a window its kind rejects by
 * the shape of its groups.
 */

/** A candidate number: consecutive groups of a run. */
export interface DigitWindow {
  readonly start: number;
  readonly end: number;
  readonly digits: string;
  /** Lengths of the digit groups, in order. */
  readonly groupLengths: readonly number[];
  /** The distinct separator characters between the groups. */
  readonly separators: string;
}

/** The end of the run that starts at the digit at `start`, joining groups across one separator. */
function runEnd(text: string, start: number, separators: string): number {
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) i++;
    else if (separators.includes(text.charAt(i)) && isDigit(codeAt(text, i + 1))) i++;
    else break;
  }
  return i;
}

/** The end of the digit group that starts at `start`. */
function groupEnd(text: string, start: number, limit: number): number {
  let i = start;
  while (i < limit && isDigit(text.charCodeAt(i))) i++;
  return i;
}

function window(
  text: string,
  starts: readonly number[],
  ends: readonly number[],
  count: number,
): DigitWindow {
  let digits = "";
  let separators = "";
  const lengths: number[] = [];
  for (let k = 0; k < count; k++) {
    const gs = starts[k] ?? 0;
    const ge = ends[k] ?? 0;
    digits += text.slice(gs, ge);
    lengths.push(ge - gs);
    if (k > 0) {
      const sep = text.charAt(gs - 1);
      if (!separators.includes(sep)) separators += sep;
    }
  }
  return { start: starts[0] ?? 0, end: ends[count - 1] ?? 0, digits, groupLengths: lengths, separators };
}

/**
 * Calls `visit` for the windows of `minDigits` to `maxDigits` digits of each maximal run in
 * `spans` whose ends are not glued to a letter, digit or underscore: from each group of a
 * run, the longest window starting there. Two numbers written side by side
 * (`4012888888881881 4012 8888 8888 1881`) join into one run; windows pull them apart.
 * `opens` rejects a starting group by its length before the window is read, `shape` rejects
 * a window by its group lengths before it is built; `visit` returns true
 * when it accepted a window, and the next window then starts after it. Each window holds
 * at most `maxDigits` digits, so the work per group is bounded and the scan is linear.
 */
export function forEachDigitWindow(
  text: string,
  spans: readonly NumberRun[],
  separators: string,
  minDigits: number,
  maxDigits: number,
  isGlue: (c: number) => boolean,
  opens: (firstGroupLength: number) => boolean,
  shape: (groupLengths: readonly number[]) => boolean,
  visit: (window: DigitWindow) => boolean,
): void {
  // Reused for every window: the groups of the window being read.
  const starts: number[] = [];
  const ends: number[] = [];
  const lengths: number[] = [];
  for (const span of spans) {
    if (span.digits < minDigits) continue;
    let i = span.start;
    while (i < span.end) {
      if (!isDigit(text.charCodeAt(i))) {
        i++;
        continue;
      }
      if (isGlue(codeAt(text, i - 1))) {
        // Glued to a word: skip its digits.
        i = groupEnd(text, i, text.length);
        continue;
      }
      const end = runEnd(text, i, separators);
      if (!isGlue(codeAt(text, end))) {
        let consumedUntil = i;
        for (let s = i; s < end; s = groupEnd(text, s, end) + 1) {
          if (s < consumedUntil || !opens(groupEnd(text, s, end) - s)) continue;
          starts.length = 0;
          ends.length = 0;
          lengths.length = 0;
          let count = 0;
          let best = 0;
          for (let g = s; g < end; ) {
            const ge = groupEnd(text, g, end);
            count += ge - g;
            if (count > maxDigits) break;
            starts.push(g);
            ends.push(ge);
            lengths.push(ge - g);
            if (count >= minDigits) best = starts.length;
            g = ge + 1;
          }
          if (best === 0) continue;
          lengths.length = best;
          if (!shape(lengths)) continue;
          const w = window(text, starts, ends, best);
          if (visit(w)) consumedUntil = w.end;
        }
      }
      i = end + 1;
    }
  }
}
