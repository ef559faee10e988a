import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/**
 * Class names with conflicting Tailwind classes resolved (the last wins). Client components on public pages call
 * `clsx` instead, which only joins: tailwind-merge is 8.7 kB of a page's first load and, on its first call, 13–18 ms
 * of a phone's main thread building its tables (Chromium's profile of a page load: bench/RESULTS.md). There, where a
 * caller may change what a base class sets, the component leaves that base class out rather than rely on merging.
 */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
