// lib/actions/result.ts: what a server action answers when its work throws, and what is logged.
import { afterEach, describe, expect, it, vi } from "vitest";
import { actionResult } from "@/lib/actions/result";
import { ApiError } from "@/lib/errors";

afterEach(() => vi.restoreAllMocks());

describe("action results", () => {
  it("answers an ApiError thrown as the answer (503 busy) with its status and message, and logs nothing", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const busy = new ApiError(503, "Too many sign-ins are being checked right now. Please try again in a moment.", {
      code: "busy",
    });
    expect(await actionResult("signInWithEmail", () => Promise.reject(busy))).toEqual({
      ok: false,
      status: 503,
      code: "busy",
      message: busy.message,
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it("logs an unexpected failure and answers a 500 that says nothing more", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await actionResult("x", () => Promise.reject(new Error("a bug")))).toMatchObject({
      ok: false,
      status: 500,
      code: "internal_error",
    });
    expect(logged).toHaveBeenCalled();
  });

  it("carries the code of the status when the thrower named none, and field errors with invalid_input", async () => {
    expect(await actionResult("x", () => Promise.reject(new ApiError(404, "Listing not found.")))).toEqual({
      ok: false,
      status: 404,
      code: "not_found",
      message: "Listing not found.",
    });
    const { z } = await import("zod");
    const refused = await actionResult("x", async () =>
      z.object({ email: z.email("Enter an e-mail address.") }).parse({ email: "x" }),
    );
    expect(refused).toMatchObject({
      ok: false,
      status: 400,
      code: "invalid_input",
      message: "Enter an e-mail address.",
      errors: { email: ["Enter an e-mail address."] },
    });
  });
});
