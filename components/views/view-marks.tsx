import { Star, User, Users } from "lucide-react";

/**
 * What stands before a view's name wherever it is listed (the tabs, "More"): a star for a favourite
 * and the scope's icon, each with words for screen readers.
 */
export function ViewMarks({ isFavourite, scope }: { isFavourite: boolean; scope: "PERSONAL" | "TEAM" }) {
  const ScopeIcon = scope === "TEAM" ? Users : User;
  return (
    <>
      {isFavourite ? (
        <>
          <Star className="size-3.5 shrink-0 fill-amber-400 text-amber-500" aria-hidden />
          <span className="sr-only">Favourite, </span>
        </>
      ) : null}
      <ScopeIcon className="size-3.5 shrink-0 text-slate-500" aria-hidden />
      <span className="sr-only">{scope === "TEAM" ? "Team view: " : "Personal view: "}</span>
    </>
  );
}
