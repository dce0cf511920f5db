/**
 * Slash trimming by loops, not `/^\/+|\/+$/`: a `\/+$` pattern is retried from every slash of
 * a long run that does not end the text, quadratic on a hostile URL or value.
 */

/** The text without its trailing slashes. */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return text.slice(0, end);
}

/** The text without its leading and trailing slashes. */
export function withoutEdgeSlashes(text: string): string {
  let start = 0;
  while (start < text.length && text.charCodeAt(start) === 0x2f) start++;
  return withoutTrailingSlashes(text.slice(start));
}
