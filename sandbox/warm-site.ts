// `next dev` compiles a route on its first request: the registry's MCP endpoint took over 15 s on a busy machine,
// longer than the agent client waits for an answer, so an assistant's first search right after `npm run sandbox`
// could fail. The sandbox asks the site's pages and its MCP endpoint once, as soon as it answers, so they are
// compiled before a person (or their assistant) gets there. Loopback only; a failure here changes nothing.
const PAGES = ["/getting-started", "/marketplace"];

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** Waits for the site at `origin` to answer, then compiles its MCP endpoint and first pages; true when all answered. */
export async function warmSite(origin: string, timeoutMs = 180_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!(await answers(`${origin}/api/health`))) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  let ok = true;
  try {
    // An initialize is enough for `next dev` to compile the route and the registry's MCP server behind it.
    const response = await fetch(`${origin}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "agora-sandbox-warm-up", version: "1" },
        },
      }),
      signal: AbortSignal.timeout(90_000),
    });
    await response.arrayBuffer();
    ok = response.ok;
  } catch {
    ok = false;
  }
  for (const page of PAGES) ok = (await answers(`${origin}${page}`)) && ok;
  return ok;
}
