-- Tools an upstream entry names as paid (an x402 discovery entry's tool, a registry entry's _meta), kept with the
-- candidate so every check of it calls them unpaid again to read their price.
ALTER TABLE "ingested_servers" ADD COLUMN "paid_tools" jsonb DEFAULT '[]'::jsonb NOT NULL;
