import { expect, test, type Page } from "@playwright/test";
import { answerGitHub, signInWithGitHub, toast, uniqueLogin } from "./support/auth";

// Client-side redirects wait for hydration, which is slow on a busy two-core machine.
const slowNav = { timeout: 15_000 };
test.describe.configure({ timeout: 60_000 });

const form = (page: Page) => page.getByRole("form", { name: "Submit MonetizedMCP server" });
const categoryInput = (page: Page) => page.getByLabel("Categories", { exact: true });
const addCategory = (page: Page) => page.getByRole("button", { name: "Add category" });

test.describe("submit page, signed out", () => {
  test("shows the heading, the guide link and the login card", async ({ page }) => {
    await page.goto("/submit");
    await expect(page.getByRole("heading", { level: 1, name: "Submit MonetizedMCP Server" })).toBeVisible();
    await expect(
      page.getByText(/submit it for review, and once approved it becomes discoverable by humans and AI agents/),
    ).toBeVisible();
    const guide = page.getByRole("link", { name: "deployment guide" });
    await expect(guide).toHaveAttribute("href", "/guides/aws-step-by-step");
    await expect(guide).toHaveAttribute("target", "_blank");
    await expect(page.getByRole("heading", { name: "List Your MonetizedMCP Server with Agora" })).toBeVisible();
    await expect(page.getByText("Enter with your github account")).toBeVisible();
    await expect(form(page)).toHaveCount(0);
  });

  test("'Login with Github' is disabled while redirecting and signs in straight back to /submit", async ({
    page,
  }, testInfo) => {
    await page.goto("/submit");
    // Hold the server action a moment so the busy state is observable.
    await page.route("**/submit", async (route) => {
      if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    const button = page.getByRole("button", { name: "Login with Github" });
    await button.click();
    await expect(button).toBeDisabled();
    await answerGitHub(page, uniqueLogin(testInfo, "submitter"));
    await expect(page).toHaveURL(/\/submit$/, slowNav);
    await expect(form(page)).toBeVisible();
  });
});

test.describe("submit page, signed in", () => {
  test.beforeEach(async ({ page }, testInfo) => {
    await signInWithGitHub(page, uniqueLogin(testInfo, "provider"));
  });

  test("has the spec's placeholders and a link to your servers", async ({ page }) => {
    await expect(page.getByLabel("Name")).toHaveAttribute("placeholder", "AI-Powered Web Scraper");
    await expect(page.getByLabel("MCP Server URL")).toHaveAttribute("placeholder", "https://your-server.com/mcp");
    await expect(page.getByLabel("Website URL")).toHaveAttribute("placeholder", "https://your-server.com");
    await expect(categoryInput(page)).toHaveAttribute("placeholder", "AI, Web3, Finance");
    await expect(page.getByRole("link", { name: "Your servers" })).toHaveAttribute("href", "/account#your-servers");
  });

  test("shows every validation message", async ({ page }) => {
    const submit = page.getByRole("button", { name: "Submit for review" });
    await submit.click();
    await expect(page.getByText("Please enter a name.")).toBeVisible();
    await expect(page.getByText("Description is too short — minimum 10 characters.")).toBeVisible();
    await expect(page.getByText("Please enter a MCP Server URL.")).toBeVisible();

    await page.getByLabel("Name").fill("n".repeat(101));
    await page.getByLabel("Description").fill("d".repeat(1001));
    await page.getByLabel("MCP Server URL").fill("not a url");
    await page.getByLabel("Website URL").fill("www");
    await submit.click();
    await expect(page.getByText("Name must be under 100 characters.")).toBeVisible();
    await expect(page.getByText("Description is too long — maximum 1000 characters.")).toBeVisible();
    await expect(page.getByText("Please enter a valid URL.")).toHaveCount(2);
  });

  test("categories: Enter or Add, no blanks, no duplicates, at most five, each removable", async ({ page }) => {
    await expect(addCategory(page)).toBeDisabled();
    await categoryInput(page).fill("   ");
    await expect(addCategory(page)).toBeDisabled();
    await categoryInput(page).fill("AI");
    await categoryInput(page).press("Enter");
    await expect(categoryInput(page)).toHaveValue("");
    await categoryInput(page).fill("Web3");
    await addCategory(page).click();
    await categoryInput(page).fill("ai");
    await categoryInput(page).press("Enter");
    await expect(toast(page, "Category already exists")).toBeVisible();
    for (const name of ["Finance", "Data", "Search"]) {
      await categoryInput(page).fill(name);
      await categoryInput(page).press("Enter");
    }
    await categoryInput(page).fill("Sixth");
    await categoryInput(page).press("Enter");
    await expect(toast(page, "You can only have up to 5 categories")).toBeVisible();
    const tags = page.getByRole("list", { name: "Selected categories" }).getByRole("listitem");
    await expect(tags).toHaveText(["AI", "Web3", "Finance", "Data", "Search"]);
    await page.getByRole("button", { name: "Remove Web3" }).click();
    await expect(tags).toHaveText(["AI", "Finance", "Data", "Search"]);
    // Enter in the category box never submitted the form.
    await expect(page.getByText("Please enter a name.")).toHaveCount(0);
  });

  test("submits: busy button, success toast, form reset; listed as pending under your servers, not public", async ({
    page,
    request,
  }, testInfo) => {
    const name = `E2E Scraper ${testInfo.project.name} ${Date.now()}`;
    const url = `https://${uniqueLogin(testInfo, "srv").toLowerCase()}.example.com/mcp`;
    await page.getByLabel("Name").fill(name);
    await page
      .getByLabel("Description")
      .fill("Scrapes any page into clean markdown for agents. Ünïcödé and <b>tags</b> stay text.");
    await page.getByLabel("MCP Server URL").fill(url);
    await page.getByLabel("Website URL").fill("https://example.com");
    await categoryInput(page).fill("AI, Data");
    await categoryInput(page).press("Enter");

    await page.route("**/submit", async (route) => {
      if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    const submit = page.getByRole("button", { name: "Submit for review" });
    await submit.click();
    await expect(page.getByRole("button", { name: "Uploading..." })).toBeDisabled();
    await expect(toast(page, "Success", "Your MonetizedMCP server has been submitted successfully")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("");
    await expect(page.getByLabel("MCP Server URL")).toHaveValue("");
    await expect(page.getByRole("list", { name: "Selected categories" })).toHaveCount(0);
    await expect(submit).toBeEnabled();
    // The page itself says it worked and what comes next, after the toast has gone.
    const notice = page.getByTestId("submitted-notice");
    await expect(notice).toContainText(`${name} is submitted and waiting for review.`);
    await expect(notice.getByRole("link", { name: "your account page" })).toHaveAttribute("href", "/account");
    await page.screenshot({ path: testInfo.outputPath("submitted.png"), fullPage: true });
    await expect(toast(page, "Success", "Your MonetizedMCP server has been submitted successfully")).toBeHidden({
      timeout: 10_000,
    });
    await expect(notice).toBeVisible();

    await page.getByRole("link", { name: "Your servers" }).click();
    await expect(page).toHaveURL(/\/account#your-servers$/, slowNav);
    // The account's id, which `npm run admin:grant -- <user id>` takes.
    await expect(page.getByTestId("account-id")).toHaveText(
      /^Account id [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    const mine = page.getByRole("list", { name: "Your servers" }).getByRole("listitem").filter({ hasText: name });
    await expect(mine).toContainText("Pending review");
    await expect(mine).toContainText(url);

    // Pending listings are not public: not in the marketplace page, nor anywhere in the agents API's whole list
    // (newest first, where it would lead), nor found by its own name.
    await page.goto("/marketplace");
    await expect(page.getByText(name)).toHaveCount(0);
    const api = await request.get("/api/mcp-agents?sort=newest&limit=1000");
    expect(api.status()).toBe(200);
    const listed = ((await api.json()) as { name: string }[]).map((l) => l.name);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed).toHaveLength(Number(api.headers()["x-total-count"]));
    expect(listed).not.toContain(name);
    const found = await request.get(`/api/mcp-agents?q=${encodeURIComponent(name)}`);
    expect(found.status()).toBe(200);
    expect(await found.json()).toEqual([]);
  });

  test("a refused submission shows the server's message and ends the busy state", async ({ page }, testInfo) => {
    const url = `https://${uniqueLogin(testInfo, "dup").toLowerCase()}.example.com/mcp`;
    for (const attempt of [1, 2]) {
      await page.getByLabel("Name").fill(`Duplicate ${attempt}`);
      await page.getByLabel("Description").fill("The same server submitted twice.");
      await page.getByLabel("MCP Server URL").fill(url);
      await page.getByRole("button", { name: "Submit for review" }).click();
      if (attempt === 1)
        await expect(toast(page, "Success", "Your MonetizedMCP server has been submitted successfully")).toBeVisible();
    }
    await expect(toast(page, "Error", "This MCP server URL has already been submitted.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Submit for review" })).toBeEnabled();
    await expect(page.getByLabel("Name")).toHaveValue("Duplicate 2");
  });

  test("a session ended elsewhere signs the form out and shows the login card", async ({ page }) => {
    const cookies = await page.context().cookies();
    // Sign out in another tab (revokes the session server-side), then put the old cookie back in this browser.
    const other = await page.context().newPage();
    await other.goto("/logout");
    await expect(other).toHaveURL(/\/$/, slowNav);
    await other.close();
    await page.context().addCookies(cookies);

    await page.getByLabel("Name").fill("Too late");
    await page.getByLabel("Description").fill("Submitted after the session ended.");
    await page.getByLabel("MCP Server URL").fill("https://too-late.example.com/mcp");
    await page.getByRole("button", { name: "Submit for review" }).click();
    await expect(toast(page, "Error", "Your session has expired. Please sign in again.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "List Your MonetizedMCP Server with Agora" })).toBeVisible();
  });
});

test.describe("account: API tokens", () => {
  test("create (shown once), use as Bearer, see last use, revoke", async ({ page, request }, testInfo) => {
    await signInWithGitHub(page, uniqueLogin(testInfo, "tokens"));
    await page.goto("/account");
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
    await expect(page.getByText("You have not submitted a server yet.")).toBeVisible();
    await page.getByLabel("Token name", { exact: true }).fill("CI deploy");
    await page.getByRole("button", { name: "Create token" }).click();
    const shown = page.getByLabel("New API token", { exact: true });
    await expect(shown).toHaveValue(/^agora_[\w-]{43}$/);
    const token = await shown.inputValue();

    const created = await request.post("/api/mcp-agents", {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        name: "Token Server",
        description: "Submitted with a personal token.",
        mcpServerUrl: `https://${uniqueLogin(testInfo, "tok").toLowerCase()}.example.com/mcp`,
        categories: "AI",
      },
    });
    expect(created.status()).toBe(201);
    expect(await created.json()).toMatchObject({ status: "pending", categories: "AI" });

    await page.reload();
    await expect(shown).toHaveCount(0); // never shown again
    const row = page.getByRole("list", { name: "API tokens" }).getByRole("listitem").filter({ hasText: "CI deploy" });
    await expect(row).toContainText(token.slice(0, 10));
    await expect(row).not.toContainText("Never");
    await expect(page.getByRole("list", { name: "Your servers" })).toContainText("Token Server");

    await row.getByRole("button", { name: "Revoke CI deploy" }).click();
    await expect(toast(page, "Token revoked")).toBeVisible();
    await expect(row).toHaveCount(0);
    const refused = await request.post("/api/mcp-agents", {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        name: "Late",
        description: "After revocation.",
        mcpServerUrl: "https://late.example.com/mcp",
        categories: "",
      },
    });
    expect(refused.status()).toBe(401);
  });

  test("signed out, /account sends you to /login", async ({ page }) => {
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login$/, slowNav);
  });
});
