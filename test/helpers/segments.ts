import { Channel } from "../../gen/guard/v1/types_pb.js";
import type { SegmentView } from "../../src/detectors/detector.js";

/** An addressable shell-tool argument, as the command and exfiltration detectors see one. */
export function toolSegment(text: string, toolName = "bash", argumentKey = "command"): SegmentView {
  return {
    path: "/tool_calls/0/arguments/command",
    channel: Channel.TOOL_CALL_ARGUMENTS,
    text,
    addressable: true,
    toolName,
    callId: "c1",
    argumentKey,
  };
}

/** Addressable model prose. */
export function proseSegment(text: string): SegmentView {
  return { path: "/content", channel: Channel.PROSE, text, addressable: true, toolName: "", callId: "", argumentKey: "" };
}
