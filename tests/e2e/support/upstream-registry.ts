// The end-to-end run's upstream: a local MCP Registry (tests/support/fixture-registry.ts) serving two real
// server.json documents whose remotes are the run's reference server (under query strings of their own, so they
// are new servers to Agora): one paid and active, one paid and deprecated upstream. Nothing is ingested until
// an admin presses "Run now" on /admin/sources (the run's schedule is off).
import { fixture, startFixtureRegistry } from "../../support/fixture-registry";
import { referencePort, upstreamRegistryPort } from "./ports";

const reference = (tag: string) => `http://127.0.0.1:${referencePort}/mcp?upstream=${tag}`;
const warppay = {
  ...fixture("io.github.golfgolfgolf200.warppay402-server.json"),
  transports: undefined,
  remotes: [{ type: "streamable-http", url: reference("warppay") }],
};
const decisionrules = {
  ...fixture("io.decisionrules.mcp-server.json"),
  remotes: [{ type: "streamable-http", url: reference("decisionrules") }],
};
const registry = await startFixtureRegistry(
  [
    { server: warppay, updatedAt: "2026-01-07T00:00:00Z" },
    { server: decisionrules, updatedAt: "2026-01-08T00:00:00Z", status: "deprecated" },
  ],
  100,
  upstreamRegistryPort,
);
console.log(`upstream registry on ${registry.url}`);
