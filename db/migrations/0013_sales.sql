CREATE TABLE "listing_sales" (
	"listing_id" uuid NOT NULL,
	"network" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"payer" text NOT NULL,
	"payee" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "listing_sales_network_tx_hash_log_index_listing_id_pk" PRIMARY KEY("network","tx_hash","log_index","listing_id")
);
--> statement-breakpoint
CREATE TABLE "sales_cursors" (
	"network" text PRIMARY KEY NOT NULL,
	"block" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listing_sales" ADD CONSTRAINT "listing_sales_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_sales_listing_time_idx" ON "listing_sales" USING btree ("listing_id","block_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "listing_sales_network_block_idx" ON "listing_sales" USING btree ("network","block_number");--> statement-breakpoint
-- A new or undone sale changes what search and its cache answer (figures, the "Most purchased" order, ranking).
CREATE TRIGGER "listing_sales_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "listing_sales" FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();
