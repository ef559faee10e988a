// What an edit changes, field by field, as the owner and the reviewer read it.
import type { EditInput } from "@/db/queries/listing-write";

export type EditChange = { field: string; before: string; after: string };

const FIELDS: { key: keyof EditInput; label: string }[] = [
  { key: "name", label: "Name" },
  { key: "description", label: "Description" },
  { key: "categories", label: "Categories" },
  { key: "serverUrl", label: "MCP Server URL" },
  { key: "websiteUrl", label: "Website URL" },
];

const text = (value: EditInput[keyof EditInput]) => (Array.isArray(value) ? value.join(", ") : (value ?? ""));

/** The fields `proposed` changes from `current`, in the form's order (empty when it changes nothing). */
export function editChanges(current: EditInput, proposed: EditInput): EditChange[] {
  return FIELDS.flatMap(({ key, label }) => {
    const before = text(current[key]);
    const after = text(proposed[key]);
    return before === after ? [] : [{ field: label, before: before || "none", after: after || "none" }];
  });
}
