"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { AlertDialog, Dialog, DropdownMenu, Popover } from "radix-ui";
import { Copy, Ellipsis, Link as LinkIcon, Pencil, Pin, PinOff, RotateCcw, Star, StarOff, Trash2, User, Users } from "lucide-react";
import { toast } from "sonner";
import { useActionForm } from "@/components/forms/use-action-form";
import { buttonClasses } from "@/components/ui/button";
import type { FormAction } from "@/lib/forms/action-state";
import { copyViewAction } from "@/lib/actions/views/copy-view";
import { deleteViewAction } from "@/lib/actions/views/delete-view";
import { favouriteViewAction } from "@/lib/actions/views/favourite-view";
import { setDefaultViewAction } from "@/lib/actions/views/set-default-view";
import { updateViewAction } from "@/lib/actions/views/update-view";
import { SaveViewForm } from "./save-view-form";
import { runViewAction, toastDeletedView } from "./view-action-client";

/** One saved view as its tab needs it (worked out on the server: the description, the link, the rights). */
export interface ViewTab {
  id: string;
  name: string;
  href: string;
  /** The view in words ("Status is live · Starts, newest first"). */
  description: string;
  scope: "PERSONAL" | "TEAM";
  canManage: boolean;
  isDefault: boolean;
  isFavourite: boolean;
}

export interface ViewTabsProps {
  page: string;
  allHref: string;
  allDescription: string;
  /** Favourites first, then the rest (ViewBar orders them). */
  tabs: ViewTab[];
  activeId: string | null;
  /** The options on screen differ from the active view's. */
  modified: boolean;
  /** The options on screen, as a view would store them. */
  query: string;
  /** This page with these options and no view (where a deleted active view leaves the person). */
  currentHref: string;
  /** The page that saves a view without JavaScript (/views/new). */
  saveAsNewHref: string;
}

const tabClass =
  "flex shrink-0 items-center rounded-full border text-sm transition-colors border-slate-200 bg-white text-slate-700 hover:bg-slate-50 has-[a[aria-current=page]]:border-brand-600 has-[a[aria-current=page]]:bg-brand-50 has-[a[aria-current=page]]:text-brand-700";
const menuItem =
  "flex cursor-default select-none items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100 data-[disabled]:opacity-50";

/**
 * The saved views of a listing page as tabs (links: each is a page of its own, and works without
 * JavaScript), with the unsaved-changes mark and Save / Save as new / Revert for the active one, and
 * a small menu per view. The row scrolls sideways in its own box; it never widens the page.
 */
export function ViewTabs(props: ViewTabsProps) {
  const { tabs, activeId, modified } = props;
  const active = tabs.find((tab) => tab.id === activeId) ?? null;
  return (
    <div className="flex w-full min-w-0 flex-wrap items-center gap-2" data-testid="view-bar">
      <nav aria-label="Saved views" className="min-w-0 basis-full sm:basis-auto sm:flex-1">
        <ul className="flex items-center gap-1.5 overflow-x-auto py-1" data-testid="view-tabs">
          <li className={tabClass}>
            <Link
              href={props.allHref}
              prefetch={false}
              aria-current={activeId === null ? "page" : undefined}
              title={props.allDescription}
              className="rounded-full px-3 py-1 aria-[current=page]:font-semibold"
              data-testid="view-tab-all"
            >
              All
            </Link>
          </li>
          {tabs.map((tab) => (
            <Tab key={tab.id} {...props} tab={tab} active={tab.id === activeId} modified={tab.id === activeId && modified} />
          ))}
        </ul>
      </nav>
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        {active && modified ? (
          <>
            {active.canManage ? <SaveChanges view={active} query={props.query} /> : null}
            <Link href={active.href} prefetch={false} className={buttonClasses("ghost", "px-2.5 py-1")} data-testid="revert-view">
              <RotateCcw className="size-4" aria-hidden />
              Revert
            </Link>
          </>
        ) : null}
        {!active || modified ? <SaveAsNew {...props} label={active ? "Save as new" : "Save view"} /> : null}
        <Link href="/views" prefetch={false} className="px-1 text-sm text-brand-700 underline">
          Manage views
        </Link>
      </div>
    </div>
  );
}

