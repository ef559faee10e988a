// Every line a page shows for installing or reaching Agora names this deployment: its origin by default, the
// package names once a setting says they are on the npm registry; the contact address is a setting too.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reloadEnv } from "@/lib/env";
import { contactEmail, fillPlaceholders, packageSpec, registryUrl } from "@/lib/deployment";
import { clientConfig } from "@/lib/listings/presenters/connect-config";

const NAMES = ["SITE_URL", "PACKAGES_ON_REGISTRY", "CONTACT_EMAIL"] as const;
let saved: Record<string, string | undefined>;

function configure(values: Partial<Record<(typeof NAMES)[number], string>>) {
  for (const name of NAMES) {
    if (values[name] === undefined) delete process.env[name];
    else process.env[name] = values[name];
  }
  reloadEnv();
}

beforeEach(() => (saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]))));
afterEach(() => configure(saved));

describe("deployment lines", () => {
  it("installs from this site's tarballs and searches this site's registry", () => {
    configure({ SITE_URL: "https://agora.example/" });
    expect(packageSpec("client")).toBe("https://agora.example/downloads/agora-mcp-client.tgz");
    expect(packageSpec("server")).toBe("https://agora.example/downloads/agora-mcp-server.tgz");
    expect(registryUrl()).toBe("https://agora.example/api");
    expect(clientConfig().mcpServers.agora).toEqual({
      command: "npx",
      args: ["-y", "https://agora.example/downloads/agora-mcp-client.tgz"],
      env: {
        AGORA_REGISTRY_URL: "https://agora.example/api",
        ENABLE_REQUEST_ELICITATION: "true",
        ELICITATION_THRESHOLD: "0.01",
      },
    });
  });

  it("names the packages when PACKAGES_ON_REGISTRY says they are published", () => {
    configure({ SITE_URL: "https://agora.example", PACKAGES_ON_REGISTRY: "1" });
    expect(packageSpec("client")).toBe("@agora-mcp/client");
    expect(fillPlaceholders("npm install {SERVER_PACKAGE}")).toBe("npm install @agora-mcp/server");
    expect(registryUrl()).toBe("https://agora.example/api");
  });

  it("fills the guides' placeholders and leaves other braces alone", () => {
    configure({ SITE_URL: "http://127.0.0.1:4100" });
    expect(fillPlaceholders("curl '{SITE_URL}/v0.1/servers'\nnpx -y {CLIENT_PACKAGE}\n{ \"a\": {UNKNOWN} }")).toBe(
      "curl 'http://127.0.0.1:4100/v0.1/servers'\nnpx -y http://127.0.0.1:4100/downloads/agora-mcp-client.tgz\n{ \"a\": {UNKNOWN} }",
    );
  });

  it("gives the operator's contact address, the product's only when none is set", () => {
    configure({ CONTACT_EMAIL: "ops@agora.example" });
    expect(contactEmail()).toBe("ops@agora.example");
    configure({});
    expect(contactEmail()).toBe("hello@agora-mcp.dev");
    expect(() => configure({ CONTACT_EMAIL: "not-an-address" })).toThrow(/CONTACT_EMAIL: must be an email address/);
  });
});
