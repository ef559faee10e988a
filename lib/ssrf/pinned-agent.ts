// An undici dispatcher whose every connection goes to the one address resolveTarget checked.
// No DNS happens at connect time, so an answer that changes after the check (DNS rebinding)
// is never seen; the connected peer is checked once more before a byte is sent.
import net from "node:net";
import tls from "node:tls";
import { Agent, type buildConnector } from "undici";
import type { AddressPolicy } from "./address-policy";
import { SafeFetchError } from "./errors";
import { refuseAddress, type CheckedTarget } from "./resolve";

export type PinnedAgentOptions = AddressPolicy & {
  connectTimeoutMs: number;
  /** Extra trusted certificate authorities (a private CA, or a test's self-signed certificate). */
  ca?: string | Buffer | Array<string | Buffer>;
};

function withoutBrackets(host: string): string {
  return host.replace(/^\[(.*)\]$/, "$1");
}

type Finish = (error: Error | null, socket?: net.Socket) => void;

/** Opens a TCP (and TLS) connection to the checked address, with the URL's host as TLS server name. */
export function pinnedConnector(target: CheckedTarget, options: PinnedAgentOptions): buildConnector.connector {
  return (request, callback) => {
    let settled = false;
    // finish() reads tcp and may run before the connect below (a refused host): declared here, not a const there.
    let tcp: net.Socket | undefined = undefined;
    // Called once, by whichever comes first: the timer, a refusal, a socket error or the finished connection.
    const finish: Finish = (error, socket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        tcp?.destroy();
        callback(error, null);
      } else {
        callback(null, socket!);
      }
    };
    const timer = setTimeout(
      () =>
        finish(
          new SafeFetchError(
            "timeout",
            `Connecting to ${target.hostname} took longer than ${options.connectTimeoutMs} ms`,
          ),
        ),
      options.connectTimeoutMs,
    );
    try {
      refuseUncheckedOrigin(request, target);
      refuseAddress(target.address, target.hostname, options);
    } catch (error) {
      finish(error as Error);
      return;
    }
    const https = request.protocol === "https:";
    const connected = dialChecked(target, Number(request.port) || (https ? 443 : 80));
    tcp = connected;
    connected.once("error", (error) => finish(error));
    connected.once("connect", () => checkPeerThenSecure(connected, target, options, https, finish));
  };
}

/** The dispatcher serves one checked origin; anything else (a redirect is a new request) is refused. */
function refuseUncheckedOrigin(request: { hostname: string; protocol: string }, target: CheckedTarget): void {
  if (withoutBrackets(request.hostname) !== target.hostname || request.protocol !== target.url.protocol) {
    throw new SafeFetchError(
      "blocked_address",
      `Refused ${request.protocol}//${request.hostname}: not the checked host`,
    );
  }
}

/** A TCP connection to the checked address itself: no DNS happens here. */
function dialChecked(target: CheckedTarget, port: number): net.Socket {
  const tcp = net.connect({
    host: target.address,
    port,
    family: target.family,
    // Belt and braces: an IP literal needs no lookup, and none may happen here.
    lookup: (_host, _opts, cb) => cb(null, target.address, target.family),
  });
  tcp.setNoDelay(true);
  return tcp;
}

/** The connected peer is checked once more before a byte is sent; for https, TLS then checks the name the user gave. */
function checkPeerThenSecure(
  tcp: net.Socket,
  target: CheckedTarget,
  options: PinnedAgentOptions,
  https: boolean,
  finish: Finish,
): void {
  try {
    refuseAddress(tcp.remoteAddress ?? "", target.hostname, options);
  } catch (error) {
    finish(error as Error);
    return;
  }
  if (!https) {
    finish(null, tcp);
    return;
  }
  const secure = tls.connect({
    socket: tcp,
    // SNI and certificate checks use the name the user gave; an IP literal is verified as itself.
    servername: net.isIP(target.hostname) ? undefined : target.hostname.replace(/\.$/, ""),
    host: target.hostname,
    ALPNProtocols: ["http/1.1"],
    ca: options.ca ? [...tls.rootCertificates, ...[options.ca].flat()] : undefined,
  });
  secure.once("error", (error) => finish(error));
  secure.once("secureConnect", () => finish(null, secure));
}

/** A dispatcher for one request hop; close it when the response body is done. */
export function pinnedAgent(target: CheckedTarget, options: PinnedAgentOptions): Agent {
  return new Agent({ connect: pinnedConnector(target, options), connections: 4, keepAliveTimeout: 1_000 });
}
