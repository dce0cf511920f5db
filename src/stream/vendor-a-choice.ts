import { indexValue, isRecord, type JsonRecord, parseJson, stringValue, utf8Bytes } from "./json.js";

/**
 * One choice of a vendor_a.chat stream: folds the `delta` of each chunk into the
 * non-streamed `message`. Strings are kept as parts and joined once in `build`, so a long
 * answer of many tiny deltas costs linear time.
 */

/** What one delta shows the client; the chunk-level reassembler adds these up. */
export interface DeltaCost {
  contentBytes: number;
  toolBytes: number;
  announcesTool: boolean;
  opening: boolean;
}

/** Concatenated string deltas; `seen` tells "never sent" from "sent empty". */
class Parts {
  private readonly parts: string[] = [];
  seen = false;

  /** Adds a string delta and returns its UTF-8 size (0 for anything that is not a string). */
  add(value: unknown): number {
    if (typeof value !== "string") return 0;
    this.seen = true;
    if (value !== "") this.parts.push(value);
    return utf8Bytes(value);
  }

  text(): string {
    return this.parts.join("");
  }

  /** The joined text, or null when nothing non-empty arrived ("null when none"). */
  textOrNull(): string | null {
    const text = this.text();
    return text === "" ? null : text;
  }
}

/** One tool call, keyed by the delta's `index`; id/type/name come from the first delta. */
class ToolCall {
  id: string | undefined;
  type: string | undefined;
  name: string | undefined;
  readonly args = new Parts();

  build(): JsonRecord {
    return {
      id: this.id ?? "",
      type: this.type ?? "function",
      function: { name: this.name ?? "", arguments: this.args.text() },
    };
  }
}

/** Appends the items of `from` (when an array) to `into` without spreading (no arg limit). */
function appendItems(into: unknown[], from: unknown): boolean {
  if (!Array.isArray(from)) return false;
  for (const item of from) into.push(item);
  return true;
}

/** Logprobs arrive per chunk; the non-streamed form concatenates each list. */
class Logprobs {
  private seen = false;
  private readonly content: unknown[] = [];
  private readonly refusal: unknown[] = [];
  private contentSeen = false;
  private refusalSeen = false;

  add(value: unknown): void {
    if (!isRecord(value)) return;
    this.seen = true;
    if (appendItems(this.content, value.content)) this.contentSeen = true;
    if (appendItems(this.refusal, value.refusal)) this.refusalSeen = true;
  }

  build(): JsonRecord | null {
    if (!this.seen) return null;
    return {
      content: this.contentSeen ? this.content : null,
      refusal: this.refusalSeen ? this.refusal : null,
    };
  }
}

export class ChoiceAccumulator {
  private role: string | undefined;
  private readonly content = new Parts();
  private readonly refusal = new Parts();
  // Gateways that normalise other providers to this shape stream reasoning in one of these.
  private readonly reasoningContent = new Parts();
  private readonly reasoning = new Parts();
  private readonly toolCalls = new Map<number, ToolCall>();
  private functionCall: ToolCall | undefined;
  private readonly annotations: unknown[] = [];
  private audio: { transcript: Parts; data: Parts; meta: JsonRecord } | undefined;
  private readonly logprobs = new Logprobs();
  private finishReason: string | null = null;

  constructor(readonly index: number) {}

