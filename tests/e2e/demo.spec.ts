import { expect, test, type Page } from "@playwright/test";
import { site } from "@/lib/site";
import { contactEmail } from "./support/deployment";

const name = site.name;
const unknownReply = `The only commands I understand are "what is ${name}", "list services on ${name}" and "order boba"`;
// The fake clock starts here and stops at `pausedAt`: replies are scheduled from a frozen instant.
const startAt = new Date("2026-05-20T09:05:00");
const pausedAt = new Date("2026-05-20T09:41:00");

const app = (page: Page) => page.getByRole("region", { name: `${name} Desktop (simulated)` });
const input = (page: Page) => page.getByRole("textbox", { name: `Message ${name}` });
const sendButton = (page: Page) => page.getByRole("button", { name: "Send message" });
const messageLog = (page: Page) => page.getByRole("log", { name: "Messages" });
const messages = (page: Page, role: "user" | "assistant") =>
  page.locator(`[data-testid="message"][data-role="${role}"]`);
const typing = (page: Page) => page.getByTestId("typing-indicator");
const sidebar = (page: Page) => page.getByRole("navigation", { name: "Conversations" });
const balance = (page: Page) => page.getByTestId("wallet-balance");
const emptyState = (page: Page) => page.getByRole("heading", { name: "How can I help you today?" });

/** Opens the demo with the clock paused, once React has hydrated. */
async function openDemo(page: Page) {
  await page.clock.install({ time: startAt });
  await page.goto("/mcpsummit");
  await expect(app(page)).toHaveAttribute("aria-busy", "false");
  await page.clock.pauseAt(pausedAt);
}

/** On phones the sidebar starts collapsed. */
async function showSidebar(page: Page) {
  if (await sidebar(page).isHidden()) await page.getByRole("button", { name: "Open sidebar" }).click();
  await expect(sidebar(page)).toBeVisible();
}

async function send(page: Page, text: string) {
  await input(page).fill(text);
  await input(page).press("Enter");
}

/** Sends `text` and checks its reply arrives exactly `delayMs` later. */
async function expectReply(page: Page, text: string, delayMs: number) {
  const before = await messages(page, "assistant").count();
  await send(page, text);
  await expect(messages(page, "user").last()).toContainText(text.trim());
  await expect(typing(page)).toBeVisible();
  await page.clock.runFor(delayMs - 1);
  await expect(messages(page, "assistant")).toHaveCount(before);
  await expect(typing(page)).toBeVisible();
  await page.clock.runFor(1);
  await expect(messages(page, "assistant")).toHaveCount(before + 1);
  await expect(typing(page)).toBeHidden();
  return messages(page, "assistant").last();
}

