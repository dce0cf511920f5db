import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";
import { Channel } from "../../../gen/guard/v1/types_pb.js";
import type { Corpus, LabelledSample } from "../corpus.js";

/**
 * GTFOBins (_gtfobins/<binary>, YAML front matter): snippets that abuse ordinary Unix
 * programs. Which functions are malicious when an AI agent runs them, decided per function:
 *
 * - `reverse-shell`, `bind-shell`: remote control of the host -> `security.malicious_command`.
 * - `shell`: starts an interactive system shell through an unrelated program, the way
 *   sandboxes and command allow-lists are escaped -> `security.malicious_command`.
 * - `privilege-escalation`: set-uid bits, ownership or attribute changes meant to gain root
 *   -> `security.malicious_command`.
 * - `upload`: sends a file to a remote host -> `security.data_exfiltration`. The snippets name
 *   a placeholder file (`/path/to/input-file`), so a detector that only flags uploads of
 *   secrets is expected to miss many of them; they stay in as written.
 * - Left out: `file-read`, `file-write`, `download`, `command`, `library-load`, `inherit`. Their
 *   snippets act on placeholder paths and commands and are harmful only through what an
 *   attacker substitutes, so labelling them would measure the placeholders.
 *
 * Every snippet is taken as written, once per distinct code variant (the `sudo`/`suid` context
 * variants, such as `bash -p`, are samples of their own). GTFOBins has no benign examples, so
 * this corpus has no negatives: false positives are measured on aegish's harmless set.
 * Samples are tool-call arguments of a `bash` tool, key `command`.
 */

const MALICIOUS = "security.malicious_command";
const EXFILTRATION = "security.data_exfiltration";

const EXPECTED: Readonly<Record<string, string>> = {
  "reverse-shell": MALICIOUS,
  "bind-shell": MALICIOUS,
  shell: MALICIOUS,
  "privilege-escalation": MALICIOUS,
  upload: EXFILTRATION,
};

interface Example {
  readonly code?: unknown;
  readonly contexts?: Record<string, { readonly code?: unknown } | null>;
}

function frontMatter(text: string): unknown {
  const start = text.indexOf("---");
  if (start === -1) return undefined;
  const end = text.indexOf("\n...", start + 3);
  const endDashes = text.indexOf("\n---", start + 3);
  const stop = [end, endDashes].filter((k) => k !== -1).sort((a, b) => a - b)[0] ?? text.length;
  return parse(text.slice(start + 3, stop));
}

/** The snippet and its context variants that differ from it. */
function variants(example: Example): string[] {
  const out = new Set<string>();
  if (typeof example.code === "string") out.add(example.code);
  for (const context of Object.values(example.contexts ?? {})) {
    if (context && typeof context.code === "string") out.add(context.code);
  }
  return [...out];
}

const corpus: Corpus = {
  name: "gtfobins",
  source:
    "https://github.com/GTFOBins/GTFOBins.github.io @ 7382261ef936e35896ba70e7a6b833352ffb9a22 (_gtfobins)",
  async load(corporaRoot) {
    const dir = join(corporaRoot, "GTFOBins", "_gtfobins");
    const samples: LabelledSample[] = [];
    for (const binary of (await readdir(dir)).sort()) {
      const data = frontMatter(await readFile(join(dir, binary), "utf8")) as
        | { functions?: Record<string, unknown> }
        | undefined;
      for (const [fn, examples] of Object.entries(data?.functions ?? {})) {
        const category = EXPECTED[fn];
        if (category === undefined || !Array.isArray(examples)) continue;
        examples.forEach((example: Example, k) => {
          variants(example).forEach((code, v) => {
            samples.push({
              id: `gtfobins/${binary}/${fn}/${k}/${v}`,
              text: code,
              channel: Channel.TOOL_CALL_ARGUMENTS,
              toolName: "bash",
              argumentKey: "command",
              expected: [category],
            });
          });
        });
      }
    }
    return samples;
  },
};

export default corpus;
