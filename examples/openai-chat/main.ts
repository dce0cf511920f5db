/**
 * `npx tsx examples/openai-chat/main.ts [--stream]`: the example against a running Guard
 * (GUARD_URL, GUARD_API_KEY; see shared/demo.ts).
 */
import { runDemo } from "../shared/demo.js";
import { ChatAgent } from "./agent.js";
import { startChatMock } from "./mock-model.js";

await runDemo(startChatMock, (options) => new ChatAgent(options));
