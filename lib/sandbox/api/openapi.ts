import { z } from "zod";
import { JSON_CONTENT_TYPE, type SandboxResponse } from "../core/http-types";
import { EVENTS, WEBHOOK_GROUPS, WEBHOOKS, type ResourceDescriptor } from "./descriptors";
import { listQuerySchema } from "./query";
import {
  errorBodySchema,
  eventItemSchema,
  eventPageSchema,
  eventSchema,
  headerPairSchema,
  linksSchema,
  metaSchema,
  tokenRequestBodySchema,
  tokenResponseSchema,
  validationErrorsSchema,
  webhookGroupItemSchema,
  webhookGroupPageSchema,
  webhookGroupSchema,
  webhookItemSchema,
  webhookPageSchema,
  webhookSchema,
} from "./resources";

/**
 * `GET /api/v1/openapi.json`: an OpenAPI 3.1 document generated from the zod schemas that validate
 * requests and describe responses, so the document cannot drift from the implementation.
 */
type JsonObject = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function componentSchemas(): JsonObject {
  const registry = z.registry<{ id: string }>();
  const named: [z.ZodType, string][] = [
    [headerPairSchema, "HeaderPair"],
    [webhookSchema, "Webhook"],
    [webhookGroupSchema, "WebhookGroup"],
    [webhookGroupItemSchema, "WebhookGroupItem"],
    [eventSchema, "Event"],
    [eventItemSchema, "EventItem"],
    [webhookItemSchema, "WebhookItem"],
    [linksSchema, "Links"],
    [metaSchema, "Meta"],
    [webhookGroupPageSchema, "WebhookGroupPage"],
    [webhookPageSchema, "WebhookPage"],
    [eventPageSchema, "EventPage"],
    [tokenRequestBodySchema, "TokenRequest"],
    [tokenResponseSchema, "TokenResponse"],
    [errorBodySchema, "Error"],
    [validationErrorsSchema, "ValidationErrors"],
  ];
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(schemas)) {
    // Embedded in an OpenAPI document, a component needs neither its own dialect nor its own id.
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

function queryParameters(resource: ResourceDescriptor): JsonObject[] {
  const shape = listQuerySchema(resource).shape;
  return Object.entries(shape).map(([name, schema]) => {
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonObject;
    const { description, $schema: _dialect, examples, ...rest } = json;
    void _dialect;
    return {
      name,
      in: "query",
      required: false,
      description,
      schema: rest,
      ...(Array.isArray(examples) && examples.length ? { example: examples[0] } : {}),
    };
  });
}

const rateLimitHeaders = {
  "X-Rate-Limit-Limit": { description: "Credits per window (2,000 per 10 minutes).", schema: { type: "integer" } },
  "X-Rate-Limit-Remaining": { description: "Credits left in this window.", schema: { type: "integer" } },
  "X-Rate-Limit-Reset": { description: "Seconds until the window resets.", schema: { type: "integer" } },
};

const paginationHeaders = {
  "X-Pagination-Total-Count": { schema: { type: "integer" } },
  "X-Pagination-Page-Count": { schema: { type: "integer" } },
  "X-Pagination-Current-Page": { schema: { type: "integer" } },
  "X-Pagination-Per-Page": { schema: { type: "integer" } },
  Link: { description: "RFC 8288 links: self, first, last, next, prev.", schema: { type: "string" } },
};

function errorResponse(description: string, extraHeaders: JsonObject = {}): JsonObject {
  return { description, headers: { ...rateLimitHeaders, ...extraHeaders }, content: { "application/json": { schema: ref("Error") } } };
}

const retryAfter = { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } };
const wwwAuthenticate = { "WWW-Authenticate": { schema: { type: "string", const: 'Bearer error="invalid_token"' } } };

function listingOperation(resource: ResourceDescriptor, pageSchema: string, operationId: string): JsonObject {
  return {
    operationId,
    summary: `List ${resource.label}`,
    description: "Costs 10 rate-limit credits. A page past the last returns the last page; _meta.currentPage says which.",
    security: [{ bearerAuth: [] }],
    parameters: queryParameters(resource),
    responses: {
      "200": {
        description: `A page of ${resource.label}.`,
        headers: { ...rateLimitHeaders, ...paginationHeaders },
        content: { "application/json": { schema: ref(pageSchema) } },
      },
      "400": errorResponse("A bad query parameter; the message names it."),
      "401": errorResponse("Missing, unknown, expired or revoked token.", wwwAuthenticate),
      "405": errorResponse("Only GET is allowed.", { Allow: { schema: { type: "string" } } }),
      "429": errorResponse("Rate limit exceeded.", retryAfter),
    },
  };
}

