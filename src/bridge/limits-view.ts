import type { OrgLimits } from "../config/types.js";

/** The limits object of spec 2.10, as callers see it (rates stay internal). */
export function limitsView(limits: OrgLimits): Record<string, unknown> {
  return {
    max_request_bytes: limits.max_request_bytes,
    media: { ...limits.media },
    media_parts_max: limits.media_parts_max,
  };
}
