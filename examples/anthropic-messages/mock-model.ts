import { type MockModel, type ModelTurn, startMockModel } from "../shared/mock-model.js";
import { isRecord } from "../shared/raw-json.js";
import { assistantMessage } from "./message.js";
import { messageToSse } from "./stream.js";

/**
 * A stand-in for the Messages endpoint on 127.0.0.1: it answers each call with the next
 * scripted turn, as JSON or, when the SDK asks for a stream, as small event frames.
 */
export function startMessagesMock(script: readonly ModelTurn[]): Promise<MockModel> {
  let calls = 0;
  return startMockModel("/v1/messages", script, (body, turn) => {
    calls += 1;
    const model = typeof body["model"] === "string" ? body["model"] : "mock";
    const message = assistantMessage({ id: `msg_mock_${calls}`, model, ...replyOf(turn, body, calls) });
    return body["stream"] === true
      ? { status: 200, sse: messageToSse(message, 5) }
      : { status: 200, json: message };
  });
}

function replyOf(turn: ModelTurn | undefined, body: Record<string, unknown>, call: number) {
  if (!turn) return { text: "The script has no more turns." };
  if ("echo" in turn) return { text: `You said: ${lastMessageText(body)}` };
  if ("toolCalls" in turn)
    return {
      text: turn.text ?? null,
      toolUses: turn.toolCalls.map((c, i) => ({ id: `toolu_${call}_${i}`, name: c.name, input: c.args })),
    };
  return { text: turn.text };
}

/** The text of the last message: its string content, or its text and tool_result blocks. */
function lastMessageText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body["messages"]) ? body["messages"] : [];
  const last: unknown = messages.at(-1);
  const content = isRecord(last) ? last["content"] : undefined;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map(blockText).join("");
}

function blockText(block: unknown): string {
  if (!isRecord(block)) return "";
  if (typeof block["text"] === "string") return block["text"];
  if (typeof block["content"] === "string") return block["content"];
  return Array.isArray(block["content"]) ? block["content"].map(blockText).join("") : "";
}
