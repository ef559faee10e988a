// The words the detail page and the sandbox print: the listing's own network, "1 check", and the sandbox's inbox.
import { describe, expect, it } from "vitest";
import { checksText, paidIn } from "@/lib/listings/presenters/price-rows";
import { mailLine } from "@/sandbox/mail";

describe("listing words", () => {
  it("names the network the listing is paid on", () => {
    expect(paidIn([{ paymentMethod: "USDC_BASE_SEPOLIA" }])).toBe("USDC on Base Sepolia");
    expect(paidIn([{ paymentMethod: "USDC_BASE_MAINNET" }])).toBe("USDC on Base");
    expect(paidIn([])).toBe("USDC");
  });

  it("counts checks in words", () => {
    expect(checksText(1)).toBe("1 check");
    expect(checksText(12)).toBe("12 checks");
  });
});

describe("the sandbox's inbox", () => {
  it("prints the link of each mail the site logged instead of sending, and nothing else of its log", () => {
    const logged = JSON.stringify({
      level: "info",
      time: "t",
      msg: "email verification link (SMTP_URL is not set, so it was not mailed)",
      to: "a@sandbox.example",
      link: "http://localhost:3000/verify-email?token=x",
    });
    expect(mailLine(logged)).toBe(
      "Mail to a@sandbox.example: confirmation link http://localhost:3000/verify-email?token=x",
    );
    expect(mailLine(JSON.stringify({ level: "info", msg: "ready" }))).toBeUndefined();
    expect(mailLine(" GET /marketplace 200 in 40ms")).toBeUndefined();
  });
});
