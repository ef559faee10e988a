import { errorResponse } from "@/lib/errors";
import { downloadResponse } from "@/lib/downloads/served";

// GET /downloads/agora-mcp-client.tgz, /downloads/agora-mcp-server-0.1.0.tgz …: the packages this build made.
export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  try {
    return await downloadResponse(request, (await params).file);
  } catch (error) {
    return errorResponse(error, "downloads");
  }
}
