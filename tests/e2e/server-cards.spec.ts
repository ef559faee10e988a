// Server cards on the production build: a listing's page links its MCP Server Card, the card validates against
// SEP-2127's schema and names the same server as its /v0.1 entry, /.well-known/mcp lists it, and a page on another
// origin can read the card and the registry with a real browser's CORS (a preflight included).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { serverCardSchema } from "../support/server-card-schema";
import { siteOrigin } from "./support/deployment";

test("a listing's page links its server card, which validates and matches its registry entry", async ({
  page,
  request,
  isMobile,
}, testInfo) => {
  await page.goto("/marketplace/weather-now");
  const link = page.getByTestId("server-card-link");
  await expect(link).toBeVisible();
  await expect(link).toHaveText("MCP server card");
  await link.scrollIntoViewIfNeeded();
  await page.screenshot({
    path: testInfo.outputPath(`server-card-link-${isMobile ? "390" : "desktop"}.png`),
    fullPage: true,
  });
  // Only the page is the layout's check; the rest is protocol, read once.
  if (isMobile) return;

  const href = await link.getAttribute("href");
  expect(href).toBe("/servers/weather-now/server-card");
  await link.click();
  await expect(page).toHaveURL(`${siteOrigin}/servers/weather-now/server-card`);
  const shown = JSON.parse((await page.locator("body").innerText()).trim());
  serverCardSchema.assertCard(shown);

  const res = await request.get(href!, { headers: { accept: "application/mcp-server-card+json" } });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^application\/mcp-server-card\+json/);
  expect(res.headers()["access-control-allow-origin"]).toBe("*");
  const card = await res.json();
  serverCardSchema.assertCard(card);
  expect(card.name).toBe("dev.agora-mcp/weather-now");

  const entry = await (await request.get(`/v0.1/servers/${encodeURIComponent(card.name)}/versions/latest`)).json();
  expect(entry.server._meta["dev.agora-mcp/listing"].serverCardUrl).toBe(
    `${siteOrigin}/servers/weather-now/server-card`,
  );
  expect({ name: entry.server.name, version: entry.server.version, url: entry.server.remotes[0].url }).toEqual({
    name: card.name,
    version: card.version,
    url: card.remotes[0].url,
  });

  const catalog = await (await request.get("/.well-known/mcp")).json();
  expect(catalog.entries).toContainEqual(
    expect.objectContaining({
      url: `${siteOrigin}/servers/weather-now/server-card`,
      type: "application/mcp-server-card+json",
    }),
  );
  // Every card the catalogue lists validates.
  for (const listed of catalog.entries as { url: string }[])
    serverCardSchema.assertCard(await (await request.get(new URL(listed.url).pathname)).json());
});

test("a page on another origin reads the card, the registry and discovery, and their refusals, through CORS", async ({
  page,
  isMobile,
}) => {
  test.skip(isMobile, "protocol checks run on the desktop project");
  // A blank page of its own origin on loopback: the browser sends Origin and, for the If-None-Match header, a preflight.
  const other = http.createServer((_, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>elsewhere</title>"),
  );
  await new Promise<void>((r) => other.listen(0, "127.0.0.1", () => r()));
  try {
    await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
    const answers = await page.evaluate(async (site) => {
      const read = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${site}${path}`, {
          ...init,
          headers: { "if-none-match": '"nothing"', ...init.headers },
        });
        return { path, status: res.status, body: await res.json() };
      };
      return Promise.all([
        read("/servers/weather-now/server-card"),
        read("/.well-known/mcp"),
        read("/v0.1/servers?limit=1"),
        read("/discovery/resources?limit=1"),
        read("/discovery/resources?network=notanetwork"),
        read("/v0/publish"),
        read("/v0.1/nothing"),
      ]);
    }, siteOrigin);
    expect(answers.map((a) => [a.path, a.status])).toEqual([
      ["/servers/weather-now/server-card", 200],
      ["/.well-known/mcp", 200],
      ["/v0.1/servers?limit=1", 200],
      ["/discovery/resources?limit=1", 200],
      ["/discovery/resources?network=notanetwork", 400],
      ["/v0/publish", 404],
      ["/v0.1/nothing", 404],
    ]);
    expect(answers[4]!.body.error).toMatch(/names no network/);
    expect(answers[5]!.body).toMatchObject({ code: "not_found" });
  } finally {
    await new Promise<void>((r) => other.close(() => r()));
  }
});
