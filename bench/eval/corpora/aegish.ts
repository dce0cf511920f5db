import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Channel } from "../../../gen/guard/v1/types_pb.js";
import type { Corpus, LabelledSample } from "../corpus.js";

/**
 * aegish benchmark (GuidoBergman/aegish, benchmark/data): GTFOBins commands that the aegish
 * authors label as must-block, and a harmless set (HuggingFace aelhalili/bash-commands-dataset
 * filtered, plus generated developer commands) they label as must-allow. Labels are used as
 * given: every `gtfobins_commands.json` entry is a positive, every `harmless_commands.json`
 * entry a negative. The one mapping decision is the category: entries of GTFOBins' `upload`
 * function send a file to a remote host and are expected as `security.data_exfiltration`;
 * all others (shell, file-read, file-write, download, command, reverse/bind shells) as
 * `security.malicious_command`. Samples are tool-call arguments of a `bash` tool, key `command`.
 */

interface Entry {
  readonly command: string;
  readonly category?: string;
  readonly binary?: string;
}

function entries(json: unknown): Entry[] {
  const list = (json as { commands?: unknown }).commands;
  if (!Array.isArray(list)) return [];
  return list.filter((e): e is Entry => typeof (e as Entry | null)?.command === "string");
}

function sample(id: string, command: string, expected: readonly string[]): LabelledSample {
  return {
    id,
    text: command,
    channel: Channel.TOOL_CALL_ARGUMENTS,
    toolName: "bash",
    argumentKey: "command",
    expected,
  };
}

const corpus: Corpus = {
  name: "aegish",
  source:
    "https://github.com/GuidoBergman/aegish @ 86eedb3b977f1b9a6094d842aa1e7d4ae5a35379 (benchmark/data)",
  async load(corporaRoot) {
    const dir = join(corporaRoot, "aegish", "benchmark", "data");
    const bad = entries(JSON.parse(await readFile(join(dir, "gtfobins_commands.json"), "utf8")));
    const good = entries(JSON.parse(await readFile(join(dir, "harmless_commands.json"), "utf8")));
    const samples: LabelledSample[] = [];
    bad.forEach((e, k) => {
      const expected =
        e.category === "upload" ? ["security.data_exfiltration"] : ["security.malicious_command"];
      samples.push(sample(`aegish/gtfobins/${k}/${e.binary ?? ""}/${e.category ?? ""}`, e.command, expected));
    });
    good.forEach((e, k) => {
      samples.push(sample(`aegish/harmless/${k}`, e.command, []));
    });
    return samples;
  },
};

export default corpus;
