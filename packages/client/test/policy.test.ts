// The spending policy file: a bad rule stops the client before it starts, naming the rule; each rule refuses what
// it should with its limit and what is left; budgets follow UTC calendar windows; the reservation under the ledger's
// lock holds a budget when processes race.
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkPolicy,
  Ledger,
  LimitConflict,
  loadSettings,
  PolicyError,
  windowStart,
  type LedgerEntry,
  type PolicyRequest,
} from "@agora-mcp/client";

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, "../dist/bin.js");
const PAYEE = "0x1111111111111111111111111111111111111111";
const OTHER = "0x2222222222222222222222222222222222222222";
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function withPolicy(rules: unknown, env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-policy-"));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, "policy.json"), typeof rules === "string" ? rules : JSON.stringify(rules));
  return { dir, env: { AGORA_WALLET_FILE: path.join(dir, "wallet.json"), ...env } };
}

const load = (rules: unknown, env?: Record<string, string>) => loadSettings(withPolicy(rules, env).env);

describe("a bad policy file", () => {
  const cases: [string, unknown, string, RegExp][] = [
    [
      "an unknown key",
      { budgets: { day: "1" }, maxPerPurchas: "0.10" },
      "maxPerPurchas",
      /is not a rule this client knows/,
    ],
    ["an unknown budget", { budgets: { fortnight: "1" } }, "budgets.fortnight", /is not a rule/],
    ["a negative limit", { budgets: { week: "-5" } }, "budgets.week", /cannot be negative/],
    ["a non-numeric limit", { perServerPerDay: "lots" }, "perServerPerDay", /must be an amount in US dollars/],
    ["a limit of the wrong type", { maxPerPurchase: true }, "maxPerPurchase", /must be an amount in US dollars/],
    ["a fractional count", { purchasesPerMinute: 2.5 }, "purchasesPerMinute", /whole number/],
    [
      "a payee on both lists",
      { payees: { allow: [PAYEE], deny: [PAYEE.toUpperCase().replace("0X", "0x")] } },
      "payees.deny",
      /is on both payees\.allow and payees\.deny/,
    ],
    ["a malformed address", { payees: { deny: ["0x1234"] } }, "payees.deny.0", /must be a wallet address/],
  ];
  for (const [what, rules, rule, message] of cases) {
    it(`refuses ${what}, naming ${rule}`, () => {
      let caught: unknown;
      try {
        load(rules);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(PolicyError);
      expect((caught as PolicyError).rule).toBe(rule);
      expect((caught as PolicyError).message).toMatch(message);
      expect((caught as PolicyError).message).toContain(`rule ${rule}:`);
    });
  }

  it("refuses a file that is not JSON, and a named file that does not exist", () => {
    expect(() => load("{ budgets: ")).toThrow(/policy\.json: rule \(file\): is not valid JSON at line 1, column 3 \(/);
    expect(() => loadSettings({ AGORA_POLICY_FILE: "/nowhere/policy.json" })).toThrow(
      /does not exist \(AGORA_POLICY_FILE names it\)/,
    );
    expect(() => loadSettings({ AGORA_POLICY_FILE: "policy.json" })).toThrow(
      /^AGORA_POLICY_FILE: must be an absolute path/,
    );
  });

  it("a budget in the file smaller than the maximum set by a variable names both", () => {
    const { dir, env } = withPolicy(
      { budgets: { day: "0.20" } },
      { AGORA_MAX_PER_PURCHASE: "0.30", AGORA_DAILY_CAP: "5" },
    );
    expect(() => loadSettings(env)).toThrow(LimitConflict);
    expect(() => loadSettings(env)).toThrow(
      `budgets.day in ${path.join(dir, "policy.json")} ($0.20) is less than AGORA_MAX_PER_PURCHASE ($0.30)`,
    );
  });

  it("stops the client before it starts, naming the rule, and creates no wallet", () => {
    const { dir, env } = withPolicy({ budgets: { month: "abc" } });
    const child = spawnSync(process.execPath, [BIN], {
      env: { ...process.env, ...env },
      input: "",
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(child.status).toBe(1);
    expect(child.stderr).toContain(
      `Bad spending policy ${path.join(dir, "policy.json")}: rule budgets.month: must be an amount in US dollars`,
    );
    expect(fs.existsSync(path.join(dir, "wallet.json"))).toBe(false);
  });
});

describe("a policy file the client cannot trust", () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadSettings(env);
    } catch (error) {
      return error as PolicyError;
    }
    throw new Error("the policy was accepted");
  };

  it("refuses a device such as /dev/zero at once, without reading it", () => {
    const started = Date.now();
    const error = refusal({ AGORA_POLICY_FILE: "/dev/zero" });
    expect(error.message).toBe("/dev/zero: rule (file): is a device, not a regular file: it must be a plain JSON file");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("refuses a FIFO at once instead of waiting for a writer", { timeout: 10_000 }, () => {
    const { dir, env } = withPolicy({});
    const fifo = path.join(dir, "pipe.json");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    expect(refusal({ ...env, AGORA_POLICY_FILE: fifo }).message).toBe(
      `${fifo}: rule (file): is a FIFO (named pipe), not a regular file: it must be a plain JSON file`,
    );
  });

  it("refuses a file over 64 KiB", () => {
    const { env } = withPolicy(`{"purchasesPerMinute": 3${" ".repeat(64 * 1024)}}`);
    expect(refusal(env).message).toMatch(
      /policy\.json: rule \(file\): is 65\d{3} bytes, more than the 64 KiB allowed: check the path$/,
    );
  });

  it("refuses a file others can write, or one in a folder others can write, saying how to fix it", () => {
    const loose = withPolicy({ maxPerPurchase: "0.10" });
    const file = path.join(loose.dir, "policy.json");
    fs.chmodSync(file, 0o666);
    expect(refusal(loose.env).message).toBe(
      `${file}: rule (file): is not yours alone: anyone on this machine can write it (mode 0666), so someone else could change it; make it yours alone (chmod go-w ${file}), or remove it`,
    );
    fs.chmodSync(file, 0o644);
    fs.chmodSync(loose.dir, 0o1777);
    expect(refusal(loose.env).message).toMatch(
      new RegExp(
        `rule \\(file\\): is in the folder ${loose.dir}, and anyone on this machine can write it \\(mode 01777\\), so someone else could put their own file there: make the folder yours alone \\(chmod go-w ${loose.dir}\\)`,
      ),
    );
    fs.chmodSync(loose.dir, 0o700);
    expect(loadSettings(loose.env).maxPerPurchaseUnits).toBe(100_000n);
  });

  it.runIf(process.getuid?.() === 0)(
    "refuses a file another user owns, or a group other than the person's own can write",
    () => {
      const { dir, env } = withPolicy({ maxPerPurchase: "0.10" });
      const file = path.join(dir, "policy.json");
      fs.chownSync(file, 4242, 0);
      expect(refusal(env).message).toContain(
        "is not yours alone: another user (uid 4242) owns it, so someone else could change it; write your own copy in its place, or remove it",
      );
      fs.chownSync(file, 0, 4242);
      fs.chmodSync(file, 0o664);
      expect(refusal(env).message).toContain("is not yours alone: the members of group 4242 can write it (mode 0664)");
      fs.chownSync(file, 0, process.getgid!());
      expect(loadSettings(env).maxPerPurchaseUnits).toBe(100_000n);
    },
  );
});

describe("a policy file that raises a built-in limit", () => {
  const cases: [string, unknown, string, string, string][] = [
    [
      "the daily cap",
      { budgets: { day: "5000" } },
      "budgets.day",
      "$5000.00 is above the built-in limit of $1.00",
      "AGORA_DAILY_CAP",
    ],
    [
      "the maximum per purchase",
      { maxPerPurchase: "5000" },
      "maxPerPurchase",
      "$5000.00 is above the built-in limit of $0.50",
      "AGORA_MAX_PER_PURCHASE",
    ],
    [
      "the confirmation threshold",
      { confirmationThreshold: "5000" },
      "confirmationThreshold",
      "$5000.00 is above the built-in limit of $0.01",
      "ELICITATION_THRESHOLD",
    ],
  ];
  for (const [what, rules, rule, said, variable] of cases) {
    it(`refuses a raise of ${what} without the person's opt-in, saying how to opt in`, () => {
      const { dir, env } = withPolicy(rules);
      expect(() => loadSettings(env)).toThrow(
        `${path.join(dir, "policy.json")}: rule ${rule}: ${said}; a policy file may lower this limit but not raise it on its own. To raise it, set ${variable} (or AGORA_POLICY_ALLOW_RAISE=true, to let this file's value stand) in the env of your MCP host's config for this client`,
      );
    });
  }

  it("lets the file's raise stand with AGORA_POLICY_ALLOW_RAISE=true", () => {
    const s = load(
      { budgets: { day: "5000" }, maxPerPurchase: "5000", confirmationThreshold: "5000" },
      { AGORA_POLICY_ALLOW_RAISE: "true" },
    );
    expect(s.dailyCapUnits).toBe(5_000_000_000n);
    expect(s.maxPerPurchaseUnits).toBe(5_000_000_000n);
    expect(s.thresholdUnits).toBe(5_000_000_000n);
    expect(s.policy!.budgets.day).toMatchObject({ source: expect.stringMatching(/policy\.json$/) });
  });

  it("holds a variable the person set as the ceiling, opt-in or not: the file only lowers it", () => {
    expect(load({ budgets: { day: "5000" } }, { AGORA_DAILY_CAP: "2" }).dailyCapUnits).toBe(2_000_000n);
    expect(
      load({ budgets: { day: "5000" } }, { AGORA_DAILY_CAP: "2", AGORA_POLICY_ALLOW_RAISE: "true" }).dailyCapUnits,
    ).toBe(2_000_000n);
    expect(load({ budgets: { day: "1.50" } }, { AGORA_DAILY_CAP: "2" }).dailyCapUnits).toBe(1_500_000n);
    expect(() => load({}, { AGORA_POLICY_ALLOW_RAISE: "yes" })).toThrow(
      /^AGORA_POLICY_ALLOW_RAISE: must be "true" or "false"/,
    );
  });
});

describe("a good policy file", () => {
  it("keeps the variables for the simple cases; a rule set in both places holds at the lower value", () => {
    const s = load(
      { budgets: { day: "3", week: "10" }, maxPerPurchase: "0.40", confirmationThreshold: "0.05" },
      { AGORA_DAILY_CAP: "2", ELICITATION_THRESHOLD: "0.10" },
    );
    expect(s.dailyCapUnits).toBe(2_000_000n); // the variable's 2 under the file's 3
    expect(s.policy!.budgets.day).toMatchObject({ value: 2_000_000n, source: "AGORA_DAILY_CAP" });
    expect(s.policy!.budgets.week).toMatchObject({ value: 10_000_000n, rule: "budgets.week" });
    expect(s.maxPerPurchaseUnits).toBe(400_000n); // the file's, over the default
    expect(s.thresholdUnits).toBe(50_000n); // the file's 0.05 under the variable's 0.10
  });

  it("reads the file beside the wallet by default, and none at all is the variables alone", () => {
    const s = load({ purchasesPerMinute: 3 });
    expect(s.policy!.file).toBe(path.join(path.dirname(s.walletFile), "policy.json"));
    expect(s.policy!.purchasesPerMinute?.value).toBe(3);
    const bare = loadSettings({ AGORA_WALLET_FILE: path.join(os.tmpdir(), "no-such-agora-dir", "wallet.json") });
    expect(bare.policy!.file).toBeUndefined();
    expect(bare.policy!.budgets.day).toMatchObject({ value: 1_000_000n, source: "default" });
  });
});

const NOW = new Date("2026-11-25T10:30:00Z"); // a Wednesday
const request: PolicyRequest = {
  server: "Weather",
  serverUrl: "http://127.0.0.1:1/mcp",
  names: ["weather", "Weather", "127.0.0.1:1"],
  item: "weather-now",
  params: "p1",
  units: 100_000n,
  payTo: PAYEE,
};
const line = (time: string, units: bigint, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id: `att_${time}${units}${extra.item ?? ""}`,
  time,
  server: "Weather",
  serverUrl: request.serverUrl,
  item: "weather-now",
  units: units.toString(),
  status: "paid",
  params: "p1",
  ...extra,
});

describe("the rules", () => {
  it("counts budgets in UTC calendar windows: the hour, the day, the week from Monday and the month", () => {
    expect(windowStart("hour", NOW).toISOString()).toBe("2026-11-25T10:00:00.000Z");
    expect(windowStart("day", NOW).toISOString()).toBe("2026-11-25T00:00:00.000Z");
    expect(windowStart("week", NOW).toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(windowStart("week", new Date("2026-11-29T23:59:59Z")).toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(windowStart("month", NOW).toISOString()).toBe("2026-11-01T00:00:00.000Z");
    const policy = load({ budgets: { week: "0.50" }, maxPerPurchase: "0.20" }).policy!;
    const history = [
      line("2026-11-22T23:59:59Z", 400_000n),
      line("2026-11-23T00:00:00Z", 350_000n),
      line("2026-11-24T08:00:00Z", 50_000n, { status: "refused" }),
    ];
    const verdict = checkPolicy(policy, history, { ...request, units: 150_001n }, NOW);
    expect(verdict).toMatchObject({ ok: false, refusal: { rule: "budgets.week" } });
    if (!verdict.ok)
      expect(verdict.refusal.message).toMatch(
        /rule budgets\.week \(policy file .*\): "weather-now" costs \$0\.150001, but the budget of \$0\.50 a week \(UTC, from Monday\) has \$0\.15 left \(\$0\.35 spent\)\.$/,
      );
    expect(checkPolicy(policy, history, { ...request, units: 150_000n }, NOW).ok).toBe(true);
  });

  it("holds per-server and per-tool daily limits, each only for its own server or item", () => {
    const policy = load({ perServerPerDay: "0.40", perToolPerDay: "0.20", maxPerPurchase: "0.10" }).policy!;
    const history = [
      line("2026-11-25T01:00:00Z", 100_000n),
      line("2026-11-25T02:00:00Z", 100_000n),
      line("2026-11-25T03:00:00Z", 100_000n, { item: "forecast" }),
      line("2026-11-24T23:00:00Z", 100_000n, { item: "forecast" }),
    ];
    const verdict = checkPolicy(policy, history, request, NOW);
    expect(verdict).toMatchObject({ ok: false, refusal: { rule: "perToolPerDay" } });
    if (!verdict.ok)
      expect(verdict.refusal.message).toContain(
        'the budget of $0.20 a day on "weather-now" has $0.00 left ($0.20 spent)',
      );
    expect(checkPolicy(policy, history, { ...request, item: "forecast" }, NOW).ok).toBe(true);
    const more = [...history, line("2026-11-25T04:00:00Z", 100_000n, { item: "maps" })];
    expect(checkPolicy(policy, more, { ...request, item: "forecast" }, NOW)).toMatchObject({
      ok: false,
      refusal: { rule: "perServerPerDay" },
    });
    expect(checkPolicy(policy, more, { ...request, serverUrl: "http://127.0.0.1:2/mcp" }, NOW).ok).toBe(true);
  });

  it("limits purchases a minute and identical purchases an hour", () => {
    const policy = load({ purchasesPerMinute: 2, identicalPerHour: 2 }).policy!;
    const recent = [
      line("2026-11-25T10:29:10Z", 1n, { params: "other" }),
      line("2026-11-25T10:29:40Z", 1n, { status: "refused", params: "other" }),
    ];
    const verdict = checkPolicy(policy, recent, request, NOW);
    expect(verdict).toMatchObject({ ok: false, refusal: { rule: "purchasesPerMinute" } });
    if (!verdict.ok)
      expect(verdict.refusal.message).toMatch(/at most 2 purchase\(s\) a minute; 2 in the last minute, 0 left/);
    const declinedOnly = recent.map((a) => ({ ...a, status: "declined" as const }));
    expect(checkPolicy(policy, declinedOnly, request, NOW).ok).toBe(true);
    const same = [line("2026-11-25T09:40:00Z", 1n), line("2026-11-25T10:00:00Z", 1n)];
    expect(checkPolicy(policy, same, request, NOW)).toMatchObject({ ok: false, refusal: { rule: "identicalPerHour" } });
    expect(checkPolicy(policy, same, { ...request, params: "p2" }, NOW).ok).toBe(true);
    expect(checkPolicy(policy, [line("2026-11-25T09:29:00Z", 1n), ...same.slice(1)], request, NOW).ok).toBe(true);
  });

  it("refuses servers and payees by the lists, whatever the case of an address", () => {
    const allowOnly = load({
      servers: { allow: ["weather"] },
      payees: { allow: [PAYEE.toUpperCase().replace("0X", "0x")] },
    }).policy!;
    expect(checkPolicy(allowOnly, [], request, NOW).ok).toBe(true);
    expect(checkPolicy(allowOnly, [], { ...request, names: ["news"] }, NOW)).toMatchObject({
      ok: false,
      refusal: { rule: "servers.allow" },
    });
    expect(checkPolicy(allowOnly, [], { ...request, payTo: OTHER }, NOW)).toMatchObject({
      ok: false,
      refusal: { rule: "payees.allow" },
    });
    const deny = load({ servers: { deny: ["127.0.0.1:1"] } }).policy!;
    expect(checkPolicy(deny, [], request, NOW)).toMatchObject({
      ok: false,
      refusal: { rule: "servers.deny", message: expect.stringContaining("Weather is on the deny-list") },
    });
  });
});

describe("the delivery rule", () => {
  it("refuses a server below the least delivery rate, or with no evidence, naming the figures", () => {
    const policy = load({ minDeliveryRate: 0.9 }).policy!;
    const delivering = { ...request, delivery: { delivered: 19, failedUncharged: 1, failedCharged: 0 } };
    expect(checkPolicy(policy, [], delivering, NOW).ok).toBe(true);
    const poor = checkPolicy(
      policy,
      [],
      { ...request, delivery: { delivered: 7, failedUncharged: 1, failedCharged: 2 } },
      NOW,
    );
    expect(poor).toMatchObject({ ok: false, refusal: { rule: "minDeliveryRate" } });
    if (!poor.ok)
      expect(poor.refusal.message).toMatch(
        /rule minDeliveryRate \(policy file .*\): Weather delivered 7 of 10 purchases in 30 days \(70%; the registry's test purchases and buyers' signed receipts\), below the 90% required\.$/,
      );
    for (const none of [null, { delivered: 0, failedUncharged: 0, failedCharged: 0 }]) {
      const verdict = checkPolicy(policy, [], { ...request, delivery: none }, NOW);
      expect(verdict).toMatchObject({
        ok: false,
        refusal: {
          rule: "minDeliveryRate",
          message: expect.stringContaining("the registry has no evidence that Weather delivers"),
        },
      });
    }
    // Without the rule, evidence decides nothing.
    expect(checkPolicy(load({}).policy!, [], { ...request, delivery: null }, NOW).ok).toBe(true);
  });

  it("refuses a rate outside 0 to 1, naming the rule", () => {
    expect(() => load({ minDeliveryRate: 90 })).toThrow(/rule minDeliveryRate: must be from 0 to 1/);
  });
});

describe("the lists compare hosts and payees however they are written", () => {
  /** The purchase as resolveServer names a server at `url`: the URL and its host (with the port). */
  const at = (url: string): PolicyRequest => ({
    ...request,
    server: url,
    serverUrl: url,
    names: [url, new URL(url).host],
  });
  const refusedBy = (rules: unknown, req: PolicyRequest) => {
    const verdict = checkPolicy(load(rules).policy!, [], req, NOW);
    return verdict.ok ? undefined : verdict.refusal.rule;
  };

  it("keeps a denied host out with a trailing dot, in capitals, on another port or as its IDN", () => {
    const deny = { servers: { deny: ["evil.example"] } };
    expect(refusedBy(deny, at("https://evil.example./mcp"))).toBe("servers.deny");
    expect(refusedBy(deny, at("https://EVIL.example/mcp"))).toBe("servers.deny");
    expect(refusedBy(deny, at("https://evil.example:8443/mcp"))).toBe("servers.deny");
    expect(refusedBy(deny, at("https://Evil.Example.:8443/mcp"))).toBe("servers.deny");
    expect(refusedBy({ servers: { deny: ["evil.example."] } }, at("https://evil.example/mcp"))).toBe("servers.deny");
    expect(refusedBy({ servers: { deny: ["EVIL.example:443"] } }, at("https://evil.example:8443/mcp"))).toBe(
      "servers.deny",
    );
    expect(refusedBy({ servers: { deny: ["bücher.example"] } }, at("https://xn--bcher-kva.example/mcp"))).toBe(
      "servers.deny",
    );
    expect(refusedBy(deny, at("https://notevil.example/mcp"))).toBeUndefined();
    expect(refusedBy(deny, at("https://evil.example.com/mcp"))).toBeUndefined();
  });

  it("lets an allowed host in however the server's URL writes it, and matches a URL entry to its endpoint", () => {
    expect(refusedBy({ servers: { allow: ["evil.example"] } }, at("https://EVIL.example.:8443/mcp"))).toBeUndefined();
    expect(
      refusedBy({ servers: { allow: ["https://Evil.Example./mcp/"] } }, at("https://evil.example:443/mcp")),
    ).toBeUndefined();
    expect(refusedBy({ servers: { allow: ["https://evil.example/mcp"] } }, at("https://evil.example/other"))).toBe(
      "servers.allow",
    );
  });

  it("keeps a denied payee out whatever the case of its address", () => {
    const payee = "0x000000000000000000000000000000000000dEaD";
    expect(refusedBy({ payees: { deny: [payee.toLowerCase()] } }, { ...request, payTo: payee })).toBe("payees.deny");
    expect(refusedBy({ payees: { deny: [payee] } }, { ...request, payTo: payee.toLowerCase() })).toBe("payees.deny");
    expect(
      refusedBy({ payees: { deny: [payee.toUpperCase().replace("0X", "0x")] } }, { ...request, payTo: payee }),
    ).toBe("payees.deny");
  });

  it("refuses a host on both lists however each side writes it", () => {
    expect(() => load({ servers: { allow: ["evil.example"], deny: ["EVIL.example.:8443"] } })).toThrow(
      /rule servers\.deny: EVIL\.example\.:8443 is on both servers\.allow and servers\.deny/,
    );
  });
});

describe("the reservation under the ledger's lock", () => {
  it("lets exactly the budget through when four processes race on one ledger", async () => {
    const { dir, env } = withPolicy({ budgets: { hour: "0.50" }, maxPerPurchase: "0.10" });
    const file = path.join(dir, "ledger.jsonl");
    // Each process loads the policy as the client does and reserves three $0.10 purchases at once.
    const script = `
      const client = await import(${JSON.stringify(path.resolve(import.meta.dirname, "../dist/index.js"))});
      const { policy } = client.loadSettings(${JSON.stringify(env)});
      const l = new client.Ledger(${JSON.stringify(file)});
      const request = ${JSON.stringify({ ...request, units: "100000" })};
      request.units = 100000n;
      const check = (attempts, now) => { const v = client.checkPolicy(policy, attempts, request, now); return v.ok ? undefined : v.refusal; };
      const entry = { server: "Weather", serverUrl: request.serverUrl, item: "weather-now", units: "100000" };
      const r = await Promise.allSettled([1, 2, 3].map(() => l.reserveChecked(entry, check)));
      console.log(JSON.stringify(r.map((x) => x.status === "fulfilled" ? "ok" : x.reason.rule)));`;
    const outputs = await Promise.all(
      [1, 2, 3, 4].map(() => run(process.execPath, ["--input-type=module", "-e", script])),
    );
    const results = outputs.flatMap((o) => JSON.parse(o.stdout) as string[]);
    // Unless an hour turned over mid-race, five pass and seven are refused by the hour's budget.
    if (new Set(new Ledger(file).lines().map((l) => l.time.slice(0, 13))).size === 1) {
      expect(results.filter((r) => r === "ok")).toHaveLength(5);
      expect(results.filter((r) => r === "budgets.hour")).toHaveLength(7);
      expect(new Ledger(file).spentToday()).toBe(500_000n);
    }
  });
});
