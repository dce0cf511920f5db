/**
 * The same body as a new step: a fresh `step_id`, so replaying a body is a new step of its
 * session rather than a retry. `step_id` is the envelope's second key, so the first match is
 * always the envelope's, never text inside the payload (where quotes are escaped).
 */
export function asNewStep(body: string, n: number): string {
  return body.replace('"step_id":"', `"step_id":"r${n}-`);
}
