import type { SseFrame, StreamProtocol } from "../../stream/index.js";

/**
 * What the caller's client has already been shown, as far as ending the stream cares: the
 * message's identity (so appended frames continue the same message), which choices or
 * blocks were opened, and which blocks are still open. Only released frames are observed;
 * the head release keeps them few and small, so parsing them again costs nothing.
 */
export interface BlockSeen {
  readonly type: string;
  open: boolean;
}

export class ReleasedView {
  /** vendor_a: chunk fields every continuation chunk repeats (`id`, `created`, `model`, ...). */
  readonly chunkMeta: Record<string, unknown> = {};
  /** vendor_a: choice indices the client has seen, in first-seen order. */
  readonly choices: number[] = [];
  /** vendor_b: the message_start went out. */
  messageStarted = false;
  /** vendor_b: blocks by index, and whether their content_block_stop is still owed. */
  readonly blocks = new Map<number, BlockSeen>();

  constructor(private readonly protocol: StreamProtocol) {}

  observe(frame: SseFrame): void {
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      return;
    }
    if (typeof data !== "object" || data === null || Array.isArray(data)) return;
    const record = data as Record<string, unknown>;
    if (this.protocol === "vendor_a.chat") this.observeChunk(record);
    else this.observeEvent(record);
  }

  /** The next unused block index (vendor_b). */
  get nextBlockIndex(): number {
    return this.blocks.size === 0 ? 0 : Math.max(...this.blocks.keys()) + 1;
  }

  private observeChunk(chunk: Record<string, unknown>): void {
    for (const key of ["id", "created", "model", "system_fingerprint", "service_tier"]) {
      if (this.chunkMeta[key] === undefined && chunk[key] !== undefined) this.chunkMeta[key] = chunk[key];
    }
    if (!Array.isArray(chunk.choices)) return;
    chunk.choices.forEach((item: unknown, k: number) => {
      const raw = typeof item === "object" && item !== null ? (item as Record<string, unknown>).index : undefined;
      const index = typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0 ? raw : k;
      if (!this.choices.includes(index)) this.choices.push(index);
    });
  }

  private observeEvent(event: Record<string, unknown>): void {
    const index = typeof event.index === "number" && Number.isSafeInteger(event.index) ? event.index : undefined;
    if (event.type === "message_start") this.messageStarted = true;
    if (event.type === "content_block_start" && index !== undefined) {
      const block = event.content_block as Record<string, unknown> | undefined;
      this.blocks.set(index, { type: String(block?.type ?? "text"), open: true });
    }
    if (event.type === "content_block_stop" && index !== undefined) {
      const block = this.blocks.get(index);
      if (block) block.open = false;
    }
  }
}
