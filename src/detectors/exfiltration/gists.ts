import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { ruleModule } from "../commands/rules/dispatch.js";
import { type Hit, hitOn, pushHit } from "../commands/rules/types.js";
import type { Analysis, Invocation } from "../commands/shell/analyze.js";
import { fileSent, sensitiveIn } from "./transfers.js";
import { feedsSecrets } from "./whole-analysis.js";

/**
 * Files published as GitHub gists: `gh gist create .env`, `cat .env | gh gist create -`. A
 * gist, secret or public, is readable by anyone with its address, so publishing one is a send
 * to the internet; judged like any upload by what is sent (transfers.ts `fileSent`): a secret
 * is high, a file from outside the working tree low, a note from the project nothing.
 */

/** `gh gist create` options that take a value, which is not a file to publish. */
const VALUE_OPTIONS: ReadonlySet<string> = new Set(["-d", "--desc", "-f", "--filename"]);

interface GistCreate {
  /** Files named on the command line or redirected in (`< f`). */
  readonly files: readonly string[];
  /** Standard input is published too: `-` among the files, or no file named. */
  readonly stdin: boolean;
  readonly public: boolean;
}

/** What `gh gist create` (or its alias `gh gist new`) publishes; undefined for any other command. */
function gistCreate(inv: Invocation): GistCreate | undefined {
  if (inv.name !== "gh") return undefined;
  const operands: string[] = [];
  let isPublic = false;
  for (let k = 0; k < inv.args.length; k++) {
    const a = inv.args[k]!;
    if (VALUE_OPTIONS.has(a)) k++;
    else if (a === "-p" || a === "--public") isPublic = true;
    else if (a === "-" || !a.startsWith("-")) operands.push(a);
  }
  if (operands[0] !== "gist" || (operands[1] !== "create" && operands[1] !== "new")) return undefined;
  const named = operands.slice(2);
  const redirected = inv.redirects.filter((r) => r.op === "<").map((r) => r.target.text);
  const files = [...named.filter((f) => f !== "-"), ...redirected];
  return { files, stdin: named.includes("-") || named.length === 0, public: isPublic };
}

function publisher(gist: GistCreate): string {
  return gist.public ? "gh gist create --public publishes" : "gh gist create publishes";
}

/** A published file judged like an upload (`fileSent`), the first that draws a verdict. */
function publishedFile(inv: Invocation, gist: GistCreate): Hit | undefined {
  for (const file of gist.files) {
    const hit = fileSent(inv, "gist-publish", publisher(gist), file);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** `cat .env | gh gist create -`: a secret read earlier in the pipeline and published from standard input. */
function pipedIntoGist(analysis: Analysis, inv: Invocation, gist: GistCreate): Hit | undefined {
  const pipeline = analysis.pipelines[inv.pipeline];
  if (pipeline === undefined) return undefined;
  const at = pipeline.invocations.indexOf(inv);
  const reader = pipeline.invocations.slice(0, at).find((m) => feedsSecrets(m, sensitiveIn));
  if (reader === undefined) return undefined;
  const secret = sensitiveIn(reader) ?? "secrets";
  return hitOn(
    pipeline,
    "gist-publish-secret",
    Severity.HIGH,
    0.9,
    `${publisher(gist)} ${secret} piped into it by ${reader.name}`,
  );
}

/** The gists created from standard input, noted per analysis for the pipeline check after the commands. */
type StdinGists = { inv: Invocation; gist: GistCreate }[];

export const gists = ruleModule<StdinGists>({
  name: "gists",
  prepare: () => [],
  commands: [
    {
      programs: ["gh"],
      check: (inv, hits, stdinGists) => {
        const gist = gistCreate(inv);
        if (gist === undefined) return;
        pushHit(hits, publishedFile(inv, gist));
        if (gist.stdin && inv.position > 0) stdinGists.push({ inv, gist });
      },
    },
  ],
  after: (analysis, hits, stdinGists) => {
    for (const { inv, gist } of stdinGists) pushHit(hits, pipedIntoGist(analysis, inv, gist));
  },
});
