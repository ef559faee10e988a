// One MCP session with a server under a deadline: the means every reading of a server shares (the probe, and the
// submit form's tool list). Every HTTP request goes through the SSRF-safe fetch, and the run ends within its timeout
// whatever the server does; a failure comes back as a fixed sentence, never the server's own text.
import { createSafeFetch, SafeFetchError, type FetchLike, type Lookup } from "@/lib/ssrf";
import { toolsListAnswerSchema, type Quirks } from "@agora-mcp/protocol";
import { classifyProbeError, refusalFailure, timeoutFailure, type ProbeFailure } from "./probe-errors";
import { closeQuietly, NotMcpServer, openSession, type RequestOptions, type Session } from "./session";
import type { ListedTool } from "./x402-tools";

const MAX_TOOL_PAGES = 5;

export type RunOptions = {
  /** Whole-run deadline; the run ends by then even if the server never answers. */
  timeoutMs: number;
  allowPrivateHosts?: boolean;
  lookup?: Lookup;
};

class ProbeTimeout extends Error {
  constructor(ms: number) {
    super(`No complete answer within ${ms} ms`);
  }
}

/** One run's means: its deadline, the safe fetch every request goes through, and the refusals that fetch made. */
type ProbeRun = {
  started: number;
  deadline: AbortSignal;
  refusals: SafeFetchError[];
  fetch: FetchLike;
  request: RequestOptions;
  /** Stops the deadline's timer and closes the session and the fetch's connections. */
  end: (session: Session | undefined) => Promise<void>;
};

function startRun(options: RunOptions): ProbeRun {
  const { timeoutMs } = options;
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new ProbeTimeout(timeoutMs)), timeoutMs);
  const refusals: SafeFetchError[] = [];
  const safe = createSafeFetch({
    allowPrivateHosts: options.allowPrivateHosts,
    lookup: options.lookup,
    timeoutMs: Math.min(10_000, timeoutMs),
    onRefusal: (e) => refusals.push(e),
    reuseConnections: true,
  });
  // Every request ends at the run's deadline as well as its caller's signal.
  const fetch: FetchLike = (input, init) =>
    safe(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal });
  const remaining = () => Math.max(1, timeoutMs - (performance.now() - started));
  return {
    started,
    deadline: deadline.signal,
    refusals,
    fetch,
    request: () => ({ signal: deadline.signal, timeout: remaining() }),
    end: async (session) => {
      clearTimeout(timer);
      if (session) await closeQuietly(session);
      await safe.close();
    },
  };
}

/**
 * Opens a session with the server at `url` and runs `work` in it before the deadline; the session and connections
 * are closed whatever happens. Null when it all finished, else why it did not. Never throws.
 */
export async function runSession(
  url: string,
  options: RunOptions,
  quirks: Quirks,
  work: (session: Session, run: ProbeRun) => Promise<void>,
): Promise<ProbeFailure | null> {
  const run = startRun(options);
  let session: Session | undefined;
  const all = async () => {
    session = await openSession(url, run, quirks);
    // A handshake that finished after the deadline (the answer is already out) must not stay open.
    if (run.deadline.aborted) {
      await closeQuietly(session);
      throw run.deadline.reason;
    }
    await work(session, run);
  };
  try {
    await Promise.race([
      all(),
      new Promise<never>((_, reject) =>
        run.deadline.addEventListener("abort", () => reject(run.deadline.reason), { once: true }),
      ),
    ]);
    return null;
  } catch (error) {
    return failureOf(error, run, options.timeoutMs);
  } finally {
    await run.end(session);
  }
}

/**
 * The server's tools, up to MAX_TOOL_PAGES pages, as the server sent them: the SDK's listTools would drop the
 * annotation keys some paid styles signal in (paid-styles.ts toolsListAnswerSchema).
 */
export async function listTools(session: Session, request: RequestOptions): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const listed = await session.client.request(
      { method: "tools/list", params: cursor ? { cursor } : {} },
      toolsListAnswerSchema,
      request(),
    );
    tools.push(
      ...listed.tools.map((t) => ({
        name: t.name,
        description: t.description ?? null,
        inputSchema: t.inputSchema ?? { type: "object" },
        annotations: t.annotations,
        _meta: t._meta,
      })),
    );
    cursor = listed.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

/**
 * Why the run failed. A refusal explains a failure better than the SDK's wrapping of it; the deadline explains a
 * hang. Only a class, a status and a fixed sentence are kept: never the server's own error text.
 */
function failureOf(error: unknown, run: Pick<ProbeRun, "refusals" | "deadline">, timeoutMs: number): ProbeFailure {
  if (run.refusals[0]) return refusalFailure(run.refusals[0]);
  if (run.deadline.aborted) return timeoutFailure(timeoutMs);
  if (error instanceof NotMcpServer) return classifyProbeError(error.streamable, "not_mcp");
  return classifyProbeError(error);
}
