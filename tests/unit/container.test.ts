// The container files cannot be built or run on the machines this project is developed on (no container engine),
// so their shape is checked here: the services and healthchecks compose.yaml promises, no secret written into
// either file, and an image that starts exactly as CI starts the standalone server.
import fs from "node:fs";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { productionStart } from "../support/production-start";

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  deploy?: { replicas?: number };
  profiles?: string[];
  restart?: string;
  volumes?: string[];
};
type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown> };

const compose = load(fs.readFileSync("compose.yaml", "utf8")) as Compose;
const dockerfile = fs.readFileSync("Dockerfile", "utf8");
const start = productionStart();

/** The instructions of the Dockerfile's last stage (the image compose runs), continuation lines joined. */
function runtimeStage(): string[] {
  const lines = dockerfile
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((l) => l.trim());
  const from = lines.findLastIndex((l) => /^FROM\s/i.test(l));
  return lines.slice(from).filter((l) => l && !l.startsWith("#"));
}

const instruction = (name: string) => runtimeStage().filter((l) => l.toUpperCase().startsWith(`${name} `));

describe("compose.yaml", () => {
  const { services } = compose;

  it("runs PostgreSQL on a named volume, a one-shot migration, two web replicas, a proxy and the sandbox profile", () => {
    expect(Object.keys(services).sort()).toEqual(["db", "migrate", "proxy", "sandbox", "web"]);
    const dataVolume = services.db!.volumes!.find((v) => v.endsWith(":/var/lib/postgresql/data"))!.split(":")[0]!;
    expect(Object.keys(compose.volumes ?? {})).toContain(dataVolume);
    expect(services.web!.deploy?.replicas).toBe(2);
    expect(services.sandbox!.profiles).toEqual(["sandbox"]);
    for (const name of ["db", "migrate", "web", "proxy"]) expect(services[name]!.profiles, name).toBeUndefined();
  });

  it("migrates once before the replicas start, with the command CI runs", () => {
    expect(services.migrate!.command).toEqual(start.migrate);
    expect(services.migrate!.restart).toBe("no");
    expect(services.migrate!.image).toBe(services.web!.image);
    expect(services.web!.depends_on).toMatchObject({
      migrate: { condition: "service_completed_successfully" },
      db: { condition: "service_healthy" },
    });
    expect(services.migrate!.depends_on).toMatchObject({ db: { condition: "service_healthy" } });
  });

  it("checks the health of every long-running service, the replicas on /api/ready", () => {
    for (const name of ["db", "web", "proxy"])
      expect(services[name]!.healthcheck?.test?.length, name).toBeGreaterThan(0);
    expect(services.web!.healthcheck!.test!.join(" ")).toContain("/api/ready");
    expect(services.proxy!.depends_on).toMatchObject({ web: { condition: "service_healthy" } });
  });

  it("trusts exactly the one proxy in front of the replicas, which spreads requests over all of them", () => {
    expect(services.web!.environment!.TRUSTED_PROXY_HOPS).toBe("1");
    const caddyMount = services.proxy!.volumes!.find((v) => v.includes("/etc/caddy/Caddyfile"))!;
    const caddyfile = fs.readFileSync(caddyMount.split(":")[0]!, "utf8");
    expect(caddyfile).toMatch(/dynamic a web 3000/);
    expect(caddyfile).toMatch(/health_uri \/api\/ready/);
  });

  it("bakes in no secret: every secret is a required variable from the environment", () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        if (/SECRET|PASSWORD|TOKEN|_KEY$/.test(key)) expect(value, `${name}.${key}`).toMatch(/^\$\{[A-Z_]+:\?[^}]+\}$/);
        // A URL with credentials takes its password from the environment too.
        const credentials = /:\/\/[^:/@]+:([^@]+)@/.exec(value)?.[1];
        if (credentials) expect(credentials, `${name}.${key}`).toMatch(/^\$\{[A-Z_]+:\?[^}]+\}$/);
      }
    }
    expect(services.web!.environment!.AUTH_SECRET).toMatch(/^\$\{AUTH_SECRET:\?/);
  });
});

describe("Dockerfile", () => {
  it("runs the standalone server as an unprivileged user", () => {
    const users = instruction("USER");
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^USER\s+(root|0)(:|$)/i);
    expect(instruction("COPY").every((l) => l.includes(".next/standalone"))).toBe(true);
  });

  it("reports health from /api/ready", () => {
    expect(instruction("HEALTHCHECK").join(" ")).toContain("/api/ready");
  });

  it("starts exactly as CI starts the standalone server (npm run start:prod)", () => {
    const cmd = instruction("CMD");
    expect(cmd).toHaveLength(1);
    // The heap cap is a shell default in start:prod (NODE_HEAP_MB) and the young generation's size a fixed flag
    // beside it; the image sets the same two in NODE_OPTIONS.
    const heapFlag = /^--max-old-space-size=\$\{NODE_HEAP_MB:-(\d+)\}$/;
    const semiSpaceFlag = /^--max-semi-space-size=\d+$/;
    const defaultHeapMb = start.serveAsWritten.map((word) => heapFlag.exec(word)?.[1]).find(Boolean);
    const semiSpace = start.serveAsWritten.find((word) => semiSpaceFlag.test(word));
    expect(defaultHeapMb, "start:prod caps the heap").toBeDefined();
    expect(semiSpace, "start:prod sizes the young generation").toBeDefined();
    expect(JSON.parse(cmd[0]!.slice(4))).toEqual(
      start.serveAsWritten.filter((word) => !heapFlag.test(word) && !semiSpaceFlag.test(word)),
    );
    expect(instruction("ENV").join(" ")).toContain(`NODE_OPTIONS="--max-old-space-size=${defaultHeapMb} ${semiSpace}"`);
    expect(instruction("WORKDIR").at(-1)).toBe("WORKDIR /app");
  });

  it("takes no secret as a build argument or baked-in variable", () => {
    for (const line of dockerfile.split("\n").filter((l) => /^(ARG|ENV)\s/i.test(l.trim()))) {
      expect(line).not.toMatch(/SECRET|PASSWORD|TOKEN|DATABASE_URL/);
    }
  });
});
