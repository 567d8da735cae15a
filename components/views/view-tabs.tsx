"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Ellipsis, RotateCcw } from "lucide-react";
import { toast } from "@/components/ui/toast";
import { useActionForm } from "@/components/forms/use-action-form";
import { buttonClasses } from "@/components/ui/button";
import { updateViewAction } from "@/lib/actions/views/update-view";
import { Popover } from "@/components/ui/popover";
import { MoreViews } from "./more-views";
import { ViewMarks } from "./view-marks";
import { SaveViewForm } from "./save-view-form";
import type { ViewMenu, ViewMenuProps } from "./view-menu";
import { viewMenuTrigger } from "./styles";

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
  /** Favourites first, then the rest (ViewBar orders them): the most used, not every view. */
  tabs: ViewTab[];
  /** The person's other views on this page, listed by "More" (loaded when it opens). */
  moreViews: number;
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
      <nav aria-label="Saved views" className="flex min-w-0 basis-full items-center gap-1.5 sm:basis-auto sm:flex-1">
        {/* `relative`: a tab's screen-reader text (absolutely positioned) is then clipped by this box
            too; with the page as its containing block it stuck out past the screen's edge. */}
        <ul className="relative flex min-w-0 flex-1 items-center gap-1.5 overflow-x-auto py-1" data-testid="view-tabs">
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
        {/* Beside the row, not in it: the row scrolls sideways, and "More" stays in sight. */}
        {props.moreViews > 0 ? <MoreViews page={props.page} count={props.moreViews} /> : null}
      </nav>
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        {active && modified ? (
          <>
            {active.canManage ? <SaveChanges view={active} query={props.query} /> : null}
            <Link href={active.href} prefetch={false} className={buttonClasses("ghost", { size: "xs" })} data-testid="revert-view">
              <RotateCcw className="size-4" aria-hidden />
              Revert
            </Link>
          </>
        ) : null}
        {!active || modified ? <SaveAsNew {...props} label={active ? "Save as new" : "Save view"} /> : null}
        <Link href="/views" prefetch={false} className="px-1 text-sm text-brand-700 underline">
          All saved views
        </Link>
      </div>
    </div>
  );
}

function Tab({ tab, active, modified, page, currentHref }: { tab: ViewTab; active: boolean; modified: boolean } & ViewTabsProps) {
  return (
    <li className={tabClass} data-testid="view-tab" data-view-name={tab.name}>
      <Link
        href={tab.href}
        prefetch={false}
        aria-current={active ? "page" : undefined}
        title={`${tab.name}: ${tab.description}`}
        className="flex min-w-0 items-center gap-1.5 rounded-full py-1 pl-3 pr-1 aria-[current=page]:font-semibold"
      >
        <ViewMarks isFavourite={tab.isFavourite} scope={tab.scope} />
        <span className="max-w-48 truncate">{tab.name}</span>
        {tab.isDefault ? <span className="rounded bg-slate-100 px-1 text-xs font-normal text-slate-600">default</span> : null}
        {modified ? (
          <>
            <span className="size-2 shrink-0 rounded-full bg-amber-500" aria-hidden data-testid="unsaved-mark" />
            <span className="sr-only">(unsaved changes)</span>
          </>
        ) : null}
      </Link>
      <LazyViewMenu tab={tab} page={page} active={active} currentHref={currentHref} />
    </li>
  );
}

/** "Save": the active view takes the options on screen (only offered to who may manage it). */
function SaveChanges({ view, query }: { view: ViewTab; query: string }) {
  const router = useRouter();
  const { state, pending, fieldErrors, formProps } = useActionForm(updateViewAction, {
    onSuccess: (result) => {
      if (result.message) toast.success(result.message);
      router.refresh();
    },
  });
  return (
    <form {...formProps} aria-label={`Save these options to ${view.name}`} className="flex items-center gap-2" data-testid="save-view-changes">
      <input type="hidden" name="viewId" value={view.id} />
      <input type="hidden" name="query" value={query} />
      <button type="submit" className={buttonClasses("primary", { size: "xs" })} disabled={pending}>
        Save
      </button>
      {state.status === "error" ? (
        <p role="alert" className="text-sm text-red-700">
          {state.message ?? fieldErrors.query ?? "Not saved."}
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
    <Popover<HTMLAnchorElement>
      open={open}
      onOpenChange={setOpen}
      align="end"
      aria-label="Save as a new view"
      className="z-50 w-72 max-w-[calc(100vw-1rem)] rounded-lg border border-slate-200 bg-white p-4 shadow-lg"
      trigger={(props) => (
        <a href={saveAsNewHref} role="button" {...props} className={buttonClasses("secondary", { size: "xs" })} data-testid="save-view-toggle">
          {label}…
        </a>
      )}
    >
      <SaveViewForm page={page} query={query} idPrefix={`${page}-new-view`} onSaved={() => setOpen(false)} />
    </Popover>
  );
}

const loadViewMenu = () => import("./view-menu");

/**
 * The ⋯ button of a view: a stand-in until the menu's code (Radix's menu and dialogs) arrives, which
 * starts on the first sign of intent. A press before it arrives opens the menu when it does.
 */
function LazyViewMenu(props: ViewMenuProps) {
  const [Menu, setMenu] = useState<typeof ViewMenu | null>(null);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const [focused, setFocused] = useState(false);
  const load = () => void loadViewMenu().then((module) => setMenu(() => module.ViewMenu));
  if (Menu) return <Menu {...props} defaultOpen={openOnLoad} autoFocus={focused} />;
  const press = () => {
    setOpenOnLoad(true);
    load();
  };
  return (
    <button
      type="button"
      className={viewMenuTrigger}
      aria-label={`Actions for ${props.tab.name}`}
      aria-haspopup="menu"
      aria-expanded={false}
      data-testid="view-menu-trigger"
      onPointerEnter={load}
      onFocus={() => {
        setFocused(true);
        load();
      }}
      onBlur={() => setFocused(false)}
      onPointerDown={press}
      onClick={press}
    >
      <Ellipsis className="size-4" aria-hidden />
    </button>
  );
}
