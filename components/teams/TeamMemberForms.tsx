"use client";
import { useActionState } from "react";
import { TEAM_ROLES, type TeamRole } from "@/core/schemas/columns";
import { IDLE, fieldError, typed, type ActionResult } from "@/lib/forms/result";
import { Field, FormMessage, InlineError, TextField, describedBy } from "@/components/ui/form";

type Action = (prev: ActionResult, form: FormData) => Promise<ActionResult>;

/** Team admins invite a user by username; the user joins on accepting. */
export function TeamInviteForm({ action }: { action: Action }) {
  const [result, formAction, pending] = useActionState(action, IDLE);
  const roleError = fieldError(result, "role");
  return (
    <form className="stack" action={formAction}>
      <FormMessage result={result} fields={["username", "role"]} />
      <TextField id="member-username" label="Username" name="username" result={result} required autoComplete="off" hint="they need an account here first, and join when they accept" />
      <Field id="member-role" label="Role" error={roleError} hint="what they become on accepting: admins manage members; every member can edit systems and submit">
        <select id="member-role" name="role" defaultValue={typed(result, "role") || "member"} aria-describedby={describedBy("member-role", true)}>
          {TEAM_ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </Field>
      <div>
        <button type="submit" disabled={pending}>
          {pending ? "Inviting…" : "Send invitation"}
        </button>
      </div>
    </form>
  );
}

/**
 * A member's row controls: team admins change the role or remove; a member
 * who is not an admin can only leave. Errors (the last-admin rule) show here.
 */
export function TeamMemberControls({ action, who, role, manage, self }: { action: Action; who: string; role: TeamRole; manage: boolean; self: boolean }) {
  const [result, formAction, pending] = useActionState(action, IDLE);
  return (
    <form action={formAction} className="inline">
      {manage && (
        <>
          <select name="role" defaultValue={role} aria-label={`Role of ${who}`} key={role}>
            {TEAM_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>{" "}
          <button type="submit" name="intent" value="role" className="secondary" disabled={pending}>
            Save role
          </button>{" "}
        </>
      )}
      {(manage || self) && (
        <button type="submit" name="intent" value="remove" className="secondary" disabled={pending} aria-label={self ? "Leave team" : `Remove ${who}`}>
          {self ? "Leave team" : "Remove"}
        </button>
      )}
      <InlineError result={result} />
    </form>
  );
}

/** An open invitation's buttons: Accept and Decline for its invitee, Withdraw for the team's admins. */
export function InvitationControls({ action, side, what }: { action: Action; side: "invitee" | "team"; what: string }) {
  const [result, formAction, pending] = useActionState(action, IDLE);
  return (
    <form action={formAction} className="inline">
      {side === "invitee" ? (
        <>
          <button type="submit" name="intent" value="accept" disabled={pending} aria-label={`Accept ${what}`}>
            Accept
          </button>{" "}
          <button type="submit" name="intent" value="decline" className="secondary" disabled={pending} aria-label={`Decline ${what}`}>
            Decline
          </button>
        </>
      ) : (
        <button type="submit" name="intent" value="withdraw" className="secondary" disabled={pending} aria-label={`Withdraw ${what}`}>
          Withdraw
        </button>
      )}
      <InlineError result={result} />
    </form>
  );
}
