/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes every item as a call
 * argument and throws a RangeError once a list reaches about a hundred thousand entries, which
 * hostile input (a command with 200,000 arguments) reaches easily.
 */
export function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
