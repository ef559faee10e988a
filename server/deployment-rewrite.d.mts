// Types for server/deployment-rewrite.mjs (plain JavaScript: the preloads and the route cache handler load it).
export type DeploymentSettings = { siteUrl: string; contactEmail: string };
export type DeploymentRewriter = {
  from: DeploymentSettings;
  to: DeploymentSettings;
  /** Markup or plain text (no length-prefixed rows). */
  text(s: string): string;
  /** An RSC payload, its text rows' lengths kept right. */
  flight(bytes: Buffer): Buffer;
  /** A prerendered page with its inlined RSC stream. */
  html(page: string): string;
  /** A gzipped tar archive (npm pack's). */
  tarball(gzipped: Buffer): Buffer;
};
export declare const DEFAULT_SITE_URL: string;
export declare const DEFAULT_CONTACT_EMAIL: string;
export declare function runtimeSettings(environment?: Record<string, string | undefined>): DeploymentSettings;
export declare function createRewriter(
  from: DeploymentSettings,
  to: DeploymentSettings,
  literals?: [string, string][],
): DeploymentRewriter | null;
export declare function servedTarball(bytes: Buffer, buildOrigin: string, origin: string): Buffer;
export declare function packageLine(name: string, version: string, size: number): string;
export declare function deploymentRewriter(dir?: string): DeploymentRewriter | null;
