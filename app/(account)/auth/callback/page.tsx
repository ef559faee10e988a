import { Loader2 } from "lucide-react";

export default function CallbackPage() {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-24 text-muted-foreground">
      <Loader2 className="size-8 animate-spin text-primary" />
      <p>Authenticating...</p>
    </div>
  );
}
