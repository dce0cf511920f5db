import { type MockModel, type ModelTurn, startMockModel } from "../shared/mock-model.js";
import { isRecord } from "../shared/raw-json.js";
import { chatCompletion } from "./completion.js";
import { chatToSse } from "./stream.js";

/**
 * A stand-in for the chat-completions endpoint on 127.0.0.1: it answers each call with the
 * next scripted turn, as JSON or, when the SDK asks for a stream, as small chunk frames.
 */
export function startChatMock(script: readonly ModelTurn[]): Promise<MockModel> {
  let calls = 0;
  return startMockModel("/chat/completions", script, (body, turn) => {
    calls += 1;
    const model = typeof body["model"] === "string" ? body["model"] : "mock";
    const completion = chatCompletion({ id: `chatcmpl-mock-${calls}`, model, ...replyOf(turn, body, calls) });
    return body["stream"] === true
      ? { status: 200, sse: chatToSse(completion, 5) }
      : { status: 200, json: completion };
  });
}

function replyOf(turn: ModelTurn | undefined, body: Record<string, unknown>, call: number) {
  if (!turn) return { text: "The script has no more turns." };
  if ("echo" in turn) return { text: `You said: ${lastMessageText(body)}` };
  if ("toolCalls" in turn)
    return {
      text: turn.text ?? null,
      toolCalls: turn.toolCalls.map((c, i) => ({
        id: `call_${call}_${i}`,
        name: c.name,
        arguments: JSON.stringify(c.args),
      })),
    };
  return { text: turn.text };
}

/** The text of the last message (a string, or the text parts of a content array). */
function lastMessageText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body["messages"]) ? body["messages"] : [];
  const last: unknown = messages.at(-1);
  const content = isRecord(last) ? last["content"] : undefined;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isRecord(part) && typeof part["text"] === "string" ? part["text"] : ""))
    .join("");
}
