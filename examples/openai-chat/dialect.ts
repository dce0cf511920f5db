import type { Dialect } from "../shared/dialect.js";
import { chatCompletion } from "./completion.js";
import { chatToSse, reassembleChat } from "./stream.js";

/** Chat completions as Guard's `vendor_a.chat`: only `POST .../chat/completions` is a model call. */
export const chatDialect: Dialect = {
  protocol: "vendor_a.chat",
  isModelCall: (url) => url.pathname.endsWith("/chat/completions"),
  reassemble: reassembleChat,
  toSse: chatToSse,
  textReply: (text, model) => chatCompletion({ model, text }),
};
