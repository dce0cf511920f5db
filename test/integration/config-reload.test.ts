import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { hashKey } from "../../src/auth/keys.js";
import { loadConfigFile } from "../../src/config/load.js";
import { SecretBox } from "../../src/crypto/secret-box.js";
import { chatRequestEvent, post } from "../helpers/guard-server.js";

const KEY = "gk_test_reload_0123456789abcdef";
const config = (revoked: boolean) => `
orgs:
  - id: reload
    keys: [{id: k, sha256: ${hashKey(KEY)}, revoked: ${revoked}}]
`;

describe("configuration reload", () => {
  const dir = mkdtempSync(join(tmpdir(), "guard-reload-"));
  const path = join(dir, "guard.yaml");
  let app: App;
  let url: string;
  beforeAll(async () => {
    writeFileSync(path, config(false));
    app = await createApp({ config: loadConfigFile(path), configPath: path, dataDir: dir, box: new SecretBox(Buffer.alloc(32, 3)) });
    url = await app.bridge.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("stops accepting a key revoked in the file, without a restart, and keeps the last good file on a broken edit", async () => {
    expect((await post(url, "/v1/evaluate", chatRequestEvent("hi"), KEY)).status).toBe(200);
    writeFileSync(path, "orgs: [not: valid");
    await new Promise((r) => setTimeout(r, 2600));
    expect((await post(url, "/v1/evaluate", chatRequestEvent("hi"), KEY)).status).toBe(200);
    writeFileSync(path, config(true));
    let status = 0;
    for (let i = 0; i < 20 && status !== 401; i++) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await post(url, "/v1/evaluate", chatRequestEvent("hi"), KEY)).status;
    }
    expect(status).toBe(401);
  });
});
