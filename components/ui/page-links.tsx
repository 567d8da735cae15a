import Link from "next/link";

/**
 * "Page 2 of 5 (93 plans) Previous Next" under a short list (plans, the inbox): plain links, so the
 * page is in the URL and works without JavaScript. Nothing when everything fits on one page.
 */
export function PageLinks({ page, pageCount, counted, hrefFor }: { page: number; pageCount: number; counted: string; hrefFor: (page: number) => string }) {
  if (pageCount <= 1) return null;
  return (
    <p className="text-sm text-slate-600">
      Page {page} of {pageCount} ({counted}){" "}
      {page > 1 ? (
        <Link href={hrefFor(page - 1)} className="mr-3 text-brand-700 underline">
          Previous
        </Link>
      ) : null}
      {page < pageCount ? (
        <Link href={hrefFor(page + 1)} className="text-brand-700 underline">
          Next
        </Link>
      ) : null}
    </p>
  );
}
