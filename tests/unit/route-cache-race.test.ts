// lib/cache/route-cache-handler.mjs with Next's own file-system cache underneath: a page whose render began before a
// tag it carries was revalidated (the sales indexer wrote a sale while the detail page was rendering) is not served
// as fresh afterwards; a page rendered after the revalidation is kept.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore: a plain JavaScript module Next loads at run time, without types
import RouteCache from "../../lib/cache/route-cache-handler.mjs";
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore: Next's own file-system methods, as its server hands them to the cache handler
import { nodeFs } from "next/dist/server/lib/node-fs-methods.js";

const distDir = fs.mkdtempSync(path.join(os.tmpdir(), "route-cache-race-"));
afterAll(() => fs.rmSync(distDir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pageCtx = { kind: "APP_PAGE", isFallback: false, isRoutePPREnabled: false };
const rendered = (text: string, tag: string) => ({
  kind: "APP_PAGE",
  html: `<p>${text}</p>`,
  rscData: Buffer.from(text),
  headers: { "x-next-cache-tags": tag },
  status: 200,
  postponed: undefined,
  segmentData: undefined,
});
const handler = () => new RouteCache({ fs: nodeFs, serverDistDir: distDir, flushToDisk: false, revalidatedTags: [] });

describe("the route cache under a revalidation during a render", () => {
  it("does not keep a page whose render read the data before its tag was revalidated", async () => {
    const tag = `sales-${Date.now()}`;
    const key = `/marketplace/race-${tag}`;
    // A request misses and starts rendering (it reads the figures: no sales yet). Next gives each request its own
    // handler; the render's lookup and store go through it.
    const rendering = handler();
    expect(await rendering.get(key, pageCtx)).toBeNull();
    await sleep(5);
    // The indexer writes a sale and revalidates the tag while the render is still going.
    await handler().revalidateTag([tag]);
    await sleep(5);
    await rendering.set(key, rendered("0 sales", tag), { cacheControl: { revalidate: 300, expire: undefined } });
    // The next request renders again instead of serving "0 sales" for five minutes.
    const next = handler();
    expect(await next.get(key, pageCtx)).toBeNull();

    // That render began after the revalidation: it is kept and served.
    await sleep(5);
    await next.set(key, rendered("1 sale", tag), { cacheControl: { revalidate: 300, expire: undefined } });
    const served = await handler().get(key, pageCtx);
    expect(served?.value?.html).toBe("<p>1 sale</p>");
  });

  it("keeps a page rendered with no revalidation during its render", async () => {
    const tag = `quiet-${Date.now()}`;
    const key = `/marketplace/quiet-${tag}`;
    const rendering = handler();
    expect(await rendering.get(key, pageCtx)).toBeNull();
    await sleep(5);
    await rendering.set(key, rendered("3 sales", tag), { cacheControl: { revalidate: 300, expire: undefined } });
    expect((await handler().get(key, pageCtx))?.value?.html).toBe("<p>3 sales</p>");
  });
});
