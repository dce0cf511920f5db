import { lintSource } from "@secretlint/core";
import { creator as recommendPreset } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";
import type { System } from "../system.js";

/**
 * secretlint with its recommended rule preset, through the in-process core API
 * (`@secretlint/core` `lintSource`, which the `secretlint` CLI runs per file). Every message
 * of every rule of the preset is a secret leak; `secretlint-disable` comments (the preset's
 * filter-comments rule) are honoured, as in the CLI.
 */

const config: SecretLintCoreConfig = {
  rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommendPreset }],
};

export const SECRET_LEAK = "security.secret_leak";

export async function findSecrets(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { content: text, filePath: "sample.txt", ext: ".txt", contentType: "text" },
    options: { config, noPhysicFilePath: true },
  });
  return result.messages.some((m) => m.type === "message") ? [SECRET_LEAK] : [];
}

export const system: System = {
  name: "secretlint",
  version: "secretlint@13.0.6, @secretlint/secretlint-rule-preset-recommend@13.1.0",
  how: "`lintSource` of @secretlint/core with the recommended preset, each sample as a text file; any message is `security.secret_leak`",
  scope: "covered",
  checks: [
    { name: "preset-recommend", categories: [SECRET_LEAK], run: ({ sample }) => findSecrets(sample.text) },
  ],
};
