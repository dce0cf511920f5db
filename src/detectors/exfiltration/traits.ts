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

/** The `WordFact`s of a word `isRemote` can take. */
const HOST_CHARACTERS = WordFact.colon | WordFact.dot;

/** A `>` or `>>` redirection to bash's network pseudo-files. */
export function socketRedirect(inv: Invocation): boolean {
  return inv.redirects.some(
    (r) => (r.op === ">" || r.op === ">>") && /^\/dev\/(tcp|udp)\//.test(r.target.text),
  );
}

/** The `SendTrait`s of `inv`, as a bit set. */
export function sendTraits(inv: Invocation): number {
  let traits = 0;
  // Every form `isRemote` knows has a colon or a dot; most commands have neither in any word,
  // which their facts tell without reading each argument.
  if ((inv.facts & HOST_CHARACTERS) !== 0) {
    for (const w of inv.argWords) {
      if ((w.facts & HOST_CHARACTERS) !== 0 && isRemote(w.text)) {
        traits |= SendTrait.remoteArgument;
        break;
      }
    }
  }
  if (inv.redirects.length > 0 && socketRedirect(inv)) traits |= SendTrait.socketRedirect;
  return traits;
}
