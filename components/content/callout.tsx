import { Info, Lightbulb, TriangleAlert } from "lucide-react";
import { cn } from "@/lib/utils";

const kinds = {
  note: { icon: Info, className: "border-sky-200 bg-sky-50/70 [&_svg]:text-sky-700", label: "Note" },
  tip: { icon: Lightbulb, className: "border-emerald-200 bg-emerald-50/70 [&_svg]:text-emerald-700", label: "Tip" },
  warning: { icon: TriangleAlert, className: "border-amber-300 bg-amber-50 [&_svg]:text-amber-700", label: "Warning" },
} as const;

/** A boxed aside in guides, for what a reader must not miss (a key to keep secret, a testnet-only rule). */
export function Callout({
  kind = "note",
  title,
  children,
}: {
  kind?: keyof typeof kinds;
  title?: string;
  children: React.ReactNode;
}) {
  const { icon: Icon, className, label } = kinds[kind];
  return (
    <aside
      role="note"
      aria-label={title ?? label}
      className={cn("my-6 flex gap-3 rounded-lg border px-4 py-3", className)}
    >
      <Icon className="mt-1 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 [&>p]:my-1">
        {title && <p className="font-semibold text-foreground">{title}</p>}
        {children}
      </div>
    </aside>
  );
}
