/** GET /api/v1/submissions/[id]/logs/[chain]/[order]: one graded bug's full test log, for whoever may read the submission. */
import { bugTextFileRoute } from "@/lib/submissions/bug-file-route";
import { bugLog } from "@/lib/submissions/downloads";

export const GET = bugTextFileRoute(bugLog);
