// Before its JavaScript loads (or without it), a form submits natively. A form with no action and no
// method submits as GET, with every field in the URL: a password or an API secret would end up in
// the browser's history and in access logs. These forms must render with their server action as
// the form's action (Next renders that as a POST) or with method="post".
import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChangePasswordForm } from "@/components/auth/change-password-form";
import { SignInForm } from "@/components/auth/sign-in-form";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { ActionForm } from "@/components/forms/action-form";
import { CredentialForm } from "@/components/settings/credential-form";
import { IDLE } from "@/lib/forms/action-state";

function formTags(element: ReactElement): string[] {
  return renderToString(element).match(/<form\b[^>]*>/g) ?? [];
}

/** What React renders for a form whose `action` is a function: here a plain one, in Next the server action's POST. */
const REACT_ACTION = /\saction="javascript:[^"]*"/;

describe("forms that carry a password or a secret never fall back to GET", () => {
  it.each([
    ["the credential form", createElement(CredentialForm, { defaultBaseUrl: "", sandboxBaseUrl: null, replacing: false })],
    ["the sign-up form", createElement(SignUpForm, { callbackUrl: "/" })],
    ["the change-password form", createElement(ChangePasswordForm, { email: "a@example.test" })],
  ])("%s posts to its server action", (_name, element) => {
    const [tag, ...others] = formTags(element);
    expect(others).toEqual([]);
    expect(tag).toMatch(REACT_ACTION);
    expect(tag).not.toMatch(/method="get"/i);
  });

  it("the sign-in form (next-auth in the browser) posts to its own page", () => {
    expect(formTags(createElement(SignInForm, { callbackUrl: "/" }))).toEqual([expect.stringMatching(/\smethod="post"/)]);
  });

  it("so does every form built on ActionForm", () => {
    const props = { action: async () => IDLE, children: createElement("button", { type: "submit" }, "Save") };
    const [tag] = formTags(createElement(ActionForm, props));
    expect(tag).toMatch(REACT_ACTION);
  });
});
