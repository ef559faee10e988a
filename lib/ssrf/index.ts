// SSRF-safe fetching for URLs users supply (server URLs in submissions, the probe).
export { classifyAddress, embeddedIPv4, hostnameRefusal, refusalReason, type AddressKind } from "./address-policy";
export { SafeFetchError, findSafeFetchError, type SafeFetchErrorCode } from "./errors";
export { pinnedAgent, pinnedConnector } from "./pinned-agent";
export { resolveTarget, systemLookup, type CheckedTarget, type Lookup, type ResolvedAddress } from "./resolve";
export {
  createSafeFetch,
  safeFetch,
  SAFE_FETCH_DEFAULTS,
  type FetchLike,
  type SafeFetch,
  type SafeFetchOptions,
} from "./safe-fetch";
