// The probe's MCP session with a server: the transport it settled on (Streamable HTTP, else the deprecated
// HTTP+SSE), and a tool call that turns a failure into a quirk. Every request goes through the probe's fetch.
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  type Transport,
} from "@modelcontextprotocol/client";
import { SafeFetchError, type FetchLike } from "@/lib/ssrf";
import { readToolPayload, type Quirks } from "@agora-mcp/protocol";
import { toolCallProblem } from "./probe-errors";

const CLIENT_INFO = { name: "agora-probe", version: "1.0.0" };

// The SDK compiles every tool's outputSchema with Ajv to check call results. A probed server's schemas
// are untrusted input (a hostile `pattern` can hang the regex engine) and the probe reads the answers
// itself, so nothing is compiled: every answer passes through to the tolerant readers.
const acceptAnything: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** What each request of the probe carries: the whole probe's deadline, and the time left before it. */
export type RequestOptions = () => { signal: AbortSignal; timeout: number };

export type Session = {
  client: Client;
  transport: Transport;
  kind: "streamable-http" | "sse";
  protocolVersion: string | null;
};

/** Both transports failed: the Streamable HTTP failure explains it unless it was only "not MCP". */
export class NotMcpServer extends Error {
  constructor(
    readonly streamable: unknown,
    readonly sse: unknown,
  ) {
    super("Not an MCP server");
  }
}

/** What openSession needs of the probe: its fetch, its requests' deadline, and whether a retry could help. */
type SessionDeps = {
  fetch: FetchLike;
  request: RequestOptions;
  refusals: readonly SafeFetchError[];
  deadline: AbortSignal;
};

/**
 * Connects over Streamable HTTP, falling back to the deprecated HTTP+SSE transport (noted as a quirk). A refusal
 * or the deadline would only repeat over SSE, so either ends the attempt; two other failures say "not MCP".
 */
export async function openSession(url: string, deps: SessionDeps, quirks: Quirks): Promise<Session> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new SafeFetchError("invalid_url", `Not a valid URL: ${url.slice(0, 200)}`);
  }
  const retryIsPointless = () => deps.refusals.length > 0 || deps.deadline.aborted;
  try {
    return await connect("streamable-http", target, deps.fetch, deps.request);
  } catch (streamableError) {
    // A refusal or the deadline would only repeat over SSE; anything else may be a legacy SSE server.
    if (retryIsPointless()) throw streamableError;
    try {
      const session = await connect("sse", target, deps.fetch, deps.request);
      quirks.add("served over the deprecated HTTP+SSE transport, not Streamable HTTP");
      return session;
    } catch (sseError) {
      if (retryIsPointless()) throw sseError;
      throw new NotMcpServer(streamableError, sseError);
    }
  }
}

async function connect(kind: Session["kind"], url: URL, fetch: FetchLike, request: RequestOptions): Promise<Session> {
  // The SDK's same-origin redirect policy would refuse what safeFetch already re-checks; let safeFetch decide.
  const transport =
    kind === "streamable-http"
      ? new StreamableHTTPClientTransport(url, { fetch, redirectPolicy: "follow" })
      : new SSEClientTransport(url, { fetch, redirectPolicy: "follow" });
  // The deprecated HTTP+SSE transport predates 2026-07-28: no server/discover is asked there.
  const client = new Client(CLIENT_INFO, {
    jsonSchemaValidator: acceptAnything,
    versionNegotiation: { mode: kind === "streamable-http" ? "auto" : "legacy" },
  });
  const session: Session = { client, transport, kind, protocolVersion: null };
  // Background stream errors (a refused GET stream, a reconnect) are not the probe's result.
  session.client.onerror = () => {};
  try {
    await session.client.connect(transport, request());
  } catch (error) {
    await closeQuietly(session);
    throw error;
  }
  session.protocolVersion = client.getNegotiatedProtocolVersion()?.slice(0, 40) ?? null;
  return session;
}

/** Closes the session, waiting at most a second: a server that never answers the close must not hold the probe. */
export async function closeQuietly(session: Session): Promise<void> {
  await Promise.race([session.client.close().catch(() => {}), new Promise((r) => setTimeout(r, 1_000).unref())]);
}

/** Calls a tool with no arguments; a failed call becomes a quirk and an undefined payload. */
export async function callTool(
  session: Session,
  name: string,
  request: RequestOptions,
  quirks: Quirks,
): Promise<unknown> {
  try {
    const answer = await session.client.callTool({ name, arguments: {} }, request());
    return readToolPayload(name, answer, quirks);
  } catch (error) {
    if (request().signal.aborted) throw error;
    quirks.add(`${name.slice(0, 60)}: call failed (${toolCallProblem(error)})`);
    return undefined;
  }
}
