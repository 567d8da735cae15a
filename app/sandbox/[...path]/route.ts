import { handleEmbeddedSandboxRequest } from "@/lib/sandbox/embedded";

// The sandbox served inside the portal: http://localhost:3000/sandbox is an EMS base URL (docs/ems-api.md §1).
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

function handler(request: Request): Promise<Response> {
  return handleEmbeddedSandboxRequest(request);
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as OPTIONS, handler as HEAD };
