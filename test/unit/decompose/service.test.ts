import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { DecomposeRequestSchema, DecomposeService } from "../../../gen/guard/v1/decompose_pb.js";
import { EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decomposeServiceImpl } from "../../../src/decompose/service.js";
import { wireText } from "./helpers.js";

const client = createClient(
  DecomposeService,
  createRouterTransport(({ service }) => service(DecomposeService, decomposeServiceImpl)),
);

const encode = (text: string) => new TextEncoder().encode(text);

describe("DecomposeService", () => {
  it("decodes payload_json and decomposes it", async () => {
    const result = await client.decompose(
      create(DecomposeRequestSchema, {
        kind: EventKind.STEP_REQUEST,
        llmProtocol: LlmProtocol.VENDOR_B_MESSAGES,
        payloadJson: encode(wireText("anthropic", "req-tool_result-with-text-history.json")),
      }),
    );
    expect(result.protocol).toBe(LlmProtocol.VENDOR_B_MESSAGES);
    expect(result.segments.length).toBeGreaterThan(0);
    expect(result.conversation.map((e) => e.role)).toEqual(["user", "assistant", "tool"]);
  });

  it.each([
    [
      "the sample published invalid",
      encode(wireText("openai-responses", "event-function_call_arguments-delta.INVALID-as-published.txt")),
    ],
    ["truncated JSON", encode('{"messages": [')],
    ["invalid UTF-8", new Uint8Array([0x7b, 0xff, 0x7d])],
    ["an empty body", new Uint8Array()],
  ])("refuses %s with InvalidArgument", async (_name, payloadJson) => {
    const call = client.decompose(
      create(DecomposeRequestSchema, {
        kind: EventKind.STEP_RESPONSE,
        llmProtocol: LlmProtocol.VENDOR_A_RESPONSES,
        payloadJson,
      }),
    );
    await expect(call).rejects.toSatisfy((e: unknown) => ConnectError.from(e).code === Code.InvalidArgument);
  });
});
