// A group's page asks for the names of the events its webhooks fire for (one listing), and for
// nothing when they name none: bench:budget drives the page through these same functions.
import { describe, expect, it } from "vitest";
import type { WebhookGroup } from "@/lib/ems";
import { groupEventIds, loadGroupEventNames } from "@/lib/listing/group";
import type { Actor } from "@/lib/access/actor";

const group = (webhooks: Partial<NonNullable<WebhookGroup["webhooks"]>[number]>[]) => ({ id: 1, name: "g", webhooks }) as unknown as WebhookGroup;

describe("the events a group's webhooks name", () => {
  it("are the event ids of every webhook that does not fire for any event", () => {
    expect(
      groupEventIds(
        group([
          { any_event: false, event_ids: [3, 1] },
          { any_event: true, event_ids: [9] },
          { any_event: false, event_ids: [1, 7] },
        ]),
      ),
    ).toEqual([3, 1, 1, 7]);
  });

  it("are none, and nothing is asked, for a group without webhooks or whose webhooks fire for any event", () => {
    const actor = {} as Actor;
    expect(groupEventIds(group([]))).toEqual([]);
    expect(loadGroupEventNames(actor, group([]))).toBeNull();
    expect(loadGroupEventNames(actor, group([{ any_event: true }]))).toBeNull();
    expect(loadGroupEventNames(actor, { id: 2, name: "no webhooks expanded" } as unknown as WebhookGroup)).toBeNull();
  });
});