/** `fields` and `expand` of a listing: what a single-record read takes (the others are checked and ignored). */
function shapingParameters(resource: ResourceDescriptor): JsonObject[] {
  return queryParameters(resource).filter((parameter) => parameter.name === "fields" || parameter.name === "expand");
}

function singleRecordOperation(resource: ResourceDescriptor, itemSchema: string, operationId: string, singular: string): JsonObject {
  return {
    operationId,
    summary: `One ${singular}`,
    description: "Costs 1 rate-limit credit. The record itself, no envelope, shaped by fields and expand as in the listing.",
    security: [{ bearerAuth: [] }],
    parameters: [
      { name: "id", in: "path", required: true, description: `The ${singular}'s id, a positive integer.`, schema: { type: "integer", minimum: 1 } },
      ...shapingParameters(resource),
    ],
    responses: {
      "200": { description: `The ${singular}.`, headers: rateLimitHeaders, content: { "application/json": { schema: ref(itemSchema) } } },
      "400": errorResponse("The id is not a positive integer, or a bad fields/expand; the message says which."),
      "401": errorResponse("Missing, unknown, expired or revoked token.", wwwAuthenticate),
      "404": errorResponse(`No such ${singular} in this account.`),
      "405": errorResponse("Only GET is allowed.", { Allow: { schema: { type: "string" } } }),
      "429": errorResponse("Rate limit exceeded.", retryAfter),
    },
  };
}

/** The form fields of a write (docs/ems-api.md §8), described for people: lists use the bracket form. */
const WRITE_FORM_DESCRIPTION =
  "application/x-www-form-urlencoded;charset=UTF-8. Only the fields sent change (update). Booleans as 1 or 0; lists as name[]=a&name[]=b in order; " +
  "lists of objects as headers[0][key]=…&headers[0][value]=…; an empty list as the bare name (headers=) clears it. Unknown fields are a 422.";

function writeOperation(operationId: string, summary: string, success: JsonObject, options: { body: boolean; id: boolean; singular: string }): JsonObject {
  return {
    operationId,
    summary,
    description: "Costs 1 rate-limit credit, also when refused. Sets updated_at and updated_by (API (<consumer key>)).",
    security: [{ bearerAuth: [] }],
    ...(options.id
      ? {
          parameters: [
            { name: "id", in: "path", required: true, description: `The ${options.singular}'s id, a positive integer.`, schema: { type: "integer", minimum: 1 } },
          ],
        }
      : {}),
    ...(options.body
      ? {
          requestBody: {
            required: true,
            description: WRITE_FORM_DESCRIPTION,
            content: { "application/x-www-form-urlencoded": { schema: { type: "object", additionalProperties: { type: "string" } } } },
          },
        }
      : {}),
    responses: {
      ...success,
      ...(options.id ? { "400": errorResponse("The id is not a positive integer.") } : {}),
      "401": errorResponse("Missing, unknown, expired or revoked token.", wwwAuthenticate),
      ...(options.id ? { "404": errorResponse(`No such ${options.singular} in this account.`) } : {}),
      "405": errorResponse("Another method is expected here.", { Allow: { schema: { type: "string" } } }),
      ...(options.body ? { "415": errorResponse("The body is not form-encoded.") } : {}),
      "422": { description: "Validation failed; nothing changed.", headers: rateLimitHeaders, content: { "application/json": { schema: ref("ValidationErrors") } } },
      "429": errorResponse("Rate limit exceeded.", retryAfter),
    },
  };
}

/** Create, update and delete of webhooks or webhook groups (docs/ems-api.md §8.1, §8.2), each with its `.json` twin. */
function writePaths(base: string, schema: string, name: string, singular: string): Record<string, JsonObject>[] {
  const record = (description: string, status: string) => ({
    [status]: { description, headers: rateLimitHeaders, content: { "application/json": { schema: ref(schema) } } },
  });
  return [
    withJsonTwin(
      `${base}/create`,
      "post",
      writeOperation(`create${name}`, `Create a ${singular}`, record(`The new ${singular}.`, "201"), { body: true, id: false, singular }),
    ),
    withJsonTwin(
      `${base}/update/{id}`,
      "put",
      writeOperation(`update${name}`, `Change a ${singular}`, record(`The ${singular} after the change.`, "200"), { body: true, id: true, singular }),
    ),
    withJsonTwin(
      `${base}/{id}`,
      "delete",
      writeOperation(`delete${name}`, `Delete a ${singular}`, { "204": { description: "Deleted.", headers: rateLimitHeaders } }, { body: false, id: true, singular }),
    ),
  ];
}

