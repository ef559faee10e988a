/**
 * Class names joined as written, for client components on public pages: `cn()` resolves conflicting Tailwind
 * classes with tailwind-merge, which is 8.7 kB of a page's first load and, on its first call, 13–18 ms of a phone's
 * main thread building its tables (measured in Chromium's profile of a page load: bench/RESULTS.md). Where a caller
 * may change what a base class sets, the component leaves that base class out rather than rely on merging.
 */
export function joinClasses(...classes: (string | false | null | undefined)[]): string {
  return classes.filter(Boolean).join(" ");
}