  /** Folds one `choices[n]` item of a chunk; returns what its delta shows the client. */
  add(choice: JsonRecord): DeltaCost {
    const cost: DeltaCost = { contentBytes: 0, toolBytes: 0, announcesTool: false, opening: false };
    const finish = stringValue(choice.finish_reason);
    if (finish !== undefined) this.finishReason = finish;
    if (choice.logprobs !== undefined) this.logprobs.add(choice.logprobs);
    const delta = choice.delta;
    if (!isRecord(delta)) return cost;
    const role = stringValue(delta.role);
    if (role !== undefined) {
      this.role ??= role;
      cost.opening = true;
    }
    cost.contentBytes += this.content.add(delta.content);
    cost.contentBytes += this.refusal.add(delta.refusal);
    cost.contentBytes += this.reasoningContent.add(delta.reasoning_content);
    cost.contentBytes += this.reasoning.add(delta.reasoning);
    cost.contentBytes += this.addAudio(delta.audio);
    appendItems(this.annotations, delta.annotations);
    if (Array.isArray(delta.tool_calls)) {
      for (let k = 0; k < delta.tool_calls.length; k++) {
        const item: unknown = delta.tool_calls[k];
        if (isRecord(item)) this.addToolDelta(item, indexValue(item.index) ?? k, cost);
      }
    }
    if (isRecord(delta.function_call)) {
      this.functionCall ??= new ToolCall();
      this.addCallParts(this.functionCall, delta.function_call, cost);
    }
    return cost;
  }

  private addToolDelta(item: JsonRecord, index: number, cost: DeltaCost): void {
    let call = this.toolCalls.get(index);
    if (call === undefined) {
      call = new ToolCall();
      this.toolCalls.set(index, call);
    }
    const id = stringValue(item.id);
    if (id !== undefined && id !== "") {
      call.id ??= id;
      cost.announcesTool = true;
    }
    const type = stringValue(item.type);
    if (type !== undefined) call.type ??= type;
    if (isRecord(item.function)) this.addCallParts(call, item.function, cost);
  }

  /** `{name, arguments}` of a tool call or legacy function call delta. */
  private addCallParts(call: ToolCall, fn: JsonRecord, cost: DeltaCost): void {
    const name = stringValue(fn.name);
    if (name !== undefined && name !== "") {
      call.name ??= name;
      cost.announcesTool = true;
    }
    const bytes = call.args.add(fn.arguments);
    cost.contentBytes += bytes;
    cost.toolBytes += bytes;
  }

  /** Audio output: `data` and `transcript` stream in pieces; id and expiry come once. */
  private addAudio(value: unknown): number {
    if (!isRecord(value)) return 0;
    this.audio ??= { transcript: new Parts(), data: new Parts(), meta: {} };
    for (const key of ["id", "expires_at"]) {
      if (value[key] !== undefined && this.audio.meta[key] === undefined) this.audio.meta[key] = value[key];
    }
    this.audio.data.add(value.data);
    return this.audio.transcript.add(value.transcript);
  }

  /** The non-streamed `choices[n]` item. */
  build(): JsonRecord {
    const message: JsonRecord = {
      role: this.role ?? "assistant",
      content: this.content.textOrNull(),
      refusal: this.refusal.textOrNull(),
    };
    if (this.reasoningContent.seen) message.reasoning_content = this.reasoningContent.text();
    if (this.reasoning.seen) message.reasoning = this.reasoning.text();
    if (this.toolCalls.size > 0) message.tool_calls = this.sortedCalls().map((call) => call.build());
    if (this.functionCall !== undefined) {
      message.function_call = {
        name: this.functionCall.name ?? "",
        arguments: this.functionCall.args.text(),
      };
    }
    if (this.annotations.length > 0) message.annotations = this.annotations;
    if (this.audio !== undefined) {
      message.audio = {
        ...this.audio.meta,
        data: this.audio.data.text(),
        transcript: this.audio.transcript.text(),
      };
    }
    return { index: this.index, message, logprobs: this.logprobs.build(), finish_reason: this.finishReason };
  }

  /** Argument texts that are present but do not parse into a JSON object. */
  unparsableArguments(): string[] {
    const calls = this.sortedCalls();
    if (this.functionCall !== undefined) calls.push(this.functionCall);
    const out: string[] = [];
    for (const call of calls) {
      const text = call.args.text();
      if (text !== "" && !isRecord(parseJson(text))) out.push(text);
    }
    return out;
  }

  private sortedCalls(): ToolCall[] {
    return [...this.toolCalls.entries()].sort((a, b) => a[0] - b[0]).map((entry) => entry[1]);
  }
}
