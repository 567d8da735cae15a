import { planIdSchema } from "./plan-fields.validation";

/** The plan the action is for. */
export const draftReplanSchema = planIdSchema;
