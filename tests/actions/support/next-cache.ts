// Stands in for `next/cache` outside a Next request (vi.mock("next/cache", ...)): revalidatePath
// needs Next's request store; here it only records its calls.
import { vi } from "vitest";

export const revalidatePath = vi.fn<(path: string, type?: "page" | "layout") => void>();
export const revalidateTag = vi.fn<(tag: string) => void>();
