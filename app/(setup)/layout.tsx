import { CenteredCard } from "@/components/shell/centered-card";

/** Pages a signed-in person passes through before the portal (two-factor enrolment a team requires). */
export default function SetupLayout({ children }: { children: React.ReactNode }) {
  return <CenteredCard width="lg">{children}</CenteredCard>;
}
