// What a process holds once, whichever bundle or development reload loads the module that asks (instrumentation,
// the proxy and route handlers are separate bundles; `next dev` reloads modules). One key style for all of it:
// globalThis[Symbol.for("agora.<name>")], the keys the Node preloads (server/*.mjs, plain JavaScript) use too.

/** This process's `name` state, made by `create` the first time it is asked for. */
export function processState<T extends object>(name: string, create: () => T): T {
  const holder = globalThis as unknown as Record<symbol, T | undefined>;
  return (holder[Symbol.for(`agora.${name}`)] ??= create());
}
