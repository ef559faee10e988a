// A small stand-in for GitHub's OAuth app flow and REST API on loopback, strict where GitHub is:
// registered client and redirect URI, single-use codes that expire, PKCE S256 when a challenge was sent,
// bearer-authenticated /user and /user/emails, and organisation memberships (/user/memberships/orgs, scope read:org). The authorize page is a real form, so a browser can approve
// as any login, or cancel. Logins starting with "fail-exchange" get a code the token endpoint refuses.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeGitHubUser = {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  emailVerified: boolean;
};

type Grant = {
  user: FakeGitHubUser;
  scope: string;
  redirectUri: string | null;
  challenge: string | null;
  expires: number;
  failExchange: boolean;
};

export type FakeGitHub = {
  url: string;
  /** What the token endpoint saw, for assertions about PKCE. */
  exchanges: { code: string; verifierOk: boolean | null }[];
  /** Issues a code directly, as if the person had approved (for programs that exchange codes). */
  issueCode: (
    login: string,
    options?: { email?: string | null; emailVerified?: boolean; challenge?: string; scope?: string },
  ) => string;
  /** Makes `login` a member (role "member") or an owner (role "admin") of organisation `org`; null removes them. */
  setOrgRole: (org: string, login: string, role: "admin" | "member" | null) => void;
  close: () => Promise<void>;
};

const users = new Map<string, FakeGitHubUser>();
/** org → (lower-cased login → role), as GET /user/memberships/orgs reports it. */
const orgRoles = new Map<string, Map<string, "admin" | "member">>();

function setOrgRole(org: string, login: string, role: "admin" | "member" | null) {
  const members = orgRoles.get(org) ?? new Map<string, "admin" | "member">();
  if (role) members.set(login.toLowerCase(), role);
  else members.delete(login.toLowerCase());
  orgRoles.set(org, members);
}

function membershipsOf(login: string) {
  return [...orgRoles].flatMap(([org, members]) => {
    const role = members.get(login.toLowerCase());
    return role
      ? [{ state: "active", role, organization: { login: org, id: fakeGitHubId(org) }, user: { login } }]
      : [];
  });
}

/** The numeric id the fake gives a login (stable across runs, so configuration can name it: ADMIN_GITHUB_IDS). */
export function fakeGitHubId(login: string): number {
  return parseInt(createHash("sha256").update(login.toLowerCase()).digest("hex").slice(0, 8), 16);
}

function userFor(login: string, email?: string | null, emailVerified = true): FakeGitHubUser {
  let user = users.get(login.toLowerCase());
  if (!user) {
    // A stable id per login, like GitHub's numeric user ids.
    const id = fakeGitHubId(login);
    user = {
      id,
      login,
      name: login.replace(/[-_]/g, " "),
      email: email === undefined ? `${login.toLowerCase()}@users.example.com` : email,
      emailVerified,
    };
    users.set(login.toLowerCase(), user);
  }
  return user;
}

