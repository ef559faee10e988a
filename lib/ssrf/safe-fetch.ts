// fetch for URLs a user typed: checked addresses only, pinned connections, redirects re-checked,
// a deadline on the whole exchange and a cap on the body. Same shape as fetch, so the MCP SDK's
// client transports take it as their `fetch` option.
import { fetch as undiciFetch, type Agent } from "undici";
import { env } from "@/lib/env";
import { SafeFetchError } from "./errors";
import { pinnedAgent, type PinnedAgentOptions } from "./pinned-agent";
import { cappedBody, tooLarge, untilAborted } from "./bounded";
import { resolveTarget, type CheckedTarget, type Lookup } from "./resolve";

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
/** A FetchLike that may keep connections open between requests; close() ends them. */
export type SafeFetch = FetchLike & { close: () => Promise<void> };

export type SafeFetchOptions = {
  /** Reach loopback and private networks; defaults to PROBE_ALLOW_PRIVATE_HOSTS. */
  allowPrivateHosts?: boolean;
  /** DNS resolution; defaults to the system resolver (getaddrinfo). */
  lookup?: Lookup;
  /** Deadline for the whole exchange: DNS, connect, every redirect and the body. */
  timeoutMs?: number;
  /** Largest body, after decompression; a bigger one aborts the stream. */
  maxBytes?: number;
  maxRedirects?: number;
  ca?: string | Buffer | Array<string | Buffer>;
  /** Told about every refusal, including one that happens while the body streams. */
  onRefusal?: (error: SafeFetchError) => void;
  /**
   * Keep connections to a checked address open for the next request that resolves to the same
   * address (a probe's handful of requests to one server). Call close() when done. Off: every
   * request gets its own connection, closed with its body.
   */
  reuseConnections?: boolean;
};

export const SAFE_FETCH_DEFAULTS = { timeoutMs: 10_000, maxBytes: 1024 * 1024, maxRedirects: 3 } as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const CROSS_ORIGIN_UNSAFE_HEADERS = ["authorization", "cookie", "proxy-authorization"];

type Hop = { method: string; headers: Headers; body: RequestInit["body"] };

type Lease = { agent: Agent; release: (how: "close" | "destroy") => void };
type Leaser = (target: CheckedTarget, agentOptions: PinnedAgentOptions) => Lease;
type Upstream = Awaited<ReturnType<typeof undiciFetch>>;

/** The settings one request runs under: the options given, else the defaults and PROBE_ALLOW_PRIVATE_HOSTS. */
type Settings = {
  allowPrivateHosts: boolean;
  lookup?: Lookup;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  ca?: SafeFetchOptions["ca"];
};

/** One request's exchange, over all its hops: its settings, its deadline, and how its errors are told. */
type Exchange = {
  config: Settings;
  /** The deadline and the caller's signal together: every hop and the body end with it. */
  signal: AbortSignal;
  /** Tells onRefusal about a refusal, then hands it back to be thrown. */
  refuse: (error: SafeFetchError) => SafeFetchError;
  /** Errors while waiting: our refusal as is, the deadline as a timeout, the caller's abort as its own reason. */
  translate: (error: unknown) => unknown;
};

export function createSafeFetch(options: SafeFetchOptions = {}): SafeFetch {
  const pool = options.reuseConnections ? new Map<string, Agent>() : null;
  const lease = leaser(pool);

  const safe = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = input instanceof Request ? input : null;
    const exchange = openExchange(settingsOf(options), options.onRefusal, init.signal ?? request?.signal ?? null);
    const redirectMode = init.redirect ?? request?.redirect ?? "follow";
    let { url, hop } = await firstHop(input, init, request, exchange);
    for (let redirects = 0; ; redirects++) {
      const { upstream, release } = await sendHop(url, hop, redirects, exchange, lease);
      const location = upstream.headers.get("location");
      if (REDIRECT_STATUSES.has(upstream.status) && location && redirectMode !== "manual") {
        ({ url, hop } = await followRedirect(
          upstream,
          release,
          location,
          { url, hop, redirects, redirectMode },
          exchange,
        ));
        continue;
      }
      return toResponse(upstream, release, { url, redirects }, exchange);
    }
  };
  return Object.assign(safe, {
    close: async () => {
      const agents = [...(pool?.values() ?? [])];
      pool?.clear();
      await Promise.all(agents.map((a) => a.destroy().catch(() => {})));
    },
  });
}

