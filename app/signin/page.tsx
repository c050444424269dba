import Link from "next/link";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/accounts/SignInForm";
import { getViewer } from "@/lib/auth/viewer";
import { githubEnabled } from "@/lib/auth/options";
import { sameSitePath } from "@/lib/http/safe-redirect";

export const metadata = { title: "Sign in · ChainSWE" };


/** next-auth's ?error= codes that reach this page (OAuth failures, a session that could not be made). */
const ERRORS: Record<string, string> = {
  CredentialsSignin: "wrong username or password",
  OAuthAccountNotLinked: "that email already belongs to an account here; sign in with its username and password",
  AccessDenied: "access denied",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  // a path on this site only, so a link cannot send anyone elsewhere after signing in
  const callbackUrl = sameSitePath(params.callbackUrl, "/teams");
  if (await getViewer()) redirect(callbackUrl);
  const error = typeof params.error === "string" ? (ERRORS[params.error] ?? "sign-in failed; try again") : null;
  return (
    <main>
      <h1>Sign in</h1>
      {params.created === "1" && <p role="status">Your account is ready: sign in with it.</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <SignInForm callbackUrl={callbackUrl} github={githubEnabled()} />
      <p className="muted">
        No account yet? <Link href="/signup">Sign up</Link>.
      </p>
    </main>
  );
}
