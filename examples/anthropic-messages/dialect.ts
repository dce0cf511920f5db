import type { Dialect } from "../shared/dialect.js";
import { assistantMessage } from "./message.js";
import { messageToSse, reassembleMessage } from "./stream.js";

/** The Messages API as Guard's `vendor_b.messages`: only `POST .../v1/messages` is a model call. */
export const messagesDialect: Dialect = {
  protocol: "vendor_b.messages",
  isModelCall: (url) => url.pathname.endsWith("/v1/messages"),
  reassemble: reassembleMessage,
  toSse: messageToSse,
  textReply: (text, model) => assistantMessage({ model, text }),
};
