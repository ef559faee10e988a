// The app's part of a graceful shutdown: work to finish once the server has stopped taking requests. The
// preload server/graceful-shutdown.mjs runs these hooks on SIGTERM or SIGINT, the last added first
// (what was opened first, such as the database, is closed last).
type Hook = { name: string; run: () => Promise<void> };

// On globalThis under the preload's symbol: the preload is plain JavaScript outside the app's bundles.
const holder = globalThis as unknown as Record<symbol, Hook[] | undefined>;
const HOOKS = Symbol.for("agora.shutdown-hooks");

export function onShutdown(name: string, run: () => Promise<void>): void {
  (holder[HOOKS] ??= []).push({ name, run });
}
