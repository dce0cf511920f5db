import type {
  Channel,
  ConversationEntry,
  MediaPart,
  Segment,
  ToolCall,
  Usage,
} from "../../gen/guard/v1/types_pb.js";
import { type Digester, HASH_EVERY, type MessageDigest } from "./digest.js";

/** Attribution shared by the texts of one message or block. */
export interface TextContext {
  readonly channel: Channel;
  /** Index in the body's `messages` array, -1 outside it (tools, top-level system, responses). */
  readonly messageIndex: number;
  readonly toolName?: string;
  readonly callId?: string;
}

/** What a segment adds to its context. */
export interface SegmentInit {
  readonly path: string;
  readonly text: string;
  readonly addressable: boolean;
  readonly argumentKey?: string;
}

/** One tool call as a protocol parser found it. */
export interface ToolCallInit {
  readonly id: string;
  readonly name: string;
  readonly path: string;
  readonly argumentsPath: string;
  readonly argumentsJson: string;
  readonly argumentsValid: boolean;
}

/**
 * The mutable accumulator of one decompose call. Parsers stay small because they only
 * say what they found; the collector owns the rules every protocol shares: empty strings
 * make no segment, a wrong type is reported once in `unjudged`, and tool names are
 * remembered by call id so a later tool result can carry the name of its tool.
 *
 * Messages are written as literals with every field set (what `create` would make, without
 * its reflective walk over the schema): a body yields hundreds of segments per step. The
 * generated types list every field as required, so a field added to the proto fails to
 * compile here until it is set.
 */
export class Collector {
  readonly segments: Segment[] = [];
  readonly toolCalls: ToolCall[] = [];
  readonly media: MediaPart[] = [];
  readonly conversation: ConversationEntry[] = [];
  /** Tool names by provider call id, in the order calls were read. */
  readonly toolNames = new Map<string, string>();
  finishReason = "";
  model = "";
  usage: Usage | undefined;
  streamRequested = false;
  // A Set keeps first-seen order and drops repeats of the same path.
  private readonly skipped = new Set<string>();
  /** Segments already counted by an entry: the next entry's segments follow them. */
  #entrySegments = 0;
  readonly #digester: Digester;

  constructor(digester: Digester = HASH_EVERY) {
    this.#digester = digester;
  }

  get unjudged(): string[] {
    return [...this.skipped];
  }

  /** Records a path that holds content which could not be judged. */
  skip(path: string): void {
    this.skipped.add(path);
  }

  /** Adds a judged text; empty strings are not worth a segment. */
  segment(ctx: TextContext, init: SegmentInit): void {
    if (init.text.length === 0) return;
    this.segments.push({
      $typeName: "guard.v1.Segment",
      path: init.path,
      channel: ctx.channel,
      text: init.text,
      addressable: init.addressable,
      toolName: ctx.toolName ?? "",
      callId: ctx.callId ?? "",
      argumentKey: init.argumentKey ?? "",
      messageIndex: ctx.messageIndex,
    });
  }

  /**
   * Judges a field that should hold a string leaf: a string becomes an addressable segment,
   * an absent or null field is simply empty, and any other type is reported as unjudged.
   * Returns the string (or "") so the caller can also feed it to a digest.
   */
  text(ctx: TextContext, value: unknown, path: string): string {
    if (typeof value === "string") {
      this.segment(ctx, { path, text: value, addressable: true });
      return value;
    }
    if (value !== null && value !== undefined) this.skip(path);
    return "";
  }

  mediaPart(kind: string, path: string, bytes: number): void {
    this.media.push({ $typeName: "guard.v1.MediaPart", kind, path, bytes: BigInt(bytes) });
  }

  toolCall(init: ToolCallInit): void {
    if (init.id !== "") this.toolNames.set(init.id, init.name);
    this.toolCalls.push({
      $typeName: "guard.v1.ToolCall",
      id: init.id,
      name: init.name,
      path: init.path,
      argumentsPath: init.argumentsPath,
      argumentsJson: init.argumentsJson,
      argumentsValid: init.argumentsValid,
    });
  }

  /**
   * Ends one message of the conversation: its digest covers every segment added since the
   * previous entry, which is what lets detection recall the message by digest alone.
   */
  entry(role: string, message: MessageDigest): void {
    const segments = this.segments.length - this.#entrySegments;
    this.#entrySegments = this.segments.length;
    const digest = this.#digester.digest(this.conversation.length, message.pieces);
    this.conversation.push({ $typeName: "guard.v1.ConversationEntry", role, digest, segments });
  }
}
