"use client";
import { usePathname } from "next/navigation";
import { useEffect } from "react";

/** Every navigation to another page starts at the top (Next only scrolls the changed segment into view). */
export function ScrollToTop() {
  const pathname = usePathname();
  useEffect(() => {
    if (!window.location.hash) window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
