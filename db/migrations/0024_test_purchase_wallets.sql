-- Test purchases: each test wallet has its own daily budget (a new key, a sandbox restart, starts at 0 spent).
-- Rows from before have the wallet '' and count for no wallet.
ALTER TABLE "test_purchase_spending" DROP CONSTRAINT "test_purchase_spending_pkey";--> statement-breakpoint
ALTER TABLE "test_purchase_spending" ADD COLUMN "wallet" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "test_purchase_spending" ADD CONSTRAINT "test_purchase_spending_wallet_day_pk" PRIMARY KEY("wallet","day");--> statement-breakpoint
ALTER TABLE "test_purchases" ADD COLUMN "wallet" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The sample catalogue's made-up hosts move under the reserved .example name (lib/sample-catalogue), so probing
-- a sample seeded before asks no DNS server either. Only rows whose URL is exactly a sample's old one change.
UPDATE "listings" SET "server_url" = v.new_url
FROM (VALUES
  ('https://scraper.mcpdemo.dev/mcp', 'https://scraper.mcpdemo.example/mcp'),
  ('https://screenshots.mcpdemo.dev/mcp', 'https://screenshots.mcpdemo.example/mcp'),
  ('https://image-studio.mcpdemo.dev/mcp', 'https://image-studio.mcpdemo.example/mcp'),
  ('https://oracle.chainfeeds.io/mcp', 'https://oracle.chainfeeds.example/mcp'),
  ('https://risk.walletguard.xyz/mcp', 'https://risk.walletguard.example/mcp'),
  ('https://filings.ledgerlens.com/mcp', 'https://filings.ledgerlens.example/mcp'),
  ('https://enrich.firmographics.ai/mcp', 'https://enrich.firmographics.example/mcp'),
  ('https://search.deepquery.dev/mcp', 'https://search.deepquery.example/mcp'),
  ('https://news.pulsewire.io/mcp', 'https://news.pulsewire.example/mcp'),
  ('https://review.patchpilot.dev/mcp', 'https://review.patchpilot.example/mcp'),
  ('https://audit.lockcheck.dev/mcp', 'https://audit.lockcheck.example/mcp'),
  ('https://weather.skyapi.dev/mcp', 'https://weather.skyapi.example/mcp'),
  ('https://flights.tripwise.app/mcp', 'https://flights.tripwise.example/mcp'),
  ('https://ocr.paperless.tools/mcp', 'https://ocr.paperless.example/mcp'),
  ('https://translate.polyglot.ai/mcp', 'https://translate.polyglot.example/mcp'),
  ('https://analytics.basescan.tools/mcp', 'https://analytics.basescan.example/mcp'),
  ('https://nft.metaresolve.xyz/mcp', 'https://nft.metaresolve.example/mcp'),
  ('https://markets.tickerfeed.com/mcp', 'https://markets.tickerfeed.example/mcp'),
  ('https://invoices.billkit.io/mcp', 'https://invoices.billkit.example/mcp'),
  ('https://clauses.lexagent.ai/mcp', 'https://clauses.lexagent.example/mcp'),
  ('https://research.scholarly.ai/mcp', 'https://research.scholarly.example/mcp'),
  ('https://verify.mailcheck.dev/mcp', 'https://verify.mailcheck.example/mcp'),
  ('https://geo.placefinder.dev/mcp', 'https://geo.placefinder.example/mcp'),
  ('https://routes.placefinder.dev/mcp', 'https://routes.placefinder.example/mcp'),
  ('https://tts.voicebox.ai/mcp', 'https://tts.voicebox.example/mcp'),
  ('https://transcribe.voicebox.ai/mcp', 'https://transcribe.voicebox.example/mcp'),
  ('https://sentiment.moodmeter.dev/mcp', 'https://sentiment.moodmeter.example/mcp'),
  ('https://cutout.pixelkit.app/mcp', 'https://cutout.pixelkit.example/mcp'),
  ('https://upscale.pixelkit.app/mcp', 'https://upscale.pixelkit.example/mcp'),
  ('https://gas.chainfeeds.io/mcp', 'https://gas.chainfeeds.example/mcp'),
  ('https://audit.solsafe.xyz/mcp', 'https://audit.solsafe.example/mcp'),
  ('https://domains.netrecon.io/mcp', 'https://domains.netrecon.example/mcp'),
  ('https://meals.pantrypal.app/mcp', 'https://meals.pantrypal.example/mcp'),
  ('https://boba.mcpdemo.dev/mcp', 'https://boba.mcpdemo.example/mcp'),
  ('https://shop.pricehound.io/mcp', 'https://shop.pricehound.example/mcp'),
  ('https://fx.ratesapi.dev/mcp', 'https://fx.ratesapi.example/mcp'),
  ('https://pdf.doctools.dev/mcp', 'https://pdf.doctools.example/mcp'),
  ('https://schedule.slotfinder.app/mcp', 'https://schedule.slotfinder.example/mcp'),
  ('https://monitor.listenly.io/mcp', 'https://monitor.listenly.example/mcp'),
  ('https://seo.rankscope.dev/mcp', 'https://seo.rankscope.example/mcp'),
  ('https://patents.priorart.ai/mcp', 'https://patents.priorart.example/mcp'),
  ('https://faucet.mcpdemo.dev/mcp', 'https://faucet.mcpdemo.example/mcp'),
  ('https://pending.example.com/mcp', 'https://pending.sample.example/mcp'),
  ('https://rejected.example.com/mcp', 'https://rejected.sample.example/mcp')
) AS v(old_url, new_url)
WHERE "listings"."server_url" = v.old_url
  AND NOT EXISTS (SELECT 1 FROM "listings" taken WHERE taken."server_url" = v.new_url);--> statement-breakpoint
