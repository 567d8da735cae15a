import Link from "next/link";

export default function NotFound() {
  return (
    <main id="main" className="mx-auto max-w-lg px-4 py-24 text-center">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-2 text-2xl font-semibold">This page does not exist</h1>
      <p className="mt-2 text-slate-600">The link may be old, or the address mistyped.</p>
      <Link href="/" className="mt-6 inline-block font-medium text-brand-700 hover:underline">
        Go to EMS Portal
      </Link>
    </main>
  );
}
