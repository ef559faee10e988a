import * as React from "react";
import { cn } from "@/lib/utils";

function Kbd({ className, ...props }: React.ComponentProps<"kbd">) {
  return (
    <kbd
      data-slot="kbd"
      className={cn(
        "bg-background text-muted-foreground inline-flex h-5 min-w-5 items-center justify-center gap-1 rounded border px-1 font-sans text-[11px] font-medium shadow-[0_1px_0_0_var(--color-border)] select-none",
        className,
      )}
      {...props}
    />
  );
}

export { Kbd };
