import { TableSkeleton } from "@/components/listing/table-skeleton";

export default function Loading() {
  return (
    <div className="space-y-4">
      <div className="h-8 w-48 animate-pulse rounded bg-slate-200" />
      <TableSkeleton />
    </div>
  );
}
