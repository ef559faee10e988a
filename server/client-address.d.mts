// Types for the preload (plain JavaScript so that `node --import` can load it without a build step).
export declare const CLIENT_ADDRESS_HEADER: "x-agora-client-address";
/** The client (an IPv4 address, an IPv6 /64, or "unknown") a request counts against. */
export declare function clientKey(req: import("node:http").IncomingMessage): string;