function Tab({ tab, active, modified, page, currentHref }: { tab: ViewTab; active: boolean; modified: boolean } & ViewTabsProps) {
  const ScopeIcon = tab.scope === "TEAM" ? Users : User;
  return (
    <li className={tabClass} data-testid="view-tab" data-view-name={tab.name}>
      <Link
        href={tab.href}
        prefetch={false}
        aria-current={active ? "page" : undefined}
        title={`${tab.name}: ${tab.description}`}
        className="flex min-w-0 items-center gap-1.5 rounded-full py-1 pl-3 pr-1 aria-[current=page]:font-semibold"
      >
        {tab.isFavourite ? (
          <>
            <Star className="size-3.5 shrink-0 fill-amber-400 text-amber-500" aria-hidden />
            <span className="sr-only">Favourite, </span>
          </>
        ) : null}
        <ScopeIcon className="size-3.5 shrink-0 text-slate-500" aria-hidden />
        <span className="sr-only">{tab.scope === "TEAM" ? "Team view: " : "Personal view: "}</span>
        <span className="max-w-48 truncate">{tab.name}</span>
        {tab.isDefault ? <span className="rounded bg-slate-100 px-1 text-xs font-normal text-slate-600">default</span> : null}
        {modified ? (
          <>
            <span className="size-2 shrink-0 rounded-full bg-amber-500" aria-hidden data-testid="unsaved-mark" />
            <span className="sr-only">(unsaved changes)</span>
          </>
        ) : null}
      </Link>
      <ViewMenu tab={tab} page={page} active={active} currentHref={currentHref} />
    </li>
  );
}

/** "Save": the active view takes the options on screen (only offered to who may manage it). */
function SaveChanges({ view, query }: { view: ViewTab; query: string }) {
  const router = useRouter();
  const { state, pending, formProps } = useActionForm(updateViewAction, {
    onSuccess: (result) => {
      if (result.message) toast.success(result.message);
      router.refresh();
    },
  });
  return (
    <form {...formProps} aria-label={`Save these options to ${view.name}`} className="flex items-center gap-2" data-testid="save-view-changes">
      <input type="hidden" name="viewId" value={view.id} />
      <input type="hidden" name="query" value={query} />
      <button type="submit" className={buttonClasses("primary", "px-2.5 py-1")} disabled={pending}>
        Save
      </button>
      {state.status === "error" ? (
        <p role="alert" className="text-sm text-red-700">
          {state.message ?? "Not saved."}
        </p>
      ) : null}
    </form>
  );
}

/**
 * "Save as new" in a popover. The trigger is a link to /views/new with these options, so without
 * JavaScript it opens that page's form instead.
 */
function SaveAsNew({ page, query, saveAsNewHref, label }: ViewTabsProps & { label: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Anchor asChild>
        <a
          href={saveAsNewHref}
          role="button"
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={(event) => {
            event.preventDefault();
            setOpen((was) => !was);
          }}
          className={buttonClasses("secondary", "px-2.5 py-1")}
          data-testid="save-view-toggle"
        >
          {label}…
        </a>
      </Popover.Anchor>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          aria-label="Save as a new view"
          className="z-50 w-72 max-w-[calc(100vw-1rem)] rounded-lg border border-slate-200 bg-white p-4 shadow-lg"
        >
          <SaveViewForm page={page} query={query} idPrefix={`${page}-new-view`} onSaved={() => setOpen(false)} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** A view's own menu: default, copy link, favourite, rename, copy to my views, delete. */
function ViewMenu({ tab, page, active, currentHref }: { tab: ViewTab; page: string; active: boolean; currentHref: string }) {
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
    const result = await runViewAction(deleteViewAction, { viewId: tab.id }, { quiet: true });
    setDeleting(false);
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
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          className="mr-1 rounded-full p-1 text-slate-500 hover:bg-slate-200 hover:text-slate-800 data-[state=open]:bg-slate-200"
          aria-label={`Actions for ${tab.name}`}
          data-testid="view-menu-trigger"
        >
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
      <AlertDialog.Root open={deleting} onOpenChange={setDeleting}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
          <AlertDialog.Content
            className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-200 bg-white p-5 shadow-xl"
            data-testid="confirm-dialog"
          >
            <AlertDialog.Title className="break-words text-base font-semibold text-slate-900">Delete “{tab.name}”?</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-slate-700">
              {tab.scope === "TEAM" ? "Your whole team loses this view. " : ""}You can undo this for a few seconds after.
            </AlertDialog.Description>
            <div className="mt-5 flex justify-end gap-2">
              <AlertDialog.Cancel className={buttonClasses("secondary", "px-3 py-1.5")}>Cancel</AlertDialog.Cancel>
              <button type="button" className={buttonClasses("danger", "px-3 py-1.5")} onClick={() => void remove()}>
                Delete view
              </button>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
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
              <Dialog.Close className={buttonClasses("secondary", "px-3 py-1.5")}>Cancel</Dialog.Close>
              <button type="submit" className={buttonClasses("primary", "px-3 py-1.5")} disabled={pending}>
                Rename
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
