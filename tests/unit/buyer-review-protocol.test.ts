import { describe, expect, it } from "vitest";
import {
  cleanReviewText,
  parseTaskRef,
  ratingToScore,
  reviewSiteOf,
  signedBuyerReviewSchema,
  taskRefOf,
} from "@agora-mcp/protocol";

const TX = `0x${"Ab".repeat(32)}`;
const message = {
  site: "https://agora.example",
  listing: "l",
  taskRef: taskRefOf(84532, TX),
  logIndex: -1,
  reviewer: `0x${"1".repeat(40)}`,
  rating: 5,
  text: "ok",
  issuedAt: 1,
  expiresAt: 2,
};
const body = (m: Record<string, unknown>) => ({
  domain: { name: "Agora buyer reviews", version: "2", chainId: 84532 },
  message: { ...message, ...m },
  signature: `0x${"0".repeat(130)}`,
});

describe("buyer review wire format", () => {
  it("names a sale by CAIP-220 on the two payment chains only", () => {
    expect(taskRefOf(84532, TX)).toBe(`eip155:84532:0x${"ab".repeat(32)}`);
    expect(parseTaskRef(taskRefOf(8453, TX))).toEqual({ chainId: 8453, txHash: `0x${"ab".repeat(32)}` });
    expect(parseTaskRef(`eip155:1:${TX}`)).toBeNull();
    expect(signedBuyerReviewSchema.safeParse(body({ taskRef: `eip155:1:${TX}` })).success).toBe(false);
  });

  it("scores 1–5 stars as 20–100 and refuses other ratings", () => {
    expect([1, 2, 3, 4, 5].map(ratingToScore)).toEqual([20, 40, 60, 80, 100]);
    expect(signedBuyerReviewSchema.safeParse(body({ rating: 0 })).success).toBe(false);
    expect(signedBuyerReviewSchema.safeParse(body({ rating: 4.5 })).success).toBe(false);
  });

  it("takes up to 1,000 characters of text with line breaks, but no control or direction-override characters", () => {
    expect(signedBuyerReviewSchema.safeParse(body({ text: `line one\nline two <b>kept as text</b>` })).success).toBe(
      true,
    );
    expect(signedBuyerReviewSchema.safeParse(body({ text: "x".repeat(1_000) })).success).toBe(true);
    const long = signedBuyerReviewSchema.safeParse(body({ text: "x".repeat(1_001) }));
    expect(long.success || long.error.issues[0]!.message).toBe("A review is at most 1000 characters.");
    expect(signedBuyerReviewSchema.safeParse(body({ text: "nul\u0000" })).success).toBe(false);
    expect(signedBuyerReviewSchema.safeParse(body({ text: "flip\u202Etxt" })).success).toBe(false);
  });

  it("refuses zero-width and text-direction characters, which cleanReviewText removes", () => {
    for (const hidden of [
      "\u200B",
      "\u200C",
      "\u200D",
      "\u2060",
      "\uFEFF",
      "\u200E",
      "\u200F",
      "\u061C",
      "\u2066",
      "\u2069",
      "\u202A",
    ]) {
      const text = `pay${hidden}pal is great`;
      const parsed = signedBuyerReviewSchema.safeParse(body({ text }));
      expect(parsed.success || parsed.error.issues[0]!.message, JSON.stringify(hidden)).toBe(
        "The review text contains invisible characters (zero-width or text-direction controls); remove them and sign again.",
      );
      expect(cleanReviewText(text)).toBe("paypal is great");
    }
    expect(cleanReviewText("ünïcödé — emoji 👍🏽 and 日本語 stay")).toBe("ünïcödé — emoji 👍🏽 and 日本語 stay");
  });

  it("names the deployment by its origin only", () => {
    expect(reviewSiteOf("https://agora.example/api")).toBe("https://agora.example");
    expect(signedBuyerReviewSchema.safeParse(body({ site: "https://agora.example/path" })).success).toBe(false);
    expect(signedBuyerReviewSchema.safeParse(body({ site: "agora.example" })).success).toBe(false);
    expect(signedBuyerReviewSchema.safeParse(body({ site: "http://127.0.0.1:3000" })).success).toBe(true);
  });
});
