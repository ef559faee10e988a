"use server";
import { changedByAction } from "@/lib/cache/invalidate-action";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { chooseItemExclusion } from "@/lib/test-purchases/owner";
import { userAction } from "./result";

const schema = z.object({
  listingId: z.uuid("Unknown listing."),
  item: z.string().trim().min(1).max(200),
  excluded: z.boolean(),
});

/** An owner keeps one of their items out of Agora's test purchases (or lets them buy it again). */
export async function excludeTestItem(input: z.input<typeof schema>) {
  return userAction("excludeTestItem", schema, input, async (values, userId) => {
    await chooseItemExclusion(await getDb(), userId, values);
    changedByAction([], ["/account"]);
    return values;
  });
}
