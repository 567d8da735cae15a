/**
 * Tailwind utilities that set the same thing. Tailwind orders its utilities in the stylesheet by
 * property and value, not by their order in `class`, so of two in one group the stylesheet picks,
 * whatever the code meant (an added `px-2` never beats a `px-4`). Used on the buttons' classes
 * (tests/ui/button-classes.test.ts; the lint rule in eslint.config.mjs uses the same groups) and on every element of every page (e2e/page-widths.spec.ts).
 * Only unprefixed utilities: `sm:px-2` beside `px-4` is how responsive styles are written.
 */
const COLOUR = "(white|black|transparent|current|[a-z]+-\\d{2,3})(/\\d+)?";
export const UTILITY_GROUPS: Record<string, RegExp> = {
  "padding-x": /^px-/,
  "padding-y": /^py-/,
  padding: /^p-/,
  "font size": /^text-(xs|sm|base|lg|\d?xl)$/,
  "font weight": /^font-(thin|light|normal|medium|semibold|bold|extrabold)$/,
  "text colour": new RegExp(`^text-${COLOUR}$`),
  background: new RegExp(`^bg-${COLOUR}$`),
  "border colour": new RegExp(`^border-${COLOUR}$`),
  shadow: /^shadow(-(none|xs|sm|md|lg|xl))?$/,
  radius: /^rounded(-(none|sm|md|lg|xl|2xl|3xl|full))?$/,
  display: /^(block|inline-block|inline|flex|inline-flex|grid|inline-grid|hidden|contents|table)$/,
  width: /^w-/,
  height: /^h-/,
};

/** The groups a class list sets more than once. */
export function utilityClashes(classList: string): string[] {
  const tokens = classList.split(/\s+/).filter((token) => token && !token.includes(":"));
  return Object.entries(UTILITY_GROUPS)
    .filter(([, pattern]) => new Set(tokens.filter((token) => pattern.test(token))).size > 1)
    .map(([group]) => group);
}
