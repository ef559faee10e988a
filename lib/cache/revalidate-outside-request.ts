// Work that runs outside any request (the schedule, background runs) cannot call Next's revalidateTag. It goes
// through the cache handler's bridge (lib/cache/route-cache-handler.mjs) instead: this instance's cache directly,
// and the other instances' through the same notice an approval sends (lib/cache/shared-tags.ts). Without the
// handler (a CLI run, unit tests) there is nothing cached to drop, and this does nothing.
type Bridge = { applyLocally?: (tags: string[]) => Promise<void>; announce?: (tags: string[]) => Promise<void> };

export async function revalidateOutsideRequest(tags: string[]): Promise<void> {
  const bridge = (globalThis as unknown as Record<symbol, Bridge | undefined>)[Symbol.for("agora.cache-tags")];
  await bridge?.applyLocally?.(tags);
  await bridge?.announce?.(tags);
}
