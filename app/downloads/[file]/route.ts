import { route } from "@/lib/http/route";
import { downloadResponse } from "@/lib/downloads/served";

// GET /downloads/agora-mcp-client.tgz, /downloads/agora-mcp-server-0.1.0.tgz …: the packages this build made.
export const GET = route<undefined, undefined, undefined, { file: string }>({ name: "downloads", database: false }, ({ params, request }) =>
  downloadResponse(request, params.file),
);
