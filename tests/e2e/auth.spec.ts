import { expect, test } from "@playwright/test";
import {
  answerGitHub,
  mailedResetLink,
  mailedVerificationLink,
  registerByApi,
  signInWithGitHub,
  toast,
  uniqueLogin,
} from "./support/auth";

// Client-side redirects wait for hydration, which is slow on a busy two-core machine.
const slowNav = { timeout: 15_000 };
test.describe.configure({ timeout: 60_000 });

test.describe("login screen", () => {
  test("shows the Login card with GitHub first and the email options below", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1, name: "Login" })).toBeVisible();
    await expect(page.getByText("Enter with your gmail or github account")).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with GitHub" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue with Google" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Sign in with email" })).toHaveAttribute("href", "/login/email");
    await expect(page.getByRole("link", { name: "Create one with your email" })).toHaveAttribute("href", "/register");
    await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute("href", "/forgot-password");
    // With a GitHub app configured, /register offers it beside email (sign-in-methods.spec.ts: without one, it does not).
    await page.goto("/register");
    await expect(page.getByRole("link", { name: "Use GitHub" })).toHaveAttribute("href", "/login");
  });

  test("a signed-in person opening /register is shown their account, not a form for another", async ({
    page,
    isMobile,
  }, testInfo) => {
    // Signed out, the header offers "Sign in"; signed in, "Account" in its place.
    const header = () =>
      isMobile ? page.getByRole("navigation", { name: "Mobile" }) : page.getByRole("navigation", { name: "Main" });
    await page.goto("/");
    if (isMobile) await page.getByRole("button", { name: "Open menu" }).click();
    await expect(header().getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
    await signInWithGitHub(page, uniqueLogin(testInfo, "registered"));
    await page.goto("/");
    if (isMobile) await page.getByRole("button", { name: "Open menu" }).click();
    await expect(header().getByRole("link", { name: "Account" })).toBeVisible();
    await expect(header().getByRole("link", { name: "Sign in" })).toHaveCount(0);
    await page.goto("/register");
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole("form", { name: "Create an account" })).toHaveCount(0);
  });

  test("a failed start shows the error toast and frees the button", async ({ page }) => {
    await page.goto("/login");
    // The server action behind the button fails (network error).
    await page.route("**/login", (route) => (route.request().method() === "POST" ? route.abort() : route.continue()));
    const button = page.getByRole("button", { name: "Continue with GitHub" });
    await button.click();
    await expect(toast(page, "Error", "Failed to initiate GitHub login. Please try again.")).toBeVisible();
    await expect(button).toBeEnabled();
  });
});

