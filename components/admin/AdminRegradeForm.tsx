"use client";
import { useActionState } from "react";
import { IDLE, type FormAction } from "@/lib/forms/result";

/** Re-grade from stored logs: one submission by id, or all of them with the field empty. */
export function AdminRegradeForm({ regrade }: { regrade: FormAction<string> }) {
  const [result, action, pending] = useActionState(regrade, IDLE);
  return (
    <form action={action} className="inline">
      <label>
        Submission id (empty: all submissions) <input name="submission" type="text" />
      </label>{" "}
      <button type="submit" disabled={pending}>
        Re-grade
      </button>
      {result.status === "ok" && <p role="status">{result.data}</p>}
      {result.status === "error" && (
        <p className="error" role="alert">
          {result.message ?? Object.values(result.fields)[0]}
        </p>
      )}
    </form>
  );
}
