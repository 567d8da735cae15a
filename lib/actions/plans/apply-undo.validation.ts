import { planIdSchema } from "./plan-fields.validation";

/** The undo the action applies without review. */
export const applyUndoSchema = planIdSchema;
