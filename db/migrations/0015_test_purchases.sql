CREATE TYPE "public"."test_purchase_outcome" AS ENUM('pending', 'delivered', 'not-delivered', 'refused', 'drift');--> statement-breakpoint
CREATE TABLE "test_purchase_exclusions" (
	"listing_id" uuid NOT NULL,
	"item" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_purchase_exclusions_listing_id_item_pk" PRIMARY KEY("listing_id","item")
);
--> statement-breakpoint
CREATE TABLE "test_purchase_spending" (
	"day" date PRIMARY KEY NOT NULL,
	"spent_units" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid NOT NULL,
	"item" text NOT NULL,
	"network" text NOT NULL,
	"pay_to" text,
	"units" bigint DEFAULT 0 NOT NULL,
	"outcome" "test_purchase_outcome" DEFAULT 'pending' NOT NULL,
	"money" text DEFAULT 'none' NOT NULL,
	"transaction" text,
	"delivered_ms" integer,
	"note" text,
	"day" date DEFAULT (now() at time zone 'utc')::date NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "test_purchase_exclusions" ADD CONSTRAINT "test_purchase_exclusions_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_purchases" ADD CONSTRAINT "test_purchases_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "test_purchases_listing_started_idx" ON "test_purchases" USING btree ("listing_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE TRIGGER "test_purchases_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "test_purchases" FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();
