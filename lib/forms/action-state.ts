/**
 * What every server action answers a form (lib/actions/pipeline.ts makes it; the form hook in
 * components/forms shows it): field errors keyed by input name, a form-level message, and on
 * success optional data. `reauthRequired`: a sensitive action refused for want of a recent
 * re-authentication ("any": the password, or a code for two-factor people; "password": the password
 * itself); the form hook asks for it and sends the same submission again. Never an echo of what was typed: forms keep their values on the client.
 */
export type ActionState<TData = undefined> =
  | { status: "idle" }
  | { status: "error"; message?: string; fieldErrors?: Record<string, string>; reauthRequired?: ReauthProof }
  | { status: "success"; message?: string; data?: TData };

export type ActionErrorState = Extract<ActionState, { status: "error" }>;
export type ActionSuccessState<TData = undefined> = Extract<ActionState<TData>, { status: "success" }>;

/**
 * Which proof a refused sensitive action asks for (lib/auth/reauth.ts): any recent
 * re-authentication, or the password itself.
 */
export type ReauthProof = "any" | "password";

/** Before the first submission. */
export const IDLE: ActionState<never> = { status: "idle" };

/** The shape of every server action a form posts to (`useActionState`'s signature). */
export type FormAction<TData = undefined> = (previous: ActionState<TData>, formData: FormData) => Promise<ActionState<TData>>;
