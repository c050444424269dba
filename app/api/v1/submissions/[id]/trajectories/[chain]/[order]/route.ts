/** GET /api/v1/submissions/[id]/trajectories/[chain]/[order]: one bug's trajectory log as uploaded, for whoever may read the submission's trajectories. */
import { bugTextFileRoute } from "@/lib/submissions/bug-file-route";
import { bugTrajectoryLog } from "@/lib/submissions/downloads";

export const GET = bugTextFileRoute(bugTrajectoryLog);
