import { z } from "zod";

export const setPlanReviewSchema = z.object({ review: z.enum(["default", "on", "off"], { error: "Choose a setting." }) });
