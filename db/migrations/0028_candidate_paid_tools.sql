-- Tools an upstream entry names as paid (an x402 discovery entry's tool, a registry entry's _meta), kept with the
-- candidate so every check of it, and of the listing it became, calls them unpaid again to read their price.
ALTER TABLE "ingested_servers" ADD COLUMN "paid_tools" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "ingested_servers_listing_idx" ON "ingested_servers" USING btree ("listing_id");