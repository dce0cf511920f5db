/**
 * Wraps an object so chosen methods report when they are called and when their promise settles,
 * while every other property passes through untouched. Methods are bound to the real target:
 * the embedded store keeps its state in private fields, which a Proxy receiver cannot reach.
 */
export interface CallHooks {
  /** Called right before the method; returns what `settled` receives. */
  readonly before: () => number;
  /** Called right after the method returned its promise (the synchronous part is done). */
  readonly returned?: (started: number) => void;
  readonly settled?: (started: number) => void;
}

export function timed<T extends object>(target: T, hooks: Record<string, CallHooks>): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value: unknown = Reflect.get(obj, prop, obj);
      if (typeof value !== "function") return value;
      const hook = typeof prop === "string" ? hooks[prop] : undefined;
      if (!hook) return value.bind(obj);
      return (...args: unknown[]) => {
        const started = hook.before();
        const result: unknown = value.apply(obj, args);
        hook.returned?.(started);
        if (result instanceof Promise) {
          const settle = () => hook.settled?.(started);
          return result.then(
            (v: unknown) => {
              settle();
              return v;
            },
            (e: unknown) => {
              settle();
              throw e;
            },
          );
        }
        hook.settled?.(started);
        return result;
      };
    },
  });
}
