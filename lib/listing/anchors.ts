import type { EmsResource } from "@/lib/ems/contract";

/**
 * A listing row's element id, so that a link can point at it (`/webhook-groups#webhook-group-411`,
 * `/webhooks#webhook-411`, `/events#event-7`): the page scrolls to it, below the sticky bars, and
 * marks it for a moment (app/globals.css, `:target`).
 */
export const ANCHOR_PREFIX: Readonly<Record<EmsResource, string>> = {
  "webhook-groups": "webhook-group-",
  webhooks: "webhook-",
  events: "event-",
};
