"use client";
import { useState } from "react";
import { useController, type Control } from "react-hook-form";
import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { readServerTools } from "@/lib/actions/read-server-tools";
import type { ToolChoice, ToolChoices } from "@/lib/listings/submit/tool-choices";
import type { ServerSubmissionValues } from "@/lib/validations/server-submission";

// The probe asks a named tool once, and once more when it asked for payment (a price that moves is not listed).
const CONSENT_LABEL = "Read each ticked tool's price by calling it unpaid, up to twice per check";

type Row = ToolChoice & { listed: boolean };

/** The checklist: the server's tools as read, then any named tool the server no longer lists (an edit's). */
function rowsOf(choices: ToolChoices | null, named: string[]): Row[] {
  const listed: Row[] = (choices?.tools ?? []).map((t) => ({ ...t, listed: true }));
  const gone = named
    .filter((n) => !listed.some((t) => t.name === n))
    .map((name) => ({ name, description: null, markedPaid: false, unnameable: null, listed: choices === null }));
  return [...listed, ...gone];
}

/**
 * "Which tools charge?": the owner names the tools the server charges for when its tool list does not say so. The
 * list comes from the server's tools/list (read by a server action; no tool is called); tools the server marks paid
 * itself are read anyway and shown checked and disabled. Naming any tool needs the consent box ticked.
 */
export function PaidToolsField({
  control,
  serverUrl,
}: {
  control: Control<ServerSubmissionValues>;
  serverUrl: string;
}) {
  const paid = useController({ control, name: "paidTools" });
  const consent = useController({ control, name: "readPricesConsent" });
  const [choices, setChoices] = useState<ToolChoices | null>(null);
  const [reading, setReading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const named = paid.field.value ?? [];
  const rows = rowsOf(choices, named);

  async function read() {
    setReading(true);
    setProblem(null);
    const result = await readServerTools({ mcpServerUrl: serverUrl }).catch(() => ({
      ok: false as const,
      message: "An unknown error occurred",
      errors: undefined,
    }));
    setReading(false);
    if (!result.ok) return setProblem(result.errors?.mcpServerUrl?.[0] ?? result.message);
    setChoices(result.data);
    // A tool the server marks paid is read without being named: a name for it would only be one to keep in step.
    const marked = new Set(result.data.tools.filter((t) => t.markedPaid).map((t) => t.name));
    if (named.some((n) => marked.has(n))) paid.field.onChange(named.filter((n) => !marked.has(n)));
  }

  const toggle = (name: string, on: boolean) =>
    paid.field.onChange(on ? [...named, name] : named.filter((n) => n !== name));
  const listError = paid.fieldState.error;
  const listMessage = listError?.message ?? (Array.isArray(listError) ? listError.find(Boolean)?.message : undefined);
  return (
    <fieldset className="grid gap-3 rounded-lg border p-4" aria-describedby="paid-tools-hint">
      <legend className="px-1 text-sm font-medium">
        Which tools charge? <span className="font-normal text-muted-foreground">(optional)</span>
      </legend>
      <p id="paid-tools-hint" className="text-xs text-muted-foreground">
        Many paid MCP servers say nothing in their tool list about which tools cost money. Name yours and Agora reads
        each one&apos;s price by calling it without paying: a paid tool asks for payment before it runs. Every check
        calls each named tool unpaid, and a second time when it asked for payment to see that its price holds, so name
        only tools that charge: a free tool named here would run.
      </p>
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="justify-self-start"
        onClick={read}
        disabled={reading || !serverUrl}
      >
        {reading && <Loader2 className="animate-spin" />}
        {reading ? "Reading the tool list..." : "Read the server's tools"}
      </Button>
      {problem && (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
      {choices && choices.tools.length === 0 && (
        <p className="text-sm text-muted-foreground">The server lists no tools that could be named as paid.</p>
      )}
      {rows.length > 0 && (
        <ul className="grid gap-2" aria-label="The server's tools">
          {rows.map((row) => (
            <ToolRow
              key={row.name}
              row={row}
              checked={row.markedPaid || named.includes(row.name)}
              onChange={(on) => toggle(row.name, on)}
            />
          ))}
        </ul>
      )}
      {choices?.cut && (
        <p className="text-xs text-muted-foreground">Showing the server&apos;s first {choices.tools.length} tools.</p>
      )}
      {listMessage && <p className="text-sm text-destructive">{listMessage}</p>}
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-primary"
          checked={consent.field.value === true}
          onChange={(e) => consent.field.onChange(e.target.checked)}
          aria-invalid={consent.fieldState.error ? true : undefined}
          aria-describedby={consent.fieldState.error ? "paid-tools-consent-error" : undefined}
        />
        <span>{CONSENT_LABEL}</span>
      </label>
      {consent.fieldState.error && (
        <p id="paid-tools-consent-error" className="text-sm text-destructive">
          {consent.fieldState.error.message}
        </p>
      )}
    </fieldset>
  );
}

function ToolRow({ row, checked, onChange }: { row: Row; checked: boolean; onChange: (on: boolean) => void }) {
  const disabled = row.markedPaid || (row.unnameable !== null && !checked);
  return (
    <li>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-primary"
          checked={checked}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span className="min-w-0">
          <code className="font-mono text-xs break-all">{row.name}</code>
          {row.markedPaid && <span className="ml-2 text-xs text-muted-foreground">marked paid by the server</span>}
          {!row.listed && <span className="ml-2 text-xs text-amber-700">not in the server&apos;s tool list</span>}
          {row.unnameable && <span className="ml-2 text-xs text-destructive">{row.unnameable}</span>}
          {row.description && (
            <span className="block text-xs break-words text-muted-foreground">{row.description}</span>
          )}
        </span>
      </label>
    </li>
  );
}