/** Path objects merged method by method (a record's path has its read and its delete). */
function mergePaths(...parts: Record<string, JsonObject>[]): Record<string, JsonObject> {
  const merged: Record<string, JsonObject> = {};
  for (const part of parts) for (const [path, methods] of Object.entries(part)) merged[path] = { ...merged[path], ...methods };
  return merged;
}

/** The path and its `.json` twin (docs/ems-api.md §1), with distinct operation ids. */
function withJsonTwin(path: string, method: "get" | "post" | "put" | "delete", operation: JsonObject): Record<string, JsonObject> {
  return { [path]: { [method]: operation }, [`${path}.json`]: { [method]: { ...operation, operationId: `${String(operation.operationId)}Json` } } };
}

function buildDocument(baseUrl: string): JsonObject {
  const tokenOperation = {
    operationId: "createToken",
    summary: "Exchange the consumer key and secret for a bearer token",
    description:
      "Authorization: Basic Base64(<ENCODED_KEY>:<ENCODED_SECRET>), each part percent-encoded (a `+` decodes to a space). " +
      "Each call issues a new token valid for 30 minutes; expires_at is UTC, YYYY-MM-DD HH:MM:SS.",
    security: [{ basicAuth: [] }],
    requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: ref("TokenRequest") } } },
    responses: {
      "200": { description: "A new token.", headers: rateLimitHeaders, content: { "application/json": { schema: ref("TokenResponse") } } },
      "400": errorResponse("The body is not exactly grant_type=client_credentials."),
      "401": errorResponse("Missing, malformed or wrong credentials."),
      "405": errorResponse("Only POST is allowed.", { Allow: { schema: { type: "string", const: "POST" } } }),
      "415": errorResponse("Content-Type is not application/x-www-form-urlencoded."),
      "429": errorResponse("Rate limit exceeded.", retryAfter),
    },
  };
  const groups = listingOperation(WEBHOOK_GROUPS, "WebhookGroupPage", "listWebhookGroups");
  const webhooks = listingOperation(WEBHOOKS, "WebhookPage", "listWebhooks");
  const events = listingOperation(EVENTS, "EventPage", "listEvents");
  return {
    openapi: "3.1.0",
    info: {
      title: "Event Management Service API (EMS Portal sandbox)",
      version: "1.0.0",
      description: "The EMS API contract as implemented by the EMS Portal sandbox. Errors share the Error shape; every answer carries X-Rate-Limit-* headers.",
    },
    servers: [{ url: baseUrl }],
    paths: mergePaths(
      {
        ...withJsonTwin("/api/v1/oauth2/token", "post", tokenOperation),
        ...withJsonTwin("/api/v1/webhook-groups", "get", groups),
        ...withJsonTwin("/api/v1/webhook-groups/{id}", "get", singleRecordOperation(WEBHOOK_GROUPS, "WebhookGroupItem", "getWebhookGroup", "webhook group")),
        ...withJsonTwin("/api/v1/webhooks", "get", webhooks),
        ...withJsonTwin("/api/v1/webhooks/{id}", "get", singleRecordOperation(WEBHOOKS, "WebhookItem", "getWebhook", "webhook")),
        ...withJsonTwin("/api/v1/events", "get", events),
        ...withJsonTwin("/api/v1/events/{id}", "get", singleRecordOperation(EVENTS, "EventItem", "getEvent", "event")),
        "/api/v1/openapi.json": {
          get: {
            operationId: "getOpenApiDocument",
            summary: "This document",
            security: [],
            responses: { "200": { description: "OpenAPI 3.1 document.", headers: rateLimitHeaders, content: { "application/json": { schema: { type: "object" } } } } },
          },
        },
      },
      ...writePaths("/api/v1/webhooks", "Webhook", "Webhook", "webhook"),
      ...writePaths("/api/v1/webhook-groups", "WebhookGroup", "WebhookGroup", "webhook group"),
    ),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        basicAuth: { type: "http", scheme: "basic" },
        bearerAuth: { type: "http", scheme: "bearer" },
      },
    },
  };
}

/** Built once per base URL (the `servers` entry is the only part that varies). */
const documents = new Map<string, string>();

export function openApiDocument(baseUrl: string): JsonObject {
  return JSON.parse(openApiJson(baseUrl)) as JsonObject;
}

function openApiJson(baseUrl: string): string {
  let json = documents.get(baseUrl);
  if (json === undefined) {
    json = JSON.stringify(buildDocument(baseUrl));
    if (documents.size > 32) documents.clear();
    documents.set(baseUrl, json);
  }
  return json;
}

export function openApiResponse(baseUrl: string): SandboxResponse {
  return { status: 200, headers: { "content-type": JSON_CONTENT_TYPE }, body: openApiJson(baseUrl) };
}