UPDATE "listings" SET "website_url" = v.new_url
FROM (VALUES
  ('https://scraper.mcpdemo.dev', 'https://scraper.mcpdemo.example'),
  ('https://screenshots.mcpdemo.dev', 'https://screenshots.mcpdemo.example'),
  ('https://image-studio.mcpdemo.dev', 'https://image-studio.mcpdemo.example'),
  ('https://chainfeeds.io', 'https://chainfeeds.example'),
  ('https://walletguard.xyz', 'https://walletguard.example'),
  ('https://ledgerlens.com', 'https://ledgerlens.example'),
  ('https://deepquery.dev', 'https://deepquery.example'),
  ('https://pulsewire.io', 'https://pulsewire.example'),
  ('https://patchpilot.dev', 'https://patchpilot.example'),
  ('https://skyapi.dev', 'https://skyapi.example'),
  ('https://tripwise.app', 'https://tripwise.example'),
  ('https://paperless.tools', 'https://paperless.example'),
  ('https://basescan.tools', 'https://basescan.example'),
  ('https://tickerfeed.com', 'https://tickerfeed.example'),
  ('https://lexagent.ai', 'https://lexagent.example'),
  ('https://scholarly.ai', 'https://scholarly.example'),
  ('https://placefinder.dev', 'https://placefinder.example'),
  ('https://voicebox.ai', 'https://voicebox.example'),
  ('https://pixelkit.app', 'https://pixelkit.example'),
  ('https://chainfeeds.io/gas', 'https://chainfeeds.example/gas'),
  ('https://solsafe.xyz', 'https://solsafe.example'),
  ('https://mcpdemo.dev', 'https://mcpdemo.example'),
  ('https://pricehound.io', 'https://pricehound.example'),
  ('https://ratesapi.dev', 'https://ratesapi.example'),
  ('https://listenly.io', 'https://listenly.example'),
  ('https://rankscope.dev', 'https://rankscope.example'),
  ('https://mcpdemo.dev/faucet', 'https://mcpdemo.example/faucet')
) AS v(old_url, new_url)
WHERE "listings"."website_url" = v.old_url
  AND "listings"."server_url" LIKE '%.example/mcp%';
