// The portal's public origin (lib/portal-origin.ts), one answer for every link it sends and for its
// own sandbox: NEXTAUTH_URL, then Vercel's address, then the request's Host, then the dev server.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const queued: { link: string }[] = [];
vi.mock("@/lib/alerts/deliveries", () => ({
  queueAlerts: async (input: { link: string }) => {
    queued.push(input);
    return 1;
  },
}));
vi.mock("@/lib/db/prisma", () => ({
  prisma: { changeTracker: { findUnique: async () => ({ accountLabel: "demo (api.example.com)" }) } },
}));

const { configuredPortalOrigin, portalOriginFor } = await import("@/lib/portal-origin");
const { sandboxBaseUrl } = await import("@/lib/credentials/sandbox");
const { destinationPolicy } = await import("@/lib/ems/destination");
const { announceSync } = await import("@/lib/history/announce");

const VARIABLES = ["NEXTAUTH_URL", "VERCEL_ENV", "VERCEL_URL", "VERCEL_PROJECT_PRODUCTION_URL", "NODE_ENV", "PORT"] as const;

beforeEach(() => {
  for (const name of VARIABLES) vi.stubEnv(name, "");
  vi.stubEnv("NODE_ENV", "development");
  queued.length = 0;
});
afterEach(() => vi.unstubAllEnvs());

describe("portalOriginFor", () => {
  it("NEXTAUTH_URL first (its origin), whatever Vercel or the request says", () => {
    vi.stubEnv("NEXTAUTH_URL", "https://portal.example.com/app/");
    vi.stubEnv("VERCEL_PROJECT_PRODUCTION_URL", "ems.vercel.app");
    expect(portalOriginFor("evil.example")).toBe("https://portal.example.com");
  });

  it("on Vercel's production: https:// and VERCEL_PROJECT_PRODUCTION_URL, not the deployment's own URL", () => {
    vi.stubEnv("VERCEL_ENV", "production");
    vi.stubEnv("VERCEL_PROJECT_PRODUCTION_URL", "ems.example.org");
    vi.stubEnv("VERCEL_URL", "ems-abc123.vercel.app");
    expect(portalOriginFor(null)).toBe("https://ems.example.org");
  });

  it("on a Vercel preview: https:// and VERCEL_URL, the preview's own address", () => {
    vi.stubEnv("VERCEL_ENV", "preview");
    vi.stubEnv("VERCEL_PROJECT_PRODUCTION_URL", "ems.example.org");
    vi.stubEnv("VERCEL_URL", "ems-git-branch.vercel.app");
    expect(portalOriginFor("ems-git-branch.vercel.app")).toBe("https://ems-git-branch.vercel.app");
  });

  it("VERCEL_URL alone is used too", () => {
    vi.stubEnv("VERCEL_URL", "ems-abc123.vercel.app");
    expect(configuredPortalOrigin()).toBe("https://ems-abc123.vercel.app");
  });

  it("not under `vercel dev` (plain http on the developer's machine): the request's Host", () => {
    vi.stubEnv("VERCEL_ENV", "development");
    vi.stubEnv("VERCEL_URL", "localhost:3000");
    expect(configuredPortalOrigin()).toBeNull();
    expect(portalOriginFor("localhost:3000")).toBe("http://localhost:3000");
  });

  it("nothing configured: the request's Host (http in development, https in production), never a header a client forges", () => {
    expect(portalOriginFor("localhost:3000")).toBe("http://localhost:3000");
    expect(sandboxBaseUrl(new Headers({ host: "localhost:3000", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }))).toBe(
      "http://localhost:3000/sandbox",
    );
    vi.stubEnv("NODE_ENV", "production");
    expect(portalOriginFor("portal.example.com")).toBe("https://portal.example.com");
  });

  it("no request either: the development server on PORT", () => {
    vi.stubEnv("PORT", "3100");
    expect(portalOriginFor(null)).toBe("http://localhost:3100");
    expect(portalOriginFor("not a host/at all")).toBe("http://localhost:3100");
  });

  it("refuses a Vercel variable that is not a host name", () => {
    vi.stubEnv("VERCEL_URL", "https://ems.vercel.app/");
    expect(() => configuredPortalOrigin()).toThrow(/VERCEL_URL/);
  });
});

describe("the places that use it", () => {
  it("an alert's link on Vercel with only VERCEL_PROJECT_PRODUCTION_URL set points to the production domain, not localhost", async () => {
    vi.stubEnv("VERCEL_PROJECT_PRODUCTION_URL", "ems.example.org");
    await announceSync({
      trackerId: "tracker-1",
      teamId: "team-1",
      syncId: "sync-1",
      changes: [
        {
          kind: "group",
          recordId: 7,
          groupId: 7,
          recordName: "Orders",
          change: "changed",
          field: "name",
          before: "Orders",
          after: "Orders 2",
          secrets: null,
          changedBy: null,
          changedAt: null,
        },
      ],
      groupNames: new Map([[7, "Orders 2"]]),
      newlyFailing: [],
      baseline: false,
      signal: new AbortController().signal,
    });
    expect(queued.map((alert) => alert.link)).toEqual(["https://ems.example.org/changes"]);
  });

  it("the sandbox's base URL and the outbound door's idea of the portal's own origin agree on Vercel", () => {
    vi.stubEnv("VERCEL_PROJECT_PRODUCTION_URL", "ems.example.org");
    vi.stubEnv("SANDBOX_ENABLED", "true");
    const baseUrl = sandboxBaseUrl(new Headers({ host: "ems.example.org" }));
    expect(baseUrl).toBe("https://ems.example.org/sandbox");
    expect(destinationPolicy().sandboxOrigins).toContain(new URL(baseUrl).origin);
  });
});
