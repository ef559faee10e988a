import { createHash } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { contactEmail, siteOrigin } from "./support/deployment";

const contentPages = [
  "/how-it-works",
  "/getting-started",
  "/guides/setup-and-usage",
  "/guides/local-testing-guide",
  "/guides/aws-step-by-step",
  "/terms-of-service",
  "/privacy-policy",
];

/** The text of the first highlighted code block whose caption names `lang`. */
async function codeBlock(page: Page, lang: string, nth = 0) {
  const block = page
    .getByTestId("code-block")
    .filter({ has: page.locator("figcaption", { hasText: new RegExp(`^${lang}`) }) })
    .nth(nth);
  await expect(block).toBeVisible();
  return { block, text: await block.locator("pre").innerText() };
}

test.describe("content pages", () => {
  for (const path of contentPages) {
    test(`${path} fits the viewport without sideways scrolling`, async ({ page }) => {
      await page.goto(path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
});

test.describe("How It Works", () => {
  test("explains the peer-to-peer flow, the costs and the badges", async ({ page }) => {
    await page.goto("/how-it-works");
    await expect(page.getByRole("heading", { level: 1, name: "How It Works" })).toBeVisible();
    await expect(page.getByTestId("payment-flow-diagram")).toBeVisible();
    for (const step of [
      "The agent searches the registry",
      "It asks the server for prices and payment methods",
      "It pays with make-purchase",
      "The server verifies and settles before it delivers",
    ]) {
      await expect(page.getByRole("heading", { level: 3, name: new RegExp(step) })).toBeVisible();
    }
    await expect(page.getByText(/can never spend more than that wallet holds/)).toBeVisible();
    await expect(page.getByText(/No marketplace fee\./)).toBeVisible();
    await expect(page.getByText(/about \$0\.01–\$0\.03 in ETH on Base/)).toBeVisible();

    await expect(page.getByRole("heading", { level: 2, name: "What the badges mean" })).toBeVisible();
    await expect(page.getByText(/latest automatic probe, run within the last 24 hours/)).toBeVisible();
    await expect(page.getByText(/listed within the last 30 days/)).toBeVisible();

    const article = page.locator("article");
    for (const href of ["/getting-started", "/marketplace", "/submit", "/guides/setup-and-usage"]) {
      await expect(article.locator(`a[href="${href}"]`).first()).toBeVisible();
    }
  });
});

test.describe("Getting Started", () => {
  test("shows the four numbered steps", async ({ page }) => {
    await page.goto("/getting-started");
    await expect(page.getByRole("heading", { level: 1, name: "Getting Started" })).toBeVisible();
    await expect(page.getByTestId("step")).toHaveCount(4);
    const titles = [
      "Install Node.js",
      "Download the desktop assistant app",
      "Open the config file",
      "Add the Agora server",
    ];
    for (const [i, title] of titles.entries()) {
      await expect(page.getByRole("heading", { level: 2, name: `Step ${i + 1}: ${title}` })).toBeVisible();
    }
    await expect(page.getByText("Node.js 24 LTS", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Claude Desktop", exact: true })).toHaveAttribute("target", "_blank");
    await expect(page.getByText("Settings > Developer > Edit Config")).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Next steps" })).toBeVisible();
    await expect(page.locator('article a[href="/guides/setup-and-usage"]')).toBeVisible();
  });

  test("the config block is complete JSON that runs this site's client through npx", async ({ page }) => {
    await page.goto("/getting-started");
    const { text } = await codeBlock(page, "json");
    const config = JSON.parse(text);
    expect(config.mcpServers.agora).toEqual({
      command: "npx",
      args: ["-y", `${siteOrigin}/downloads/agora-mcp-client.tgz`],
      env: {
        AGORA_REGISTRY_URL: `${siteOrigin}/api`,
        ENABLE_REQUEST_ELICITATION: "true",
        ELICITATION_THRESHOLD: "0.01",
      },
    });
  });

  test("shows the SHA-256 of the tarball npx fetches, and the site serves that file", async ({ page, request }) => {
    await page.goto("/getting-started");
    const download = page.getByTestId("package-download");
    await expect(download).toContainText("@agora-mcp/client");
    const link = download.getByRole("link");
    await expect(link).toHaveAttribute(
      "href",
      new RegExp(`^${siteOrigin}/downloads/agora-mcp-client-\\d+\\.\\d+\\.\\d+\\.tgz$`),
    );
    const shown = await download.getByTestId("sha256").innerText();
    for (const url of [`${siteOrigin}/downloads/agora-mcp-client.tgz`, (await link.getAttribute("href"))!]) {
      const res = await request.get(url);
      expect(res.status()).toBe(200);
      expect(
        createHash("sha256")
          .update(await res.body())
          .digest("hex"),
      ).toBe(shown);
    }
  });

  test("the copy button puts the config on the clipboard", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/getting-started");
    const { block, text } = await codeBlock(page, "json");
    await block.getByRole("button", { name: "Copy" }).click();
    await expect(block.getByRole("button", { name: "Copied" })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(JSON.parse(copied)).toEqual(JSON.parse(text));
  });
});

test.describe("Setup and Usage Guide", () => {
  test("covers the client, the wallet, usage, building a server and frameworks", async ({ page }) => {
    await page.goto("/guides/setup-and-usage");
    await expect(page.getByRole("heading", { level: 1, name: "Setup and Usage Guide" })).toBeVisible();
    for (const name of [
      "Setting up the desktop agent client",
      "Your Wallet",
      "Using Agora",
      "Building A Server",
      "Interfacing with agent frameworks",
    ]) {
      await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    }
    await expect(page.getByText(/stored only on your machine/)).toBeVisible();
    await expect(page.getByText(/take a few minutes to arrive/)).toBeVisible();
    await expect(page.getByText("Never share your private key")).toBeVisible();
    await expect(page.getByText('"Show me image generation services on Agora"')).toBeVisible();
    await expect(page.getByText('"Take a screenshot of example.com"')).toBeVisible();
    await expect(page.getByText(/The screenshot service is free/)).toBeVisible();
    await expect(page.getByText(/Wait 1–2 minutes/)).toBeVisible();
    for (const name of ["CDP_API_KEY_ID", "CDP_API_KEY_SECRET", "SERVER_WALLET_ADDRESS"]) {
      await expect(page.getByTestId("code-block").filter({ hasText: name }).first()).toBeVisible();
    }
    for (const type of [
      "MakePurchaseRequest",
      "MakePurchaseResponse",
      "MonetizedMCPServer",
      "PaymentMethodsResponse",
      "PriceListingRequest",
      "PriceListingResponse",
    ]) {
      await expect(page.getByTestId("code-block").filter({ hasText: type }).first()).toBeAttached();
    }
    await expect(page.getByRole("row", { name: /Simple data queries.*\$0\.01–\$0\.05/ })).toBeVisible();
    await expect(page.getByRole("row", { name: /Complex processing.*\$0\.10–\$0\.50/ })).toBeVisible();
    await expect(page.getByRole("row", { name: /Premium services.*\$1\.00 and up/ })).toBeVisible();
  });

  test("links to the other guides, the standards and the video", async ({ page }) => {
    await page.goto("/guides/setup-and-usage");
    const article = page.locator("article");
    for (const href of ["/guides/local-testing-guide", "/guides/aws-step-by-step", "/submit"]) {
      await expect(article.locator(`a[href="${href}"]`).first()).toBeAttached();
    }
    for (const href of ["https://x402.org", "https://modelcontextprotocol.io", "https://portal.cdp.coinbase.com"]) {
      await expect(article.locator(`a[href="${href}"]`).first()).toHaveAttribute("target", "_blank");
    }
    await expect(article.locator('a[href^="https://github.com/"]').first()).toBeAttached();
    const video = article.locator("iframe");
    await expect(video).toHaveAttribute("src", /^https:\/\/www\.youtube-nocookie\.com\/embed\//);
    await expect(video).toHaveAttribute("title", /.{10,}/);
    await expect(video).toHaveAttribute("loading", "lazy");
  });
});

test.describe("Local Testing Guide", () => {
  test("builds and starts the server, then points the host at it", async ({ page }) => {
    await page.goto("/guides/local-testing-guide");
    await expect(page.getByRole("heading", { level: 1, name: "Local Testing Guide" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Prerequisites" })).toBeVisible();
    await expect(page.getByTestId("step")).toHaveCount(2);
    const { text: start } = await codeBlock(page, "bash");
    expect(start).toContain("npm run build");
    expect(start).toContain("npm start");
    await expect(page.getByText(/listens on port/)).toContainText("8080");
    await expect(page.getByTestId("code-block").filter({ hasText: "PORT=" })).toBeVisible();

    const config = JSON.parse((await codeBlock(page, "json")).text);
    expect(config.mcpServers.agora.env).toMatchObject({
      AGORA_REGISTRY_URL: `${siteOrigin}/api`,
      ENABLE_UNSAFE_DIRECT_ACCESS: "true",
    });
    await expect(page.getByText("Show me the services available on my local server.")).toBeVisible();
    await expect(page.getByText(/Fund the host's wallet with USDC/)).toBeVisible();
  });
});

test.describe("AWS deployment guide", () => {
  test("walks through the six steps with their commands", async ({ page }) => {
    await page.goto("/guides/aws-step-by-step");
    await expect(
      page.getByRole("heading", { level: 1, name: "Deploying MCP Server to AWS App Runner using ECR" }),
    ).toBeVisible();
    await expect(page.getByTestId("step")).toHaveCount(6);
    const titles = [
      "Create a Dockerfile",
      "Create a private ECR repository",
      "Authenticate Docker to ECR",
      "Build the image for linux/amd64 and tag it",
      "Push the image to ECR",
      "Create the App Runner service",
    ];
    for (const [i, title] of titles.entries()) {
      await expect(page.getByRole("heading", { level: 2, name: `Step ${i + 1}: ${title}` })).toBeVisible();
    }
    const { text: dockerfile } = await codeBlock(page, "dockerfile");
    expect(dockerfile).toMatch(/^FROM node:22/m);
    expect(dockerfile).toMatch(/^EXPOSE 80$/m);
    expect(dockerfile).toContain("RUN npm install");
    expect(dockerfile).toContain("RUN npm run build");
    expect(dockerfile).toContain('CMD ["npm", "start"]');
    await expect(page.getByTestId("code-block").filter({ hasText: "--platform linux/amd64" })).toBeVisible();
    await expect(page.getByTestId("code-block").filter({ hasText: "docker push" })).toBeVisible();
    await expect(page.getByText(/0\.5 vCPU and 1 GB/)).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "After deployment" })).toBeVisible();
    await expect(page.getByText(/Never commit API keys/)).toBeVisible();
  });
});

test.describe("Terms of Service", () => {
  test("has every section, in order, with the business terms", async ({ page }) => {
    await page.goto("/terms-of-service");
    await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
    await expect(page.getByText("Last updated: August 5, 2025")).toBeVisible();
    await expect(page.locator("article h2")).toHaveText([
      "1. Acceptance of These Terms",
      "2. Definitions",
      "3. Account Registration",
      "4. Service Overview",
      "5. Merchant Listing Rules",
      "6. Payment and Settlement",
      "7. Fees",
      "8. Customer and Agent Terms",
      "9. Prohibited Activities",
      "10. Content Rights",
      "11. Copyright Complaints",
      "12. Third-Party Services",
      "13. Indemnification",
      "14. Confidentiality",
      "15. Warranty Disclaimer",
      "16. Limitation of Liability",
      "17. Arbitration",
      "18. Termination",
      "19. Disputes Between Users",
      "20. Government Rights",
      "21. Contact",
    ]);
    for (const term of ["Merchant", "Agent", "Customer", "User", "Registry", "Listing"]) {
      await expect(page.locator("article li strong", { hasText: new RegExp(`^${term}$`) })).toBeVisible();
    }
    await expect(page.getByText(/at least 18 years old/)).toBeVisible();
    await expect(page.getByText(/SIX MONTHS .* ONE HUNDRED U\.S\. DOLLARS \(\$100\)/)).toBeVisible();
    await expect(page.getByText(/not resolved within 60 days/)).toBeVisible();
    await expect(page.getByText(/within 30 days after the change is posted/)).toBeVisible();
    await expect(page.getByText(/currently charges no marketplace fee/)).toBeVisible();
    await expect(page.getByText(/\(price parity\)/)).toBeVisible();
    await expect(page.getByText(/without our prior written consent/).first()).toBeVisible();
    await expect(page.getByText(/is not the merchant of record/)).toBeVisible();
    await expect(page.locator("article").getByRole("link", { name: contactEmail }).last()).toHaveAttribute(
      "href",
      `mailto:${contactEmail}`,
    );
  });
});

test.describe("Privacy Policy", () => {
  test("covers every topic", async ({ page }) => {
    await page.goto("/privacy-policy");
    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
    await expect(page.getByText("Last updated: August 5, 2025")).toBeVisible();
    for (const name of [
      /Controller/,
      /Data We Collect/,
      /How We Use and Share Data/,
      /Hosting/,
      /Retention/,
      /Your Rights/,
      /Children/,
      /Disclosures for US State Privacy Laws/,
      /Lawful Bases/,
      /Transfers to the United States/,
      /Changes to This Policy/,
      /Contact Us/,
    ]) {
      await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    }
    for (const item of [
      "Name and email address",
      "Business and server details",
      "Wallet addresses",
      "Payment method information",
      "OAuth information from GitHub and Google",
      "General location",
      "Device and browser data",
      "Logs",
      "Search data",
    ]) {
      await expect(page.locator("article li strong", { hasText: new RegExp(`^${item}$`) })).toBeVisible();
    }
    await expect(page.getByText("We do not sell personal data")).toBeVisible();
    await expect(page.getByText(/httpOnly session cookie/)).toBeVisible();
    await expect(page.getByText(/cloud provider in the United States/)).toBeVisible();
    await expect(page.getByText(/\(GDPR\)/).first()).toBeVisible();
    await expect(page.getByText(/\(CCPA, as amended by the CPRA\)/)).toBeVisible();
    await expect(page.getByText(/not intended for anyone under 18/)).toBeVisible();
  });

  const tables = [
    {
      name: "Categories of personal information we collect and disclose",
      row: "Identifiers",
      label: "Disclosed to",
      value: "Hosting, email and sign-in providers",
    },
    {
      name: "Purposes of processing and their lawful bases",
      row: "Sending the newsletter",
      label: "Lawful basis",
      value: /Consent, which you can withdraw/,
    },
  ];

  test("tables are real tables on wide screens", async ({ page, isMobile }) => {
    test.skip(isMobile, "phones get accordions instead");
    await page.goto("/privacy-policy");
    for (const { name, row, value } of tables) {
      const table = page.getByRole("table", { name });
      await expect(table).toBeVisible();
      await expect(table.getByRole("row", { name: new RegExp(row) })).toContainText(value);
      await expect(page.getByRole("group", { name })).toBeHidden();
    }
  });

  test("tables collapse into accordions that expand on tap on phones", async ({ page, isMobile }) => {
    test.skip(!isMobile, "wide screens get tables");
    await page.goto("/privacy-policy");
    for (const { name, row, label, value } of tables) {
      await expect(page.getByRole("table", { name })).toBeHidden();
      const group = page.getByRole("group", { name });
      await expect(group).toBeVisible();
      const trigger = group.getByRole("button", { name: row });
      await expect(trigger).toHaveAttribute("aria-expanded", "false");
      await expect(group.getByText(value)).toBeHidden();
      await trigger.click();
      await expect(trigger).toHaveAttribute("aria-expanded", "true");
      const panel = group.getByRole("region", { name: row });
      await expect(panel.getByText(label, { exact: true })).toBeVisible();
      await expect(panel.getByText(value)).toBeVisible();
    }
  });
});
