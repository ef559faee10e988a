// The MCP SDK warns, each time a handler is made with `responseMode: "json"`, that JSON answers drop notifications
// sent in the middle of a call. Agora's MCP servers (the registry's, the kit's, the example's) send none (no progress,
// tool lists fixed for the server's life), so the line only alarmed the people running them; any other warning passes.
const JSON_MODE_WARNING = "responseMode: 'json' drops mid-call notifications";

/** Runs `make` (synchronous) with the SDK's JSON-mode warning left out of console.warn. */
export function withoutJsonModeWarning<T>(make: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!(typeof args[0] === "string" && args[0].startsWith(JSON_MODE_WARNING))) warn(...args);
  };
  try {
    return make();
  } finally {
    console.warn = warn;
  }
}
