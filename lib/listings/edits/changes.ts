// What an edit changes, field by field, as the owner and the reviewer read it.
import type { EditInput } from "@/db/queries/listing-write";
import type { ApprovedTerms, EditCheck } from "@/db/schema";

export type EditChange = { field: string; before: string; after: string };

const FIELDS: { key: keyof EditInput; label: string }[] = [
  { key: "name", label: "Name" },
  { key: "description", label: "Description" },
  { key: "categories", label: "Categories" },
  { key: "serverUrl", label: "MCP Server URL" },
  { key: "websiteUrl", label: "Website URL" },
  { key: "paidTools", label: "Tools named as paid" },
];

const text = (value: EditInput[keyof EditInput]) =>
  Array.isArray(value) ? value.join(", ") : value instanceof Date ? value.toISOString() : (value ?? "");

/**
 * The prices and payees an edit's check found that differ from the approved ones: a change a check held for review
 * (a steep rise, another payee) is an edit of the listing's terms, with its text unchanged.
 */
export function termsChanges(approved: ApprovedTerms | null, check: EditCheck | null): EditChange[] {
  if (!approved || !check?.reachable) return [];
  const prices = (items: { name: string; amount: number; currency: string }[]) =>
    items.map((i) => `${i.name}: ${i.amount} ${i.currency}`).join("\n");
  const payees = (methods: { paymentMethod: string; walletAddress: string }[]) =>
    methods.map((m) => `${m.paymentMethod} → ${m.walletAddress}`).join("\n");
  const pairs = [
    {
      field: "Prices",
      before: prices(approved.prices),
      after: check.pricesRead ? prices(check.pricedItems) : prices(approved.prices),
    },
    {
      field: "Payee wallets",
      before: payees(approved.wallets),
      after: check.paymentMethods.length ? payees(check.paymentMethods) : payees(approved.wallets),
    },
  ];
  return pairs
    .filter((p) => p.before.toLowerCase() !== p.after.toLowerCase())
    .map((p) => ({ field: p.field, before: p.before || "none", after: p.after || "none" }));
}

/** The fields `proposed` changes from `current`, in the form's order (empty when it changes nothing). */
export function editChanges(current: EditInput, proposed: EditInput): EditChange[] {
  return FIELDS.flatMap(({ key, label }) => {
    const before = text(current[key]);
    const after = text(proposed[key]);
    return before === after ? [] : [{ field: label, before: before || "none", after: after || "none" }];
  });
}
