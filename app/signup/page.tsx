import Link from "next/link";
import { redirect } from "next/navigation";
import { AccountSignUpForm } from "@/components/accounts/AccountSignUpForm";
import { getViewer } from "@/lib/auth/viewer";
import { signUpAction } from "./actions";

export const metadata = { title: "Sign up · ChainSWE" };

export default async function SignUpPage() {
  if (await getViewer()) redirect("/teams");
  return (
    <main>
      <h1>Sign up</h1>
      <p className="muted">
        An account lets you create a team, describe its systems and submit predictions. Already have one? <Link href="/signin">Sign in</Link>.
      </p>
      <AccountSignUpForm signUp={signUpAction} />
    </main>
  );
}
