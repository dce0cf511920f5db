/**
 * Offsets on the wire count Unicode code points inside the decoded string leaf
 * (DESIGN.md decision 1); JavaScript strings index UTF-16 code units. These helpers
 * convert between the two and cost nothing for text without astral characters.
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** True when UTF-16 indexes and code-point offsets coincide for this text. */
export function isBmpOnly(text: string): boolean {
  return !SURROGATE.test(text);
}

/** Code-point offset of a UTF-16 index. */
export function toCodePointOffset(text: string, utf16Index: number): number {
  let offset = 0;
  for (let i = 0; i < utf16Index && i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point: skip the low half.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < utf16Index) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    offset++;
  }
  return offset;
}

/** UTF-16 index of a code-point offset (clamped to the text's length). */
export function toUtf16Index(text: string, codePointOffset: number): number {
  let index = 0;
  for (let cp = 0; cp < codePointOffset && index < text.length; cp++) {
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    index += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return index;
}

/** Converts a UTF-16 range to code points, cheaply when the text is BMP only. */
export function codePointRange(
  text: string,
  bmpOnly: boolean,
  start16: number,
  end16: number,
): { start: number; end: number } {
  if (bmpOnly) return { start: start16, end: end16 };
  return { start: toCodePointOffset(text, start16), end: toCodePointOffset(text, end16) };
}

/** The text between two code-point offsets; a plain slice when the text is BMP only. */
export function sliceCodePoints(text: string, start: number, end: number, bmpOnly: boolean): string {
  if (bmpOnly) return text.slice(start, end);
  const from = toUtf16Index(text, start);
  return text.slice(from, from + toUtf16Index(text.slice(from), end - start));
}
