import type { ProbedTool } from "@/lib/probe/types";
import { toolPaymentViews } from "@/lib/listings/presenters/tool-payments";

/** Each paid tool a check read: its payment style, what its unpaid calls found, and the offers Agora refused. */
export function ToolPayments({ tools }: { tools: readonly ProbedTool[] }) {
  const views = toolPaymentViews(tools);
  if (views.length === 0) return null;
  return (
    <div data-testid="tool-payments">
      <p className="font-medium">Paid tools</p>
      <ul className="mt-1 space-y-2">
        {views.map((view) => (
          <li key={view.tool} className="rounded border bg-background/60 px-2 py-1.5">
            <p className="break-words">
              <code className="font-mono text-xs">{view.tool}</code>{" "}
              <span className="text-xs text-muted-foreground">({view.reason})</span>
            </p>
            <p className="text-xs text-muted-foreground">
              {view.style ? `Payment: ${view.style}` : "Payment style not read"}
            </p>
            <p className="break-words">{view.status}</p>
            {view.refused.length > 0 && (
              <ul className="mt-1 list-disc pl-5 text-xs break-words text-muted-foreground" aria-label="Refused offers">
                {view.refused.map((refusal) => (
                  <li key={refusal}>{refusal}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
