import { createContextKey } from "@connectrpc/connect";
import type { Digester } from "../decompose/digest.js";

/**
 * The body already parsed by the bridge, handed to an in-process DecomposeService through
 * Connect's context values so one evaluate parses its body once. A remote service never
 * sees it and decodes `payload_json` instead.
 */
export const parsedPayloadKey = createContextKey<unknown>(undefined, { description: "parsed payload" });

/**
 * How an in-process DecomposeService turns messages into conversation digests: recalling the
 * digests of the agent's last request (src/decompose/repeated-digests.ts). Absent, and always
 * for a remote service, every message is hashed.
 */
export const digesterKey = createContextKey<Digester | undefined>(undefined, { description: "conversation digester" });
