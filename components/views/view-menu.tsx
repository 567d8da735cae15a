"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { Dialog, DropdownMenu } from "radix-ui";
import { Copy, Ellipsis, Link as LinkIcon, Pencil, Pin, PinOff, Star, StarOff, Trash2 } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { useActionForm } from "@/components/forms/use-action-form";
import { buttonClasses } from "@/components/ui/button";
import ConfirmDialog from "@/components/ui/confirm-dialog";
import type { FormAction } from "@/lib/forms/action-state";
import { copyViewAction } from "@/lib/actions/views/copy-view";
import { deleteViewAction } from "@/lib/actions/views/delete-view";
import { favouriteViewAction } from "@/lib/actions/views/favourite-view";
import { setDefaultViewAction } from "@/lib/actions/views/set-default-view";
import { updateViewAction } from "@/lib/actions/views/update-view";
import { viewMenuTrigger } from "./styles";
import type { ViewTab } from "./view-tabs";
import { runViewAction, toastDeletedView } from "./view-action-client";

/**
 * A saved view's menu and its two dialogs, with Radix. components/views/view-tabs.tsx loads this
 * module when a person shows intent (pointer over the ⋯ button, focus, press), not with the page.
 */

const menuItem =
  "flex cursor-default select-none items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100 data-[disabled]:opacity-50";

export interface ViewMenuProps {
  tab: ViewTab;
  page: string;
  active: boolean;
  currentHref: string;
}

/** A view's own menu: default, copy link, favourite, rename, copy to my views, delete. */
export function ViewMenu({
  tab,
  page,
  active,
  currentHref,
  defaultOpen = false,
  autoFocus = false,
}: ViewMenuProps & {
  /** Opened at once: it was pressed before this module arrived. */
  defaultOpen?: boolean;
  /** Its stand-in had the focus. */
  autoFocus?: boolean;
}) {
  const router = useRouter();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function copyLink() {
    const url = new URL(tab.href, window.location.origin).toString();
    try {
      await navigator.clipboard.writeText(url);
      toast.success("Link copied");
    } catch {
      toast.error(`Could not copy the link: ${url}`);
    }
  }

  async function act(action: FormAction, fields: Record<string, string>) {
    const result = await runViewAction(action, fields);
    if (result.status === "success") router.refresh();
  }

  async function remove() {
    // The dialog has closed already; the toast says how it went, with Undo.
    const result = await runViewAction(deleteViewAction, { viewId: tab.id }, { quiet: true });
    if (result.status !== "success" || !result.data) return;
    toastDeletedView(result.message ?? "View deleted.", result.data, (href) => (active ? router.push(href) : router.refresh()));
    // The deleted view's own address would now say it is not available: stay on its options.
    if (active) router.replace(currentHref);
    else router.refresh();
  }

  return (
    <>
      {/* Not modal: a modal menu hides the rest of the page from assistive technology with
          aria-hidden while its links stay focusable (axe: aria-hidden-focus); Esc and a click
          outside still close it, and focus goes back to its trigger. */}
      <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
        <DropdownMenu.Trigger autoFocus={autoFocus} className={viewMenuTrigger} aria-label={`Actions for ${tab.name}`} data-testid="view-menu-trigger">
          <Ellipsis className="size-4" aria-hidden />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="start"
            sideOffset={4}
            collisionPadding={8}
            className="z-50 min-w-52 rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
            data-testid="view-menu"
          >
            <DropdownMenu.Item className={menuItem} onSelect={() => void act(setDefaultViewAction, { page, viewId: tab.isDefault ? "" : tab.id })}>
              {tab.isDefault ? <PinOff className="size-4" aria-hidden /> : <Pin className="size-4" aria-hidden />}
              {tab.isDefault ? "Stop using as default" : "Set as default"}
            </DropdownMenu.Item>
            <DropdownMenu.Item className={menuItem} onSelect={() => void copyLink()}>
              <LinkIcon className="size-4" aria-hidden />
              Copy link
            </DropdownMenu.Item>
            <DropdownMenu.Item className={menuItem} onSelect={() => void act(favouriteViewAction, { viewId: tab.id, favourite: tab.isFavourite ? "" : "on" })}>
              {tab.isFavourite ? <StarOff className="size-4" aria-hidden /> : <Star className="size-4" aria-hidden />}
              {tab.isFavourite ? "Remove from favourites" : "Add to favourites"}
            </DropdownMenu.Item>
            <DropdownMenu.Item className={menuItem} onSelect={() => void act(copyViewAction, { viewId: tab.id, name: "" })}>
              <Copy className="size-4" aria-hidden />
              Copy to my views
            </DropdownMenu.Item>
            {tab.canManage ? (
              <>
                <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
                <DropdownMenu.Item className={menuItem} onSelect={() => setRenaming(true)}>
                  <Pencil className="size-4" aria-hidden />
                  Rename…
                </DropdownMenu.Item>
                <DropdownMenu.Item className={`${menuItem} text-red-700`} onSelect={() => setDeleting(true)}>
                  <Trash2 className="size-4" aria-hidden />
                  Delete…
                </DropdownMenu.Item>
              </>
            ) : null}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>

      {/* The dialogs sit beside the menu, not in it: the menu closes (and unmounts) when an item is chosen. */}
      <RenameDialog tab={tab} open={renaming} onOpenChange={setRenaming} />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete “${tab.name}”?`}
        description={`${tab.scope === "TEAM" ? "Your whole team loses this view. " : ""}You can undo this for a few seconds after.`}
        confirmLabel="Delete view"
        onConfirm={() => void remove()}
      />
    </>
  );
}

function RenameDialog({ tab, open, onOpenChange }: { tab: ViewTab; open: boolean; onOpenChange: (open: boolean) => void }) {
  const router = useRouter();
  const { state, pending, fieldErrors, formProps } = useActionForm(updateViewAction, {
    onSuccess: (result) => {
      if (result.message) toast.success(result.message);
      onOpenChange(false);
      router.refresh();
    },
  });
  const error = state.status === "error" ? (fieldErrors.name ?? state.message) : undefined;
  const inputId = `rename-${tab.id}`;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-200 bg-white p-5 shadow-xl">
          <Dialog.Title className="text-base font-semibold text-slate-900">Rename view</Dialog.Title>
          <Dialog.Description className="mt-1 break-words text-sm text-slate-700">Now “{tab.name}”.</Dialog.Description>
          <form {...formProps} className="mt-4 space-y-3" aria-busy={pending || undefined}>
            <input type="hidden" name="viewId" value={tab.id} />
            <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
              New name
            </label>
            <input
              id={inputId}
              name="name"
              required
              maxLength={80}
              defaultValue={tab.name}
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              className="w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm"
            />
            {error ? (
              <p role="alert" className="text-sm text-red-700">
                {error}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <Dialog.Close className={buttonClasses("secondary", { size: "sm" })}>Cancel</Dialog.Close>
              <button type="submit" className={buttonClasses("primary", { size: "sm" })} disabled={pending}>
                Rename
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
