import { Download, MousePointerClick } from "lucide-react";
import { buttonVariants } from "@/components/ui/button";
import { clientConfig } from "@/lib/deployment";
import { BUNDLE_FILE } from "@/lib/downloads/bundle-manifest";
import { installLinks } from "@/lib/downloads/install-links";
import { cn } from "@/lib/utils";

/**
 * One-click installs beside the config block, carrying its command and settings: Claude Desktop opens the MCP
 * bundle (its settings' defaults are the block's), Cursor and VS Code their documented install links. The block
 * stays for every other host.
 */
export function InstallButtons() {
  const links = installLinks(clientConfig());
  const button = cn(buttonVariants({ variant: "outline", size: "sm" }), "justify-start gap-2 no-underline");
  return (
    <div className="not-prose my-4" data-testid="install-buttons">
      <p className="text-sm text-muted-foreground">Or install it in one click, with the same settings:</p>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <a href={`/downloads/${BUNDLE_FILE}`} download className={button} data-host="claude-desktop">
          <Download className="size-4" aria-hidden="true" /> Add to Claude Desktop
        </a>
        <a href={links.cursor} className={button} data-host="cursor">
          <MousePointerClick className="size-4" aria-hidden="true" /> Add to Cursor
        </a>
        <a href={links.vscode} className={button} data-host="vscode">
          <MousePointerClick className="size-4" aria-hidden="true" /> Add to VS Code
        </a>
      </div>
      <p className="mt-2 text-xs text-muted-foreground">
        Claude Desktop opens the downloaded file and asks to install it; Cursor and VS Code open and ask to add the
        server.
      </p>
    </div>
  );
}
