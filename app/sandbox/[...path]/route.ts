import { sandboxSettings } from "@/lib/env";
import { log } from "@/lib/log";
import { handleEmbeddedSandboxRequest } from "@/lib/sandbox/embedded";

// The sandbox served inside the portal: http://localhost:3000/sandbox is an EMS base URL (docs/ems-api.md §1).
// Its settings come from lib/env.ts; lib/sandbox never reads the environment itself.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const sandboxLog = log.child({ scope: "sandbox" });

function handler(request: Request): Promise<Response> {
  const { enabled, options } = sandboxSettings();
  return handleEmbeddedSandboxRequest(request, { enabled, options: { ...options, logger: sandboxLog } });
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as OPTIONS, handler as HEAD };
