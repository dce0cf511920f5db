/**
 * Labels that name a bare number as some identifier of a system (`Reference ID 454777298`,
 * `trace=13466223403`, `orderId: "532812345"`). A bare digit string that could be an SSN
 * or a phone number is something else when so labelled; formatted numbers (`078-05-1123`,
 * `+1 415 555 0132`) carry their own shape and are not judged by their label.
 */

/** How far back a label may sit. */
const LABEL_WINDOW = 24;
const ID_LABEL =
  /(?:^|[^a-z])(?:id|ids|ref|reference|trace|span|order|invoice|ticket|account|acct|transaction|txn|request|build|job|pid|uid|gid)[\s:=#"'-]{0,4}$/i;
const CAMEL_ID_LABEL = /[a-z]Id["']?[\s:=]{0,3}["']?$/;

/** The regular expressions of this module, for the regex safety test. */
export const labelPatterns: readonly RegExp[] = [ID_LABEL, CAMEL_ID_LABEL];

/** The text just before `start`, where a label of the number there would be. */
export function textBefore(text: string, start: number): string {
  return text.slice(Math.max(0, start - LABEL_WINDOW), start);
}

/** True when `before` (from `textBefore`) ends with an identifier label. */
export function endsWithIdLabel(before: string): boolean {
  return ID_LABEL.test(before) || CAMEL_ID_LABEL.test(before);
}
