import { SetupSkeleton } from "@/components/setup/setup-skeleton";

export default function Loading() {
  return <SetupSkeleton title="Health" />;
}
