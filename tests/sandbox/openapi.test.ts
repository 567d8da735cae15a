import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventSchema, webhookGroupSchema, webhookSchema } from "@/lib/sandbox/api/resources";
import { listOk, startSandboxServer, tokenFor, type StartedSandbox } from "./helpers";

let sandbox: StartedSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer();
});
afterAll(() => sandbox.close());

type OpenApi = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, { parameters?: { name: string; schema: Record<string, unknown> }[] }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
};

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document of the whole contract", async () => {
    const response = await fetch(`${sandbox.baseUrl}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-rate-limit-limit")).toBe("2000");
    const document = (await response.json()) as OpenApi;
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");

    expect(document.servers).toEqual([{ url: sandbox.baseUrl }]);
    expect(Object.keys(document.paths).sort()).toEqual([
      "/api/v1/events",
      "/api/v1/events.json",
      "/api/v1/events/{id}",
      "/api/v1/events/{id}.json",
      "/api/v1/oauth2/token",
      "/api/v1/oauth2/token.json",
      "/api/v1/openapi.json",
      "/api/v1/webhook-groups",
      "/api/v1/webhook-groups.json",
      "/api/v1/webhook-groups/create",
      "/api/v1/webhook-groups/create.json",
      "/api/v1/webhook-groups/update/{id}",
      "/api/v1/webhook-groups/update/{id}.json",
      "/api/v1/webhook-groups/{id}",
      "/api/v1/webhook-groups/{id}.json",
      "/api/v1/webhooks",
      "/api/v1/webhooks.json",
      "/api/v1/webhooks/create",
      "/api/v1/webhooks/create.json",
      "/api/v1/webhooks/update/{id}",
      "/api/v1/webhooks/update/{id}.json",
      "/api/v1/webhooks/{id}",
      "/api/v1/webhooks/{id}.json",
    ]);
    expect(Object.keys(document.paths["/api/v1/webhooks/{id}"]).sort()).toEqual(["delete", "get"]);
    const parameters = document.paths["/api/v1/webhook-groups"].get.parameters!.map((parameter) => parameter.name);
    expect(parameters).toEqual(["fields", "expand", "search", "searchCondition", "page", "per-page", "sort", "ids"]);
    expect(document.paths["/api/v1/webhooks"].get.parameters!.map((parameter) => parameter.name)).toEqual(parameters);
    expect(document.paths["/api/v1/events/{id}.json"].get.parameters!.map((parameter) => parameter.name)).toEqual(["id", "fields", "expand"]);
  });

  it("is generated from the same zod schemas that shape the data", async () => {
    const document = (await (await fetch(`${sandbox.baseUrl}/api/v1/openapi.json`)).json()) as OpenApi;
    expect(Object.keys(document.components.schemas.WebhookGroup.properties!)).toEqual(Object.keys(webhookGroupSchema.shape));
    expect(Object.keys(document.components.schemas.Event.properties!)).toEqual(Object.keys(eventSchema.shape));
    expect(document.components.schemas.Webhook.required).toContain("trigger_on_delete");
    expect(Object.keys(document.components.schemas.Webhook.properties!)).toEqual(Object.keys(webhookSchema.shape));
    const hooks = await listOk(sandbox.baseUrl, await tokenFor(sandbox.baseUrl), "webhooks");
    expect(Object.keys(hooks.items[0])).toEqual(Object.keys(document.components.schemas.Webhook.properties!));
    const token = await tokenFor(sandbox.baseUrl);
    const page = await listOk(sandbox.baseUrl, token, "webhook-groups");
    expect(Object.keys(page.items[0])).toEqual(Object.keys(document.components.schemas.WebhookGroup.properties!));
  });
});
