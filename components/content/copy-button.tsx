"use client";
import { useState } from "react";
import { Check, Copy } from "lucide-react";

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // sonner loads only when needed, so pages with code blocks do not carry it in their first load.
      const { toast } = await import("sonner");
      toast.error("Could not copy", { description: "Select the text and copy it by hand." });
    }
  }
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={copied ? "Copied" : label}
      className="inline-flex items-center gap-1.5 rounded-md border bg-white/90 px-2 py-1 text-xs font-medium text-foreground/70 shadow-xs transition hover:text-foreground"
    >
      {copied ? <Check className="size-3.5 text-emerald-600" /> : <Copy className="size-3.5" />}
      {copied ? "Copied" : label}
    </button>
  );
}
