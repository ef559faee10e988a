CREATE TABLE "listing_sales_buyers" (
	"listing_id" uuid NOT NULL,
	"payer" text NOT NULL,
	"sales" integer NOT NULL,
	"last_day" date NOT NULL,
	CONSTRAINT "listing_sales_buyers_listing_id_payer_pk" PRIMARY KEY("listing_id","payer")
);
--> statement-breakpoint
CREATE TABLE "listing_sales_days" (
	"listing_id" uuid NOT NULL,
	"day" date NOT NULL,
	"sales" integer NOT NULL,
	"volume" numeric(78, 0) NOT NULL,
	"last_buyers" integer NOT NULL,
	CONSTRAINT "listing_sales_days_listing_id_day_pk" PRIMARY KEY("listing_id","day")
);
--> statement-breakpoint
CREATE TABLE "listing_sales_totals" (
	"listing_id" uuid PRIMARY KEY NOT NULL,
	"sales" integer NOT NULL,
	"buyers" integer NOT NULL,
	"volume" numeric(78, 0) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_payees" (
	"network" text NOT NULL,
	"listing_id" uuid NOT NULL,
	"payee" text NOT NULL,
	"from_block" bigint NOT NULL,
	"to_block" bigint NOT NULL,
	"next_block" bigint NOT NULL,
	CONSTRAINT "sales_payees_network_listing_id_payee_pk" PRIMARY KEY("network","listing_id","payee")
);
--> statement-breakpoint
ALTER TABLE "sales_cursors" ADD COLUMN "first_block" bigint;--> statement-breakpoint
ALTER TABLE "listing_sales_buyers" ADD CONSTRAINT "listing_sales_buyers_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_sales_days" ADD CONSTRAINT "listing_sales_days_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_sales_totals" ADD CONSTRAINT "listing_sales_totals_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_payees" ADD CONSTRAINT "sales_payees_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_sales_buyers_last_day_idx" ON "listing_sales_buyers" USING btree ("listing_id","last_day");--> statement-breakpoint
-- The roll-ups of the sales already indexed, exact from the raw rows (UTC days).
INSERT INTO "listing_sales_buyers" ("listing_id", "payer", "sales", "last_day")
SELECT "listing_id", "payer", count(*), max(("block_time" AT TIME ZONE 'UTC')::date) FROM "listing_sales" GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "listing_sales_days" ("listing_id", "day", "sales", "volume", "last_buyers")
SELECT "listing_id", ("block_time" AT TIME ZONE 'UTC')::date, count(*), sum("amount"), 0 FROM "listing_sales" GROUP BY 1, 2;--> statement-breakpoint
UPDATE "listing_sales_days" d SET "last_buyers" = b.n
FROM (SELECT "listing_id", "last_day", count(*) AS n FROM "listing_sales_buyers" GROUP BY 1, 2) b
WHERE b."listing_id" = d."listing_id" AND b."last_day" = d."day";--> statement-breakpoint
INSERT INTO "listing_sales_totals" ("listing_id", "sales", "buyers", "volume")
SELECT "listing_id", count(*), count(DISTINCT "payer"), sum("amount") FROM "listing_sales" GROUP BY 1;--> statement-breakpoint
-- Every payee of a listing that already has sales was read from the network's first run on: nothing to back-fill.
INSERT INTO "sales_payees" ("network", "listing_id", "payee", "from_block", "to_block", "next_block")
SELECT DISTINCT s."network", s."listing_id", s."payee", 0, -1, 0 FROM "listing_sales" s;
