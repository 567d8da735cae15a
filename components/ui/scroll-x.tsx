import type { ComponentProps } from "react";

/**
 * A box that scrolls sideways when its content (a wide table) does not fit, so that the page never
 * does. It is positioned (`relative`) on purpose: an absolutely positioned descendant, such as a
 * screen-reader-only label in a header cell, is otherwise placed against the page and not clipped
 * by the box, and one far to the right of a wide table widens the whole page.
 */
export function ScrollX({ className = "", ...props }: ComponentProps<"div">) {
  return <div {...props} className={`relative overflow-x-auto ${className}`.trim()} />;
}
