import { statSync } from "node:fs";
import { loadConfigFile } from "./load.js";
import type { GuardConfig } from "./types.js";

/**
 * Re-reads a configuration file when it changes (polled by modification time, which works
 * for editors that replace the file and for `guard keys create --add|revoke`). A file that
 * no longer parses keeps the last good configuration in force and is reported once.
 */
export function watchConfig(
  path: string,
  onChange: (config: GuardConfig) => void,
  onError: (error: Error) => void,
  intervalMs = 2000,
): () => void {
  const mtime = () => {
    try {
      return statSync(path).mtimeMs;
    } catch {
      return -1;
    }
  };
  let seen = mtime();
  const timer = setInterval(() => {
    const now = mtime();
    if (now === seen) return;
    seen = now;
    try {
      onChange(loadConfigFile(path));
    } catch (error) {
      onError(error as Error);
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