test.describe("event demo chat", () => {
  test("has its metadata, an empty chat and labelled controls", async ({ page }) => {
    await openDemo(page);
    await expect(page).toHaveTitle(`Event demo · ${name}`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      "content",
      new RegExp(`${name}.*simulated desktop chat`),
    );
    await expect(page.getByRole("heading", { level: 1, name: `${name} Desktop demo` })).toBeVisible();
    await expect(emptyState(page)).toBeVisible();
    await expect(messageLog(page)).toHaveAttribute("aria-live", "polite");
    await expect(input(page)).toBeVisible();
    await expect(sendButton(page)).toBeDisabled();
    await expect(balance(page)).toHaveText("Balance: $5.00");
    await expect(
      page.getByRole("button", { name: "Open sidebar" }).or(page.getByRole("button", { name: "Close sidebar" })),
    ).toBeVisible();
  });

  test("crossing the breakpoint returns the sidebar to that width's default", async ({ page, isMobile }) => {
    test.skip(isMobile, "resizes a desktop window across the breakpoint");
    await openDemo(page);
    await expect(sidebar(page)).toBeVisible();
    await page.getByRole("button", { name: "Close sidebar" }).click();
    await expect(sidebar(page)).toBeHidden();
    // Narrow, the sidebar starts collapsed; wide again, it is open again (the choice made at the other width is gone).
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("button", { name: "Open sidebar" })).toBeVisible();
    await expect(sidebar(page)).toBeHidden();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(sidebar(page)).toBeVisible();
  });

  const replies = [
    {
      command: `what is ${name}`,
      delayMs: 1000,
      expected: `${name} is a marketplace and registry for MonetizedMCP servers`,
    },
    { command: `  LIST SERVICES ON ${name.toUpperCase()} `, delayMs: 2000, expected: "Image Studio — $0.25 per image" },
    { command: "Order Boba", delayMs: 2000, expected: "The first 50 people get a free boba" },
    { command: "hello there", delayMs: 1000, expected: unknownReply },
  ];
  for (const { command, delayMs, expected } of replies) {
    test(`"${command.trim()}" is answered after ${delayMs} ms`, async ({ page }) => {
      await openDemo(page);
      const reply = await expectReply(page, command, delayMs);
      await expect(reply).toContainText(expected);
      await expect(reply.locator("time")).toHaveText("09:41");
      await expect(messages(page, "user").last().locator("time")).toHaveText("09:41");
    });
  }

  test("answers an unknown command with exactly the list of commands", async ({ page }) => {
    await openDemo(page);
    const reply = await expectReply(page, "what can you do?", 1000);
    await expect(reply.getByText(unknownReply, { exact: true })).toBeVisible();
  });

  test("lists services with their prices", async ({ page }) => {
    await openDemo(page);
    const reply = await expectReply(page, `list services on ${name}`, 2000);
    await expect(reply.getByRole("listitem")).toHaveCount(6);
    await expect(reply.getByRole("listitem").filter({ hasText: "Screenshot Service" })).toContainText("free");
  });

  test("ordering boba takes the balance from $5.00 to $0.00 when the reply arrives", async ({ page }) => {
    await openDemo(page);
    await expect(balance(page)).toHaveText("Balance: $5.00");
    await send(page, "order boba");
    await page.clock.runFor(1999);
    await expect(balance(page)).toHaveText("Balance: $5.00");
    await page.clock.runFor(1);
    await expect(balance(page)).toHaveText("Balance: $0.00");
    const reply = messages(page, "assistant").last();
    await expect(reply).toContainText("a boba costs $5.00");
    await expect(reply).toContainText("Your balance went from $5.00 to $0.00");
    // Sonner mounts its toasts on timers of its own (and, once, more than 100 ms of them under CI load): the fake
    // clock moves on in small steps until the toast shows, far short of the 4 s it stays.
    await expect(async () => {
      await page.clock.runFor(100);
      await expect(page.getByText("Paid $5.00 USDC to Boba Order Bot")).toBeVisible({ timeout: 250 });
    }).toPass({ timeout: 7_000 });

    // The wallet cannot go below zero: a second order is refused.
    const refusal = await expectReply(page, "order boba", 2000);
    await expect(refusal).toContainText("can't place another order");
    await expect(balance(page)).toHaveText("Balance: $0.00");

    await page.keyboard.press("ControlOrMeta+Comma");
    await expect(page.getByRole("region", { name: "Settings" })).toContainText("$0.00 USDC");
  });

  test("the send button is disabled when empty, blank or while a reply is pending", async ({ page }) => {
    await openDemo(page);
    await expect(sendButton(page)).toBeDisabled();
    await input(page).fill("   \n\t ");
    await expect(sendButton(page)).toBeDisabled();
    await input(page).press("Enter");
    await expect(messages(page, "user")).toHaveCount(0);
    await expect(typing(page)).toBeHidden();
    await expect(emptyState(page)).toBeVisible();

    await input(page).fill("what is agora");
    await expect(sendButton(page)).toBeEnabled();
    await sendButton(page).click();
    await expect(input(page)).toHaveValue("");
    await expect(typing(page)).toBeVisible();
    await input(page).fill("order boba");
    await expect(sendButton(page)).toBeDisabled();
    await input(page).press("Enter");
    await expect(messages(page, "user")).toHaveCount(1);
    await expect(input(page)).toHaveValue("order boba");

    await page.clock.runFor(1000);
    await expect(typing(page)).toBeHidden();
    await expect(sendButton(page)).toBeEnabled();
  });

  test("Enter sends, Shift+Enter adds a line", async ({ page }) => {
    await openDemo(page);
    await input(page).click();
    await page.keyboard.type("first line");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("second line");
    await expect(input(page)).toHaveValue("first line\nsecond line");
    await expect(messages(page, "user")).toHaveCount(0);
    await page.keyboard.press("Enter");
    await expect(messages(page, "user")).toHaveCount(1);
    expect(await messages(page, "user").first().innerText()).toContain("first line\nsecond line");
    await expect(input(page)).toHaveValue("");
  });

  test("the input grows with its content up to 120 px, then scrolls", async ({ page }) => {
    await openDemo(page);
    const size = () =>
      input(page).evaluate((el) => ({
        height: el.getBoundingClientRect().height,
        scrollHeight: el.scrollHeight,
        clientHeight: el.clientHeight,
      }));
    const single = await size();
    expect(single.height).toBeLessThan(60);
    await input(page).fill("one\ntwo\nthree");
    await expect.poll(async () => (await size()).height).toBeGreaterThan(single.height);
    await input(page).fill(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n"));
    await expect.poll(async () => (await size()).height).toBeGreaterThan(100);
    const tall = await size();
    expect(tall.height).toBeLessThanOrEqual(120);
    expect(tall.scrollHeight).toBeGreaterThan(tall.clientHeight);
    await input(page).fill("");
    await expect.poll(async () => (await size()).height).toBe(single.height);
  });

  test("shows the typing indicator only while a reply is pending", async ({ page }) => {
    await openDemo(page);
    await expect(typing(page)).toHaveCount(0);
    await send(page, "hi");
    await expect(typing(page)).toBeVisible();
    await expect(typing(page)).toContainText(`${name} is typing`);
    await page.clock.runFor(1000);
    await expect(typing(page)).toHaveCount(0);
  });

  test("keeps the newest message in view", async ({ page }) => {
    await openDemo(page);
    for (const command of [`list services on ${name}`, `what is ${name}`, "hello", `list services on ${name}`]) {
      await send(page, command);
      await page.clock.runFor(2000);
    }
    await expect(messages(page, "assistant")).toHaveCount(4);
    const scroll = () =>
      messageLog(page).evaluate((el) => ({
        overflow: el.scrollHeight > el.clientHeight,
        gap: el.scrollHeight - el.clientHeight - el.scrollTop,
      }));
    expect((await scroll()).overflow).toBe(true);
    await expect.poll(async () => (await scroll()).gap).toBeLessThanOrEqual(1);
    await expect(messages(page, "assistant").last()).toBeInViewport();
  });

  test("New Chat clears the conversation, drops a pending reply and returns to the chat view", async ({ page }) => {
    await openDemo(page);
    await send(page, "order boba");
    await expect(typing(page)).toBeVisible();
    await page.keyboard.press("ControlOrMeta+Comma");
    await expect(page.getByRole("region", { name: "Settings" })).toBeVisible();
    await showSidebar(page);
    await sidebar(page).getByRole("button", { name: "New Chat" }).click();
    await expect(page.getByRole("region", { name: "Settings" })).toBeHidden();
    await expect(emptyState(page)).toBeVisible();
    await expect(messages(page, "user")).toHaveCount(0);
    await expect(typing(page)).toHaveCount(0);
    await page.clock.runFor(5000);
    await expect(messages(page, "assistant")).toHaveCount(0);
    await expect(balance(page)).toHaveText("Balance: $5.00");
    await expect(page.getByTestId("chat-title")).toHaveText("New chat");
  });

  test("preset conversations 1 and 2 show their sample content", async ({ page }) => {
    await openDemo(page);
    await showSidebar(page);
    const first = sidebar(page).getByRole("button", { name: /Conversation 1:.*Finding an image generator/ });
    const second = sidebar(page).getByRole("button", { name: /Conversation 2:.*Ordering boba/ });
    await first.click();
    await expect(page.getByTestId("chat-title")).toHaveText("Finding an image generator");
    await expect(messages(page, "user").first()).toContainText("image generator");
    await expect(messages(page, "assistant").first()).toContainText("Image Studio");
    await expect(messages(page, "assistant").first().locator("time")).toHaveText("10:02");

    await showSidebar(page);
    await expect(first).toHaveAttribute("aria-current", "true");
    await second.click();
    await expect(page.getByTestId("chat-title")).toHaveText("Ordering boba");
    await expect(messages(page, "user").first()).toHaveText(/order boba/);
    await expect(messages(page, "assistant").first()).toContainText("The first 50 people get a free boba");
    // Sample content only: the wallet is untouched.
    await expect(balance(page)).toHaveText("Balance: $5.00");

    await showSidebar(page);
    await expect(second).toHaveAttribute("aria-current", "true");
    await expect(first).not.toHaveAttribute("aria-current", "true");
    await sidebar(page).getByRole("button", { name: "New Chat" }).click();
    await expect(emptyState(page)).toBeVisible();
    await showSidebar(page);
    await expect(sidebar(page).locator("[aria-current]")).toHaveCount(0);
  });

  test("Ctrl/Cmd+N starts a new chat without opening a window", async ({ page, context }) => {
    await openDemo(page);
    await expectReply(page, "hello", 1000);
    await page.evaluate(() => {
      window.addEventListener("keydown", (e) => {
        (window as unknown as { lastKeyPrevented: boolean }).lastKeyPrevented = e.defaultPrevented;
      });
    });
    let opened = 0;
    context.on("page", () => opened++);
    await input(page).focus();
    await page.keyboard.press("ControlOrMeta+n");
    await expect(emptyState(page)).toBeVisible();
    await expect(messages(page, "user")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { lastKeyPrevented: boolean }).lastKeyPrevented)).toBe(true);
    expect(opened).toBe(0);
    expect(context.pages()).toHaveLength(1);
    await expect(page).toHaveURL(/\/mcpsummit$/);
  });

  test("Ctrl/Cmd+comma toggles settings with read-only demo values", async ({ page }) => {
    await openDemo(page);
    const settings = page.getByRole("region", { name: "Settings" });
    await page.keyboard.press("ControlOrMeta+Comma");
    await expect(settings).toBeVisible();
    await expect(input(page)).toBeHidden();
    await expect(settings).toContainText("$5.00 USDC");
    await expect(settings).toContainText("0.01 USDC");
    await expect(settings).toContainText(site.paymentMethod);
    await expect(settings.getByRole("textbox")).toHaveCount(0);
    await page.keyboard.press("ControlOrMeta+Comma");
    await expect(settings).toBeHidden();
    await expect(input(page)).toBeVisible();

    await page.keyboard.press("ControlOrMeta+Comma");
    await settings.getByRole("button", { name: "Back to chat" }).click();
    await expect(input(page)).toBeVisible();
  });

  test("Ctrl/Cmd+K focuses the input, from the settings view too", async ({ page }) => {
    await openDemo(page);
    await page.getByRole("heading", { level: 1 }).click();
    await expect(input(page)).not.toBeFocused();
    await page.keyboard.press("ControlOrMeta+k");
    await expect(input(page)).toBeFocused();

    await page.keyboard.press("ControlOrMeta+Comma");
    await expect(input(page)).toBeHidden();
    await page.keyboard.press("ControlOrMeta+k");
    await expect(input(page)).toBeVisible();
    await expect(input(page)).toBeFocused();
    await expect(page).toHaveURL(/\/mcpsummit$/);
  });

  test("shows the keyboard shortcuts", async ({ page, isMobile }) => {
    test.skip(isMobile, "shortcut hints are for hardware keyboards");
    await openDemo(page);
    const hints = page.getByRole("region", { name: "Keyboard shortcuts" });
    await expect(hints).toContainText("New chat");
    await expect(hints).toContainText("Toggle settings");
    await expect(hints).toContainText("Focus input");
    await expect(hints.locator("kbd")).toHaveCount(6);
  });

  test("suggestions send a command", async ({ page }) => {
    await openDemo(page);
    await page.getByRole("button", { name: `what is ${name}` }).click();
    await expect(messages(page, "user")).toHaveText([new RegExp(`what is ${name}`)]);
    await page.clock.runFor(1000);
    await expect(messages(page, "assistant")).toHaveCount(1);
  });

  test("focus is visible on the input and the buttons", async ({ page }) => {
    await openDemo(page);
    const composer = input(page).locator("xpath=..");
    const shadow = (l: ReturnType<typeof input>) => l.evaluate((el) => getComputedStyle(el).boxShadow);
    const idle = await shadow(composer);
    await page.keyboard.press("ControlOrMeta+k");
    await expect.poll(() => shadow(composer)).not.toBe(idle);
    await page.keyboard.press("Shift+Tab");
    const chip = page.getByRole("button", { name: "order boba" });
    await expect(chip).toBeFocused();
    await expect.poll(() => shadow(chip)).toMatch(/rgb|oklch|oklab/);
  });

  test("the sidebar toggles and nothing overflows horizontally", async ({ page, isMobile }) => {
    await openDemo(page);
    const noOverflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    expect(await noOverflow()).toBe(true);
    if (isMobile) {
      await expect(sidebar(page)).toBeHidden();
      const open = page.getByRole("button", { name: "Open sidebar" });
      await expect(open).toHaveAttribute("aria-expanded", "false");
      await open.click();
      await expect(sidebar(page)).toBeVisible();
      expect(await noOverflow()).toBe(true);
      await expect(page.getByRole("button", { name: "Close sidebar" })).toHaveAttribute("aria-expanded", "true");
      await page.keyboard.press("Escape");
      await expect(sidebar(page)).toBeHidden();
    } else {
      await expect(sidebar(page)).toBeVisible();
      await page.getByRole("button", { name: "Close sidebar" }).click();
      await expect(sidebar(page)).toBeHidden();
      await page.getByRole("button", { name: "Open sidebar" }).click();
      await expect(sidebar(page)).toBeVisible();
    }
    await send(page, `list services on ${name}`);
    await page.clock.runFor(2000);
    expect(await noOverflow()).toBe(true);
  });

  test("holds a FAQ and contact details", async ({ page }) => {
    await openDemo(page);
    for (const question of ["What is this demo?", "Is the money real?", "How do I try it for real?"]) {
      await expect(page.getByRole("button", { name: question })).toBeVisible();
    }
    await page.getByRole("button", { name: "Is the money real?" }).click();
    await expect(page.getByText(/The wallet, its \$5\.00 balance .* are simulated/)).toBeVisible();
    await page.getByRole("button", { name: "How do I try it for real?" }).click();
    const howTo = page.getByRole("region", { name: "How do I try it for real?" });
    await expect(howTo.getByRole("link", { name: "Getting Started" })).toHaveAttribute("href", "/getting-started");
    // The contact text beside the FAQ.
    const contact = page.locator("#contact");
    await expect(contact.getByRole("heading", { name: "Get in touch" })).toBeVisible();
    await expect(
      contact.getByText("Questions, feedback or a server you want to list? We read every email."),
    ).toBeVisible();
    await expect(contact.getByRole("link", { name: contactEmail })).toHaveAttribute("href", `mailto:${contactEmail}`);
  });
});
