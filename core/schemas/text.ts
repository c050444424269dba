/**
 * A name a person types (a team, a system and its fields, a token, a display
 * name, a run manifest's labels) is stored and shown as typed, so it is one
 * line of visible text: control characters are refused. CR and LF would forge
 * lines wherever a name is written out (logs, CSV, notifications), and a
 * direction override makes one name read as another.
 */
import { z } from "zod";

// C0 and C1 controls and DEL (\p{Cc}), the line and paragraph separators, and bidirectional embeddings, overrides and isolates
const ONE_LINE = /^[^\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/u;

export const CONTROL_CHARACTERS_MESSAGE = "must not contain control characters (line breaks, tabs, direction overrides)";

/** `schema`, also refusing control characters. */
export const oneLine = (schema: z.ZodString): z.ZodString => schema.regex(ONE_LINE, CONTROL_CHARACTERS_MESSAGE);
