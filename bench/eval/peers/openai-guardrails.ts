import { PIIEntity, pii } from "@openai/guardrails/dist/checks/pii.js";
import { secretKeysCheck } from "@openai/guardrails/dist/checks/secret-keys.js";
import type { System } from "../system.js";

/**
 * OpenAI Guardrails' two local, regex-based checks, called as plain check functions (no
 * client, no LLM, no network): "Contains PII" with the entities that have a Guard category,
 * and "Secret Keys" at its default `balanced` threshold. Its LLM-based checks (jailbreak,
 * prompt injection, moderation, ...) need the OpenAI API and are not run.
 */

/** The PII entities with a Guard category; the other entities of the check have none. */
const CATEGORY_BY_ENTITY: ReadonlyMap<PIIEntity, string> = new Map([
  [PIIEntity.EMAIL_ADDRESS, "privacy.pii.email"],
  [PIIEntity.PHONE_NUMBER, "privacy.pii.phone"],
  [PIIEntity.CREDIT_CARD, "privacy.pii.payment_card"],
  [PIIEntity.IBAN_CODE, "privacy.pii.iban"],
  [PIIEntity.US_SSN, "privacy.pii.us_ssn"],
  [PIIEntity.IP_ADDRESS, "privacy.pii.ip_address"],
]);

const piiConfig = { entities: [...CATEGORY_BY_ENTITY.keys()], block: true, detect_encoded_pii: false };

export async function findPii(text: string): Promise<string[]> {
  const result = await pii({}, text, piiConfig);
  const found = Object.keys((result.info["detected_entities"] ?? {}) as Record<string, unknown>);
  return found.flatMap((entity) => CATEGORY_BY_ENTITY.get(entity as PIIEntity) ?? []);
}

export async function findSecretKeys(text: string): Promise<string[]> {
  const result = await secretKeysCheck({}, text, { threshold: "balanced" });
  return result.tripwireTriggered ? ["security.secret_leak"] : [];
}

export const system: System = {
  name: "openai-guardrails",
  version: "@openai/guardrails@0.2.1",
  how: "the `pii` check (entities EMAIL_ADDRESS, PHONE_NUMBER, CREDIT_CARD, IBAN_CODE, US_SSN, IP_ADDRESS; encoded PII off, the default) and `secretKeysCheck` (threshold `balanced`, the default), called directly",
  scope: "covered",
  checks: [
    { name: "pii", categories: [...CATEGORY_BY_ENTITY.values()], run: ({ sample }) => findPii(sample.text) },
    {
      name: "secret-keys",
      categories: ["security.secret_leak"],
      run: ({ sample }) => findSecretKeys(sample.text),
    },
  ],
};