const page = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Fake GitHub</title><meta name="viewport" content="width=device-width"></head>` +
  `<body style="font-family:sans-serif;max-width:420px;margin:40px auto;padding:0 16px">${body}</body></html>`;
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startFakeGitHub(options: {
  clientId: string;
  clientSecret: string;
  allowedRedirectOrigin?: string;
  /** Refuse browser authorizations without an S256 code_challenge (Auth.js always sends one). */
  requirePkce?: boolean;
  port?: number;
}): Promise<FakeGitHub> {
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, { user: FakeGitHubUser; scope: string }>();
  const exchanges: FakeGitHub["exchanges"] = [];

  function issue(
    user: FakeGitHubUser,
    redirectUri: string | null,
    challenge: string | null,
    scope: string,
    failExchange = false,
  ): string {
    const code = randomBytes(10).toString("hex");
    grants.set(code, { user, scope, redirectUri, challenge, expires: Date.now() + 10 * 60_000, failExchange });
    return code;
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(body));
    };
    const html = (status: number, body: string) => {
      res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
      res.end(page(body));
    };
    const readBody = async () => {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      return (req.headers["content-type"] ?? "").includes("json")
        ? new URLSearchParams(JSON.parse(raw || "{}"))
        : new URLSearchParams(raw);
    };

    // The consent page GitHub shows; its form submits to /decide.
    if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
      const q = url.searchParams;
      if (q.get("client_id") !== options.clientId) return html(400, "<h1>Unknown client_id</h1>");
      const redirect = q.get("redirect_uri");
      if (redirect && options.allowedRedirectOrigin && new URL(redirect).origin !== options.allowedRedirectOrigin) {
        return html(400, "<h1>The redirect_uri MUST match the registered callback URL for this application.</h1>");
      }
      if ((q.get("code_challenge") || options.requirePkce) && q.get("code_challenge_method") !== "S256")
        return html(400, "<h1>PKCE with S256 is required</h1>");
      const hidden = ["redirect_uri", "state", "code_challenge", "scope"]
        .map((k) => `<input type="hidden" name="${k}" value="${escape(q.get(k) ?? "")}">`)
        .join("");
      return html(
        200,
        `<h1>Authorize Agora</h1><p>Scope requested: <code id="scope">${escape(q.get("scope") ?? "")}</code></p>` +
          `<form method="post" action="/login/oauth/authorize/decide">${hidden}` +
          `<label>GitHub login <input name="login" value="octo-tester" required></label>` +
          `<p><button name="decision" value="approve">Authorize</button> <button name="decision" value="cancel">Cancel</button></p></form>`,
      );
    }

    if (req.method === "POST" && url.pathname === "/login/oauth/authorize/decide") {
      const form = await readBody();
      const back = new URL(form.get("redirect_uri")!);
      if (form.get("state")) back.searchParams.set("state", form.get("state")!);
      if (form.get("decision") !== "approve") {
        back.searchParams.set("error", "access_denied");
        back.searchParams.set("error_description", "The user has denied your application access.");
      } else {
        const login = form.get("login") || "octo-tester";
        back.searchParams.set(
          "code",
          issue(
            userFor(login),
            form.get("redirect_uri"),
            form.get("code_challenge") || null,
            form.get("scope") ?? "",
            login.startsWith("fail-exchange"),
          ),
        );
      }
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }

    if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
      const body = await readBody();
      const basic = req.headers.authorization?.startsWith("Basic ")
        ? Buffer.from(req.headers.authorization.slice(6), "base64").toString().split(":").map(decodeURIComponent)
        : null;
      const [clientId, clientSecret] = basic ?? [body.get("client_id"), body.get("client_secret")];
      if (clientId !== options.clientId || clientSecret !== options.clientSecret) {
        return json(200, {
          error: "incorrect_client_credentials",
          error_description: "The client_id and/or client_secret passed are incorrect.",
        });
      }
      const code = body.get("code") ?? "";
      const grant = grants.get(code);
      grants.delete(code);
      const bad = { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." };
      if (!grant || grant.expires < Date.now() || grant.failExchange) return json(200, bad);
      if (grant.redirectUri && body.get("redirect_uri") && body.get("redirect_uri") !== grant.redirectUri) {
        return json(200, {
          error: "redirect_uri_mismatch",
          error_description: "The redirect_uri MUST match the registered callback URL for this application.",
        });
      }
      let verifierOk: boolean | null = null;
      if (grant.challenge) {
        const verifier = body.get("code_verifier") ?? "";
        verifierOk = createHash("sha256").update(verifier).digest("base64url") === grant.challenge;
      }
      exchanges.push({ code, verifierOk });
      if (verifierOk === false)
        return json(200, {
          error: "invalid_grant",
          error_description: "The code_verifier does not match the code_challenge.",
        });
      const accessToken = `gho_${randomBytes(18).toString("hex")}`;
      tokens.set(accessToken, { user: grant.user, scope: grant.scope });
      return json(200, {
        access_token: accessToken,
        token_type: "bearer",
        scope: grant.scope
          .split(/[\s,]+/)
          .filter(Boolean)
          .join(","),
      });
    }

    const held = tokens.get(req.headers.authorization?.replace(/^(Bearer|token) /, "") ?? "");
    const user = held?.user;
    // The authenticated user's organisation memberships with their role; GitHub refuses a token without read:org.
    if (req.method === "GET" && url.pathname === "/user/memberships/orgs") {
      if (!held) return json(401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
      if (!held.scope.split(/[\s,]+/).includes("read:org"))
        return json(403, {
          message: "You need at least read:org scope or user scope to list your organization memberships.",
        });
      const perPage = Math.min(100, Number(url.searchParams.get("per_page") ?? 30) || 30);
      const page = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
      const all = membershipsOf(held.user.login).filter(
        (m) => !url.searchParams.get("state") || m.state === url.searchParams.get("state"),
      );
      return json(200, all.slice((page - 1) * perPage, page * perPage));
    }
    // Test control (the end-to-end run's fake is another process): set an organisation role.
    if (req.method === "POST" && url.pathname === "/_fake/org-role") {
      const form = await readBody();
      const role = form.get("role");
      setOrgRole(form.get("org") ?? "", form.get("login") ?? "", role === "admin" || role === "member" ? role : null);
      return json(200, { ok: true });
    }
    if (req.method === "GET" && (url.pathname === "/user" || url.pathname === "/user/emails")) {
      if (!user) return json(401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
      if (url.pathname === "/user") {
        return json(200, {
          id: user.id,
          login: user.login,
          name: user.name,
          email: null,
          avatar_url: `https://avatars.example.com/u/${user.id}`,
        });
      }
      return json(
        200,
        user.email ? [{ email: user.email, primary: true, verified: user.emailVerified, visibility: "private" }] : [],
      );
    }

    json(404, { message: "Not Found" });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    issueCode: (login, o = {}) =>
      issue(
        userFor(login, o.email, o.emailVerified ?? true),
        null,
        o.challenge ?? null,
        o.scope ?? "read:user user:email read:org",
      ),
    setOrgRole,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// Run directly (Playwright's webServer): fixed port and credentials for the end-to-end app.
if (process.argv[1]?.endsWith("fake-github.ts")) {
  const port = Number(process.env.FAKE_GITHUB_PORT ?? 3198);
  const allowedRedirectOrigin = process.env.FAKE_GITHUB_REDIRECT_ORIGIN;
  startFakeGitHub({
    clientId: "e2e-github-client",
    clientSecret: "e2e-github-secret",
    allowedRedirectOrigin,
    requirePkce: true,
    port,
  }).then((f) => console.log(`fake github on ${f.url}`));
}
