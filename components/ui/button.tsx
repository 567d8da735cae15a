import type { ButtonHTMLAttributes } from "react";

type Variant = "primary" | "secondary" | "danger" | "ghost" | "ghost-danger";
type Size = "md" | "sm" | "xs";

const VARIANTS: Record<Variant, string> = {
  primary: "bg-brand-600 text-white shadow-sm hover:bg-brand-700 disabled:bg-brand-600/60",
  secondary: "border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50 disabled:text-slate-400",
  danger: "bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-600/60",
  ghost: "text-slate-700 hover:bg-slate-100",
  "ghost-danger": "text-red-700 hover:bg-red-50",
};

const SIZES: Record<Size, string> = {
  md: "px-4 py-2",
  sm: "px-3 py-1.5",
  xs: "px-2.5 py-1",
};

/**
 * A button's classes. Size and colour come only from here: Tailwind orders its utilities by
 * property and value, not by their order in `class`, so a `px-2` added after our `px-4` does not
 * win (a lint rule in eslint.config.mjs keeps such overrides out). `className` is for layout
 * (width, margins, flex).
 */
export function buttonClasses(variant: Variant = "primary", { size = "md", className = "" }: { size?: Size; className?: string } = {}): string {
  return `inline-flex items-center justify-center gap-2 rounded-md text-sm font-medium transition-colors disabled:cursor-not-allowed ${SIZES[size]} ${VARIANTS[variant]} ${className}`.trimEnd();
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: Size;
  pending?: boolean;
}

export function Button({ variant = "primary", size = "md", pending, className = "", children, disabled, ...rest }: ButtonProps) {
  return (
    <button className={buttonClasses(variant, { size, className })} disabled={disabled || pending} aria-busy={pending || undefined} {...rest}>
      {pending ? <span aria-hidden className="size-3 animate-spin rounded-full border-2 border-current border-t-transparent" /> : null}
      {children}
    </button>
  );
}
