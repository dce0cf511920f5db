import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { DecomposeService } from "../../gen/guard/v1/decompose_pb.js";
import { digesterKey, parsedPayloadKey } from "../rpc/context.js";
import { decompose } from "./decompose.js";

// fatal: invalid UTF-8 is refused, not silently replaced (offsets index the bytes as sent).
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes `payload_json`; a body that is not UTF-8 JSON is the caller's error, not ours. */
function parsePayload(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new ConnectError("payload_json is not valid UTF-8", Code.InvalidArgument);
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    const detail = cause instanceof Error ? `: ${cause.message}` : "";
    throw new ConnectError(`payload_json is not valid JSON${detail}`, Code.InvalidArgument);
  }
}

/** DecomposeService: the transport edge around the pure `decompose`. */
export const decomposeServiceImpl: ServiceImpl<typeof DecomposeService> = {
  decompose(request, context) {
    const parsed = context.values.get(parsedPayloadKey);
    const payload = parsed !== undefined ? parsed : parsePayload(request.payloadJson);
    return decompose(request.kind, request.llmProtocol, payload, context.values.get(digesterKey));
  },
};
