CREATE TABLE "buyer_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid NOT NULL,
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"payer" text NOT NULL,
	"payee" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"delivered" boolean NOT NULL,
	"signature" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "buyer_receipts" ADD CONSTRAINT "buyer_receipts_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "buyer_receipts_sale_key" ON "buyer_receipts" USING btree ("chain_id","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "buyer_receipts_listing_idx" ON "buyer_receipts" USING btree ("listing_id","paid_at" DESC NULLS LAST);