"use client";
import { useActionState } from "react";
import { TEAM_ROLES, type TeamRole } from "@/lib/schemas/columns";
import { Field, FormMessage, IDLE, TextField, describedBy, fieldError, typed, type ActionResult } from "./AccountForm";

type Action = (prev: ActionResult, form: FormData) => Promise<ActionResult>;

/** Team admins add a member by username. */
export function TeamMemberAddForm({ action }: { action: Action }) {
  const [result, formAction, pending] = useActionState(action, IDLE);
  const roleError = fieldError(result, "role");
  return (
    <form className="stack" action={formAction}>
      <FormMessage result={result} fields={["username", "role"]} />
      <TextField id="member-username" label="Username" name="username" result={result} required autoComplete="off" hint="they need an account here first" />
      <Field id="member-role" label="Role" error={roleError} hint="admins manage members; every member can edit systems and submit">
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
          {pending ? "Adding…" : "Add member"}
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
  const error = result.status === "error" ? (result.message ?? Object.values(result.fields)[0]) : undefined;
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
      {error && (
        <span className="error" role="alert">
          {" "}
          {error}
        </span>
      )}
    </form>
  );
}
