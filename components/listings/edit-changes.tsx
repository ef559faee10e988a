import type { EditChange } from "@/lib/listings/edits/changes";

/** What an edit changes, field by field: the approved value struck through, the edited one after it. */
export function EditChanges({ changes }: { changes: EditChange[] }) {
  if (changes.length === 0) return <p className="text-sm text-muted-foreground">The edit changes nothing.</p>;
  return (
    <dl className="grid gap-2 text-sm" data-testid="edit-changes">
      {changes.map((c) => (
        <div key={c.field} className="min-w-0">
          <dt className="font-medium">{c.field}</dt>
          <dd className="mt-0.5 grid gap-0.5 whitespace-pre-line wrap-anywhere">
            <span className="text-muted-foreground">
              <span className="sr-only">Approved: </span>
              <del>{c.before}</del>
            </span>
            <span>
              <span className="sr-only">Edited: </span>
              <ins className="no-underline">{c.after}</ins>
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
