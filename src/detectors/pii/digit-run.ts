import { codeAt, isDigit } from "./chars.js";

/**
 * A run of digit groups joined by single separators, e.g. `4012-8888-8888-1881` or
 * `078 05 1123`. Cards and SSNs start from such runs; scanning them by hand keeps the cost
 * one pass over the text with no regex backtracking.
 */
export interface DigitRun {
  readonly start: number;
  readonly end: number;
  /** Offsets of each digit group: [start, end) pairs. */
  readonly groups: readonly (readonly [number, number])[];
}

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

/** Reads the run that starts at the digit at `start`, joining groups across one separator. */
export function readDigitRun(text: string, start: number, separators: string): DigitRun {
  const groups: [number, number][] = [];
  let i = start;
  let groupStart = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      i++;
      continue;
    }
    if (separators.includes(text.charAt(i)) && isDigit(codeAt(text, i + 1))) {
      groups.push([groupStart, i]);
      i++;
      groupStart = i;
      continue;
    }
    break;
  }
  groups.push([groupStart, i]);
  return { start, end: i, groups };
}

/**
 * The windows of consecutive groups of `run` holding `minDigits` to `maxDigits` digits,
 * longest first from each starting group. Two numbers written side by side
 * (`4012888888881881 4012 8888 8888 1881`) join into one run; windows pull them apart.
 * Each window is at most `maxDigits` long, so the work per run stays linear.
 */
export function digitWindows(
  text: string,
  run: DigitRun,
  minDigits: number,
  maxDigits: number,
): DigitWindow[] {
  const windows: DigitWindow[] = [];
  const groups = run.groups;
  for (let s = 0; s < groups.length; s++) {
    let count = 0;
    let best: DigitWindow | null = null;
    for (let e = s; e < groups.length; e++) {
      const [gs, ge] = groups[e] ?? [0, 0];
      count += ge - gs;
      if (count > maxDigits) break;
      if (count < minDigits) continue;
      best = window(text, groups, s, e);
    }
    if (best) windows.push(best);
  }
  return windows;
}

function window(text: string, groups: DigitRun["groups"], s: number, e: number): DigitWindow {
  let digits = "";
  let separators = "";
  const lengths: number[] = [];
  for (let k = s; k <= e; k++) {
    const [gs, ge] = groups[k] ?? [0, 0];
    digits += text.slice(gs, ge);
    lengths.push(ge - gs);
    if (k > s) {
      const sep = text.charAt(gs - 1);
      if (!separators.includes(sep)) separators += sep;
    }
  }
  return {
    start: groups[s]?.[0] ?? 0,
    end: groups[e]?.[1] ?? 0,
    digits,
    groupLengths: lengths,
    separators,
  };
}

/**
 * Calls `visit` for each maximal run in `text` whose ends are not glued to a letter, digit
 * or underscore, with the run's windows of `minDigits` to `maxDigits` digits. `visit`
 * returns true when it accepted a window; the next window then starts after it.
 */
export function forEachDigitWindow(
  text: string,
  separators: string,
  minDigits: number,
  maxDigits: number,
  isGlue: (c: number) => boolean,
  visit: (window: DigitWindow) => boolean,
): void {
  let i = 0;
  while (i < text.length) {
    if (!isDigit(text.charCodeAt(i))) {
      i++;
      continue;
    }
    if (isGlue(codeAt(text, i - 1))) {
      // Glued to a word: skip its digits without building a run (no allocation per digit).
      while (i < text.length && isDigit(text.charCodeAt(i))) i++;
      continue;
    }
    const run = readDigitRun(text, i, separators);
    if (!isGlue(codeAt(text, run.end))) {
      let consumedUntil = run.start;
      for (const w of digitWindows(text, run, minDigits, maxDigits)) {
        if (w.start < consumedUntil) continue;
        if (visit(w)) consumedUntil = w.end;
      }
    }
    i = run.end + 1;
  }
}
