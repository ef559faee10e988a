import { PackageCheck } from "lucide-react";
import { downloadUrl } from "@/lib/deployment";
import { downloadPackage, type DownloadId } from "@/lib/downloads/packages";
import { builtDownloadsDir, readManifest, servedBytes } from "@/lib/downloads/served";
import { packageLine } from "@/server/deployment-rewrite.mjs";

/**
 * The tarball this site serves for a package, with its SHA-256, beside the install line that fetches it, so a
 * reader can check what npm runs. Guides are prerendered with the build's digest and size, one string each, which a
 * server started on another origin rewrites to those of the tarball it serves (server/deployment-rewrite.mjs).
 */
export async function PackageDownload({ id }: { id: DownloadId }) {
  const manifest = await readManifest();
  const built = manifest?.packages.find((p) => p.id === id);
  if (!manifest || !built)
    throw new Error(
      `No built ${downloadPackage(id).packageName} in dist/downloads: run npm run build:downloads (npm run build and npm run dev do)`,
    );
  // The file this server serves: the built one, or on another origin than the build's, its rewritten copy.
  const served = await servedBytes(builtDownloadsDir(), manifest, built);
  const url = downloadUrl(id, built.version);
  return (
    <aside
      aria-label={`${built.packageName} download`}
      data-testid="package-download"
      className="not-prose my-4 flex gap-3 rounded-lg border bg-muted/30 px-4 py-3 text-sm"
    >
      <PackageCheck className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 space-y-1">
        <p>
          {packageLine(built.packageName, built.version, served.bytes.length)}{" "}
          <a href={url} className="break-all font-medium text-primary underline underline-offset-4">
            {url}
          </a>
        </p>
        <p>
          SHA-256:{" "}
          <code className="break-all font-mono text-xs" data-testid="sha256">
            {served.sha256}
          </code>
        </p>
      </div>
    </aside>
  );
}
