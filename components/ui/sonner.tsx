"use client";
import { useEffect, useState, type ComponentType } from "react";
import type { ToasterProps } from "sonner";

// sonner is ~13 kB gzip that no page needs to paint: the toaster loads after hydration (a plain dynamic
// import; next/dynamic would add ~5 kB of its own). Toasts raised before it mounts are not lost — sonner
// replays the active toasts to a toaster that subscribes late.
function Toaster(props: ToasterProps) {
  const [Sonner, setSonner] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => {
    let live = true;
    void import("sonner").then((m) => live && setSonner(() => m.Toaster));
    return () => {
      live = false;
    };
  }, []);
  if (!Sonner) return null;
  return <Sonner theme="light" position="bottom-right" richColors closeButton className="toaster group" {...props} />;
}

export { Toaster };
