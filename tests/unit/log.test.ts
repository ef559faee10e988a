// Error log lines say what failed underneath (the cause's code) without repeating what a cause's message holds.
import { afterEach, describe, expect, it, vi } from "vitest";
import { logError, MAX_LOGGED_TEXT } from "@/lib/log";

afterEach(() => vi.restoreAllMocks());

function logged(error: unknown): Record<string, unknown> {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
  logError("route unavailable", error, { context: "GET /x" });
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe("logError", () => {
  it("names the codes of the cause chain, and only the outer message", () => {
    const driver = Object.assign(new Error("read ECONNRESET with private detail"), { code: "ECONNRESET" });
    const line = logged(new Error("Failed query: select 1", { cause: driver }));
    expect(line).toMatchObject({ level: "error", msg: "route unavailable", context: "GET /x" });
    expect(line.error).toMatchObject({
      name: "Error",
      message: "Failed query: select 1",
      cause: { name: "Error", code: "ECONNRESET" },
    });
    expect(JSON.stringify(line)).not.toContain("private detail");
  });

  it("stops after three causes and logs a thrown non-error as text", () => {
    let error = new Error("level 5");
    for (let i = 4; i >= 0; i--) error = new Error(`level ${i}`, { cause: error });
    const line = JSON.stringify(logged(error));
    expect(line.match(/"cause"/g)).toHaveLength(3);
    expect(logged("plain text").error).toEqual({ value: "plain text" });
  });

  it("bounds every logged text, so a request cannot write a long line (a 50,000-character path, say)", () => {
    const path = `/api/nextauth/${"x".repeat(50_000)}`;
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    logError("auth.js", new Error(`Unknown action ${path}`), { path, nested: { again: path } });
    expect(lines).toHaveLength(1);
    // message, stack (which repeats the message), the field and the nested field: four bounded copies at most.
    expect(lines[0]!.length).toBeLessThan(4 * (MAX_LOGGED_TEXT + 100) + 500);
    const line = JSON.parse(lines[0]!) as { path: string; error: { message: string } };
    expect(line.path).toMatch(/^\/api\/nextauth\/x+… \(\d+ more characters\)$/);
    expect(line.error.message.length).toBeLessThan(MAX_LOGGED_TEXT + 100);
  });
});
