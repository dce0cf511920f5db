import { Channel } from "../../../gen/guard/v1/types_pb.js";
import { append } from "../commands/append.js";
import { analyzeSource, toDetections } from "../commands/index.js";
import { commandSources } from "../commands/sources.js";
import type { Detection, Detector } from "../detector.js";
import { dispatchTable, runRules } from "../commands/rules/dispatch.js";
import type { Hit } from "../commands/rules/types.js";
import type { Analysis } from "../commands/shell/analyze.js";
import { cloudSecrets } from "./cloud-secrets.js";
import { dnsExfiltration } from "./dns.js";
import { dnsVariables } from "./dns-variables.js";
import { gists } from "./gists.js";
import { markdownExfiltration } from "./markdown.js";
import { sendTraits } from "./traits.js";
import { uploads } from "./uploads.js";
import { DOCUMENT_ROOTS, uploadPatterns } from "./whole-analysis.js";

/**
 * `security.data_exfiltration`: secrets or files sent off the host by commands (tool-call
 * arguments and commands proposed in prose, parsed with the commands detector's shell parser),
 * DNS lookups that carry data, and markdown images or links in prose whose URL carries data.
 */

export const DATA_EXFILTRATION = "security.data_exfiltration";

/** Regular expressions run over free text (interpreter code, configurations), for the linear-time check. */
export const exfiltrationPatterns: readonly RegExp[] = [...uploadPatterns, ...DOCUMENT_ROOTS];

/** The rule modules, in the order their hits are reported. */
export const exfiltrationRules = [uploads, cloudSecrets, gists, dnsExfiltration, dnsVariables] as const;

// Upload checks for programs they do not name gate on `SendTrait`s rather than the commands detector's traits.
const TABLE = dispatchTable(exfiltrationRules, sendTraits);

/** Every rule's hits on one analysis. */
export function exfiltrationHits(analysis: Analysis): Hit[] {
  return runRules(exfiltrationRules, TABLE, analysis);
}

export const exfiltrationDetector: Detector = {
  name: "exfiltration",
  version: "6",
  categories: [DATA_EXFILTRATION],
  channels: [Channel.TOOL_CALL_ARGUMENTS, Channel.PROSE],
  detect(segment) {
    const out: Detection[] = [];
    for (const source of commandSources(segment)) {
      const analysis = analyzeSource(source);
      append(
        out,
        toDetections(segment, source, exfiltrationHits(analysis), DATA_EXFILTRATION, "EXFILTRATION"),
      );
    }
    if (segment.channel === Channel.PROSE) {
      const source = { text: segment.text, offset: 0, kind: "shell" as const };
      append(
        out,
        toDetections(segment, source, markdownExfiltration(segment.text), DATA_EXFILTRATION, "EXFILTRATION"),
      );
    }
    return out;
  },
};
