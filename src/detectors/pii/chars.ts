/** Character tests shared by the PII scanners, on UTF-16 code units. */

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isAsciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

export function isUpper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}

export function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Letters, digits and underscore: a neighbour that glues a number into a larger token. */
export function isWordChar(c: number): boolean {
  return isDigit(c) || isAsciiLetter(c) || c === 0x5f;
}

/** The code unit at `i`, or -1 outside the string (so boundary tests read naturally). */
export function codeAt(text: string, i: number): number {
  return i >= 0 && i < text.length ? text.charCodeAt(i) : -1;
}
