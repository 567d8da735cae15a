import { CenteredCard } from "@/components/shell/centered-card";

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return <CenteredCard>{children}</CenteredCard>;
}
