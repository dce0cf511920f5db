import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextValues, type ServiceImpl } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { DetectorService, DetectResponseSchema } from "../../../gen/guard/v1/detector_pb.js";
import { EventKind } from "../../../gen/guard/v1/types_pb.js";
import { inProcessClient } from "../../../src/rpc/in-process.js";
import { parsedPayloadKey } from "../../../src/rpc/context.js";

function client(detect: ServiceImpl<typeof DetectorService>["detect"]) {
  return inProcessClient(DetectorService, {
    describe: () => ({ name: "t", version: "1", categories: [] }),
    detect,
  });
}

describe("in-process client", () => {
  it("hands the handler a message with defaults and answers a message, from plain objects on both sides", async () => {
    const c = client((request) => {
      expect(request.$typeName).toBe("guard.v1.DetectRequest");
      expect(request.segments).toEqual([]);
      return { findings: [], unjudged: [`kind ${request.kind}`] };
    });
    const response = await c.detect({ kind: EventKind.STEP_REQUEST });
    expect(response.$typeName).toBe("guard.v1.DetectResponse");
    expect(response.unjudged).toEqual([`kind ${EventKind.STEP_REQUEST}`]);
  });

  it("passes context values to the handler", async () => {
    const c = client((_request, context) =>
      create(DetectResponseSchema, { unjudged: [String(context.values.get(parsedPayloadKey))] }),
    );
    const response = await c.detect({}, { contextValues: createContextValues().set(parsedPayloadKey, "parsed") });
    expect(response.unjudged).toEqual(["parsed"]);
  });

  it("turns a thrown error into a ConnectError with its code", async () => {
    const c = client(() => {
      throw new ConnectError("bad segment", Code.InvalidArgument);
    });
    await expect(c.detect({})).rejects.toMatchObject({ code: Code.InvalidArgument });
    const plain = client(() => {
      throw new Error("boom");
    });
    const error = await plain.detect({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.Unknown);
  });

  it("fails a handler that overruns its deadline with DeadlineExceeded and aborts its signal", async () => {
    let signal: AbortSignal | undefined;
    const c = client(async (_request, context) => {
      signal = context.signal;
      expect(context.timeoutMs()).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return {};
    });
    await expect(c.detect({}, { timeoutMs: 20 })).rejects.toMatchObject({ code: Code.DeadlineExceeded });
    expect(signal?.aborted).toBe(true);
  });

  it("answers a handler that finishes within its deadline", async () => {
    const c = client(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { unjudged: ["late but in time"] };
    });
    expect((await c.detect({}, { timeoutMs: 5_000 })).unjudged).toEqual(["late but in time"]);
  });

  it("refuses a call whose signal is already aborted, and one aborted while it runs", async () => {
    const c = client(async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return {};
    });
    await expect(c.detect({}, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: Code.Canceled });
    const controller = new AbortController();
    const pending = c.detect({}, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: Code.Canceled });
  });

  it("answers Unimplemented for a method the implementation lacks", async () => {
    const c = inProcessClient(DetectorService, {});
    await expect(c.detect({})).rejects.toMatchObject({ code: Code.Unimplemented });
  });
});
