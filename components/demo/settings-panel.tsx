import { ArrowLeft } from "lucide-react";
import { Button } from "@/components/ui/button";
import { formatUsd } from "@/lib/demo/chat";
import { settings, wallet } from "@/lib/demo/script";

/** Read-only demo settings, shown in place of the conversation. */
export function SettingsPanel({ balance, onClose }: { balance: number; onClose: () => void }) {
  const rows: { label: string; value: string; hint?: string }[] = [
    { label: "Wallet balance", value: `${formatUsd(balance)} USDC` },
    { label: "Wallet address", value: wallet.address },
    { label: "Network", value: wallet.network },
    { label: "Payment method", value: wallet.paymentMethod },
    { label: "Model", value: settings.model },
    { label: "Registry server", value: settings.registry },
    {
      label: "Elicitation threshold",
      value: `${settings.elicitationThreshold} USDC`,
      hint: "With elicitation on, purchases above this amount ask you to confirm first. It is off in this demo.",
    },
  ];
  return (
    <section aria-labelledby="demo-settings-heading" className="min-h-0 flex-1 overflow-y-auto px-4 py-6 sm:px-8">
      <div className="mx-auto max-w-xl">
        <h2 id="demo-settings-heading" className="text-xl font-semibold tracking-tight">
          Settings
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">Read-only values for this demo.</p>
        <dl className="mt-6 divide-y rounded-xl border bg-background shadow-xs">
          {rows.map((row) => (
            <div key={row.label} className="grid gap-1 px-4 py-3 sm:grid-cols-[11rem_1fr] sm:gap-4">
              <dt className="text-sm text-muted-foreground">{row.label}</dt>
              <dd className="min-w-0 text-sm font-medium break-words">
                {row.value}
                {row.hint && <p className="mt-1 text-xs font-normal text-muted-foreground">{row.hint}</p>}
              </dd>
            </div>
          ))}
        </dl>
        <Button variant="outline" className="mt-6" onClick={onClose}>
          <ArrowLeft aria-hidden="true" /> Back to chat
        </Button>
      </div>
    </section>
  );
}
