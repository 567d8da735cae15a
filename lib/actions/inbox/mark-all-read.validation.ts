import { z } from "zod";

/** Nothing to choose: the actor's own unread items. */
export const markAllReadSchema = z.object({});
