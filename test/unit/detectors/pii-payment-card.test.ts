import { describe, expect, it } from "vitest";
import { cardNetwork, findPaymentCards, luhnValid } from "../../../src/detectors/pii/payment-card.js";

const positives: readonly [string, string][] = [
  ["card 4111111111111111 exp", "4111111111111111"],
  ["4012-8888-8888-1881", "4012-8888-8888-1881"],
  ["amex 3714 496353 98431", "3714 496353 98431"],
  ["mc 5555 5555 5555 4444.", "5555 5555 5555 4444"],
  ["diners 30569309025904", "30569309025904"],
];

const negatives: readonly string[] = [
  "4012-8888-8888-1882",
  "36168002586008",
  "1748503543012",
  "4111 1111-1111 1111",
  "x4111111111111111",
  "41111111111111111111111",
];

describe("payment cards", () => {
  it.each(positives)("finds %j", (text, number) => {
    const [d, ...rest] = findPaymentCards(text);
    expect(rest).toEqual([]);
    expect(d?.category).toBe("privacy.pii.payment_card");
    expect(text.slice(d?.start, d?.end)).toBe(number);
    expect(d?.start).toBe(text.indexOf(number));
  });

  it.each(negatives)("ignores %j", (text) => {
    expect(findPaymentCards(text)).toEqual([]);
  });

  it("separates two numbers written side by side", () => {
    const text = "4012888888881881 4012-8888-8888-1881";
    expect(findPaymentCards(text).map((d) => text.slice(d.start, d.end))).toEqual([
      "4012888888881881",
      "4012-8888-8888-1881",
    ]);
  });

  it("checks Luhn and issuer prefixes", () => {
    expect(luhnValid("79927398713")).toBe(true);
    expect(luhnValid("79927398710")).toBe(false);
    expect(cardNetwork("4111111111111111")).toBe("visa");
    expect(cardNetwork("378282246310005")).toBe("amex");
    expect(cardNetwork("9111111111111111")).toBeNull();
  });
});
