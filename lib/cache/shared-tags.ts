// Next's page and data caches belong to one process (memory, and the instance's own disk). When an instance
// revalidates a tag (an approval updates the catalogue tag), every other instance on the database must drop what it
// cached under that tag as well, or it keeps serving the old catalogue until the entry's own revalidate time.
// The cache handler (route-cache-handler.mjs) hands each local revalidation to `announce`, which records it and
// notifies the other instances on a PostgreSQL channel; each applies the others' notices to its own cache.
import { randomUUID } from "node:crypto";
import {
  announceTagRevalidation,
  CACHE_TAG_CHANNEL,
  databaseNow,
  tagsRevalidatedSince,
  type TagRevalidation,
} from "@/db/queries/cache-tags";
import { listen, type Listener } from "@/db/notifications";
import type { Db } from "@/db/types";
import { logError } from "@/lib/log";

type Durations = { expire?: number };

/** Shared with the cache handler, which Next loads outside the app's bundles: hence globalThis. */
type Bridge = {
  /** Set by the cache handler: applies a revalidation to this instance's cache only. */
  applyLocally?: (tags: string[], durations?: Durations) => Promise<void>;
  /** Set here: called by the cache handler after each revalidation made on this instance. */
  announce?: (tags: string[], durations?: Durations) => Promise<void>;
};

const bridge = ((globalThis as unknown as Record<symbol, Bridge>)[Symbol.for("agora.cache-tags")] ??= {});

/** Starts sharing revalidations with the other instances on this PostgreSQL database; returns how to stop. */
export async function shareCacheTags(db: Db, databaseUrl: string): Promise<Listener> {
  const instance = randomUUID();
  let since = await databaseNow(db);

  bridge.announce = async (tags, durations) => {
    const notice: TagRevalidation = { from: instance, tags, expireSeconds: durations?.expire };
    await announceTagRevalidation(db, notice).catch((error: unknown) =>
      logError("could not share a cache revalidation", error, { tags }),
    );
  };

  const apply = (tags: string[], expireSeconds?: number) =>
    bridge.applyLocally?.(tags, expireSeconds === undefined ? undefined : { expire: expireSeconds });

  // After a reconnect the notices sent meanwhile are gone: the table says which tags changed since.
  const catchUp = async () => {
    try {
      const changed = await tagsRevalidatedSince(db, since);
      if (changed.length === 0) return;
      since = new Date(Math.max(...changed.map((c) => c.revalidatedAt.getTime())));
      await apply(changed.map((c) => c.tag));
    } catch (error) {
      logError("could not catch up on cache revalidations", error);
    }
  };

  return listen(databaseUrl, CACHE_TAG_CHANNEL, {
    onMessage: (payload) => {
      const notice = parseNotice(payload);
      if (notice && notice.from !== instance) void apply(notice.tags, notice.expireSeconds);
    },
    onConnect: () => void catchUp(),
  });
}

function parseNotice(payload: string): TagRevalidation | null {
  try {
    const value = JSON.parse(payload) as Partial<TagRevalidation>;
    if (typeof value.from !== "string" || !Array.isArray(value.tags) || !value.tags.every((t) => typeof t === "string"))
      return null;
    return {
      from: value.from,
      tags: value.tags,
      expireSeconds: typeof value.expireSeconds === "number" ? value.expireSeconds : undefined,
    };
  } catch {
    return null;
  }
}