test.describe("GitHub sign-in against the fake provider", () => {
  test("busy button → GitHub consent with the email scope → callback toast → /submit", async ({ page }, testInfo) => {
    await page.goto("/login");
    const button = page.getByRole("button", { name: "Continue with GitHub" });
    await button.click();
    await expect(page.getByRole("heading", { name: "Authorize Agora" })).toBeVisible();
    await expect(page.locator("#scope")).toHaveText("read:user user:email");
    const authorizeUrl = new URL(page.url());
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizeUrl.searchParams.get("redirect_uri")).toMatch(/\/api\/nextauth\/callback\/github$/);

    await answerGitHub(page, uniqueLogin(testInfo, "octo"));
    await expect(toast(page, "Success", "You have been logged in successfully.")).toBeVisible();
    await expect(page).toHaveURL(/\/submit$/, slowNav);
    await expect(page.getByRole("form", { name: "Submit MonetizedMCP server" })).toBeVisible();
  });

  test("lands on the callback screen while signing in", async ({ page }, testInfo) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.getByLabel("GitHub login", { exact: true }).fill(uniqueLogin(testInfo, "callback"));
    const callback = page.waitForURL(/\/auth\/callback$/);
    await page.getByRole("button", { name: "Authorize" }).click();
    await callback;
    await expect(page).toHaveURL(/\/submit$/, slowNav);
  });

  test("cancelling at GitHub shows 'Authentication Error' with a fixed text and GitHub's code, then /login", async ({
    page,
  }, testInfo) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await answerGitHub(page, uniqueLogin(testInfo, "cancel"), "Cancel");
    await expect(
      toast(page, "Authentication Error", "The sign-in was cancelled or access was not granted. (access_denied)"),
    ).toBeVisible();
    // GitHub's own error_description is never shown (provider text is content a stranger can write).
    await expect(page.getByText("The user has denied your application access.")).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/, slowNav);
  });

  test("a refused code exchange shows the spec's error, then /login", async ({ page }, testInfo) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await answerGitHub(page, uniqueLogin(testInfo, "fail-exchange"));
    await expect(toast(page, "Error", "Failed to authenticate with GitHub. Please try again.")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, slowNav);
  });

  test("opening the callback without a sign-in says no code was received", async ({ page }) => {
    await page.goto("/auth/callback");
    await expect(toast(page, "Authentication Error", "No authorization code received.")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, slowNav);
  });

  test("an error parameter gives 'Authentication Error' with a fixed text and the bare OAuth code, never other words", async ({
    page,
  }) => {
    await page.goto("/auth/callback?error=server_error");
    await expect(
      toast(page, "Authentication Error", "The sign-in did not complete. Please try again. (server_error)"),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, slowNav);
    await page.goto(`/auth/callback?error=${encodeURIComponent("Your account is suspended. Call +1 555 0100.")}`);
    await expect(toast(page, "Authentication Error", "The sign-in did not complete. Please try again.")).toBeVisible();
    await expect(page.getByText("Your account is suspended")).toHaveCount(0);
  });

  test("a code without a finished sign-in is a failed exchange: 'Error', then /login", async ({ page }) => {
    await page.goto("/auth/callback?code=0123456789abcdef&state=forged");
    await expect(toast(page, "Error", "Failed to authenticate with GitHub. Please try again.")).toBeVisible();
    await expect(page.getByText("No authorization code received.")).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/, slowNav);
  });

  test("an unconfirmed email account with a GitHub user's address does not block their GitHub sign-in", async ({
    page,
    request,
  }, testInfo) => {
    const login = uniqueLogin(testInfo, "squatted");
    await registerByApi(request, `${login.toLowerCase()}@users.example.com`, "a squatter's password");
    await signInWithGitHub(page, login);
    await expect(page).toHaveURL(/\/submit$/, slowNav);
  });

  test("a GitHub address that another account has confirmed is refused, not merged", async ({
    page,
    request,
  }, testInfo) => {
    const login = uniqueLogin(testInfo, "twin");
    const email = `${login.toLowerCase()}@users.example.com`;
    await registerByApi(request, email, "someone else's password");
    const token = new URL(await mailedVerificationLink(request, email)).searchParams.get("token");
    expect((await request.post("/api/auth/verify-email", { data: { token } })).status()).toBe(200);
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await answerGitHub(page, login);
    await expect(
      toast(
        page,
        "Authentication Error",
        "An account with this email already exists. Sign in with your email and password.",
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/, slowNav);
  });
});

test.describe("logout", () => {
  test("ends the session on the server, clears client data and goes home", async ({ page, browser }, testInfo) => {
    await signInWithGitHub(page, uniqueLogin(testInfo, "leaver"));
    if (testInfo.project.name === "desktop")
      await expect(page.getByRole("link", { name: "Account", exact: true })).toBeVisible();
    await page.evaluate(() => {
      localStorage.setItem("token", "legacy");
      sessionStorage.setItem("draft", "x");
    });
    const stolen = await page.context().cookies();

    await page.goto("/logout");
    await expect(page).toHaveURL(/\/$/, slowNav);
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
    await page.goto("/submit");
    await expect(page.getByText("Enter with your github account")).toBeVisible();
    await expect(page.getByRole("link", { name: "Account", exact: true })).toHaveCount(0);

    // The old cookie, replayed from elsewhere, no longer opens a session: it was revoked server-side.
    const replay = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    await replay.addCookies(stolen);
    const other = await replay.newPage();
    await other.goto("/account");
    await expect(other).toHaveURL(/\/login$/, slowNav);
    await replay.close();
  });

  test("the account page's Sign out link signs out at once", async ({ page }, testInfo) => {
    await signInWithGitHub(page, uniqueLogin(testInfo, "own-link"));
    await page.goto("/account");
    await page.getByRole("link", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/, slowNav);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login$/, slowNav);
  });

  test("a link to /logout on another site asks first, and staying keeps the session", async ({ page }, testInfo) => {
    await signInWithGitHub(page, uniqueLogin(testInfo, "lured"));
    const target = new URL("/logout", testInfo.project.use.baseURL).toString();
    await page.route("https://elsewhere.example/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>Elsewhere</title><a href="${target}">Win a prize</a>`,
      }),
    );
    await page.goto("https://elsewhere.example/");
    await page.getByRole("link", { name: "Win a prize" }).click();
    await expect(page.getByRole("heading", { name: "Sign out?" })).toBeVisible(slowNav);
    await page.screenshot({ path: testInfo.outputPath("logout-confirm.png") });
    await page.getByRole("link", { name: "Stay signed in" }).click();
    await page.goto("/account");
    await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible(slowNav);

    await page.goto("https://elsewhere.example/");
    await page.getByRole("link", { name: "Win a prize" }).click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/, slowNav);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login$/, slowNav);
  });
});

