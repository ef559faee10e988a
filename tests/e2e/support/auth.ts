// Signing in for end-to-end tests: through the fake GitHub in the browser, or an email account via the API.
import { expect, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { inboxPort } from "./ports";

/** A GitHub login (and account) no other test or project uses. */
export function uniqueLogin(testInfo: TestInfo, label: string): string {
  return `${label}-${testInfo.project.name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
}

/** The toast with this title and description (sonner). */
export function toast(page: Page, title: string, description?: string) {
  const withTitle = page
    .locator("[data-sonner-toast]")
    .filter({ has: page.locator("[data-title]", { hasText: title }) });
  return description
    ? withTitle.filter({ has: page.locator("[data-description]", { hasText: description }) })
    : withTitle;
}

/** Approves (or cancels) on the fake GitHub's consent page after a sign-in button was pressed. */
export async function answerGitHub(page: Page, login: string, decision: "Authorize" | "Cancel" = "Authorize") {
  await expect(page.getByRole("heading", { name: "Authorize Agora" })).toBeVisible();
  await page.getByLabel("GitHub login", { exact: true }).fill(login);
  await page.getByRole("button", { name: decision }).click();
}

/** The whole browser flow from /login to /submit. */
export async function signInWithGitHub(page: Page, login: string) {
  await page.goto("/login");
  await page.getByRole("button", { name: "Continue with GitHub" }).click();
  await answerGitHub(page, login);
  await expect(toast(page, "Success", "You have been logged in successfully.")).toBeVisible();
  await expect(page).toHaveURL(/\/submit$/, { timeout: 15_000 });
}

export async function registerByApi(
  request: APIRequestContext,
  email: string,
  password: string,
  name = "E2E Provider",
) {
  const res = await request.post("/api/auth/register", { data: { email, password, name } });
  expect(res.status()).toBe(201);
  return (await res.json()) as { token: string; user: { id: string } };
}

/** The newest reset link mailed to `email`, as captured by the fake SMTP server. */
export async function mailedResetLink(request: APIRequestContext, email: string): Promise<string> {
  return mailedLink(request, email, /https?:\/\/\S+\/reset-password\?token=[\w-]+/);
}

/** The newest email verification link mailed to `email` (sent when a password account is created). */
export async function mailedVerificationLink(request: APIRequestContext, email: string): Promise<string> {
  return mailedLink(request, email, /https?:\/\/\S+\/verify-email\?token=[\w-]+/);
}

// Registration mails a verification link too, so the newest message of the right kind is wanted, not the newest.
async function mailedLink(request: APIRequestContext, email: string, pattern: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`http://127.0.0.1:${inboxPort}/messages?to=${encodeURIComponent(email)}`);
        const messages = (await res.json()) as { text: string }[];
        link = messages
          .map((m) => m.text.match(pattern)?.[0])
          .filter(Boolean)
          .at(-1);
        return link;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return link!;
}
