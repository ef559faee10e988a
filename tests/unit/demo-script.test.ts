import { describe, expect, it } from "vitest";
import { formatTimestamp, formatUsd } from "@/lib/demo/chat";
import {
  bobaPrice,
  commands,
  matchCommand,
  presetConversations,
  replyTo,
  unknownCommandReply,
  wallet,
} from "@/lib/demo/script";
import { site } from "@/lib/site";

const name = site.name;

describe("matchCommand", () => {
  it("builds the three commands from the product name", () => {
    expect(commands.map((c) => c.text)).toEqual([`what is ${name}`, `list services on ${name}`, "order boba"]);
  });

  it("matches case-insensitively after trimming", () => {
    expect(matchCommand(`what is ${name}`)?.id).toBe("what-is");
    expect(matchCommand(`  WHAT IS ${name.toUpperCase()}  `)?.id).toBe("what-is");
    expect(matchCommand(`List Services On ${name.toLowerCase()}`)?.id).toBe("list-services");
    expect(matchCommand("\n\tOrder Boba \n")?.id).toBe("order-boba");
  });

  it("does not match anything else", () => {
    for (const input of [
      "",
      "   ",
      `what is ${name}?`,
      "order  boba",
      "order boba please",
      "please order boba",
      `list services`,
      "boba",
    ]) {
      expect(matchCommand(input), input).toBeNull();
    }
  });
});

describe("replyTo", () => {
  it("explains the product after 1 s", () => {
    const reply = replyTo(`What is ${name}`, 5);
    expect(reply.delayMs).toBe(1000);
    expect(reply.content).toContain(`${name} is a marketplace and registry`);
    expect(reply.payment).toBeUndefined();
  });

  it("lists services with prices after 2 s", () => {
    const reply = replyTo(`list services on ${name}`, 5);
    expect(reply.delayMs).toBe(2000);
    expect(reply.content).toMatch(/Image Studio — \$0\.25/);
    expect(reply.content).toMatch(/Boba Order Bot — \$5\.00/);
    expect(reply.payment).toBeUndefined();
  });

  it("orders a $5 boba after 2 s, taking the wallet from $5 to $0", () => {
    expect(wallet.startingBalance).toBe(5);
    expect(bobaPrice).toBe(5);
    const reply = replyTo("order boba", wallet.startingBalance);
    expect(reply.delayMs).toBe(2000);
    expect(reply.payment).toEqual({ amount: 5, payee: "Boba Order Bot" });
    expect(reply.content).toContain("a boba costs $5.00");
    expect(reply.content).toContain("The first 50 people get a free boba");
    expect(reply.content).toContain("from $5.00 to $0.00");
  });

  it("never spends more than the wallet holds", () => {
    const reply = replyTo("order boba", 0);
    expect(reply.delayMs).toBe(2000);
    expect(reply.payment).toBeUndefined();
    expect(reply.content).toContain("can't place another order");
  });

  it("answers anything else after 1 s with the list of commands", () => {
    expect(unknownCommandReply).toBe(
      `The only commands I understand are "what is ${name}", "list services on ${name}" and "order boba"`,
    );
    for (const input of ["hello", "order a boba", `what is ${name}!`]) {
      expect(replyTo(input, 5)).toEqual({ content: unknownCommandReply, delayMs: 1000 });
    }
  });
});

describe("preset conversations", () => {
  it("are conversations 1 and 2, keyed by id, with well-formed messages", () => {
    expect(Object.keys(presetConversations)).toEqual(["1", "2"]);
    expect(presetConversations["1"].label).toBe("Conversation 1");
    expect(presetConversations["2"].label).toBe("Conversation 2");
    const ids = new Set<string>();
    for (const { messages } of Object.values(presetConversations)) {
      expect(messages.length).toBeGreaterThan(0);
      for (const m of messages) {
        expect(["user", "assistant"]).toContain(m.role);
        expect(m.timestamp).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
        expect(m.content.trim()).not.toBe("");
        expect(ids.has(m.id)).toBe(false);
        ids.add(m.id);
      }
    }
  });
});

describe("formatting", () => {
  it("writes timestamps as HH:mm and amounts in dollars", () => {
    expect(formatTimestamp(new Date(2026, 4, 20, 9, 5))).toBe("09:05");
    expect(formatTimestamp(new Date(2026, 4, 20, 23, 59))).toBe("23:59");
    expect(formatUsd(5)).toBe("$5.00");
    expect(formatUsd(0)).toBe("$0.00");
  });
});
