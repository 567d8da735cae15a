import type { ComponentProps } from "react";

/**
 * A box that scrolls sideways when its content (a wide table) does not fit, so that the page never
 * does. It is positioned (`relative`) on purpose: an absolutely positioned descendant, such as a
 * screen-reader-only label in a header cell, is otherwise placed against the page and not clipped
 * by the box, and one far to the right of a wide table widens the whole page. It takes the focus
 * (tabIndex 0), so that a keyboard can scroll it with the arrow keys too.
 */
export function ScrollX({ className = "", ...props }: ComponentProps<"div">) {
  return <div tabIndex={0} {...props} className={`relative overflow-x-auto ${className}`.trim()} />;
}
