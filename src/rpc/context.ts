import { createContextKey } from "@connectrpc/connect";

/**
 * The body already parsed by the bridge, handed to an in-process DecomposeService through
 * Connect's context values so one evaluate parses its body once. A remote service never
 * sees it and decodes `payload_json` instead.
 */
export const parsedPayloadKey = createContextKey<unknown>(undefined, { description: "parsed payload" });
