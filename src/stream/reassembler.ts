import { VendorAChatReassembler } from "./reassemble-vendor-a-chat.js";
import { VendorBMessagesReassembler } from "./reassemble-vendor-b-messages.js";
import type { Reassembler, StreamProtocol } from "./types.js";

/**
 * The reassembler for a stream's `guard-llm-protocol`. Only the two protocols with a
 * streamed form the service decodes are accepted; the caller refuses any other value
 * before the stream is read (the type makes that check the caller's, not a runtime throw).
 */
export function createReassembler(protocol: StreamProtocol): Reassembler {
  switch (protocol) {
    case "vendor_a.chat":
      return new VendorAChatReassembler();
    case "vendor_b.messages":
      return new VendorBMessagesReassembler();
  }
}

/** Narrows a header value to a protocol this module can reassemble. */
export function isStreamProtocol(value: string): value is StreamProtocol {
  return value === "vendor_a.chat" || value === "vendor_b.messages";
}
