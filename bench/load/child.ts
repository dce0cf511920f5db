import { fork, spawn } from "node:child_process";

/**
 * Runs a command or a TypeScript entry as a child process and answers its standard output,
 * killing it when it overruns `killAfterMs`: the load side must never outlive its phase.
 */
function collect(
  child: ReturnType<typeof spawn>,
  killAfterMs: number,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    let out = "";
    let err = "";
    child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

export function runCommand(command: string, args: string[], killAfterMs: number) {
  return collect(spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] }), killAfterMs);
}

/** A .ts entry in a child Node with this process's loader flags (tsx), so it runs as written. */
export function runScript(path: string, args: string[], killAfterMs: number) {
  return collect(fork(path, args, { execArgv: process.execArgv, stdio: ["ignore", "pipe", "pipe", "ipc"] }), killAfterMs);
}
