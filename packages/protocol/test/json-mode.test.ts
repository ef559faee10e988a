// withoutJsonModeWarning: the SDK's JSON-mode line is left out while a handler is made; every other warning passes,
// and console.warn is itself again afterwards (also when making the handler throws).
import { afterEach, describe, expect, it, vi } from "vitest";
import { withoutJsonModeWarning } from "../src/json-mode.js";

const SDK_LINE =
  "responseMode: 'json' drops mid-call notifications. subscriptions/listen streams are always served over SSE regardless; other notifications emitted before a result are dropped.";

describe("withoutJsonModeWarning", () => {
  afterEach(() => vi.restoreAllMocks());

  it("drops the SDK's JSON-mode line and lets other warnings through", () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    const made = withoutJsonModeWarning(() => {
      console.warn(SDK_LINE);
      console.warn("something else", 42);
      return "handler";
    });
    expect(made).toBe("handler");
    expect(warned.mock.calls).toEqual([["something else", 42]]);
    console.warn(SDK_LINE);
    expect(warned.mock.calls).toHaveLength(2);
  });

  it("puts console.warn back when making the handler throws", () => {
    const before = console.warn;
    expect(() =>
      withoutJsonModeWarning(() => {
        throw new Error("bad options");
      }),
    ).toThrow("bad options");
    expect(console.warn).toBe(before);
  });
});
