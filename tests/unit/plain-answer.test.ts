// server/plain-answer.mjs: the one builder of the short answers the preloads and the proxy give before a route runs,
// and its codes, which must be the API's own (lib/errors.ts) with the same statuses.
import { describe, expect, it } from "vitest";
import { ERROR_CODE_STATUS, type ErrorCode } from "@/lib/errors";
import { ERROR_CODE_MEANINGS } from "@/lib/http/openapi/error-codes";
import { PLAIN_CODES, plainAnswer } from "@/server/plain-answer.mjs";

describe("plain answers' codes", () => {
  it("are codes of lib/errors.ts, each with the status it has there, and explained in the API description", () => {
    for (const [code, { status }] of Object.entries(PLAIN_CODES)) {
      expect(ERROR_CODE_STATUS[code as ErrorCode], code).toBe(status);
      expect(ERROR_CODE_MEANINGS[code as ErrorCode], code).toBeTruthy();
    }
  });

  it("refuses a code that is not in the list", () => {
    expect(() => plainAnswer({ method: "GET", path: "/" }, { code: "teapot" as never, message: "x" })).toThrow(
      /teapot/,
    );
  });
});

describe("plainAnswer", () => {
  const options = {
    code: "overloaded",
    message: "Agora is busy right now. Please try again in a moment.",
    retry: true,
    headers: { "Retry-After": "1" },
  } as const;

  it("answers JSON {code, message} to a program, never cached, with the security headers", () => {
    const answer = plainAnswer({ method: "POST", path: "/api/mcp-agents", accept: "*/*" }, options);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body!)).toEqual({ code: "overloaded", message: options.message });
    expect(answer.headers).toMatchObject({
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      "Retry-After": "1",
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
    });
    expect(answer.headers["Content-Security-Policy"]).toContain("default-src 'none'");
  });

  it("answers a JSON-RPC error with the code as data.code on /api/mcp, even to a browser", () => {
    const answer = plainAnswer({ method: "GET", path: "/api/mcp", accept: "text/html" }, options);
    expect(JSON.parse(answer.body!)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: options.message, data: { code: "overloaded" } },
      id: null,
    });
  });

  it("answers a short page to a browser's GET, with a link to try again that carries no markup", () => {
    const answer = plainAnswer({ method: "GET", path: '/marketplace/"><script>', accept: "text/html,*/*" }, options);
    expect(answer.headers["Content-Type"]).toBe("text/html; charset=utf-8");
    expect(answer.body).toContain("<title>Busy — Agora</title>");
    expect(answer.body).toContain(`<p>${options.message}</p>`);
    expect(answer.body).toContain('<a href="/marketplace/script">Try again</a>');
  });

  it("sends no body to HEAD, and no link without retry", () => {
    expect(plainAnswer({ method: "HEAD", path: "/", accept: "text/html" }, options).body).toBeUndefined();
    expect(
      plainAnswer(
        { method: "GET", path: "/", accept: "text/html" },
        { code: "not_found", message: "There is nothing at this address." },
      ).body,
    ).not.toContain("Try again");
  });
});
