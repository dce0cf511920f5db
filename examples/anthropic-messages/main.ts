/**
 * `npx tsx examples/anthropic-messages/main.ts [--stream]`: the example against a running
 * Guard (GUARD_URL, GUARD_API_KEY; see shared/demo.ts).
 */
import { runDemo } from "../shared/demo.js";
import { MessagesAgent } from "./agent.js";
import { startMessagesMock } from "./mock-model.js";

await runDemo(startMessagesMock, (options) => new MessagesAgent(options));
