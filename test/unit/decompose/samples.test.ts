import { describe, expect, it } from "vitest";
import { Channel, EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";
import { expectConsistent, wireFiles, wireJson } from "./helpers.js";

/**
 * Every real provider body in test/fixtures/wire decomposes without error, keeps the path
 * invariants, and is pinned by a snapshot of its segments (channel, path, addressable,
 * text length), tool calls, media and unjudged paths.
 */

const FOLDERS: ReadonlyArray<readonly [string, LlmProtocol]> = [
  ["openai-chat", LlmProtocol.VENDOR_A_CHAT],
  ["anthropic", LlmProtocol.VENDOR_B_MESSAGES],
  ["openai-responses", LlmProtocol.VENDOR_A_RESPONSES],
];

/** Requests are `req-*`; everything else (responses, fragments, stream events) is judged as a response. */
function kindOf(file: string): EventKind {
  return file.startsWith("req-") ? EventKind.STEP_REQUEST : EventKind.STEP_RESPONSE;
}

describe("wire samples", () => {
  for (const [folder, protocol] of FOLDERS) {
    for (const file of wireFiles(folder).filter((f) => f.endsWith(".json"))) {
      it(`${folder}/${file}`, () => {
        const payload = wireJson(folder, file);
        const result = decompose(kindOf(file), protocol, payload);
        expectConsistent(payload, result);
        expect(result.protocolMismatch).toBe(false);
        expect({
          protocol: LlmProtocol[result.protocol],
          segments: result.segments.map(
            (s) => `${Channel[s.channel]} ${s.path} addressable=${s.addressable} len=${s.text.length}`,
          ),
          toolCalls: result.toolCalls.map(
            (t) => `${t.id} ${t.name} ${t.argumentsPath} valid=${t.argumentsValid}`,
          ),
          media: result.media.map((m) => `${m.kind} ${m.path} ${m.bytes}`),
          unjudged: result.unjudged,
          finishReason: result.finishReason,
          conversation: result.conversation.map((e) => e.role),
        }).toMatchSnapshot();
      });
    }
  }
});
