/** Waiting in tests: on conditions with deadlines, never on guessed fixed delays. */

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds or `ms` pass; answers whether it held. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return check();
}