test.describe("email accounts", () => {
  const password = "a sturdy passphrase";

  test("register shows each validation message, then creates the account and signs in", async ({ page }, testInfo) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Create one with your email" }).click();
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    const submit = page.getByRole("button", { name: "Create account" });
    await submit.click();
    await expect(page.getByText("Please enter your name.")).toBeVisible();
    await expect(page.getByText("Invalid email address")).toBeVisible();
    await expect(page.getByText("Password must be at least 8 characters.")).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await submit.click();
    await expect(page.getByText("This password is too common. Choose one that is harder to guess.")).toBeVisible();

    await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
    await page.getByLabel("Email", { exact: true }).fill(`${uniqueLogin(testInfo, "grace")}@example.com`);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await submit.click();
    await expect(toast(page, "Success", "Your account has been created and you are signed in.")).toBeVisible();
    // The filled form gives way at once, not after the next page arrives.
    await expect(page.getByRole("form", { name: "Create an account" })).toHaveCount(0, { timeout: 1_000 });
    await expect(page).toHaveURL(/\/submit$/, slowNav);
    await expect(page.getByRole("form", { name: "Submit MonetizedMCP server" })).toBeVisible();
  });

  test("a new account confirms its address with the mailed link", async ({ page, request }, testInfo) => {
    const email = `${uniqueLogin(testInfo, "confirm")}@example.com`;
    await page.goto("/register");
    await page.getByLabel("Name", { exact: true }).fill("Katherine Johnson");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(toast(page, "Success", "Check your inbox to confirm your email address.")).toBeVisible();
    await expect(page).toHaveURL(/\/submit$/, slowNav);

    await page.goto("/account");
    await expect(page.getByText(`${email} (not confirmed)`)).toBeVisible();
    await expect(page.getByText("Email not confirmed.")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("account-unconfirmed.png"), fullPage: true });

    await page.goto(await mailedVerificationLink(request, email));
    await expect(page.getByRole("heading", { name: "Confirm your email address" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("verify-email.png"), fullPage: true });
    await page.getByRole("button", { name: "Confirm email address" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your email address is confirmed." })).toBeVisible(slowNav);
    await page.getByRole("link", { name: "Go to your account" }).click();
    await expect(page.getByText(`${email} (confirmed)`)).toBeVisible(slowNav);
    await expect(page.getByText("Email not confirmed.")).toHaveCount(0);
  });

  test("registering a taken address shows the server's message", async ({ page, request }, testInfo) => {
    const email = `${uniqueLogin(testInfo, "taken")}@example.com`;
    await registerByApi(request, email, password);
    await page.goto("/register");
    await page.getByLabel("Name", { exact: true }).fill("Copy Cat");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText(
      "An account with this email already exists. Sign in, or reset your password.",
    );
  });

  test("sign in with email: wrong password refused, right one lands on /submit", async ({
    page,
    request,
  }, testInfo) => {
    const email = `${uniqueLogin(testInfo, "signin")}@example.com`;
    await registerByApi(request, email, password);
    await page.goto("/login");
    await page.getByRole("link", { name: "Sign in with email" }).click();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Invalid email or password.");
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(toast(page, "Success", "You have been logged in successfully.")).toBeVisible();
    await expect(page).toHaveURL(/\/submit$/, slowNav);
  });

  test("forgot → mailed link → reset → old password refused, new one works", async ({ page, request }, testInfo) => {
    const email = `${uniqueLogin(testInfo, "forgetful")}@example.com`;
    await registerByApi(request, email, password);

    await page.goto("/login/email");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status")).toContainText(
      "If an account exists for that email, we sent a link to reset its password.",
    );

    const link = await mailedResetLink(request, email);
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await expect(page).toHaveURL(/\/reset-password$/, slowNav); // the secret leaves the address bar
    await page.getByLabel("New password", { exact: true }).fill("12345678");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByText("This password is too common. Choose one that is harder to guess.")).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("an entirely new passphrase");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(toast(page, "Success", "Your password has been reset. Sign in with your new password.")).toBeVisible();
    await expect(page).toHaveURL(/\/login\/email$/, slowNav);

    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Invalid email or password.");
    await page.getByLabel("Password", { exact: true }).fill("an entirely new passphrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/submit$/, slowNav);

    // The link worked once.
    await page.goto(link);
    await page.getByLabel("New password", { exact: true }).fill("yet another passphrase");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText(
      "This reset link is invalid or has expired. Ask for a new one.",
    );
  });

  test("a reset page without a token says the link is invalid", async ({ page }) => {
    await page.goto("/reset-password");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText(
      "This reset link is invalid or has expired. Ask for a new one.",
    );
    await expect(page.getByRole("link", { name: "Send a new link" })).toHaveAttribute("href", "/forgot-password");
  });
});