/** Read for every request, not once: PROBE_ALLOW_PRIVATE_HOSTS comes from the environment as it is then. */
function settingsOf(options: SafeFetchOptions): Settings {
  return {
    allowPrivateHosts: options.allowPrivateHosts ?? env().PROBE_ALLOW_PRIVATE_HOSTS,
    lookup: options.lookup,
    timeoutMs: options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs,
    maxBytes: options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes,
    maxRedirects: options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects,
    ca: options.ca,
  };
}

/** Starts the request's deadline (one for the whole exchange) and its error telling. */
function openExchange(
  config: Settings,
  onRefusal: SafeFetchOptions["onRefusal"],
  callerSignal: AbortSignal | null,
): Exchange {
  const refuse = (error: SafeFetchError): SafeFetchError => {
    onRefusal?.(error);
    return error;
  };
  const deadline = AbortSignal.timeout(config.timeoutMs);
  const signal = callerSignal ? AbortSignal.any([deadline, callerSignal]) : deadline;
  const timeoutError = () => refuse(new SafeFetchError("timeout", `No complete answer within ${config.timeoutMs} ms`));
  const translate = (error: unknown): unknown => {
    const cause = (error as { cause?: unknown })?.cause;
    if (error instanceof SafeFetchError) return refuse(error);
    if (cause instanceof SafeFetchError) return refuse(cause);
    if (deadline.aborted && !callerSignal?.aborted) return timeoutError();
    return error;
  };
  return { config, signal, refuse, translate };
}

/** Every lease dials only its target's checked address, so a pooled agent is keyed by that address. */
function leaser(pool: Map<string, Agent> | null): Leaser {
  return (target, agentOptions) => {
    if (!pool) {
      const agent = pinnedAgent(target, agentOptions);
      return { agent, release: (how) => void (how === "close" ? agent.close() : agent.destroy()).catch(() => {}) };
    }
    const key = `${target.url.protocol}//${target.hostname}:${target.url.port}@${target.address}`;
    let agent = pool.get(key);
    if (!agent) pool.set(key, (agent = pinnedAgent(target, agentOptions)));
    // undici drops a connection whose body was abandoned; the agent stays for the next request.
    return { agent, release: () => {} };
  };
}

/** The URL the caller asked for (a refusal when it is none) and the method, headers and body of the first hop. */
async function firstHop(
  input: string | URL | Request,
  init: RequestInit,
  request: Request | null,
  exchange: Exchange,
): Promise<{ url: URL; hop: Hop }> {
  const url = parseLocation(request ? request.url : input instanceof URL ? input.href : String(input));
  if (!url) throw exchange.refuse(new SafeFetchError("invalid_url", `Not a valid URL: ${String(input).slice(0, 200)}`));
  const hop: Hop = {
    method: (init.method ?? request?.method ?? "GET").toUpperCase(),
    headers: new Headers(init.headers ?? request?.headers),
    body: init.body ?? (request?.body ? await request.arrayBuffer() : undefined),
  };
  return { url, hop };
}

/**
 * Sends one hop: the URL's host is resolved and checked (resolveTarget), and the connection goes to that checked
 * address only (a pinned agent). Redirects are never followed here: each is a new hop, checked again.
 */
async function sendHop(
  url: URL,
  hop: Hop,
  redirects: number,
  exchange: Exchange,
  lease: Leaser,
): Promise<{ upstream: Upstream; release: Lease["release"] }> {
  const { config, signal } = exchange;
  let leased: Lease | undefined;
  try {
    const checked = resolveTarget(url, { allowPrivateHosts: config.allowPrivateHosts, lookup: config.lookup }).catch(
      (error: unknown) => {
        // Say that the refused address came from a redirect, not from the URL the user gave.
        if (redirects > 0 && error instanceof SafeFetchError)
          throw new SafeFetchError(error.code, `Redirect to ${url.href}: ${error.message}`);
        throw error;
      },
    );
    const target = await untilAborted(checked, signal);
    leased = lease(target, { ...config, connectTimeoutMs: config.timeoutMs });
    const upstream = await undiciFetch(target.url, {
      method: hop.method,
      headers: hop.headers as never,
      body: hop.body as never,
      redirect: "manual",
      signal,
      dispatcher: leased.agent,
      ...(hop.body instanceof ReadableStream ? { duplex: "half" as const } : {}),
    });
    return { upstream, release: leased.release };
  } catch (error) {
    leased?.release("destroy");
    throw exchange.translate(error);
  }
}

