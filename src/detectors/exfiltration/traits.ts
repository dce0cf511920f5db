import type { Invocation } from "../commands/shell/analyze.js";
import { WordFact } from "../commands/shell/word-facts.js";
import { isRemote } from "./remote.js";

/**
 * Facts about a command that let a program no upload check names send anything: without a host
 * among its arguments or a write to a `/dev/tcp` socket, such a command sends nothing. Computed
 * once per command by the dispatch (see commands/rules/dispatch.ts) and read as a bit set.
 */
export const SendTrait = {
  /** Some argument names another host (`isRemote`). */
  remoteArgument: 1,
  /** Output written to bash's `/dev/tcp/...` or `/dev/udp/...`. */
  socketRedirect: 2,
} as const;

/** The `WordFact`s of an IPv4 address, the one form `isRemote` knows without a colon. */
const ADDRESS_CHARACTERS = WordFact.dot | WordFact.digit;

/**
 * Whether a word, or any of a command's words, with the `WordFact`s `facts` can be one
 * `isRemote` takes. Most commands have no colon and no dot in any word, and most words with a
 * dot have no digit (file names, the ends of sentences), which the facts tell without reading it.
 */
function mayBeRemote(facts: number): boolean {
  return (facts & WordFact.colon) !== 0 || (facts & ADDRESS_CHARACTERS) === ADDRESS_CHARACTERS;
}

/** A `>` or `>>` redirection to bash's network pseudo-files. */
export function socketRedirect(inv: Invocation): boolean {
  return inv.redirects.some(
    (r) => (r.op === ">" || r.op === ">>") && /^\/dev\/(tcp|udp)\//.test(r.target.text),
  );
}

/** The `SendTrait`s of `inv`, as a bit set. */
export function sendTraits(inv: Invocation): number {
  let traits = 0;
  if (mayBeRemote(inv.facts)) {
    for (const w of inv.argWords) {
      if (mayBeRemote(w.facts) && isRemote(w.text)) {
        traits |= SendTrait.remoteArgument;
        break;
      }
    }
  }
  if (inv.redirects.length > 0 && socketRedirect(inv)) traits |= SendTrait.socketRedirect;
  return traits;
}