/** The next hop of a redirect, within maxRedirects; the redirect's own response is dropped with its connection. */
async function followRedirect(
  upstream: Upstream,
  release: Lease["release"],
  location: string,
  from: { url: URL; hop: Hop; redirects: number; redirectMode: RequestRedirect },
  exchange: Exchange,
): Promise<{ url: URL; hop: Hop }> {
  const { url, hop, redirects } = from;
  await upstream.body?.cancel().catch(() => {});
  release("destroy");
  if (from.redirectMode === "error") throw new TypeError(`Redirect from ${url.href} refused (redirect: "error")`);
  if (redirects >= exchange.config.maxRedirects) {
    throw exchange.refuse(
      new SafeFetchError("too_many_redirects", `More than ${exchange.config.maxRedirects} redirects from ${url.href}`),
    );
  }
  const next = parseLocation(location, url);
  if (!next)
    throw exchange.refuse(
      new SafeFetchError("invalid_url", `Redirect to an invalid location: ${location.slice(0, 200)}`),
    );
  const nextRequest = nextHop(hop, upstream.status, url, next);
  if (!nextRequest)
    throw new TypeError(`Cannot follow the redirect from ${url.href}: the streamed body cannot be sent again`);
  return { url: next, hop: nextRequest };
}

/**
 * The final hop's answer as a fetch Response: a body over maxBytes (declared or streamed) is refused, and the
 * connection is released when the body ends, closed early or fails.
 */
async function toResponse(
  upstream: Upstream,
  release: Lease["release"],
  at: { url: URL; redirects: number },
  exchange: Exchange,
): Promise<Response> {
  const { config, refuse, translate } = exchange;
  const declared = Number(upstream.headers.get("content-length") ?? NaN);
  if (declared > config.maxBytes) {
    await upstream.body?.cancel().catch(() => {});
    release("destroy");
    throw refuse(tooLarge(config.maxBytes));
  }
  const body =
    upstream.body && !NULL_BODY_STATUSES.has(upstream.status)
      ? cappedBody(upstream.body as ReadableStream<Uint8Array>, config.maxBytes, {
          onEnd: () => release("close"),
          onCancel: () => release("destroy"),
          onFail: (error) => {
            release("destroy");
            return error instanceof SafeFetchError ? refuse(error) : translate(error);
          },
        })
      : null;
  if (!body) {
    await upstream.body?.cancel().catch(() => {});
    release("close");
  }
  const headers = new Headers();
  for (const [name, value] of upstream.headers) headers.append(name, value);
  const response = new Response(body, { status: upstream.status, statusText: upstream.statusText, headers });
  Object.defineProperty(response, "url", { value: at.url.href });
  Object.defineProperty(response, "redirected", { value: at.redirects > 0 });
  return response;
}

/** safeFetch with the defaults: 10 s, 1 MB, 3 redirects, private hosts only with PROBE_ALLOW_PRIVATE_HOSTS. */
export const safeFetch: FetchLike = (input, init) => createSafeFetch()(input, init);

function parseLocation(location: string, base?: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

// What a browser does on a redirect: 303 (and 301/302 after a POST) become a bodiless GET; a request
// leaving its origin loses its credentials. Null when a streamed body would have to be sent again.
function nextHop(hop: Hop, status: number, from: URL, to: URL): Hop | null {
  const headers = new Headers(hop.headers);
  let { method, body } = hop;
  if (status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST") {
    method = "GET";
    body = undefined;
    for (const name of ["content-type", "content-length", "content-encoding", "content-language"]) headers.delete(name);
  }
  if (body instanceof ReadableStream) return null;
  if (from.origin !== to.origin) for (const name of CROSS_ORIGIN_UNSAFE_HEADERS) headers.delete(name);
  return { method, headers, body };
}
